/// A Bluetooth UUID: 16-bit (on the Bluetooth base UUID 0000xxxx-0000-1000-8000-00805F9B34FB) or a
/// full 128-bit one. 128-bit values that lie on the base are kept as 16-bit so both compare equal.
public enum BluetoothUUID: Hashable, Sendable, CustomStringConvertible {
    case bit16(UInt16)
    case bit128(UInt128)

    static let base: UInt128 = 0x0000_0000_0000_1000_8000_0080_5F9B_34FB

    public init(_ value: UInt128) {
        if value & ~(UInt128(0xFFFF) << 96) == Self.base, value >> 112 == 0 { self = .bit16(UInt16(truncatingIfNeeded: value >> 96)) }
        else { self = .bit128(value) }
    }

    /// From "6e400001-b5a3-f393-e0a9-e50e24dcca9e" (hyphens optional), or "180F".
    public init?(string: String) {
        let hex = string.filter { $0 != "-" }
        if hex.count == 4, let v = UInt16(hex, radix: 16) { self = .bit16(v); return }
        guard hex.count == 32, let hi = UInt64(hex.prefix(16), radix: 16), let lo = UInt64(hex.suffix(16), radix: 16) else { return nil }
        self.init(UInt128(hi) << 64 | UInt128(lo))
    }

    /// From the wire: 2 or 16 bytes, little-endian.
    public init?(littleEndian b: [UInt8]) {
        switch b.count {
        case 2: self = .bit16(UInt16(b[0]) | UInt16(b[1]) << 8)
        case 16:
            var v: UInt128 = 0
            for byte in b.reversed() { v = v << 8 | UInt128(byte) }
            self.init(v)
        default: return nil
        }
    }

    public var value128: UInt128 {
        switch self {
        case .bit16(let s): Self.base | UInt128(s) << 96
        case .bit128(let v): v
        }
    }

    /// The wire form: 2 bytes for 16-bit, 16 for 128-bit, little-endian.
    public var littleEndianBytes: [UInt8] {
        switch self {
        case .bit16(let s): [UInt8(s & 0xFF), UInt8(s >> 8)]
        case .bit128(let v): (0..<16).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
        }
    }

    public var description: String {
        switch self {
        case .bit16(let s):
            let h = String(s, radix: 16, uppercase: true)
            return String(repeating: "0", count: 4 - h.count) + h
        case .bit128(let v):
            let h = String(v, radix: 16)
            let p = String(repeating: "0", count: 32 - h.count) + h
            let c = Array(p)
            return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(c[$0]) }.joined(separator: "-")
        }
    }
}
