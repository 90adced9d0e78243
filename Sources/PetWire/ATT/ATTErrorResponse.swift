/// Error Response (0x01): the request opcode that failed, the handle in error, the code.
public struct ATTErrorResponse: ATTPDUCodable {
    public static let opcode = ATTOpcode.errorResponse
    public var requestOpcode: UInt8
    public var handle: UInt16
    public var error: ATTErrorCode

    public init(requestOpcode: UInt8, handle: UInt16, error: ATTErrorCode) {
        self.requestOpcode = requestOpcode; self.handle = handle; self.error = error
    }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        requestOpcode = try r.u8(); handle = try r.u16(); error = ATTErrorCode(rawValue: try r.u8())
        try r.end()
    }

    public func encodeFields(into out: inout [UInt8]) {
        out.append(requestOpcode); out.appendLE(handle); out.append(error.rawValue)
    }
}
