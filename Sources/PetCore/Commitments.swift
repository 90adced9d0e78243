/// Commitments (wake-up, on-time, focus, place) with coin stakes, and focus sessions (SPEC §8).
///
/// Scaffolding: the types and hooks the engine calls (see Subsystems.swift).

public enum CommitmentAction: Sendable, Equatable {
    /// The protocol name of the command.
    public var name: String { switch self {} }
}

public enum CommitmentEvent: SubEvent {
    public var type: String { switch self {} }
    public static func owns(_ type: String) -> Bool { type.hasPrefix("commitment.") || type.hasPrefix("focus.") || type.hasPrefix("charity.") }
    public static let allTypes: [String] = []
    public func encode(to encoder: Encoder) throws { switch self {} }
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        throw unknownSubEvent(decoder, try c.decode(String.self, forKey: AnyKey("type")))
    }
}

public struct CommitmentState: Codable, Sendable, Equatable {
    public init() {}
}

extension Engine {
    mutating func runCommitment(_ a: CommitmentAction, at: Instant, commandID: String) throws(DomainError) { switch a {} }
    mutating func applyCommitment(_ e: CommitmentEvent, at: Instant) { switch e {} }
    mutating func closeDayCommitments(day: Int, boundary: Instant) {}
    func nextCommitmentWakeup() -> Instant? { nil }
    mutating func fireCommitment(at: Instant, due: Instant, upTo t: Instant) {}
}

/// Command names and fields of this subsystem (merged into CommandParser).
enum CommitmentCommands {
    static let fields: [String: Set<String>] = [:]
    /// The action for `name`, or nil if the name is not this subsystem's.
    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? { nil }
}
