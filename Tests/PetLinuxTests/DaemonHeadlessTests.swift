import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
import PetLink
import TestSupport

/// The real daemon on a simulator board: `deskpet run --board sim-240x240` runs headless on any
/// machine (a headless panel, keys nobody presses, a buzzer and LED that record), serves its link
/// on a Unix socket, pairs a phone with the code its log shows (the log is a headless board's
/// screen), stores a command, dumps its frame on SIGUSR1 and stops cleanly on SIGTERM.
final class DaemonHeadlessTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("deskpet-headless") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    func daemon() throws -> String {
        var d = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while d.pathExtension == "xctest" || d.lastPathComponent == "MacOS" || d.lastPathComponent == "Contents" {
            d.deleteLastPathComponent()
        }
        let path = d.appendingPathComponent("deskpet").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            XCTFail("deskpet is not built next to the tests (\(d.path)); swift test builds it")
            throw CocoaError(.fileNoSuchFile)
        }
        return path
    }

    /// The daemon's log, read line by line as it comes (poll(2) on the pipe, bounded).
    struct NoSuchLine: Error {}

    final class LogLines {
        let fd: Int32
        var buffer: [UInt8] = []
        var lines: [String] = []
        init(_ handle: FileHandle) { fd = handle.fileDescriptor }

        /// Reads until a line satisfies `match` (returned), the pipe ends, or `limitMs` passes.
        func until(limitMs: Int32 = 30_000, _ match: (String) -> Bool) throws -> String {
            if let l = lines.first(where: match) { return l }
            var waited: Int32 = 0
            while waited < limitMs {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let before = monotonicMs()
                let r = poll(&p, 1, limitMs - waited)
                waited += Int32(clamping: monotonicMs() - before)
                guard r > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = read(fd, &chunk, chunk.count)
                guard n > 0 else { break }
                buffer += chunk[0..<n]
                while let nl = buffer.firstIndex(of: 10) {
                    let line = String(decoding: buffer[..<nl], as: UTF8.self)
                    buffer.removeSubrange(...nl)
                    lines.append(line)
                    if match(line) { return line }
                }
            }
            throw NoSuchLine()
        }

        func monotonicMs() -> Int64 {
            var ts = timespec()
            clock_gettime(CLOCK_MONOTONIC, &ts)
            return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
        }
    }

    /// `deskpet run` on the sim-240x240 board with its journal in `data` and its link on the Unix
    /// socket `socket`; its log (stderr) read line by line.
    func startDaemon(data: String, socket: String) throws -> (Process, LogLines) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try daemon())
        p.arguments = ["run", "--board", "sim-240x240", "--data", data, "--zone", "UTC", "--fps", "0", "--link", "unix:" + socket]
        p.currentDirectoryURL = dir
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        return (p, LogLines(err.fileHandleForReading))
    }

    func testASimulatorBoardRunsHeadlessServesTheLinkAndStopsOnSIGTERM() throws {
        let data = dir.appendingPathComponent("data").path
        let socket = dir.appendingPathComponent("link.sock").path
        let (p, log) = try startDaemon(data: data, socket: socket)
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() } }
        func line(_ says: String) throws -> String {
            do { return try log.until { $0.contains(says) } } catch {
                XCTFail("the daemon never logged '\(says)': \(log.lines.joined(separator: "\n"))")
                throw error
            }
        }
        _ = try line("ready: first frame on the panel")

        // Pair with the code the (headless) screen shows, which the log repeats.
        let client = try LinkClient(address: .unix(path: socket), timeoutSeconds: 10)
        _ = try client.hello(token: nil)
        var codeLine = ""
        let paired = try client.pair(name: "Headless test") { () throws(LinkClientError) -> String in
            do { codeLine = try line("pairing code (headless simulator board): ") } catch {
                throw .protocolViolation(what: "no pairing code in the log")
            }
            return String(codeLine.split(separator: " ").last ?? "")
        }
        XCTAssertEqual(paired.token.utf8.count, 64)
        client.close()

        // A paired phone's command is stored.
        let phone = try LinkClient(address: .unix(path: socket), timeoutSeconds: 10)
        let welcome = try phone.hello(token: paired.token)
        XCTAssertEqual(welcome["paired"], .bool(true))
        let outcome = try phone.command(QueuedCommand(id: "headless-1", name: "task.create",
                                                      fields: ["task": "t1", "title": "Water the plants"]))
        guard case .reply = outcome else { return XCTFail("task.create: \(outcome)") }
        phone.close()

        // SIGUSR1: what the headless panel shows, as the daemon on a board dumps it.
        XCTAssertEqual(kill(p.processIdentifier, SIGUSR1), 0)
        _ = try line("frame dump 1: 240x240")
        XCTAssertTrue(FileManager.default.fileExists(atPath: data + "/frame.dump"))

        XCTAssertEqual(kill(p.processIdentifier, SIGTERM), 0)
        _ = try line("stopped: journal closed, panel blank")
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, log.lines.joined(separator: "\n"))
        XCTAssertFalse(log.lines.contains { $0.contains("Water the plants") }, "no personal text in the log")
        XCTAssertTrue(log.lines.contains { $0.contains("starting on board sim-240x240") }, log.lines.joined(separator: "\n"))

        // The command is in the journal the daemon closed.
        let export = try runTool(try daemon(), ["export", "--data", data], cwd: dir)
        XCTAssertEqual(export.status, 0, export.output)
        XCTAssertTrue(export.stdout.contains("Water the plants"), export.stdout)
    }

    /// The whole-file check runs after the first frame (docs/storage.md, "Integrity"): a damaged
    /// page that start-up does not read lets the pet start, then the check finds it and the daemon
    /// enters recovery mode (the export written, no link served) instead of going on.
    func testDamageOnlyTheBackgroundCheckReadsEntersRecoveryMode() throws {
        let data = dir.appendingPathComponent("data").path
        let socket = dir.appendingPathComponent("link.sock").path
        // A healthy journal: the check passes.
        var (p, log) = try startDaemon(data: data, socket: socket)
        _ = try log.until { $0.contains("journal: integrity check passed") }
        XCTAssertEqual(kill(p.processIdentifier, SIGTERM), 0)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)

        // Pages no start-up read touches (a table of its own), one of them scribbled over.
        let db = data + "/deskpet.db"
        let fill = try runTool("/usr/bin/sqlite3", [db, "CREATE TABLE spare(x); WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i<2000) INSERT INTO spare SELECT randomblob(300) FROM c;"])
        XCTAssertEqual(fill.status, 0, fill.stderr)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        let page = bytes.count / 1024 * 3 / 4
        for i in (page * 1024)..<((page + 1) * 1024) { bytes[i] = UInt8(truncatingIfNeeded: i &* 131 &+ 7) }
        try bytes.write(to: URL(fileURLWithPath: db))

        (p, log) = try startDaemon(data: data, socket: socket)
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() } }
        _ = try log.until { $0.contains("ready: first frame on the panel") }
        let recovery = try log.until { $0.contains("recovery mode: journal rows can't be read: integrity check") }
        XCTAssertTrue(recovery.contains("corrupt"), recovery)
        _ = try log.until { $0.contains("recovery mode: every journal row exported") }
        XCTAssertTrue(FileManager.default.fileExists(atPath: data + "/recovery-export.json"))
        XCTAssertThrowsError(try LinkClient(address: .unix(path: socket), timeoutSeconds: 2).hello(token: nil),
                             "no link is served in recovery mode")
        XCTAssertEqual(kill(p.processIdentifier, SIGTERM), 0)
        _ = try log.until { $0.contains("recovery mode: stopped") }
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "recovery mode never exits with a failure")
    }
}
