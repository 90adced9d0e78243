// FileTests.swift — on-disk behaviour: reopen, WAL, second connection,
// sqlite3 CLI interoperability, refusal of bad files, migrations.

import Foundation
import XCTest
@testable import PetStore

final class FileTests: StoreTestCase {
    /// Writes a small database with a coin history: +5, +5, (0), -3, time tick.
    private func writeSample(_ path: String) throws -> [EventRow] {
        let store = try EventStore(path: path)
        try store.append(command: Sample.command("c1"), events: [Sample.completed("Water plants", command: "c1")])
        try store.append(command: Sample.command("c2"), events: [Sample.completed("Stretch", command: "c2"),
                                                                 Sample.completed("Tea", command: "c2", coins: 0)])
        var spend = Sample.completed("Hat", command: "c3", coins: -3)
        spend.type = "shop.bought"
        spend.reason = "bought hat"
        try store.append(command: Sample.command("c3"), events: [spend])
        try store.append(command: nil, events: [Sample.tick(day: 2)])
        let rows = try store.events()
        store.close()
        return rows
    }

    func testReopenGivesIdenticalRowsInWALMode() throws {
        let file = path("pet.sqlite")
        let written = try writeSample(file)
        XCTAssertEqual(written.count, 5)

        let reopened = try EventStore(path: file)
        XCTAssertEqual(try reopened.events(), written)
        XCTAssertEqual(try reopened.command(id: "c2"), Sample.command("c2"))
        XCTAssertEqual(try reopened.journalMode(), "wal")
        XCTAssertEqual(try reopened.schemaVersion(), EventStore.supportedSchemaVersion)
        XCTAssertEqual(try reopened.append(command: nil, events: [Sample.tick(day: 3)]), [6])
    }

    func testSecondConnectionSeesRowsAsSoonAsAppendReturns() throws {
        let file = path("pet.sqlite")
        let writer = try EventStore(path: file)
        let reader = try EventStore(path: file)
        try writer.append(command: Sample.command("c1"), events: [Sample.completed("a", command: "c1")])
        XCTAssertEqual(try reader.eventCount(), 1)
        XCTAssertEqual(try reader.command(id: "c1"), Sample.command("c1"))
        // The reader sees the duplicate too, so a second process cannot double-apply a command.
        assertThrows(.duplicateCommand(id: "c1")) {
            try reader.append(command: Sample.command("c1"), events: [])
        }
        try reader.append(command: nil, events: [Sample.tick(day: 2)])
        XCTAssertEqual(try writer.events().map(\.seq), [1, 2])
    }

    func testSQLiteCLIReadsWhatWeWrote() throws {
        let file = path("pet.sqlite")
        _ = try writeSample(file)
        XCTAssertEqual(try sqliteCLI(file, "SELECT count(*) FROM events;"), "5")
        XCTAssertEqual(try sqliteCLI(file, "SELECT balance FROM ledger ORDER BY seq DESC LIMIT 1;"), "7")
        XCTAssertEqual(try sqliteCLI(file, "SELECT group_concat(balance, ',') FROM ledger;"), "5,10,7")
        XCTAssertEqual(try sqliteCLI(file, "SELECT json_extract(payload, '$.title') FROM events WHERE seq = 2;"),
                       "Stretch")
        XCTAssertEqual(try sqliteCLI(file, "PRAGMA integrity_check;"), "ok")
        XCTAssertEqual(try sqliteCLI(file, "PRAGMA application_id;"), "\(EventStore.applicationID)")
        XCTAssertEqual(try sqliteCLI(file, "PRAGMA user_version;"), "\(EventStore.supportedSchemaVersion)")
        XCTAssertEqual(try sqliteCLI(file, "PRAGMA journal_mode;"), "wal")
        XCTAssertEqual(try sqliteCLI(file, "SELECT value FROM meta WHERE key = 'app';"), "deskpet")
        XCTAssertEqual(try sqliteCLI(file, "SELECT first_seq, last_seq FROM commands WHERE id = 'c2';"), "2|3")
    }

    // MARK: Refusing files that are not ours, never touching them

    func testGarbageFilesAreRefusedUntouched() throws {
        let long = path("notes.txt")
        try Data(String(repeating: "shopping list: milk, eggs\n", count: 200).utf8).write(to: URL(fileURLWithPath: long))
        let short = path("tiny.bin")
        try Data([0x00, 0xFF, 0x10]).write(to: URL(fileURLWithPath: short))
        for file in [long, short] {
            let before = try fingerprint(file)
            assertThrows(.notADatabase(path: file)) { try EventStore(path: file) }
            let after = try fingerprint(file)
            XCTAssertEqual(after.bytes, before.bytes)
            XCTAssertEqual(after.listing, before.listing)
        }
    }

    func testTruncatedDatabaseIsRefusedUntouched() throws {
        let file = path("pet.sqlite")
        let store = try EventStore(path: file)
        let bulky = String(repeating: "x", count: 500)
        for i in 0..<100 {
            try store.append(command: nil, events: [EventRow(at: 0, day: i, type: "t", payload: #"{"pad":"\#(bulky)"}"#)])
        }
        store.close()
        let full = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertGreaterThan(full.count, 16 * 4096)

        for cut in [full.count / 2, 4096 + 100, 60] {
            try full.prefix(cut).write(to: URL(fileURLWithPath: file))
            let before = try fingerprint(file)
            XCTAssertThrowsError(try EventStore(path: file), "cut at \(cut)") { error in
                guard case let .corrupt(p, detail) = error as? StoreError else {
                    return XCTFail("cut at \(cut): expected .corrupt, got \(error)")
                }
                XCTAssertEqual(p, file)
                XCTAssertFalse(detail.isEmpty)
            }
            let after = try fingerprint(file)
            XCTAssertEqual(after.bytes, before.bytes, "cut at \(cut)")
            XCTAssertEqual(after.listing, before.listing, "cut at \(cut)")
        }
    }

    func testOverwrittenPagesAreReportedCorrupt() throws {
        let file = path("pet.sqlite")
        _ = try writeSample(file)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let pageSize = 4096
        XCTAssertGreaterThan(bytes.count, 2 * pageSize)
        // Scribble over everything after page 1 (the schema page keeps its header).
        for i in pageSize..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: i &* 31) }
        try bytes.write(to: URL(fileURLWithPath: file))
        let before = try fingerprint(file)
        XCTAssertThrowsError(try EventStore(path: file)) { error in
            guard case .corrupt = error as? StoreError else { return XCTFail("got \(error)") }
        }
        XCTAssertEqual(try fingerprint(file).bytes, before.bytes)
    }

    func testNewerSchemaIsRefusedUntouched() throws {
        let file = path("pet.sqlite")
        _ = try writeSample(file)
        try sqliteCLI(file, "PRAGMA user_version = 99;")
        let before = try fingerprint(file)
        assertThrows(.newerSchema(path: file, found: 99, supported: EventStore.supportedSchemaVersion)) {
            try EventStore(path: file)
        }
        let after = try fingerprint(file)
        XCTAssertEqual(after.bytes, before.bytes)
        XCTAssertEqual(after.listing, before.listing)
    }

    func testForeignDatabasesAreRefusedUntouched() throws {
        let other = path("other-app.db")
        try sqliteCLI(other, "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('hi'); PRAGMA application_id = 42;")
        let plain = path("plain.db")
        try sqliteCLI(plain, "CREATE TABLE t(x);")  // application_id 0, but not empty

        for (file, appID) in [(other, Int32(42)), (plain, Int32(0))] {
            let before = try fingerprint(file)
            assertThrows(.foreignFile(path: file, applicationID: appID)) { try EventStore(path: file) }
            let after = try fingerprint(file)
            XCTAssertEqual(after.bytes, before.bytes)
            XCTAssertEqual(after.listing, before.listing)
        }
    }

    func testEmptyFileBecomesANewDatabase() throws {
        let file = path("empty.sqlite")
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        let store = try EventStore(path: file)
        XCTAssertEqual(try store.meta("app"), "deskpet")
    }

    func testMissingDirectoryCannotOpen() throws {
        let file = path("no/such/dir/pet.sqlite")
        XCTAssertThrowsError(try EventStore(path: file)) { error in
            guard case let .cannotOpen(p, _, _) = error as? StoreError else { return XCTFail("got \(error)") }
            XCTAssertEqual(p, file)
            XCTAssertTrue("\(error)".contains(file), "message says where")
        }
    }

    // MARK: Migrations

    func testVersion1DatabaseIsUpgradedAndKeepsEvents() throws {
        let file = path("v1.sqlite")
        let v1 = try EventStore(path: file, options: .init(), schemaVersion: 1)
        XCTAssertEqual(try v1.schemaVersion(), 1)
        try v1.append(command: Sample.command("c1"), events: [Sample.completed("Old task", command: "c1")])
        XCTAssertThrowsError(try v1.saveSnapshot(seq: 1, format: 1, body: [1]), "no snapshots table in v1")
        let written = try v1.events()
        v1.close()
        XCTAssertEqual(try sqliteCLI(file, "SELECT count(*) FROM sqlite_schema WHERE name = 'snapshots';"), "0")

        let upgraded = try EventStore(path: file)
        XCTAssertEqual(try upgraded.schemaVersion(), 2)
        XCTAssertEqual(try upgraded.events(), written)
        XCTAssertEqual(try upgraded.command(id: "c1"), Sample.command("c1"))
        try upgraded.saveSnapshot(seq: 1, format: 1, body: [7, 7])
        XCTAssertEqual(try upgraded.latestSnapshot(format: 1)?.body, [7, 7])
        upgraded.close()
        XCTAssertEqual(try sqliteCLI(file, "PRAGMA user_version;"), "2")
        XCTAssertEqual(try sqliteCLI(file, "PRAGMA integrity_check;"), "ok")

        // A v2 database is "newer" for code that only knows v1.
        assertThrows(.newerSchema(path: file, found: 2, supported: 1)) {
            try EventStore(path: file, options: .init(), schemaVersion: 1)
        }
    }

    func testSynchronousOverride() throws {
        let store = try EventStore(path: path("fast.sqlite"), options: .init(synchronous: .off))
        XCTAssertEqual(try store.query("PRAGMA synchronous"), ["0"])
        let durable = try EventStore(path: path("durable.sqlite"))
        XCTAssertEqual(try durable.query("PRAGMA synchronous"), ["2"], "FULL by default")
        XCTAssertEqual(try durable.query("PRAGMA foreign_keys"), ["1"])
    }

    func testErrorDescriptionsSayWhatAndWhere() {
        let p = "/home/me/pet.sqlite"
        XCTAssertTrue(StoreError.notADatabase(path: p).description.contains(p))
        XCTAssertTrue(StoreError.newerSchema(path: p, found: 99, supported: 2).description.contains("99"))
        XCTAssertTrue(StoreError.foreignFile(path: p, applicationID: 42).description.contains("42"))
        XCTAssertTrue(StoreError.corrupt(path: p, detail: "page 3").description.contains("page 3"))
        XCTAssertTrue(StoreError.duplicateCommand(id: "c9").description.contains("c9"))
    }
}

final class ManyAppendsTests: StoreTestCase {
    /// Each append is one fsync'd WAL commit with synchronous=FULL; all of them are there.
    /// (Speed is measured by deskpet-bench, never here.)
    func testManyDurableAppends() throws {
        let store = try EventStore(path: path("many.sqlite"))
        do {
            for i in 0..<100 {
                try store.append(command: Sample.command("c\(i)"), events: [Sample.completed("t", command: "c\(i)")])
            }
        }
        XCTAssertEqual(try store.eventCount(), 100)
    }
}
