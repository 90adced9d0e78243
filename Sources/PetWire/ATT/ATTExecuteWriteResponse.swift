/// Execute Write Response (0x19): the prepared writes were applied (or cancelled). No fields.
public struct ATTExecuteWriteResponse: ATTPDUCodable {
    public static let opcode = ATTOpcode.executeWriteResponse
    public init() {}

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        let r = try ATTReader(bytes, expecting: Self.opcode)
        try r.end()
    }

    public func encodeFields(into out: inout [UInt8]) {}
}
