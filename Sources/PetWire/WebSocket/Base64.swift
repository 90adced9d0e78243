/// Base64 (RFC 4648 §4, the standard alphabet with `=` padding), written here for the WebSocket
/// handshake: `Sec-WebSocket-Key` is checked to decode to 16 bytes and `Sec-WebSocket-Accept` is
/// encoded. Decoding is strict: only the alphabet, padding only at the end and only as much as
/// the length needs, no whitespace, unused bits zero (RFC 4648 §3.5 allows refusing otherwise).
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(n >> 18)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
            i += 3
        }
        switch bytes.count - i {
        case 1:
            let n = UInt32(bytes[i]) << 16
            out += [alphabet[Int(n >> 18)], alphabet[Int(n >> 12 & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
        case 2:
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [alphabet[Int(n >> 18)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], UInt8(ascii: "=")]
        default: break
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of canonical base64 text, or nil when it is not (see the type's note).
    public static func decode(_ text: String) -> [UInt8]? {
        let s = Array(text.utf8)
        guard s.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(s.count / 4 * 3)
        var i = 0
        while i < s.count {
            var v: [UInt32] = []
            var pad = 0
            for j in 0..<4 {
                let c = s[i + j]
                if c == UInt8(ascii: "=") {
                    // Padding: only in the last group, only in its last one or two places.
                    guard i + 4 == s.count, j >= 2 else { return nil }
                    pad += 1
                    v.append(0)
                    continue
                }
                guard pad == 0, let d = value(c) else { return nil }
                v.append(d)
            }
            let n = v[0] << 18 | v[1] << 12 | v[2] << 6 | v[3]
            out.append(UInt8(n >> 16))
            if pad < 2 { out.append(UInt8(n >> 8 & 0xFF)) } else if n & 0xFFFF != 0 { return nil }
            if pad < 1 { out.append(UInt8(n & 0xFF)) } else if n & 0xFF != 0 { return nil }
            i += 4
        }
        return out
    }

    private static func value(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(c - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(c - UInt8(ascii: "a") + 26)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0") + 52)
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
