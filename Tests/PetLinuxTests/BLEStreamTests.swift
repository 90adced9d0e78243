import XCTest
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
@testable import PetLinux
import PetCore
import PetDevice
import PetLink
import PetSim

/// The device's side on its own thread: a `BLELink` serving one end of a socketpair, its frames
/// handled by a real `LinkService` on a `SimDevice`. The test thread is the phone: `BLEStream` on
/// the other end, `LinkClient` on top, both blocking with timeouts (poll, never sleep).
final class BLEPeripheralThread: @unchecked Sendable {
    let link: BLELink
    let sim: SimDevice
    let stop = Mutex(false)
    /// The code the device shows while pairing (read on the device thread, for the phone).
    let shownCode = Mutex<String?>(nil)
    /// Every ATT PDU (received?, bytes), in order.
    let pdus = Mutex<[(Bool, [UInt8])]>([])
    private let finished = DispatchSemaphore(value: 0)

    init(link: BLELink, sim: SimDevice) { self.link = link; self.sim = sim }

    /// Phone connections for the device thread to adopt: (its end, BT_SECURITY level to assume).
    let toAdopt = Mutex<[(Int32, Int)]>([])

    /// A device with a BLE link and no connection yet (`connect` makes them).
    static func make() throws -> BLEPeripheralThread {
        let server = GATTServer(config: DeskPetGATTConfig(deviceName: "Mochi", hasBattery: false))
        let link = try BLELink(server: server)
        let sim = try SimDevice(dbPath: nil, start: Instant(1_772_434_800), zone: "UTC", boot: false, link: link, linkService: LinkService())
        let t = BLEPeripheralThread(link: link, sim: sim)
        link.recorder = { [unowned t] _, received, pdu in t.pdus.withLock { $0.append((received, pdu)) } }
        return t
    }

    /// A socketpair: one end for the device thread's link (adopted on its next round, assumed at
    /// `security`), the other returned for the phone.
    func connect(security: Int) throws -> Int32 {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw NSError(domain: "socketpair", code: Int(errno))
        }
        toAdopt.withLock { $0.append((fds[1], security)) }
        return fds[0]
    }

    func start() {
        Thread.detachNewThread { [self] in
            while !stop.withLock({ $0 }) {
                for (fd, level) in toAdopt.withLock({ q in defer { q = [] }; return q }) { _ = try? link.adopt(fd: fd, security: level) }
                do { try sim.serveLink(waitingUpToMs: 20) } catch { break }
                let code = sim.ui.pairingCode
                shownCode.withLock { $0 = code }
            }
            finished.signal()
        }
    }

    /// Stops the thread (bounded wait).
    func join() -> Bool {
        stop.withLock { $0 = true }
        return finished.wait(timeout: .now() + 10) == .success
    }
}

final class BLEStreamTests: XCTestCase {
    /// Discovery, subscription, pairing with the device's code, a command and its events, a ping:
    /// frames larger than one MTU both ways, over the real GATT server and LinkService.
    func testFullSessionAgainstBLELinkAndLinkService() throws {
        let device = try BLEPeripheralThread.make()
        let fd = try device.connect(security: 2)   // an encrypted link
        device.start()
        defer { XCTAssertTrue(device.join()) }

        let stream = BLEStream(socketFD: fd, peer: "ble:test", timeoutSeconds: 10)
        try stream.open()
        XCTAssertEqual(stream.mtu, 185)
        XCTAssertEqual([stream.commandHandle, stream.eventHandle, stream.eventCCCD], [12, 15, 17])

        let client = LinkClient(stream: stream, timeoutSeconds: 10)
        let welcome = try client.hello(token: nil)
        XCTAssertEqual(welcome["paired"], .bool(false))
        let paired = try client.pair(name: "BLE phone") { () throws(LinkClientError) -> String in
            // The device shows the code once the challenge is out: bounded polling on its thread's copy.
            for _ in 0..<500 {
                if let c = device.shownCode.withLock({ $0 }) { return c }
                var p = pollfd(fd: -1, events: 0, revents: 0); _ = poll(&p, 0, 10)
            }
            throw .timeout(waitingFor: "the pairing code", seconds: 5)
        }
        XCTAssertEqual(paired.token.count, 64)
        client.close()

        // A new connection, paired: hello with the token, a command larger than one MTU.
        let fd2 = try device.connect(security: 2)
        let stream2 = BLEStream(socketFD: fd2, peer: "ble:test", timeoutSeconds: 10)
        try stream2.open()
        let c2 = LinkClient(stream: stream2, timeoutSeconds: 10)
        XCTAssertEqual(try c2.hello(token: paired.token)["paired"], .bool(true))
        let title = String(String(repeating: "Water the plants ", count: 6).prefix(99)) + "!"   // 100 characters
        let command = QueuedCommand(id: "ble-\(String(repeating: "x", count: 40))", name: "task.create", fields: ["title": title, "task": "t1", "category": "home"])
        XCTAssertGreaterThan(Frame.encode(MessageEncoder.body(LinkClient.commandMessage(command))).count, 182)
        let outcome = try c2.command(command)
        guard case .reply(let r) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(r["command"], .string("task.create"))
        // The task.created event carries the title: a frame of more than one notification.
        let created = c2.events.contains { e in
            if case .object(let body)? = e["event"], case .object(let task)? = body["task"] { return task["title"] == .string(title) }
            return false
        }
        XCTAssertTrue(created, "\(c2.events)")
        try c2.send(["type": .string("ping")])
        XCTAssertEqual(try c2.waitFor(["pong"])["type"], .string("pong"))

        // On the air: Write Requests of at most MTU − 3 value bytes, several for one frame;
        // notifications likewise.
        let pdus = device.pdus.withLock { $0 }
        let writes = pdus.filter { $0.0 && $0.1.first == 0x12 }.map(\.1)
        let notes = pdus.filter { !$0.0 && $0.1.first == 0x1B }.map(\.1)
        XCTAssertTrue(writes.allSatisfy { $0.count <= 185 })
        XCTAssertTrue(writes.contains { $0.count == 185 }, "no full-MTU write")
        XCTAssertTrue(notes.allSatisfy { $0.count <= 185 })
        XCTAssertTrue(notes.contains { $0.count == 185 }, "no full-MTU notification")
        // Error Responses only where discovery ends (Attribute Not Found).
        XCTAssertFalse(pdus.contains { $0.1.first == 0x01 && $0.1.count == 5 && $0.1[4] != 0x0A }, "an ATT error in a good session")
    }

    /// A link below BT_SECURITY medium: the command write is answered Insufficient
    /// Authentication, which the client reports as pairing needed.
    func testInsufficientAuthenticationSaysPair() throws {
        let device = try BLEPeripheralThread.make()
        let fd = try device.connect(security: 1)
        device.start()
        defer { XCTAssertTrue(device.join()) }
        let stream = BLEStream(socketFD: fd, peer: "ble:AA:BB:CC:DD:EE:FF", timeoutSeconds: 10)
        try stream.open()   // discovery and the CCCD need no encryption
        let client = LinkClient(stream: stream, timeoutSeconds: 10)
        XCTAssertThrowsError(try client.hello(token: nil)) { e in
            XCTAssertEqual(e as? LinkClientError, .bluetooth(.pairingNeeded(address: "ble:AA:BB:CC:DD:EE:FF")))
            XCTAssertTrue("\(e)".contains("encrypted link"), "\(e)")
            XCTAssertTrue("\(e)".contains("pair"), "\(e)")
        }
    }

    /// A peripheral without the DeskPet service (its answers queued in the socketpair before
    /// the client asks): a clear error, no hang.
    func testPeripheralWithoutDeskPetService() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds), 0)
        defer { close(fds[1]) }
        for pdu in [ATTExchangeMTUResponse(serverMTU: 247).bytes,
                    ATTErrorResponse(requestOpcode: 0x06, handle: 1, error: .attributeNotFound).bytes] {
            XCTAssertEqual(pdu.withUnsafeBytes { send(fds[1], $0.baseAddress, $0.count, 0) }, pdu.count)
        }
        let stream = BLEStream(socketFD: fds[0], peer: "ble:11:22:33:44:55:66", timeoutSeconds: 2)
        XCTAssertThrowsError(try stream.open()) { e in
            XCTAssertEqual(e as? LinkClientError, .bluetooth(.noDeskPetService(address: "ble:11:22:33:44:55:66")))
            XCTAssertTrue("\(e)".contains("no DeskPet service"), "\(e)")
        }
        // What the client asked: Exchange MTU 185, then Find By Type Value for the service UUID.
        var buf = [UInt8](repeating: 0, count: 64)
        let n1 = buf.withUnsafeMutableBytes { recv(fds[1], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        XCTAssertEqual(Array(buf[0..<max(0, n1)]), [0x02, 185, 0])
        let n2 = buf.withUnsafeMutableBytes { recv(fds[1], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        XCTAssertEqual(Array(buf[0..<max(0, n2)]), [0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28] + DeskPetUUID.service.littleEndianBytes)
    }

    /// A server that never answers: a timeout, not a hang.
    func testSilentPeripheralTimesOut() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds), 0)
        defer { close(fds[1]) }
        let stream = BLEStream(socketFD: fds[0], peer: "ble:x", timeoutSeconds: 1)
        XCTAssertThrowsError(try stream.open()) { XCTAssertEqual($0 as? LinkClientError, .timeout(waitingFor: "GATT discovery", seconds: 1)) }
    }

    func testAddresses() throws {
        XCTAssertEqual(try BLEAddress.parse("aa:bb:cc:dd:ee:ff"), BLEAddress(bytes: [0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF], random: false))
        XCTAssertEqual(try BLEAddress.parse("C0:11:22:33:44:55/random").description, "C0:11:22:33:44:55/random")
        XCTAssertEqual(try BLEAddress.parse("01:02:03:04:05:06/public").description, "01:02:03:04:05:06")
        for bad in ["", "AA:BB:CC:DD:EE", "AA:BB:CC:DD:EE:GG", "AA:BB:CC:DD:EE:FF/other", "AABBCCDDEEFF", "A:BB:CC:DD:EE:FF0"] {
            XCTAssertThrowsError(try BLEAddress.parse(bad)) { XCTAssertEqual($0 as? BLEClientError, .badAddress(bad)) }
        }
    }

    /// On this machine (no adapter, or one that cannot reach the address): a typed error that
    /// says what to do, never a crash or a hang.
    func testConnectFailsWithATypedError() {
        XCTAssertThrowsError(try BLEClientSocket.connect(try BLEAddress.parse("00:00:00:00:00:01"), timeoutSeconds: 1)) { e in
            guard let b = e as? BLEClientError else { return XCTFail("\(e)") }
            switch b {
            case .noBluetooth, .noAdapter, .adapterDown, .addressNotFound, .connectFailed: break
            default: XCTFail("\(b)")
            }
        }
    }
}

final class JustWorksAgentTests: XCTestCase {
    /// User Confirmation Request (0x000F) → Reply (0x001C) with the address and type for Just Works
    /// (Confirm_Hint 1); Negative Reply (0x001D) for numeric comparison (hint 0); others ignored.
    func testAnswers() throws {
        // code 0x000F, index 1, length 12: address 01:00:01:AA:00 (LE), type 1 (LE public), hint, value.
        let addr: [UInt8] = [0x01, 0x00, 0x01, 0x01, 0xAA, 0x00, 0x01]
        let justWorks: [UInt8] = [0x0F, 0x00, 0x01, 0x00, 12, 0] + addr + [1, 0, 0, 0, 0]
        let a = try XCTUnwrap(JustWorksAgent.answer(justWorks))
        XCTAssertTrue(a.accepted)
        XCTAssertEqual(a.address, "00:AA:01:01:00:01")
        XCTAssertEqual(a.command.bytes, [0x1C, 0x00, 0x01, 0x00, 7, 0] + addr)
        let numeric: [UInt8] = [0x0F, 0x00, 0x01, 0x00, 12, 0] + addr + [0, 0x40, 0xE2, 0x01, 0]
        let n = try XCTUnwrap(JustWorksAgent.answer(numeric))
        XCTAssertFalse(n.accepted)
        XCTAssertEqual(n.command.bytes, [0x1D, 0x00, 0x01, 0x00, 7, 0] + addr)
        XCTAssertNil(JustWorksAgent.answer([0x0B, 0x00, 0x01, 0x00, 12, 0] + addr + [1, 0, 0, 0, 0]))   // Device Connected
        XCTAssertNil(JustWorksAgent.answer(Array(justWorks.prefix(10))))   // truncated
    }
}
