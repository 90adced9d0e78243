/// Read By Group Type Request (0x10): grouping attributes (services: 0x2800, 0x2801) in a range.
public struct ATTReadByGroupTypeRequest: ATTPDUCodable {
    public static let opcode = ATTOpcode.readByGroupTypeRequest
    public var startHandle: UInt16
    public var endHandle: UInt16
    public var groupType: BluetoothUUID
    public init(startHandle: UInt16, endHandle: UInt16, groupType: BluetoothUUID) {
        self.startHandle = startHandle; self.endHandle = endHandle; self.groupType = groupType
    }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        startHandle = try r.u16(); endHandle = try r.u16(); groupType = try r.uuidRest()
    }

    public func encodeFields(into out: inout [UInt8]) {
        out.appendLE(startHandle); out.appendLE(endHandle); out += groupType.littleEndianBytes
    }
}
