// HotWALProbeTests.swift — a refused journal with a hot -wal keeps every byte of the database,
// the -wal and the -shm; journal files are owner-only.

import Foundation
import XCTest
import TestSupport
@testable import PetStore

final class HotWALProbeTests: StoreTestCase {
    /// SHA-256 of each file that exists (nil for a missing one), via the sha256sum tool.
    private func digests(_ db: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: db + suffix) {
            let r = try runTool("sha256sum", [db + suffix])
            XCTAssertEqual(r.status, 0)
            out[suffix.isEmpty ? "db" : suffix] = String(r.stdout.prefix(64))
        }
        return out
    }

    /// A database whose newest changes are only in a hot -wal: sqlite3 is told not to checkpoint
    /// when it closes, so the -wal (and -shm) stay behind exactly as after a crash.
    private func hotWAL(_ db: String, _ statements: [String]) throws {
        let r = try runTool("/usr/bin/sqlite3", ["-batch", db, ".dbconfig no_ckpt_on_close on",
                                                 "PRAGMA journal_mode=WAL;"] + statements)
        XCTAssertEqual(r.status, 0, r.stderr)
        let wal = try FileManager.default.attributesOfItem(atPath: db + "-wal")[.size] as? NSNumber
        XCTAssertGreaterThan(wal?.intValue ?? 0, 0, "the -wal must be hot for this test")
    }

    func testANewerSchemaWithAHotWALIsRefusedAndNoByteChanges() throws {
        let db = path("newer.db")
        // The file on disk says user_version 1; the -wal holds the commit that made it 99.
        try hotWAL(db, ["PRAGMA application_id=\(EventStore.applicationID);", "CREATE TABLE events(x);",
                        "PRAGMA user_version=1;", "PRAGMA wal_checkpoint(TRUNCATE);",
                        "INSERT INTO events VALUES(1);", "PRAGMA user_version=99;"])
        let before = try digests(db)
        XCTAssertEqual(Set(before.keys), ["db", "-wal", "-shm"])
        assertThrows(.newerSchema(path: db, found: 99, supported: EventStore.supportedSchemaVersion)) {
            try EventStore(path: db)
        }
        XCTAssertEqual(try digests(db), before, "the refusal changed a byte of the database, -wal or -shm")
    }

    func testAForeignDatabaseWithAHotWALIsRefusedAndNoByteChanges() throws {
        let db = path("foreign.db")
        try hotWAL(db, ["CREATE TABLE notes(x);", "INSERT INTO notes VALUES('hello');", "PRAGMA application_id=42;"])
        let before = try digests(db)
        assertThrows(.foreignFile(path: db, applicationID: 42)) { try EventStore(path: db) }
        XCTAssertEqual(try digests(db), before)
        // A foreign database without an application id but with tables is refused the same way.
        let plain = path("plain.db")
        try hotWAL(plain, ["CREATE TABLE notes(x);", "INSERT INTO notes VALUES('hello');"])
        let plainBefore = try digests(plain)
        assertThrows(.foreignFile(path: plain, applicationID: 0)) { try EventStore(path: plain) }
        XCTAssertEqual(try digests(plain), plainBefore)
    }

    func testTheProbeReadsTheNewestCommittedPage1FromTheWAL() throws {
        let db = path("probe.db")
        try hotWAL(db, ["PRAGMA application_id=7;", "CREATE TABLE t(x);", "PRAGMA wal_checkpoint(TRUNCATE);",
                        "PRAGMA user_version=5;"])
        let h = try XCTUnwrap(HeaderProbe.read(path: db))
        XCTAssertTrue(h.fromWAL)
        XCTAssertEqual(h.userVersion, 5)
        XCTAssertEqual(h.applicationID, 7)
        // A damaged -wal (a flipped byte in the frame) is ignored, exactly as SQLite's recovery would.
        var wal = try Data(contentsOf: URL(fileURLWithPath: db + "-wal"))
        wal[wal.count - 1] ^= 0xFF
        try wal.write(to: URL(fileURLWithPath: db + "-wal"))
        let damaged = try XCTUnwrap(HeaderProbe.read(path: db))
        XCTAssertFalse(damaged.fromWAL)
        XCTAssertEqual(damaged.userVersion, 0)
        XCTAssertEqual(damaged.applicationID, 7)
    }

    func testAHealthyJournalWithAHotWALStillOpens() throws {
        let db = path("ok.db")
        let store = try EventStore(path: db)
        try store.append(command: Sample.command("c1"), events: [Sample.completed("a", command: "c1")])
        store.close()
        try hotWAL(db, ["INSERT INTO meta(key, value) VALUES ('k', 'v');"])
        let reopened = try EventStore(path: db)
        XCTAssertEqual(try reopened.eventCount(), 1)
        XCTAssertEqual(try reopened.meta("k"), "v")
    }

    private func mode(_ path: String) throws -> Int {
        try XCTUnwrap((FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue)
    }

    func testJournalFilesAreOwnerOnly() throws {
        let old = umask(0o022)
        defer { umask(old) }
        let db = path("pet.db")
        let store = try EventStore(path: db)
        try store.append(command: Sample.command("c1"), events: [Sample.completed("Private title", command: "c1")])
        for suffix in ["", "-wal", "-shm"] {
            XCTAssertEqual(try mode(db + suffix), 0o600, "\(suffix.isEmpty ? "database" : suffix) must be 0600")
        }
        store.close()
        // A journal from an older build (0644) is made private when it is opened.
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: db + suffix) {
            chmod(db + suffix, 0o644)
        }
        let reopened = try EventStore(path: db)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: db + suffix) {
            XCTAssertEqual(try mode(db + suffix), 0o600)
        }
        reopened.close()
    }

    func testARefusedFileKeepsItsMode() throws {
        let db = path("foreign.db")
        try hotWAL(db, ["CREATE TABLE notes(x);", "PRAGMA application_id=42;"])
        chmod(db, 0o644)
        XCTAssertThrowsError(try EventStore(path: db))
        XCTAssertEqual(try mode(db), 0o644)
    }

    func testAFIFOOrADeviceAsTheJournalIsRefusedWithoutBlocking() throws {
        let fifo = path("journal.fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        assertThrows(.notADatabase(path: fifo)) { try EventStore(path: fifo) }
        assertThrows(.notADatabase(path: "/dev/zero")) { try EventStore(path: "/dev/zero") }
    }
}
