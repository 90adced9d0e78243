/// Read By Type Request (0x08): values of the attributes of one type in a range (how a client
/// discovers characteristics: type 0x2803).
public struct ATTReadByTypeRequest: ATTPDUCodable {
    public static let opcode = ATTOpcode.readByTypeRequest
    public var startHandle: UInt16
    public var endHandle: UInt16
    public var type: BluetoothUUID
    public init(startHandle: UInt16, endHandle: UInt16, type: BluetoothUUID) {
        self.startHandle = startHandle; self.endHandle = endHandle; self.type = type
    }

    public init(decoding bytes: [UInt8]) throws(ATTDecodeError) {
        var r = try ATTReader(bytes, expecting: Self.opcode)
        startHandle = try r.u16(); endHandle = try r.u16(); type = try r.uuidRest()
    }

    public func encodeFields(into out: inout [UInt8]) {
        out.appendLE(startHandle); out.appendLE(endHandle); out += type.littleEndianBytes
    }
}
