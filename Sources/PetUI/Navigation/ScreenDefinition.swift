import PetCore

// ScreenDefinition.swift — what a screen is, in one type and one file (Screens/<Name>Screen.swift):
// its menu entry, the rows of its list and where they are drawn, its action table (which inputs do
// something and what: it both gates the input and makes the hint bar), what those inputs do, and
// its drawing. The screens are registered in one table, `ScreenID.definition` (Screens.swift). The
// navigator keeps only navigation: the back stack, idle/dim/sleep, toasts, the reminder overlay and
// the menu (docs/architecture.md, "Adding a screen").

/// One screen of the device. Every hook but `render` has a default (no list, no actions but those
/// the navigator adds, nothing on input).
protocol ScreenDefinition {
    /// The screen's name in the menu.
    static var title: String { get }
    /// Its menu icon: 10×10, "X" lit (a framed square by default).
    static var icon: [String] { get }
    /// Where its list is drawn on a display, and how tall its rows are (nil: no list).
    static func listFrame(_ m: ListLayout.Metrics, profile: DisplayProfile, state: PetState, now: Instant) -> ListFrame?
    /// The rows of its list, labelled for `config.profile`, in display order.
    static func rows(ui: UIState, state: PetState, now: Instant, config: Navigator.Config) -> [NavRow]
    /// The highlighted row of its list (an index into the selectable rows; `ui.cursor` by default).
    static func cursor(_ ui: UIState) -> Int
    /// Keeps the highlighted row `cursor` (already within the rows) in `ui`.
    static func setCursor(_ cursor: Int, _ ui: inout UIState, hasRows: Bool)
    /// Its action table: every input that does something on it, and what (`t.add`). The navigator
    /// adds the reminder overlay's and the menu's, and double back going home.
    static func actions(_ t: inout NavActionTable)
    /// What an input listed in its table does: changes the navigator's view, returns commands.
    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect]
    /// Draws it (the hint bar, the menu and the overlays are drawn over it by `Screens.render`).
    static func render(_ c: ScreenContext, _ canvas: inout Canvas)
    /// Resets its part of the UI state when it is opened (`state`/`now` nil: opened without them).
    static func opened(_ ui: inout UIState, state: PetState?, now: Instant?)
    /// What hold select on its menu entry does at once, without opening it (nil: nothing now).
    static func menuJob(state: PetState) -> (command: NavCommand, action: Action)?
    /// The menu job also opens the screen (to show what it started).
    static var menuJobOpens: Bool { get }
    /// It stays shown past the idle timeout (a running focus session, a pairing code).
    static func staysOpen(ui: UIState, state: PetState) -> Bool
}

extension ScreenDefinition {
    static var icon: [String] {
        ["XXXXXXXXXX"] + Array(repeating: "X........X", count: 8) + ["XXXXXXXXXX"]
    }
    static func listFrame(_ m: ListLayout.Metrics, profile: DisplayProfile, state: PetState, now: Instant) -> ListFrame? { nil }
    static func rows(ui: UIState, state: PetState, now: Instant, config: Navigator.Config) -> [NavRow] { [] }
    static func cursor(_ ui: UIState) -> Int { ui.cursor }
    static func setCursor(_ cursor: Int, _ ui: inout UIState, hasRows: Bool) { ui.cursor = cursor }
    static func actions(_ t: inout NavActionTable) {}
    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] { [] }
    static func opened(_ ui: inout UIState, state: PetState?, now: Instant?) {}
    static func menuJob(state: PetState) -> (command: NavCommand, action: Action)? { nil }
    static var menuJobOpens: Bool { false }
    static func staysOpen(ui: UIState, state: PetState) -> Bool { false }
}

/// A screen's action table while it is made: what the screen sees (the UI state, the domain state,
/// the board, the highlighted row) and `add`.
struct NavActionTable {
    let ui: UIState
    let state: PetState
    let now: Instant
    let config: Navigator.Config
    /// The highlighted row's id (`task:rent`), nil without a list or a selectable row.
    let selected: String?
    /// How many rows the cursor can be on.
    let count: Int
    /// On home: what the card steps through (computed once per view).
    let home: [NavRows.TodayRow?]?
    private(set) var entries: [NavAction] = []

    init(ui: UIState, state: PetState, now: Instant, config: Navigator.Config, selected: String?, count: Int,
         home: [NavRows.TodayRow?]?) {
        self.ui = ui; self.state = state; self.now = now; self.config = config
        self.selected = selected; self.count = count; self.home = home
    }

    mutating func add(_ i: NavInput, _ v: NavVerb, hinted: Bool = true, rank: Int = 1) {
        entries.append(NavAction(i, v, hinted: hinted, rank: rank))
    }

    /// Up and down where there is somewhere to go (more than one row).
    mutating func moves() {
        guard count > 1 else { return }
        add(.previous, .up, rank: 2)
        add(.next, .down, rank: 2)
    }

    /// The highlighted row's id without its kind (`rent` for `task:rent`) if it is of `kind`.
    func sel(_ kind: String) -> String? {
        guard let id = selected, id.hasPrefix(kind + ":") else { return nil }
        return String(id.dropFirst(kind.count + 1))
    }

    /// The board has a one-press down (three buttons have only double A).
    var oneDown: Bool { config.keys.hasOnePressDown }

    func contains(_ input: NavInput) -> Bool { entries.contains { $0.input == input } }
}
