/// RFC 6455 §5.2 frame opcodes. Any other value is reserved (a protocol error, 1002).
public enum WebSocketOpcode: UInt8, Sendable, Equatable {
    case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA
    /// Close, ping and pong: at most 125 bytes of payload and never fragmented (§5.5).
    public var isControl: Bool { rawValue & 0x8 != 0 }
}

/// Close status codes (RFC 6455 §7.4.1, and the IANA registry's 1012–1014).
public struct WebSocketCloseCode: RawRepresentable, Sendable, Equatable, Hashable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ v: UInt16) { rawValue = v }

    public static let normal = Self(1000)
    public static let goingAway = Self(1001)
    public static let protocolError = Self(1002)
    /// A message of a type this end does not take (the device takes binary only).
    public static let unsupportedData = Self(1003)
    /// No code in the close frame (never sent on the wire).
    public static let noStatus = Self(1005)
    /// The connection ended without a close frame (never sent on the wire).
    public static let abnormal = Self(1006)
    /// Text that is not UTF-8 (a close reason).
    public static let invalidPayload = Self(1007)
    /// Against this end's rules: a timeout, the phone protocol dropping the client.
    public static let policyViolation = Self(1008)
    public static let messageTooBig = Self(1009)
    public static let internalError = Self(1011)

    /// Codes a peer may put in a close frame: 1000–1003, 1007–1014, 3000–4999 (§7.4.1–7.4.2).
    public var isValidOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    public var description: String { String(rawValue) }
}

/// Writes frames (RFC 6455 §5.2). A client masks every frame with a fresh key (§5.3); a server
/// never masks. The payload length is written in the fewest bytes (7 bits, 16 or 64).
public enum WebSocketFrame {
    public static func encode(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true,
                              maskKey: (UInt8, UInt8, UInt8, UInt8)? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + 14)
        out.append((fin ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = maskKey == nil ? 0 : 0x80
        let n = payload.count
        if n < 126 {
            out.append(maskBit | UInt8(n))
        } else if n <= 0xFFFF {
            out += [maskBit | 126, UInt8(n >> 8), UInt8(n & 0xFF)]
        } else {
            out.append(maskBit | 127)
            for i in (0..<8).reversed() { out.append(UInt8(truncatingIfNeeded: UInt64(n) >> (UInt64(i) * 8))) }
        }
        if let k = maskKey {
            let key = [k.0, k.1, k.2, k.3]
            out += key
            for (i, b) in payload.enumerated() { out.append(b ^ key[i & 3]) }
        } else {
            out += payload
        }
        return out
    }

    /// A close frame's payload: the code (big-endian), then the reason in UTF-8, cut between
    /// characters so the payload stays within 125 bytes.
    public static func closePayload(_ code: WebSocketCloseCode, reason: String) -> [UInt8] {
        var out = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        var used = 0
        for ch in reason.unicodeScalars {
            let bytes = Array(String(ch).utf8)
            guard used + bytes.count <= 123 else { break }
            out += bytes
            used += bytes.count
        }
        return out
    }
}
