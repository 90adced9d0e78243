/// Find By Type Value Response (0x07): found attribute handle and its group's end handle, repeated.
public struct ATTFindByTypeValueResponse: ATTPDUCodable {
    public static let opcode = ATTOpcode.findByTypeValueResponse
    public struct Entry: Sendable, Equatable {
        public var handle: UInt16
        public var groupEnd: UInt16
        public init(handle: UInt16, groupEnd: UInt16) { self.handle = handle; self.groupEnd = groupEnd }
    }
    public var entries: [Entry]
    public init(entries: [Entry]) { self.entries = entries }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        guard r.remaining >= 4 else { throw .truncated(opcode: Self.opcode.rawValue, needed: 5, got: bytes.count) }
        guard r.remaining % 4 == 0 else { throw .invalidField(opcode: Self.opcode.rawValue, field: "handles information length \(r.remaining)") }
        entries = []
        while r.remaining > 0 { entries.append(Entry(handle: try r.u16(), groupEnd: try r.u16())) }
    }

    public func encodeFields(into out: inout [UInt8]) {
        for e in entries { out.appendLE(e.handle); out.appendLE(e.groupEnd) }
    }
}
