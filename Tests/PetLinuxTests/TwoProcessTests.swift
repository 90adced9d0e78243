import Foundation
#if canImport(Glibc)
import Glibc
#endif
import XCTest
import TestSupport
import PetStore

/// Two real processes on one journal and one link socket (docs/daemon.md, "One process per data
/// folder"): a running `deskpet-sim` serving its link holds its journal's writer lock and its
/// socket; a second writer is refused at start, the socket is never replaced, and `deskpet export`
/// still reads beside it.
final class TwoProcessTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("two-processes") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    func tool(_ name: String) -> String { Repository.executable(name).path }

    func testASecondWriterAndASecondServerAreRefusedWhileTheFirstRuns() throws {
        let scenario = dir.appendingPathComponent("serve.scenario").path
        try "start 2026-06-01 08:00 zone=UTC\nsend task.create task=t title=Water due=\"today 21:00\"\nserve 60s\n"
            .write(toFile: scenario, atomically: true, encoding: .utf8)
        let sock = dir.appendingPathComponent("pet.sock").path
        let first = Process()
        first.executableURL = URL(fileURLWithPath: tool("deskpet-sim"))
        first.arguments = ["run", scenario, "--link", "unix:" + sock, "--out", dir.appendingPathComponent("one").path, "-v"]
        let out = Pipe()
        first.standardOutput = out
        first.standardError = FileHandle.nullDevice
        try first.run()
        defer { if first.isRunning { first.terminate() }; first.waitUntilExit() }
        // It prints each step as it runs: once at `serve`, the journal is open and the socket bound.
        var printed = Data()
        while !String(decoding: printed, as: UTF8.self).contains("serve 60s") {
            let d = out.fileHandleForReading.availableData
            if d.isEmpty { break }
            printed += d
        }
        var st = stat()
        XCTAssertEqual(lstat(sock, &st), 0, "the first simulator serves \(sock): \(String(decoding: printed, as: UTF8.self))")
        let inode = st.st_ino

        // A second writer on its journal is refused at once, naming the journal.
        let db = dir.appendingPathComponent("one/serve/deskpet.db").path
        XCTAssertThrowsError(try EventStore(path: db)) { error in
            guard case StoreError.locked? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("is in use"), "\(error)")
        }
        // A second simulator on the same link socket stops with a clear message; the socket stays.
        let second = try runTool(tool("deskpet-sim"), ["run", scenario, "--link", "unix:" + sock, "--out", dir.appendingPathComponent("two").path, "-q"])
        XCTAssertNotEqual(second.status, 0)
        XCTAssertTrue((second.stdout + second.stderr).contains("another process"), second.stdout + second.stderr)
        XCTAssertEqual(lstat(sock, &st), 0)
        XCTAssertEqual(st.st_ino, inode, "the running simulator's socket was not replaced")
        // A second simulator writing into the same --out folder is refused before it removes the
        // running one's journal.
        var before = stat(), after = stat()
        XCTAssertEqual(stat(db, &before), 0)
        let third = try runTool(tool("deskpet-sim"), ["run", scenario, "--out", dir.appendingPathComponent("one").path, "-q"])
        XCTAssertNotEqual(third.status, 0)
        XCTAssertTrue((third.stdout + third.stderr).contains("is in use"), third.stdout + third.stderr)
        XCTAssertEqual(stat(db, &after), 0)
        XCTAssertEqual(after.st_ino, before.st_ino, "the running simulator's journal was not removed")
        // An export only reads: it works beside the writer.
        let data = dir.appendingPathComponent("one/serve").path
        let export = try runTool(tool("deskpet"), ["export", "--data", data])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stdout.contains("task.created"), export.stderr)

        // Once the first one is gone (killed, as a crash), nothing blocks the next writer.
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        let next = try EventStore(path: db)
        XCTAssertGreaterThan(try next.eventCount(), 0)
        next.close()
    }
}
