/// Write Response (0x13): the write was applied. No fields.
public struct ATTWriteResponse: ATTPDUCodable {
    public static let opcode = ATTOpcode.writeResponse
    public init() {}

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        let r = try ATTReader(bytes, expecting: Self.opcode)
        try r.end()
    }

    public func encodeFields(into out: inout [UInt8]) {}
}
