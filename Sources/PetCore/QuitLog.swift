/// The quit log: urges, triggers, recommendations, reflections, goal gauge, milestones (SPEC §9).
///
/// Scaffolding: the types and hooks the engine calls (see Subsystems.swift).

public enum QuitAction: Sendable, Equatable {
    /// The protocol name of the command.
    public var name: String { switch self {} }
}

public enum QuitEvent: SubEvent {
    public var type: String { switch self {} }
    public static func owns(_ type: String) -> Bool { type.hasPrefix("quit.") }
    public static let allTypes: [String] = []
    public func encode(to encoder: Encoder) throws { switch self {} }
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        throw unknownSubEvent(decoder, try c.decode(String.self, forKey: AnyKey("type")))
    }
}

public struct QuitState: Codable, Sendable, Equatable {
    public init() {}
}

extension PetState {
    /// Whole days without a give-in, as of the last closed day (for the milestone badges).
    var badgeQuitDays: Int { 0 }
}

extension Engine {
    mutating func runQuit(_ a: QuitAction, at: Instant, commandID: String) throws(DomainError) { switch a {} }
    mutating func applyQuit(_ e: QuitEvent, at: Instant) { switch e {} }
    mutating func closeDayQuit(day: Int, boundary: Instant) {}
    func nextQuitWakeup() -> Instant? { nil }
    mutating func fireQuit(at: Instant, due: Instant, upTo t: Instant) {}
}

/// Command names and fields of this subsystem (merged into CommandParser).
enum QuitCommands {
    static let fields: [String: Set<String>] = [:]
    /// The action for `name`, or nil if the name is not this subsystem's.
    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? { nil }
}
