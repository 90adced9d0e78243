/// Reminders and nudges from every source (SPEC §11): shown on the device within a second of their
/// time, sent to the phone (queued while none is connected, delivered once, deduplicated by id),
/// visual-only in quiet hours, at most 3 unsolicited ones a day, and reported once as missed when
/// they fell due while the device was off.
///
/// Sources call `notify(_:at:upTo:)` from their `fire…` hooks; task reminders use their own
/// events (`reminder.due` / `reminder.missed`) and join the phone queue the same way.

/// Where a nudge comes from.
public enum NudgeSource: String, Codable, Sendable, CaseIterable {
    case task, habit, checkin, commitment, focus, course, pet
}

/// One reminder or nudge.
public struct Nudge: Codable, Sendable, Equatable, Hashable {
    /// Unique and stable: the same nudge never fires twice (e.g. "habit:h1:20514").
    public var id: String
    public var source: NudgeSource
    /// The object it is about (task, habit, commitment id…); never personal text.
    public var ref: String
    /// When it was due.
    public var due: Instant
    /// Set up by the owner (a reminder they asked for). Unsolicited nudges are capped at 3 a day.
    public var solicited: Bool

    public init(id: String, source: NudgeSource, ref: String, due: Instant, solicited: Bool) {
        self.id = id; self.source = source; self.ref = ref; self.due = due; self.solicited = solicited
    }
}

public enum NoticeAction: Sendable, Equatable {
    /// The phone confirms it received these queued nudges.
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

public enum NoticeEvent: SubEvent {
    /// Shown on time (pet nudge animation, LED, sound unless quiet hours or silenced).
    case shown(Nudge)
    /// Fell due while the device was off: reported once, never replayed.
    case missed(Nudge)
    /// An unsolicited nudge over the daily cap: not shown.
    case suppressed(Nudge)
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
        case "notice.shown": self = .shown(try c.decode(Nudge.self, forKey: AnyKey("nudge")))
        case "notice.missed": self = .missed(try c.decode(Nudge.self, forKey: AnyKey("nudge")))
        case "notice.suppressed": self = .suppressed(try c.decode(Nudge.self, forKey: AnyKey("nudge")))
        case "notice.delivered": self = .delivered(ids: try c.decode([String].self, forKey: AnyKey("ids")))
        case "notice.silenced": self = .silenced(until: try c.decodeIfPresent(Instant.self, forKey: AnyKey("until")))
        default: throw unknownSubEvent(decoder, type)
        }
    }
}

public struct NoticeState: Codable, Sendable, Equatable {
    /// Ids that have fired (shown, missed or suppressed), with the day they fired; pruned after a
    /// week (sources never re-offer nudges that old).
    public var fired: [String: Int] = [:]
    /// Unsolicited nudges shown per day (cap 3).
    public var unsolicitedShown: [Int: Int] = [:]
    /// Shown or missed nudges the phone has not confirmed yet, oldest first (deduplicated by id).
    public var outbox: [Nudge] = []
    /// The latest nudge shown on time (for the reminder overlay; missed ones are only counted).
    public var last: Nudge?
    /// Nudges ever reported as missed while off.
    public var missedTotal = 0
    /// Reminder sounds are silenced until this instant.
    public var silencedUntil: Instant?
    public init() {}
}

public enum NoticeRules {
    /// Unsolicited nudges shown per day at most.
    public static let unsolicitedPerDay = 3
    /// Nudges waiting for the phone at most (the oldest are dropped beyond this).
    public static let outboxLimit = 200
}

/// Reminders from every source and the phone queue as a subsystem (its own commands and events; the sources call `notify`).
enum RemindersSubsystem: EventWrappingSubsystem {
    static func claim(_ action: Action) -> NoticeAction? { if case .notice(let a) = action { a } else { nil } }
    static func claim(_ event: EventKind) -> NoticeEvent? { if case .notice(let e) = event { e } else { nil } }
    static func wrap(_ event: NoticeEvent) -> EventKind { .notice(event) }

    static func run(_ action: NoticeAction, in engine: inout Engine, at: Instant, commandID: String) throws(DomainError) {
        try engine.runNotice(action, at: at, commandID: commandID)
    }

    static func apply(_ event: NoticeEvent, to engine: inout Engine, at: Instant) { engine.applyNotice(event, at: at) }
}

extension Engine {
    /// Fires a due nudge once: shown if the engine reached it in time (within
    /// `Engine.reminderLateness` of `upTo`), missed otherwise; an unsolicited one beyond the
    /// daily cap is suppressed. Returns false if this id already fired.
    @discardableResult
    mutating func notify(_ n: Nudge, at: Instant, upTo t: Instant) -> Bool {
        guard state.notices.fired[n.id] == nil else { return false }
        if t - n.due > Engine.reminderLateness {
            emit(.notice(.missed(n)), at: at)
            return true
        }
        let day = state.clock.day(of: n.due)
        if !n.solicited, state.notices.unsolicitedShown[day, default: 0] >= NoticeRules.unsolicitedPerDay {
            emit(.notice(.suppressed(n)), at: at)
            return true
        }
        emit(.notice(.shown(n)), at: at)
        say(.nudge, at: at)
        return true
    }

    /// True when quiet hours are on at `t` (reminders are visual only: no sound).
    public func isQuiet(at t: Instant) -> Bool {
        state.quiet.contains(minuteOfDay: state.clock.local(t).secondOfDay / 60)
    }

    /// Whether a reminder at `t` may make a sound: not in quiet hours and not silenced.
    public func reminderSoundAllowed(at t: Instant) -> Bool {
        !isQuiet(at: t) && !(state.notices.silencedUntil.map { t < $0 } ?? false)
    }

    mutating func runNotice(_ a: NoticeAction, at: Instant, commandID: String) throws(DomainError) {
        switch a {
        case .delivered(let ids):
            let waiting = Set(state.notices.outbox.map(\.id))
            let known = ids.filter { waiting.contains($0) }
            guard !known.isEmpty else {
                throw .invalidState(kind: "notice", id: ids.first ?? "", reason: "is not waiting for delivery")
            }
            emit(.notice(.delivered(ids: known)), at: at)
        case .silence(let until):
            if let until {
                guard until > at else { throw .invalidField(field: "until", reason: "must be in the future") }
                guard until - at <= 7 * Seconds.day else {
                    throw .invalidField(field: "until", reason: "reminders can be silenced for at most 7 days")
                }
            }
            emit(.notice(.silenced(until: until)), at: at)
        }
    }

    mutating func applyNotice(_ e: NoticeEvent, at: Instant) {
        switch e {
        case .shown(let n):
            let day = state.clock.day(of: n.due)
            state.notices.fired[n.id] = day
            if !n.solicited { state.notices.unsolicitedShown[day, default: 0] += 1 }
            queueForPhone(n, shown: true)
        case .missed(let n):
            state.notices.fired[n.id] = state.clock.day(of: n.due)
            state.notices.missedTotal += 1
            state.remindersMissed += 1
            queueForPhone(n, shown: false)
        case .suppressed(let n):
            state.notices.fired[n.id] = state.clock.day(of: n.due)
        case .delivered(let ids):
            let done = Set(ids)
            state.notices.outbox.removeAll { done.contains($0.id) }
        case .silenced(let until):
            state.notices.silencedUntil = until
        }
    }

    /// Adds a nudge to the phone queue once (by id), keeping the queue bounded; a shown one also
    /// becomes the reminder overlay's.
    mutating func queueForPhone(_ n: Nudge, shown: Bool) {
        if shown { state.notices.last = n }
        guard !state.notices.outbox.contains(where: { $0.id == n.id }) else { return }
        state.notices.outbox.append(n)
        if state.notices.outbox.count > NoticeRules.outboxLimit {
            state.notices.outbox.removeFirst(state.notices.outbox.count - NoticeRules.outboxLimit)
        }
    }

}

enum NoticeCommands {
    static let fields: [String: Set<String>] = ["notice.delivered": ["ids"], "notice.silence": ["until"]]

    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? {
        switch name {
        case "notice.delivered":
            let ids = try f.required("ids").split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
            guard !ids.isEmpty else { throw .invalidField(field: "ids", reason: "name at least one notice id") }
            return .notice(.delivered(ids: ids))
        case "notice.silence":
            // until=+2h / a time silences until then; until=off (or absent) turns sound back on.
            if let v = f["until"], v != "off" { return .notice(.silence(until: try f.time("until"))) }
            return .notice(.silence(until: nil))
        default: return nil
        }
    }
}
