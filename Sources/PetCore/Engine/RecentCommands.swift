/// The ids of the latest commands applied, oldest first, at most `capacity` of them
/// (docs/storage.md, "Command ids"). The engine answers a repeated id it remembers with nothing
/// (`Engine.decide` returns no events); the device app also looks older ids up in the journal's
/// commands table, so a repeated command is never applied twice while memory does not grow with
/// the number of commands ever handled.
public struct RecentCommandIDs: Sendable, Codable, Equatable {
    /// How many ids the state remembers.
    public static let capacity = 1024

    /// A ring: once full, `head` is the index of the oldest id.
    private var ring: [String] = []
    private var head = 0
    private var members: Set<String> = []

    public init() {}

    public var count: Int { ring.count }

    public func contains(_ id: String) -> Bool { members.contains(id) }

    /// Remembers `id` (a no-op when it is remembered already), forgetting the oldest when full.
    public mutating func insert(_ id: String) {
        guard members.insert(id).inserted else { return }
        if ring.count < Self.capacity { ring.append(id); return }
        members.remove(ring[head])
        ring[head] = id
        head = (head + 1) % Self.capacity
    }

    /// The remembered ids, oldest first.
    public var ids: [String] { Array(ring[head...]) + Array(ring[..<head]) }

    /// Encoded as the ids, oldest first (the ring's layout is not part of the state).
    public init(from decoder: Decoder) throws {
        let ids = try decoder.singleValueContainer().decode([String].self)
        for id in ids.suffix(Self.capacity) { insert(id) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(ids)
    }

    public static func == (a: Self, b: Self) -> Bool { a.ids == b.ids }
}
