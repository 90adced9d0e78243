/// Exchange MTU Response (0x03): the server's receive MTU. Both sides then use the smaller of the
/// two (never below 23).
public struct ATTExchangeMTUResponse: ATTPDUCodable {
    public static let opcode = ATTOpcode.exchangeMTUResponse
    public var serverMTU: UInt16
    public init(serverMTU: UInt16) { self.serverMTU = serverMTU }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        serverMTU = try r.u16()
        try r.end()
    }

    public func encodeFields(into out: inout [UInt8]) { out.appendLE(serverMTU) }
}
