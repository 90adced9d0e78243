/// `paired` (device → phone): `{"type":"paired","phone":"phone-1","token":"<64 hex>"}`. The
/// token (32 random bytes) is shown only this once; the device keeps only its SHA-256. The
/// connection is authenticated from now on; later ones say `hello` with the token.
public struct Paired: Codable, Sendable, Equatable {
    public static let type = "paired"
    public var type = Paired.type
    public var phone: String
    public var token: String
    public init(phone: String, token: [UInt8]) { self.phone = phone; self.token = Hex.encode(token) }
}
