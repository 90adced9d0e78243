// IntegrityCheckTests.swift — the whole-file check run beside the device: it finds damage that
// opening without it does not, changes nothing, and reports from its background task.

import Foundation
import XCTest
@testable import PetStore

final class IntegrityCheckTests: StoreTestCase {
    /// A journal of `rows` bulky events, closed.
    private func writeJournal(_ file: String, rows: Int = 200) throws {
        let store = try EventStore(path: file)
        let bulky = String(repeating: "x", count: 300)
        for i in 0..<rows {
            try store.append(command: nil, events: [EventRow(at: Int64(i), day: i, type: "t", payload: #"{"pad":"\#(bulky)"}"#)])
        }
        store.close()
    }

    /// Scribbles over one page in the middle of the file (a leaf of the events table: no
    /// start-up read touches it).
    private func damageMiddlePage(_ file: String) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let pageSize = 1024
        let page = bytes.count / pageSize / 2
        for i in (page * pageSize)..<((page + 1) * pageSize) { bytes[i] = UInt8(truncatingIfNeeded: i &* 131 &+ 7) }
        try bytes.write(to: URL(fileURLWithPath: file))
    }

    func testIntactJournalPasses() async throws {
        let file = path("pet.sqlite")
        try writeJournal(file)
        try EventStore.verifyIntegrity(path: file)
        let check = IntegrityCheck.start(path: file)
        await check.task.value
        XCTAssertEqual(check.outcome, .intact)
    }

    func testDamagedPageIsFoundOnlyByTheCheckAndNothingChanges() async throws {
        let file = path("pet.sqlite")
        try writeJournal(file)
        try damageMiddlePage(file)
        let before = try fingerprint(file)

        // Opened the daemon's way (no whole-file check): the damaged page is not read.
        var fast = EventStore.Options()
        fast.verifyOnOpen = false
        let store = try EventStore(path: file, options: fast)
        XCTAssertEqual(try store.events(limit: 1).count, 1)

        // The check, with the writer's connection open beside it, finds it.
        XCTAssertThrowsError(try EventStore.verifyIntegrity(path: file)) { error in
            guard case let .corrupt(p, detail)? = error as? StoreError else { return XCTFail("got \(error)") }
            XCTAssertEqual(p, file)
            XCTAssertFalse(detail.isEmpty)
        }
        final class Count: @unchecked Sendable { var n = 0 }
        let finished = Count()
        let check = IntegrityCheck.start(path: file) { finished.n += 1 }
        await check.task.value
        XCTAssertEqual(finished.n, 1)
        guard case .damaged(.corrupt)? = check.outcome else { return XCTFail("got \(String(describing: check.outcome))") }
        store.close()
        XCTAssertEqual(try fingerprint(file).bytes, before.bytes, "the check wrote nothing")
    }

    func testMissingFileIsReportedNotCreated() async throws {
        let file = path("absent.sqlite")
        let check = IntegrityCheck.start(path: file)
        await check.task.value
        guard case .damaged? = check.outcome else { return XCTFail("got \(String(describing: check.outcome))") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))
    }
}
