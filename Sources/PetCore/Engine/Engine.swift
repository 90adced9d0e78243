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

    /// Starts a new pet: returns the engine and the genesis event to store first.
    public static func create(at t: Instant, zoneID: String, dayStartHour: Int = 3,
                              zones: @escaping ZoneLookup) throws(DomainError) -> (Engine, Event) {
        let genesis = Event(at: t, kind: .genesis(zone: zoneID, dayStartHour: dayStartHour))
        return (try Engine(genesis: genesis, zones: zones), genesis)
    }

    /// Rebuilds an engine from a journal's first event.
    public init(genesis: Event, zones: @escaping ZoneLookup) throws(DomainError) {
        guard case let .genesis(zoneID, hour) = genesis.kind else {
            throw .invalidState(kind: "journal", id: "genesis", reason: "does not start with device.created")
        }
        guard let rules = zones(zoneID) else { throw .unknownTimeZone(id: zoneID) }
        guard (0...23).contains(hour) else { throw .invalidField(field: "dayStart", reason: "must be 0–23") }
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

    /// True when this command id was already applied (the reply is repeated, nothing changes).
    public func isDuplicate(_ commandID: String) -> Bool { state.seenCommands.contains(commandID) }

    // MARK: - Fold

    public mutating func apply(_ events: [Event]) { for e in events { apply(e) } }

    /// Applies one event to the state. Never fails: events are facts.
    public mutating func apply(_ e: Event) {
        if e.at > state.needs.asOf { state.needs = state.needs(at: e.at) }
        if e.at > state.now { state.now = e.at }
        if let c = e.commandID { state.seenCommands.insert(c) }
        state.eventCount += 1
        let day = state.clock.day(of: e.at)
        foldLedger(e, day: day)
        switch e.kind {
        case .genesis: break
        case .taskCreated(let t):
            state.tasks[t.id] = t
            state.stats.update(day) { $0.tasksCreated += 1 }
            if let p = t.spawnedFrom { state.tasks[p]?.spawnedID = t.id }
        case .taskEdited(let t):
            state.tasks[t.id] = t
        case .taskDeleted(let id):
            if let p = state.tasks[id]?.spawnedFrom, state.tasks[p]?.spawnedID == id { state.tasks[p]?.spawnedID = nil }
            state.tasks[id] = nil
        case .taskStarted(let id):
            state.tasks[id]?.state = .inProgress
        case let .taskCompleted(id, _, reward):
            state.tasks[id]?.state = .completed
            state.tasks[id]?.completedAt = e.at
            state.tasks[id]?.reward = reward
            state.coins += reward.coins
            state.coinsEarned += reward.coins
            state.xp += reward.xp
            state.tasksCompleted += 1
            state.tally[day, default: DayTally()].done += 1
            let created = state.tasks[id]?.createdAt ?? e.at
            state.stats.update(day) { $0.tasksDone += 1; $0.completions += 1; $0.completionSeconds += e.at - created }
            state.lastCelebration = e.at
        case let .taskUncompleted(id, reward):
            if let t = state.tasks[id] {
                state.tasks[id]?.state = t.missedDay != nil ? .missed : .pending
                state.tasks[id]?.completedAt = nil
                state.tasks[id]?.reward = nil
                if let done = t.completedAt {
                    let d = state.clock.day(of: done)
                    state.tally[d, default: DayTally()].done -= 1
                    state.stats.update(d) { $0.tasksDone -= 1; $0.completions -= 1; $0.completionSeconds -= done - t.createdAt }
                }
            }
            state.coins -= reward.coins
            state.coinsEarned -= reward.coins
            state.xp -= reward.xp
            state.tasksCompleted -= 1
        case let .taskMissed(id, d):
            state.tasks[id]?.state = .missed
            state.tasks[id]?.missedDay = d
            state.tally[d, default: DayTally()].missed += 1
            state.stats.update(d) { $0.tasksMissed += 1 }
        case let .taskExcused(id, d):
            // A skipped occurrence of a recurring task leaves the list (its next one is already
            // spawned); a one-off task stays open, neither done nor missed.
            if state.tasks[id]?.recurrence != nil { state.tasks[id] = nil } else { state.tasks[id]?.excusedDay = d }
        case let .reminderDue(id, i), let .reminderMissed(id, i):
            var missed = false
            if case .reminderMissed = e.kind { missed = true; state.remindersMissed += 1 }
            markReminder(id, i)
            let due = state.tasks[id]?.reminders[safe: i] ?? e.at
            state.lastReminder = ReminderNotice(taskID: id, index: i, at: due, missed: missed)
            queueForPhone(Nudge(id: "task:\(id):\(i)", source: .task, ref: id, due: due, solicited: true), shown: !missed)
        case let .reminderSilenced(id, i):
            markReminder(id, i)
        case .categoryAdded(let n):
            state.categories.append(n)
        case let .categoryRenamed(n, to):
            if let i = state.categories.firstIndex(of: n) { state.categories[i] = to }
            for (k, t) in state.tasks where t.category == n { state.tasks[k]?.category = to }
        case .categoryDeleted(let n):
            state.categories.removeAll { $0 == n }
            for (k, t) in state.tasks where t.category == n { state.tasks[k]?.category = TaskRules.fallbackCategory }
        case .zoneChanged(let id):
            if let rules = zones(id) { state.zoneID = id; state.clock.zone = rules }
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
        case .habit(let h): applyHabit(h, at: e.at)
        case .shop(let x): applyShop(x, at: e.at)
        case .commitment(let x): applyCommitment(x, at: e.at)
        case .quit(let x): applyQuit(x, at: e.at)
        case .screen(let x): applyScreen(x, at: e.at)
        case .notice(let x): applyNotice(x, at: e.at)
        }
    }

    /// Coins and XP of every event (the ledger), and the day's earned/spent totals. Task events
    /// keep their own bookkeeping below; subsystem events are applied here from their deltas.
    private mutating func foldLedger(_ e: Event, day: Int) {
        let coins = e.kind.coinsDelta
        switch e.kind {
        case .taskCompleted: state.stats.update(day) { $0.coinsEarned += coins }
        case .taskUncompleted(let id, _):
            let d = state.tasks[id]?.completedAt.map { state.clock.day(of: $0) } ?? day
            state.stats.update(d) { $0.coinsEarned += coins }
        case .habit, .shop, .commitment, .quit, .screen, .notice:
            state.coins += coins
            state.xp += e.kind.xpDelta
            if coins > 0 { state.coinsEarned += coins; state.stats.update(day) { $0.coinsEarned += coins } }
            if coins < 0 { state.coinsSpent -= coins; state.stats.update(day) { $0.coinsSpent -= coins } }
        default: break
        }
    }

    /// Emits `level.reached` for every level passed since `before` (call after emitting XP).
    mutating func celebrateLevels(from before: Int, at: Instant) {
        let after = state.level
        if after > before { for l in (before + 1)...after { emit(.levelReached(level: l), at: at) } }
    }

    private mutating func markReminder(_ id: String, _ i: Int) {
        guard var t = state.tasks[id], !t.remindersDone.contains(i) else { return }
        t.remindersDone.append(i)
        t.remindersDone.sort()
        state.tasks[id] = t
    }

    private mutating func foldDayClosed(_ r: DayResult, at: Instant) {
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
    public func decide(_ command: Command) throws(DomainError) -> [Event] {
        if isDuplicate(command.id) { return [] }
        try TaskRules.validateID(command.id, field: "command id")
        var scratch = self
        scratch.outbox = []
        scratch.currentCommand = command.id
        try scratch.run(command.action, at: max(command.at, state.now), commandID: command.id)
        return scratch.outbox
    }

    private mutating func run(_ action: Action, at: Instant, commandID: String) throws(DomainError) {
        switch action {
        case .createTask(let draft):
            let task = try makeTask(draft, defaultID: commandID, at: at)
            emit(.taskCreated(task), at: at)
        case let .editTask(id, patch):
            let old = try task(id)
            guard old.isOpen else {
                throw .invalidState(kind: "task", id: id, reason: "is \(old.state.rawValue); only open tasks can be edited")
            }
            emit(.taskEdited(try edited(old, patch, at: at)), at: at)
        case .deleteTask(let id):
            _ = try task(id)
            emit(.taskDeleted(id: id), at: at)
        case let .duplicateTask(id, newID):
            let old = try task(id)
            var draft = TaskDraft(id: newID ?? commandID, title: old.title)
            draft.notes = old.notes; draft.category = old.category; draft.project = old.project
            draft.priority = old.priority; draft.estimate = old.estimate; draft.recurrence = old.recurrence
            draft.start = max(old.start, at)
            draft.due = old.due.map { max($0, draft.start ?? at) }
            draft.reminders = old.reminders.filter { $0 > at }
            emit(.taskCreated(try makeTask(draft, defaultID: commandID, at: at)), at: at)
        case .startTask(let id):
            let t = try task(id)
            guard t.state == .pending else {
                throw .invalidState(kind: "task", id: id, reason: "is \(t.state.rawValue); only pending tasks can be started")
            }
            emit(.taskStarted(id: id), at: at)
        case .completeTask(let id):
            try complete(id, at: at)
        case .uncompleteTask(let id):
            let t = try task(id)
            guard t.state == .completed, let done = t.completedAt, let reward = t.reward else {
                throw .invalidState(kind: "task", id: id, reason: "is \(t.state.rawValue), not completed")
            }
            guard state.clock.day(of: done) == state.clock.day(of: at) else {
                throw .invalidState(kind: "task", id: id, reason: "can only be un-completed on the day it was completed")
            }
            guard state.coins >= reward.coins else {
                throw .insufficientCoins(needed: reward.coins, balance: state.coins)
            }
            emit(.taskUncompleted(id: id, reward: reward), at: at)
            // Take back the occurrence this completion spawned, if it is still untouched.
            if t.missedDay == nil, let child = t.spawnedID, let c = state.tasks[child], c.state == .pending {
                emit(.taskDeleted(id: child), at: at)
            }
        case let .silenceReminder(id, index):
            let t = try task(id)
            if let index {
                guard t.reminders.indices.contains(index) else {
                    throw .invalidField(field: "index", reason: "task '\(id)' has \(t.reminders.count) reminder(s)")
                }
                guard !t.remindersDone.contains(index) else {
                    throw .invalidState(kind: "reminder", id: "\(id)/\(index)", reason: "is already silenced or shown")
                }
                emit(.reminderSilenced(taskID: id, index: index), at: at)
            } else {
                let open = t.reminders.indices.filter { !t.remindersDone.contains($0) }
                guard !open.isEmpty else {
                    throw .invalidState(kind: "task", id: id, reason: "has no pending reminders")
                }
                for i in open { emit(.reminderSilenced(taskID: id, index: i), at: at) }
            }
        case .addCategory(let raw):
            let name = raw.trimmingSpaces
            try TaskRules.validateCategoryName(name)
            guard findCategory(name) == nil else { throw .alreadyExists(kind: "category", id: name) }
            guard state.categories.count < TaskRules.maxCategories else {
                throw .limitReached(what: "categories", limit: TaskRules.maxCategories)
            }
            emit(.categoryAdded(name: name), at: at)
        case let .renameCategory(name, raw):
            let to = raw.trimmingSpaces
            guard let existing = findCategory(name) else { throw .notFound(kind: "category", id: name) }
            guard existing != TaskRules.fallbackCategory else {
                throw .invalidState(kind: "category", id: existing, reason: "is the fallback category and cannot be renamed")
            }
            try TaskRules.validateCategoryName(to)
            if let clash = findCategory(to), clash != existing { throw .alreadyExists(kind: "category", id: clash) }
            emit(.categoryRenamed(name: existing, to: to), at: at)
        case .deleteCategory(let name):
            guard let existing = findCategory(name) else { throw .notFound(kind: "category", id: name) }
            guard existing != TaskRules.fallbackCategory else {
                throw .invalidState(kind: "category", id: existing, reason: "is the fallback category and cannot be deleted")
            }
            emit(.categoryDeleted(name: existing), at: at)
        case .setTimeZone(let id):
            guard zones(id) != nil else { throw .unknownTimeZone(id: id) }
            emit(.zoneChanged(id: id), at: at)
        case .setDayStart(let hour):
            guard (0...23).contains(hour) else {
                throw .invalidField(field: "hour", reason: "day start must be an hour 0–23 (got \(hour))")
            }
            emit(.dayStartChanged(hour: hour), at: at)
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
        case .habit(let a): try runHabit(a, at: at, commandID: commandID)
        case .shop(let a): try runShop(a, at: at, commandID: commandID)
        case .commitment(let a): try runCommitment(a, at: at, commandID: commandID)
        case .quit(let a): try runQuit(a, at: at, commandID: commandID)
        case .screen(let a): try runScreen(a, at: at, commandID: commandID)
        case .notice(let a): try runNotice(a, at: at, commandID: commandID)
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
        }
    }

    private func task(_ id: String) throws(DomainError) -> TaskItem {
        guard let t = state.tasks[id] else { throw .notFound(kind: "task", id: id) }
        return t
    }

    func findCategory(_ name: String) -> String? {
        let n = name.trimmingSpaces.lowercased()
        return state.categories.first { $0.lowercased() == n }
    }

    private func makeTask(_ d: TaskDraft, defaultID: String, at: Instant) throws(DomainError) -> TaskItem {
        let id = d.id ?? defaultID
        try TaskRules.validateID(id, field: "task id")
        guard state.tasks[id] == nil else { throw .alreadyExists(kind: "task", id: id) }
        try TaskRules.validateTitle(d.title)
        try TaskRules.validateNotes(d.notes)
        let category: String
        if let c = d.category {
            guard let found = findCategory(c) else { throw .notFound(kind: "category", id: c) }
            category = found
        } else {
            category = TaskRules.fallbackCategory
        }
        if let p = d.project { try validateProject(p) }
        let start = d.start ?? at
        try TaskRules.validateTimes(start: start, due: d.due)
        try TaskRules.validateEstimate(d.estimate)
        try TaskRules.validateReminders(d.reminders, now: at)
        return TaskItem(id: id, title: d.title.trimmingSpaces, notes: d.notes, category: category, project: d.project,
                        priority: d.priority, start: start, due: d.due, estimate: d.estimate, recurrence: d.recurrence,
                        reminders: d.reminders, remindersDone: [], state: .pending, createdAt: at, completedAt: nil,
                        reward: nil, missedDay: nil, seriesID: id, occurrence: 0, spawnedID: nil, spawnedFrom: nil,
                        excusedDay: nil)
    }

    private func validateProject(_ p: String) throws(DomainError) {
        guard (1...40).contains(p.trimmingSpaces.count) else {
            throw .invalidField(field: "project", reason: "must be 1–40 characters (got \(p.trimmingSpaces.count))")
        }
    }

    private func edited(_ old: TaskItem, _ p: TaskPatch, at: Instant) throws(DomainError) -> TaskItem {
        var t = old
        if let v = p.title { try TaskRules.validateTitle(v); t.title = v.trimmingSpaces }
        if let v = p.notes { try TaskRules.validateNotes(v); t.notes = v }
        if let v = p.category {
            guard let found = findCategory(v) else { throw .notFound(kind: "category", id: v) }
            t.category = found
        }
        if let v = p.project { try validateProject(v); t.project = v }
        if let v = p.priority { t.priority = v }
        if let v = p.start { t.start = v }
        if let v = p.due { t.due = v }
        if let v = p.estimate { t.estimate = v }
        if let v = p.recurrence { t.recurrence = v }
        for field in p.clear {
            switch field {
            case "due": t.due = nil
            case "project": t.project = nil
            case "estimate": t.estimate = nil
            case "recurrence": t.recurrence = nil
            case "reminders": t.reminders = []; t.remindersDone = []
            default: throw .invalidField(field: "clear", reason: "cannot clear '\(field)' (due, project, estimate, recurrence, reminders)")
            }
        }
        try TaskRules.validateTimes(start: t.start, due: t.due)
        try TaskRules.validateEstimate(t.estimate)
        if let r = p.reminders {
            try TaskRules.validateReminders(r, now: at, previous: old.reminders)
            // A reminder kept at the same instant keeps its done/silenced mark.
            t.reminders = r
            t.remindersDone = r.indices.filter { i in
                old.reminders.indices.contains { j in old.reminders[j] == r[i] && old.remindersDone.contains(j) }
            }
        }
        return t
    }

    private mutating func complete(_ id: String, at: Instant) throws(DomainError) {
        let t = try task(id)
        guard t.isOpen || t.state == .missed else {
            throw .invalidState(kind: "task", id: id, reason: "is already completed")
        }
        let timing: Timing = t.state == .missed ? .late : RewardRules.timing(done: at, due: t.due)
        let reward = RewardRules.taskReward(priority: t.priority, timing: timing, recurring: t.recurrence != nil,
                                            estimateMinutes: t.estimate)
        let before = state.level
        emit(.taskCompleted(id: id, timing: timing, reward: reward), at: at)
        if t.recurrence != nil, t.spawnedID == nil { spawnNext(after: t, at: at) }
        let after = state.level
        if after > before { for l in (before + 1)...after { emit(.levelReached(level: l), at: at) } }
        awardBadges(at: at)
        say(after > before ? .levelUp : .taskDone, at: at)
    }

    /// Creates the next occurrence of a recurring task: same local time of day, next date of the
    /// rule after the current occurrence's date; start and reminders keep their distance to it.
    private mutating func spawnNext(after t: TaskItem, at: Instant) {
        guard let rec = t.recurrence else { return }
        let base = t.due ?? t.start
        let local = state.clock.local(base)
        // The first date of the rule after this occurrence's date whose due time is still ahead
        // (a task planned in the past does not spawn occurrences that are already over).
        guard var date = rec.nextDate(after: local.date) else { return }
        var next = state.clock.instant(LocalDateTime(date: date, secondOfDay: local.secondOfDay))
        var steps = 0
        while next <= at && steps < 100_000 {
            guard let d = rec.nextDate(after: date) else { return }
            date = d
            next = state.clock.instant(LocalDateTime(date: date, secondOfDay: local.secondOfDay))
            steps += 1
        }
        let delta = next - base
        var child = t
        child.id = "\(t.seriesID)#\(t.occurrence + 1)"
        if state.tasks[child.id] != nil { child.id += ".\(state.eventCount)" }
        child.occurrence = t.occurrence + 1
        child.start = t.start + delta
        child.due = t.due.map { $0 + delta }
        child.reminders = t.reminders.map { $0 + delta }
        child.remindersDone = child.reminders.indices.filter { child.reminders[$0] <= at }
        child.state = .pending
        child.createdAt = at
        child.completedAt = nil
        child.reward = nil
        child.missedDay = nil
        child.excusedDay = nil
        child.spawnedID = nil
        child.spawnedFrom = t.id
        emit(.taskCreated(child), at: at)
    }

    // MARK: - Time

    /// The next instant at which time alone changes something (a day closes or a reminder falls
    /// due). The app loop sleeps until then (or the next input).
    public func nextWakeup() -> Instant? {
        var next = state.clock.start(ofDay: state.openDay + 1)
        if let r = nextReminder(), r.at < next { next = r.at }
        if let w = nextSubsystemWakeup(), w < next { next = w }
        return max(next, state.now)
    }

    private func nextReminder() -> (at: Instant, id: String, index: Int)? {
        var best: (at: Instant, id: String, index: Int)?
        for t in state.tasks.values where t.isOpen {
            for (i, r) in t.reminders.enumerated() where !t.remindersDone.contains(i) {
                if let b = best, (b.at, b.id, b.index) <= (r, t.id, i) { continue }
                best = (r, t.id, i)
            }
        }
        return best
    }

    /// Advances time to `t`, closing every day and firing every reminder on the way, in order.
    /// Returns the events (already applied here: run it on a copy and keep the copy once they
    /// are stored). Going backwards does nothing. Advancing to `state.now` itself settles what is
    /// already due (e.g. a day that a zone or day-start change ended): `nextWakeup()` can be "now".
    public mutating func advance(to t: Instant) -> [Event] {
        outbox = []
        currentCommand = nil
        guard t >= state.now else { return [] }
        while true {
            let boundary = state.clock.start(ofDay: state.openDay + 1)
            if let r = nextReminder(), r.at <= t, r.at < boundary || boundary > t {
                let when = max(r.at, state.now)
                if t - r.at <= Engine.reminderLateness {
                    emit(.reminderDue(taskID: r.id, index: r.index), at: when)
                    say(.nudge, at: when)
                } else {
                    emit(.reminderMissed(taskID: r.id, index: r.index), at: when)
                }
                continue
            }
            if let w = nextSubsystemWakeup(), w <= t, w < boundary || boundary > t {
                fireSubsystems(at: max(w, state.now), due: w, upTo: t)
                continue
            }
            guard boundary <= t else { break }
            closeDay(at: max(boundary, state.now))
        }
        if t > state.now { state.now = t }
        return outbox
    }

    private mutating func closeDay(at boundary: Instant) {
        let day = state.openDay
        let dayStart = state.clock.start(ofDay: day)
        let overdue = state.tasks.values
            .filter { $0.isOpen && $0.missedDay == nil && $0.excusedDay == nil && ($0.due.map { $0 < boundary } ?? false) }
            .sorted(by: taskOrder)
        for t in overdue {
            // A recurring task's next occurrence comes first (once), then the verdict on this one.
            if t.recurrence != nil, t.spawnedID == nil { spawnNext(after: t, at: boundary) }
            if state.paused {
                emit(.taskExcused(id: t.id, day: day), at: boundary)
            } else {
                emit(.taskMissed(id: t.id, day: day), at: boundary)
            }
        }
        closeDaySubsystems(day: day, boundary: boundary)
        var due = 0, done = 0, missed = 0
        for t in state.tasks.values {
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
