/// Exchange MTU Request (0x02): the client's receive MTU.
public struct ATTExchangeMTURequest: ATTPDUCodable {
    public static let opcode = ATTOpcode.exchangeMTURequest
    public var clientMTU: UInt16
    public init(clientMTU: UInt16) { self.clientMTU = clientMTU }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        clientMTU = try r.u16()
        try r.end()
    }

    public func encodeFields(into out: inout [UInt8]) { out.appendLE(clientMTU) }
}
