#if canImport(Glibc)
import Glibc
#endif
import PetCore
import PetDevice
import PetLink
import PetUI
import PetLinux

/// `deskpet-sim --interactive`: the simulated device in a terminal. The display is drawn with
/// truecolor half blocks (`TerminalScreen`), keys become button edges at the virtual time, and
/// the virtual clock runs at real time × the chosen speed. docs/simulator.md has the key map.
public final class InteractiveSession {
    public struct Options: Sendable {
        /// Cell scale; nil = the smallest that fits the terminal.
        public var scale: Int?
        /// The board (nil: the scenario's, else 240×240 with three buttons).
        public var profile: DisplayProfile?
        public var layout: InputLayout?
        /// Where to start: the device after this scenario's steps (nil: `InteractiveSession.starter`).
        public var scenario: Scenario?
        /// Index into `InteractiveKeys.speeds`.
        public var speedIndex = 0
        /// Quit by itself after this many real seconds (for demos and tests; nil = never).
        public var quitAfterSeconds: Double?
        /// Serve the phone link there (`tcp:127.0.0.1:PORT`, `unix:PATH`; docs/protocol.md) while
        /// the session runs; the pairing code shows on the status line.
        public var link: String?
        /// Allow a TCP link address other machines can reach.
        public var linkRemote = false
        public init() {}
    }

    /// A small household to start with: a named pet and three tasks for today.
    public static let starter = """
    start 2026-03-02 08:00 zone=Europe/Berlin
    send pet.name name=Mochi
    send task.create task=plants title="Water the plants" due="today 12:00" repeat=daily reminders="today 11:50"
    send task.create task=report title="Write the weekly report" priority=high due="today 17:00" estimate=90
    send task.create task=run title="Evening run" priority=low due="today 19:00" estimate=30
    """

    let options: Options
    let device: SimDevice
    var screen: TerminalScreen
    var keys = TerminalKeyParser()
    var speedIndex: Int
    var paused = false
    var message = "ready"
    var lastStatus = ""
    var running = true
    /// Real time (monotonic ns) until which the clock runs at 1× so gestures keep their timing.
    var gestureUntil: UInt64 = 0
    var carryMs = 0.0
    /// The next frame looks at every cell (after a resize or Ctrl-L), not just the dirty area.
    var fullRedraw = true

    /// The phone link (with `Options.link`) and the protocol on it.
    public let transport: SocketLink?
    public let linkService = LinkService()

    public init(options: Options) throws(ScenarioError) {
        self.options = options
        do throws(LinkError) {
            transport = try options.link.map { a throws(LinkError) in try SocketLink(parsing: a, allowRemote: options.linkRemote) }
        } catch {
            throw .failed(file: options.scenario?.file ?? "<starter>", line: 1, step: "start", message: "--link: \(error)")
        }
        let scenario: Scenario
        if let s = options.scenario { scenario = s } else {
            scenario = try ScenarioParser.parse(InteractiveSession.starter, file: "<starter>", name: "interactive")
        }
        var playerOptions = ScenarioPlayer.Options()
        playerOptions.profile = options.profile
        playerOptions.layout = options.layout
        let player = ScenarioPlayer(options: playerOptions)
        player.link = transport
        player.linkService = linkService
        device = try player.play(scenario)
        speedIndex = max(0, min(options.speedIndex, InteractiveKeys.speeds.count - 1))
        screen = TerminalScreen(scale: options.scale ?? 1)
        if let l = linkDescription { message = "ready; phone link listening on \(l)" }
    }

    /// The status line: virtual time, speed, screen, display, the pet's numbers.
    public static func status(device: SimDevice, speed: Int64, paused: Bool) -> String {
        let s = device.app.state
        let local = s.clock.local(device.now)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let day = days[max(0, min(6, local.date.weekday))]
        let run = paused ? "‖ paused" : "▶ \(speed)×"
        let power = device.ui.power == .awake ? "" : " (\(device.ui.power.rawValue))"
        let code = device.ui.pairingCode.map { " │ 📱 pairing code \($0)" } ?? ""
        return "DeskPet \(day) \(local.descriptionWithSeconds) │ \(run) │ \(device.ui.screen.rawValue)\(power) │ "
            + "\(device.profile.id) \(layoutName(device.layout)) │ coins \(s.coins) · Lv \(s.level) · streak \(s.streak)" + code
    }

    static func layoutName(_ l: InputLayout) -> String {
        switch l {
        case .threeButtons: return "3 buttons"
        case .fourButtons: return "4 buttons"
        case .joystick: return "joystick"
        }
    }

    // MARK: - Running in a terminal

    /// Runs until `q` (or a signal). The terminal is put in raw mode and restored on the way out.
    public func run() throws(ScenarioError) {
        guard isatty(0) == 1, isatty(1) == 1 else {
            throw .io(path: "stdin", message: "--interactive needs a terminal (stdin/stdout is not a TTY); run it in a terminal or in tmux")
        }
        Terminal.enterRaw()
        defer { Terminal.restore(); Terminal.resetSignals() }
        fitToTerminal()
        out("\u{1B}[2J")
        let started = Terminal.monotonicNs()
        var last = started
        while running {
            if Terminal.takeContinued() || Terminal.takeResize() { fitToTerminal(); out("\u{1B}[0m\u{1B}[2J") }
            let bytes = Terminal.readInput(timeoutMs: 40, alsoWaitOn: linkDescriptor)
            if bytes.isEmpty { keys.flushEscape() }
            for key in keys.feed(bytes) { handle(key) }
            do { try serveLink() } catch { message = "error: \(error)" }
            let t = Terminal.monotonicNs()
            advance(realNs: t &- last, at: t)
            last = t
            draw()
            if let q = options.quitAfterSeconds, Double(t &- started) / 1e9 >= q { running = false }
        }
    }

    func fitToTerminal() {
        let (cols, lines) = Terminal.size() ?? (80, 24)
        let s = options.scale ?? TerminalScreen.fittingScale(width: device.canvas.width, height: device.canvas.height,
                                                             cols: cols, lines: lines)
        screen = TerminalScreen(scale: s)
        lastStatus = ""
        fullRedraw = true
    }

    func out(_ s: String) { Terminal.write(s) }

    func draw() {
        out(screen.update(device.canvas, region: fullRedraw ? nil : device.canvas.dirty))
        fullRedraw = false
        let speed = InteractiveKeys.speeds[speedIndex]
        let status = InteractiveSession.status(device: device, speed: speed, paused: paused)
        let text = status + "\n" + message
        guard text != lastStatus else { return }
        lastStatus = text
        let r = screen.rows + 1
        out("\u{1B}[0m\u{1B}[\(r);1H\u{1B}[1m" + status + "\u{1B}[0m\u{1B}[K"
            + "\u{1B}[\(r + 1);1H" + message + "\u{1B}[K"
            + "\u{1B}[\(r + 2);1H\u{1B}[2m" + InteractiveKeys.help + "\u{1B}[0m\u{1B}[K")
    }

    /// Serves the phone link at the current virtual time (also while time is paused): what the
    /// transport has waiting is answered. The status line shows a pairing code while one is on
    /// the screen. Without a link: nothing.
    public func serveLink() throws(AppError) {
        guard transport != nil else { return }
        try device.serveLink()
    }

    /// The link's descriptor (readable when a phone has something waiting), nil without a link.
    public var linkDescriptor: Int32? { transport?.fileDescriptor }

    /// How the link is reached, for the caller's banner (nil: no link).
    public var linkDescription: String? {
        guard let t = transport else { return nil }
        if case .tcp(let host, _) = t.address { return "tcp:\(host):\(t.port)" }
        return t.address.description
    }

    /// Moves the virtual clock on by the real time that passed × the speed (1× during a gesture).
    func advance(realNs: UInt64, at now: UInt64) {
        guard !paused else { return }
        let inGesture = now < gestureUntil
        let speed = inGesture ? 1 : InteractiveKeys.speeds[speedIndex]
        carryMs += Double(realNs) / 1e6 * Double(speed)
        let ms = Int64(carryMs)
        // Steps of at least 100 ms of virtual time (ten frames a second at 1×), finer during a
        // gesture so long presses and double taps keep their timing.
        guard ms >= (inGesture ? 1 : 100) else { return }
        carryMs -= Double(ms)
        do { try device.wait(ms: ms) } catch { message = "error: \(error)" }
    }

    func handle(_ key: TerminalKey) {
        guard let action = InteractiveKeys.action(for: key) else { return }
        do { try perform(action) } catch { message = "error: \(error)" }
    }

    /// Performs one action (the interactive loop's keys; tests call it directly).
    public func perform(_ action: InteractiveAction) throws(AppError) {
        let before = device.app.state.eventCount
        let keys = device.layout.buttons
        switch action {
        case .tap(let b) where !keys.contains(b), .long(let b) where !keys.contains(b):
            message = "this board (\(InteractiveSession.layoutName(device.layout))) has no \(b.rawValue) key"
            return
        case .chord where !device.layout.hasChord, .chordHold where !device.layout.hasChord:
            message = "a joystick has no A+C chord"
            return
        case .tap(let b):
            try device.edge(b, pressed: true); try device.wait(ms: 80); try device.edge(b, pressed: false)
            message = "tap \(b.rawValue)"
        case .long(let b):
            try device.edge(b, pressed: true); try device.wait(ms: 800); try device.edge(b, pressed: false)
            message = "long press \(b.rawValue)"
        case .chord:
            try device.chord()
            message = "A+C"
        case .chordHold:
            try device.chordHold()
            message = "A+C held 3 s"
        case .faster:
            speedIndex = min(speedIndex + 1, InteractiveKeys.speeds.count - 1)
            message = "speed \(InteractiveKeys.speeds[speedIndex])×"
        case .slower:
            speedIndex = max(speedIndex - 1, 0)
            message = "speed \(InteractiveKeys.speeds[speedIndex])×"
        case .pause:
            paused.toggle()
            message = paused ? "time paused (space: go on)" : "time runs"
        case .quit:
            running = false
        case .redraw:
            screen.invalidate(); lastStatus = ""; fullRedraw = true
            out("\u{1B}[0m\u{1B}[2J")
        case .noSuchButton(let name):
            message = "this board has no \(name) button"
        }
        switch action {
        case .tap, .long, .chord, .chordHold:
            gestureUntil = Terminal.monotonicNs() &+ 1_000_000_000
            let n = device.app.state.eventCount - before
            if n > 0 { message += " → \(n) event\(n == 1 ? "" : "s")" }
        default: break
        }
    }

    /// The device (for tests and for the caller's summary).
    public var simDevice: SimDevice { device }
    public var speed: Int64 { InteractiveKeys.speeds[speedIndex] }
    public var isPaused: Bool { paused }
}

// MARK: - The terminal (termios, signals, raw I/O)

nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var rawTermios = termios()
nonisolated(unsafe) private var termiosSaved = false
nonisolated(unsafe) private var resizePending: sig_atomic_t = 0
nonisolated(unsafe) private var continuedPending: sig_atomic_t = 0

/// Raw mode and the alternate screen, always undone: on return and on an error (the caller's
/// `defer`), on SIGINT, SIGTERM, SIGHUP and SIGQUIT (Ctrl-\), and on a crash (SIGILL/SIGTRAP from
/// a Swift trap, SIGABRT, SIGSEGV, SIGBUS, SIGFPE: restored, then the signal's default action).
/// Ctrl-Z (SIGTSTP) restores the terminal before the process stops; SIGCONT (`fg`) puts it back
/// in raw mode on the alternate screen and redraws everything. docs/simulator.md.
enum Terminal {
    static let leave: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    static let enter: StaticString = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"

    /// The signals that end the session (the terminal is restored, exit status 128 + signal).
    static let quitSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    /// Crashes: the terminal is restored, then the signal does what it would have (core, report).
    static let crashSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    static func enterRaw() {
        var t = termios()
        if tcgetattr(0, &t) == 0 {
            var raw = t
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)   // ISIG stays: Ctrl-C, Ctrl-\\, Ctrl-Z are signals
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 0
                cc[Int(VTIME)] = 0
            }
            // Every global is set before the flag that says they are (no lazy initialisation of
            // one of them may run later, e.g. inside a signal handler).
            savedTermios = t
            rawTermios = raw
            termiosSaved = true
            tcsetattr(0, TCSANOW, &raw)
        }
        let quit: @convention(c) (Int32) -> Void = { sig in
            Terminal.restore()
            _exit(128 + sig)
        }
        for sig in quitSignals { signal(sig, quit) }
        let crash: @convention(c) (Int32) -> Void = { sig in
            Terminal.restore()
            signal(sig, SIG_DFL)
            raise(sig)
        }
        for sig in crashSignals { signal(sig, crash) }
        signal(SIGTSTP, suspend)
        signal(SIGCONT, resume)
        signal(SIGWINCH) { _ in resizePending = 1 }
        _ = Glibc.write(1, enter.utf8Start, enter.utf8CodeUnitCount)
    }

    /// Ctrl-Z: give the shell its terminal back (line mode, main screen), then really stop.
    /// Everything here is async-signal-safe (write, tcsetattr, signal, raise).
    static let suspend: @convention(c) (Int32) -> Void = { _ in
        Terminal.restore()
        signal(SIGTSTP, SIG_DFL)
        // SIGTSTP is blocked while its handler runs: unblock it, or raise would only mark it
        // pending and the process would never stop.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        raise(SIGTSTP)                 // stops here until SIGCONT
        signal(SIGTSTP, Terminal.suspend)
        continuedPending = 1
    }

    /// `fg` (or any SIGCONT, also after SIGSTOP): raw mode and the alternate screen again, and a
    /// full redraw (the screen was the shell's meanwhile).
    /// The loop does it (`takeContinued`): the shell may still be handing the terminal over
    /// while the handler runs.
    static let resume: @convention(c) (Int32) -> Void = { _ in continuedPending = 1 }

    /// After a SIGCONT: raw mode and the alternate screen again; true when the caller must
    /// redraw everything.
    static func takeContinued() -> Bool {
        guard continuedPending != 0 else { return false }
        continuedPending = 0
        if termiosSaved { tcsetattr(0, TCSANOW, &rawTermios) }
        _ = Glibc.write(1, enter.utf8Start, enter.utf8CodeUnitCount)
        return true
    }

    /// Leaves raw mode and the alternate screen (safe to call twice and from a signal handler).
    static func restore() {
        _ = Glibc.write(1, leave.utf8Start, leave.utf8CodeUnitCount)   // no allocation: signal-safe
        if termiosSaved { tcsetattr(0, TCSANOW, &savedTermios) }
    }

    /// Puts the default signal actions back (after `restore` on a normal return).
    static func resetSignals() {
        for sig in quitSignals + crashSignals + [SIGTSTP, SIGCONT, SIGWINCH] { signal(sig, SIG_DFL) }
    }

    static func takeResize() -> Bool {
        guard resizePending != 0 else { return false }
        resizePending = 0
        return true
    }

    static func size() -> (cols: Int, lines: Int)? {
        var w = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &w) == 0, w.ws_col > 0, w.ws_row > 0 else { return nil }
        return (Int(w.ws_col), Int(w.ws_row))
    }

    static func monotonicNs() -> UInt64 { SystemClock().monotonicNs }

    /// Bytes available on stdin within `timeoutMs` (empty if none). `alsoWaitOn` (the phone
    /// link's descriptor) ends the wait early too.
    static func readInput(timeoutMs: Int32, alsoWaitOn extra: Int32? = nil) -> [UInt8] {
        guard let ready = try? PollWait.wait(for: [0] + (extra.map { [$0] } ?? []), timeoutMs: timeoutMs), ready.contains(0) else { return [] }
        var buf = [UInt8](repeating: 0, count: 256)
        let n = buf.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        return n > 0 ? Array(buf[0..<n]) : []
    }

    static func write(_ s: String) {
        guard !s.isEmpty else { return }
        let bytes = Array(s.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
            if n <= 0 { if errno == EINTR { continue }; return }
            off += n
        }
    }
}
