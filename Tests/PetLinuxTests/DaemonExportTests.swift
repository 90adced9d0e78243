import Foundation
import XCTest
import TestSupport
import PetCore
import PetSim

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
}
