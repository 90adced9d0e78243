/// Habits, the daily checklist, the 66-day course and the evening check-in (SPEC §4).
///
/// Scaffolding: the types and hooks the engine calls (see Subsystems.swift).

public enum HabitAction: Sendable, Equatable {
    /// The protocol name of the command.
    public var name: String { switch self {} }
}

public enum HabitEvent: SubEvent {
    public var type: String { switch self {} }
    public static func owns(_ type: String) -> Bool { type.hasPrefix("habit.") || type.hasPrefix("course.") || type.hasPrefix("checkin.") }
    public static let allTypes: [String] = []
    public func encode(to encoder: Encoder) throws { switch self {} }
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        throw unknownSubEvent(decoder, try c.decode(String.self, forKey: AnyKey("type")))
    }
}

public struct HabitState: Codable, Sendable, Equatable {
    public init() {}
}

extension Engine {
    mutating func runHabit(_ a: HabitAction, at: Instant, commandID: String) throws(DomainError) { switch a {} }
    mutating func applyHabit(_ e: HabitEvent, at: Instant) { switch e {} }
    mutating func closeDayHabits(day: Int, boundary: Instant) {}
    /// Whether every active habit and the movement box were checked on `day` (nil: no checklist
    /// that day). Counts in the daily streak like a due item.
    func habitDayComplete(day: Int) -> Bool? { nil }
    func nextHabitWakeup() -> Instant? { nil }
    mutating func fireHabit(at: Instant, due: Instant, upTo t: Instant) {}
}

/// Command names and fields of this subsystem (merged into CommandParser).
enum HabitCommands {
    static let fields: [String: Set<String>] = [:]
    /// The action for `name`, or nil if the name is not this subsystem's.
    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? { nil }
}
