/// The engine: commands in, events out; state = fold(events) + advance(to:).
///
/// Usage by the app (durable before acknowledged):
/// ```
/// var next = engine
/// var events = next.advance(to: command.at)       // close days, fire reminders first
/// let decided = try next.decide(command)           // pure: validates, returns events
/// next.apply(decided); events += decided
/// try store.append(events)                         // one transaction
/// engine = next                                    // only now does the live state change
/// ```

/// Looks up time-zone rules by identifier (the system zone database; injected, PetCore does no I/O).
public typealias ZoneLookup = @Sendable (String) -> ZoneRules?

public struct Engine: Sendable {
    public internal(set) var state: PetState
    public let zones: ZoneLookup
    /// The store's catalogue (content/catalogue.json, built in; injected like the zones).
    public var catalogue: Catalogue = .builtIn
    /// Events emitted by the operation in progress (decide/advance work on a scratch copy).
    var outbox: [Event] = []
    var currentCommand: String?

    /// Seconds after its due time within which a reminder still counts as shown on time; a
    /// reminder found later than this (device off, clock jump) is reported once as missed.
    public static let reminderLateness: Int64 = 60

    /// Starts a new pet: returns the engine and the genesis event to store first (it carries the
    /// zone's rules, so the journal replays without a zone database).
    public static func create(at t: Instant, zoneID: String, dayStartHour: Int = 3,
                              zones: @escaping ZoneLookup) throws(DomainError) -> (Engine, Event) {
        guard let rules = zones(zoneID) else { throw .unknownTimeZone(id: zoneID) }
        let genesis = Event(at: t, kind: .genesis(zone: zoneID, dayStartHour: dayStartHour, rules: rules))
        return (try Engine(genesis: genesis, zones: zones), genesis)
    }

    /// Rebuilds an engine from a journal's first event. Its zone rules come from the event; only a
    /// journal written before events carried them asks `zones`.
    public init(genesis: Event, zones: @escaping ZoneLookup) throws(DomainError) {
        guard case let .genesis(zoneID, hour, carried) = genesis.kind else {
            throw .invalidState(kind: "journal", id: "genesis", reason: "does not start with device.created")
        }
        guard let rules = carried ?? zones(zoneID) else { throw .unknownTimeZone(id: zoneID) }
        guard DayClock.startHours.contains(hour) else { throw .invalidField(field: "dayStart", reason: "must be \(DayClock.startHours.text)") }
        self.zones = zones
        self.state = PetState(createdAt: genesis.at, zoneID: zoneID, zone: rules, dayStartHour: hour)
        self.state.eventCount = 1
    }

    /// Rebuilds an engine from a whole journal (genesis first).
    public init(journal: [Event], zones: @escaping ZoneLookup) throws(DomainError) {
        guard let first = journal.first else {
            throw .invalidState(kind: "journal", id: "genesis", reason: "is empty")
        }
        try self.init(genesis: first, zones: zones)
        for e in journal.dropFirst() { apply(e) }
    }

    /// Resumes from a snapshot of the state (then apply the events stored after it).
    public init(snapshot: PetState, zones: @escaping ZoneLookup) {
        self.zones = zones
        self.state = snapshot
    }

    /// True when this command id is among the latest `RecentCommandIDs.capacity` applied (the
    /// reply is repeated, nothing changes). Older ids are the journal's to know: the device app
    /// looks them up in its commands table (`PetApp.commandSeen`).
    public func isDuplicate(_ commandID: String) -> Bool { state.recentCommands.contains(commandID) }

    // MARK: - Fold

    public mutating func apply(_ events: [Event]) { for e in events { apply(e) } }

    /// Applies one event to the state. Never fails: events are facts.
    public mutating func apply(_ e: Event) {
        if e.at > state.needs.asOf { state.needs = state.needs(at: e.at) }
        if e.at > state.now { state.now = e.at }
        if let c = e.commandID { state.recentCommands.insert(c) }
        state.eventCount += 1
        switch e.kind {
        case .genesis: break
        case let .zoneChanged(id, carried):
            // Old journals' events carry no rules: look them up (skipped if the zone is unknown).
            if let rules = carried ?? zones(id) { state.zoneID = id; state.clock.zone = rules }
        case .dayStartChanged(let h):
            state.clock.dayStartHour = h
        case let .quietHoursChanged(s, en):
            state.quiet = QuietHours(startMinute: s, endMinute: en)
        case .paused: state.paused = true
        case .resumed: state.paused = false
        case .petRenamed(let n): state.pet.name = n
        case let .petTraitsChanged(s, c, p):
            state.pet.species = s; state.pet.colour = c; state.pet.personality = p
        case .petPetted: state.lastPetting = e.at
        case .petSaid(let k): state.speech = Speech(key: k, at: e.at)
        case .levelReached: state.lastCelebration = e.at
        case .badgeEarned(let id): state.badges[id] = e.at
        case .dayClosed(let r): foldDayClosed(r, at: e.at)
        case .deviceSettingsChanged(let d): state.device = d
        default: _ = applySubsystemEvent(e.kind, at: e.at)
        }
    }

    /// The ledger for a subsystem's event (before it is applied): coins and XP from its deltas,
    /// and the day's earned/spent totals. Task events keep their own bookkeeping (TaskEngine.swift).
    mutating func countInLedger(coins: Int, xp: Int, at: Instant) {
        state.coins = state.coins.saturatingAdded(coins)
        state.xp = state.xp.saturatingAdded(xp)
        guard coins != 0 else { return }
        let day = state.clock.day(of: at)
        if coins > 0 { state.coinsEarned = state.coinsEarned.saturatingAdded(coins); state.stats.update(day) { $0.coinsEarned += coins } }
        if coins < 0 { state.coinsSpent = state.coinsSpent.saturatingSubtracted(coins); state.stats.update(day) { $0.coinsSpent -= coins } }
    }

    /// Emits `level.reached` for every level passed since `before` (call after emitting XP).
    mutating func celebrateLevels(from before: Int, at: Instant) {
        let after = state.level
        if after > before { for l in (before + 1)...after { emit(.levelReached(level: l), at: at) } }
    }

    private mutating func foldDayClosed(_ r: DayResult, at: Instant) {
        // The day's habits item for the mood (scored just before, in `habit.day-scored`).
        if !r.paused, let habitsDone = habitDayComplete(day: r.day) {
            if habitsDone { state.tally[r.day, default: DayTally()].habitsDone = 1 }
            else { state.tally[r.day, default: DayTally()].habitsMissed = 1 }
        }
        state.openDay = max(state.openDay, r.day + 1)
        if r.streak == 0 && state.streak > 0 { state.lastBreak = StreakBreak(day: r.day, length: state.streak, at: at) }
        state.streak = r.streak
        state.bestStreak = max(state.bestStreak, r.streak)
        // Perfect week: Monday..Sunday with nothing missed and something done.
        let weekday = state.clock.date(ofDay: r.day).weekday
        if weekday == 1 { state.weekStart = r.day; state.weekClean = true; state.weekDone = 0 }
        if state.weekStart != nil {
            if r.missed > 0 { state.weekClean = false }
            state.weekDone += state.tally[r.day]?.done ?? 0
            if weekday == 0 {
                if state.weekStart == r.day - 6 && state.weekClean && state.weekDone > 0 { state.perfectWeeks += 1 }
                state.weekStart = nil
            }
        }
        // Keep a week of tallies, and archive finished tasks a week after they finished (they
        // stay in the journal; un-complete is only possible the same day).
        let horizon = r.day - 7
        state.tally = state.tally.filter { $0.key > horizon }
        // Reminder bookkeeping is pruned after the same week (sources never re-offer reminders
        // that old), so it does not grow with the years (docs/reliability.md, "Limits").
        if state.reminders.fired.values.contains(where: { $0 <= horizon }) {
            state.reminders.fired = state.reminders.fired.filter { $0.value > horizon }
        }
        if state.reminders.unsolicitedShown.keys.contains(where: { $0 <= horizon }) {
            state.reminders.unsolicitedShown = state.reminders.unsolicitedShown.filter { $0.key > horizon }
        }
        // Old days' stats roll up into months and years (docs/domain.md#stats).
        state.stats.rollUp(closedDay: r.day)
        for (k, t) in state.tasks where !t.isOpen {
            let finished = t.completedAt.map { state.clock.day(of: $0) } ?? t.missedDay ?? r.day
            let dueDay = t.due.map { state.clock.day(of: $0) } ?? finished
            if max(finished, dueDay) < horizon { state.tasks[k] = nil }
        }
    }

    // MARK: - Emitting (on a scratch copy)

    mutating func emit(_ kind: EventKind, at: Instant) {
        let e = Event(at: at, commandID: currentCommand, kind: kind)
        apply(e)
        outbox.append(e)
    }

    mutating func say(_ kind: LineKind, at: Instant) {
        let line = Lines.pick(kind, personality: state.pet.personality, seed: state.eventCount, previous: state.speech?.key)
        emit(.petSaid(key: line.key), at: at)
    }

    mutating func awardBadges(at: Instant) {
        for b in Badges.newlyEarned(state.badgeProgress, earned: state.badges) {
            emit(.badgeEarned(id: b.id), at: at)
        }
    }

    // MARK: - Commands

    /// Validates a command against the current state and returns the events it produces. Pure:
    /// the engine is unchanged; apply the events after they are stored. A duplicate id returns [].
    /// Call `advance(to: command.at)` first so days and reminders before it are settled.
    /// `rangeChecked`: the caller already ran `checkRange(command)` (PetApp does, before moving
    /// time), so its instants are not walked twice.
    public func decide(_ command: Command, rangeChecked: Bool = false) throws(DomainError) -> [Event] {
        if isDuplicate(command.id) { return [] }
        try TaskRules.validateID(command.id, field: "command id")
        if !rangeChecked { try Engine.checkRange(command) }
        var scratch = self
        scratch.outbox = []
        scratch.currentCommand = command.id
        try scratch.run(command.action, at: max(command.at, state.now), commandID: command.id)
        return scratch.outbox
    }

    /// Refuses a command whose instant or any instant among its fields lies outside `TimeRange`,
    /// naming the field (`at` for the command's own time). Call it before `advance(to: command.at)`.
    public static func checkRange(_ command: Command) throws(DomainError) {
        try TimeRange.check(command.at, field: "at")
        // The action's instants as the core lists them (ActionInstants.swift), in field order.
        for i in command.action.instants where !TimeRange.contains(i.instant) {
            try TimeRange.check(i.instant, field: i.fieldName)
        }
    }

    private mutating func run(_ action: Action, at: Instant, commandID: String) throws(DomainError) {
        switch action {
        case .setTimeZone(let id):
            guard let rules = zones(id) else { throw .unknownTimeZone(id: id) }
            emit(.zoneChanged(id: id, rules: rules), at: at)
            closeEndedDays(at: at)
        case .setDayStart(let hour):
            guard DayClock.startHours.contains(hour) else {
                throw .invalidField(field: "hour", reason: "day start must be an hour \(DayClock.startHours.text) (got \(hour))")
            }
            emit(.dayStartChanged(hour: hour), at: at)
            closeEndedDays(at: at)
        case let .setQuietHours(s, e):
            guard (0..<1440).contains(s), (0..<1440).contains(e) else {
                throw .invalidField(field: "quiet hours", reason: "times must be 00:00–23:59")
            }
            emit(.quietHoursChanged(startMinute: s, endMinute: e), at: at)
        case .pause:
            guard !state.paused else { throw .invalidState(kind: "pause", id: "device", reason: "is already on") }
            emit(.paused, at: at)
        case .resume:
            guard state.paused else { throw .invalidState(kind: "pause", id: "device", reason: "is not on") }
            emit(.resumed, at: at)
            say(.greeting, at: at)
        case .renamePet(let name):
            try PetProfile.validateName(name)
            emit(.petRenamed(name: name), at: at)
        case let .setPetTraits(species, colour, personality):
            if let species, !PetProfile.species.contains(species) {
                throw .invalidField(field: "species", reason: "must be one of \(PetProfile.species.joined(separator: ", "))")
            }
            if let colour, !PetProfile.colours.contains(colour) {
                throw .invalidField(field: "colour", reason: "must be one of \(PetProfile.colours.joined(separator: ", "))")
            }
            emit(.petTraitsChanged(species: species ?? state.pet.species, colour: colour ?? state.pet.colour,
                                   personality: personality ?? state.pet.personality), at: at)
        case .setDevice(let d):
            try d.validate()
            guard d != state.device else {
                throw .invalidState(kind: "settings", id: "device", reason: "already have these values")
            }
            emit(.deviceSettingsChanged(d), at: at)
        case .petThePet:
            if let last = state.lastPetting, at - last < MoodRules.pettingInterval {
                throw .rateLimited(action: "petting", retryAfterSeconds: MoodRules.pettingInterval - (at - last))
            }
            emit(.petPetted, at: at)
            say(.petting, at: at)
        default:
            guard try runSubsystemAction(action, at: at, commandID: commandID) else {
                throw .invalidState(kind: "command", id: action.name, reason: "is handled by no subsystem")
            }
        }
    }

    /// A zone or day-start change can move the open day's end into the past: that day (and, after a
    /// jump of more than a day's worth of hours, the next one) closes at once, at the command's
    /// instant, as part of the same command, so the day and coins shown change with the setting.
    /// Each day still closes exactly once (days only move forward).
    private mutating func closeEndedDays(at: Instant) {
        var guardCount = 0
        while state.clock.start(ofDay: state.openDay + 1) <= at && guardCount < 3 {
            closeDay(at: max(at, state.now))
            guardCount += 1
        }
    }

    // MARK: - Time

    /// The next instant at which time alone changes something (a day closes, a reminder falls
    /// due, a subsystem has something to do). The app loop sleeps until then (or the next input).
    /// The next instant a subsystem needs (a reminder, a window, a focus end), ignoring day
    /// closings: a simulator letting a long stretch pass may leap to it, and the catch-up closes
    /// the days on the way, each at its own instant.
    public func nextWakeupExceptDayClose() -> Instant? { nextSubsystemWakeup().map { max($0, state.now) } }

    public func nextWakeup() -> Instant? {
        var next = state.clock.start(ofDay: state.openDay + 1)
        if let w = nextSubsystemWakeup(), w < next { next = w }
        return max(next, state.now)
    }

    /// How many days back from the instant being reached a catch-up closes one by one (ten years
    /// and a few days). Older days are closed as one stretch (`skipDays`): see docs/domain.md.
    public static let preciseCatchUpDays = 3_660

    /// Advances time to `t`, closing every day and firing every reminder on the way, in order.
    /// Returns the events (already applied here: run it on a copy and keep the copy once they
    /// are stored). Going backwards does nothing. Advancing to `state.now` itself settles what is
    /// already due (e.g. a day that a zone or day-start change ended): `nextWakeup()` can be "now".
    /// `t` is clamped to `TimeRange.latest`.
    public mutating func advance(to t: Instant) -> [Event] {
        advance(to: t, eventLimit: .max).events
    }

    /// Like `advance(to:)`, but stops once at least `eventLimit` events were emitted (at a whole
    /// step: a day closed, a wake-up handled), so a long catch-up can be stored in batches with
    /// bounded memory. `done` is false when it stopped early: call it again with the same `t`.
    public mutating func advance(to target: Instant, eventLimit: Int) -> (events: [Event], done: Bool) {
        outbox = []
        currentCommand = nil
        let t = min(target, TimeRange.latest)
        guard t >= state.now else { return ([], true) }
        while true {
            if outbox.count >= eventLimit { return (outbox, false) }
            let lastSkipped = state.clock.day(of: t) - Engine.preciseCatchUpDays
            if lastSkipped > state.openDay { skipDays(through: lastSkipped); continue }
            let boundary = state.clock.start(ofDay: state.openDay + 1)
            let wakeups = subsystemWakeups()
            if let w = wakeups.lazy.compactMap({ $0 }).min(), w <= t, w < boundary || boundary > t {
                fireSubsystems(at: max(w, state.now), due: w, upTo: t, known: wakeups)
                continue
            }
            guard boundary <= t else { break }
            closeDay(at: max(boundary, state.now))
        }
        if t > state.now { state.now = t }
        return (outbox, true)
    }

    /// Closes the days from the open day through `last` as ONE day (`last`), at `last`'s end: what
    /// was due in the stretch is judged once (overdue tasks missed once, a recurring task's next
    /// occurrence placed after it, habits scored once), and the wake-ups that fell inside it are
    /// then handled once each, late (reminders reported missed, windows closed), instead of day by
    /// day. Only catch-ups longer than `preciseCatchUpDays` use it.
    ///
    /// In events: one `day.closed` for the day before `last` that judges nothing (it moves the
    /// open day, keeps the streak), then `last` closes as any day does, with everything overdue.
    private mutating func skipDays(through last: Int) {
        let r = DayResult(day: last - 1, due: 0, done: 0, missed: 0, paused: state.paused, streak: state.streak)
        emit(.dayClosed(r), at: max(state.clock.start(ofDay: last), state.now))
        closeDay(at: max(state.clock.start(ofDay: last + 1), state.now))
    }

    private mutating func closeDay(at boundary: Instant) {
        let day = state.openDay
        let dayStart = state.clock.start(ofDay: day)
        closeDaySubsystems(day: day, boundary: boundary)
        var due = 0, done = 0, missed = 0
        for t in state.tasks.values {
            // A task already judged for an earlier day (missed or excused) is not due again, even if
            // a zone or day-start change moved its due time into this day's hours.
            if let m = t.missedDay ?? t.excusedDay, m != day { continue }
            let dueToday = t.due.map { $0 >= dayStart && $0 < boundary } ?? false
            if dueToday || t.missedDay == day {
                due += 1
                if t.state == .completed { done += 1 }
                if t.missedDay == day { missed += 1 }
            }
        }
        // Habits count like due items: all checked = done, any unchecked = missed (nil: no habits).
        if let habitsDone = habitDayComplete(day: day) {
            due += 1
            if habitsDone { done += 1 } else { missed += 1 }
        }
        let streak: Int
        if state.paused || due == 0 { streak = state.streak }
        else if missed > 0 { streak = 0 }
        else { streak = done == due ? state.streak + 1 : state.streak }
        let grew = streak > state.streak
        emit(.dayClosed(DayResult(day: day, due: due, done: done, missed: missed, paused: state.paused, streak: streak)),
             at: boundary)
        awardBadges(at: boundary)
        if missed > 0 { say(.missed, at: boundary) } else if grew && streak >= 2 { say(.streak, at: boundary) }
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
