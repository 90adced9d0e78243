import PetCore

// NavigatorActions.swift — the navigator's action table (issue 10 item 2): for the screen shown,
// which inputs do something and what. The same table gates the inputs (`Navigator.handle` ignores
// an input the table does not list) and makes the hint bar (named with the board's keys), so a
// hint cannot promise what the key does not do, and a key cannot do what no hint could name.

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
    /// The urge log's first step: go on to the outcome.
    case nextStep
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
    /// and what. `handle` ignores an input not listed here; the hint bar shows the listed ones
    /// this board has a key for.
    static func actions(_ ui: UIState, state: PetState, now: Instant, config: Config, selected: String?,
                        count: Int, home: [NavRows.TodayRow?]?) -> [NavAction] {
        func sel(_ kind: String) -> String? {
            guard let id = selected, id.hasPrefix(kind + ":") else { return nil }
            return String(id.dropFirst(kind.count + 1))
        }
        var a: [NavAction] = []
        func add(_ i: NavInput, _ v: NavVerb, hinted: Bool = true, rank: Int = 1) { a.append(NavAction(i, v, hinted: hinted, rank: rank)) }
        // Up and down where there is somewhere to go (more than one row).
        func moves() {
            guard count > 1 else { return }
            add(.previous, .up, rank: 2)
            add(.next, .down, rank: 2)
        }
        let oneDown = config.keys.hasOnePressDown
        if let r = ui.reminder, ui.screen != .boot {
            // Any key dismisses; select opens what it is about, hold select completes its task.
            if r.source != .pet { add(.select, .open(Navigator.reminderTarget(r, state: state)), rank: 0) }
            if r.source == .task, state.tasks[r.ref]?.isOpen == true { add(.holdSelect, .command(.complete), rank: 0) }
            add(.back, .dismiss, rank: 0)
            for i in NavInput.allCases where !a.contains(where: { $0.input == i }) && i != .chord && i != .reset {
                add(i, .dismiss, hinted: false)
            }
            if r.source != .pet { add(.forward, .open(Navigator.reminderTarget(r, state: state)), hinted: false) }
            return a
        }
        if let i = ui.menu {
            add(.previous, .up, rank: 2)
            // Three buttons: hold A moves down too (one press, where double A is two).
            add(.next, .down, hinted: oneDown, rank: 2)
            if !oneDown { add(.holdPrevious, .down, rank: 2) }
            let entry = NavRows.menu[min(max(0, i), NavRows.menu.count - 1)]
            add(.select, .open(entry), rank: 0)
            add(.forward, .open(entry), hinted: false)
            if let job = NavRows.menuJob(entry, state: state) { add(.holdSelect, .command(job.command), rank: 0) }
            add(.back, .close, rank: 1)
            add(.doubleBack, .close, hinted: false)
            return a
        }
        if ui.screen != .home && ui.screen != .boot { add(.doubleBack, .home, hinted: false) }
        switch ui.screen {
        case .boot:
            break
        case .home:
            let items = home ?? NavRows.home(state)
            let shown = items.indices.contains(ui.cursor) ? items[ui.cursor] : items.first ?? nil
            if items.count > 1 { add(.previous, .up, rank: 2); add(.next, .down, rank: 2) }
            add(.select, .menu, rank: 0)
            add(.forward, .menu, hinted: false)
            switch shown {
            case .task(let id)?:
                add(.holdSelect, .command(.complete), rank: 0)
                if state.tasks[id]?.state == .pending { add(.holdPrevious, .command(.startTask)) }
            case .habit?: add(.holdSelect, .command(.check), rank: 0)
            case nil: break
            }
            add(.holdBack, .open(.urgeLog), rank: 0)
            add(.doubleSelect, .command(.pet))
            if !state.device.holdTipDone && config.keys.name(.holdSelect) != nil { add(.back, .dismissTip, rank: 0) }
            else { add(.back, .first, hinted: ui.cursor != 0 || ui.missedBanner > 0, rank: 2) }
            add(.doubleBack, .first, hinted: false)
        case .today:
            moves()
            let row: NavRows.TodayRow? = sel("task").map { .task(id: $0) } ?? sel("habit").map { .habit(item: $0) }
            switch row {
            case .task(let id)?:
                add(.select, .open(.taskDetail), rank: 1)
                add(.forward, .open(.taskDetail), hinted: false)
                add(.holdSelect, .command(.complete), rank: 0)
                if state.tasks[id]?.state == .pending { add(.holdPrevious, .command(.startTask)) }
            case .habit(let item)?:
                let v: NavVerb = .command(state.checkedToday.contains(item) ? .uncheck : .check)
                add(.select, v, rank: 0)
                add(.forward, v, hinted: false)
            case nil: break
            }
            add(.back, .back)
        case .taskDetail:
            if let id = ui.detailTaskID, let t = state.tasks[id] {
                // Another open task to move to (no sort: this runs at every view).
                if state.tasks.values.contains(where: { $0.isOpen && $0.id != id }) {
                    add(.previous, .up, rank: 2); add(.next, .down, rank: 2)
                }
                if t.isOpen { add(.holdSelect, .command(.complete), rank: 0) }
                if t.state == .pending { add(.holdPrevious, .command(.startTask)) }
            }
            add(.back, .back)
        case .shop:
            moves()
            add(.select, .tab, hinted: !config.keys.names.keys.contains(.forward), rank: 1)
            add(.forward, .tab)
            if sel("item") != nil { add(.holdSelect, .command(.buy), rank: 0) }
            add(.back, .back)
        case .wardrobe:
            moves()
            if let shown = sel("item"),
               let row = NavRows.wardrobe(state).first(where: { $0.item == shown }) {
                var v: NavVerb?
                switch row.kind {
                case .food: add(.holdSelect, .command(.feed), rank: 0)
                case .wearable(_, let worn): v = .command(worn ? .takeOff : .wear)
                case .homeItem(let slot?): _ = slot; v = .command(.store)
                case .homeItem(nil):
                    if Catalogue.builtIn.homeSlots.contains(where: { state.shop.placed[$0] == nil }) { v = .command(.place) }
                }
                if let v { add(.select, v, rank: 0); add(.forward, v, hinted: false) }
            }
            add(.back, .back)
        case .stats:
            add(.previous, .pagePrevious, rank: 2)
            add(.next, .pageNext, hinted: oneDown, rank: 2)
            add(.select, .pageNext, hinted: !oneDown, rank: 1)
            add(.forward, .pageNext, hinted: false)
            add(.back, .back)
        case .focus:
            if state.commitments.focus == nil {
                add(.select, .command(.startFocus), rank: 0)
                add(.forward, .command(.startFocus), hinted: false)
            } else {
                add(.holdSelect, .command(.stopFocus), rank: 0)
                add(.holdPrevious, .command(.stopFocus), hinted: false)
            }
            add(.back, .back)
        case .urgeLog:
            moves()
            if ui.urgeOutcome != nil {
                add(.select, .command(.logUrge), rank: 0)
                add(.forward, .command(.logUrge), hinted: false)
                add(.back, .cancel)
            } else {
                let triggers = ui.urgeTriggers
                if triggers.indices.contains(ui.urgeTrigger) {
                    add(.select, .nextStep, rank: 0)
                    add(.forward, .nextStep, hinted: false)
                }
                add(.back, .back)
            }
        case .commitments:
            moves()
            if let shown = sel("commitment"),
               let c = NavRows.commitments(state).first(where: { $0.id == shown }) {
                if let o = c.current, o.contains(now), c.kind == .wakeUp || c.kind == .onTime {
                    add(.select, .command(.confirm), rank: 0)
                    add(.forward, .command(.confirm), hinted: false)
                }
                add(.holdPrevious, .command(.dropCommitment))
            }
            add(.back, .back)
        case .settings:
            let row = sel("setting").flatMap(NavRows.SettingRow.init(rawValue:))
            if ui.editingSetting {
                if row == .factoryReset {
                    if !config.hasChord { add(.holdSelect, .erase, rank: 0) }
                    add(.select, .cancel, hinted: false); add(.forward, .cancel, hinted: false)
                } else {
                    add(.previous, .up, rank: 2)
                    add(.next, .down, rank: 2)
                    add(.select, .save, rank: 0)
                    add(.forward, .save, hinted: false)
                }
                add(.back, .cancel, rank: 0)
            } else {
                moves()
                if let row {
                    let v: NavVerb = row.isValue || row == .factoryReset ? .edit : .command(.toggle)
                    add(.select, v, rank: 0)
                    add(.forward, v, hinted: false)
                }
                add(.back, .back)
            }
        case .pairing:
            if ui.pairingCode == nil {
                moves()
                if sel("phone") != nil { add(.holdSelect, .command(.unpair), rank: 0) }
            }
            add(.back, .back)
        }
        return a
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
