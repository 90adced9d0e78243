/// `pair.challenge` (device → phone): `{"type":"pair.challenge","challenge":"<32 hex>","expires_in":120}`:
/// 16 random bytes, good for one `pair.finish` on this connection within `expires_in` seconds.
public struct PairChallenge: Codable, Sendable, Equatable {
    public static let type = "pair.challenge"
    public var type = PairChallenge.type
    public var challenge: String
    public var expiresIn: Int

    enum CodingKeys: String, CodingKey { case type, challenge, expiresIn = "expires_in" }

    public init(challenge: [UInt8], expiresIn: Int) { self.challenge = Hex.encode(challenge); self.expiresIn = expiresIn }
}
