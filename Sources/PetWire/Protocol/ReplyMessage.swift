/// `reply` (device → phone): the command is durably stored (or, for `duplicate: true`, was
/// before): `{"type":"reply","id":"c-17","ok":true,"command":"task.complete","events":3,
/// "coins":25,"xp":30,"level":2,"reward":10,"seq":58}`. `seq` is the journal's latest sequence
/// number after the command. Link commands add their own fields (`clock_ms`, `parts`, `bytes`).
public struct ReplyMessage: Codable, Sendable, Equatable {
    public static let type = "reply"
    public var type = ReplyMessage.type
    public var id: String
    public var ok = true
    public var command: String
    public var events: Int?
    public var coins: Int?
    public var xp: Int?
    public var level: Int?
    public var reward: Int?
    public var duplicate: Bool?
    public var seq: Int64?
    public var clockMs: Int64?
    public var parts: Int?
    public var bytes: Int?

    enum CodingKeys: String, CodingKey {
        case type, id, ok, command, events, coins, xp, level, reward, duplicate, seq, parts, bytes
        case clockMs = "clock_ms"
    }

    public init(id: String, command: String) { self.id = id; self.command = command }
}
