/// Reminders from every source (docs/domain.md#reminders-and-nudges; "nudges" are the unsolicited ones): shown on
/// the device within a second of their time, sent to the phone (queued while none is connected,
/// delivered once, deduplicated by id), visual-only in quiet hours, at most 3 unsolicited ones a
/// day, and reported once as missed when they fell due while the device was off.
///
/// Sources call `notify(_:at:upTo:)` from their `fire` hooks; task reminders use their own
/// events (`reminder.due` / `reminder.missed`) and join the phone queue the same way.
///
/// Names: the code says "reminder" throughout; the journal and protocol keep their older wire
/// names — event types `notice.*`, the payload key `nudge`, commands `notice.delivered` and
/// `notice.silence` (docs/domain.md has the mapping).

/// Where a reminder comes from.
public enum ReminderSource: String, Codable, Sendable, CaseIterable {
    case task, habit, checkin, commitment, focus, course, pet
}

/// One reminder, from any source.
public struct Reminder: Codable, Sendable, Equatable, Hashable {
    /// Unique and stable: the same reminder never fires twice (e.g. "habit:h1:20514").
    public var id: String
    public var source: ReminderSource
    /// The object it is about (task, habit, commitment id…); never personal text.
    public var ref: String
    /// When it was due.
    public var due: Instant
    /// Set up by the owner (a reminder they asked for). Unsolicited ones are capped at 3 a day.
    public var solicited: Bool

    public init(id: String, source: ReminderSource, ref: String, due: Instant, solicited: Bool) {
        self.id = id; self.source = source; self.ref = ref; self.due = due; self.solicited = solicited
    }
}

public enum ReminderAction: Sendable, Equatable {
    /// The phone confirms it received these queued reminders.
    case delivered(ids: [String])
    /// Silence reminder sounds until an instant (nil: sound again now). Reminders still show.
    case silence(until: Instant?)

    public var name: String {
        switch self {
        case .delivered: "notice.delivered"
        case .silence: "notice.silence"
        }
    }
}

public enum ReminderEvent: SubEvent {
    /// Shown on time (pet nudge animation, LED, sound unless quiet hours or silenced).
    case shown(Reminder)
    /// Fell due while the device was off: reported once, never replayed.
    case missed(Reminder)
    /// An unsolicited reminder over the daily cap: not shown.
    case suppressed(Reminder)
    /// The phone received these.
    case delivered(ids: [String])
    /// Reminder sounds are off until this instant (nil: on again).
    case silenced(until: Instant?)

    public var type: String {
        switch self {
        case .shown: "notice.shown"
        case .missed: "notice.missed"
        case .suppressed: "notice.suppressed"
        case .delivered: "notice.delivered"
        case .silenced: "notice.silenced"
        }
    }

    public static func owns(_ type: String) -> Bool { type.hasPrefix("notice.") }
    public static let allTypes = ["notice.shown", "notice.missed", "notice.suppressed", "notice.delivered", "notice.silenced"]

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(type, forKey: AnyKey("type"))
        switch self {
        case .shown(let n), .missed(let n), .suppressed(let n): try c.encode(n, forKey: AnyKey("nudge"))
        case .delivered(let ids): try c.encode(ids, forKey: AnyKey("ids"))
        case .silenced(let until): try c.encodeIfPresent(until, forKey: AnyKey("until"))
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let type = try c.decode(String.self, forKey: AnyKey("type"))
        switch type {
        case "notice.shown": self = .shown(try c.decode(Reminder.self, forKey: AnyKey("nudge")))
        case "notice.missed": self = .missed(try c.decode(Reminder.self, forKey: AnyKey("nudge")))
        case "notice.suppressed": self = .suppressed(try c.decode(Reminder.self, forKey: AnyKey("nudge")))
        case "notice.delivered": self = .delivered(ids: try c.decode([String].self, forKey: AnyKey("ids")))
        case "notice.silenced": self = .silenced(until: try c.decodeIfPresent(Instant.self, forKey: AnyKey("until")))
        default: throw unknownSubEvent(decoder, type)
        }
    }
}

public struct ReminderState: Codable, Sendable, Equatable {
    /// Ids that have fired (shown, missed or suppressed), with the day they fired; pruned after a
    /// week (sources never re-offer reminders that old).
    public var fired: [String: Int] = [:]
    /// Unsolicited reminders shown per day (cap 3).
    public var unsolicitedShown: [Int: Int] = [:]
    /// Shown or missed reminders the phone has not confirmed yet, oldest first (deduplicated by id).
    public var outbox: [Reminder] = []
    /// The latest reminder shown on time (for the reminder overlay; missed ones are only counted).
    public var last: Reminder?
    /// Reminders ever reported as missed while off.
    public var missedTotal = 0
    /// Reminder sounds are silenced until this instant.
    public var silencedUntil: Instant?
    public init() {}
}

public enum ReminderRules {
    /// Unsolicited reminders shown per day at most.
    public static let unsolicitedPerDay = 3
    /// Reminders waiting for the phone at most (the oldest are dropped beyond this).
    public static let outboxLimit = 200
    /// The longest silence the owner can ask for, in seconds (7 days).
    public static let maxSilenceSeconds: Int64 = 7 * Seconds.day
}

/// Reminders and the phone queue as a subsystem: its own commands and events (the sources call
/// `notify` from their hooks).
enum RemindersSubsystem: EventWrappingSubsystem {
    typealias Commands = ReminderCommands
    static func claim(_ action: Action) -> ReminderAction? { if case .reminder(let a) = action { a } else { nil } }
    static func claim(_ event: EventKind) -> ReminderEvent? { if case .reminder(let e) = event { e } else { nil } }
    static func wrap(_ event: ReminderEvent) -> EventKind { .reminder(event) }

    static func run(_ action: ReminderAction, in engine: inout Engine, at: Instant, commandID: String) throws(DomainError) {
        try engine.runReminder(action, at: at, commandID: commandID)
    }

    static func apply(_ event: ReminderEvent, to engine: inout Engine, at: Instant) { engine.applyReminder(event, at: at) }
}

extension Engine {
    /// Fires a due reminder once: shown if the engine reached it in time (within
    /// `Engine.reminderLateness` of `upTo`), missed otherwise; an unsolicited one beyond the
    /// daily cap is suppressed. Returns false if this id already fired.
    @discardableResult
    mutating func notify(_ n: Reminder, at: Instant, upTo t: Instant) -> Bool {
        guard state.reminders.fired[n.id] == nil else { return false }
        if t - n.due > Engine.reminderLateness {
            emit(.reminder(.missed(n)), at: at)
            return true
        }
        let day = state.clock.day(of: n.due)
        if !n.solicited, state.reminders.unsolicitedShown[day, default: 0] >= ReminderRules.unsolicitedPerDay {
            emit(.reminder(.suppressed(n)), at: at)
            return true
        }
        emit(.reminder(.shown(n)), at: at)
        say(.nudge, at: at)
        return true
    }

    /// True when quiet hours are on at `t` (reminders are visual only: no sound).
    public func isQuiet(at t: Instant) -> Bool {
        state.quiet.contains(minuteOfDay: state.clock.local(t).secondOfDay / 60)
    }

    /// Whether a reminder at `t` may make a sound: not in quiet hours and not silenced.
    public func reminderSoundAllowed(at t: Instant) -> Bool {
        !isQuiet(at: t) && !(state.reminders.silencedUntil.map { t < $0 } ?? false)
    }

    mutating func runReminder(_ a: ReminderAction, at: Instant, commandID: String) throws(DomainError) {
        switch a {
        case .delivered(let ids):
            let waiting = Set(state.reminders.outbox.map(\.id))
            let known = ids.filter { waiting.contains($0) }
            guard !known.isEmpty else {
                throw .invalidState(kind: "notice", id: ids.first ?? "", reason: "is not waiting for delivery")
            }
            emit(.reminder(.delivered(ids: known)), at: at)
        case .silence(let until):
            if let until {
                guard until > at else { throw .invalidField(field: "until", reason: "must be in the future") }
                guard until - at <= ReminderRules.maxSilenceSeconds else {
                    throw .invalidField(field: "until", reason: "reminders can be silenced for at most \(ReminderRules.maxSilenceSeconds / Seconds.day) days")
                }
            }
            emit(.reminder(.silenced(until: until)), at: at)
        }
    }

    mutating func applyReminder(_ e: ReminderEvent, at: Instant) {
        switch e {
        case .shown(let n):
            let day = state.clock.day(of: n.due)
            state.reminders.fired[n.id] = day
            if !n.solicited { state.reminders.unsolicitedShown[day, default: 0] += 1 }
            queueForPhone(n, shown: true)
        case .missed(let n):
            state.reminders.fired[n.id] = state.clock.day(of: n.due)
            state.reminders.missedTotal += 1
            state.remindersMissed += 1
            queueForPhone(n, shown: false)
        case .suppressed(let n):
            state.reminders.fired[n.id] = state.clock.day(of: n.due)
        case .delivered(let ids):
            let done = Set(ids)
            state.reminders.outbox.removeAll { done.contains($0.id) }
        case .silenced(let until):
            state.reminders.silencedUntil = until
        }
    }

    /// Adds a reminder to the phone queue once (by id), keeping the queue bounded; a shown one also
    /// becomes the reminder overlay's.
    mutating func queueForPhone(_ n: Reminder, shown: Bool) {
        if shown { state.reminders.last = n }
        guard !state.reminders.outbox.contains(where: { $0.id == n.id }) else { return }
        state.reminders.outbox.append(n)
        if state.reminders.outbox.count > ReminderRules.outboxLimit {
            state.reminders.outbox.removeFirst(state.reminders.outbox.count - ReminderRules.outboxLimit)
        }
    }

}

enum ReminderCommands: CommandTable {
    static let fields: [String: Set<String>] = ["notice.delivered": ["ids"], "notice.silence": ["until"]]

    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? {
        switch name {
        case "notice.delivered":
            let ids = try f.required("ids").split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
            guard !ids.isEmpty else { throw .invalidField(field: "ids", reason: "name at least one notice id") }
            return .reminder(.delivered(ids: ids))
        case "notice.silence":
            // until=+2h / a time silences until then; until=off (or absent) turns sound back on.
            if let v = f["until"], v != "off" { return .reminder(.silence(until: try f.time("until"))) }
            return .reminder(.silence(until: nil))
        default: return nil
        }
    }
}
