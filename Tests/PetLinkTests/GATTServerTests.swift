import XCTest
@testable import PetLink
import TestSupport

/// The DeskPet GATT server PDU by PDU: the database layout, every request kind and its errors,
/// security, MTU, chunking, indications, prepared writes, the command reassembly, Current Time.
final class GATTServerTests: XCTestCase {
    var server: GATTServer!
    var clock: [CurrentTime] = []

    override func setUp() {
        var c = DeskPetGATTConfig(deviceName: "Mochi", hasBattery: true)
        c.maxFrameBody = 1000
        server = GATTServer(config: c)
        server.stateValue = { Array((0..<60).map { UInt8($0) }) }
        server.setClock = { [unowned self] t in clock.append(t); return true }
        server.batteryLevel = { 87 }
    }

    func session(encrypted: Bool = false) -> GATTSession {
        let s = GATTSession(server: server)
        s.securityLevel = encrypted ? 2 : 1
        return s
    }

    func err(_ op: UInt8, _ h: UInt16, _ code: UInt8) -> [[UInt8]] { [[0x01, op, UInt8(h & 0xFF), UInt8(h >> 8), code]] }

    func testDatabaseLayout() {
        let d = server.database
        XCTAssertEqual(d.lastHandle, 35)
        XCTAssertEqual(server.commandHandle, 12); XCTAssertEqual(server.eventHandle, 15); XCTAssertEqual(server.stateHandle, 19)
        XCTAssertEqual(server.serviceChangedHandle, 8)
        XCTAssertEqual(d.cccdHandle(of: 15), 17); XCTAssertEqual(d.cccdHandle(of: 8), 9)
        XCTAssertEqual(d.valueHandle(of: .currentTime), 23); XCTAssertEqual(d.valueHandle(of: .batteryLevel), 34)
        let services = d.attributes.compactMap { a -> String? in
            guard case .service(let end) = a.kind, case .fixed(let v) = a.source else { return nil }
            return "\(a.handle)-\(end) \(BluetoothUUID(littleEndian: v)!)"
        }
        XCTAssertEqual(services, ["1-5 1800", "6-9 1801", "10-20 6d9b0001-7e5c-4d2a-9c1f-0de5c9e7a2b1", "21-24 1805", "25-31 180A", "32-35 180F"])
        XCTAssertEqual(GATTServer(config: DeskPetGATTConfig(deviceName: "x")).database.lastHandle, 31, "no battery service without a battery")
    }

    func testDiscovery() {
        let s = session()
        XCTAssertEqual(s.receive([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28]),
                       [[0x11, 0x06, 0x01, 0x00, 0x05, 0x00, 0x00, 0x18, 0x06, 0x00, 0x09, 0x00, 0x01, 0x18]], "16-bit services; the 128-bit one starts a new response")
        XCTAssertEqual(s.receive([0x10, 0x0A, 0x00, 0xFF, 0xFF, 0x00, 0x28]), [[0x11, 0x14, 0x0A, 0x00, 0x14, 0x00] + DeskPetUUID.service.littleEndianBytes])
        XCTAssertEqual(s.receive([0x10, 0x24, 0x00, 0xFF, 0xFF, 0x00, 0x28]), err(0x10, 0x24, 0x0A))
        XCTAssertEqual(s.receive([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28]), err(0x10, 1, 0x10), "Unsupported Group Type")
        XCTAssertEqual(s.receive([0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x05, 0x18]), [[0x07, 0x15, 0x00, 0x18, 0x00]], "CTS by UUID")
        XCTAssertEqual(s.receive([0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x99, 0x18]), err(0x06, 1, 0x0A))
        // Characteristics of GAP: Device Name (read, value 3) and Appearance (read, value 5).
        XCTAssertEqual(s.receive([0x08, 0x01, 0x00, 0x05, 0x00, 0x03, 0x28]),
                       [[0x09, 0x07, 0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A, 0x04, 0x00, 0x02, 0x05, 0x00, 0x01, 0x2A]])
        // Descriptors of the event characteristic.
        XCTAssertEqual(s.receive([0x04, 0x10, 0x00, 0x11, 0x00]), [[0x05, 0x01, 0x10, 0x00, 0x01, 0x29, 0x11, 0x00, 0x02, 0x29]])
        XCTAssertEqual(s.receive([0x04, 0x0C, 0x00, 0x0C, 0x00]), [[0x05, 0x02, 0x0C, 0x00] + DeskPetUUID.command.littleEndianBytes])
        XCTAssertEqual(s.receive([0x04, 0x00, 0x00, 0x05, 0x00]), err(0x04, 0, 0x01), "start 0: Invalid Handle")
        XCTAssertEqual(s.receive([0x04, 0x05, 0x00, 0x01, 0x00]), err(0x04, 5, 0x01), "start > end: Invalid Handle")
        XCTAssertEqual(s.receive([0x08, 0x24, 0x00, 0xFF, 0xFF, 0x03, 0x28]), err(0x08, 0x24, 0x0A))
        // Read By Type of the state value without encryption: its own error, with its handle.
        XCTAssertEqual(s.receive([0x08, 0x01, 0x00, 0xFF, 0xFF] + DeskPetUUID.state.littleEndianBytes), err(0x08, 19, 0x05))
        XCTAssertEqual(s.receive([0x08, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x2A]), [[0x09, 0x07, 0x03, 0x00] + Array("Mochi".utf8)])
    }

    func testReads() {
        let s = session()
        XCTAssertEqual(s.receive([0x0A, 0x03, 0x00]), [[0x0B] + Array("Mochi".utf8)])
        server.deviceName = "Biscuit"
        XCTAssertEqual(s.receive([0x0A, 0x03, 0x00]), [[0x0B] + Array("Biscuit".utf8)])
        XCTAssertEqual(s.receive([0x0A, 0x05, 0x00]), [[0x0B, 0x00, 0x01]], "appearance: generic clock")
        XCTAssertEqual(s.receive([0x0A, 0x22, 0x00]), [[0x0B, 87]], "battery")
        XCTAssertEqual(s.receive([0x0A, 0x1B, 0x00]), [[0x0B] + Array("DeskPet".utf8)])
        XCTAssertEqual(s.receive([0x0A, 0x17, 0x00]), [[0x0B] + [UInt8](repeating: 0, count: 10)], "time unknown")
        XCTAssertEqual(s.receive([0x0A, 0x0C, 0x00]), err(0x0A, 12, 0x02), "command is write-only")
        XCTAssertEqual(s.receive([0x0A, 0x08, 0x00]), err(0x0A, 8, 0x02), "Service Changed is indicate-only")
        XCTAssertEqual(s.receive([0x0A, 0x13, 0x00]), err(0x0A, 19, 0x05), "state needs encryption")
        XCTAssertEqual(s.receive([0x0A, 0x00, 0x00]), err(0x0A, 0, 0x01))
        XCTAssertEqual(s.receive([0x0A, 0x24, 0x00]), err(0x0A, 36, 0x01))
        XCTAssertEqual(s.receive([0x0C, 0x03, 0x00, 0x02, 0x00]), [[0x0D] + Array("scuit".utf8)])
        XCTAssertEqual(s.receive([0x0C, 0x03, 0x00, 0x07, 0x00]), [[0x0D]], "offset = length: empty part")
        XCTAssertEqual(s.receive([0x0C, 0x03, 0x00, 0x08, 0x00]), err(0x0C, 3, 0x07), "Invalid Offset")
        s.securityLevel = 2
        let state = (0..<60).map { UInt8($0) }
        XCTAssertEqual(s.receive([0x0A, 0x13, 0x00]), [[0x0B] + state[0..<22]], "MTU 23: 22 bytes")
        server.stateValue = { [9, 9, 9] }
        XCTAssertEqual(s.receive([0x0C, 0x13, 0x00, 22, 0x00]), [[0x0D] + state[22..<44]], "Read Blob continues the snapshot")
        XCTAssertEqual(s.receive([0x0C, 0x13, 0x00, 44, 0x00]), [[0x0D] + state[44..<60]])
        XCTAssertEqual(s.receive([0x0A, 0x13, 0x00]), [[0x0B, 9, 9, 9]], "a new read takes a new snapshot")
    }

    func testMTU() {
        let s = session()
        XCTAssertEqual(s.receive([0x02, 0xB9, 0x00]), [[0x03, 0x05, 0x02]])
        XCTAssertEqual(s.mtu, 185)
        XCTAssertEqual(s.receive([0x02, 0x05, 0x02]), err(0x02, 0, 0x06), "only once per connection")
        XCTAssertEqual(s.mtu, 185)
        let t = session()
        _ = t.receive([0x02, 0x00, 0x04])
        XCTAssertEqual(t.mtu, 517, "capped at 517")
        let u = session()
        _ = u.receive([0x02, 0x05, 0x00])
        XCTAssertEqual(u.mtu, 23, "never below 23")
        // A PDU longer than the MTU: Invalid PDU for a request, silence for a command.
        XCTAssertEqual(u.receive([0x12, 0x03, 0x00] + [UInt8](repeating: 1, count: 21)), err(0x12, 0, 0x04))
        XCTAssertEqual(u.receive([0x52, 0x0C, 0x00] + [UInt8](repeating: 1, count: 21)), [])
    }

    func testWritesAndSecurity() {
        let s = session()
        let frame: [UInt8] = [0, 0, 0, 3, 0x61, 0x62, 0x63]
        XCTAssertEqual(s.receive([0x12, 0x0C, 0x00] + frame), err(0x12, 12, 0x05), "command needs an encrypted link")
        XCTAssertEqual(s.receive([0x52, 0x0C, 0x00] + frame), [], "write command: no answer")
        XCTAssertEqual(s.takeEvents(), [], "and nothing delivered")
        XCTAssertEqual(s.receive([0x16, 0x0C, 0x00, 0x00, 0x00, 1]), err(0x16, 12, 0x05))
        s.securityLevel = 2
        XCTAssertEqual(s.receive([0x12, 0x0C, 0x00] + frame), [[0x13]])
        XCTAssertEqual(s.takeEvents(), [.frame(frame)])
        // Split across writes and commands; two frames in one write.
        XCTAssertEqual(s.receive([0x12, 0x0C, 0x00, 0, 0]), [[0x13]])
        XCTAssertEqual(s.receive([0x52, 0x0C, 0x00, 0, 2, 0x78]), [])
        XCTAssertEqual(s.takeEvents(), [])
        XCTAssertEqual(s.pendingCommandBytes, 5)
        XCTAssertEqual(s.receive([0x12, 0x0C, 0x00, 0x79, 0, 0, 0, 0, 0, 0, 0, 1]), [[0x13]])
        XCTAssertEqual(s.receive([0x12, 0x0C, 0x00, 0x7A]), [[0x13]])
        XCTAssertEqual(s.takeEvents(), [.frame([0, 0, 0, 2, 0x78, 0x79]), .frame([0, 0, 0, 0]), .frame([0, 0, 0, 1, 0x7A])])
        // Too long a frame.
        XCTAssertEqual(s.receive([0x12, 0x0C, 0x00, 0, 0, 0x10, 0]), err(0x12, 12, 0x0D))
        XCTAssertEqual(s.takeEvents(), [.frameTooLong(4096)])
        XCTAssertEqual(s.pendingCommandBytes, 0)
        // Read-only, unknown, too long, CCCD rules.
        XCTAssertEqual(s.receive([0x12, 0x03, 0x00, 0x41]), err(0x12, 3, 0x03), "device name is read-only")
        XCTAssertEqual(s.receive([0x12, 0x13, 0x00, 0x41]), err(0x12, 19, 0x03), "state is read-only")
        XCTAssertEqual(s.receive([0x12, 0x01, 0x00, 0x41]), err(0x12, 1, 0x03), "a declaration")
        XCTAssertEqual(s.receive([0x12, 0x30, 0x00, 0x41]), err(0x12, 0x30, 0x01))
        XCTAssertEqual(s.receive([0x12, 0x11, 0x00, 0x01]), err(0x12, 17, 0x0D), "CCCD is 2 bytes")
        XCTAssertEqual(s.receive([0x12, 0x09, 0x00, 0x01, 0x00]), err(0x12, 9, 0xFD), "Service Changed cannot notify")
        XCTAssertEqual(s.receive([0x12, 0x11, 0x00, 0x04, 0x00]), err(0x12, 17, 0xFD))
        XCTAssertEqual(s.receive([0x12, 0x11, 0x00, 0x03, 0x00]), [[0x13]])
        XCTAssertEqual(s.receive([0x0A, 0x11, 0x00]), [[0x0B, 0x03, 0x00]])
        XCTAssertEqual(session().receive([0x0A, 0x11, 0x00]), [[0x0B, 0x00, 0x00]], "CCCDs are per connection")
        let t = session(encrypted: true)
        _ = t.receive([0x02, 0x05, 0x02])
        XCTAssertEqual(t.receive([0x12, 0x0C, 0x00] + [UInt8](repeating: 0, count: 513)), err(0x12, 12, 0x0D), "over 512 bytes")
    }

    func testUnknownAndMalformed() {
        let s = session()
        XCTAssertEqual(s.receive([0x0E, 0x03, 0x00, 0x05, 0x00]), err(0x0E, 0, 0x06), "Read Multiple: Request Not Supported")
        XCTAssertEqual(s.receive([0x20, 0x03, 0x00]), err(0x20, 0, 0x06))
        XCTAssertEqual(s.receive([0x3F]), err(0x3F, 0, 0x06))
        XCTAssertEqual(s.receive([0xD2, 0x0C, 0x00, 1, 2]), [], "signed write command: ignored")
        XCTAssertEqual(s.receive([0x7F, 1, 2]), [], "unknown command: ignored")
        XCTAssertEqual(s.receive([0x0A, 0x03]), err(0x0A, 0, 0x04), "truncated: Invalid PDU")
        XCTAssertEqual(s.receive([0x0A, 0x03, 0x00, 0x00]), err(0x0A, 0, 0x04), "too long: Invalid PDU")
        XCTAssertEqual(s.receive([0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03]), err(0x08, 0, 0x04))
        XCTAssertEqual(s.receive([0x18, 0x05]), err(0x18, 0, 0x04))
        XCTAssertEqual(s.receive([0x52, 0x0C]), [])
        XCTAssertEqual(s.receive([0x0B, 1, 2]), [], "a response from the client: ignored")
        XCTAssertEqual(s.receive([0x1E]), [], "a confirmation with nothing in flight")
        XCTAssertEqual(s.receive([]), [])
    }

    func testPreparedWrites() {
        let s = session(encrypted: true)
        let frame: [UInt8] = [0, 0, 0, 30] + (0..<30).map { UInt8($0) }
        XCTAssertEqual(s.receive([0x16, 0x0C, 0x00, 0x00, 0x00] + frame[0..<18]), [[0x17, 0x0C, 0x00, 0x00, 0x00] + frame[0..<18]])
        XCTAssertEqual(s.receive([0x16, 0x0C, 0x00, 18, 0x00] + frame[18...]), [[0x17, 0x0C, 0x00, 18, 0x00] + frame[18...]])
        XCTAssertEqual(s.takeEvents(), [], "nothing before Execute")
        XCTAssertEqual(s.receive([0x18, 0x01]), [[0x19]])
        XCTAssertEqual(s.takeEvents(), [.frame(frame)])
        // Cancel.
        _ = s.receive([0x16, 0x0C, 0x00, 0x00, 0x00, 0, 0, 0, 0])
        XCTAssertEqual(s.receive([0x18, 0x00]), [[0x19]])
        XCTAssertEqual(s.takeEvents(), [])
        // A gap in the offsets: Invalid Offset at Execute, nothing written.
        _ = s.receive([0x16, 0x0C, 0x00, 0x00, 0x00, 0, 0])
        _ = s.receive([0x16, 0x0C, 0x00, 0x05, 0x00, 0, 0])
        XCTAssertEqual(s.receive([0x18, 0x01]), err(0x18, 12, 0x07))
        XCTAssertEqual(s.takeEvents(), [])
        // Over 512 bytes in all.
        for i in 0..<29 { XCTAssertEqual(s.receive([0x16, 0x0C, 0x00, UInt8((i * 18) & 0xFF), UInt8((i * 18) >> 8)] + [UInt8](repeating: 0, count: 18)).first?.first, 0x17) }
        XCTAssertEqual(s.receive([0x18, 0x01]), err(0x18, 12, 0x0D))
        // Read-only and unknown handles at Prepare time; queue limit.
        XCTAssertEqual(s.receive([0x16, 0x03, 0x00, 0x00, 0x00, 0x41]), err(0x16, 3, 0x03))
        XCTAssertEqual(s.receive([0x16, 0x40, 0x00, 0x00, 0x00, 0x41]), err(0x16, 0x40, 0x01))
        for _ in 0..<64 { _ = s.receive([0x16, 0x11, 0x00, 0x00, 0x00, 0x01]) }
        XCTAssertEqual(s.receive([0x16, 0x11, 0x00, 0x00, 0x00, 0x01]), err(0x16, 17, 0x09), "Prepare Queue Full")
        XCTAssertEqual(s.receive([0x18, 0x00]), [[0x19]])
    }

    func testNotificationChunksAndIndications() {
        let s = session(encrypted: true)
        let frame: [UInt8] = [0, 0, 0, 40] + (0..<40).map { UInt8($0) }
        XCTAssertEqual(s.send(frame: frame), [], "not subscribed: dropped")
        XCTAssertEqual(s.droppedFrames, 1)
        _ = s.receive([0x12, 0x11, 0x00, 0x01, 0x00])
        XCTAssertEqual(s.send(frame: frame), [[0x1B, 0x0F, 0x00] + frame[0..<20], [0x1B, 0x0F, 0x00] + frame[20..<40], [0x1B, 0x0F, 0x00] + frame[40...]])
        // Indications: one at a time.
        _ = s.receive([0x12, 0x11, 0x00, 0x02, 0x00])
        XCTAssertEqual(s.send(frame: frame), [[0x1D, 0x0F, 0x00] + frame[0..<20]])
        XCTAssertTrue(s.indicationInFlight)
        XCTAssertEqual(s.send(frame: [0, 0, 0, 1, 9]), [], "queued behind the one in flight")
        XCTAssertEqual(s.queuedIndications, 3)
        XCTAssertEqual(s.receive([0x1E]), [[0x1D, 0x0F, 0x00] + frame[20..<40]])
        XCTAssertEqual(s.receive([0x1E]), [[0x1D, 0x0F, 0x00] + frame[40...]])
        XCTAssertEqual(s.receive([0x1E]), [[0x1D, 0x0F, 0x00, 0, 0, 0, 1, 9]])
        XCTAssertEqual(s.receive([0x1E]), [])
        XCTAssertFalse(s.indicationInFlight)
        // Service Changed.
        XCTAssertEqual(s.indicateServiceChanged(), [], "not subscribed")
        _ = s.receive([0x12, 0x09, 0x00, 0x02, 0x00])
        XCTAssertEqual(s.indicateServiceChanged(), [[0x1D, 0x08, 0x00, 0x01, 0x00, 0xFF, 0xFF]])
        // At MTU 185: 182-byte chunks.
        let t = session()
        _ = t.receive([0x02, 0xB9, 0x00])
        _ = t.receive([0x12, 0x11, 0x00, 0x01, 0x00])
        let big = [UInt8](repeating: 5, count: 300)
        XCTAssertEqual(t.send(frame: big).map(\.count), [185, 121])
    }

    func testCurrentTime() {
        let s = session()
        let t: [UInt8] = [0xEA, 0x07, 3, 14, 15, 9, 26, 5, 0, 1]  // 2026-03-14 15:09:26, Friday, manual
        XCTAssertEqual(s.receive([0x12, 0x17, 0x00] + t), err(0x12, 23, 0x05), "setting the clock needs encryption")
        s.securityLevel = 2
        XCTAssertEqual(s.receive([0x12, 0x17, 0x00] + t), [[0x13]])
        let want = CurrentTime(year: 2026, month: 3, day: 14, hours: 15, minutes: 9, seconds: 26, dayOfWeek: 5, fractions256: 0, adjustReason: 1)
        XCTAssertEqual(clock, [want]); XCTAssertEqual(s.takeEvents(), [.clockSet(want)])
        XCTAssertEqual(want.bytes, t)
        XCTAssertEqual(s.receive([0x12, 0x17, 0x00] + t.prefix(9)), err(0x12, 23, 0x0D), "9 bytes")
        var bad = t; bad[2] = 13
        XCTAssertEqual(s.receive([0x12, 0x17, 0x00] + bad), err(0x12, 23, 0x80), "month 13")
        bad = t; bad[2] = 2; bad[3] = 29  // 2026 is not a leap year
        XCTAssertEqual(s.receive([0x12, 0x17, 0x00] + bad), err(0x12, 23, 0x80))
        bad = t; bad[0] = 0; bad[1] = 0
        XCTAssertEqual(s.receive([0x12, 0x17, 0x00] + bad), err(0x12, 23, 0x80), "year unknown")
        XCTAssertEqual(clock.count, 1)
        server.setClock = { _ in false }
        XCTAssertEqual(s.receive([0x12, 0x17, 0x00] + t), err(0x12, 23, 0x80), "the device refused")
        server.currentTime = { want }
        XCTAssertEqual(s.receive([0x0A, 0x17, 0x00]), [[0x0B] + t])
        XCTAssertEqual(try? CurrentTime(bytes: [0xD0, 0x07, 2, 29, 0, 0, 0, 2, 0, 0]).day, 29, "2000 is a leap year")
    }

    /// Random PDUs at the server: never traps, always answers a request with exactly one PDU and
    /// never answers a command.
    func testRandomPDUs() {
        var rng = SplitMix64(seed: 7)
        let s = session(encrypted: true)
        _ = s.receive([0x12, 0x11, 0x00, 0x02, 0x00])
        for _ in 0..<20_000 {
            var b = [UInt8](repeating: 0, count: Int(rng.next() % 30))
            for i in b.indices { b[i] = UInt8(truncatingIfNeeded: rng.next()) }
            if !b.isEmpty, rng.next() % 2 == 0 { b[0] = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x10, 0x12, 0x16, 0x18, 0x1E, 0x52][Int(rng.next() % 12)] }
            if b.count >= 3, rng.next() % 2 == 0 { b[2] = 0 }
            let out = s.receive(b)
            guard let op = b.first else { continue }
            if ATTOpcode.isCommand(op) { XCTAssertEqual(out, [], "\(b)") }
            else if ATTOpcode.isRequest(op) { XCTAssertEqual(out.count, 1, "\(b)") }
            for o in out { XCTAssertNoThrow(try ATTPDU.decode(o), "\(b) -> \(o)") }
        }
    }
}

