import Foundation
import XCTest
import PetCore
import PetStore
@testable import PetDevice

/// History does not cost memory (docs/reliability.md, "Limits"; docs/storage.md): the journal is
/// replayed page by page, a repeated command older than the state's window of ids is still found
/// (in the journal's commands table) and never applied twice, and `deskpet export` streams.
final class HistoryBoundTests: XCTestCase {
    let t0 = Instant(1_772_434_800) // Mon 2026-03-02 07:00 UTC = 08:00 Berlin

    func tempDir() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("deskpet-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir.path
    }

    func command(_ app: PetApp, _ id: String, _ name: String, _ fields: [String: String] = [:], at: Instant) throws -> Command {
        try CommandParser.parse(name: name, fields: fields, id: id, at: at, clock: app.state.clock)
    }

    /// A journal of a task created and completed, then `pets` pettings (one command each).
    func journal(_ path: String, pets: Int, snapshotEvery: Int = .max) throws -> PetApp {
        let app = try PetApp(store: try EventStore(path: path), now: t0, zone: "Europe/Berlin", snapshotEvery: snapshotEvery)
        try app.handle(try command(app, "old-create", "task.create", ["task": "t1", "title": "Read"], at: t0)).get()
        try app.handle(try command(app, "old-complete", "task.complete", ["task": "t1"], at: t0 + 60)).get()
        var batch: [Command] = []
        for i in 0..<pets { batch.append(try command(app, "pet-\(i)", "pet.pet", at: t0 + 120 + 61 * Int64(i))) }
        for o in try app.handleBatch(batch) { _ = try o.get() }
        return app
    }

    func testACommandOlderThanTheStatesWindowIsStillADuplicate() throws {
        let path = try tempDir() + "/pet.db"
        let app = try journal(path, pets: RecentCommandIDs.capacity + 10)
        XCTAssertFalse(app.engine.isDuplicate("old-complete"), "beyond the state's window")
        XCTAssertTrue(app.commandSeen("old-complete"))
        XCTAssertFalse(app.commandSeen("never-sent"))
        let before = app.state, count = try app.store.eventCount()
        // The same completion again, alone and inside a batch: the stored reply, nothing applied.
        let again = try app.handle(try command(app, "old-complete", "task.complete", ["task": "t1"], at: app.state.now)).get()
        XCTAssertEqual(again.duplicate, true)
        XCTAssertEqual(again.reward, 10, "the reply stored the first time")
        let batch = try app.handleBatch([try command(app, "old-create", "task.create", ["task": "t9", "title": "X"], at: app.state.now),
                                         try command(app, "fresh", "pet.pet", at: app.state.now)])
        XCTAssertEqual(batch[0].reply?.duplicate, true)
        XCTAssertEqual(batch[0].committed, [])
        XCTAssertNil(batch[1].reply?.duplicate)
        XCTAssertNil(app.state.tasks["t9"])
        XCTAssertEqual(app.state.coins, before.coins)
        XCTAssertEqual(try app.store.eventCount(), count + batch[1].committed.count)
        // After reopening (replay in pages), the same.
        let live = app.state
        app.store.close()
        let reopened = try PetApp(store: try EventStore(path: path), now: t0, snapshotEvery: .max)
        XCTAssertEqual(reopened.state, live)
        XCTAssertEqual(try reopened.handle(try command(reopened, "old-create", "task.create", ["task": "t1", "title": "Read"],
                                                       at: live.now)).get().duplicate, true)
        reopened.store.close()
    }

    func testReplayInPagesEqualsTheLiveStateWithAndWithoutASnapshot() throws {
        let path = try tempDir() + "/pet.db"
        // Not a multiple of the page: the last page is short; a snapshot mid-way leaves a tail of pages.
        let app = try journal(path, pets: 3 * PetApp.replayPage + 7, snapshotEvery: PetApp.replayPage + 3)
        try app.advance(to: t0 + 3 * Seconds.day)
        let live = app.state
        XCTAssertGreaterThan(live.eventCount, 3 * PetApp.replayPage)
        app.store.close()
        let fromSnapshot = try PetApp(store: try EventStore(path: path), now: t0, snapshotEvery: .max)
        XCTAssertNotNil(try fromSnapshot.store.latestSnapshot(format: PetApp.snapshotFormat))
        try fromSnapshot.advance(to: t0 + 3 * Seconds.day)   // the instant time reached (no event stored at it)
        XCTAssertEqual(Self.differences(fromSnapshot.state, live), [])
        try fromSnapshot.store.dropSnapshots()
        fromSnapshot.store.close()
        let replayed = try PetApp(store: try EventStore(path: path), now: t0, snapshotEvery: .max)
        XCTAssertNil(try replayed.store.latestSnapshot(format: PetApp.snapshotFormat))
        try replayed.advance(to: t0 + 3 * Seconds.day)
        XCTAssertEqual(Self.differences(replayed.state, live), [])
        replayed.store.close()
    }

    /// The top-level keys whose encodings differ (short failure messages for big states).
    static func differences(_ a: PetState, _ b: PetState) -> [String] {
        guard a != b else { return [] }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        guard let ja = try? JSONSerialization.jsonObject(with: e.encode(a)) as? [String: Any],
              let jb = try? JSONSerialization.jsonObject(with: e.encode(b)) as? [String: Any] else { return ["(not encodable)"] }
        let keys = Set(ja.keys).union(jb.keys).sorted()
        let differing = keys.filter { k in
            func text(_ v: Any?) -> String {
                guard let v, let d = try? JSONSerialization.data(withJSONObject: ["v": v], options: [.sortedKeys]) else { return "nil" }
                return String(decoding: d, as: UTF8.self)
            }
            return text(ja[k]) != text(jb[k])
        }
        return differing.isEmpty ? ["(equal encodings, unequal values)"] : differing.map { "\($0): \(String(describing: ja[$0]).prefix(300)) vs \(String(describing: jb[$0]).prefix(300))" }
    }

    func testAnOlderSnapshotFormatIsIgnoredAndRebuiltFromEvents() throws {
        let path = try tempDir() + "/pet.db"
        let app = try journal(path, pets: 20)
        let live = app.state
        // A snapshot of the previous format whose body this build cannot read: ignored, not misread.
        try app.store.saveSnapshot(seq: Int64(live.eventCount), format: PetState.snapshotFormat - 1,
                                   body: Array(#"{"seenCommands":["x"],"eventCount":1}"#.utf8))
        app.store.close()
        let reopened = try PetApp(store: try EventStore(path: path), now: t0, snapshotEvery: .max)
        XCTAssertEqual(reopened.state, live)
        reopened.store.close()
    }

    func testTheStreamedJournalExportIsTheDocumentJSONEncoderWrites() throws {
        let dir = try tempDir()
        let path = dir + "/deskpet.db"
        let app = try journal(path, pets: 2 * JournalRecovery.exportPage + 5)
        let rows = try app.store.events()
        app.store.close()
        let problem = JournalRecovery(seq: nil, detail: "every row can be read")
        let expected = try JSONEncoder.sortedPretty.encode(JournalRecovery.Document(unreadableSeq: nil, problem: problem.detail, rows: rows.map {
            JournalRecovery.RawRow(seq: $0.seq, at: $0.at, day: $0.day, type: $0.type, command: $0.commandID,
                                   coinsDelta: $0.coinsDelta, xpDelta: $0.xpDelta, payload: $0.payload)
        }))
        let store = try EventStore.openReadOnly(path: path)
        XCTAssertEqual(try problem.export(store: store), Array(expected))
        let damaged = JournalRecovery(seq: 7, detail: "a \"quoted\" problem")
        let expectedDamaged = try JSONEncoder.sortedPretty.encode(JournalRecovery.Document(unreadableSeq: 7, problem: damaged.detail, rows: rows.map {
            JournalRecovery.RawRow(seq: $0.seq, at: $0.at, day: $0.day, type: $0.type, command: $0.commandID,
                                   coinsDelta: $0.coinsDelta, xpDelta: $0.xpDelta, payload: $0.payload)
        }))
        XCTAssertEqual(try damaged.export(store: store), Array(expectedDamaged))
        store.close()
        // `deskpet export FILE`: the same bytes, owner-only; FILE replaced whole.
        let out = dir + "/export.json"
        try Data("old".utf8).write(to: URL(fileURLWithPath: out))
        XCTAssertNil(try JournalRecovery.streamJournal(at: path, to: out))
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: out))), Array(expected))
        var st = stat()
        XCTAssertEqual(stat(out, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".tmp-") }, [])
    }

    func testAStreamedExportRefusesANonRegularFileAndLeavesNoTemporaryFile() throws {
        let dir = try tempDir()
        let path = dir + "/deskpet.db"
        _ = try journal(path, pets: 5).store.close()
        let link = dir + "/link.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dir + "/target.json")
        XCTAssertThrowsError(try JournalRecovery.streamJournal(at: path, to: link), "a symbolic link is refused")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/target.json"))
        XCTAssertThrowsError(try JournalRecovery.streamJournal(at: path, to: dir + "/missing-folder/export.json"))
        let sink = try ExportSink(path: dir + "/x.json")
        sink.abandon()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".tmp-") }, [])
    }

    func testAnEmptyJournalExportsAnEmptyRowList() throws {
        let path = try tempDir() + "/empty.db"
        let store = try EventStore(path: path)
        let bytes = try JournalRecovery(seq: nil, detail: "d").export(store: store)
        let json = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        XCTAssertEqual((json?["rows"] as? [Any])?.count, 0)
        store.close()
    }
}

extension JSONEncoder {
    static var sortedPretty: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .prettyPrinted]
        return e
    }
}
