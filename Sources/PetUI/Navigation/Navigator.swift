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
    /// For a tap: the inputs the same key's double tap and long press give that grow out of this
    /// tap (three buttons' B: double-select and hold-select). Where one of them does something and
    /// the tap would open a screen or the menu, the tap waits (`Navigator.pendingTap`) until the
    /// device knows it stayed a tap (docs/navigation.md, "A tap that waits").
    public var grows: Set<NavInput>

    public init(_ input: NavInput, extendsTap: Bool = false, isPress: Bool = true, grows: Set<NavInput> = []) {
        self.input = input; self.extendsTap = extendsTap; self.isPress = isPress; self.grows = grows
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
    /// Move the device's wall clock by this many seconds (the first run's time, set with the
    /// buttons; the device's settable clock, as the phone's `time.set`).
    case setClock(bySeconds: Int64)
}

/// The device's navigation: a pure state machine from semantic inputs and time to `UIState`
/// changes and effects (docs/navigation.md). It never stores anything itself; the device sends the
/// effects' commands and feeds back the events they commit (`note(events:)`).
///
/// Taps only change the view (with a few row actions that have no longer gesture, such as checking
/// a habit), so a hold or double tap, which always begins with a tap, first undoes that tap's view
/// change. The first press on a dim or sleeping screen, or on the boot screen, only wakes it
/// (the whole press: its hold or double tap too); it still verifies an open wake-up window.
public struct Navigator: Sendable {
    public struct Config: Sendable, Equatable {
        /// Seconds of no input before any screen goes back to home (docs/navigation.md: 30 s).
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
        /// A device that has not had its first run (`DeviceSettings.welcomeDone`) shows it after
        /// the boot screen (the daemon; the simulator when a scenario starts with `first-run`).
        public var firstRun = false
        public init() {}
        public init(profile: DisplayProfile, hasChord: Bool = true, keys: NavKeys = .threeButtons) {
            self.profile = profile; self.hasChord = hasChord; self.keys = keys
        }
    }

    public internal(set) var ui: UIState
    /// What the screen shows of the navigation: the list rows, the highlighted row, the visible
    /// window and the hints, for `config`'s board and display. Made by `sync` after every change;
    /// screens draw it (`ScreenContext(navigator:…)`) and the inputs act on its highlighted row.
    public private(set) var view = NavView()
    public var config: Config
    /// Missed-while-off reminders the owner has seen (the banner counts the rest).
    public internal(set) var missedSeen: Int
    /// The view before the last tap, to restore when the tap grows into a longer gesture.
    var beforeTap: (ui: UIState, missedSeen: Int)?
    /// The last press only woke the screen: its hold or double tap is ignored too.
    var swallowing = false
    /// A tap of select that waits to know whether it stays a tap (docs/navigation.md, "A tap that
    /// waits"): on a view where the same key's double tap or hold does something, a tap that would
    /// open a screen or the menu changes nothing yet. The device commits it (`commitTap`) once the
    /// key is up and its double-tap window has passed; a double tap or hold of the key drops it (so
    /// the screen changes once, not twice); another press commits it first.
    public private(set) var pendingTap: NavInput?

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

    /// How a pairing attempt ended (the phone link): the pairing screen shows it (and opens, as
    /// for a code), until the next code or a key.
    public mutating func setPairingOutcome(_ outcome: PairingOutcome?, state: PetState, now: Instant) {
        ui.pairingOutcome = outcome
        if outcome != nil { ui.pairingCode = nil }
        if outcome != nil && ui.screen != .pairing && ui.screen != .boot { open(.pairing) }
        sync(state: state, now: now)
    }

    /// The device's wall clock was set (the first run's clock steps): the last input counts as
    /// `now`, so the jump neither dims the screen nor sends it home.
    public mutating func clockWasSet(now: Instant) { ui.lastInput = now }

    /// The last connected phone's link dropped: a banner says so for a few seconds.
    public mutating func noteLinkLost(now: Instant) { ui.linkLostAt = now }

    /// The pairing code to show (nil: none). The phone link sets it; a new code opens the
    /// pairing screen (the owner has to read it), hiding it leaves the screen where it is. When a
    /// code goes at `now` while the pairing screen shows (paired, refused, locked after wrong
    /// codes), the screen stays for the usual idle time from then, so what happened can be read
    /// before it goes home.
    public mutating func setPairingCode(_ code: String?, now: Instant? = nil) {
        if code == nil, ui.pairingCode != nil, ui.screen == .pairing, let now, now > ui.lastInput { ui.lastInput = now }
        ui.pairingCode = code
        if code != nil { ui.pairingOutcome = nil }
        if code != nil && ui.screen != .pairing && ui.screen != .boot {
            open(.pairing)
        }
    }

    // MARK: - Input

    /// Handles one input at `now`; returns what the device must do (commands are sent in order).
    public mutating func handle(_ p: NavPress, state: PetState, now: Instant) -> [NavEffect] {
        var effects: [NavEffect] = []
        if p.isPress {
            // docs/commitments.md: any button pressed inside a wake-up window verifies it.
            for id in state.awaitingButtonPress(at: now) {
                effects.append(.send(.commitment(.verify(id: id, source: .button))))
            }
        }
        sync(state: state, now: now)
        if pendingTap != nil {
            // A double tap or hold grows out of the waiting tap: the tap never happens. Any other
            // press means it stayed a tap: it acts first.
            if p.extendsTap || !p.isPress { pendingTap = nil } else { effects += commitTap(state: state, now: now) }
        }
        if p.extendsTap && swallowing { return effects }
        // A celebration's moment or the urge log's confirmation gives way as soon as the owner
        // carries on: the press dismisses it and acts on the screen under it as usual.
        if p.isPress && !p.extendsTap {
            ui.urgeLogged = nil; ui.urgeLoggedUntil = nil
            ui.toasts.removeAll { Overlays.celebrates($0) }
        }
        if p.isPress && !p.extendsTap && (ui.power != .awake || ui.screen == .boot) {
            wake(now: now, state: state)
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
            if waits(p, state: state, now: now) { pendingTap = p.input; return effects }
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

    /// The tap that waited stayed a tap (its key is up and no second press came inside the
    /// double-tap window): it acts now. Nothing waits: nothing happens.
    public mutating func commitTap(state: PetState, now: Instant) -> [NavEffect] {
        guard let input = pendingTap else { return [] }
        pendingTap = nil
        sync(state: state, now: now)
        let effects = act(input, state: state, now: now)
        sync(state: state, now: now)
        return effects
    }

    /// Whether a tap waits: it is select, the same key's double tap or hold does something on this
    /// view, and the tap would open a screen or the menu without sending anything (home's B opens
    /// the menu while double B pets and hold B completes). Moving, paging and back act at once:
    /// their frame is small, or (back, whose double tap goes home) a step of the same way.
    private func waits(_ p: NavPress, state: PetState, now: Instant) -> Bool {
        guard p.input == .select, view.actions.contains(where: { p.grows.contains($0.input) }) else { return false }
        var trial = self
        guard trial.act(p.input, state: state, now: now).isEmpty else { return false }
        return trial.ui.screen != ui.screen || (trial.ui.menu == nil) != (ui.menu == nil)
    }

    private mutating func wake(now: Instant, state: PetState) {
        ui.lastInput = now
        ui.power = .awake
        if ui.screen == .boot {
            ui.screen = afterBoot(state); ui.bootUntil = nil
            if ui.screen == .firstRun { FirstRunScreen.opened(&ui, state: state, now: now) }
        }
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

    /// The action table of what the screen shows now (NavigatorActions.swift, and the screen's
    /// definition under Screens/).
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
        // What the input does on the screen shown: its definition says (ScreenDefinition.swift).
        let screen = ui.screen.definition
        return screen.input(input, nav: &self, state: state, now: now)
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
            let entry = NavRows.menu[i]
            guard let job = NavRows.menuJob(entry, state: state) else { break }
            ui.menu = nil
            if entry.definition.menuJobOpens { open(entry, state: state, now: now) }
            return [.send(job.action)]
        case .back, .doubleBack: ui.menu = nil
        default: break
        }
        return []
    }

    // MARK: - Moving around

    /// Opens a screen on top of the current one.
    mutating func open(_ s: ScreenID, state: PetState? = nil, now: Instant? = nil) {
        ui.backStack.append(ui.screen)
        ui.screen = s
        ui.cursor = 0; ui.scroll = 0
        ui.menu = nil
        ui.editingSetting = false
        s.definition.opened(&ui, state: state, now: now)
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
    /// What the last `tick` synced from (nil: none yet).
    var lastTick: TickKey?

    /// Where the boot screen leads: the first run while it is not done (and the board wants it), else home.
    func afterBoot(_ state: PetState) -> ScreenID {
        config.firstRun && !state.device.welcomeDone ? .firstRun : .home
    }

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
    /// A tick with what the last one saw and left (the UI state, the instant, the state's
    /// events and time, the seen reminders, the config) changes nothing: `sync` is a function of
    /// those (the core changes its state only by events, and by time), so it is skipped — the
    /// device loop ticks at every wake-up, most of them with nothing new.
    public mutating func tick(state: PetState, now: Instant) {
        if restoreTodayCursor == nil, let last = lastTick, last == TickKey(self, state: state, now: now) { return }
        sync(state: state, now: now)
        lastTick = TickKey(self, state: state, now: now)
    }

    /// What a tick's `sync` reads (`tick`).
    struct TickKey: Equatable {
        var ui: UIState
        var now: Instant
        var stateNow: Instant
        var events: Int
        var missedSeen: Int
        var config: Config
        init(_ n: Navigator, state: PetState, now: Instant) {
            ui = n.ui; self.now = now; stateNow = state.now; events = state.eventCount
            missedSeen = n.missedSeen; config = n.config
        }
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
                toast("Level \(level)!", .levelUp, until: until, now: now, ref: String(level))
            case .badgeEarned(let id):
                toast("Badge: " + (Badges.kind(id: id)?.title ?? id), .badge, until: until, now: now, ref: id)
            case let .commitment(.focusCompleted(_, minutes, reward)):
                ui.focusResult = FocusResult(minutes: minutes, coins: reward.coins, ended: e.at)
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

    private mutating func toast(_ text: String, _ kind: Toast.Kind, until: Instant, now: Instant, ref: String? = nil) {
        guard until > now else { return }
        ui.toasts.append(Toast(text: text, kind: kind, until: until, ref: ref))
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
            ui.screen = afterBoot(state); ui.bootUntil = nil
            if ui.screen == .firstRun { FirstRunScreen.opened(&ui, state: state, now: now) }
        }
        let idle = now - ui.lastInput
        if idle >= config.homeAfter { pendingTap = nil }
        if idle >= config.homeAfter && ui.screen != .boot {
            let busy = ui.screen.definition.staysOpen(ui: ui, state: state)
            if !busy && (ui.screen != .home || ui.menu != nil || ui.cursor != 0) { goHome() }
        }
        let d = state.device
        ui.power = idle >= Int64(d.sleepAfter) ? .asleep : idle >= Int64(d.dimAfter) ? .dim : .awake
        ui.toasts.removeAll { $0.until <= now }
        if let until = ui.urgeLoggedUntil, now >= until { ui.urgeLogged = nil; ui.urgeLoggedUntil = nil }
        if let at = ui.linkLostAt, now < at || now - at >= Overlays.linkLostSeconds { ui.linkLostAt = nil }
        if let r = ui.reminder, now - r.due >= config.reminderSeconds { ui.reminder = nil }
        ui.missedBanner = max(0, state.remindersMissed - missedSeen)
        if ui.screen == .today, let id = restoreTodayCursor,
           let i = NavRows.today(state).firstIndex(of: .task(id: id)) { ui.cursor = i }
        restoreTodayCursor = nil
        view = Navigator.makeView(ui: &ui, state: state, now: now, config: config)
    }
}
