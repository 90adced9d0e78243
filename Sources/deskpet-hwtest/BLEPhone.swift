import Glibc
import CBluetooth
import PetDevice
import PetLink
import PetLinux

/// An L2CAP LE socket on the ATT channel as a `GATTClient` bearer; each read waits at most
/// `timeoutMs` (poll), so the check cannot hang.
final class L2CAPBearer: ATTBearer {
    let fd: Int32
    var timeoutMs: Int32 = 10_000
    init(fd: Int32) { self.fd = fd }
    deinit { close(fd) }

    func sendPDU(_ pdu: [UInt8]) throws(GATTClientError) {
        let n = pdu.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard n == pdu.count else { throw .transport("send: \(errnoText())") }
    }

    func receivePDU() throws(GATTClientError) -> [UInt8] {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, timeoutMs) == 1 else { throw .transport("no PDU from the peripheral in \(timeoutMs) ms") }
        var buf = [UInt8](repeating: 0, count: 1024)
        let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw .transport(n == 0 ? "the peripheral closed the connection" : "recv: \(errnoText())") }
        return Array(buf[0..<n])
    }

    /// BT_SECURITY of the link now (1 low: not encrypted, 2 medium: encrypted).
    var securityLevel: Int {
        var s = bt_security()
        var len = socklen_t(MemoryLayout<bt_security>.size)
        return getsockopt(fd, SOL_BLUETOOTH, BT_SECURITY, &s, &len) == 0 ? Int(s.level) : 0
    }
}

/// Parses "AA:BB:CC:DD:EE:FF" into the little-endian bytes the kernel takes.
func bluetoothAddress(_ s: String) -> [UInt8]? {
    let parts = s.split(separator: ":").compactMap { UInt8($0, radix: 16) }
    return parts.count == 6 ? parts.reversed() : nil
}

/// `guest-ble-phone --index N --peer ADDRESS [--security low|medium] [--expect-refusal]`: the
/// phone's side on the second virtual controller (tools/kernel-loop/guest-ble.sh). Sets hciN up
/// as a central (LE, bondable, NoInputNoOutput), connects to the peer's ATT channel, asking the
/// kernel for an encrypted link with `--security medium` (the kernel pairs, SMP Just Works),
/// discovers the DeskPet service, subscribes to events, writes a real `hello` frame to the
/// command characteristic and reassembles the `welcome` frame from the notifications; then reads
/// the state characteristic and writes Current Time back. `--expect-refusal`: on an unencrypted
/// link the command write must be refused with Insufficient Authentication.
func blePhone(_ args: inout [String]) throws -> Int32 {
    guard let index = option("--index", &args).flatMap({ UInt16($0) }),
          let peerText = option("--peer", &args), let peer = bluetoothAddress(peerText) else {
        throw UsageError(description: "guest-ble-phone needs --index N --peer AA:BB:CC:DD:EE:FF")
    }
    let level: UInt8 = option("--security", &args) == "medium" ? 2 : 1
    let expectRefusal = flag("--expect-refusal", &args)
    var failures = 0
    func check(_ ok: Bool, _ what: String) { printLine("\(ok ? "ok  " : "FAIL") \(what)"); if !ok { failures += 1 } }

    // The phone's OS answers the kernel's "confirm this Just Works pairing?" (User Confirmation
    // Request on the mgmt socket; kernels since 2024 ask the initiator too): BLEAdapter.poll does.
    let adapter = try BLEAdapter(index: index, keysPath: nil)
    let mgmt = adapter.mgmt
    for c in [MgmtCommand.setLowEnergy(index, true), .setBondable(index, true), .setIOCapability(index, 3), .setPowered(index, true)] {
        try mgmt.require(c)
    }
    // Secure Connections like a current phone (the kernel does the P-256 part itself).
    let sc = try mgmt.run(.setSecureConnections(index, 1))
    printLine("     hci\(index) Set Secure Connections: \(MgmtSocket.statusName(sc.status))")
    let info = try mgmt.require(.readInfo(index))
    let own = Array(info.prefix(6))

    let s = socket(AF_BLUETOOTH, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), BTPROTO_L2CAP)
    guard s >= 0 else { throw UsageError(description: "L2CAP socket: \(errnoText())") }
    let bearer = L2CAPBearer(fd: s)
    func address(_ b: [UInt8]) -> sockaddr_l2 {
        var a = sockaddr_l2()
        a.l2_family = sa_family_t(AF_BLUETOOTH)
        a.l2_cid = 4
        a.l2_bdaddr_type = UInt8(BDADDR_LE_PUBLIC)
        withUnsafeMutableBytes(of: &a.l2_bdaddr) { for i in 0..<6 { $0[i] = b[i] } }
        return a
    }
    var local = address(own)
    guard withUnsafePointer(to: &local, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_l2>.size)) } }) == 0 else {
        throw UsageError(description: "bind hci\(index): \(errnoText())")
    }
    var sec = bt_security()
    sec.level = level
    guard setsockopt(s, SOL_BLUETOOTH, BT_SECURITY, &sec, socklen_t(MemoryLayout<bt_security>.size)) == 0 else {
        throw UsageError(description: "BT_SECURITY: \(errnoText())")
    }
    var remote = address(peer)
    let t0 = SystemClock().monotonicNs
    guard withUnsafePointer(to: &remote, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_l2>.size)) } }) == 0
            || errno == EINPROGRESS else {
        throw UsageError(description: "connect to \(peerText): \(errnoText())")
    }
    // With BT_SECURITY medium the kernel pairs (or re-encrypts with a stored key) before the
    // connection completes; meanwhile the mgmt socket's confirmation requests are answered.
    var waited = 0, connected = false
    while waited < 300 {
        var fds = [pollfd(fd: connected ? -1 : s, events: Int16(POLLOUT), revents: 0), pollfd(fd: mgmt.fd, events: Int16(POLLIN), revents: 0)]
        _ = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, 2, 100) }
        try adapter.poll()
        if fds[0].revents != 0 {
            var err: Int32 = 0
            var len = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len)
            guard err == 0 else { throw UsageError(description: "connect to \(peerText): \(errnoText(err)) (pairing confirmed \(adapter.confirmedPairings)×)") }
            connected = true
        }
        if connected && bearer.securityLevel >= Int(level) { break }
        waited += 1
    }
    let ms = (SystemClock().monotonicNs - t0) / 1_000_000
    check(bearer.securityLevel >= Int(level), "connected to \(peerText) from hci\(index) in \(ms) ms, BT_SECURITY \(bearer.securityLevel) (asked \(level)); "
          + "Just Works confirmations answered on this side: \(adapter.confirmedPairings)")

    let client = GATTClient(bearer: bearer)
    do throws(GATTClientError) {
        let serverMTU = try client.exchangeMTU(185)
        check(client.mtu >= 23, "Exchange MTU: ours 185, the device's \(serverMTU), in use \(client.mtu)")
    } catch {
        // The MTU is exchanged once per ATT bearer (the LE link): a client that comes while an
        // earlier one's link is still up is told so; it keeps the default.
        guard case .att(let e) = error, e.error.rawValue == 0x06 else { throw error }
        check(true, "Exchange MTU: already exchanged on this link (Request Not Supported); in use \(client.mtu)")
    }
    guard let service = try client.findPrimaryService(DeskPetUUID.service) else { check(false, "the DeskPet service"); return 1 }
    let chars = try client.discoverCharacteristics(service.start, service.end)
    guard let command = chars.first(where: { $0.uuid == DeskPetUUID.command }), let event = chars.first(where: { $0.uuid == DeskPetUUID.event }),
          let state = chars.first(where: { $0.uuid == DeskPetUUID.state }) else { check(false, "the DeskPet characteristics"); return 1 }
    let descriptors = try client.discoverDescriptors(event.valueHandle + 1, service.end)
    guard let cccd = descriptors.first(where: { $0.type == BluetoothUUID.bit16(0x2902) })?.handle else { check(false, "the event CCCD"); return 1 }
    check(true, "DeskPet service \(service.start)-\(service.end): command 0x\(String(command.valueHandle, radix: 16)), event 0x\(String(event.valueHandle, radix: 16)) (CCCD 0x\(String(cccd, radix: 16))), state 0x\(String(state.valueHandle, radix: 16))")
    try client.subscribe(cccd: cccd)

    let hello = Frame.encode(Array(#"{"type":"hello","version":1,"client":"vm-phone"}"#.utf8))
    func writeHello() throws(GATTClientError) {
        if hello.count <= Int(client.mtu) - 3 { try client.write(command.valueHandle, hello) } else { try client.writeLong(command.valueHandle, hello) }
    }
    if expectRefusal {
        do throws(GATTClientError) {
            try writeHello()
            check(false, "an unencrypted command write was accepted")
        } catch {
            if case .att(let e) = error { check(e.error.rawValue == 0x05, "unencrypted command write refused: \(e.error) (want 0x05 Insufficient Authentication)") }
            else { check(false, "unencrypted command write: \(error)") }
        }
        return failures == 0 ? 0 : 1
    }
    try writeHello()
    check(true, "hello written (\(hello.count) bytes) to 0x\(String(command.valueHandle, radix: 16))")
    var decoder = FrameDecoder()
    var bodies: [[UInt8]] = []
    var chunks = 0
    while bodies.isEmpty {
        let v = try client.waitForValue()
        guard v.handle == event.valueHandle else { continue }
        chunks += 1
        bodies += try decoder.feed(v.value)
    }
    let text = String(decoding: bodies[0], as: UTF8.self)
    check(text.contains(#""type":"welcome""#) && text.contains(#""paired":false"#),
          "welcome in \(chunks) notification\(chunks == 1 ? "" : "s"): \(text.prefix(120))")
    let st = String(decoding: try client.readLong(state.valueHandle), as: UTF8.self)
    check(st.contains(#""type":"state""#), "state characteristic: \(st.prefix(100))")
    let now = try client.read(0x0017)
    check(now.count == 10, "Current Time: \(now.map { String($0) }.joined(separator: " "))")
    try client.write(0x0017, now)
    check(true, "Current Time written back (the daemon set its clock)")
    return failures == 0 ? 0 : 1
}
