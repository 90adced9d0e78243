/// Reads an ATT PDU's fields in order, little-endian, throwing `ATTDecodeError` instead of
/// trapping: every decoder goes through this.
public struct ATTReader: Sendable {
    public let bytes: [UInt8]
    public private(set) var index: Int
    let opcode: UInt8

    /// Starts after the opcode byte. PDUs longer than 517 bytes are refused here.
    init(_ bytes: [UInt8], expecting opcode: ATTOpcode) throws(ATTDecodeError) {
        guard let first = bytes.first else { throw .empty }
        guard first == opcode.rawValue else { throw .invalidField(opcode: first, field: "opcode (expected 0x\(String(opcode.rawValue, radix: 16)))") }
        guard bytes.count <= attMaximumMTU else { throw .oversized(opcode: first, limit: attMaximumMTU, got: bytes.count) }
        self.bytes = bytes; self.index = 1; self.opcode = first
    }

    public var remaining: Int { bytes.count - index }

    mutating func u8() throws(ATTDecodeError) -> UInt8 {
        guard remaining >= 1 else { throw .truncated(opcode: opcode, needed: index + 1, got: bytes.count) }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func u16() throws(ATTDecodeError) -> UInt16 {
        guard remaining >= 2 else { throw .truncated(opcode: opcode, needed: index + 2, got: bytes.count) }
        defer { index += 2 }
        return UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
    }

    mutating func take(_ n: Int) throws(ATTDecodeError) -> [UInt8] {
        guard n >= 0, remaining >= n else { throw .truncated(opcode: opcode, needed: index + max(n, 0), got: bytes.count) }
        defer { index += n }
        return Array(bytes[index..<index + n])
    }

    mutating func rest() -> [UInt8] {
        defer { index = bytes.count }
        return Array(bytes[index...])
    }

    /// A 16- or 128-bit UUID taking exactly the rest of the PDU.
    mutating func uuidRest() throws(ATTDecodeError) -> BluetoothUUID {
        switch remaining {
        case 2: return .bit16(try u16())
        case 16: return BluetoothUUID(littleEndian: rest()) ?? .bit16(0)
        case 0, 1: throw .truncated(opcode: opcode, needed: index + 2, got: bytes.count)
        default: throw .invalidField(opcode: opcode, field: "UUID length \(remaining) (2 or 16)")
        }
    }

    /// Fixed-size PDUs: nothing may follow.
    func end() throws(ATTDecodeError) {
        guard remaining == 0 else { throw .oversized(opcode: opcode, limit: index, got: bytes.count) }
    }
}

extension Array where Element == UInt8 {
    package mutating func appendLE(_ v: UInt16) { append(UInt8(v & 0xFF)); append(UInt8(v >> 8)) }
}

/// One ATT PDU type: encodes to bytes (opcode first) and decodes from them.
public protocol ATTPDUCodable: Sendable, Equatable {
    static var opcode: ATTOpcode { get }
    /// Decodes a whole PDU (opcode included). Throws for any bytes that are not this PDU.
    init(decoding bytes: [UInt8]) throws(ATTDecodeError)
    /// Appends the fields after the opcode.
    func encodeFields(into out: inout [UInt8])
}

extension ATTPDUCodable {
    /// The PDU's bytes, opcode first.
    public var bytes: [UInt8] {
        var out: [UInt8] = [Self.opcode.rawValue]
        encodeFields(into: &out)
        return out
    }
}
