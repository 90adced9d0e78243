/// Execute Write Request (0x18): flags 0x01 writes every prepared value, 0x00 cancels them all.
public struct ATTExecuteWriteRequest: ATTPDUCodable {
    public static let opcode = ATTOpcode.executeWriteRequest
    public var commit: Bool
    public init(commit: Bool) { self.commit = commit }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        let flags = try r.u8()
        try r.end()
        guard flags <= 1 else { throw .invalidField(opcode: Self.opcode.rawValue, field: "flags 0x\(String(flags, radix: 16))") }
        commit = flags == 1
    }

    public func encodeFields(into out: inout [UInt8]) { out.append(commit ? 1 : 0) }
}
