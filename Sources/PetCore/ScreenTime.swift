/// Screen time: usage sessions, per-app totals, challenges, private apps (SPEC §10).
///
/// Scaffolding: the types and hooks the engine calls (see Subsystems.swift).

public enum ScreenAction: Sendable, Equatable {
    /// The protocol name of the command.
    public var name: String { switch self {} }
}

public enum ScreenEvent: SubEvent {
    public var type: String { switch self {} }
    public static func owns(_ type: String) -> Bool { type.hasPrefix("screen.") || type.hasPrefix("challenge.") }
    public static let allTypes: [String] = []
    public func encode(to encoder: Encoder) throws { switch self {} }
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        throw unknownSubEvent(decoder, try c.decode(String.self, forKey: AnyKey("type")))
    }
}

public struct ScreenState: Codable, Sendable, Equatable {
    public init() {}
}

extension PetState {
    /// Challenge kinds completed at least once (for their badges).
    var badgeChallengeKinds: Set<String> { [] }
}

extension Engine {
    mutating func runScreen(_ a: ScreenAction, at: Instant, commandID: String) throws(DomainError) { switch a {} }
    mutating func applyScreen(_ e: ScreenEvent, at: Instant) { switch e {} }
    mutating func closeDayScreen(day: Int, boundary: Instant) {}
    func nextScreenWakeup() -> Instant? { nil }
    mutating func fireScreen(at: Instant, due: Instant, upTo t: Instant) {}
}

/// Command names and fields of this subsystem (merged into CommandParser).
enum ScreenCommands {
    static let fields: [String: Set<String>] = [:]
    /// The action for `name`, or nil if the name is not this subsystem's.
    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? { nil }
}
