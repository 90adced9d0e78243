import Foundation
import XCTest
import PetCore
import PetStore
@testable import PetDevice

/// A private app never leaves the device in an export (focus sessions included), and a journal
/// written in short sessions still gets snapshots.
final class ExportPrivacyAndSnapshotTests: XCTestCase {
    let t0 = Instant(1_772_434_800) // Mon 2026-03-02 07:00 UTC

    func tempDB() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("deskpet-priv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir.appendingPathComponent("pet.db").path
    }

    func send(_ app: PetApp, _ id: String, _ name: String, _ fields: [String: String], at: Instant) throws {
        let c = try CommandParser.parse(name: name, fields: fields, id: id, at: at, clock: app.state.clock)
        let reply = try app.handle(c).get()
        XCTAssertTrue(reply.ok, "\(name) refused")
    }

    func testAPrivateAppAppearsNowhereInTheExport() throws {
        let app = try PetApp(store: try EventStore(path: try tempDB()), now: t0, zone: "UTC")
        try send(app, "c1", "screen.session", ["app": "dating.app", "start": "@\(t0.seconds - 600)", "end": "@\(t0.seconds - 60)"], at: t0)
        try send(app, "c2", "screen.session", ["app": "com.video", "start": "@\(t0.seconds - 600)", "end": "@\(t0.seconds - 60)"], at: t0)
        try send(app, "c3", "focus.start", ["minutes": "25", "block": "dating.app,com.video"], at: t0 + 60)
        try send(app, "c4", "focus.app-used", ["app": "dating.app"], at: t0 + 120)
        try send(app, "c5", "focus.start", ["minutes": "25", "block": "dating.app"], at: t0 + 180)
        try send(app, "c6", "screen.private", ["app": "dating.app", "on": "yes"], at: t0 + 240)
        let doc = String(decoding: try Export.document(app, now: t0 + 300), as: UTF8.self)
        XCTAssertFalse(doc.contains("dating.app"), "the private app leaked into the export")
        XCTAssertTrue(doc.contains("com.video"), "apps that are not private stay")
        // The events are still there, without the app: the focus session started and failed.
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(doc.utf8)) as? [String: Any])
        let journal = try XCTUnwrap(json["journal"] as? [[String: Any]])
        let types = journal.compactMap { $0["type"] as? String }
        XCTAssertEqual(types.filter { $0 == "focus.started" }.count, 2)
        XCTAssertEqual(types.filter { $0 == "focus.failed" }.count, 1)
        XCTAssertEqual(types.filter { $0 == "screen.session" }.count, 1, "the private app's session is dropped")
        XCTAssertFalse(types.contains("screen.private"))
        // On the device itself nothing was removed.
        XCTAssertTrue(app.state.privateApps.contains("dating.app"))
    }

    func testAJournalWrittenInShortSessionsStillGetsSnapshots() throws {
        let path = try tempDB()
        var at = t0
        var n = 0
        var seqs: [Int64] = []
        for _ in 0..<12 {
            let store = try EventStore(path: path)
            let app = try PetApp(store: store, now: at, zone: "UTC", snapshotEvery: 10)
            for _ in 0..<4 {
                n += 1; at = at + 30
                try send(app, "s\(n)", "task.create", ["task": "t\(n)", "title": "Task"], at: at)
            }
            seqs.append(try store.latestSnapshot(format: PetApp.snapshotFormat)?.seq ?? 0)
            store.close()
        }
        // 49 events in sessions of 4: a snapshot at least every 10 events, not never.
        XCTAssertEqual(seqs.last, 40, "snapshots: \(seqs)")
        XCTAssertTrue(seqs.contains(10) || seqs.contains(11) || seqs.contains(12), "\(seqs)")
        // Reopening from the snapshot gives the same state as a full replay.
        let store = try EventStore(path: path)
        let resumed = try PetApp(store: store, now: at, zone: "UTC", snapshotEvery: 10)
        try store.dropSnapshots()
        let full = try PetApp(store: store, now: at, zone: "UTC", snapshotEvery: Int.max)
        XCTAssertEqual(resumed.state, full.state)
    }
}
