/// `pair.finish` (phone → device):
/// `{"type":"pair.finish","nonce":"<32 hex>","mac":"<64 hex>","name":"Ann's phone"}` where
/// `mac` = HMAC-SHA-256(key: the 6 ASCII digits of the code, message: challenge ‖ nonce), the
/// challenge and nonce as raw bytes (16 each). The device answers `paired` or an error.
public struct PairFinish: Codable, Sendable, Equatable {
    public static let type = "pair.finish"
    public var type = PairFinish.type
    public var nonce: String
    public var mac: String
    public var name: String

    public init(nonce: String, mac: String, name: String) { self.nonce = nonce; self.mac = mac; self.name = name }

    /// The proof a phone computes from the code it read on the device's screen.
    public static func proof(code: String, challenge: [UInt8], nonce: [UInt8]) -> [UInt8] {
        HMACSHA256.mac(key: Array(code.utf8), message: challenge + nonce)
    }
}
