import Foundation
import XCTest
import TestSupport
import PetCore
import PetSim
import PetStore
#if canImport(Glibc)
import Glibc
#endif

/// `deskpet export`: every journal row as stored, also when a row can't be read (recovery mode,
/// docs/storage.md), without changing the journal.
final class DaemonExportTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("deskpet-export") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    func daemon() -> String {
        var d = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while d.pathExtension == "xctest" { d.deleteLastPathComponent() }
        return d.appendingPathComponent("deskpet").path
    }

    func testExportNamesTheUnreadableRowAndChangesNothing() throws {
        let data = dir.appendingPathComponent("data").path
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let db = data + "/deskpet.db"
        let device = try SimDevice(dbPath: db, start: Instant(1_772_434_800), zone: "UTC", boot: false)
        try device.send(try CommandParser.parse(name: "task.create", fields: ["task": "t", "title": "Water", "due": "today 21:00"],
                                                id: "c1", at: device.now, clock: device.app.state.clock))
        device.app.store.close()

        let good = try runTool(daemon(), ["export", "--data", data])
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertTrue(good.stdout.contains("deskpet-recovery-1"), good.stdout)
        XCTAssertTrue(good.stdout.contains("every row can be read"), good.stdout)

        let edit = try runTool("/usr/bin/sqlite3", [db, "UPDATE events SET at = 9223372036854775807 WHERE seq = 2;"])
        XCTAssertEqual(edit.status, 0, edit.stderr)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let out = dir.appendingPathComponent("rows.json").path
        let bad = try runTool(daemon(), ["export", "--data", data, out])
        XCTAssertEqual(bad.status, 0, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("row 2 can't be read"), bad.stderr)
        XCTAssertFalse(bad.stderr.contains("Water"), "logs never contain personal text")
        let doc = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any]
        XCTAssertEqual(doc?["unreadableSeq"] as? Int, 2)
        XCTAssertEqual((doc?["rows"] as? [Any])?.count, 2)
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: db)), before, "the journal is left as it was")
    }

    /// A data folder with a small journal, closed (no -wal or -shm beside it).
    func smallJournal() throws -> String {
        let data = dir.appendingPathComponent("data").path
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let device = try SimDevice(dbPath: data + "/deskpet.db", start: Instant(1_772_434_800), zone: "UTC", boot: false)
        try device.send(try CommandParser.parse(name: "task.create", fields: ["task": "t", "title": "Water", "due": "today 21:00"],
                                                id: "c1", at: device.now, clock: device.app.state.clock))
        device.app.store.close()
        return data
    }

    func testExportRefusesADestinationThatIsNotARegularFileAndFailsOnAFullOutput() throws {
        let data = try smallJournal()
        let fifo = dir.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let target = dir.appendingPathComponent("target").path
        XCTAssertTrue(FileManager.default.createFile(atPath: target, contents: Data("mine".utf8)))
        let link = dir.appendingPathComponent("link").path
        XCTAssertEqual(symlink(target, link), 0)
        for (path, kind) in [(fifo, "a FIFO"), (link, "a symbolic link"), ("/dev/null", "a character device"), (dir.path, "a folder")] {
            let r = try runTool(daemon(), ["export", "--data", data, path])
            XCTAssertEqual(r.status, 1, path)
            XCTAssertTrue(r.stderr.contains("is \(kind), not a regular file"), r.stderr)
        }
        var st = stat()
        XCTAssertEqual(lstat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")
        XCTAssertEqual(lstat(link, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFLNK, "the symlink is still a symlink")
        XCTAssertEqual(FileManager.default.contents(atPath: target), Data("mine".utf8), "its target is untouched")
        XCTAssertEqual(lstat("/dev/null", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFCHR)
        // A regular file is replaced, a new one created.
        for path in [target, dir.appendingPathComponent("new.json").path] {
            let r = try runTool(daemon(), ["export", "--data", data, path])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self).contains("deskpet-recovery-1"))
        }
        // Standard output that cannot take it (a full disk) is an error, not exit 0.
        let full = try runTool("/bin/sh", ["-c", "exec \"$0\" export --data \"$1\" > /dev/full", daemon(), data])
        XCTAssertEqual(full.status, 1, full.stderr)
        XCTAssertTrue(full.stderr.contains("standard output: write failed"), full.stderr)
    }

    func testExportOfAReadOnlyDataFolderReadsOnly() throws {
        let data = try smallJournal()
        let db = data + "/deskpet.db"
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        XCTAssertEqual(chmod(db, 0o444), 0)
        XCTAssertEqual(chmod(data, 0o555), 0)
        defer { chmod(data, 0o755) }
        XCTAssertEqual(chmod(dir.path, 0o755), 0)
        // As root the folder's mode would not stop a write: run the export as nobody then.
        let asNobody = geteuid() == 0
        if asNobody { try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs setpriv to drop root") }
        let r = asNobody
            ? try runTool("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", daemon(), "export", "--data", data])
            : try runTool(daemon(), ["export", "--data", data])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("every row can be read"), r.stdout)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["rows"].map { ($0 as? [Any])?.count }, 2)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: db)), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data), ["deskpet.db"])
        var st = stat()
        XCTAssertEqual(stat(db, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o444)
    }

    func testExportWorksWhileAnotherProcessWritesTheJournal() throws {
        let data = try smallJournal()
        let writer = try EventStore(path: data + "/deskpet.db")   // as a running daemon holds it
        defer { writer.close() }
        let r = try runTool(daemon(), ["export", "--data", data])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("every row can be read"), r.stdout)
    }
}
