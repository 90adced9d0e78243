import Glibc
import PetDevice
import PetLink
import PetLinux

/// What both guest peripherals share: the options `--index N --seconds S --keys FILE --open`, the
/// adapter set up through the mgmt socket, a `BLELink` listening on the ATT channel that logs every
/// PDU (at most `pduBytesShown` bytes of each), and a log with seconds since start.
func startPeripheral(_ args: inout [String], pduBytesShown: Int = .max) throws
    -> (link: BLELink, adapter: BLEAdapter, seconds: Int, log: (String) -> Void) {
    let index = option("--index", &args).flatMap { UInt16($0) }
    let seconds = option("--seconds", &args).flatMap { Int($0) } ?? 60
    let keys = option("--keys", &args)
    let open = args.contains("--open")
    let t0 = SystemClock().monotonicNs
    let log: (String) -> Void = { s in
        let ms = (SystemClock().monotonicNs - t0) / 1_000_000
        printLine("[\(ms / 1000).\(String(repeating: "0", count: 3 - String(ms % 1000).count))\(ms % 1000)] \(s)")
    }
    var config = DeskPetGATTConfig(deviceName: "Mochi")
    config.requireEncryption = !open
    let adapter = try BLEAdapter(index: index, keysPath: keys)
    try adapter.setUp(name: config.deviceName, serviceUUID: DeskPetUUID.service.littleEndianBytes)
    log("hci\(adapter.index) \(adapter.address): " + adapter.log.joined(separator: "; "))
    let link = try BLELink(server: GATTServer(config: config), adapter: adapter)
    link.recorder = { client, received, pdu in
        let hex = pdu.prefix(pduBytesShown).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
        log("client \(client) \(received ? "req" : "rsp") \(hex)\(pdu.count > pduBytesShown ? " … (\(pdu.count) bytes)" : "")")
    }
    try link.listen()
    return (link, adapter, seconds, log)
}

/// `guest-ble-peripheral [--index N] [--seconds S] [--keys FILE] [--open]`: the BLE link as a
/// peripheral on the real kernel stack (tools/kernel-loop/guest-ble.sh runs it in the VM): sets the
/// controller up through the mgmt socket, listens on the ATT channel, logs every PDU, and answers
/// each command frame with an event frame `{"echo":N}` (N = the frame's body length) as
/// notifications. `--open` lets commands through without encryption (to poke at the GATT server
/// alone; tools/kernel-loop/guest-ble.sh runs the real daemon with encryption instead).
func blePeripheral(_ args: inout [String]) throws -> Int32 {
    let (link, _, seconds, log) = try startPeripheral(&args)
    log("listening on ATT (CID 4)")
    let end = SystemClock().monotonicNs + UInt64(seconds) * 1_000_000_000
    var frames = 0
    while SystemClock().monotonicNs < end {
        var p = pollfd(fd: link.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, 200)
        for e in try link.receive() {
            switch e {
            case .connected(let c): log("client \(c) connected")
            case .disconnected(let c): log("client \(c) disconnected")
            case .frame(let f):
                frames += 1
                log("client \(f.client) frame of \(f.bytes.count) bytes")
                let body = Array("{\"echo\":\(f.bytes.count - 4)}".utf8)
                let n = body.count
                try link.send(LinkFrame(client: f.client, bytes: [0, 0, UInt8(n >> 8), UInt8(n & 0xFF)] + body))
            }
        }
    }
    log("done: \(frames) frames")
    return 0
}
