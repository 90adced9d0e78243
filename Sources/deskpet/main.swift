#if canImport(Glibc)
import Glibc
#endif
import CLinux
import PetCore
import PetDevice
import PetLink
import PetLinux
import PetStore
import PetUI

// deskpet: the device daemon. The same DeviceLoop as the simulator, on the Linux backends a board
// file names. docs/daemon.md.

let usage = """
deskpet: the DeskPet device daemon — the pet on a real board (buttons, display, buzzer, LED),
or headless on a simulator board (sim-240x240, …: no devices; the link and SIGUSR1 frame dumps work).

Usage:
  deskpet run --board BOARD [--data DIR] [--zone AREA/CITY] [--fps N] [--link ADDR]... [--link-remote]
              [--web HOST:PORT [--web-root DIR] [--web-origin ORIGIN]...]
  deskpet check --board BOARD
  deskpet export [--data DIR] [FILE]
  deskpet boards
  deskpet --help | --version

Commands:
  run      runs the pet until SIGTERM or SIGINT (then the journal is closed and the panel blanked).
           Under systemd (Type=notify) it reports READY once the first frame is on the panel, and
           pings the watchdog when WatchdogSec= is set.
  check    validates the board file and probes every device it names (device nodes, GPIO chips and
           lines, permissions) without driving any of them; exit status 1 if something is missing,
           with what to do about it.
  export   writes every journal row exactly as stored (JSON, mode 0600; stdout without FILE), also
           when a row can't be read (recovery mode, docs/storage.md)
  boards   lists the board files found and the built-in simulator boards (BOARD can be a path or
           one of these names).

Options:
  --board BOARD   a board file (boards/*.board) or its name; names are looked up in ./boards,
                  /etc/deskpet/boards and /usr/share/deskpet/boards, then among the built-in
                  simulator boards (sim-240x240, …), which run headless
  --data DIR      where the journal lives (default /var/lib/deskpet; created owner-only)
  --zone ZONE     the time zone of a new pet (default: the system's, from /etc/localtime)
  --fps N         animation frames per second while the screen is on (default 10; 0 = none;
                  e-paper never animates)
  --link ADDR     where phones connect (docs/protocol.md): ble (Bluetooth LE on the first
                  adapter; ble:N for hciN; docs/ble.md), unix:PATH, tcp:HOST:PORT, or none
                  (default unix:DATA/link.sock, owner-only). Repeat it to serve several at once
                  (--link ble --link unix:/run/deskpet.sock). TCP listens on loopback only unless
                  --link-remote is given too. BLE needs bluetoothd stopped and CAP_NET_ADMIN
  --link-remote   allow --link tcp: (and --web) on an address other machines can reach
  --web ADDR      also serve the companion web app and its WebSocket on ADDR (127.0.0.1:PORT;
                  docs/companion.md): the same phone protocol, for a browser on this machine
  --web-root DIR  the web app's folder (default /usr/share/deskpet/web; none: /link only)
  --web-origin O  also let pages from origin O (https://host) open the WebSocket; repeatable

Logs go to stderr (with journald priorities under systemd) and never contain personal text.
SIGUSR1 (debugging, tests): writes what the panel shows to DATA/frame.dump (docs/kernel-loop.md).
Board format: docs/boards.md. Wiring guides: docs/boards/.
"""

let version = DeskPetVersion.string
let log = SystemLog.forStderr()

func fail(_ message: String, status: Int32 = 1) -> Never {
    log.error(message)
    exit(status)
}

// MARK: - Arguments

var args = Array(CommandLine.arguments.dropFirst())
if args.isEmpty || args.contains("--help") || args.contains("-h") { print(usage); exit(args.isEmpty ? 2 : 0) }
if args.contains("--version") { print("deskpet \(version)"); exit(0) }
let command = args.removeFirst()
var positionalArgs: [String] = []
var boardArg: String?, dataDir = "/var/lib/deskpet", zoneArg: String?, fps = 10, linkArgs: [String] = [], linkRemote = false
var webArg: String?, webRootArg: String?, webOrigins: [String] = []
while !args.isEmpty {
    let a = args.removeFirst()
    func value() -> String {
        guard !args.isEmpty else { fail("\(a) needs a value (see deskpet --help)", status: 2) }
        return args.removeFirst()
    }
    switch a {
    case "--board": boardArg = value()
    case "--data": dataDir = value()
    case "--zone": zoneArg = value()
    case "--link":
        let v = value()
        if v.hasPrefix("ble:"), UInt16(v.dropFirst(4).drop { "hci".contains($0) }) == nil {
            fail("--link \(v): ble, or ble:N for the adapter hciN", status: 2)
        }
        linkArgs.append(v)
    case "--link-remote": linkRemote = true
    case "--web": webArg = value()
    case "--web-root": webRootArg = value()
    case "--web-origin": webOrigins.append(value())
    case "--fps":
        let v = value()
        guard let n = Int(v), (0...60).contains(n) else { fail("--fps \(v): a number from 0 to 60", status: 2) }
        fps = n
    default:
        guard command == "export", !a.hasPrefix("-") else { fail("unknown option '\(a)' (see deskpet --help)", status: 2) }
        positionalArgs.append(a)
    }
}

/// The board `--board` names: a path, or a name in BoardLookup's search path (./boards,
/// /etc/deskpet/boards, /usr/share/deskpet/boards) or among the built-in simulator boards.
func loadBoard(_ arg: String) -> Board {
    do { return try BoardLookup.load(arg) } catch {
        switch error {
        case .noSuchBoard(let name, let searched):
            fail("no board named '\(name)' in \(searched.joined(separator: ", ")) (deskpet boards lists them)", status: 2)
        case .unreadable, .invalid: fail("\(error)", status: 2)
        }
    }
}

/// The system's zone: /etc/localtime's link target (…/zoneinfo/Area/City), else TZ, else UTC.
func systemZone() -> String {
    var buf = [CChar](repeating: 0, count: 512)
    let n = readlink("/etc/localtime", &buf, buf.count - 1)
    if n > 0 {
        let target = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let parts = target.split(separator: "/", omittingEmptySubsequences: true)
        if let i = parts.lastIndex(of: "zoneinfo"), i + 1 < parts.count { return parts[(i + 1)...].joined(separator: "/") }
    }
    if let tz = getenv("TZ").map({ String(cString: $0) }), !tz.isEmpty, !tz.hasPrefix(":") { return tz }
    return "UTC"
}

switch command {
case "boards":
    for (name, path) in BoardLookup.files() { print("\(name)\t\(path)") }
    for n in Board.builtInNames { print("\(n)\t(built in: simulator board, headless)") }
    exit(0)
case "export":
    // The journal's rows exactly as stored (docs/storage.md, recovery mode): works whether or not
    // every row can be read, with the daemon running or stopped.
    guard positionalArgs.count <= 1 else { fail("export takes at most FILE (see deskpet --help)", status: 2) }
    let journalPath = dataDir + "/deskpet.db"
    guard access(journalPath, F_OK) == 0 else { fail("export: no journal at \(journalPath)") }
    do {
        // Only a regular file (or a new one) or standard output, every write checked, streamed page
        // by page (docs/export.md).
        let problem = try JournalRecovery.streamJournal(at: journalPath, to: positionalArgs.first)
        if let problem { log.warning("export: journal " + (problem.seq.map { "row \($0)" } ?? "rows") + " can't be read: \(problem.detail)") }
        if let file = positionalArgs.first { log.info("exported the journal's rows to \(file)") }
    } catch { fail("export: \(error)") }
    exit(0)
case "check":
    guard let boardArg else { fail("check needs --board (see deskpet --help)", status: 2) }
    let board = loadBoard(boardArg)
    print("board \(board.name): valid (\(board.display.controller) \(board.display.width)x\(board.display.height), \(board.buttons.layout.rawValue) buttons)")
    let report = BoardProbe.check(board)
    for line in report.lines { print(line) }
    exit(report.ok ? 0 : 1)
case "run":
    break
default:
    fail("unknown command '\(command)' (run, check or boards; see deskpet --help)", status: 2)
}

// MARK: - run

guard let boardArg else { fail("run needs --board (see deskpet --help)", status: 2) }
let board = loadBoard(boardArg)
umask(0o077)   // the journal and its WAL are the owner's only

// Signals arrive on a descriptor the loop waits on, so a stop never waits for the next deadline.
var signals = sigset_t()
sigemptyset(&signals)
for s in [SIGTERM, SIGINT, SIGHUP, SIGUSR1] { sigaddset(&signals, s) }
sigprocmask(SIG_BLOCK, &signals, nil)
let signalFD = signalfd(-1, &signals, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
guard signalFD >= 0 else { fail("cannot create a signal descriptor: \(errnoText())") }

// One process per journal (docs/daemon.md): a second daemon stops before it opens the board.
do { try EventStore.checkNoOtherWriter(path: dataDir + "/deskpet.db") } catch { fail("journal: \(error)") }

let clock = SystemClock()
var hardware: Hardware
do { hardware = try BoardHardware.open(board, clock: clock) } catch { fail("\(error)") }
// The phone may set the system clock (time.set; refused without CAP_SYS_TIME).
hardware.settableClock = clock
// Only now that the board's devices opened: a refused start leaves nothing behind.
do { try makePrivateDirectory(dataDir) } catch { fail("data folder: \(error)") }

let store: EventStore
// Opened without the whole-file check, which reads every page and so grows with the journal's
// history: it runs after the first frame, beside the loop (docs/storage.md, "Integrity").
var journalOptions = EventStore.Options()
journalOptions.verifyOnOpen = false
do { store = try EventStore(path: dataDir + "/deskpet.db", options: journalOptions) } catch { fail("journal: \(error)") }
let app: PetApp
// A new pet (an empty journal) meets its owner with the first run.
let newPet: Bool
do { newPet = try store.eventCount() == 0 } catch { fail("journal: \(error)") }
do {
    switch try PetApp.openOrRecover(store: store, now: Instant(floorDiv(clock.wallMs, 1000)), zone: zoneArg ?? systemZone()) {
    case .success(let opened): app = opened
    case .failure(let recovery): runRecoveryMode(recovery)
    }
} catch { fail("journal: \(error)") }

/// Recovery mode (docs/storage.md): a journal row cannot be read or folded. The device shows the
/// problem on the screen, writes the raw export to DATA/recovery-export.json (owner-only), serves
/// no link (so nothing can change the journal), tells systemd it is ready, and waits for SIGTERM:
/// it never exits with a failure, so systemd does not restart it into a crash loop.
@MainActor func runRecoveryMode(_ recovery: JournalRecovery) -> Never {
    log.error("recovery mode: journal " + (recovery.seq.map { "row \($0)" } ?? "rows") + " can't be read: \(recovery.detail)")
    do { try recovery.show(on: hardware, width: board.profile.width, height: board.profile.height) } catch {
        log.warning("recovery mode: the panel: \(error)")
    }
    do {
        try writeFile(dataDir + "/recovery-export.json", try recovery.export(store: store), mode: 0o600)
        log.info("recovery mode: every journal row exported to \(dataDir)/recovery-export.json (also: deskpet export)")
    } catch { log.warning("recovery mode: export: \(error)") }
    let notify = SystemdNotify()
    try? notify.send([.ready, .status("recovery mode: journal " + (recovery.seq.map { "row \($0)" } ?? "rows") + " can't be read")])
    var info = signalfd_siginfo()
    while true {
        _ = try? PollWait.wait(for: [signalFD], timeoutMs: -1)
        while read(signalFD, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            if Int32(info.ssi_signo) != SIGUSR1 {
                try? notify.send(.stopping)
                store.close()
                log.info("recovery mode: stopped (signal \(info.ssi_signo))")
                exit(0)
            }
        }
    }
}

// The phone links: BLE (docs/ble.md), TCP, Unix sockets; several at once behind a MultiLink.
let linkAddresses = (linkArgs.isEmpty ? ["unix:\(dataDir)/link.sock"] : linkArgs).filter { $0 != "none" }
var transports: [PhoneLink] = []
var ble: (link: BLELink, adapter: BLEAdapter, name: String)?
for address in linkAddresses {
    if address == "ble" || address.hasPrefix("ble:") {
        guard ble == nil else { fail("--link \(address): only one BLE adapter is served", status: 2) }
        var index: UInt16?
        if address != "ble" {
            let n = address.dropFirst(4).drop { $0 == "h" || $0 == "c" || $0 == "i" }
            guard let i = UInt16(n) else { fail("--link \(address): ble, or ble:N for the adapter hciN", status: 2) }
            index = i
        }
        if BluetoothDaemon.isRunning() { fail("--link ble: bluetoothd is running and holds the adapter: \(BluetoothDaemon.advice)") }
        do {
            let adapter = try BLEAdapter(index: index, keysPath: dataDir + "/ble-keys")
            let name = app.state.pet.name
            try adapter.setUp(name: name, serviceUUID: DeskPetUUID.service.littleEndianBytes)
            log.info("ble: hci\(adapter.index) \(adapter.address) set up: \(adapter.log.joined(separator: "; "))")
            var config = DeskPetGATTConfig(deviceName: name, hasBattery: board.hasBattery)
            config.firmware = version
            let link = try BLELink(server: GATTServer(config: config), adapter: adapter)
            try link.listen()
            ble = (link, adapter, name)
            transports.append(link)
        } catch {
            fail("--link ble: \(error)" + (BluetoothDaemon.isRunning() ? " (\(BluetoothDaemon.advice))" : ""))
        }
    } else {
        do { transports.append(try SocketLink(parsing: address, allowRemote: linkRemote)) } catch { fail("--link \(address): \(error)", status: 2) }
    }
}
// The companion web app and its WebSocket (docs/companion.md): one more transport.
if let webArg {
    var o = WebLink.Options()
    o.allowRemote = linkRemote
    o.origins = webOrigins
    o.webRoot = webRootArg ?? (access("/usr/share/deskpet/web/index.html", R_OK) == 0 ? "/usr/share/deskpet/web" : nil)
    do {
        let web = try WebLink(parsing: webArg, options: o)
        web.log = { log.info($0) }
        transports.append(web)
        log.info("web app on http://\(web.host):\(web.port)/ (files: \(o.webRoot ?? "none")), WebSocket /link")
    } catch { fail("--web \(webArg): \(error)", status: 2) }
}
if transports.count == 1 { hardware.link = transports[0] }
else if transports.count > 1 {
    do { hardware.link = try MultiLink(transports) } catch { fail("--link: \(error)") }
}

let loop = DeviceLoop(app: app, hardware: hardware, profile: board.profile, layout: board.layout,
                      debounceMs: board.debounceMs, boot: true,
                      frameIntervalMs: fps > 0 ? Int64(1000 / fps) : nil)
// The first run (docs/navigation.md, "First run") for a new pet, until it is done or skipped
// (journaled): the boot screen, then the first run; C skips it.
if newPet { loop.firstRun = true }

// The status strip's battery icon: only on boards with a battery (a power-supply reading).
if board.hasBattery { loop.batteryReader = { PowerSupply.batteryPercent().map { Int($0) } } }

let linkService = LinkService()
linkService.log = { log.info($0) }
if hardware.link != nil { loop.link = linkService; log.info("phone link listening on \((linkAddresses + (webArg.map { ["web:\($0)"] } ?? [])).joined(separator: ", "))") }
if let ble {
    // The state characteristic, Current Time (the clock as time.set sets it), the battery.
    linkService.serve(ble.link.server, loop: loop, batteryLevel: board.hasBattery ? { PowerSupply.batteryPercent() ?? 0 } : nil)
    // The owner renamed the pet: GAP Device Name and the advertised name follow (never logged).
    var advertised = ble.name
    loop.onEvents = { _, state in
        guard state.pet.name != advertised else { return }
        advertised = state.pet.name
        ble.link.server.deviceName = advertised
        do { try ble.adapter.rename(advertised, serviceUUID: DeskPetUUID.service.littleEndianBytes); log.info("ble: advertising the new name") }
        catch { log.warning("ble: the new name could not be advertised: \(error)") }
    }
}

// systemd: READY after the first frame, the watchdog pinged at half its interval.
let notify = SystemdNotify()
let pingEveryMs: Int64? = notify.watchdogIntervalUs.map { Int64(max(1000, $0 / 2)) / 1000 }
var nextPingMs = clock.wallMs
var reported = 0
var pairingsLogged = 0
var keysLogged = ble?.adapter.keys.longTermKeys.count ?? 0
loop.externalDeadlineMs = { pingEveryMs == nil ? nil : nextPingMs }
// A simulator board runs headless: the log is its screen, so the pairing code the screen shows is
// written there (on a real board the code is only ever on the panel).
var shownPairingCode: String?
loop.onWake = {
    if board.isSimulator, loop.ui.pairingCode != shownPairingCode {
        shownPairingCode = loop.ui.pairingCode
        if let code = shownPairingCode { log.info("pairing code (headless simulator board): \(code)") }
    }
    if let every = pingEveryMs, clock.wallMs >= nextPingMs {
        try? notify.send(.watchdog)
        nextPingMs = clock.wallMs + every
    }
    if let ble, ble.adapter.confirmedPairings > pairingsLogged || ble.adapter.keys.longTermKeys.count > keysLogged {
        pairingsLogged = ble.adapter.confirmedPairings
        keysLogged = ble.adapter.keys.longTermKeys.count
        log.info("ble: \(pairingsLogged) Just Works pairing\(pairingsLogged == 1 ? "" : "s") confirmed, \(keysLogged) long term key\(keysLogged == 1 ? "" : "s") stored in \(dataDir)/ble-keys")
    }
    // Every hardware failure since the last wake-up (the loop keeps the newest 16).
    if loop.hardwareErrorCount > reported {
        for e in loop.hardwareErrors.suffix(min(loop.hardwareErrors.count, loop.hardwareErrorCount - reported)) { log.warning("\(e)") }
        reported = loop.hardwareErrorCount
    }
}

// SIGUSR1: what the panel shows (the pipeline's last flushed surface, which the loop thread alone
// changes: no flush can be half done here) to DATA/frame.dump, written atomically. The picture may
// hold personal text, so it stays in the owner-only data folder with the journal.
var dumps = 0
@MainActor func dumpFrame() {
    dumps += 1
    let dump = FrameDump(surface: loop.pipeline.shown, frames: loop.pipeline.framesSent, dump: dumps,
                         screen: loop.ui.menu != nil ? "menu" : loop.ui.screen.rawValue)
    do { try writeFile(dataDir + "/frame.dump", dump.bytes, mode: 0o600) } catch { log.warning("frame dump: \(error)") }
    log.info("frame dump \(dumps): \(dump.width)x\(dump.height), \(dump.frames) frames sent, screen \(dump.screen)")
}

var stopSignal: Int32 = 0
var first = true
// The journal's integrity check (docs/storage.md, "Integrity") runs in the background once the
// first frame is up; its end wakes the loop through this eventfd.
let integrityFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
guard integrityFD >= 0 else { fail("cannot create an event descriptor: \(errnoText())") }
var integrity: IntegrityCheck?
var damaged: StoreError?
log.info("starting on board \(board.name): \(board.display.controller) \(board.profile.id), journal \(dataDir)/deskpet.db, \(app.state.eventCount) events")
let error = loop.run(alsoWaitOn: [signalFD, integrityFD]) {
    if first {
        first = false
        try? notify.send([.ready, .status("running on \(board.name)")])
        log.info("ready: first frame on the panel")
        let wake = integrityFD
        integrity = IntegrityCheck.start(path: dataDir + "/deskpet.db") { _ = eventfd_write(wake, 1) }
    }
    var count: eventfd_t = 0
    if eventfd_read(integrityFD, &count) == 0, let outcome = integrity?.outcome {
        switch outcome {
        case .intact: log.info("journal: integrity check passed")
        case .damaged(let e): damaged = e; return true
        }
    }
    var info = signalfd_siginfo()
    while read(signalFD, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
        if Int32(info.ssi_signo) == SIGUSR1 { dumpFrame() } else { stopSignal = Int32(info.ssi_signo) }
    }
    return stopSignal != 0
}
if let damaged {
    // The whole-file check found damage the start-up reads did not touch: recovery mode, as when a
    // row cannot be read at start (no link is served from here on: the transports close).
    loop.blankPanel()
    for t in transports {
        (t as? SocketLink)?.close()
        (t as? WebLink)?.close()
    }
    runRecoveryMode(JournalRecovery(seq: nil, detail: "integrity check: \(damaged)"))
}
try? notify.send(.stopping)
if let error { log.error("stopped: \(error)") } else { log.info("stopping (signal \(stopSignal))") }
loop.blankPanel()
app.store.close()
log.info("stopped: journal closed, panel blank")
exit(error == nil ? 0 : 1)
