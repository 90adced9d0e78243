/// Write Command (0x52): a value for one attribute, never answered (not even with an error).
public struct ATTWriteCommand: ATTPDUCodable {
    public static let opcode = ATTOpcode.writeCommand
    public var handle: UInt16
    public var value: [UInt8]
    public init(handle: UInt16, value: [UInt8]) { self.handle = handle; self.value = value }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        handle = try r.u16(); value = r.rest()
    }

    public func encodeFields(into out: inout [UInt8]) { out.appendLE(handle); out += value }
}
