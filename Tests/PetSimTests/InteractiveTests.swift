// InteractiveTests.swift — the interactive simulator: key parsing and the key map, the half-block
// terminal renderer (only changed cells are redrawn), the session's actions, and the real binary
// driven inside a detached tmux session (send-keys in, capture-pane out).

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import XCTest
import PetSim
import PetUI
import PetDevice
import TestSupport

final class InteractiveTests: XCTestCase {

    // MARK: - Keys

    func testKeyParserReadsCharactersArrowsAndSplitSequences() {
        var p = TerminalKeyParser()
        XCTAssertEqual(p.feed(Array("aB+ ".utf8)), [.char("a"), .char("B"), .char("+"), .char(" ")])
        XCTAssertEqual(p.feed([0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x44]), [.up, .left])
        // An escape sequence split across reads waits for its end.
        XCTAssertEqual(p.feed([0x1B]), [])
        XCTAssertEqual(p.feed([0x5B]), [])
        XCTAssertEqual(p.feed([0x43, UInt8(ascii: "q")]), [.right, .char("q")])
        // Unknown sequences (here F5) are dropped whole; Enter and Ctrl-L are keys.
        XCTAssertEqual(p.feed(Array("\u{1B}[15~\r\u{0C}".utf8)), [.enter, .redraw])
    }

    func testKeyMap() {
        XCTAssertEqual(InteractiveKeys.action(for: .char("a")), .tap(.a))
        XCTAssertEqual(InteractiveKeys.action(for: .char("b")), .tap(.b))
        XCTAssertEqual(InteractiveKeys.action(for: .char("c")), .tap(.c))
        XCTAssertEqual(InteractiveKeys.action(for: .char("A")), .long(.a))
        XCTAssertEqual(InteractiveKeys.action(for: .char("C")), .long(.c))
        XCTAssertEqual(InteractiveKeys.action(for: .char("x")), .chord)
        XCTAssertEqual(InteractiveKeys.action(for: .char("X")), .chordHold)
        XCTAssertEqual(InteractiveKeys.action(for: .char("+")), .faster)
        XCTAssertEqual(InteractiveKeys.action(for: .char("-")), .slower)
        XCTAssertEqual(InteractiveKeys.action(for: .char(" ")), .pause)
        XCTAssertEqual(InteractiveKeys.action(for: .char("q")), .quit)
        XCTAssertNil(InteractiveKeys.action(for: .char("z")))
        // D and the joystick are buttons when the input layout has them.
        for (key, name) in [(TerminalKey.char("d"), "d"), (.up, "up"), (.down, "down"), (.left, "left"), (.right, "right")] {
            if let b = InteractiveKeys.button(name) {
                XCTAssertEqual(InteractiveKeys.action(for: key), .tap(b))
            } else {
                XCTAssertEqual(InteractiveKeys.action(for: key), .noSuchButton(name))
            }
        }
        XCTAssertEqual(InteractiveKeys.speeds, [1, 60, 3600])
    }

    // MARK: - Terminal renderer

    func testHalfBlocksCarryTheUpperAndLowerPixel() {
        var canvas = Canvas(width: 4, height: 4, background: .black)
        canvas.setPixel(x: 1, y: 0, color: .red)     // upper half of cell (row 0, column 1)
        canvas.setPixel(x: 1, y: 1, color: .blue)    // its lower half
        var screen = TerminalScreen(scale: 1)
        let first = screen.update(canvas)
        XCTAssertEqual(screen.columns, 4)
        XCTAssertEqual(screen.rows, 2)
        XCTAssertEqual(first.filter { $0 == "▀" }.count, 8, "every cell drawn once")
        XCTAssertTrue(first.contains("\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m▀"), first)
        XCTAssertEqual(screen.update(canvas), "", "nothing changed, nothing drawn")

        canvas.setPixel(x: 3, y: 3, color: .green)  // lower half of cell (row 1, column 3)
        let second = screen.update(canvas, region: canvas.dirty)
        XCTAssertEqual(second.filter { $0 == "▀" }.count, 1, second)
        XCTAssertTrue(second.hasPrefix("\u{1B}[2;4H"), "cursor to row 2, column 4: \(second)")
        XCTAssertTrue(second.contains("48;2;0;255;0m"), second)

        screen.invalidate()
        XCTAssertEqual(screen.update(canvas).filter { $0 == "▀" }.count, 8)
    }

    func testScaledCellsAverageTheirBlockAndFitTheTerminal() {
        var canvas = Canvas(width: 4, height: 4, background: .black)
        canvas.fillRect(x: 0, y: 0, w: 1, h: 2, color: .white)   // half of the upper-left 2×2 block
        var screen = TerminalScreen(scale: 2)
        let out = screen.update(canvas)
        XCTAssertEqual(screen.columns, 2)
        XCTAssertEqual(screen.rows, 1)
        XCTAssertTrue(out.contains("38;2;128;128;128m"), out)
        XCTAssertEqual(TerminalScreen.fittingScale(width: 240, height: 240, cols: 250, lines: 130), 1)
        XCTAssertEqual(TerminalScreen.fittingScale(width: 240, height: 240, cols: 200, lines: 70), 2)
        XCTAssertEqual(TerminalScreen.fittingScale(width: 240, height: 240, cols: 80, lines: 24), 6)
        XCTAssertEqual(TerminalScreen.fittingScale(width: 128, height: 64, cols: 80, lines: 24), 2)
    }

    // MARK: - Session (without a terminal)

    func testSessionActionsDriveTheDeviceAndTheStatusLine() throws {
        let session = try InteractiveSession(options: .init())
        let device = session.simDevice
        XCTAssertEqual(device.app.state.pet.name, "Mochi")
        XCTAssertEqual(device.app.state.tasks.count, 3)
        let status = InteractiveSession.status(device: device, speed: 60, paused: false)
        XCTAssertTrue(status.contains("Mon 2026-03-02 08:00"), status)
        XCTAssertTrue(status.contains("60×"), status)
        XCTAssertTrue(status.contains("coins 0 · Lv 1"), status)
        XCTAssertTrue(InteractiveSession.status(device: device, speed: 1, paused: true).contains("paused"))

        let before = device.nowMs
        try session.perform(.faster)
        XCTAssertEqual(session.speed, 60)
        try session.perform(.faster); try session.perform(.faster)
        XCTAssertEqual(session.speed, 3600)
        try session.perform(.slower)
        XCTAssertEqual(session.speed, 60)
        try session.perform(.pause)
        XCTAssertTrue(session.isPaused)
        let pixels = device.canvas.pixels
        try session.perform(.tap(.a))
        try session.perform(.long(.b))
        XCTAssertGreaterThan(device.nowMs, before, "a gesture takes virtual time")
        XCTAssertNotEqual(device.canvas.pixels, pixels, "the buttons changed the screen")
    }

    /// `--interactive --link unix:PATH`: a phone connects while the session runs, says hello and
    /// asks to pair; the code the device shows is on the status line, and goes when the phone does.
    func testALinkIsServedAndThePairingCodeShowsOnTheStatusLine() throws {
        let dir = try makeTemporaryDirectory("interactive-link")
        defer { removeTemporaryDirectory(dir) }
        let path = dir.appendingPathComponent("pet.sock").path
        var o = InteractiveSession.Options()
        o.link = "unix:\(path)"
        let session = try InteractiveSession(options: o)
        XCTAssertEqual(session.linkDescription, "unix:\(path)")
        XCTAssertNotNil(session.linkDescriptor)
        let device = session.simDevice
        XCTAssertFalse(InteractiveSession.status(device: device, speed: 1, paused: false).contains("pairing code"))

        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &sa.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        XCTAssertEqual(r, 0)
        for json in [#"{"type":"hello","version":1}"#, #"{"type":"pair.begin"}"#] {
            let body = Array(json.utf8)
            let frame = [0, 0, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
            _ = frame.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        // Serve as the input loop does (waiting on the link's descriptor, bounded), with time paused.
        try session.perform(.pause)
        for _ in 0..<200 where device.ui.pairingCode == nil {
            var p = pollfd(fd: session.linkDescriptor ?? -1, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 10)
            try session.serveLink()
        }
        let code = try XCTUnwrap(device.ui.pairingCode)
        XCTAssertEqual(code.count, 6)
        XCTAssertTrue(InteractiveSession.status(device: device, speed: 1, paused: true).contains("📱 pairing code \(code)"))
        close(fd)
        for _ in 0..<200 where device.ui.pairingCode != nil {
            var p = pollfd(fd: session.linkDescriptor ?? -1, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 10)
            try session.serveLink()
        }
        XCTAssertNil(device.ui.pairingCode, "the phone went: the code is hidden")
        XCTAssertFalse(InteractiveSession.status(device: device, speed: 1, paused: true).contains("pairing code"))
    }

    func testRefusesWithoutATerminal() throws {
        // Under CI (and `swift test` from a script) standard input is not a terminal; run by hand
        // from a terminal this case cannot be reached, so there is nothing to check then.
        if isatty(0) != 0 { return }
        let session = try InteractiveSession(options: .init())
        XCTAssertThrowsError(try session.run()) { error in
            XCTAssertTrue("\(error)".contains("needs a terminal"), "\(error)")
        }
    }

    // MARK: - The binary inside tmux

    static var simulatorBinary: String? {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = testBinary.deletingLastPathComponent()
        if dir.lastPathComponent == "MacOS" || dir.lastPathComponent == "Contents" {
            while dir.pathExtension != "xctest", dir.path != "/" { dir.deleteLastPathComponent() }
            dir.deleteLastPathComponent()
        }
        let sim = dir.appendingPathComponent("deskpet-sim").path
        return FileManager.default.isExecutableFile(atPath: sim) ? sim : nil
    }

    static var tmuxPath: String? {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A tmux server of its own (its own socket), killed at the end whatever happens.
    final class Tmux {
        let path: String
        /// The server's socket, in a temporary folder of its own (removed with the server).
        let socketDir = FileManager.default.temporaryDirectory.appendingPathComponent("deskpet-tmux-\(UUID().uuidString.prefix(8))")
        var socket: String { socketDir.appendingPathComponent("s").path }
        init(path: String) throws {
            self.path = path
            try FileManager.default.createDirectory(at: socketDir, withIntermediateDirectories: true)
        }

        /// Runs tmux with `args`, returning its status and output. Started with posix_spawn rather
        /// than Foundation's Process: the server that `new-session` forks inherits what its client
        /// had open, and Process would wait for its own bookkeeping descriptors to close — that is,
        /// for the server to end.
        @discardableResult
        func run(_ args: [String]) throws -> (status: Int32, output: String) {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString).out")
            defer { try? FileManager.default.removeItem(at: out) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, out.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            let argv = [path, "-S", socket, "-f", "/dev/null"] + args
            var cargs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
            defer { for a in cargs { free(a) } }
            var pid: pid_t = 0
            let rc = posix_spawn(&pid, path, &actions, nil, &cargs, environ)
            guard rc == 0 else { throw NSError(domain: "tmux", code: Int(rc)) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let data = (try? Data(contentsOf: out)) ?? Data()
            let exited = (status & 0x7F) == 0
            return (exited ? (status >> 8) & 0xFF : -1, String(decoding: data, as: UTF8.self))
        }

        func capture() throws -> String { try run(["capture-pane", "-p", "-e", "-t", "sim"]).output }

        func kill() {
            _ = try? run(["kill-server"])
            try? FileManager.default.removeItem(at: socketDir)
        }
    }

    /// Polls `condition` on the captured pane until it holds (generous timeout; never a timing assertion).
    func waitFor(_ tmux: Tmux, _ what: String, timeout: Double = 60, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try tmux.capture()
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTFail("timed out waiting for \(what); the pane shows:\n\(Self.plain(last))")
        return last
    }

    /// The pane without colour sequences.
    static func plain(_ s: String) -> String {
        s.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    /// The picture: the pane's lines above the status line.
    static func picture(_ pane: String) -> String {
        let lines = pane.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.prefix { !plain(String($0)).hasPrefix("DeskPet ") }.joined(separator: "\n")
    }

    static func statusLine(_ pane: String) -> String {
        plain(pane).split(separator: "\n").first { $0.hasPrefix("DeskPet ") }.map(String.init) ?? ""
    }

    func testRunsInsideTmuxWithSendKeysAndCapturePane() throws {
        guard let sim = Self.simulatorBinary else { return XCTFail("deskpet-sim is not built next to the tests; swift test builds it") }
        guard let tmuxPath = Self.tmuxPath else { return XCTFail("tmux is not installed: run tools/setup-debian.sh") }
        let tmux = try Tmux(path: tmuxPath)
        defer { tmux.kill() }
        // 120×60 cells show 240×240 pixels at scale 2; three status lines below.
        let started = try tmux.run(["new-session", "-d", "-s", "sim", "-x", "130", "-y", "66",
                                    "exec '\(sim)' --interactive --scale 2"])
        XCTAssertEqual(started.status, 0, started.output)

        var pane = try waitFor(tmux, "the status line") { Self.statusLine($0).contains("▶ 1×") }
        XCTAssertTrue(Self.statusLine(pane).contains("DeskPet Mon 2026-03-02"), Self.statusLine(pane))
        XCTAssertTrue(Self.statusLine(pane).contains("coins 0 · Lv 1"), Self.statusLine(pane))
        let picture = Self.picture(pane)
        XCTAssertEqual(picture.split(separator: "\n").count, 60, "240 pixel rows in 60 cell rows")
        XCTAssertGreaterThan(picture.filter { $0 == "▀" }.count, 120 * 50, "half-block cells")
        XCTAssertTrue(picture.contains("38;2;"), "24-bit foreground colours")
        XCTAssertTrue(picture.contains("48;2;"), "24-bit background colours")

        // Stop time, so that only the buttons change the picture.
        try tmux.run(["send-keys", "-t", "sim", "space"])
        pane = try waitFor(tmux, "pause") { Self.statusLine($0).contains("paused") }
        let still = Self.picture(pane)

        // A button changes the picture (tap A; should a navigator ever leave that screen alone, B).
        var changed = false
        for key in ["a", "b"] where !changed {
            try tmux.run(["send-keys", "-t", "sim", key])
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                pane = try tmux.capture()
                if Self.picture(pane) != still && Self.plain(pane).contains("tap \(key.uppercased())") { changed = true; break }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        XCTAssertTrue(changed, "a key press did not change the picture:\n\(Self.plain(pane))")

        // Speed control.
        try tmux.run(["send-keys", "-t", "sim", "space", "+"])
        pane = try waitFor(tmux, "60×") { Self.statusLine($0).contains("▶ 60×") }

        // q quits: the program ends and the pane closes (the terminal was restored).
        try tmux.run(["send-keys", "-t", "sim", "q"])
        let deadline = Date().addingTimeInterval(30)
        var alive = true
        while Date() < deadline {
            if try tmux.run(["has-session", "-t", "sim"]).status != 0 { alive = false; break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertFalse(alive, "q did not quit")
    }

    /// Ctrl-Z gives the shell a normal terminal (main screen, line mode), `fg` brings the device
    /// back (raw, alternate screen, redrawn), and Ctrl-\\ (SIGQUIT) leaves the terminal restored.
    func testSuspendResumeAndQuitSignalRestoreTheTerminal() throws {
        guard let sim = Self.simulatorBinary else { return XCTFail("deskpet-sim is not built next to the tests; swift test builds it") }
        guard let tmuxPath = Self.tmuxPath else { return XCTFail("tmux is not installed: run tools/setup-debian.sh") }
        let tmux = try Tmux(path: tmuxPath)
        defer { tmux.kill() }
        let started = try tmux.run(["new-session", "-d", "-s", "sim", "-x", "130", "-y", "66", "exec bash --norc --noprofile"])
        XCTAssertEqual(started.status, 0, started.output)
        func alternate() throws -> String {
            try tmux.run(["display", "-p", "-t", "sim", "#{alternate_on}"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func waitAlternate(_ on: Bool, _ what: String) throws {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, try alternate() != (on ? "1" : "0") { Thread.sleep(forTimeInterval: 0.1) }
            XCTAssertEqual(try alternate(), on ? "1" : "0", what)
        }
        try tmux.run(["send-keys", "-t", "sim", "PS1='READY$ '; '\(sim)' --interactive --scale 2", "Enter"])
        _ = try waitFor(tmux, "the device") { Self.statusLine($0).contains("▶ 1×") }
        try waitAlternate(true, "the device runs on the alternate screen")

        try tmux.run(["send-keys", "-t", "sim", "C-z"])
        try waitAlternate(false, "Ctrl-Z must leave the alternate screen")
        try tmux.run(["send-keys", "-t", "sim", "clear; stty -a | tr ' ' '\\n' | grep -x -- '-\\?icanon\\|-\\?echo' | tr '\\n' ' '; echo SUSPENDED", "Enter"])
        let modes = "-?icanon -?echo SUSPENDED"
        var pane = try waitFor(tmux, "the shell's stty output") { Self.plain($0).range(of: modes, options: .regularExpression) != nil }
        XCTAssertNotNil(Self.plain(pane).range(of: "(^|\n)icanon echo SUSPENDED", options: .regularExpression),
                      "after Ctrl-Z the shell must have line mode back:\n\(Self.plain(pane))")

        try tmux.run(["send-keys", "-t", "sim", "fg", "Enter"])
        try waitAlternate(true, "fg must put the device back on the alternate screen")
        pane = try waitFor(tmux, "the redrawn device") { Self.statusLine($0).contains("▶ 1×") && $0.contains("▀") }
        // Keys work again (raw mode): pause shows at once, without Enter.
        try tmux.run(["send-keys", "-t", "sim", "space"])
        _ = try waitFor(tmux, "pause after fg") { Self.statusLine($0).contains("paused") }

        try tmux.run(["send-keys", "-t", "sim", "C-\\"])
        try waitAlternate(false, "Ctrl-\\ must leave the alternate screen")
        try tmux.run(["send-keys", "-t", "sim", "s=$?; clear; echo status=$s; stty -a | tr ' ' '\\n' | grep -x -- '-\\?icanon\\|-\\?echo' | tr '\\n' ' '; echo QUIT", "Enter"])
        pane = try waitFor(tmux, "the shell after Ctrl-\\") { Self.plain($0).range(of: "-?icanon -?echo QUIT", options: .regularExpression) != nil }
        XCTAssertTrue(Self.plain(pane).contains("status=131"), Self.plain(pane))
        XCTAssertNotNil(Self.plain(pane).range(of: "(^|\n)icanon echo QUIT", options: .regularExpression),
                      "after Ctrl-\\ the terminal must be in line mode:\n\(Self.plain(pane))")
    }
}
