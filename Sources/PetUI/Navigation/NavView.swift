import PetCore

// NavView.swift — what the navigator shows, computed once by the navigator for the board and display
// in use (`Navigator.view`), carried to the screens by `ScreenContext.view`. Screens only draw it:
// the rows of a list, which one is highlighted, which rows are visible, and the button hints. So
// what the screen highlights is always the row the navigator acts on (docs/navigation.md).

/// One row of a list as the navigator shows it.
public struct NavRow: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A row the cursor can be on.
        case item
        /// A section label ("Tasks", "Habits 1/4"): small, muted, with a rule; not selectable.
        case section
        /// A line of text in the list that is not selectable ("Nothing due today").
        case note
    }

    /// A mark at the start of a row.
    public enum Mark: Sendable, Equatable {
        case none
        case box(checked: Bool)
        /// Started, not done: a box with a dot.
        case started
        case glyph(Character)
        /// A shop item's picture (`ItemPicture`), then `badge` (the lock, the check) if any.
        case picture(item: String, badge: Character?)
    }

    /// Stable id: `task:<id>`, `habit:<item>`, `item:<id>`, `commitment:<id>`, `setting:<row>`,
    /// `menu:<screen>`, `trigger:<id>`, `outcome:<outcome>`; `section:<n>` and `note:<n>` for the
    /// rows that are not selectable. `ui.row` in scenarios is the highlighted row's id.
    public var id: String
    public var kind: Kind
    /// The row's text (as drawn, before ellipsizing).
    public var label: String
    /// The value on the right (a due time, a price, a setting's value), if any.
    public var value: String?
    public var mark: Mark
    /// Drawn in the muted colour (locked or unaffordable items, stored home items).
    public var muted: Bool
    /// Draw `value` in the row's face even on colour displays (values that matter: settings).
    public var valueLarge: Bool
    /// A second line and its right-hand text, for layouts that draw rows as cards (commitments).
    public var detail: String?
    public var detailValue: String?

    /// The label's short form (an item's name without its first words: "Glasses" for "Round
    /// glasses"), drawn instead of the label when the whole label does not fit beside the value:
    /// the device's own words are never shortened with "..." (docs/design.md, "Spacing").
    public var short: String?

    public init(id: String, kind: Kind = .item, label: String, value: String? = nil, mark: Mark = .none,
                muted: Bool = false, valueLarge: Bool = false, detail: String? = nil, detailValue: String? = nil,
                short: String? = nil) {
        self.id = id; self.kind = kind; self.label = label; self.value = value; self.mark = mark
        self.muted = muted; self.valueLarge = valueLarge; self.detail = detail; self.detailValue = detailValue
        self.short = short
    }

    /// The short form of a catalogue item's name: its last word ("Round glasses" → "Glasses"), or
    /// for a skin its first ("Midnight skin" → "Midnight"); nil for a one-word name.
    public static func shortName(_ name: String) -> String? {
        let words = name.split(separator: " ")
        guard words.count > 1, let last = words.last, let first = words.first else { return nil }
        let w = last.lowercased() == "skin" ? first : last
        return w.prefix(1).uppercased() + w.dropFirst()
    }

    public var isSelectable: Bool { kind == .item }
}

/// A list as the screen draws it: every row (section labels included), the highlighted one, and the
/// window of rows the screen's list layout shows on this display.
public struct ListView: Sendable, Equatable {
    public var rows: [NavRow]
    /// Index into `rows` of the highlighted row (nil: nothing to select).
    public var selected: Int?
    /// The first row drawn.
    public var first: Int
    /// How many rows the list layout of this screen shows at once on this display (`ListLayout`).
    public var visible: Int

    public init(rows: [NavRow], selected: Int?, first: Int, visible: Int) {
        self.rows = rows; self.selected = selected; self.first = first; self.visible = visible
    }

    /// The highlighted row.
    public var selectedRow: NavRow? { selected.flatMap { rows.indices.contains($0) ? rows[$0] : nil } }
    /// The rows that can be selected, in order (`UIState.cursor` indexes these).
    public var items: [NavRow] { rows.filter(\.isSelectable) }
    /// The indices of the rows drawn.
    public var visibleRange: Range<Int> { min(first, rows.count)..<min(rows.count, first + visible) }
}

/// What one input does on the screen shown, named with the key that gives it on this board
/// ("B select", "OK select", "hold OK erase").
public struct NavHint: Sendable, Equatable {
    public var input: NavInput
    /// The key (or gesture) on this board: "A", "hold B", "^", "OK", "AA" (a double tap).
    public var key: String
    /// What it does here: "up", "open", "save", "erase".
    public var action: String
    /// What the input does, as the navigator's action table says (tests drive it and check).
    public var verb: NavVerb
    /// 0: the screen's key actions (kept on the smallest displays); 1: other actions; 2: moving
    /// (up, down) — dropped first when the line is short of room.
    public var rank: Int
    public var text: String { key + " " + action }
}

/// How the board in use names the keys that give each input, for the hints ("A", "B", "C" on three
/// buttons; "^", "v", "OK", "<", ">" on a joystick; long presses as "hold B"; inputs only a double
/// tap gives as the key twice, "AA" — three buttons' down; docs/design.md, "The hint vocabulary"). `InputLayout.keys` (PetDevice) makes it from a
/// board's gesture map.
public struct NavKeys: Sendable, Equatable {
    /// Inputs one press gives (a tap or a long press).
    public var names: [NavInput: String]
    /// Inputs only a double tap gives.
    public var doubles: [NavInput: String]
    public init(_ names: [NavInput: String], doubles: [NavInput: String] = [:]) { self.names = names; self.doubles = doubles }
    public func name(_ input: NavInput) -> String? { names[input] ?? doubles[input] }
    /// The board has a one-press down (a D key, the joystick): three buttons have only double A.
    public var hasOnePressDown: Bool { names[.next] != nil }

    /// Three buttons (A up, B select, C back): what a `Navigator.Config` assumes unless told.
    public static let threeButtons = NavKeys([
        .previous: "A", .select: "B", .back: "C",
        .holdPrevious: "hold A", .holdSelect: "hold B", .holdBack: "hold C",
    ], doubles: [.next: "AA", .doubleSelect: "BB", .doubleBack: "CC"])
}

/// Everything a screen draws that the navigator decides: the list (for list screens and the menu)
/// and the button hints.
public struct NavView: Sendable, Equatable {
    /// The list shown (the menu's while the menu is open), nil on screens without one.
    public var list: ListView?
    /// The hints for the screen shown, in order (what each key does here on this board): the
    /// hinted entries of `actions` named with `keys` (made when asked: the navigator makes a view
    /// for every input, the screen draws one).
    public var hints: [NavHint] { Navigator.hints(actions, keys: keys) }
    /// The board's key names.
    public var keys: NavKeys
    /// The first-run tip to show on home ("Tip: hold B = done"), nil once learned or dismissed.
    public var tip: String?
    /// The action table the hints come from (every input that does something here, and what).
    public var actions: [NavAction]
    /// On home: what the card steps through (`NavRows.home`), computed once per view.
    public var homeItems: [NavRows.TodayRow?]?

    public init(list: ListView? = nil, keys: NavKeys = .threeButtons, tip: String? = nil, actions: [NavAction] = [],
                homeItems: [NavRows.TodayRow?]? = nil) {
        self.list = list; self.keys = keys; self.tip = tip; self.actions = actions; self.homeItems = homeItems
    }

    /// The hint bar's text: "A up   B select   C back".
    public var hintText: String { hints.map(\.text).joined(separator: "   ") }

    /// The hints the strip shows (docs/design.md, "The hint vocabulary"): at most three, each in
    /// its one form ("hold B done", never "hB:done"), as many as `fits` accepts, in this order —
    /// the screen's first key action; the down move on boards without a down key (three buttons'
    /// "AA down" or "hold A down", which nothing else would teach); the other key actions; up; the other
    /// actions; down; back last (C is back everywhere).
    public func stripHints(fits: ([NavHint]) -> Bool) -> [NavHint] {
        let all = hints
        let keyActions = all.filter { $0.rank == 0 }
        let doubleDown = all.filter { $0.verb == .down && !keys.hasOnePressDown }
        let up = all.filter { $0.verb == .up }
        let down = all.filter { $0.verb == .down && keys.hasOnePressDown }
        let back = all.filter { $0.rank != 0 && ($0.verb == .back || $0.verb == .close) }
        let others = all.filter { $0.rank == 1 && $0.verb != .back && $0.verb != .close }
        let order = Array(keyActions.prefix(1)) + doubleDown + Array(keyActions.dropFirst()) + up + others + down + back
        var shown: [NavHint] = []
        for h in order where shown.count < 3 && !shown.contains(where: { $0.input == h.input }) {
            if fits(shown + [h]) { shown.append(h) }
        }
        return shown
    }

    /// The strip's hints as one line ("B open  AA down  C back"), for text that quotes them.
    public func hintLine(fits: (String) -> Bool) -> String {
        stripHints { fits($0.map(\.text).joined(separator: "  ")) }.map(\.text).joined(separator: "  ")
    }
}
