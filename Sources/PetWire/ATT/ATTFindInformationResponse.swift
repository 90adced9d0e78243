/// Find Information Response (0x05): format 1 (16-bit UUIDs) or 2 (128-bit), then handle–type
/// pairs, all of that format.
public struct ATTFindInformationResponse: ATTPDUCodable {
    public static let opcode = ATTOpcode.findInformationResponse
    public struct Entry: Sendable, Equatable {
        public var handle: UInt16
        public var type: BluetoothUUID
        public init(handle: UInt16, type: BluetoothUUID) { self.handle = handle; self.type = type }
    }
    /// 1: 16-bit UUIDs; 2: 128-bit.
    public var format: UInt8
    public var entries: [Entry]
    public init(format: UInt8, entries: [Entry]) { self.format = format; self.entries = entries }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        format = try r.u8()
        let size: Int
        switch format {
        case 1: size = 4
        case 2: size = 18
        default: throw .invalidField(opcode: Self.opcode.rawValue, field: "format \(format)")
        }
        guard r.remaining >= size else { throw .truncated(opcode: Self.opcode.rawValue, needed: 2 + size, got: bytes.count) }
        guard r.remaining % size == 0 else { throw .invalidField(opcode: Self.opcode.rawValue, field: "information data length \(r.remaining)") }
        entries = []
        while r.remaining > 0 {
            let h = try r.u16()
            let u = try r.take(size - 2)
            entries.append(Entry(handle: h, type: format == 1 ? .bit16(UInt16(u[0]) | UInt16(u[1]) << 8) : .bit128(BluetoothUUID(littleEndian: u)?.value128 ?? 0)))
        }
    }

    public func encodeFields(into out: inout [UInt8]) {
        out.append(format)
        for e in entries {
            out.appendLE(e.handle)
            out += format == 1 ? e.type.littleEndianBytes : BluetoothUUID.bit128(e.type.value128).littleEndianBytes
        }
    }
}
