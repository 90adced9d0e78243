#if canImport(Glibc)
import Glibc
#endif
import PetSim
import PetUI
import PetDevice
import PetLink
import PetLinux

let usage = """
deskpet-sim: the DeskPet simulator — the device's own code on a virtual clock and a headless display.

Usage:
  deskpet-sim                       run the built-in demo (a few days with a new pet) and write its snapshots
  deskpet-sim run FILE...           run scenario files (sim/*.scenario); exits non-zero on the first failure
  deskpet-sim check FILE...         parse scenario files only (syntax errors name file and line)
  deskpet-sim demo --print          print the built-in demo scenario
  deskpet-sim --interactive [FILE]  the device in this terminal (truecolor half blocks; keys are buttons);
                                    starts with a small household, or where scenario FILE ends
  deskpet-sim run FILE --gif OUT    run one scenario, then record it as an animated GIF (OUT)
  deskpet-sim export-journal DB [FILE]  every row of a journal exactly as stored (JSON, mode 0600;
                                    stdout without FILE), also when a row can't be read (recovery
                                    mode, docs/storage.md: the row is named on stderr)
  deskpet-sim --web PORT            the device headless in real time, serving the companion web app
                                    and its WebSocket on http://127.0.0.1:PORT/ (docs/companion.md);
                                    prints 'pairing code: NNNNNN' when the screen shows one; the
                                    journal is --data DIR/deskpet.db (default --out DIR/web/), kept:
                                    a restart continues it
  deskpet-sim pictures              the README pictures: main screens on two display sizes and a GIF,
                                    into --out (tools/readme-pictures.sh writes docs/images/)

Options:
  --out DIR       where snapshots and journals go (default: out); each scenario gets DIR/<name>/
  --in-memory     keep the journal in memory (faster; 'off' and 'restart' steps are refused)
  --link ADDR     run, --interactive, --web: serve the phone link (docs/protocol.md) at
                  tcp:127.0.0.1:PORT or unix:PATH while the scenarios run (the 'serve 30s' step
                  lets real time pass serving it; the pairing code on the screen is printed) or
                  while you play (the pairing code shows on the status line). TCP is loopback only unless
                  --link-remote is given too.
  --link-remote   allow a --link tcp: address other machines can reach (and --web HOST:PORT)
  --web-root DIR  --web: the web app's folder (default: the repository's web/ found above the
                  executable or in the current folder, else /usr/share/deskpet/web)
  --web-origin O  --web: also let pages from origin O (https://host[:port]) open the WebSocket,
                  e.g. a hosted copy of the app; repeatable. http://localhost:PORT and
                  http://127.0.0.1:PORT always may; any other origin is refused (403)
  --data DIR      --web: the journal's folder (DIR/deskpet.db; created 0700; default OUT/web)
  --screen-text F --web: write the screen's text (one run a line) to F whenever it changes
  --keys F        --web: press the board's keys as lines written to F (a FIFO, made if missing)
                  say: 'tap B', 'double B', 'hold B' (for tests; the keys' names as on the board)
  --zone Z        --web: the pet's time zone for a new journal (default UTC)
  --verbose, -v   print every step as it runs
  --quiet, -q     print only failures
  --board B       the board to simulate: a board file (boards/*.board, docs/boards.md) or the name
                  of a built-in one: sim-240x240 (default), sim-240x240-joystick,
                  sim-320x240-4buttons, sim-oled-128x64, sim-epaper-250x122. For the demo, run,
                  check, --interactive, --gif and pictures; replaces the scenarios' own board.
                  Not together with --display or --buttons.
  --display WxH   the display to simulate: 240x240, 320x240, 128x64 or 250x122 (pictures: a
                  comma-separated list; default 240x240,320x240; else the scenario's display)
  --buttons K     the keys of the board: 3, 4 or joystick (--interactive, --gif; default: the
                  scenario's, else 3)
  --scale N       --interactive: N×N pixels per terminal cell half (default: fit the terminal)
  --speed N       --interactive: start at time speed 1, 60 or 3600 (× real time)
  --help, -h      this help
  --version       the version (the same for deskpet, deskpetctl and the package)

Interactive keys: a/b/c (d) tap · A/B/C long press · two quick taps = double tap · x A+C ·
X A+C held 3 s (factory reset) · arrow keys/Enter joystick · + / - time speed (1×, 60×, 3600×) ·
space pause time · Ctrl-L redraw · q quit. Inside tmux, truecolor needs
'set -as terminal-features ",*:RGB"' (tmux ≥ 3.2). More: docs/simulator.md.

Scenario format: docs/scenarios.md. Snapshots are PNG files of the display.
"""

var args = Array(CommandLine.arguments.dropFirst())
var options = ScenarioRunner.Options()
var positional: [String] = []
var printDemo = false
var interactive = false
var gifPath: String?
var displays: [DisplayProfile] = []
var scale: Int?
var layout: InputLayout?
var speed: Int64 = 1
var boardRef: String?
var web = WebServe.Options()
var webAddress: String?
var webRootGiven = false
var webData: String?
@MainActor func value(_ name: String) -> String {
    guard i + 1 < args.count else { printError("deskpet-sim: \(name) needs a value (see --help)\n"); exit(2) }
    i += 1
    return args[i]
}
var i = 0
while i < args.count {
    let a = args[i]
    switch a {
    case "--help", "-h": print(usage); exit(0)
    case "--version": print("deskpet-sim \(DeskPetVersion.string)"); exit(0)
    case "--verbose", "-v": options.verbose = true
    case "--quiet", "-q": options.quiet = true
    case "--in-memory": options.inMemory = true
    case "--link": options.link = value(a)
    case "--link-remote": options.linkRemote = true; web.allowRemote = true
    case "--web": webAddress = value(a)
    case "--web-root": web.webRoot = value(a); webRootGiven = true
    case "--web-origin": web.origins.append(value(a))
    case "--screen-text": web.screenText = value(a)
    case "--keys": web.keys = value(a)
    case "--zone": web.zone = value(a)
    case "--data": webData = value(a)
    case "--print": printDemo = true
    case "--interactive", "-i": interactive = true
    case "--gif": gifPath = value(a)
    case "--board": boardRef = value(a)
    case "--display":
        for id in value(a).split(separator: ",") {
            guard let p = DisplayProfile.named(String(id)) else {
                printError("deskpet-sim: unknown display '\(id)' (240x240, 320x240, 128x64 or 250x122)\n"); exit(2)
            }
            displays.append(p)
        }
    case "--buttons":
        let v = value(a)
        guard let l = InputLayout.named(v) else { printError("deskpet-sim: --buttons is 3, 4 or joystick\n"); exit(2) }
        layout = l
    case "--scale":
        guard let n = Int(value(a)), (1...16).contains(n) else { printError("deskpet-sim: --scale needs 1…16\n"); exit(2) }
        scale = n
    case "--speed":
        guard let n = Int64(value(a)), InteractiveKeys.speeds.contains(n) else {
            printError("deskpet-sim: --speed is 1, 60 or 3600\n"); exit(2)
        }
        speed = n
    case "--out":
        guard i + 1 < args.count else { printError("deskpet-sim: --out needs a directory\n"); exit(2) }
        options.outDir = args[i + 1]; i += 1
    default:
        if a.hasPrefix("-") { printError("deskpet-sim: unknown option '\(a)' (see --help)\n"); exit(2) }
        positional.append(a)
    }
    i += 1
}

func emit(_ s: String) { print(s); flushOutput() }

/// Set by SIGINT/SIGTERM: `--web` stops serving and closes the journal.
nonisolated(unsafe) var stopRequested: sig_atomic_t = 0
let stopServing: @convention(c) (Int32) -> Void = { _ in stopRequested = 1 }

if boardRef != nil && (!displays.isEmpty || layout != nil) {
    printError("deskpet-sim: --board names the display and the keys: leave out --display and --buttons\n"); exit(2)
}

if webAddress == nil && (webData != nil || web.screenText != nil || web.keys != nil || !web.origins.isEmpty || webRootGiven) {
    printError("deskpet-sim: --data, --web-root, --web-origin, --screen-text and --keys go with --web PORT\n"); exit(2)
}

let mode = webAddress != nil ? "web" : interactive ? "interactive" : (positional.first ?? "demo")
let files = interactive ? positional : Array(positional.dropFirst())
do {
    let board = try boardRef.map { ref throws(ScenarioError) in try SimBoards.load(ref) }
    /// The scenario on the --board board, if one was given.
    func onBoard(_ s: Scenario) throws(ScenarioError) -> Scenario { try board.map { b throws(ScenarioError) in try s.on(b) } ?? s }
    switch mode {
    case "interactive":
        guard isatty(0) == 1, isatty(1) == 1 else {
            printError("deskpet-sim: --interactive needs a terminal (stdin/stdout is not a TTY); run it in a terminal or in tmux\n")
            exit(2)
        }
        guard files.count <= 1 else { printError("deskpet-sim: --interactive takes at most one scenario file\n"); exit(2) }
        var o = InteractiveSession.Options()
        o.scale = scale
        o.layout = layout
        o.profile = displays.first
        o.speedIndex = InteractiveKeys.speeds.firstIndex(of: speed) ?? 0
        o.link = options.link
        o.linkRemote = options.linkRemote
        if let f = files.first { o.scenario = try onBoard(try ScenarioParser.parse(try readTextFile(f), file: f)) }
        else if board != nil {
            o.scenario = try onBoard(try ScenarioParser.parse(InteractiveSession.starter, file: "<starter>", name: "interactive"))
        }
        let session = try InteractiveSession(options: o)
        try session.run()
        let s = session.simDevice.app.state
        emit("DeskPet: \(s.pet.name) — coins \(s.coins), level \(s.level), streak \(s.streak) (the journal was in memory)")
    case "web":
        guard positional.isEmpty, !interactive else { printError("deskpet-sim: --web takes no command or scenario (see --help)\n"); exit(2) }
        web.address = webAddress ?? "8080"
        web.dataDir = webData ?? options.outDir + "/web"
        if let l = options.link { web.links = [l] }
        web.verbose = options.verbose
        if let b = board { web.profile = b.profile; web.layout = b.layout } else {
            if let d = displays.first { web.profile = d }
            if let l = layout { web.layout = l }
        }
        if !webRootGiven { web.webRoot = WebServe.defaultWebRoot() }
        let server = try WebServe(options: web, print: emit)
        emit("web: serving \(server.url) (app: \(server.link.options.webRoot ?? "none found: /link only")) and \(server.socketURL)")
        emit("journal: \(server.database)")
        signal(SIGINT, stopServing)
        signal(SIGTERM, stopServing)
        try server.run { stopRequested != 0 }
        server.link.close()
        server.device.app.store.close()
        emit("web: stopped")
    case "pictures":
        let profiles = board.map { [$0.profile] } ?? (displays.isEmpty ? [DisplayProfile.square240, .wide320] : displays)
        // The README pictures show a made-up household, not the owner's data: readable by all.
        for p in profiles { try makeDirectories("\(options.outDir)/\(p.id)", mode: 0o755) }
        for picture in try Pictures.screenshots(profiles: profiles) {
            let path = "\(options.outDir)/\(picture.name)"
            try writeFile(path, picture.png, mode: 0o644)
            if !options.quiet { emit("  📷 \(path)") }
        }
        let gif = "\(options.outDir)/demo.gif"
        try writeFile(gif, try Pictures.gif(profile: profiles[0]), mode: 0o644)
        if !options.quiet { emit("  🎞 \(gif)") }
    case "demo":
        if printDemo { print(Demo.text); exit(0) }
        let keys = board?.layout ?? layout ?? .threeButtons
        let scenario = try onBoard(try ScenarioParser.parse(Demo.text(for: keys), file: "<demo>", name: Demo.name))
        let summary = try ScenarioRunner(options: options, print: emit).run(scenario)
        if !options.quiet {
            emit("Snapshots: " + summary.snapshots.joined(separator: ", "))
            if let db = summary.database { emit("Journal:   \(db)  (open it with: sqlite3 \(db) 'SELECT * FROM ledger')") }
            emit("Next: deskpet-sim run sim/*.scenario   ·   deskpet-sim --help")
        }
    case "export-journal":
        guard (1...2).contains(files.count) else { printError("deskpet-sim: export-journal needs JOURNAL [FILE] (see --help)\n"); exit(2) }
        let (problem, doc) = try JournalRecovery.exportJournal(at: files[0])
        if files.count == 2 { try writeFile(files[1], doc, mode: 0o600) } else { print(String(decoding: doc, as: UTF8.self)) }
        if let problem {
            printError("deskpet-sim: recovery mode: journal " + (problem.seq.map { "row \($0)" } ?? "rows") + " can't be read: \(problem.detail)\n")
        }
    case "run", "check":
        guard !files.isEmpty else { printError("deskpet-sim: \(mode) needs scenario files (see --help)\n"); exit(2) }
        var parsed: [Scenario] = []
        for f in files { parsed.append(try onBoard(try ScenarioParser.parse(try readTextFile(f), file: f))) }
        if mode == "check" { emit("\(parsed.count) scenario(s) OK"); exit(outputSucceeded() ? 0 : 1) }
        if gifPath != nil && parsed.count != 1 { printError("deskpet-sim: --gif records exactly one scenario\n"); exit(2) }
        let runner = ScenarioRunner(options: options, print: emit)
        for s in parsed { _ = try runner.run(s) }
        if parsed.count > 1 && !options.quiet { emit("All \(parsed.count) scenarios passed.") }
        if let gifPath, let s = parsed.first {
            var o = ScenarioPlayer.Options()
            o.profile = displays.first
            o.layout = layout
            let recording = try GIFRecording.record(s, options: o)
            try writeFile(gifPath, recording.gif)
            for step in recording.skipped { printError("deskpet-sim: not in the GIF (step unknown to the recorder): \(step)") }
            if !options.quiet { emit("  🎞 \(gifPath): \(recording.frames) frames") }
        }
    default:
        printError("deskpet-sim: unknown command '\(mode)' (see --help)\n"); exit(2)
    }
} catch {
    printError("FAILED \(error)")
    exit(1)
}
// A transcript that could not be written in full (a full disk, a closed pipe) is a failure too.
if !outputSucceeded() {
    printError("deskpet-sim: cannot write the transcript to standard output (\(errnoText()))")
    exit(1)
}
