import PetCore

/// What the owner asks for, whatever the board (3 buttons, 4 buttons or a 5-way joystick: see
/// `InputLayout` in PetDevice, which maps each board's gestures onto these). docs/navigation.md has
/// the full map.
public enum NavInput: String, Sendable, CaseIterable {
    /// Up / the previous row (tap A).
    case previous
    /// Down / the next row (double tap A on three buttons, D, joystick down).
    case next
    /// Select / open / act (tap B, joystick centre).
    case select
    /// Back (tap C, joystick left).
    case back
    /// The next page or tab where a screen has them, else select (joystick right).
    case forward
    /// The secondary action of a row: start a task, cancel a commitment or focus (hold A). In the
    /// menu on boards without a one-press down (three buttons): down.
    case holdPrevious = "hold-previous"
    /// The main action: complete a task or check a habit (home), buy, feed, confirm; in the menu the
    /// entry's job (start focus, feed) (hold B).
    case holdSelect = "hold-select"
    /// Log an urge from home (hold C).
    case holdBack = "hold-back"
    /// Pet the pet on home (double tap B).
    case doubleSelect = "double-select"
    /// Home from anywhere (double tap C).
    case doubleBack = "double-back"
    /// A and C pressed together (does nothing by itself; undoes the taps it began with).
    case chord
    /// A and C held 3 s: factory reset.
    case reset
}

/// One semantic input as a board reports it.
public struct NavPress: Sendable, Hashable, CustomStringConvertible {
    public var input: NavInput
    /// It grows out of the tap just reported (a hold, double tap or chord begins with a tap, which
    /// is reported at once): the navigator first undoes that tap's view change.
    public var extendsTap: Bool
    /// A button went down for it (wakes the screen, verifies a wake-up window). Long presses and
    /// the 3-second chord are reported while the button is still down: not a new press.
    public var isPress: Bool

    public init(_ input: NavInput, extendsTap: Bool = false, isPress: Bool = true) {
        self.input = input; self.extendsTap = extendsTap; self.isPress = isPress
    }

    public var description: String {
        input.rawValue + (extendsTap ? " (undoes the tap)" : "") + (isPress ? "" : " (while held)")
    }
}

/// What an input asks the device to do besides changing the view.
public enum NavEffect: Sendable, Equatable {
    /// A domain command (the device gives it an id and the current time). A refused one changes
    /// nothing.
    case send(Action)
    /// Erase everything and start a new pet (A+C held 3 s, or the settings row on a joystick).
    case factoryReset
}

/// The device's navigation: a pure state machine from semantic inputs and time to `UIState`
/// changes and effects (SPEC §14). It never stores anything itself; the device sends the
/// effects' commands and feeds back the events they commit (`note(events:)`).
///
/// Taps only change the view (with a few row actions that have no longer gesture, such as checking
/// a habit), so a hold or double tap, which always begins with a tap, first undoes that tap's view
/// change. The first press on a dim or sleeping screen, or on the boot screen, only wakes it
/// (the whole press: its hold or double tap too); it still verifies an open wake-up window.
public struct Navigator: Sendable {
    public struct Config: Sendable, Equatable {
        /// Seconds of no input before any screen goes back to home (SPEC §14: 30 s).
        public var homeAfter: Int64 = 30
        /// How long the boot screen shows unless a press dismisses it.
        public var bootSeconds: Int64 = 3
        /// How long a toast shows (in the hint bar's strip, which it takes meanwhile).
        public var toastSeconds: Int64 = 3
        /// At most this many toasts at once (the oldest goes).
        public var maxToasts = 3
        /// How long the reminder overlay shows unless dismissed.
        public var reminderSeconds: Int64 = 15 * 60
        /// The board has the A+C chord (3 and 4 buttons). Without it (joystick), factory reset is a
        /// settings row.
        public var hasChord = true
        /// What the board calls the keys of each input, for the hints (`InputLayout.keys`).
        public var keys = NavKeys.threeButtons
        /// The display: which rows of a list are visible comes from the screen's list layout on
        /// it (`ListLayout`), and rows are labelled for it.
        public var profile = DisplayProfile.square240
        public init() {}
        public init(profile: DisplayProfile, hasChord: Bool = true, keys: NavKeys = .threeButtons) {
            self.profile = profile; self.hasChord = hasChord; self.keys = keys
        }
    }

    public private(set) var ui: UIState
    /// What the screen shows of the navigation: the list rows, the highlighted row, the visible
    /// window and the hints, for `config`'s board and display. Made by `sync` after every change;
    /// screens draw it (`ScreenContext(navigator:…)`) and the inputs act on its highlighted row.
    public private(set) var view = NavView()
    public var config: Config
    /// Missed-while-off reminders the owner has seen (the banner counts the rest).
    public private(set) var missedSeen: Int
    /// The view before the last tap, to restore when the tap grows into a longer gesture.
    var beforeTap: (ui: UIState, missedSeen: Int)?
    /// The last press only woke the screen: its hold or double tap is ignored too.
    var swallowing = false

    /// Power on: the boot screen, for `config.bootSeconds` (`boot: false` starts on home).
    public init(state: PetState, now: Instant, config: Config = Config(), boot: Bool = true) {
        self.config = config
        ui = UIState(screen: boot ? .boot : .home, lastInput: now)
        if boot { ui.bootUntil = now + config.bootSeconds }
        missedSeen = state.remindersMissed
        sync(state: state, now: now)
    }

    /// A boot after the device was off: the boot screen again. Call it with the state *before*
    /// the catch-up, so reminders missed meanwhile show in the banner.
    public mutating func powerOn(state: PetState, now: Instant) {
        self = Navigator(state: state, now: now, config: config, boot: true)
    }

    /// After a factory reset: a new pet on the home screen.
    public mutating func resetDone(state: PetState, now: Instant) {
        self = Navigator(state: state, now: now, config: config, boot: false)
    }

    /// The pairing code to show (nil: none). The phone link sets it; a new code opens the
    /// pairing screen (the owner has to read it), hiding it leaves the screen where it is.
    public mutating func setPairingCode(_ code: String?) {
        ui.pairingCode = code
        if code != nil && ui.screen != .pairing && ui.screen != .boot {
            open(.pairing)
        }
    }

    // MARK: - Input

    /// Handles one input at `now`; returns what the device must do (commands are sent in order).
    public mutating func handle(_ p: NavPress, state: PetState, now: Instant) -> [NavEffect] {
        var effects: [NavEffect] = []
        if p.isPress {
            // SPEC §8: any button pressed inside a wake-up window verifies it.
            for id in state.awaitingButtonPress(at: now) {
                effects.append(.send(.commitment(.verify(id: id, source: .button))))
            }
        }
        sync(state: state, now: now)
        if p.extendsTap && swallowing { return effects }
        if p.isPress && !p.extendsTap && (ui.power != .awake || ui.screen == .boot) {
            wake(now: now)
            swallowing = true
            beforeTap = nil
            return effects
        }
        if p.isPress { swallowing = false }
        ui.lastInput = now
        ui.power = .awake
        if p.extendsTap {
            if let before = beforeTap { restore(before); sync(state: state, now: now) }
            beforeTap = nil
        } else if p.isPress {
            beforeTap = (ui, missedSeen)
        }
        let acted = act(p.input, state: state, now: now)
        // The first-run tip is learned: something was completed or checked with a long press.
        if p.input == .holdSelect, !state.device.holdTipDone, acted.contains(where: Navigator.completes) {
            var d = state.device
            d.holdTipDone = true
            effects.append(.send(.setDevice(d)))
        }
        effects += acted
        sync(state: state, now: now)
        return effects
    }

    private mutating func wake(now: Instant) {
        ui.lastInput = now
        ui.power = .awake
        if ui.screen == .boot { ui.screen = .home; ui.bootUntil = nil }
    }

    /// Restores the view (not the clock, power, toasts or reminder arrivals since).
    private mutating func restore(_ before: (ui: UIState, missedSeen: Int)) {
        var v = before.ui
        v.lastInput = ui.lastInput
        v.power = ui.power
        v.toasts = ui.toasts
        v.pairingCode = ui.pairingCode
        if before.ui.reminder == nil { v.reminder = ui.reminder }
        ui = v
        missedSeen = before.missedSeen
    }

    /// A completion or a habit check (what the first-run tip teaches).
    static func completes(_ e: NavEffect) -> Bool {
        if case .send(let a) = e { return NavCommand.complete.matches(a) || NavCommand.check.matches(a) }
        return false
    }

    /// The action table of what the screen shows now (NavigatorActions.swift).
    /// (`sync` makes it with the view, so it is current whenever an input arrives.)
    public func actionTable(state: PetState, now: Instant) -> [NavAction] { view.actions }

    private mutating func act(_ input: NavInput, state: PetState, now: Instant) -> [NavEffect] {
        if input == .reset, config.hasChord { return [.factoryReset] }
        if input == .chord || input == .reset { return [] }
        // Only what the action table lists (and so what the hints can name) does anything.
        guard actionTable(state: state, now: now).contains(where: { $0.input == input }) else { return [] }
        if let r = ui.reminder, ui.screen != .boot { return reminderInput(input, r, state: state) }
        if ui.menu != nil { return menuInput(input, state: state, now: now) }
        if input == .doubleBack, ui.screen != .home { goHome(); return [] }
        switch ui.screen {
        case .boot: ui.screen = .home; return []
        case .home: return homeInput(input, state: state, now: now)
        case .today: return todayInput(input, state: state)
        case .taskDetail: return detailInput(input, state: state)
        case .shop: return shopInput(input, state: state)
        case .wardrobe: return wardrobeInput(input, state: state)
        case .stats:
            switch input {
            case .next, .select, .forward: ui.statsPage = (ui.statsPage + 1) % 3
            case .previous: ui.statsPage = (ui.statsPage + 2) % 3
            case .back: pop()
            default: break
            }
            return []
        case .focus: return focusInput(input, state: state)
        case .urgeLog: return urgeInput(input, state: state)
        case .commitments: return commitmentInput(input, state: state, now: now)
        case .settings: return settingsInput(input, state: state)
        case .pairing:
            switch input {
            case .previous, .next: if ui.pairingCode == nil { move(input) }
            case .holdSelect:
                // Unpair the highlighted phone (its token stops working at once).
                if ui.pairingCode == nil, let id = selected("phone") { return [.send(.phone(.unpair(id: id)))] }
            case .back: pop()
            default: break
            }
            return []
        }
    }

    // MARK: - Screens

    private mutating func reminderInput(_ input: NavInput, _ r: Reminder, state: PetState) -> [NavEffect] {
        ui.reminder = nil
        switch input {
        case .select, .forward:
            switch r.source {
            case .task where state.tasks[r.ref]?.isOpen == true:
                open(.taskDetail); ui.detailTaskID = r.ref
            case .task, .habit, .checkin, .course: open(.today)
            case .commitment: open(.commitments)
            case .focus: open(.focus)
            case .pet: break
            }
        case .holdSelect:
            if r.source == .task, state.tasks[r.ref]?.isOpen == true { return [.send(.completeTask(id: r.ref))] }
        default: break
        }
        return []
    }

    private mutating func menuInput(_ input: NavInput, state: PetState, now: Instant) -> [NavEffect] {
        let n = view.list?.items.count ?? NavRows.menu.count
        let i = min(ui.menu ?? 0, NavRows.menu.count - 1)
        switch input {
        case .previous: ui.menu = (i + n - 1) % n
        case .next: ui.menu = (i + 1) % n
        // Three buttons have no one-press down (double A is two): in the menu, whose entries have
        // no second action, hold A moves down.
        case .holdPrevious where !config.keys.hasOnePressDown: ui.menu = (i + 1) % n
        case .select, .forward:
            ui.menu = nil
            open(NavRows.menu[i], state: state, now: now)
        case .holdSelect:
            // The entry's job at once: start focus (then the focus screen shows the session), feed.
            guard let job = NavRows.menuJob(NavRows.menu[i], state: state) else { break }
            ui.menu = nil
            if NavRows.menu[i] == .focus { open(.focus, state: state, now: now) }
            return [.send(job.action)]
        case .back, .doubleBack: ui.menu = nil
        default: break
        }
        return []
    }

    private mutating func homeInput(_ input: NavInput, state: PetState, now: Instant) -> [NavEffect] {
        let items = view.homeItems ?? NavRows.home(state)
        let shown = items.indices.contains(ui.cursor) ? items[ui.cursor] : items.first ?? nil
        switch input {
        case .previous: ui.cursor = (ui.cursor + items.count - 1) % items.count
        case .next: ui.cursor = (ui.cursor + 1) % items.count
        case .select, .forward: ui.menu = 0
        case .holdSelect:
            switch shown {
            case .task(let id)?: return [.send(.completeTask(id: id))]
            case .habit(let item)?: return [.send(.habit(.check(item: item)))]
            case nil: break
            }
        case .holdPrevious:
            if case .task(let id)? = shown, state.tasks[id]?.state == .pending { return [.send(.startTask(id: id))] }
        case .doubleSelect: return [.send(.petThePet)]
        case .back:
            missedSeen = state.remindersMissed
            ui.cursor = 0
            // And the first-run tip goes (stored with the settings).
            if Navigator.tip(state: state, config: config) != nil {
                var d = state.device
                d.holdTipDone = true
                return [.send(.setDevice(d))]
            }
        case .doubleBack:
            ui.cursor = 0
        case .holdBack:
            if !state.quitTriggers.isEmpty { open(.urgeLog, state: state, now: now) }
        default: break
        }
        return []
    }

    private mutating func todayInput(_ input: NavInput, state: PetState) -> [NavEffect] {
        // The row the screen highlights.
        let row: NavRows.TodayRow? = selected("task").map { .task(id: $0) } ?? selected("habit").map { .habit(item: $0) }
        switch input {
        case .previous, .next: move(input)
        case .select, .forward:
            switch row {
            case .task(let id)?: open(.taskDetail); ui.detailTaskID = id
            case .habit(let item)?:
                return [.send(.habit(state.checkedToday.contains(item) ? .uncheck(item: item) : .check(item: item)))]
            case nil: break
            }
        case .holdSelect: if case .task(let id)? = row { return [.send(.completeTask(id: id))] }
        case .holdPrevious:
            if case .task(let id)? = row, state.tasks[id]?.state == .pending { return [.send(.startTask(id: id))] }
        case .back: pop()
        default: break
        }
        return []
    }

    private mutating func detailInput(_ input: NavInput, state: PetState) -> [NavEffect] {
        let tasks = state.openTasks()
        guard let id = ui.detailTaskID, let t = state.tasks[id] else { pop(); return [] }
        switch input {
        case .previous, .next:
            guard !tasks.isEmpty else { break }
            let i = tasks.firstIndex { $0.id == id } ?? 0
            let j = input == .next ? (i + 1) % tasks.count : (i + tasks.count - 1) % tasks.count
            ui.detailTaskID = tasks[j].id
        case .holdSelect:
            if t.isOpen { pop(); return [.send(.completeTask(id: id))] }
        case .holdPrevious:
            if t.state == .pending { return [.send(.startTask(id: id))] }
        case .back: pop()
        default: break
        }
        return []
    }

    private mutating func shopInput(_ input: NavInput, state: PetState) -> [NavEffect] {
        switch input {
        case .previous, .next: move(input)
        case .select, .forward:
            ui.shopTab = (ui.shopTab + 1) % NavRows.shopTabs.count
            ui.cursor = 0; ui.scroll = 0
        case .holdSelect:
            if let item = selected("item") { return [.send(.shop(.buy(item: item)))] }
        case .back: pop()
        default: break
        }
        return []
    }

    private mutating func wardrobeInput(_ input: NavInput, state: PetState) -> [NavEffect] {
        let shown = selected("item")
        let row = NavRows.wardrobe(state).first { $0.item == shown }
        switch input {
        case .previous, .next: move(input)
        case .select, .forward:
            guard let row else { break }
            switch row.kind {
            case .food: break
            case let .wearable(slot, worn):
                return [.send(.shop(worn ? .unequip(slot: slot, item: row.item) : .equip(item: row.item)))]
            case .homeItem(let slot?):
                return [.send(.shop(.unplace(slot: slot)))]
            case .homeItem(nil):
                if let free = Catalogue.builtIn.homeSlots.first(where: { state.shop.placed[$0] == nil }) {
                    return [.send(.shop(.place(item: row.item, slot: free)))]
                }
            }
        case .holdSelect:
            if let row, case .food = row.kind { return [.send(.shop(.feed(item: row.item)))] }
        case .back: pop()
        default: break
        }
        return []
    }

    private mutating func focusInput(_ input: NavInput, state: PetState) -> [NavEffect] {
        switch input {
        case .select, .forward:
            if state.commitments.focus == nil { return [.send(.commitment(.startFocus(minutes: nil, block: [])))] }
        case .holdPrevious, .holdSelect:
            if state.commitments.focus != nil { return [.send(.commitment(.cancelFocus))] }
        case .back: pop()
        default: break
        }
        return []
    }

    private mutating func urgeInput(_ input: NavInput, state: PetState) -> [NavEffect] {
        let n = max(1, ui.urgeTriggers.count), outcomes = QuitOutcome.allCases.count
        switch input {
        case .previous, .next:
            let step = input == .next ? 1 : -1
            if let o = ui.urgeOutcome { ui.urgeOutcome = (o + step + outcomes) % outcomes }
            else { ui.urgeTrigger = (ui.urgeTrigger + step + n) % n }
        case .select, .forward:
            guard ui.urgeTriggers.indices.contains(ui.urgeTrigger) else { break }
            guard let o = ui.urgeOutcome else { ui.urgeOutcome = 0; ui.scroll = 0; break }
            let trigger = ui.urgeTriggers[ui.urgeTrigger]
            goHome()
            return [.send(.quit(.log(trigger: trigger, outcome: QuitOutcome.allCases[o], thoughts: nil)))]
        case .back:
            if ui.urgeOutcome != nil { ui.urgeOutcome = nil; ui.scroll = 0 } else { pop() }
        default: break
        }
        return []
    }

    private mutating func commitmentInput(_ input: NavInput, state: PetState, now: Instant) -> [NavEffect] {
        let shown = selected("commitment")
        let c = NavRows.commitments(state).first { $0.id == shown }
        switch input {
        case .previous, .next: move(input)
        case .select, .forward:
            if let c, let o = c.current, o.contains(now), c.kind == .wakeUp || c.kind == .onTime {
                return [.send(.commitment(.verify(id: c.id, source: .button)))]
            }
        case .holdPrevious:
            if let c { return [.send(.commitment(.cancel(id: c.id)))] }
        case .back: pop()
        default: break
        }
        return []
    }

    private mutating func settingsInput(_ input: NavInput, state: PetState) -> [NavEffect] {
        // The row the screen highlights (issue 7: never act on another one).
        guard let row = selected("setting").flatMap(NavRows.SettingRow.init(rawValue:)) else { return [] }
        if ui.editingSetting {
            switch input {
            case .previous, .next:
                ui.editValue = Navigator.step(row, ui.editValue, up: input == .previous)
            case .select, .forward:
                ui.editingSetting = false
                if let a = Navigator.action(row, value: ui.editValue, state: state) { return [.send(a)] }
            case .holdSelect:
                // Only on the armed row the screen shows ("hold B to erase").
                if row == .factoryReset, !config.hasChord { ui.editingSetting = false; return [.factoryReset] }
            case .back: ui.editingSetting = false
            default: break
            }
            return []
        }
        switch input {
        case .previous, .next: move(input)
        case .select, .forward:
            if row.isValue || row == .factoryReset {
                ui.editingSetting = true
                ui.editValue = Navigator.value(row, state: state)
            } else if let a = Navigator.action(row, value: 0, state: state) {
                return [.send(a)]
            }
        case .back: pop()
        default: break
        }
        return []
    }

    // MARK: - Settings values

    static let dimChoices = [15, 30, 60, 120, 300, 600, 1800, 3600]
    static let sleepChoices = [60, 120, 300, 600, 900, 1800, 3600, 7200]

    /// The current value of a settings row (what editing starts from).
    static func value(_ row: NavRows.SettingRow, state: PetState) -> Int {
        switch row {
        case .dayStart: state.clock.dayStartHour
        case .quietStart: state.quiet.startMinute
        case .quietEnd: state.quiet.endMinute
        case .brightness: state.device.brightness
        case .dimAfter: state.device.dimAfter
        case .sleepAfter: state.device.sleepAfter
        case .theme, .sound, .pause, .factoryReset: 0
        }
    }

    /// One step up or down (wrapping) of a value row.
    static func step(_ row: NavRows.SettingRow, _ v: Int, up: Bool) -> Int {
        func choose(_ list: [Int]) -> Int {
            let i = list.lastIndex { $0 <= v } ?? 0
            let exact = list.indices.contains(i) && list[i] == v
            let j = up ? (i + 1) % list.count : (exact ? (i + list.count - 1) % list.count : i)
            return list[j]
        }
        switch row {
        case .dayStart: return ((v + (up ? 1 : -1)) % 24 + 24) % 24
        case .quietStart, .quietEnd:
            let m = v / 30 * 30
            return ((m + (up ? 30 : (m == v ? -30 : 0))) % 1440 + 1440) % 1440
        case .brightness:
            let b = v / 10 * 10
            let n = b + (up ? 10 : (b == v ? -10 : 0))
            return n > 100 ? 10 : (n < 10 ? 100 : n)
        case .dimAfter: return choose(dimChoices)
        case .sleepAfter: return choose(sleepChoices)
        case .theme, .sound, .pause, .factoryReset: return v
        }
    }

    /// The command a settings row sends: toggles flip, value rows save `value`.
    static func action(_ row: NavRows.SettingRow, value: Int, state: PetState) -> Action? {
        var d = state.device
        switch row {
        case .dayStart: return .setDayStart(hour: value)
        case .quietStart: return .setQuietHours(startMinute: value, endMinute: state.quiet.endMinute)
        case .quietEnd: return .setQuietHours(startMinute: state.quiet.startMinute, endMinute: value)
        case .theme: d.theme = d.theme == .dark ? .light : .dark
        case .sound: d.sound.toggle()
        case .brightness: d.brightness = value
        case .dimAfter: d.dimAfter = value
        case .sleepAfter: d.sleepAfter = value
        case .pause: return state.paused ? .resume : .pause
        case .factoryReset: return nil
        }
        return .setDevice(d)
    }

    // MARK: - Moving around

    /// Opens a screen on top of the current one.
    mutating func open(_ s: ScreenID, state: PetState? = nil, now: Instant? = nil) {
        ui.backStack.append(ui.screen)
        ui.screen = s
        ui.cursor = 0; ui.scroll = 0
        ui.menu = nil
        ui.editingSetting = false
        switch s {
        case .stats: ui.statsPage = 0
        case .shop: ui.shopTab = 0
        case .urgeLog:
            ui.urgeTriggers = state.flatMap { st in now.map { st.urgeTriggerMenu(at: $0) } } ?? []
            ui.urgeTrigger = 0; ui.urgeOutcome = nil
        default: break
        }
    }

    /// Back one screen. Back to home from a menu screen reopens the menu on it.
    mutating func pop() {
        let from = ui.screen
        ui.screen = ui.backStack.popLast() ?? .home
        ui.editingSetting = false
        ui.urgeOutcome = nil
        ui.cursor = 0; ui.scroll = 0
        if from == .taskDetail, ui.screen == .today { restoreTodayCursor = ui.detailTaskID }
        if ui.screen == .home, let i = NavRows.menu.firstIndex(of: from), from != .urgeLog { ui.menu = i }
    }

    /// Set by `pop` from the task detail: the today row to put the cursor on (resolved in `sync`).
    var restoreTodayCursor: String?

    mutating func goHome() {
        ui.screen = .home
        ui.backStack = []
        ui.menu = nil
        ui.cursor = 0; ui.scroll = 0
        ui.editingSetting = false
        ui.urgeOutcome = nil
    }

    /// Moves the cursor over the selectable rows of the list shown (wrapping).
    mutating func move(_ input: NavInput) {
        let count = view.list?.items.count ?? 0
        guard count > 0 else { ui.cursor = 0; return }
        ui.cursor = input == .next ? (ui.cursor + 1) % count : (ui.cursor + count - 1) % count
    }

    // MARK: - Time and events

    /// Time passes: the boot screen ends, idle goes home, the screen dims and sleeps, toasts and
    /// the reminder overlay expire.
    public mutating func tick(state: PetState, now: Instant) {
        sync(state: state, now: now)
    }

    /// Committed events: toasts for rewards, level-ups, badges and the pet's lines (away from home,
    /// whose speech bubble shows them); the reminder
    /// overlay for reminders shown now (which also light the screen).
    public mutating func note(events: [Event], state: PetState, now: Instant) {
        for e in events {
            let until = e.at + config.toastSeconds
            switch e.kind {
            case let .taskCompleted(_, _, reward) where reward.coins > 0:
                toast("+" + Fmt.count(reward.coins, "coin"), .reward, until: until, now: now)
            case .levelReached(let level):
                toast("Level \(level)!", .levelUp, until: until, now: now)
            case .badgeEarned(let id):
                toast("Badge: " + (Badges.kind(id: id)?.title ?? id), .badge, until: until, now: now)
            case .petSaid(let key):
                // On home the speech bubble says it already.
                if ui.screen != .home || ui.menu != nil, let line = Lines.line(key: key) {
                    toast(line.text, .line, until: until, now: now)
                }
            case let .reminderDue(taskID, index):
                remind(Reminder(id: "task:\(taskID):\(index)", source: .task, ref: taskID, due: e.at, solicited: true), now: now)
            case .reminder(.shown(let n)):
                remind(n, now: now)
            default: break
            }
        }
        sync(state: state, now: now)
    }

    private mutating func toast(_ text: String, _ kind: Toast.Kind, until: Instant, now: Instant) {
        guard until > now else { return }
        ui.toasts.append(Toast(text: text, kind: kind, until: until))
        if ui.toasts.count > config.maxToasts { ui.toasts.removeFirst(ui.toasts.count - config.maxToasts) }
    }

    private mutating func remind(_ n: Reminder, now: Instant) {
        guard now - n.due < config.reminderSeconds else { return }
        ui.reminder = n
        // A reminder lights the screen: the next press acts at once.
        if n.due > ui.lastInput { ui.lastInput = n.due }
        if ui.screen == .boot { ui.screen = .home; ui.bootUntil = nil }
    }

    /// Brings the derived parts of the view up to date with `state` and `now`.
    mutating func sync(state: PetState, now: Instant) {
        // The clock was set back: the last input counts as now, so the screen dims and sleeps
        // after its usual idle time instead of staying lit until the clock is back (docs/reliability.md).
        if now < ui.lastInput { ui.lastInput = now }
        if ui.screen == .boot, let until = ui.bootUntil, now >= until {
            ui.screen = .home; ui.bootUntil = nil
        }
        let idle = now - ui.lastInput
        if idle >= config.homeAfter && ui.screen != .boot {
            let busy = (ui.screen == .focus && state.commitments.focus != nil)
                || (ui.screen == .pairing && ui.pairingCode != nil)
            if !busy && (ui.screen != .home || ui.menu != nil || ui.cursor != 0) { goHome() }
        }
        let d = state.device
        ui.power = idle >= Int64(d.sleepAfter) ? .asleep : idle >= Int64(d.dimAfter) ? .dim : .awake
        ui.toasts.removeAll { $0.until <= now }
        if let r = ui.reminder, now - r.due >= config.reminderSeconds { ui.reminder = nil }
        ui.missedBanner = max(0, state.remindersMissed - missedSeen)
        if ui.screen == .today, let id = restoreTodayCursor,
           let i = NavRows.today(state).firstIndex(of: .task(id: id)) { ui.cursor = i }
        restoreTodayCursor = nil
        view = Navigator.makeView(ui: &ui, state: state, now: now, config: config)
    }
}
