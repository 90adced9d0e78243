/// Read Response (0x0B): the value, at most ATT_MTU − 1 bytes of it.
public struct ATTReadResponse: ATTPDUCodable {
    public static let opcode = ATTOpcode.readResponse
    public var value: [UInt8]
    public init(value: [UInt8]) { self.value = value }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        value = r.rest()
    }

    public func encodeFields(into out: inout [UInt8]) { out += value }
}
