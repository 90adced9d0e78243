/// Read By Group Type Response (0x11): the length of each entry (handle, group end, value), then
/// the entries, all with values of one length.
public struct ATTReadByGroupTypeResponse: ATTPDUCodable {
    public static let opcode = ATTOpcode.readByGroupTypeResponse
    public struct Entry: Sendable, Equatable {
        public var handle: UInt16
        public var groupEnd: UInt16
        public var value: [UInt8]
        public init(handle: UInt16, groupEnd: UInt16, value: [UInt8]) { self.handle = handle; self.groupEnd = groupEnd; self.value = value }
    }
    public var entries: [Entry]
    public init(entries: [Entry]) { self.entries = entries }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        let length = Int(try r.u8())
        guard length >= 4 else { throw .invalidField(opcode: Self.opcode.rawValue, field: "length \(length)") }
        guard r.remaining >= length else { throw .truncated(opcode: Self.opcode.rawValue, needed: 2 + length, got: bytes.count) }
        guard r.remaining % length == 0 else { throw .invalidField(opcode: Self.opcode.rawValue, field: "attribute data list length \(r.remaining)") }
        entries = []
        while r.remaining > 0 { entries.append(Entry(handle: try r.u16(), groupEnd: try r.u16(), value: try r.take(length - 4))) }
    }

    public func encodeFields(into out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: 4 + (entries.first?.value.count ?? 0)))
        for e in entries { out.appendLE(e.handle); out.appendLE(e.groupEnd); out += e.value }
    }
}
