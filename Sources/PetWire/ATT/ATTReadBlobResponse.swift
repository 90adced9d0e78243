/// Read Blob Response (0x0D): the value from the requested offset, at most ATT_MTU − 1 bytes.
public struct ATTReadBlobResponse: ATTPDUCodable {
    public static let opcode = ATTOpcode.readBlobResponse
    public var part: [UInt8]
    public init(part: [UInt8]) { self.part = part }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        part = r.rest()
    }

    public func encodeFields(into out: inout [UInt8]) { out += part }
}
