/// `welcome` (device → phone), the answer to `hello`:
/// `{"type":"welcome","version":1,"device":"deskpet","capabilities":[…],"paired":true,
///   "phone":"phone-1","seq":431,"max_frame":65536,"replayed":3,"truncated":false}`.
/// `seq` is the journal's latest sequence number (a client whose own `last_seq` is higher
/// talks to a wiped device); `replayed` events follow, then `reminders`, then `state`.
public struct Welcome: Codable, Sendable, Equatable {
    public static let type = "welcome"
    public var type = Welcome.type
    public var version: Int
    public var device = "deskpet"
    public var capabilities: [String]
    public var paired: Bool
    public var phone: String?
    public var seq: Int64
    public var maxFrame = Frame.maxBody
    public var replayed: Int?
    public var truncated: Bool?

    enum CodingKeys: String, CodingKey {
        case type, version, device, capabilities, paired, phone, seq, replayed, truncated
        case maxFrame = "max_frame"
    }

    public init(paired: Bool, phone: String?, seq: Int64, replayed: Int? = nil, truncated: Bool? = nil) {
        self.version = ProtocolVersion.current
        self.capabilities = ProtocolVersion.capabilities
        self.paired = paired; self.phone = phone; self.seq = seq; self.replayed = replayed; self.truncated = truncated
    }
}
