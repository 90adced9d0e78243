/// SHA-1 (RFC 3174, FIPS 180-4), written here for one purpose: the WebSocket handshake's
/// `Sec-WebSocket-Accept` (RFC 6455 §4.2.2) is base64(SHA-1(key ‖ GUID)). SHA-1 is broken for
/// collision resistance; the handshake only uses it to prove the server read the key, never as a
/// security check. Checked against RFC 3174's test vectors (PetLinkTests/WebSocketCodecTests).
public struct SHA1: Sendable, BlockHash {
    public static let digestSize = 20
    public static let blockSize = 64

    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0)
    var buffer: [UInt8] = []
    var length: UInt64 = 0

    public init() { buffer.reserveCapacity(Self.blockSize) }

    /// The digest of `bytes`.
    public static func hash<S: Sequence>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
        var s = SHA1()
        s.update(bytes)
        return s.finalize()
    }

    public mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 { feed(bytes) }

    /// The 20-byte digest (the state is spent; make a new `SHA1` for another message).
    public mutating func finalize() -> [UInt8] {
        pad()
        return Self.digest([h.0, h.1, h.2, h.3, h.4])
    }

    mutating func compress(_ block: [UInt8]) {
        var w = [UInt32](repeating: 0, count: 80)
        for i in 0..<16 {
            w[i] = UInt32(block[i * 4]) << 24 | UInt32(block[i * 4 + 1]) << 16 | UInt32(block[i * 4 + 2]) << 8 | UInt32(block[i * 4 + 3])
        }
        for i in 16..<80 {
            let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
            w[i] = x << 1 | x >> 31
        }
        var (a, b, c, d, e) = h
        for i in 0..<80 {
            let f: UInt32, k: UInt32
            switch i {
            case 0..<20: f = (b & c) | (~b & d); k = 0x5A827999
            case 20..<40: f = b ^ c ^ d; k = 0x6ED9EBA1
            case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC
            default: f = b ^ c ^ d; k = 0xCA62C1D6
            }
            let t = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
            e = d; d = c; c = b << 30 | b >> 2; b = a; a = t
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
    }
}
