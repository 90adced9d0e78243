/// Read Request (0x0A): one attribute's value.
public struct ATTReadRequest: ATTPDUCodable {
    public static let opcode = ATTOpcode.readRequest
    public var handle: UInt16
    public init(handle: UInt16) { self.handle = handle }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        handle = try r.u16()
        try r.end()
    }

    public func encodeFields(into out: inout [UInt8]) { out.appendLE(handle) }
}
