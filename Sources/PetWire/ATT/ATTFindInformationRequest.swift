/// Find Information Request (0x04): handles and types of the attributes in a range.
public struct ATTFindInformationRequest: ATTPDUCodable {
    public static let opcode = ATTOpcode.findInformationRequest
    public var startHandle: UInt16
    public var endHandle: UInt16
    public init(startHandle: UInt16, endHandle: UInt16) { self.startHandle = startHandle; self.endHandle = endHandle }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        startHandle = try r.u16(); endHandle = try r.u16()
        try r.end()
    }

    public func encodeFields(into out: inout [UInt8]) { out.appendLE(startHandle); out.appendLE(endHandle) }
}
