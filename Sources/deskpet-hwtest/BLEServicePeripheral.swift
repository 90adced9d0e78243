import Glibc
import PetCore
import PetDevice
import PetLink
import PetLinux
import PetSim

/// `guest-ble-service [--index N] [--seconds S] [--keys FILE] [--open]`: like
/// `guest-ble-peripheral`, but the frames are served by the real `LinkService` on a simulated
/// device (in-memory journal, virtual clock), so a phone (`deskpetctl --ble`) can pair, send
/// commands, watch and sync over the real kernel stack (tools/kernel-loop/guest-ble-ctl.sh).
/// Prints `pairing code NNNNNN` whenever the device shows a new code. Without `--open` commands
/// need an encrypted link (the phone's BT_SECURITY medium makes the kernels pair Just Works).
func bleServicePeripheral(_ args: inout [String]) throws -> Int32 {
    let index = option("--index", &args).flatMap { UInt16($0) }
    let seconds = option("--seconds", &args).flatMap { Int($0) } ?? 60
    let keys = option("--keys", &args)
    let open = args.contains("--open")
    let t0 = SystemClock().monotonicNs
    func log(_ s: String) {
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
        log("client \(client) \(received ? "req" : "rsp") \(pdu.prefix(24).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " "))\(pdu.count > 24 ? " … (\(pdu.count) bytes)" : "")")
    }
    try link.listen()
    let sim = try SimDevice(dbPath: nil, start: Instant(1_772_434_800), zone: "UTC", boot: false, link: link, linkService: LinkService())
    // No bluetoothd in the VM: answer the kernel's Just Works confirmations for hci0 here.
    let agent = try JustWorksAgent(index: adapter.index)
    log("listening on ATT (CID 4), serving LinkService")
    let end = SystemClock().monotonicNs + UInt64(seconds) * 1_000_000_000
    var shown: String?
    while SystemClock().monotonicNs < end {
        try sim.serveLink(waitingUpToMs: 50)
        if agent.poll() > 0 { log("agent: " + agent.log.joined(separator: "; ")) }
        if sim.ui.pairingCode != shown {
            shown = sim.ui.pairingCode
            if let shown { log("pairing code \(shown)") }
        }
    }
    log("done")
    return 0
}
