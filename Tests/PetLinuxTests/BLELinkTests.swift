import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import PetLinux
import PetDevice
import PetLink
import TestSupport

/// The phone's side of a socketpair: writes PDUs; before reading, lets the link serve what is
/// waiting (no threads, no sleeps: a socketpair delivers at once).
final class PairBearer: ATTBearer {
    let fd: Int32
    let link: BLELink
    var events: [LinkEvent] = []
    init(fd: Int32, link: BLELink) { self.fd = fd; self.link = link }

    func sendPDU(_ pdu: [UInt8]) throws(GATTClientError) {
        let n = pdu.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard n == pdu.count else { throw .transport("send: \(String(cString: strerror(errno)))") }
    }

    func pump() { events += (try? link.receive()) ?? [] }

    func receivePDU() throws(GATTClientError) -> [UInt8] {
        pump()
        var buf = [UInt8](repeating: 0, count: 2048)
        let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        guard n > 0 else { throw .transport(n == 0 ? "closed" : "nothing to read: \(String(cString: strerror(errno)))") }
        return Array(buf[0..<n])
    }

    func takeEvents() -> [LinkEvent] { pump(); defer { events = [] }; return events }
}

final class BLELinkTests: XCTestCase {
    var snoop = BTSnoopWriter()

    func makeLink() throws -> BLELink {
        var config = DeskPetGATTConfig(deviceName: "Mochi", hasBattery: true)
        config.firmware = "0.1-test"
        let server = GATTServer(config: config)
        server.stateValue = { Array((0..<500).map { UInt8(truncatingIfNeeded: $0 * 7) }) }
        let link = try BLELink(server: server)
        link.recorder = { [unowned self] _, received, pdu in snoop.append(pdu, received: received) }
        return link
    }

    func connect(_ link: BLELink) throws -> (GATTClient, PairBearer, Int) {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds), 0)
        let id = try link.adopt(fd: fds[1], security: 1)
        let bearer = PairBearer(fd: fds[0], link: link)
        XCTAssertEqual(bearer.takeEvents(), [.connected(client: id)])
        return (GATTClient(bearer: bearer), bearer, id)
    }

    func frame(_ body: [UInt8]) -> [UInt8] {
        let n = body.count
        return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + body
    }

    func raw(_ c: GATTClient, _ pdu: [UInt8]) throws -> [UInt8] {
        try c.bearer.sendPDU(pdu)
        return try c.bearer.receivePDU()
    }

    /// A whole phone session over a socketpair: discovery, pairing-required writes, command frames
    /// in pieces, event notifications in MTU − 3 chunks, long reads and writes, bad input. The
    /// session is also written as a btsnoop file and decoded by tshark.
    func testSessionOverSocketpair() throws {
        let link = try makeLink()
        let (client, bearer, id) = try connect(link)
        XCTAssertEqual(try client.exchangeMTU(185), 517)
        XCTAssertEqual(client.mtu, 185)

        let services = try client.discoverPrimaryServices()
        XCTAssertEqual(services.map { "\($0.start)-\($0.end) \($0.uuid)" },
                       ["1-5 1800", "6-9 1801", "10-20 6d9b0001-7e5c-4d2a-9c1f-0de5c9e7a2b1", "21-24 1805", "25-31 180A", "32-35 180F"])
        let deskpet = try XCTUnwrap(client.findPrimaryService(DeskPetUUID.service))
        XCTAssertEqual(deskpet.start, 10); XCTAssertEqual(deskpet.end, 20)
        let chars = try client.discoverCharacteristics(deskpet.start, deskpet.end)
        XCTAssertEqual(chars.map(\.uuid), [DeskPetUUID.command, DeskPetUUID.event, DeskPetUUID.state])
        XCTAssertEqual(chars.map(\.valueHandle), [12, 15, 19])
        XCTAssertEqual(chars.map(\.properties.rawValue), [0x0C, 0x32, 0x02], "event: read, notify, indicate (docs/ble.md)")
        let descriptors = try client.discoverDescriptors(16, 17)
        XCTAssertEqual(descriptors.map(\.type), [.bit16(0x2901), .bit16(0x2902)])
        XCTAssertEqual(try client.read(16), Array("event".utf8))
        XCTAssertEqual(try client.read(31), Array("0.1-test".utf8))

        // Not paired yet: commands are refused with Insufficient Authentication.
        let hello = frame(Array(#"{"hello":1}"#.utf8))
        XCTAssertThrowsError(try client.write(12, hello)) {
            XCTAssertEqual(($0 as? GATTClientError), .att(ATTErrorResponse(requestOpcode: 0x12, handle: 12, error: .insufficientAuthentication)))
        }
        XCTAssertThrowsError(try client.read(19)) { XCTAssertEqual(($0 as? GATTClientError), .att(ATTErrorResponse(requestOpcode: 0x0A, handle: 19, error: .insufficientAuthentication))) }
        link.setSecurity(client: id, level: 2)  // the phone paired: the link is encrypted

        try client.subscribe(cccd: 17)
        XCTAssertEqual(try client.read(17), [0x01, 0x00])
        // A frame in two pieces: a Write Request and a Write Command.
        try client.write(12, Array(hello[0..<3]))
        XCTAssertEqual(bearer.takeEvents(), [])
        try client.writeCommand(12, Array(hello[3...]))
        XCTAssertEqual(bearer.takeEvents(), [.frame(LinkFrame(client: id, bytes: hello))])

        // An event frame of 400 bytes arrives as notifications of 182, 182 and 36 bytes.
        let event = frame((0..<396).map { UInt8(truncatingIfNeeded: $0) })
        try link.send(LinkFrame(client: id, bytes: event))
        var got: [UInt8] = []
        var sizes: [Int] = []
        while got.count < event.count {
            let v = try client.waitForValue()
            XCTAssertEqual(v.handle, 15); XCTAssertFalse(v.indication)
            got += v.value; sizes.append(v.value.count)
        }
        XCTAssertEqual(got, event); XCTAssertEqual(sizes, [182, 182, 36])

        // The state (500 bytes) with Read and Read Blob.
        XCTAssertEqual(try client.readLong(19), Array((0..<500).map { UInt8(truncatingIfNeeded: $0 * 7) }))

        // A long command through Prepare Write + Execute Write.
        let long = frame(Array(repeating: 0x41, count: 296))
        try client.writeLong(12, long)
        XCTAssertEqual(bearer.takeEvents(), [.frame(LinkFrame(client: id, bytes: long))])

        // Bad input: each gets its error and the session goes on.
        XCTAssertEqual(try raw(client, [0x0A, 0x03]), [0x01, 0x0A, 0x00, 0x00, 0x04], "truncated Read: Invalid PDU")
        XCTAssertEqual(try raw(client, [0x12, 0x03, 0x00, 0x42]), [0x01, 0x12, 0x03, 0x00, 0x03], "device name is read-only")
        XCTAssertEqual(try raw(client, [0x12, 0x1B, 0x00, 0x42]), [0x01, 0x12, 0x1B, 0x00, 0x03], "manufacturer is read-only")
        XCTAssertEqual(try raw(client, [0x3F, 0x01]), [0x01, 0x3F, 0x00, 0x00, 0x06], "unknown opcode: Request Not Supported")
        XCTAssertEqual(try raw(client, [0x0A, 0x99, 0x00]), [0x01, 0x0A, 0x99, 0x00, 0x01], "Invalid Handle")
        XCTAssertEqual(try raw(client, [0x12, 0x11, 0x00, 1, 0, 0]), [0x01, 0x12, 0x11, 0x00, 0x0D], "CCCD too long")
        XCTAssertEqual(try raw(client, [0x12, 0x0C, 0x00] + [UInt8](repeating: 0, count: 183)), [0x01, 0x12, 0x00, 0x00, 0x04], "longer than the MTU")
        XCTAssertEqual(try client.read(3), Array("Mochi".utf8), "still serving")

        // The phone goes away.
        close(bearer.fd)
        XCTAssertEqual(bearer.takeEvents(), [.disconnected(client: id)])
        XCTAssertEqual(link.clients, [])

        try checkWithTshark(snoop.bytes)
    }

    /// A second phone at MTU 517: 514-byte chunks, a 512-byte value is the longest, over it is refused.
    func testMTU517AndLimits() throws {
        let link = try makeLink()
        let (client, bearer, id) = try connect(link)
        link.setSecurity(client: id, level: 2)
        XCTAssertEqual(try client.exchangeMTU(517), 517)
        XCTAssertThrowsError(try client.exchangeMTU(185), "once per connection")
        try client.subscribe(cccd: 17)
        try link.send(LinkFrame(client: id, bytes: frame([UInt8](repeating: 3, count: 1000))))
        XCTAssertEqual(try client.waitForValue().value.count, 514)
        XCTAssertEqual(try client.waitForValue().value.count, 490)
        XCTAssertEqual(try raw(client, [0x12, 0x0C, 0x00] + [UInt8](repeating: 0, count: 513)), [0x01, 0x12, 0x0C, 0x00, 0x0D], "over 512 bytes")
        XCTAssertEqual(bearer.takeEvents(), [])
        try client.write(12, [0, 0, 2, 0] + [UInt8](repeating: 9, count: 508))
        XCTAssertEqual(bearer.takeEvents(), [], "frame not complete yet")
        XCTAssertEqual(link.session(client: id)?.pendingCommandBytes, 512)
        try client.writeCommand(12, [9, 9, 9, 9])
        XCTAssertEqual(bearer.takeEvents(), [.frame(LinkFrame(client: id, bytes: [0, 0, 2, 0] + [UInt8](repeating: 9, count: 512)))])
        // A frame announcing more than the maximum drops the client.
        XCTAssertThrowsError(try client.write(12, [0x7F, 0xFF, 0xFF, 0xFF]))
        XCTAssertEqual(bearer.takeEvents(), [.disconnected(client: id)])
    }

    /// A phone that never reads its notifications is dropped once its backlog passes the limit.
    func testClientThatNeverReadsIsDropped() throws {
        let link = try makeLink()
        link.maxOutboxBytes = 8192
        let (client, bearer, id) = try connect(link)
        _ = try client.exchangeMTU(517)
        try client.subscribe(cccd: 17)
        let other = try connect(link)
        for _ in 0..<2000 where link.clients.contains(id) {
            try link.send(LinkFrame(client: id, bytes: frame([UInt8](repeating: 1, count: 1000))))
        }
        XCTAssertEqual(bearer.takeEvents(), [.disconnected(client: id)])
        XCTAssertEqual(try other.0.read(3), Array("Mochi".utf8), "the others are still served")
    }

    /// tshark (Wireshark's decoder, an independent peer) reads the capture: the opcodes, handles
    /// and values must be what the session did.
    func checkWithTshark(_ capture: [UInt8]) throws {
        guard let tshark = findTool("tshark") else {
            return XCTFail("tshark is missing: install it (apt-get install tshark; .ci/run and tools/setup-debian.sh do) — this check is not optional")
        }
        let dir = try makeTemporaryDirectory("deskpet-btsnoop")
        defer { removeTemporaryDirectory(dir) }
        let path = dir.appendingPathComponent("session.btsnoop").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(capture)))
        if let keep = ProcessInfo.processInfo.environment["DESKPET_KEEP_BTSNOOP"] { try? Data(capture).write(to: URL(fileURLWithPath: keep)) }
        let r = try runTool(tshark, ["-r", path, "-T", "fields", "-E", "separator=|", "-e", "frame.number", "-e", "btatt.opcode", "-e", "btatt.handle", "-e", "btatt.value", "-e", "btatt.error_code", "-e", "btatt.client_rx_mtu", "-e", "btatt.server_rx_mtu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = r.stdout.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertGreaterThan(rows.count, 40, r.stdout)
        func row(_ opcode: String, _ handle: String? = nil) -> [String]? {
            rows.first { $0.count >= 7 && $0[1] == opcode && (handle == nil || $0[2].split(separator: ",").contains { $0 == handle! }) }
        }
        // Exchange MTU 185 / 517.
        XCTAssertEqual(row("0x02")?[5], "185", r.stdout); XCTAssertEqual(row("0x03")?[6], "517", r.stdout)
        // Every request kind and its answer appear.
        for op in ["0x02", "0x03", "0x04", "0x05", "0x06", "0x07", "0x08", "0x09", "0x0a", "0x0b", "0x0c", "0x0d", "0x10", "0x11",
                   "0x12", "0x13", "0x52", "0x16", "0x17", "0x18", "0x19", "0x1b", "0x01"] {
            XCTAssertNotNil(row(op), "opcode \(op) missing in tshark's decode:\n\(r.stdout)")
        }
        // The refused command write: Error Response on handle 0x000c, Insufficient Authentication.
        XCTAssertTrue(rows.contains { $0[1] == "0x01" && $0[2] == "0x000c" && $0[4] == "0x05" }, r.stdout)
        // The CCCD write (handle 0x0011, value 0100) and the command write command (0x000c).
        XCTAssertNotNil(row("0x12", "0x0011"), r.stdout)
        let tail = Array(frame(Array(#"{"hello":1}"#.utf8))[3...])
        let hexTail = tail.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        XCTAssertEqual(row("0x52", "0x000c")?[3], hexTail, r.stdout)
        // The first event notification: handle 0x000f, the frame's first 182 bytes.
        let note = try XCTUnwrap(row("0x1b", "0x000f"), r.stdout)
        XCTAssertEqual(note[3].count, 2 * 182); XCTAssertTrue(note[3].hasPrefix("0000018c000102"), note[3])
        // Read Blob of the state at offset 184, and the errors of the bad input.
        XCTAssertEqual(row("0x0c", "0x0013")?[2], "0x0013")
        for code in ["0x04", "0x03", "0x06", "0x01", "0x0d"] { XCTAssertTrue(rows.contains { $0[1] == "0x01" && $0[4] == code }, "error \(code) missing:\n\(r.stdout)") }
    }
}
