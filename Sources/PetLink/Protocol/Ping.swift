/// `ping` (phone → device): `{"type":"ping"}`; the device answers `{"type":"pong","seq":N}`
/// with the journal's latest sequence number. Keeps an idle connection open (docs/protocol.md#limits-and-timeouts).
public struct Ping: Codable, Sendable, Equatable {
    public static let type = "ping"
    public var type = Ping.type
    public init() {}
}

/// `pong` (device → phone).
public struct Pong: Codable, Sendable, Equatable {
    public static let type = "pong"
    public var type = Pong.type
    public var seq: Int64
    public init(seq: Int64) { self.seq = seq }
}
