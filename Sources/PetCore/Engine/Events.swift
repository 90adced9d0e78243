/// Events: facts that happened. State is a fold over events; events are what the journal stores.
/// Each event carries the instant it happened and, if a command caused it, the command's id.

public struct DayResult: Codable, Sendable, Equatable {
    public var day: Int
    /// Tasks due that day, and how many of them were done / missed.
    public var due: Int
    public var done: Int
    public var missed: Int
    public var paused: Bool
    /// Streak after this day.
    public var streak: Int
}

public enum EventKind: Sendable, Equatable {
    /// The first event of every journal: the device's initial zone (with its rules, so a replay
    /// needs no zone database; nil in journals written before rules were carried) and day-start hour.
    case genesis(zone: String, dayStartHour: Int, rules: ZoneRules? = nil)
    case taskCreated(TaskItem)
    case taskEdited(TaskItem)
    case taskDeleted(id: String)
    case taskStarted(id: String)
    case taskCompleted(id: String, timing: Timing, reward: Reward)
    case taskUncompleted(id: String, reward: Reward)
    case taskMissed(id: String, day: Int)
    /// A task that fell due on a paused day: neither done nor missed.
    case taskExcused(id: String, day: Int)
    case reminderDue(taskID: String, index: Int)
    /// Fell due while the device was off (or the clock jumped): reported once, never replayed.
    case reminderMissed(taskID: String, index: Int)
    case reminderSilenced(taskID: String, index: Int)
    case categoryAdded(name: String)
    case categoryRenamed(name: String, to: String)
    case categoryDeleted(name: String)
    /// The owner's time zone changed; `rules` as for `genesis`.
    case zoneChanged(id: String, rules: ZoneRules? = nil)
    case dayStartChanged(hour: Int)
    case quietHoursChanged(startMinute: Int, endMinute: Int)
    case paused
    case resumed
    case petRenamed(name: String)
    case petTraitsChanged(species: String, colour: String, personality: Personality)
    case petPetted
    case petSaid(key: String)
    case levelReached(level: Int)
    case badgeEarned(id: String)
    case dayClosed(DayResult)
    case deviceSettingsChanged(DeviceSettings)
    case habit(HabitEvent)
    case shop(ShopEvent)
    case commitment(CommitmentEvent)
    case quit(QuitEvent)
    case appTime(AppTimeEvent)
    case reminder(ReminderEvent)
    case phone(PhoneEvent)
    case circle(CircleEvent)

    /// Stable type name stored in the journal.
    public var type: String {
        switch self {
        case .genesis: "device.created"
        case .taskCreated: "task.created"
        case .taskEdited: "task.edited"
        case .taskDeleted: "task.deleted"
        case .taskStarted: "task.started"
        case .taskCompleted: "task.completed"
        case .taskUncompleted: "task.uncompleted"
        case .taskMissed: "task.missed"
        case .taskExcused: "task.excused"
        case .reminderDue: "reminder.due"
        case .reminderMissed: "reminder.missed"
        case .reminderSilenced: "reminder.silenced"
        case .categoryAdded: "category.added"
        case .categoryRenamed: "category.renamed"
        case .categoryDeleted: "category.deleted"
        case .zoneChanged: "settings.zone"
        case .dayStartChanged: "settings.day-start"
        case .quietHoursChanged: "settings.quiet-hours"
        case .paused: "paused"
        case .resumed: "resumed"
        case .petRenamed: "pet.renamed"
        case .petTraitsChanged: "pet.traits"
        case .petPetted: "pet.petted"
        case .petSaid: "pet.said"
        case .levelReached: "level.reached"
        case .badgeEarned: "badge.earned"
        case .dayClosed: "day.closed"
        case .deviceSettingsChanged: "settings.device"
        case .habit, .shop, .commitment, .quit, .appTime, .reminder, .phone, .circle: subEvent?.type ?? ""
        }
    }

    /// The event of a subsystem this kind carries (nil: a task event or one of the engine's own).
    /// Every case is listed (no `default`), so a new subsystem's case does not compile until it is
    /// here, and its `type` and encoding cannot come out empty; see Subsystem.swift.
    public var subEvent: (any SubEvent)? {
        switch self {
        case .habit(let e): e
        case .shop(let e): e
        case .commitment(let e): e
        case .quit(let e): e
        case .appTime(let e): e
        case .reminder(let e): e
        case .phone(let e): e
        case .circle(let e): e
        case .genesis, .taskCreated, .taskEdited, .taskDeleted, .taskStarted, .taskCompleted, .taskUncompleted,
             .taskMissed, .taskExcused, .reminderDue, .reminderMissed, .reminderSilenced, .categoryAdded,
             .categoryRenamed, .categoryDeleted, .zoneChanged, .dayStartChanged, .quietHoursChanged, .paused,
             .resumed, .petRenamed, .petTraitsChanged, .petPetted, .petSaid, .levelReached, .badgeEarned,
             .dayClosed, .deviceSettingsChanged:
            nil
        }
    }

    /// Change to the coin balance (the ledger).
    public var coinsDelta: Int {
        switch self {
        case .taskCompleted(_, _, let r): r.coins
        case .taskUncompleted(_, let r): -r.coins
        default: subEvent?.coinsDelta ?? 0
        }
    }

    public var xpDelta: Int {
        switch self {
        case .taskCompleted(_, _, let r): r.xp
        case .taskUncompleted(_, let r): -r.xp
        default: subEvent?.xpDelta ?? 0
        }
    }
}

public struct Event: Sendable, Equatable {
    public var at: Instant
    public var commandID: String?
    public var kind: EventKind

    public init(at: Instant, commandID: String? = nil, kind: EventKind) {
        self.at = at; self.commandID = commandID; self.kind = kind
    }
}

/// JSON shape of an event body: `{"type": "...", ...fields}`. Field names are part of the
/// documented journal format (docs/storage.md).
extension EventKind: Codable {
    enum K: String, CodingKey {
        case type, task, id, timing, coins, xp, day, index, name, to, hour, startMinute, endMinute
        case species, colour, personality, key, level, result, settings, rules
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: K.self)
        try c.encode(type, forKey: .type)
        switch self {
        case let .genesis(zone, hour, rules):
            try c.encode(zone, forKey: .name); try c.encode(hour, forKey: .hour); try c.encodeIfPresent(rules, forKey: .rules)
        case .taskCreated(let t), .taskEdited(let t): try c.encode(t, forKey: .task)
        case .taskDeleted(let id), .taskStarted(let id): try c.encode(id, forKey: .id)
        case let .taskCompleted(id, timing, r):
            try c.encode(id, forKey: .id); try c.encode(timing, forKey: .timing)
            try c.encode(r.coins, forKey: .coins); try c.encode(r.xp, forKey: .xp)
        case let .taskUncompleted(id, r):
            try c.encode(id, forKey: .id); try c.encode(r.coins, forKey: .coins); try c.encode(r.xp, forKey: .xp)
        case let .taskMissed(id, day), let .taskExcused(id, day):
            try c.encode(id, forKey: .id); try c.encode(day, forKey: .day)
        case let .reminderDue(id, i), let .reminderMissed(id, i), let .reminderSilenced(id, i):
            try c.encode(id, forKey: .id); try c.encode(i, forKey: .index)
        case .categoryAdded(let n), .categoryDeleted(let n), .petRenamed(let n):
            try c.encode(n, forKey: .name)
        case let .zoneChanged(id, rules):
            try c.encode(id, forKey: .name); try c.encodeIfPresent(rules, forKey: .rules)
        case let .categoryRenamed(n, to):
            try c.encode(n, forKey: .name); try c.encode(to, forKey: .to)
        case .dayStartChanged(let h): try c.encode(h, forKey: .hour)
        case let .quietHoursChanged(s, e):
            try c.encode(s, forKey: .startMinute); try c.encode(e, forKey: .endMinute)
        case .paused, .resumed, .petPetted: break
        case let .petTraitsChanged(s, col, p):
            try c.encode(s, forKey: .species); try c.encode(col, forKey: .colour); try c.encode(p, forKey: .personality)
        case .petSaid(let k): try c.encode(k, forKey: .key)
        case .levelReached(let l): try c.encode(l, forKey: .level)
        case .badgeEarned(let id): try c.encode(id, forKey: .id)
        case .dayClosed(let r): try c.encode(r, forKey: .result)
        case .deviceSettingsChanged(let d): try c.encode(d, forKey: .settings)
        case .habit, .shop, .commitment, .quit, .appTime, .reminder, .phone, .circle: try subEvent?.encode(to: encoder)
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: K.self)
        let type = try c.decode(String.self, forKey: .type)
        func s(_ k: K) throws -> String { try c.decode(String.self, forKey: k) }
        func i(_ k: K) throws -> Int { try c.decode(Int.self, forKey: k) }
        switch type {
        case "device.created":
            self = .genesis(zone: try s(.name), dayStartHour: try i(.hour),
                            rules: try c.decodeIfPresent(ZoneRules.self, forKey: .rules))
        case "task.created": self = .taskCreated(try c.decode(TaskItem.self, forKey: .task))
        case "task.edited": self = .taskEdited(try c.decode(TaskItem.self, forKey: .task))
        case "task.deleted": self = .taskDeleted(id: try s(.id))
        case "task.started": self = .taskStarted(id: try s(.id))
        case "task.completed":
            self = .taskCompleted(id: try s(.id), timing: try c.decode(Timing.self, forKey: .timing),
                                  reward: Reward(coins: try i(.coins), xp: try i(.xp)))
        case "task.uncompleted": self = .taskUncompleted(id: try s(.id), reward: Reward(coins: try i(.coins), xp: try i(.xp)))
        case "task.missed": self = .taskMissed(id: try s(.id), day: try i(.day))
        case "task.excused": self = .taskExcused(id: try s(.id), day: try i(.day))
        case "reminder.due": self = .reminderDue(taskID: try s(.id), index: try i(.index))
        case "reminder.missed": self = .reminderMissed(taskID: try s(.id), index: try i(.index))
        case "reminder.silenced": self = .reminderSilenced(taskID: try s(.id), index: try i(.index))
        case "category.added": self = .categoryAdded(name: try s(.name))
        case "category.renamed": self = .categoryRenamed(name: try s(.name), to: try s(.to))
        case "category.deleted": self = .categoryDeleted(name: try s(.name))
        case "settings.zone": self = .zoneChanged(id: try s(.name), rules: try c.decodeIfPresent(ZoneRules.self, forKey: .rules))
        case "settings.day-start": self = .dayStartChanged(hour: try i(.hour))
        case "settings.quiet-hours": self = .quietHoursChanged(startMinute: try i(.startMinute), endMinute: try i(.endMinute))
        case "paused": self = .paused
        case "resumed": self = .resumed
        case "pet.renamed": self = .petRenamed(name: try s(.name))
        case "pet.traits":
            self = .petTraitsChanged(species: try s(.species), colour: try s(.colour),
                                     personality: try c.decode(Personality.self, forKey: .personality))
        case "pet.petted": self = .petPetted
        case "pet.said": self = .petSaid(key: try s(.key))
        case "level.reached": self = .levelReached(level: try i(.level))
        case "badge.earned": self = .badgeEarned(id: try s(.id))
        case "day.closed": self = .dayClosed(try c.decode(DayResult.self, forKey: .result))
        case "settings.device": self = .deviceSettingsChanged(try c.decode(DeviceSettings.self, forKey: .settings))
        default:
            for s in Engine.subsystems {
                if let kind = try s.decodeEvent(type: type, from: decoder) { self = kind; return }
            }
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown event type '\(type)'")
        }
    }
}
