/// Handle Value Confirmation (0x1E): the client got the indication. No fields.
public struct ATTHandleValueConfirmation: ATTPDUCodable {
    public static let opcode = ATTOpcode.handleValueConfirmation
    public init() {}

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        let r = try ATTReader(bytes, expecting: Self.opcode)
        try r.end()
    }

    public func encodeFields(into out: inout [UInt8]) {}
}
