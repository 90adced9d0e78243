#if canImport(Glibc)
import Glibc
#endif
import CLinux
import FoundationEssentials
import PetCore
import PetDevice
import PetLink
import PetSim
import PetStore
import PetUI
import PetLinux

// deskpet-crashtest: the pieces of the kill test (tools/kill-test.sh) and the power-cut test
// (tools/kernel-loop/guest-power-cut.sh). docs/reliability.md.
//
//   seed DIR TOKEN        a new journal in DIR with phone-1 paired to TOKEN (64 hex)
//   writer DIR SOCK       the device: the same DeviceLoop, PetApp, LinkService and SocketLink as the
//                         daemon, on a headless panel and no buttons, serving unix:SOCK. On SIGTERM it
//                         stops, writes its live state to DIR/live-state.json and exits 0.
//   client SOCK TOKEN ACKS PREFIX STOPFILE
//                         the phone: sends task.create PREFIX-N / task.complete, pipelined, and
//                         retries every command without a reply — same id — through any number of
//                         lost connections, until STOPFILE exists and every command sent has a reply.
//                         Each reply is appended to ACKS ("ack ID SEQ DUP end") with one write(2)
//                         before the next command is counted as done. --retry FILE: ids of an
//                         earlier run without a reply, sent first with the same ids; --log-sent:
//                         "sent ID" lines too, before each command first goes out.
//   verify DIR            replay == live: the journal folded from its first event, the journal opened
//                         as the device opens it (snapshot + tail) and DIR/live-state.json (when
//                         present) must be the same state.

let usage = """
usage: deskpet-crashtest seed DIR TOKEN
       deskpet-crashtest writer DIR SOCK [--snapshot-every N]
       deskpet-crashtest client SOCK TOKEN ACKS PREFIX STOPFILE [--window N] [--retry FILE] [--log-sent]
       deskpet-crashtest verify DIR
(docs/reliability.md)
"""

func say(_ s: String, fd: Int32 = 1) {
    let line = Array((s + "\n").utf8)
    _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

func fail(_ s: String) -> Never {
    say("deskpet-crashtest: \(s)", fd: 2)
    exit(1)
}

func nowInstant() -> Instant { Instant(floorDiv(SystemClock().wallMs, 1000)) }

var args = Array(CommandLine.arguments.dropFirst())
guard let command = args.first else { say(usage, fd: 2); exit(2) }
args.removeFirst()

@MainActor func option(_ name: String, default d: Int) -> Int {
    guard let i = args.firstIndex(of: name) else { return d }
    guard i + 1 < args.count, let n = Int(args[i + 1]), n > 0 else { fail("\(name) needs a positive number") }
    args.removeSubrange(i...(i + 1))
    return n
}

// MARK: - seed

func seed(dir: String, token: String) {
    guard let bytes = Hex.decode(token), bytes.count == 32 else { fail("TOKEN must be 64 hex digits") }
    do {
        try makeDirectories(dir, mode: 0o700)
        let store = try EventStore(path: dir + "/deskpet.db")
        let app = try PetApp(store: store, now: nowInstant(), zone: "UTC")
        let pair = Action.phone(.pair(id: app.state.phones.nextID, name: "crashtest", tokenHash: Hex.encode(SHA256.hash(bytes))))
        _ = try app.handle(Command(id: "crashtest-pair", at: nowInstant(), action: pair)).get()
        store.close()
        say("seeded \(dir)/deskpet.db: \(app.state.eventCount) events, phone-1 paired")
    } catch { fail("seed: \(error)") }
}

// MARK: - writer

func writer(dir: String, sock: String, snapshotEvery: Int) -> Never {
    var signals = sigset_t()
    sigemptyset(&signals)
    for s in [SIGTERM, SIGINT] { sigaddset(&signals, s) }
    sigprocmask(SIG_BLOCK, &signals, nil)
    let signalFD = signalfd(-1, &signals, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
    guard signalFD >= 0 else { fail("signalfd: \(errnoText())") }

    let clock = SystemClock()
    let app: PetApp
    do {
        let store = try EventStore(path: dir + "/deskpet.db")
        app = try PetApp(store: store, now: Instant(floorDiv(clock.wallMs, 1000)), zone: "UTC", snapshotEvery: snapshotEvery)
    } catch { fail("writer: journal: \(error)") }
    let link: SocketLink
    do { link = try SocketLink(parsing: "unix:" + sock) } catch { fail("writer: link: \(error)") }
    // A panel nobody looks at: no frame is ever drawn (the writer is about the journal).
    let hardware = Hardware(clock: clock, inputs: [], panel: HeadlessPanel(profile: .square240, presentation: .lookedAt), link: link)
    let loop = DeviceLoop(app: app, hardware: hardware, profile: .square240, layout: .threeButtons,
                          boot: false, frameIntervalMs: nil)
    loop.link = LinkService()
    var stop = false
    let error = loop.run(alsoWaitOn: [signalFD]) {
        var info = signalfd_siginfo()
        while read(signalFD, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size { stop = true }
        return stop
    }
    if let error { fail("writer stopped: \(error)") }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
        let body = try encoder.encode(loop.app.state)
        try writeFile(dir + "/live-state.json", Array(body), mode: 0o600)
    } catch { fail("writer: live state: \(error)") }
    loop.app.store.close()
    say("writer stopped: \(loop.app.state.eventCount) events, live state written")
    exit(0)
}

// MARK: - client

/// The phone's queue: commands in id order; those without a reply are sent again (same id) after
/// every reconnect.
func client(sock: String, token: String, acks: String, prefix: String, stopFile: String, window: Int,
            retry: [String], logSent: Bool) -> Never {
    let ackFD = open(acks, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard ackFD >= 0 else { fail("client: \(acks): \(errnoText())") }
    var pending: [QueuedCommand] = []   // sent or to be sent, no reply yet (in order)
    // Commands of an earlier run that had no reply, rebuilt from their ids (TASK-c creates TASK,
    // TASK-d completes it): sent first, with the same ids.
    for id in retry {
        let task = String(id.dropLast(2))
        if id.hasSuffix("-c") { pending.append(QueuedCommand(id: id, name: "task.create", fields: ["task": task, "title": "Crash test"])) }
        else if id.hasSuffix("-d") { pending.append(QueuedCommand(id: id, name: "task.complete", fields: ["task": task])) }
    }
    var logged = Set<String>()
    var next = 1
    var acked = 0, duplicates = 0, connects = 0, lost = 0, resent = 0
    var refused: [String] = []
    func stopping() -> Bool { access(stopFile, F_OK) == 0 }
    func refill() {
        // Each task is created, then completed: two commands, two ids.
        while pending.count < window * 2, !stopping() {
            let task = "\(prefix)-\(next)"
            pending.append(QueuedCommand(id: "\(task)-c", name: "task.create", fields: ["task": task, "title": "Crash test \(next)"]))
            pending.append(QueuedCommand(id: "\(task)-d", name: "task.complete", fields: ["task": task]))
            next += 1
        }
    }
    let address = LinkAddress.unix(path: sock)
    var wasSent = Set<String>()
    while true {
        refill()
        if pending.isEmpty { break }
        let c: LinkClient
        do { c = try LinkClient(address: address, timeoutSeconds: 10) } catch {
            usleep(5_000); continue   // the device is restarting
        }
        connects += 1
        do {
            try c.hello(token: token, client: "crashtest")
            while !pending.isEmpty {
                let batch = Array(pending.prefix(window))
                for q in batch where wasSent.contains(q.id) { resent += 1 }
                for q in batch { wasSent.insert(q.id) }
                if logSent {
                    let new = batch.filter { logged.insert($0.id).inserted }
                    if !new.isEmpty { say(new.map { "sent \($0.id)" }.joined(separator: "\n"), fd: ackFD) }
                }
                try c.pipeline(batch, window: window) { (q, outcome) throws(LinkClientError) in
                    switch outcome {
                    case .reply(let o):
                        let dup = o["duplicate"] == .bool(true)
                        let seq = o["seq"]?.int64 ?? -1
                        say("ack \(q.id) \(seq) \(dup ? 1 : 0) end", fd: ackFD)
                        acked += 1
                        if dup { duplicates += 1 }
                    case .refused(let code, _):
                        if !outcome.isFinal { throw .device(code: code, message: "not final", id: q.id) }
                        refused.append("\(q.id):\(code)")
                        say("refused \(q.id) \(code) end", fd: ackFD)
                    }
                    pending.removeFirst()
                    wasSent.remove(q.id)
                    logged.remove(q.id)
                }
                c.clearRecorded()
                refill()
            }
        } catch {
            lost += 1
        }
        c.close()
    }
    close(ackFD)
    say("client: \(acked) replies (\(duplicates) duplicate: applied before a lost reply), \(refused.count) refused, \(connects) connections, \(lost) lost, \(resent) commands sent again")
    if !refused.isEmpty { say("client: refused: \(refused.prefix(10).joined(separator: " "))"); exit(1) }
    exit(0)
}

// MARK: - verify

/// The top-level fields of two states' JSON that differ (for a failure message).
func differingFields(_ a: PetState, _ b: PetState) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let x = try? encoder.encode(a), let y = try? encoder.encode(b),
          let dx = try? JSONDecoder().decode([String: JSONValue].self, from: x),
          let dy = try? JSONDecoder().decode([String: JSONValue].self, from: y) else { return "?" }
    return Set(dx.keys).union(dy.keys).sorted().filter { dx[$0] != dy[$0] }.joined(separator: ", ")
}

func verify(dir: String) -> Never {
    let zones = ZoneDatabase()
    let decoder = JSONDecoder()
    if let key = DayClock.zoneLookupKey { decoder.userInfo[key] = zones.lookup }
    do {
        let store = try EventStore(path: dir + "/deskpet.db")
        let rows = try store.events()
        var events: [Event] = []
        for r in rows { events.append(try JournalCodec.event(r, decoder: decoder)) }
        let full = try Engine(journal: events, zones: zones.lookup).state
        let opened = try PetApp(store: store, zones: zones, now: full.now).state
        guard full == opened else { fail("verify: the journal folded from its first event and the journal opened from its snapshot differ") }
        var what = "full replay == snapshot + tail"
        if let live = readFile(dir + "/live-state.json", limit: 1 << 28) {
            // The whole state is fold(journal) + advance(to: now): the writer's clock moved on after
            // its last event, and anything due by then must already be in the journal.
            let state = try decoder.decode(PetState.self, from: Data(live))
            var replayed = try Engine(journal: events, zones: zones.lookup)
            let due = replayed.advance(to: state.now)
            guard due.isEmpty else { fail("verify: \(due.count) events were due by the writer's last instant but are not in the journal") }
            guard state == replayed.state else {
                fail("verify: the replayed state differs from the live state the writer had when it stopped (fields: \(differingFields(state, replayed.state)))")
            }
            what += " == live"
        }
        let snapshot = try store.latestSnapshot(format: PetApp.snapshotFormat)
        store.close()
        say("verify: \(rows.count) events, \(full.tasks.count) tasks, coins \(full.coins), xp \(full.xp); \(what) (newest snapshot at \(snapshot.map { String($0.seq) } ?? "none"))")
    } catch { fail("verify: \(error)") }
    exit(0)
}

switch command {
case "seed" where args.count == 2: seed(dir: args[0], token: args[1])
case "writer":
    let every = option("--snapshot-every", default: 2000)
    guard args.count == 2 else { say(usage, fd: 2); exit(2) }
    writer(dir: args[0], sock: args[1], snapshotEvery: every)
case "client":
    let window = option("--window", default: 16)
    var retry: [String] = []
    if let i = args.firstIndex(of: "--retry"), i + 1 < args.count {
        guard let bytes = readFile(args[i + 1], limit: 1 << 24) else { fail("--retry \(args[i + 1]): cannot be read") }
        retry = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        args.removeSubrange(i...(i + 1))
    }
    let logSent = args.contains("--log-sent")
    args.removeAll { $0 == "--log-sent" }
    guard args.count == 5 else { say(usage, fd: 2); exit(2) }
    client(sock: args[0], token: args[1], acks: args[2], prefix: args[3], stopFile: args[4], window: window,
           retry: retry, logSent: logSent)
case "verify" where args.count == 1: verify(dir: args[0])
default: say(usage, fd: 2); exit(2)
}
