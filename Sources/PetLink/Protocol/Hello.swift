/// `hello` (phone → device), the first message of every connection:
/// `{"type":"hello","version":1,"client":"deskpetctl 1.0","token":"<64 hex>","last_seq":120}`.
/// `token` (paired phones) authenticates the connection; `last_seq` (optional, with a token)
/// asks for the events after that journal sequence number to be replayed.
public struct Hello: Codable, Sendable, Equatable {
    public static let type = "hello"
    public var type = Hello.type
    public var version: Int
    public var client: String?
    public var token: String?
    public var lastSeq: Int64?

    enum CodingKeys: String, CodingKey { case type, version, client, token, lastSeq = "last_seq" }

    public init(version: Int = ProtocolVersion.current, client: String? = nil, token: String? = nil, lastSeq: Int64? = nil) {
        self.version = version; self.client = client; self.token = token; self.lastSeq = lastSeq
    }

    /// `last_seq` is a journal sequence number: 0 or more. A negative one is refused (it used to
    /// be read as 0), not guessed at.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(String.self, forKey: .type)
        version = try c.decode(Int.self, forKey: .version)
        client = try c.decodeIfPresent(String.self, forKey: .client)
        token = try c.decodeIfPresent(String.self, forKey: .token)
        lastSeq = try c.decodeIfPresent(Int64.self, forKey: .lastSeq)
        if let s = lastSeq, s < 0 {
            throw DecodingError.dataCorruptedError(forKey: .lastSeq, in: c, debugDescription: "must be 0 or more")
        }
    }
}
