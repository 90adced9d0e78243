import PetCore

// NavigatorActions.swift — the action table's vocabulary and its assembly: for the screen shown,
// which inputs do something and what. The same table gates the inputs (`Navigator.handle` ignores
// an input the table does not list) and makes the hint bar (named with the board's keys), so a
// hint cannot promise what the key does not do, and a key cannot do what no hint could name
// (docs/navigation.md). Each screen's own entries are in its file (`ScreenDefinition.actions`);
// the navigator adds the reminder overlay's, the menu's and double back going home.

/// What an input does on the screen shown. Tests drive each hinted input and check its verb.
public enum NavVerb: Sendable, Equatable {
    /// The highlight moves (a list's cursor, the menu, home's card, the detail's task, a value).
    case up, down
    /// The previous or next page (stats), the next tab (shop).
    case pagePrevious, pageNext, tab
    /// Opens a screen (the menu closes).
    case open(ScreenID)
    /// Opens or closes the menu over home.
    case menu, close
    /// Back one screen; home from anywhere.
    case back, home
    /// Settings: edit a value (or arm the factory reset), save it, leave it unchanged.
    case edit, save, cancel
    /// The urge log's first step: go on to the outcome (the first run's steps too).
    case nextStep
    /// The first run is left for good (it never shows again).
    case skip
    /// Home: the card goes back to the next task (and the missed-reminders banner is seen).
    case first
    /// Home: the first-run tip is dismissed (stored: it stays away after a restart).
    case dismissTip
    /// The reminder overlay goes away.
    case dismiss
    /// A domain command is sent.
    case command(NavCommand)
    /// Everything is erased (the armed factory-reset row on boards without the chord).
    case erase

    /// The word the hint bar shows.
    public var word: String {
        switch self {
        case .up: "up"
        case .down: "down"
        case .pagePrevious: "prev"
        case .pageNext: "next"
        case .tab: "tab"
        case .open(let s): s == .urgeLog ? "urge" : "open"
        case .menu: "menu"
        case .close: "close"
        case .back: "back"
        case .home: "home"
        case .edit: "edit"
        case .save: "save"
        case .cancel: "cancel"
        case .nextStep: "next"
        case .skip: "skip"
        case .first: "first"
        case .dismissTip: "hide tip"
        case .dismiss: "ok"
        case .command(let c): c.word
        case .erase: "erase"
        }
    }
}

/// The domain commands an input sends, as the hints name them.
public enum NavCommand: String, Sendable, Equatable {
    case complete, check, uncheck, startTask, buy, feed, startFocus, stopFocus, dropCommitment, confirm, wear, takeOff,
         place, store, pet, toggle, unpair, logUrge

    /// The hint's word.
    public var word: String {
        switch self {
        case .complete: "done"
        case .startTask, .startFocus: "start"
        case .stopFocus: "stop"
        case .dropCommitment: "drop"
        case .takeOff: "take off"
        case .store: "put away"
        case .toggle: "switch"
        case .logUrge: "log"
        case .check, .uncheck, .buy, .feed, .confirm, .wear, .place, .pet, .unpair: "\(self)"
        }
    }

    /// Whether `action` is this command.
    public func matches(_ action: Action) -> Bool {
        switch (self, action) {
        case (.complete, .completeTask), (.check, .habit(.check)), (.uncheck, .habit(.uncheck)),
             (.startTask, .startTask), (.buy, .shop(.buy)), (.feed, .shop(.feed)),
             (.startFocus, .commitment(.startFocus)), (.stopFocus, .commitment(.cancelFocus)),
             (.dropCommitment, .commitment(.cancel)), (.confirm, .commitment(.verify)), (.wear, .shop(.equip)),
             (.takeOff, .shop(.unequip)), (.place, .shop(.place)), (.store, .shop(.unplace)), (.pet, .petThePet),
             (.unpair, .phone(.unpair)), (.logUrge, .quit(.log)),
             (.toggle, .setDevice), (.toggle, .pause), (.toggle, .resume):
            return true
        default:
            return false
        }
    }
}

/// One entry of the action table.
public struct NavAction: Sendable, Equatable {
    public var input: NavInput
    public var verb: NavVerb
    /// Shown in the hint bar (false for a second key doing the same: the joystick's right on
    /// lists, double C on home's own screen, hold A moving down in the menu where double A does too).
    public var hinted: Bool
    /// 0 key action, 1 other, 2 moving (`NavHint.rank`).
    public var rank: Int
    public init(_ input: NavInput, _ verb: NavVerb, hinted: Bool = true, rank: Int = 1) {
        self.input = input; self.verb = verb; self.hinted = hinted; self.rank = rank
    }
}

extension Navigator {
    /// Every input that does something on the screen `ui` shows (with `state` and this board),
    /// and what: the reminder overlay's or the menu's while they show, else the screen's own
    /// (its definition's `actions`). `handle` ignores an input not listed here; the hint bar shows
    /// the listed ones this board has a key for.
    static func actions(_ ui: UIState, state: PetState, now: Instant, config: Config, selected: String?,
                        count: Int, home: [NavRows.TodayRow?]?) -> [NavAction] {
        var t = NavActionTable(ui: ui, state: state, now: now, config: config, selected: selected, count: count, home: home)
        if let r = ui.reminder, ui.screen != .boot {
            // Any key dismisses; select opens what it is about, hold select completes its task.
            if r.source != .pet { t.add(.select, .open(Navigator.reminderTarget(r, state: state)), rank: 0) }
            if r.source == .task, state.tasks[r.ref]?.isOpen == true { t.add(.holdSelect, .command(.complete), rank: 0) }
            t.add(.back, .dismiss, rank: 0)
            for i in NavInput.allCases where !t.contains(i) && i != .chord && i != .reset {
                t.add(i, .dismiss, hinted: false)
            }
            if r.source != .pet { t.add(.forward, .open(Navigator.reminderTarget(r, state: state)), hinted: false) }
            return t.entries
        }
        if let i = ui.menu {
            t.add(.previous, .up, rank: 2)
            // Three buttons: hold A moves down too (one press, where double A is two).
            t.add(.next, .down, hinted: t.oneDown, rank: 2)
            if !t.oneDown { t.add(.holdPrevious, .down, rank: 2) }
            let entry = NavRows.menu[min(max(0, i), NavRows.menu.count - 1)]
            t.add(.select, .open(entry), rank: 0)
            t.add(.forward, .open(entry), hinted: false)
            if let job = NavRows.menuJob(entry, state: state) { t.add(.holdSelect, .command(job.command), rank: 0) }
            t.add(.back, .close, rank: 1)
            t.add(.doubleBack, .close, hinted: false)
            return t.entries
        }
        if ui.screen != .home && ui.screen != .boot { t.add(.doubleBack, .home, hinted: false) }
        // The screen's own table (its definition, Screens/<Name>Screen.swift).
        ui.screen.definition.actions(&t)
        return t.entries
    }

    /// Where select on a reminder goes.
    static func reminderTarget(_ r: Reminder, state: PetState) -> ScreenID {
        switch r.source {
        case .task where state.tasks[r.ref]?.isOpen == true: .taskDetail
        case .task, .habit, .checkin, .course: .today
        case .commitment: .commitments
        case .focus: .focus
        case .pet: .home
        }
    }

    /// The first-run tip on home ("Tip: hold B = done", with this board's key), until the owner
    /// completes or checks something with a long press or dismisses it.
    static func tip(state: PetState, config: Config) -> String? {
        guard !state.device.holdTipDone, let key = config.keys.name(.holdSelect) else { return nil }
        return "Tip: " + key + " = done"
    }

    static func hints(_ table: [NavAction], keys: NavKeys) -> [NavHint] {
        var seen: Set<NavInput> = []
        var out: [NavHint] = []
        for a in table where a.hinted && seen.insert(a.input).inserted {
            guard let key = keys.name(a.input) else { continue }
            out.append(NavHint(input: a.input, key: key, action: a.verb.word, verb: a.verb, rank: a.rank))
        }
        return out
    }
}
