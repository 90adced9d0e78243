#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PetCore
import PetDevice
import PetSim
import PetStore
import PetUI
import PetLinux

let usage = """
deskpet-bench: DeskPet's benchmarks. Prints one JSON line per figure (docs/performance.md); progress goes to stderr.

Usage:
  deskpet-bench [--quick] [--only NAME[,NAME]]

Figures (NAME):
  latency     command -> durable store (WAL, synchronous=FULL) -> frame rendered, p50/p95/p99 over 10,000 commands
  year        simulated days per wall second for a scripted year (5 tasks + 3 habits a day), in memory and on disk;
              reminders shown within 1 s and never twice; storage written per day
  rss         peak RSS of this process after the scripted year
  coldstart   process start -> journal replayed -> first frame, median of 21 runs (new journal and a year's journal)
  sessions    cold_start_ms: open a journal written in 500 sessions of 100 events -> first command applied
              (median of 11), and the same journal without snapshots (as before the snapshot counter persisted);
              integrity_check_ms: the whole-file check the daemon runs after its first frame
  stats       every stats screen over five years of scripted history
  render      full-frame renders of the 240x240 home screen per second, and the same screen drawn with PIL
  buttons     button edge -> frame ready (p50/p95/p99), bytes the panel receives per interaction
  cpu         instructions per interaction under valgrind: DeskPet's path vs PIL + numpy + a full frame
  idle        the device loop on the real clock in poll(2) for a minute: CPU % asleep and awake (10 fps)
  wakeups     device-loop wake-ups per simulated idle hour: screen asleep (vs the core's own wake-ups),
              home awake with 10 fps animation and without
  link        command round trip over loopback TCP through the phone protocol, the durable commit
              included (p50/p95/p99 of 5,000), and 1000 queued commands synced back to back; then
              deskpetctl's own 'sync' of 1000 queued commands (also alone: --only ctl)
  websocket   command and ping round trips over the WebSocket (WebLink) on loopback, p50/p95/p99 of 5,000
              (the command's durable commit included)
  att         ATT PDUs each way and ATT round trips per typical command (task.create with a 30-character
              title, task.complete: the frame up, the pushed events, state and reply down as notifications)
              at MTU 23, 185 and 517, with write requests and with write commands (no radio: the GATT
              server session and the real link service)
  linkexport  64 exports of a ~4.4 MiB journal asked in one write over loopback TCP by a phone that reads
              promptly: the device loop's longest single step, exports arrived whole or refused busy,
              whether the connection survived
  catchup     seconds from power-on to the home screen after 10 years off (every day closed on its own) and
              1000 years off (older days closed as one stretch), events stored, peak RSS
  export      export_peak_rss: peak RSS of 'deskpet export' (streamed) of journals of 20,000 and 200,000 events
  bigjournal  journal_open_1m: a journal of 1,000,000 events (600k commands, 200k tasks) opened cold in a fresh
              process, without and with a snapshot: seconds and peak RSS; then export_peak_rss of it.
              Not run by default (synthesising the journal takes minutes): --only bigjournal
  circle      a circle of 1,000 members (docs/circles.md#scale): their retained reports decoded into a board,
              the week's leaderboards ranked, a challenge of all 1,000 settled; bytes a member downloads, peak RSS
  spi         bytes on the SPI bus per interaction for the ST7789 240x240 board (driver -> emulated
              controller, commands and windows included) over a scripted day, and the transfer time at 40 MHz

Options:
  --quick     fewer iterations (for a smoke test in CI)
  --help      this help
Build in release for real figures: swift run -c release deskpet-bench
"""

// MARK: - Small tools

func monoNs() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func progress(_ s: String) { printError("[bench] " + s) }

func emit(_ fields: [(String, String)]) {
    print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
    flushOutput()
}
func q(_ s: String) -> String { "\"\(s)\"" }
func f(_ d: Double, _ digits: Int = 3) -> String {
    var m = 1.0
    for _ in 0..<digits { m *= 10 }
    return "\((d * m).rounded() / m)"
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let i = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
    return sorted[i]
}

func tempDir() -> String {
    var template = Array("/tmp/deskpet-bench-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { buf -> String in
        guard let base = buf.baseAddress, let p = mkdtemp(base) else { return "/tmp" }
        return String(cString: p)
    }
}

func fileSize(_ path: String) -> Int {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : 0
}

/// Bytes this process handed to write()/pwrite() so far (/proc/self/io wchar): every byte SQLite
/// wrote to the journal, WAL and checkpoints, an upper bound of what reaches the flash.
func bytesWritten() -> Int {
    guard let text = try? readTextFile("/proc/self/io") else { return -1 }
    for line in text.split(separator: "\n") where line.hasPrefix("wchar:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    return -1
}

func peakRSSKiB() -> Int {
    guard let text = try? readTextFile("/proc/self/status") else { return -1 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    return -1
}

let start2026 = Instant(1_767_596_400) // Mon 2026-01-05 07:00 UTC = 08:00 in Berlin

func cmd(_ device: SimDevice, _ id: String, _ name: String, _ fields: [String: String]) throws -> Command {
    do {
        return try CommandParser.parse(name: name, fields: fields, id: id, at: device.now, clock: device.app.state.clock)
    } catch { throw AppError.domain(error) }
}

// MARK: - Figures

/// Command -> durable (WAL, FULL sync) -> frame rendered.
func benchLatency(n: Int) throws {
    let dir = tempDir()
    let device = try SimDevice(dbPath: dir + "/latency.db", start: start2026, zone: "Europe/Berlin")
    var samples: [Double] = []
    samples.reserveCapacity(n)
    var open: [String] = []
    for i in 0..<n {
        try device.run(until: device.now + 60)
        let c: Command
        if i % 2 == 0 || open.isEmpty {
            let id = "t\(i)"
            c = try cmd(device, "c\(i)", "task.create", ["task": id, "title": "Task number \(i)", "due": "+\(1 + i % 30)h",
                                                          "priority": ["low", "normal", "high"][i % 3], "estimate": "\(15 + i % 60)"])
            open.append(id)
        } else {
            c = try cmd(device, "c\(i)", "task.complete", ["task": open.removeFirst()])
        }
        let t0 = monoNs()
        try device.app.handle(c)   // durable before it returns
        device.render()            // frame ready for the panel
        samples.append(Double(monoNs() - t0) / 1e6)
        if i % 2000 == 1999 { progress("latency: \(i + 1)/\(n) commands") }
    }
    samples.sort()
    emit([("figure", q("command_to_frame_ms")), ("n", "\(n)"), ("p50", f(percentile(samples, 50))),
          ("p95", f(percentile(samples, 95))), ("p99", f(percentile(samples, 99))), ("max", f(samples.last ?? 0)),
          ("store", q("sqlite WAL synchronous=FULL")), ("target", q("p95<=10 p99<=20"))])
    for s in ["", "-wal", "-shm"] { removeFile(dir + "/latency.db" + s) }
    rmdir(dir)
}

/// A scripted year of daily life: every day 5 tasks (4 done — some early, some late — and one missed
/// every third day), 3 habits (each with a reminder time) plus the movement box (all checked on 6
/// days of 7), and a petting. The device stays on: reminders are shown at their time.
func scriptedYear(dbPath: String?, days: Int, options: EventStore.Options = EventStore.Options()) throws -> (seconds: Double, commands: Int, events: Int, device: SimDevice) {
    let device = try SimDevice(dbPath: dbPath, start: start2026, zone: "Europe/Berlin", options: options)
    var commands = 0
    func send(_ name: String, _ fields: [String: String]) throws {
        commands += 1
        try device.send(try cmd(device, "y\(commands)", name, fields))
    }
    let t0 = monoNs()
    let firstDate = device.app.state.clock.local(device.now).date
    func runUntil(day: Int, hour: Int) throws {
        let clock = device.app.state.clock
        try device.run(until: clock.instant(LocalDateTime(date: firstDate.adding(days: day), secondOfDay: hour * 3600)))
    }
    for r in 0..<3 {
        try send("habit.add", ["habit": "h\(r)", "text": "Habit number \(r)", "reminder": "\(19 + r):00"])
    }
    for day in 0..<days {
        try runUntil(day: day, hour: 8)                         // 08:00 local: plan the day
        for k in 0..<5 {
            try send("task.create", ["task": "d\(day)k\(k)", "title": "Task \(k) of day \(day)",
                                     "due": k == 4 ? "tomorrow 17:00" : "today \(10 + k * 2):00",
                                     "priority": ["low", "normal", "high"][(day + k) % 3], "estimate": "\(15 * (k + 1))",
                                     "reminders": "today \(9 + k * 2):45"])
        }
        try runUntil(day: day, hour: 11)
        for k in 0..<3 where !(k == 2 && day % 3 == 0) { try send("task.complete", ["task": "d\(day)k\(k)"]) }
        if day > 0 { try send("task.complete", ["task": "d\(day - 1)k4"]) }
        try runUntil(day: day, hour: 18)
        if day % 7 != 6 {
            for r in 0..<3 { try send("habit.check", ["habit": "h\(r)"]) }
            try send("habit.check", ["habit": "movement"])
        }
        try send("pet.pet", [:])
    }
    let secs = Double(monoNs() - t0) / 1e9
    return (secs, commands, (try? device.app.store.eventCount()) ?? 0, device)
}

/// Reminders of the scripted year: every one shown at its due second, none twice (docs/performance.md).
func reminderFigure(_ device: SimDevice) throws {
    let rows = try device.app.store.events()
    var shown = 0, late = 0, missed = 0, duplicates = 0
    var seen = Set<String>()
    let decoder = JSONDecoder()
    for r in rows where r.type == "reminder.due" || r.type == "notice.shown" || r.type == "notice.missed" || r.type == "reminder.missed" {
        let e = try JournalCodec.event(r, decoder: decoder)
        var id = "", due = e.at
        switch e.kind {
        case let .reminderDue(task, i):
            id = "task:\(task):\(i)"
        case let .reminder(.shown(n)):
            id = n.id; due = n.due
        case .reminderMissed, .reminder(.missed):
            missed += 1; continue
        default: continue
        }
        shown += 1
        if e.at - due > 1 { late += 1 }
        if !seen.insert(id).inserted { duplicates += 1 }
    }
    emit([("figure", q("reminders_on_time")), ("shown", "\(shown)"), ("later_than_1s", "\(late)"),
          ("shown_twice", "\(duplicates)"), ("missed", "\(missed)"),
          ("percent_within_1s", f(shown == 0 ? 100 : Double(shown - late) * 100 / Double(shown), 2)),
          ("target", q("100% within 1 s, none twice"))])
}

func benchYear(days: Int, dir: String) throws -> String {
    progress("year: \(days) simulated days in memory")
    let mem = try scriptedYear(dbPath: nil, days: days)
    try reminderFigure(mem.device)
    emit([("figure", q("sim_days_per_second")), ("store", q("in-memory")), ("days", "\(days)"),
          ("seconds", f(mem.seconds)), ("days_per_second", f(Double(days) / mem.seconds, 1)),
          ("commands", "\(mem.commands)"), ("events", "\(mem.events)"), ("target", q("365 days in <=2 s"))])
    // Peak RSS of a fresh process that runs the year like the daemon: journal on disk.
    let rssFile = dir + "/rss.txt"
    try spawnSelf(["--probe-year-rss", dir + "/rss-year.db", rssFile, "\(days)"])
    let kib = Int((try? readTextFile(rssFile))?.split(separator: "\n").first ?? "") ?? -1
    for s in ["", "-wal", "-shm"] { removeFile(dir + "/rss-year.db" + s) }
    removeFile(rssFile)
    emit([("figure", q("peak_rss_mib")), ("after", q("scripted year, journal on disk (WAL, FULL), own process")),
          ("days", "\(days)"), ("mib", f(Double(kib) / 1024, 1)), ("target", q("<=24"))])
    progress("year: \(days) simulated days on disk (WAL, synchronous=NORMAL)")
    let path = dir + "/year.db"
    var options = EventStore.Options()
    options.synchronous = .normal
    let writtenBefore = bytesWritten()
    let disk = try scriptedYear(dbPath: path, days: days, options: options)
    let written = bytesWritten() - writtenBefore
    let bytes = fileSize(path) + fileSize(path + "-wal")
    emit([("figure", q("sim_days_per_second")), ("store", q("sqlite file WAL synchronous=NORMAL")), ("days", "\(days)"),
          ("seconds", f(disk.seconds)), ("days_per_second", f(Double(days) / disk.seconds, 1)),
          ("commands", "\(disk.commands)"), ("events", "\(disk.events)")])
    emit([("figure", q("storage_written_per_day")), ("days", "\(days)"), ("bytes_written", "\(written)"),
          ("kib_written_per_day", f(Double(written) / 1024 / Double(days), 2)), ("journal_file_bytes", "\(bytes)"),
          ("kib_file_per_day", f(Double(bytes) / 1024 / Double(days), 2)), ("target", q("<=256 KiB written per day"))])
    return path
}

/// Stats screens over five years of history (docs/performance.md: ≤ 10 ms per screen).
func benchStats(years: Int) throws {
    progress("stats: scripting \(years) years of daily life in memory")
    let run = try scriptedYear(dbPath: nil, days: years * 365, options: EventStore.Options())
    let state = run.device.app.state
    let today = state.openDay
    let first = state.clock.day(of: state.createdAt)
    let screens: [(String, () -> Int)] = [
        ("day", { state.dayStats(today).tasksDone }),
        ("week", { state.weekStats(containing: today).tasksDone }),
        ("month", { state.monthStats(containing: today).tasksDone }),
        ("7-day bars", { state.doneBars(endingWith: today).count }),
        ("30-day line", { state.coinLine(endingWith: today).count }),
        ("habit line since start", { state.habitScoreLine(from: first, to: today).count }),
        ("month heat map", { state.activityHeatMap(containing: today).count }),
        ("whole history", { state.stats(from: first, to: today).tasksDone }),
    ]
    for (name, screen) in screens {
        var samples: [Double] = []
        var sink = 0
        for _ in 0..<200 {
            let t0 = monoNs()
            sink &+= screen()
            samples.append(Double(monoNs() - t0) / 1e6)
        }
        samples.sort()
        emit([("figure", q("stats_screen_ms")), ("screen", q(name)), ("history_days", "\(today - first + 1)"),
              ("events", "\(run.events)"), ("median", f(percentile(samples, 50), 4)), ("p99", f(percentile(samples, 99), 4)),
              ("check", "\(sink % 1000)"), ("target", q("<=10 ms per screen"))])
    }
}

/// Runs this binary with `args` and waits; throws unless it exits 0.
func spawnSelf(_ args: [String]) throws {
    let me = CommandLine.arguments[0]
    var pid: pid_t = 0
    var cargs = ([me] + args).map { strdup($0) }
    cargs.append(nil)
    defer { for p in cargs { free(p) } }
    guard posix_spawn(&pid, me, nil, nil, cargs, environ) == 0 else { throw AppError.journal(seq: nil, detail: "cannot spawn \(me)") }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    guard status == 0 else { throw AppError.journal(seq: nil, detail: "probe exited with status \(status)") }
}

/// Probe mode: run the scripted year on disk and write this process's peak RSS (KiB) to a file.
func probeYearRSS(db: String, out: String, days: Int) -> Int32 {
    do {
        _ = try scriptedYear(dbPath: db, days: days)
        try writeFile(out, Array("\(peakRSSKiB())\n".utf8))
        return 0
    } catch {
        printError("probe: \(error)")
        return 1
    }
}

// MARK: - Device UI figures (docs/performance.md)

/// A pet with a couple of weeks of life, for the UI figures.
func uiFixtureDevice() throws -> SimDevice {
    let device = try SimDevice(dbPath: nil, start: start2026, zone: "Europe/Berlin")
    var n = 0
    func send(_ name: String, _ fields: [String: String]) throws {
        n += 1
        try device.send(try cmd(device, "ui\(n)", name, fields))
    }
    try send("pet.name", ["name": "Mochi"])
    for r in 0..<3 { try send("habit.add", ["habit": "h\(r)", "text": "Habit \(r)"]) }
    for day in 0..<14 {
        for k in 0..<4 {
            try send("task.create", ["task": "t\(day)-\(k)", "title": "Task \(k) of day \(day)", "due": "today \(12 + k):00",
                                     "priority": ["low", "normal", "high"][k % 3], "estimate": "30"])
        }
        for k in 0..<3 { try send("task.complete", ["task": "t\(day)-\(k)"]) }
        try send("habit.check", ["habit": "h0"])
        try device.run(until: device.now + Seconds.day)
    }
    for k in 0..<3 { try send("task.create", ["task": "open\(k)", "title": "Open task \(k)", "due": "tomorrow 1\(k):00"]) }
    return device
}

/// Full-frame renders of the 240×240 home screen per second on one core, and the same screen drawn
/// with Python's PIL in this run.
func benchRender(frames: Int) throws {
    let device = try uiFixtureDevice()
    let state = device.app.state
    let ui = UIState(screen: .home, lastInput: device.now)
    let profile = DisplayProfile.square240
    var canvas = Canvas(width: profile.width, height: profile.height, background: .white)
    let theme = Theme.resolve(.light, for: profile)
    var t = device.now
    for _ in 0..<50 { Screens.render(ScreenContext(state: state, ui: ui, now: t, config: Navigator.Config(profile: profile), theme: theme), into: &canvas) }
    let t0 = monoNs()
    for i in 0..<frames {
        t = device.now + Int64(i % 60)
        Screens.render(ScreenContext(state: state, ui: ui, now: t, config: Navigator.Config(profile: profile), theme: theme), into: &canvas)
    }
    let fps = Double(frames) / (Double(monoNs() - t0) / 1e9)
    var fields: [(String, String)] = [("figure", q("render_home_fps")), ("display", q(profile.id)), ("frames", "\(frames)"),
                                      ("fps", f(fps, 0)), ("target", q(">=2000 on one core"))]
    if let pil = runPIL(frames: 300) {
        fields += [("pil_draw_fps", f(pil.draw, 0)), ("pil_draw_and_rgb565_fps", f(pil.full, 0)),
                   ("ratio_vs_pil_draw", f(fps / pil.draw, 2)), ("ratio_vs_pil_to_panel_bytes", f(fps / pil.full, 1))]
    } else {
        fields += [("pil", q("not run: /usr/bin/python3 with PIL or tools/pil_home_bench.py missing"))]
    }
    emit(fields)
}

/// Runs tools/pil_home_bench.py with /usr/bin/python3 and reads its JSON line.
func runPIL(frames: Int) -> (draw: Double, full: Double)? {
    let script = "tools/pil_home_bench.py"
    guard access("/usr/bin/python3", X_OK) == 0, access(script, R_OK) == 0 else { return nil }
    let out = tempDir() + "/pil.json"
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv: [String] = ["/usr/bin/python3", script, "\(frames)"]
    var cargs = argv.map { strdup($0) }
    cargs.append(nil)
    defer { for p in cargs { free(p) } }
    guard posix_spawn(&pid, "/usr/bin/python3", &actions, nil, cargs, environ) == 0 else { return nil }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    defer { removeFile(out) }
    guard status == 0, let text = try? readTextFile(out),
          let json = try? JSONDecoder().decode([String: Double].self, from: Data(text.utf8)),
          let draw = json["draw_fps"], let full = json["draw_and_rgb565_fps"] else { return nil }
    return (draw, full)
}

/// Button edge -> frame ready (gesture, navigation, any command it causes, the frame rendered),
/// and the bytes a panel receives per interaction over a scripted day.
func benchButtons(presses: Int) throws {
    let device = try uiFixtureDevice()
    var viewOnly: [Double] = []
    var bytes: [Int] = []
    let full = SimDevice.width * SimDevice.height * 2
    device.render()
    var sentBefore = device.panel.bytes
    func measure(_ body: () throws -> Void) rethrows -> Double {
        let t0 = monoNs()
        try body()
        return Double(monoNs() - t0) / 1e6
    }
    /// The bytes the (headless) panel received for this interaction, from the device loop's own
    /// pipeline (diff, pack, flush).
    func sent() {
        device.render()
        bytes.append(device.panel.bytes - sentBefore)
        sentBefore = device.panel.bytes
    }
    // A scripted day of interactions: moving through the list, petting, checking a habit (via the
    // phone), completing tasks, time passing minute by minute (the clock and animations change).
    for i in 0..<presses {
        let press = i % 8
        switch press {
        case 0, 1, 2, 3:
            viewOnly.append(try measure { try device.edge(.a, pressed: true); device.render() })
            try device.edge(.a, pressed: false)
            try device.wait(ms: 400)
        case 4:
            try device.doubleTap(.b)
        case 5:
            try device.run(until: device.now + 60)
        case 6:
            try device.send(try cmd(device, "bb\(i)", "task.create", ["task": "b\(i)", "title": "Bench task \(i)"]))
        default:
            try device.hold(.b)
        }
        device.render()
        sent()
    }
    viewOnly.sort()
    bytes.sort()
    emit([("figure", q("button_edge_to_frame_ms")), ("presses", "\(viewOnly.count)"), ("p50", f(percentile(viewOnly, 50), 4)),
          ("p95", f(percentile(viewOnly, 95), 4)), ("p99", f(percentile(viewOnly, 99), 4)),
          ("measured", q("press edge -> gesture -> navigation -> frame rendered")), ("target", q("p99<=2"))])
    let pct = { (b: Int) in Double(b) * 100 / Double(full) }
    let typical = percentile(bytes.map(Double.init), 50)
    emit([("figure", q("bytes_to_panel_per_interaction")), ("interactions", "\(bytes.count)"), ("full_frame_bytes", "\(full)"),
          ("p50_bytes", f(typical, 0)), ("p90_bytes", f(percentile(bytes.map(Double.init), 90), 0)),
          ("max_bytes", "\(bytes.last ?? 0)"), ("p50_percent", f(pct(Int(typical)), 2)),
          ("p90_percent", f(pct(Int(percentile(bytes.map(Double.init), 90))), 2)), ("target", q("typical <=10% of a full frame"))])
}

/// Loop wake-ups per simulated idle hour (docs/performance.md: the idle daemon wakes only for the core's own
/// events while the screen sleeps): a pet with two weeks of life, its reminders and day closes,
/// and nobody touching it. Asleep: the loop's wake-ups vs the core's own over a whole day. Awake on
/// home (dim and sleep set to their longest): with 10 fps animation, and without (e-paper style,
/// the clock's minute only).
func benchWakeups() throws {
    let device = try uiFixtureDevice()
    try device.run(until: device.now + 3600)
    guard device.ui.power == .asleep else { throw AppError.journal(seq: nil, detail: "bench fixture: the screen did not sleep") }
    // The core's own wake-ups over the next day, counted on a copy of the engine.
    var probe = device.app.engine
    var t = device.app.state.now
    let day = device.now + Seconds.day
    var core = 0
    while let w = probe.nextWakeup(), w <= day, w > t { _ = probe.advance(to: w); t = w; core += 1 }
    let before = device.loop.wakeups, beforeAsleep = device.loop.wakeupsAsleep
    try device.run(until: day)
    let loop = device.loop.wakeups - before - 1   // minus the final step of run(until:)
    let asleep = device.loop.wakeupsAsleep - beforeAsleep - 1
    emit([("figure", q("loop_wakeups_per_idle_hour")), ("screen", q("asleep")), ("hours", "24"),
          ("wakeups_while_asleep", "\(asleep)"), ("core_wakeups", "\(core)"), ("per_hour", f(Double(asleep) / 24, 2)),
          ("all_wakeups", "\(loop)"), ("note", q("all_wakeups adds the minutes a reminder lit the screen until it slept again")),
          ("target", q("wakeups_while_asleep == core_wakeups"))])
    // Awake: the owner set the longest dim and sleep times; home stays lit for the hour.
    var settings = device.app.state.device
    settings.dimAfter = 3600; settings.sleepAfter = 7200
    try device.send(Command(id: "bench-awake", at: device.now, action: .setDevice(settings)))
    for (label, interval) in [("awake, 10 fps animation", Int64(100)), ("awake, no animation (e-paper style)", nil)] as [(String, Int64?)] {
        device.loop.frameIntervalMs = interval
        try device.press(.c)   // wakes the screen on home
        let start = device.loop.wakeups
        try device.run(until: device.now + 3600)
        emit([("figure", q("loop_wakeups_per_idle_hour")), ("screen", q(label)), ("hours", "1"),
              ("loop_wakeups", "\(device.loop.wakeups - start - 1)"), ("power_after", q(device.ui.power.rawValue))])
    }
}

/// Bytes on the SPI bus per interaction for the ST7789 board: the device loop presents every frame
/// at every wake-up, the ST7789 driver turns each into CASET/RASET/RAMWR and pixel transfers, and
/// the emulated controller counts every byte (and checks the traffic). A scripted day: moving
/// through lists, double taps, a minute passing, a phone command, long presses.
/// Interaction `i` of the scripted day the panel figures use: four presses of A, a double tap of B
/// (pets the pet), a minute passing, a phone command, a hold of B (completes the shown task).
func scriptedInteraction(_ i: Int, on board: EmulatedBoard) throws {
    switch i % 8 {
    case 0, 1, 2, 3: try board.press(.a)
    case 4:
        for _ in 0..<2 { try board.edge(.b, pressed: true); try board.run(forMs: 80); try board.edge(.b, pressed: false); try board.run(forMs: 120) }
        try board.run(forMs: 300)
    case 5: try board.run(forMs: 60_000)
    case 6:
        try board.send(try CommandParser.parse(name: "task.create", fields: ["task": "b\(i)", "title": "Bench task \(i)"],
                                               id: "b\(i)", at: board.now, clock: board.loop.app.state.clock))
    default: try board.hold(.b)
    }
}

func benchSPI(interactions: Int) throws {
    let p = try EmulatedPanel.st7789(ST7789.Config(width: 240, height: 240))
    let board = try EmulatedBoard(panel: p.driver, profile: .square240, start: start2026, zone: "Europe/Berlin")
    for k in 0..<4 {
        try board.send(try CommandParser.parse(name: "task.create", fields: ["task": "s\(k)", "title": "Errand \(k)", "due": "today 1\(k + 4):00"],
                                               id: "s\(k)", at: board.now, clock: board.loop.app.state.clock))
    }
    let setupBytes = p.emulator.bytes   // first frame and the four tasks appearing
    var perInteraction: [Double] = []
    var byKind: [String: [Double]] = [:]
    let kinds = ["press", "press", "press", "press", "double-tap", "a-minute", "phone-command", "hold"]
    var before = p.emulator.bytes
    for i in 0..<interactions {
        try scriptedInteraction(i, on: board)
        perInteraction.append(Double(p.emulator.bytes - before))
        byKind[kinds[i % 8], default: []].append(Double(p.emulator.bytes - before))
        before = p.emulator.bytes
    }
    guard p.emulator.violations.isEmpty, p.emulator.picture.pixels == board.loop.canvas.pixels else {
        throw AppError.journal(seq: nil, detail: "spi bench: the emulator saw \(p.emulator.violations.first ?? "a picture that differs from the canvas")")
    }
    perInteraction.sort()
    let full = 240 * 240 * 2
    let ms40 = { (b: Double) in b * 8 / 40e6 * 1000 }
    emit([("figure", q("spi_bytes_per_interaction")), ("board", q("st7789 240x240 (emulated)")), ("interactions", "\(perInteraction.count)"),
          ("setup_bytes", "\(setupBytes)"), ("full_frame_pixel_bytes", "\(full)"),
          ("p50_bytes", f(percentile(perInteraction, 50), 0)), ("p90_bytes", f(percentile(perInteraction, 90), 0)),
          ("max_bytes", f(perInteraction.last ?? 0, 0)),
          ("p50_percent", f(percentile(perInteraction, 50) * 100 / Double(full), 2)),
          ("p90_percent", f(percentile(perInteraction, 90) * 100 / Double(full), 2)),
          ("transfers", "\(p.emulator.transfers)"), ("largest_transfer", "\(p.emulator.largestTransfer)"),
          ("p90_ms_at_40MHz", f(ms40(percentile(perInteraction, 90)), 3)),
          ("p50_bytes_by_kind", "{" + byKind.keys.sorted().map { k in q(k) + ":" + f(percentile(byKind[k]!.sorted(), 50), 0) }.joined(separator: ",") + "}"),
          ("target", q("median<=5%, p90<=10% of a full frame"))])
}

/// The system clock, shifted into the past by `shiftMs` (so a loop can start "ten minutes ago" and
/// find its screen asleep when the shift is removed).
final class ShiftedClock: DeviceClock {
    let base = SystemClock()
    var shiftMs: Int64
    init(shiftMs: Int64) { self.shiftMs = shiftMs }
    var wallMs: Int64 { base.wallMs - shiftMs }
    var monotonicNs: UInt64 { base.monotonicNs }
}

func cpuSeconds() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
}

/// The idle daemon's CPU (docs/performance.md: < 0.5 % of a core while the screen sleeps): the real device
/// loop on the real clock, sleeping in poll(2), for `seconds` of wall time — with the screen asleep,
/// and awake on home animating at 10 fps. The panel is the headless one (it decodes every byte it
/// gets, which costs more than handing them to spidev), so the awake figure is an upper bound.
func benchDaemonIdle(seconds: Double) throws {
    for (label, asleep) in [("asleep", true), ("awake on home, 10 fps animation", false)] {
        let clock = ShiftedClock(shiftMs: asleep ? 3_600_000 : 0)
        let app = try PetApp(store: try EventStore.inMemory(), now: Instant(floorDiv(clock.wallMs, 1000)), zone: "Europe/Berlin")
        if !asleep {
            var d = app.state.device
            d.dimAfter = 3600; d.sleepAfter = 7200
            try app.handle(Command(id: "awake", at: Instant(floorDiv(clock.wallMs, 1000)), action: .setDevice(d))).get()
        }
        let panel = HeadlessPanel(profile: .square240)
        let loop = DeviceLoop(app: app, hardware: Hardware(clock: clock, inputs: [], panel: panel), profile: .square240,
                              layout: .threeButtons, boot: false, frameIntervalMs: 100)
        clock.shiftMs = 0
        // The measurement's end is a deadline of its own (asleep, nothing else would wake the loop).
        let endMs = clock.wallMs + Int64(seconds * 1000)
        loop.externalDeadlineMs = { endMs }
        let t0 = monoNs(), c0 = cpuSeconds()
        if let error = loop.run(until: { Double(monoNs() - t0) / 1e9 >= seconds }) { throw error }
        let wall = Double(monoNs() - t0) / 1e9, cpu = cpuSeconds() - c0
        emit([("figure", q("daemon_idle_cpu_percent")), ("screen", q(label)), ("seconds", f(wall, 1)),
              ("cpu_percent", f(cpu / wall * 100, 3)), ("wakeups", "\(loop.wakeups)"), ("frames_to_panel", "\(panel.frames)"),
              ("power", q(loop.ui.power.rawValue)), ("target", q(asleep ? "<0.5% of a core" : "(no target; awake cost)"))])
    }
}

/// An SPI bus that takes the bytes and drops them (what spidev costs in user space is the syscall).
final class NullSPIBus: SPIBus {
    var bytes = 0
    let maxTransferSize = 4096
    func write(_ b: UnsafeRawBufferPointer) throws(HardwareError) { bytes += b.count }
}

/// `--probe-interactions N`: the device's whole work for N interactions on the ST7789 board (edge →
/// gesture → navigator → durable command → render → diff → pack → SPI transfers), the scripted mix of
/// the spi figure; run under valgrind by `benchInstructions`.
func probeInteractions(_ n: Int) -> Int32 {
    do {
        let bus = NullSPIBus()
        let panel = try ST7789(bus: bus, dc: EmulatedLine("dc"), reset: EmulatedLine("rst"), backlight: EmulatedLine("bl"),
                               delay: VirtualDelay(), config: ST7789.Config(width: 240, height: 240))
        let board = try EmulatedBoard(panel: panel, profile: .square240, start: start2026, zone: "Europe/Berlin")
        for i in 0..<n {
            try scriptedInteraction(i, on: board)
        }
        return 0
    } catch {
        printError("probe-interactions: \(error)")
        return 1
    }
}

/// Runs a program under callgrind; the instructions it executed (nil: valgrind missing or failed).
func instructions(_ argv: [String]) -> Int? {
    let valgrind = "/usr/bin/valgrind"
    guard access(valgrind, X_OK) == 0 else { return nil }
    let err = tempDir() + "/callgrind.txt"
    defer { removeFile(err) }
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let full = [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv
    var cargs = full.map { strdup($0) }
    cargs.append(nil)
    defer { for p in cargs { free(p) } }
    guard posix_spawn(&pid, valgrind, &actions, nil, cargs, environ) == 0 else { return nil }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    guard status == 0, let text = try? readTextFile(err) else { return nil }
    // "==123== Collected : 45678901"
    for line in text.split(separator: "\n") where line.contains("Collected :") {
        return line.split(separator: ":").last.flatMap { Int($0.filter { $0 != " " }) }
    }
    return nil
}

/// CPU per interaction, counted by valgrind (repeatable on a noisy machine): DeskPet's whole path
/// against the Python hobbyist path (PIL redraw + numpy RGB565 + a full frame written) measured in
/// the same run; each side's start-up (N = 0) is subtracted.
func benchInstructions(interactions n: Int) throws {
    let me = CommandLine.arguments[0].hasPrefix("/") ? CommandLine.arguments[0] : String(cString: getcwd(nil, 0)) + "/" + CommandLine.arguments[0]
    guard let base = instructions([me, "--probe-interactions", "0"]), let ours = instructions([me, "--probe-interactions", "\(n)"]) else {
        emit([("figure", q("instructions_per_interaction")), ("skipped", q("valgrind not installed (apt-get install valgrind)"))])
        return
    }
    let perOurs = Double(ours - base) / Double(n)
    var fields: [(String, String)] = [("figure", q("instructions_per_interaction")), ("interactions", "\(n)"),
                                      ("deskpet", f(perOurs, 0)), ("path", q("edge->gesture->navigator->durable command->render->diff->pack->SPI (ST7789)"))]
    let script = "tools/pil_interaction_bench.py"
    if access(script, R_OK) == 0, let pyBase = instructions(["/usr/bin/python3", script, "0"]),
       let py = instructions(["/usr/bin/python3", script, "\(n)"]) {
        let perPy = Double(py - pyBase) / Double(n)
        fields += [("python_pil_numpy", f(perPy, 0)), ("ratio", f(perPy / max(1, perOurs), 1))]
    } else {
        fields.append(("python_pil_numpy", q("skipped: needs python3-pil and python3-numpy")))
    }
    fields.append(("target", q("ratio >= 50")))
    emit(fields)
}

/// Opening a journal written in many short sessions: `sessions` openings of `perSession` events
/// each (tasks created and deleted), then the time from opening it to the first command's reply
/// (median of `runs`). Compared with the same journal without snapshots: what every opening cost
/// while the snapshot counter restarted at each opening (short sessions never made a snapshot).
func benchSessionColdStart(sessions: Int, perSession: Int, runs: Int, dir: String) throws {
    let db = dir + "/sessions.db"
    let fast = EventStore.Options(synchronous: .off)
    var at = start2026
    var n = 0
    for _ in 0..<sessions {
        let store = try wrapStore { () throws(StoreError) in try EventStore(path: db, options: fast) }
        let app = try PetApp(store: store, now: at, zone: "Europe/Berlin")
        let target = try wrapStore { () throws(StoreError) in try store.eventCount() } + perSession
        while try wrapStore({ () throws(StoreError) in try store.eventCount() }) < target {
            at = at + 20
            n += 1
            let action: [String: String] = n % 2 == 1 ? ["task": "s\(n / 2)", "title": "Session task"] : ["task": "s\((n - 1) / 2)"]
            let c = try CommandParser.parseOrThrow(name: n % 2 == 1 ? "task.create" : "task.delete", fields: action,
                                                   id: "s\(n)", at: at, clock: app.state.clock)
            try app.handle(c)
        }
        store.close()
    }
    let bare = dir + "/sessions-no-snapshots.db"
    let bytes = try readRegularFile(db, limit: 1 << 30)
    try writeFile(bare, bytes)
    try wrapStore { () throws(StoreError) in let s = try EventStore(path: bare); try s.dropSnapshots(); s.close() }

    func measure(_ path: String, snapshotEvery: Int) throws -> (samples: [Double], phases: [[Double]], events: Int, snapshot: Int64) {
        var samples: [Double] = []
        var phases: [[Double]] = [[], [], []]
        var events = 0
        var snapshot: Int64 = 0
        for r in 0..<runs {
            // Opened as the daemon opens it: the whole-file check runs after the first frame,
            // in the background (measured on its own below).
            var daemonWay = EventStore.Options()
            daemonWay.verifyOnOpen = false
            let t0 = monoNs()
            let store = try wrapStore { () throws(StoreError) in try EventStore(path: path, options: daemonWay) }
            let t1 = monoNs()
            let app = try PetApp(store: store, now: at, zone: "Europe/Berlin", snapshotEvery: snapshotEvery)
            let t2 = monoNs()
            let c = try CommandParser.parseOrThrow(name: "task.create", fields: ["task": "cold\(path.count)-\(r)", "title": "Cold"],
                                                   id: "cold-\(path.count)-\(r)", at: at + 1, clock: app.state.clock)
            try app.handle(c)
            let t3 = monoNs()
            samples.append(Double(t3 - t0) / 1e6)
            phases[0].append(Double(t1 - t0) / 1e6)
            phases[1].append(Double(t2 - t1) / 1e6)
            phases[2].append(Double(t3 - t2) / 1e6)
            events = try wrapStore { () throws(StoreError) in try store.eventCount() }
            snapshot = (try? store.latestSnapshot(format: PetApp.snapshotFormat)?.seq) ?? 0
            store.close()
        }
        return (samples.sorted(), phases.map { $0.sorted() }, events, snapshot)
    }
    let after = try measure(db, snapshotEvery: 2000)
    let before = try measure(bare, snapshotEvery: Int.max)
    emit([("figure", q("cold_start_ms")), ("journal", q("\(sessions) sessions of \(perSession) events")),
          ("events", "\(after.events)"), ("newest_snapshot_seq", "\(after.snapshot)"), ("runs", "\(runs)"),
          ("median", f(percentile(after.samples, 50))), ("p95", f(percentile(after.samples, 95))),
          ("open_median", f(percentile(after.phases[0], 50))), ("rebuild_median", f(percentile(after.phases[1], 50))),
          ("first_command_median", f(percentile(after.phases[2], 50))),
          ("without_snapshots_median", f(percentile(before.samples, 50))),
          ("measured", q("open journal -> state rebuilt -> first command stored and applied"))])
    var checks: [Double] = []
    for _ in 0..<max(1, runs / 2) {
        let t0 = monoNs()
        try wrapStore { () throws(StoreError) in try EventStore.verifyIntegrity(path: db) }
        checks.append(Double(monoNs() - t0) / 1e6)
    }
    checks.sort()
    let size = (try? readRegularFile(db, limit: 1 << 30).count) ?? 0
    emit([("figure", q("integrity_check_ms")), ("journal", q("\(sessions) sessions of \(perSession) events")),
          ("bytes", "\(size)"), ("median", f(percentile(checks, 50))),
          ("measured", q("PRAGMA quick_check of the whole file, after the first frame, beside the loop"))])
}

func wrapStore<T>(_ body: () throws(StoreError) -> T) throws(AppError) -> T {
    do { return try body() } catch { throw .store(error) }
}

extension CommandParser {
    static func parseOrThrow(name: String, fields: [String: String], id: String, at: Instant, clock: DayClock) throws(AppError) -> Command {
        do { return try parse(name: name, fields: fields, id: id, at: at, clock: clock) } catch { throw .domain(error) }
    }
}

/// Spawns this binary in probe mode and measures until it exits.
func benchColdStart(runs: Int, db: String, label: String) throws {
    var samples: [Double] = []
    let me = CommandLine.arguments[0]
    for _ in 0..<runs {
        var pid: pid_t = 0
        let argv: [String] = [me, "--probe-first-frame", db]
        var cargs = argv.map { strdup($0) }
        cargs.append(nil)
        defer { for p in cargs { free(p) } }
        let t0 = monoNs()
        guard posix_spawn(&pid, me, nil, nil, cargs, environ) == 0 else { throw AppError.journal(seq: nil, detail: "cannot spawn \(me)") }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        samples.append(Double(monoNs() - t0) / 1e6)
        guard status == 0 else { throw AppError.journal(seq: nil, detail: "probe exited with status \(status)") }
    }
    samples.sort()
    emit([("figure", q("cold_start_to_first_frame_ms")), ("journal", q(label)), ("runs", "\(runs)"),
          ("median", f(percentile(samples, 50))), ("p95", f(percentile(samples, 95))),
          ("measured", q("spawn -> open journal -> replay -> first frame rendered -> exit")), ("target", q("median<=100"))])
}

/// Probe mode: open the journal, rebuild the state, render the first frame, exit.
func probeFirstFrame(_ db: String) -> Int32 {
    do {
        let device = try SimDevice(dbPath: db, start: start2026, zone: "Europe/Berlin")
        device.render()
        return device.canvas.pixels.isEmpty ? 1 : 0
    } catch {
        printError("probe: \(error)")
        return 1
    }
}

// MARK: - Main

var argv = Array(CommandLine.arguments.dropFirst())
if argv.first == "--probe-first-frame", argv.count == 2 { exit(probeFirstFrame(argv[1])) }
if argv.first == "--probe-interactions", argv.count == 2, let n = Int(argv[1]) { exit(probeInteractions(n)) }
if argv.first == "--probe-year-rss", argv.count == 4, let days = Int(argv[3]) {
    exit(probeYearRSS(db: argv[1], out: argv[2], days: days))
}
if argv.first == "--probe-catchup", argv.count == 3, let days = Int64(argv[1]) { exit(probeCatchUp(days: days, dir: argv[2])) }
if argv.first == "--probe-open", argv.count == 4, argv[2] == "--result" { exit(probeOpen(argv[1], result: argv[3])) }
if argv.first == "--probe-export", argv.count == 5, argv[3] == "--result" { exit(probeExport(argv[1], out: argv[2], result: argv[4])) }
if argv.contains("--help") || argv.contains("-h") { print(usage); exit(0) }
let quick = argv.contains("--quick")
let figures: [String] = ["latency", "year", "rss", "coldstart", "sessions", "stats", "render", "buttons", "wakeups", "idle", "spi", "cpu", "link", "websocket", "att", "ctl", "catchup", "export", "bigjournal", "linkexport", "circle"]
// ctl runs with link; bigjournal (a million events synthesised: minutes) only when asked for.
var only: Set<String> = Set(figures).subtracting(["ctl", "bigjournal"])
if let i = argv.firstIndex(of: "--only") {
    guard i + 1 < argv.count, !argv[i + 1].hasPrefix("-") else {
        printError("deskpet-bench: --only needs figure names: \(figures.joined(separator: ", "))"); exit(2)
    }
    only = Set(argv[i + 1].split(separator: ",").map(String.init))
    let unknown = only.subtracting(figures).sorted()
    guard unknown.isEmpty, !only.isEmpty else {
        printError("deskpet-bench: unknown figure \(unknown.map { "'\($0)'" }.joined(separator: ", ")) "
                   + "(valid: \(figures.joined(separator: ", ")))")
        exit(2)
    }
}
for a in argv where a.hasPrefix("-") && !["--quick", "--only"].contains(a) {
    printError("deskpet-bench: unknown option '\(a)' (see --help)"); exit(2)
}

do {
    let dir = tempDir()
    var yearDB: String?
    if only.contains("year") || only.contains("rss") || only.contains("coldstart") {
        yearDB = try benchYear(days: quick ? 30 : 365, dir: dir)
    }
    if only.contains("sessions") {
        progress("sessions: a journal written in 500 short sessions, opened cold")
        try benchSessionColdStart(sessions: quick ? 50 : 500, perSession: 100, runs: quick ? 3 : 11, dir: dir)
    }
    if only.contains("stats") { try benchStats(years: quick ? 1 : 5) }
    if only.contains("render") { progress("render: home screen frames"); try benchRender(frames: quick ? 500 : 20_000) }
    if only.contains("cpu") { progress("cpu: instructions per interaction under valgrind (slow)"); try benchInstructions(interactions: quick ? 16 : 96) }
    if only.contains("idle") { progress("idle: the loop on the real clock, asleep then awake"); try benchDaemonIdle(seconds: quick ? 3 : 60) }
    if only.contains("wakeups") { progress("wakeups: an idle day asleep, an idle hour awake"); try benchWakeups() }
    if only.contains("buttons") { progress("buttons: a scripted day of presses"); try benchButtons(presses: quick ? 200 : 4000) }
    if only.contains("catchup") { progress("catchup: 10 and 1000 years off, then boot"); try benchCatchUp(dir: dir) }
    if only.contains("export") {
        progress("export: deskpet export of journals of growing size, peak RSS")
        try benchExportPeak(sizes: quick ? [5_000, 20_000] : [20_000, 200_000], dir: dir)
    }
    if only.contains("bigjournal") {
        progress("bigjournal: a journal of 1,000,000 events (600k commands, 200k tasks) opened cold; its export")
        try benchBigJournal(events: quick ? 100_000 : 1_000_000, dir: dir)
    }
    if only.contains("circle") { progress("circle: 1,000 members' reports, ranks, a settlement"); try benchCircle(members: 1000) }
    if only.contains("spi") { progress("spi: a scripted day on the ST7789 board, bytes on the bus"); try benchSPI(interactions: quick ? 200 : 2000) }
    if only.contains("att") { progress("att: ATT PDUs and round trips per command at MTU 23, 185, 517"); try benchATT() }
    if only.contains("linkexport") {
        progress("linkexport: 64 exports of a ~4.4 MiB journal in one write")
        try benchExportStall(targetBytes: quick ? 1 << 20 : 4_600_000, exports: 64)
    }
    if only.contains("link") { progress("link: round trips over loopback TCP"); try benchLink(n: quick ? 500 : 5000, queued: 1000) }
    if only.contains("websocket") { progress("websocket: round trips over the WebSocket on loopback"); try benchWebSocket(n: quick ? 500 : 5000) }
    if only.contains("link") || only.contains("ctl") { progress("ctl: deskpetctl sync of 1000 queued commands"); try benchCtlSync(queued: 1000) }
    if only.contains("latency") {
        progress("latency: \(quick ? 1000 : 10_000) commands, each durable before the frame")
        try benchLatency(n: quick ? 1000 : 10_000)
    }
    if only.contains("coldstart") {
        progress("coldstart: new journal and a year's journal")
        let fresh = dir + "/fresh.db"
        try benchColdStart(runs: quick ? 5 : 21, db: fresh, label: "new")
        if let yearDB { try benchColdStart(runs: quick ? 5 : 21, db: yearDB, label: "\(quick ? 30 : 365) days of events") }
    }
    if let keep = getenv("DESKPET_BENCH_KEEP") {
        progress("keeping the journals in \(dir) (DESKPET_BENCH_KEEP=\(String(cString: keep)))")
    } else {
        for name in ["year.db", "fresh.db"] { for s in ["", "-wal", "-shm"] { removeFile("\(dir)/\(name)\(s)") } }
    }
    rmdir(dir)
} catch {
    printError("deskpet-bench: \(error)")
    exit(1)
}
