/// The store, inventory, equipping, home slots, feeding and streak repair (SPEC §5, §6).
///
/// Scaffolding: the types and hooks the engine calls (see Subsystems.swift).

public enum ShopAction: Sendable, Equatable {
    /// The protocol name of the command.
    public var name: String { switch self {} }
}

public enum ShopEvent: SubEvent {
    public var type: String { switch self {} }
    public static func owns(_ type: String) -> Bool { type.hasPrefix("shop.") || type.hasPrefix("care.") || type.hasPrefix("streak.") }
    public static let allTypes: [String] = []
    public func encode(to encoder: Encoder) throws { switch self {} }
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        throw unknownSubEvent(decoder, try c.decode(String.self, forKey: AnyKey("type")))
    }
}

public struct ShopState: Codable, Sendable, Equatable {
    public init() {}
}

/// The store's catalogue of items (SPEC §6).
public struct Catalogue: Sendable, Equatable {
    public static let builtIn = Catalogue()
}

extension Engine {
    mutating func runShop(_ a: ShopAction, at: Instant, commandID: String) throws(DomainError) { switch a {} }
    mutating func applyShop(_ e: ShopEvent, at: Instant) { switch e {} }
    mutating func closeDayShop(day: Int, boundary: Instant) {}
    func nextShopWakeup() -> Instant? { nil }
    mutating func fireShop(at: Instant, due: Instant, upTo t: Instant) {}
}

/// Command names and fields of this subsystem (merged into CommandParser).
enum ShopCommands {
    static let fields: [String: Set<String>] = [:]
    /// The action for `name`, or nil if the name is not this subsystem's.
    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? { nil }
}
