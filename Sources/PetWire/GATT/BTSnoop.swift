/// Writes ATT PDUs as a btsnoop capture (RFC 1761-style, as BlueZ's btmon and Android write them)
/// that Wireshark/tshark and `btmon -r` decode: datalink 1002 (HCI UART H4), each PDU an HCI ACL
/// packet (H4 type 0x02, connection handle 0x0040, first-fragment flags) carrying an L2CAP basic
/// frame on CID 4 (ATT). Direction from the device's side: what the phone sent is "received".
public struct BTSnoopWriter: Sendable {
    public private(set) var bytes: [UInt8]
    /// Microseconds since 0000-01-01 (btsnoop's epoch) of the first record: 2026-01-01T00:00:00Z.
    public var timestamp: Int64 = 0x00E2_A1B8_CB72_8000 &+ 1_767_225_600_000_000 &- 1_735_689_600_000_000
    public let connectionHandle: UInt16

    public init(connectionHandle: UInt16 = 0x0040) {
        self.connectionHandle = connectionHandle
        bytes = Array("btsnoop".utf8) + [0]
        bytes.be32(1)      // version
        bytes.be32(1002)   // datalink: HCI UART (H4)
    }

    /// Adds one ATT PDU; `received`: from the phone to the device. Timestamps advance 1 ms a record.
    public mutating func append(_ pdu: [UInt8], received: Bool) {
        var l2cap: [UInt8] = []
        l2cap.appendLE(UInt16(truncatingIfNeeded: pdu.count)); l2cap.appendLE(0x0004)
        l2cap += pdu
        var packet: [UInt8] = [0x02]
        packet.appendLE(connectionHandle | 0x2000)  // PB: first automatically flushable
        packet.appendLE(UInt16(truncatingIfNeeded: l2cap.count))
        packet += l2cap
        bytes.be32(UInt32(packet.count)); bytes.be32(UInt32(packet.count))
        bytes.be32(received ? 1 : 0)   // flags: bit 0 direction (1 received), bit 1 command/event (0 data)
        bytes.be32(0)                  // cumulative drops
        for i in (0..<8).reversed() { bytes.append(UInt8(truncatingIfNeeded: timestamp >> (8 * i))) }
        bytes += packet
        timestamp += 1000
    }
}

extension Array where Element == UInt8 {
    mutating func be32(_ v: UInt32) { for i in (0..<4).reversed() { append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
}
