/// The whole domain state: a fold over events. Everything here is derived from the journal.

public struct DayTally: Codable, Sendable, Equatable {
    /// Tasks completed / missed that day.
    public var done = 0
    public var missed = 0
    /// The day's habits item (docs/domain.md#streak-and-badges: every habit is a due item): 1 in `habitsDone` when every habit
    /// was checked at the close, 1 in `habitsMissed` when one was not; both 0 without a checklist or
    /// on a paused day. Used by the mood's follow-through (docs/domain.md#the-pet), not by the perfect week.
    public var habitsDone = 0
    public var habitsMissed = 0

    public init() {}

    enum CodingKeys: String, CodingKey { case done, missed, habitsDone, habitsMissed }

    /// Snapshots written before the habits fields existed decode them as 0.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        done = try c.decode(Int.self, forKey: .done)
        missed = try c.decode(Int.self, forKey: .missed)
        habitsDone = try c.decodeIfPresent(Int.self, forKey: .habitsDone) ?? 0
        habitsMissed = try c.decodeIfPresent(Int.self, forKey: .habitsMissed) ?? 0
    }
}

public struct Speech: Codable, Sendable, Equatable {
    public var key: String
    public var at: Instant
    public var text: String { Lines.line(key: key)?.text ?? "" }
}

/// Codable for snapshots (a cache of the fold; the journal stays the truth).
public struct PetState: Sendable, Equatable, Codable {
    /// The version of the snapshot encoding. Bump it when PetState's encoded shape or the fold
    /// changes: snapshots of another format are ignored and the journal is replayed in full
    /// (docs/storage.md). Tests/PetCoreTests/SnapshotShapeTests.swift fails when the encoded
    /// shape changes while this stays the same.
    public static let snapshotFormat = 7

    public var createdAt: Instant
    /// The latest instant the state has been advanced to.
    public var now: Instant
    public var zoneID: String
    public var clock: DayClock
    /// The current day (not yet closed). Only ever moves forward.
    public var openDay: Int
    public var quiet = QuietHours()
    public var paused = false
    /// Theme, sound, brightness, dim and sleep times.
    public var device = DeviceSettings()

    public var tasks: [String: TaskItem] = [:]
    public var categories: [String] = TaskRules.defaultCategories

    /// Coin balance (never below 0) and lifetime XP.
    public var coins = 0
    public var xp = 0
    /// Lifetime coins earned and spent (ledger totals).
    public var coinsEarned = 0
    public var coinsSpent = 0
    public var tasksCompleted = 0
    public var streak = 0
    public var bestStreak = 0
    /// The last time the daily streak broke: the day that broke it and the length it had.
    public var lastBreak: StreakBreak?
    /// Perfect-week tracking: the Monday that started the tracked week, whether it is still clean,
    /// and items done in it.
    public var weekStart: Int?
    public var weekClean = true
    public var weekDone = 0
    public var perfectWeeks = 0
    public var purchases = 0
    public var badges: [String: Instant] = [:]

    public var pet = PetProfile()
    public var needs: Needs
    public var lastCelebration: Instant?
    public var lastPetting: Instant?
    public var speech: Speech?
    /// Items done / missed per day, for the last few days (mood, today's summary).
    public var tally: [Int: DayTally] = [:]
    /// Reminders that fired (or were missed) and are not yet dismissed, newest last.
    public var lastReminder: TaskReminderFired?
    /// Reminders ever recorded as missed (fell due while the device was off). The device shows
    /// how many of them the current boot's catch-up added.
    public var remindersMissed = 0

    /// The latest command ids applied (bounded; the journal's commands table holds them all).
    public var recentCommands = RecentCommandIDs()
    public var eventCount = 0

    // Subsystems (each in its own file).
    public var habits = HabitState()
    public var shop = ShopState()
    public var commitments = CommitmentState()
    public var quit = QuitState()
    /// App time (ScreenTime/): stored under its snapshot and export key `screen`; code says `appTime`.
    var screen = AppTimeState()
    public var appTime: AppTimeState {
        get { screen }
        _modify { yield &screen }
        set { screen = newValue }
    }
    public var reminders = ReminderState()
    /// Paired phones and the pairing lockout (Phones/Phones.swift).
    public var phones = PhonesState()
    /// Circles joined, challenge stakes held and settled (Circles/CircleLedger.swift).
    public var circles = CircleState()
    /// Per-day aggregates for the stats screens (docs/domain.md#stats), kept for the whole history.
    public var stats = StatsState()

    /// Snapshot and export keys: the property names, except that the reminders keep their older
    /// name `notices` so snapshots and exports written before the rename stay readable (every
    /// stored property must be listed here).
    enum CodingKeys: String, CodingKey {
        case createdAt, now, zoneID, clock, openDay, quiet, paused, device, tasks, categories, coins, xp
        case coinsEarned, coinsSpent, tasksCompleted, streak, bestStreak, lastBreak, weekStart, weekClean
        case weekDone, perfectWeeks, purchases, badges, pet, needs, lastCelebration, lastPetting, speech
        case tally, lastReminder, remindersMissed, recentCommands, eventCount, habits, shop, commitments, quit
        case screen, stats, phones, circles
        case reminders = "notices"
    }

    public init(createdAt: Instant, zoneID: String, zone: ZoneRules, dayStartHour: Int = 3) {
        self.createdAt = createdAt
        self.now = createdAt
        self.zoneID = zoneID
        self.clock = DayClock(zone: zone, dayStartHour: dayStartHour)
        self.openDay = clock.day(of: createdAt)
        self.needs = Needs(asOf: createdAt)
    }

    // MARK: - Derived values

    public var level: Int { Levels.level(forXP: xp) }
    public var today: Int { openDay }

    /// Open tasks in list order.
    public func openTasks(_ filter: TaskFilter = TaskFilter()) -> [TaskItem] {
        tasks.values.filter { $0.isOpen && filter.matches($0) }.sorted(by: taskOrder)
    }

    /// Tasks in list order, any state, matching a filter.
    public func taskList(_ filter: TaskFilter = TaskFilter()) -> [TaskItem] {
        tasks.values.filter { filter.matches($0) }.sorted(by: taskOrder)
    }

    /// Whether `t` is a recurring task's next occurrence whose day has not come: finishing (or
    /// missing) an occurrence makes the next one at once, but the day's list (home, today) shows
    /// it only from the start of its day (its due's day, else its start's), so a finished daily
    /// task does not seem to come back at once (docs/screens.md, "Today").
    public func isUpcomingOccurrence(_ t: TaskItem) -> Bool {
        t.spawnedFrom != nil && clock.day(of: t.due ?? t.start) > openDay
    }

    /// The open tasks of the day's list (home's card, today), in list order: every open task but a
    /// recurring task's next occurrence before its day (`isUpcomingOccurrence`).
    public func todayTasks() -> [TaskItem] {
        openTasks().filter { !isUpcomingOccurrence($0) }
    }

    /// Recurring occurrences completed today whose next one waits for its day: today lists them
    /// as done, in the order they were completed.
    public func recurringDoneToday() -> [TaskItem] {
        tasks.values.filter { t in
            guard t.state == .completed, t.recurrence != nil, let at = t.completedAt, clock.day(of: at) == openDay,
                  let next = t.spawnedID.flatMap({ tasks[$0] }) else { return false }
            return isUpcomingOccurrence(next)
        }.sorted { ($0.completedAt ?? $0.start, $0.id) < ($1.completedAt ?? $1.start, $1.id) }
    }

    /// The next open task to show on the home screen.
    public var nextTask: TaskItem? { todayTasks().first }

    public func isAsleep(at t: Instant) -> Bool {
        if paused { return true }
        let local = clock.local(t)
        return quiet.contains(minuteOfDay: local.secondOfDay / 60)
    }

    /// Needs at `t` (≥ the last event), integrating decay and sleep piecewise.
    /// See `needs(at:)`.
    public static let needsHorizon: Int64 = 60 * Seconds.day

    public func needs(at t: Instant) -> Needs {
        var n = needs
        guard t > n.asOf else { return n }
        var cursor = n.asOf
        // Needs are walked quiet hour by quiet hour for the last `needsHorizon` only: before that
        // the pet counts as awake (hunger and tiredness reach their floors within days, so the
        // result is the same), and a catch-up over centuries stays quick.
        if t - cursor > PetState.needsHorizon {
            let skipped = (t - PetState.needsHorizon) - cursor
            n.pass(seconds: min(skipped, Seconds.day * 365), asleep: false)
            cursor = t - PetState.needsHorizon
        }
        while cursor < t {
            let segmentEnd = min(t, nextSleepBoundary(after: cursor))
            n.pass(seconds: segmentEnd - cursor, asleep: isAsleep(at: cursor))
            cursor = segmentEnd
        }
        n.asOf = t
        return n
    }

    /// The next instant after `t` at which quiet hours start or end.
    func nextSleepBoundary(after t: Instant) -> Instant {
        if quiet.startMinute == quiet.endMinute { return t + Seconds.day }
        let local = clock.local(t)
        var best: Instant?
        for dayOffset in 0...1 {
            let date = local.date.adding(days: dayOffset)
            for m in [quiet.startMinute, quiet.endMinute] {
                let i = clock.instant(LocalDateTime(date: date, secondOfDay: m * 60))
                if i > t, i < (best ?? Instant(.max)) { best = i }
            }
        }
        return best ?? t + Seconds.hour
    }

    public func mood(at t: Instant) -> Mood {
        let n = needs(at: t)
        var done3 = 0, missed3 = 0
        for d in (openDay - 2)...openDay {
            done3 += (tally[d]?.done ?? 0) + (tally[d]?.habitsDone ?? 0)
            missed3 += (tally[d]?.missed ?? 0) + (tally[d]?.habitsMissed ?? 0)
        }
        // A habit checked today is a completed item too ("one completed item cheers it up").
        let habitToday = checkedToday.contains { $0 != HabitRules.movement } ? 1 : 0
        return MoodRules.mood(
            asleep: isAsleep(at: t),
            sinceCelebration: lastCelebration.map { t - $0 },
            sincePetting: lastPetting.map { t - $0 },
            fullness: n.fullness, energy: n.energy,
            done3: done3, missed3: missed3, doneToday: (tally[openDay]?.done ?? 0) + habitToday)
    }

    /// What the pet is saying at `t`: the latest line for 2 minutes, then an idle line that
    /// changes every hour (never the same twice in a row).
    public func speech(at t: Instant) -> PetLine {
        if let s = speech, t - s.at < 120, let line = Lines.line(key: s.key) { return line }
        // Even and odd hours draw from disjoint halves of the idle candidates (every kind has ≥ 2
        // for every personality), so two consecutive hours never show the same line. (Picking with
        // `previous` = the raw pick of the hour before could repeat the line actually shown then.)
        let hour = floorDiv(t.seconds, Seconds.hour)
        let candidates = Lines.all.filter { $0.kind == .idle && ($0.personality == nil || $0.personality == pet.personality) }
        let half = stride(from: Int(floorMod(hour, 2)), to: candidates.count, by: 2).map { candidates[$0] }
        let mixed = UInt64(truncatingIfNeeded: floorDiv(hour, 2)) &* 0x9E37_79B9_7F4A_7C15
        return half[Int((mixed >> 33) % UInt64(half.count))]
    }

    var badgeProgress: BadgeProgress {
        BadgeProgress(tasksCompleted: tasksCompleted, streak: streak, level: level,
                      perfectWeeks: perfectWeeks, purchases: purchases,
                      challengeKinds: badgeChallengeKinds, quitDays: badgeQuitDays)
    }
}

public struct StreakBreak: Codable, Sendable, Equatable {
    /// The day whose miss broke the streak.
    public var day: Int
    /// The streak's length before it broke.
    public var length: Int
    /// When it broke (the instant that day closed).
    public var at: Instant
}

public struct TaskReminderFired: Codable, Sendable, Equatable {
    public var taskID: String
    public var index: Int
    public var at: Instant
    public var missed: Bool
}
