/// Find By Type Value Request (0x06): attributes in a range whose 16-bit type and value match
/// (how a client finds a primary service by UUID).
public struct ATTFindByTypeValueRequest: ATTPDUCodable {
    public static let opcode = ATTOpcode.findByTypeValueRequest
    public var startHandle: UInt16
    public var endHandle: UInt16
    public var type: UInt16
    public var value: [UInt8]
    public init(startHandle: UInt16, endHandle: UInt16, type: UInt16, value: [UInt8]) {
        self.startHandle = startHandle; self.endHandle = endHandle; self.type = type; self.value = value
    }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        startHandle = try r.u16(); endHandle = try r.u16(); type = try r.u16()
        value = r.rest()
    }

    public func encodeFields(into out: inout [UInt8]) {
        out.appendLE(startHandle); out.appendLE(endHandle); out.appendLE(type); out += value
    }
}
