/// How the domain's subsystems (habits, shop, commitments, quit log, screen time, notices) plug
/// into the engine. Each lives in its own file with its own Action, Event and State types and a
/// handful of hooks; the engine only dispatches.
///
/// A subsystem provides, in `extension Engine`:
/// - `run<X>(_:at:commandID:) throws(DomainError)` — validate a command and `emit` its events;
/// - `apply<X>(_:at:)` — fold one of its events into `state` (never fails);
/// - `closeDay<X>(day:boundary:)` — emit what a day's close causes (before the streak is judged);
/// - `next<X>Wakeup() -> Instant?` and `fire<X>(at:due:upTo:)` — things due at an instant
///   (`fire` handles everything due at `due`; `upTo` is the advance target, for lateness).
/// Sub-events encode as flat JSON objects whose `type` starts with the subsystem's prefix.

/// An event of one subsystem.
public protocol SubEvent: Codable, Sendable, Equatable {
    /// Stable type name stored in the journal, e.g. "habit.checked".
    var type: String { get }
    /// Coin ledger change (0 if none).
    var coinsDelta: Int { get }
    /// XP change (0 if none).
    var xpDelta: Int { get }
    /// Whether a journal type name belongs to this subsystem.
    static func owns(_ type: String) -> Bool
    /// Every type name this subsystem writes (tests check each has an example that round-trips).
    static var allTypes: [String] { get }
}

extension SubEvent {
    public var coinsDelta: Int { 0 }
    public var xpDelta: Int { 0 }
}

/// Keys shared by all sub-event payloads ("type" plus whatever fields a subsystem uses).
public struct AnyKey: CodingKey, Hashable {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(_ s: String) { stringValue = s }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

extension Engine {
    /// The earliest instant a subsystem needs the engine to wake up for.
    func nextSubsystemWakeup() -> Instant? {
        [nextHabitWakeup(), nextShopWakeup(), nextCommitmentWakeup(), nextQuitWakeup(), nextScreenWakeup(),
         nextNoticeWakeup()].compactMap { $0 }.min()
    }

    /// Lets every subsystem with something due at `due` act (in a fixed order).
    mutating func fireSubsystems(at: Instant, due: Instant, upTo t: Instant) {
        if nextHabitWakeup() == due { fireHabit(at: at, due: due, upTo: t) }
        if nextShopWakeup() == due { fireShop(at: at, due: due, upTo: t) }
        if nextCommitmentWakeup() == due { fireCommitment(at: at, due: due, upTo: t) }
        if nextQuitWakeup() == due { fireQuit(at: at, due: due, upTo: t) }
        if nextScreenWakeup() == due { fireScreen(at: at, due: due, upTo: t) }
        if nextNoticeWakeup() == due { fireNotice(at: at, due: due, upTo: t) }
    }

    /// Every subsystem's end-of-day work, before the day's streak is judged.
    mutating func closeDaySubsystems(day: Int, boundary: Instant) {
        closeDayHabits(day: day, boundary: boundary)
        closeDayShop(day: day, boundary: boundary)
        closeDayCommitments(day: day, boundary: boundary)
        closeDayQuit(day: day, boundary: boundary)
        closeDayScreen(day: day, boundary: boundary)
        closeDayNotices(day: day, boundary: boundary)
    }
}

/// Decoding helper for sub-events: an error naming the unknown type.
func unknownSubEvent(_ decoder: Decoder, _ type: String) -> DecodingError {
    DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown event type '\(type)'"))
}

extension KeyedDecodingContainer where Key == AnyKey {
    /// The string field `key` of a sub-event payload.
    func string(_ key: String) throws -> String { try decode(String.self, forKey: AnyKey(key)) }
    /// The integer field `key` of a sub-event payload.
    func int(_ key: String) throws -> Int { try decode(Int.self, forKey: AnyKey(key)) }
}
