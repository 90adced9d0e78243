/// Read Blob Request (0x0C): part of a long value, from an offset.
public struct ATTReadBlobRequest: ATTPDUCodable {
    public static let opcode = ATTOpcode.readBlobRequest
    public var handle: UInt16
    public var offset: UInt16
    public init(handle: UInt16, offset: UInt16) { self.handle = handle; self.offset = offset }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        handle = try r.u16(); offset = try r.u16()
        try r.end()
    }

    public func encodeFields(into out: inout [UInt8]) { out.appendLE(handle); out.appendLE(offset) }
}
