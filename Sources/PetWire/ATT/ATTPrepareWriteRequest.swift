/// Prepare Write Request (0x16): queues part of a value at an offset; nothing is written until Execute Write.
public struct ATTPrepareWriteRequest: ATTPDUCodable {
    public static let opcode = ATTOpcode.prepareWriteRequest
    public var handle: UInt16
    public var offset: UInt16
    public var part: [UInt8]
    public init(handle: UInt16, offset: UInt16, part: [UInt8]) { self.handle = handle; self.offset = offset; self.part = part }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        handle = try r.u16(); offset = try r.u16(); part = r.rest()
    }

    public func encodeFields(into out: inout [UInt8]) { out.appendLE(handle); out.appendLE(offset); out += part }
}
