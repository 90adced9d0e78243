// WriterLockTests.swift — one writing process per journal, and the file modes of an opened journal.

import Foundation
import XCTest
import TestSupport
@testable import PetStore

final class WriterLockTests: StoreTestCase {
    /// Whether another process could take the journal's lock now (`flock -n`, util-linux).
    private func othersCanLock(_ file: String) throws -> Bool {
        let r = try runTool("/usr/bin/flock", ["-n", "-E", "99", file, "true"])
        XCTAssertTrue(r.status == 0 || r.status == 99, r.stderr)
        return r.status == 0
    }

    func testASecondWritingProcessIsRefusedAndACrashedOneBlocksNothing() throws {
        let file = path("deskpet.db")
        let writer = try EventStore(path: file)
        XCTAssertFalse(try othersCanLock(file), "the writer holds the journal's lock")
        // Stores of one process share it (a reader beside the writer, a reopen).
        let second = try EventStore(path: file)
        second.close()
        XCTAssertFalse(try othersCanLock(file), "still held while the first store is open")
        writer.close()
        XCTAssertTrue(try othersCanLock(file), "released with the last store of the process")

        // Another process holds it (as a running daemon would): this one is refused, clearly,
        // before anything is opened; a read-only open (an export) still works.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["-F", file, "/bin/sh", "-c", "echo held; exec cat"]
        let out = Pipe(), input = Pipe()
        holder.standardOutput = out
        holder.standardInput = input
        try holder.run()
        XCTAssertEqual(String(decoding: out.fileHandleForReading.availableData, as: UTF8.self), "held\n")
        XCTAssertThrowsError(try EventStore(path: file)) { error in
            guard case StoreError.locked(let p, let detail)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(p, file)
            XCTAssertTrue(detail.contains("another process"), detail)
        }
        XCTAssertThrowsError(try EventStore.checkNoOtherWriter(path: file), "the daemon asks before opening its board")
        let reader = try EventStore.openReadOnly(path: file)
        XCTAssertEqual(try reader.eventCount(), 0)
        reader.close()
        // The holder crashes (SIGKILL): the kernel drops its lock; the next open is not blocked.
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        XCTAssertNoThrow(try EventStore.checkNoOtherWriter(path: file))
        XCTAssertTrue(try othersCanLock(file), "asking holds nothing")
        let next = try EventStore(path: file)
        XCTAssertNoThrow(try EventStore.checkNoOtherWriter(path: file), "this process's own store is no other writer")
        XCTAssertEqual(try next.append(command: nil, events: [Sample.tick(day: 1)]), [1])
        next.close()
    }

    func testOpeningClearsGroupAndOtherBitsButNeverAddsOne() throws {
        let file = path("deskpet.db")
        try EventStore(path: file).close()
        for (mode, expected) in [(0o444, 0o400), (0o644, 0o600), (0o640, 0o600), (0o400, 0o400), (0o600, 0o600)] as [(mode_t, mode_t)] {
            XCTAssertEqual(chmod(file, mode), 0)
            let store = try? EventStore(path: file)   // a read-only file may be refused; its mode never loosened
            store?.close()
            var st = stat()
            XCTAssertEqual(stat(file, &st), 0)
            XCTAssertEqual(st.st_mode & 0o777, expected, String(mode, radix: 8))
        }
    }

    func testAReadOnlyOpenWritesNothing() throws {
        let file = path("deskpet.db")
        let store = try EventStore(path: file)
        try store.append(command: nil, events: [Sample.tick(day: 1)])
        store.close()
        XCTAssertEqual(chmod(file, 0o444), 0)
        let before = try fingerprint(file)
        let reader = try EventStore.openReadOnly(path: file)
        XCTAssertEqual(try reader.eventCount(), 1)
        XCTAssertThrowsError(try reader.append(command: nil, events: [Sample.tick(day: 2)]))
        reader.close()
        let after = try fingerprint(file)
        XCTAssertEqual(after.bytes, before.bytes)
        // SQLite may leave an empty -wal/-shm beside it in a writable folder; nothing else.
        XCTAssertEqual(after.listing.filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }, before.listing)
        var st = stat()
        XCTAssertEqual(stat(file, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o444, "a read-only open changes no mode")
        XCTAssertThrowsError(try EventStore.openReadOnly(path: path("missing.db")))
    }
}
