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
    let (link, adapter, seconds, log) = try startPeripheral(&args, pduBytesShown: 24)
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
