// AppendTests.swift — round trips, seq assignment, atomicity, duplicates.

import XCTest
@testable import PetStore

final class AppendTests: StoreTestCase {
    func testRoundTripAssignsSequentialSeqs() throws {
        let store = try EventStore.inMemory()
        let first = [Sample.completed("Water plants", command: "c1"),
                     Sample.completed("Stretch", command: "c1", coins: 0)]
        var withIgnoredSeq = Sample.tick(day: 2)
        withIgnoredSeq.seq = 999  // input seq must be ignored

        XCTAssertEqual(try store.append(command: Sample.command("c1"), events: first), [1, 2])
        XCTAssertEqual(try store.append(command: nil, events: [withIgnoredSeq]), [3])
        XCTAssertEqual(try store.append(command: nil, events: []), [])

        var expected = first + [withIgnoredSeq]
        for i in expected.indices { expected[i].seq = Int64(i + 1) }
        XCTAssertEqual(try store.events(), expected)
        XCTAssertEqual(try store.events(after: 2), [expected[2]])
        XCTAssertEqual(try store.events(after: 0, limit: 2), Array(expected[0..<2]))
        XCTAssertEqual(try store.events(after: 3), [])
        XCTAssertEqual(try store.eventCount(), 3)
        XCTAssertEqual(try store.lastSeq(), 3)
        XCTAssertEqual(try store.command(id: "c1"), Sample.command("c1"))
        XCTAssertNil(try store.command(id: "nope"))
    }

    func testTextEdgeCasesRoundTrip() throws {
        let store = try EventStore.inMemory()
        let row = EventRow(at: -1, day: Int(Int32.max) + 5, type: "x.unicode", commandID: nil,
                           coinsDelta: -3, xpDelta: 0, reason: "",
                           payload: #"{"title":"Café ☕️ 日本語","nul":"a\u0000b"}"#)
        try store.append(command: CommandRow(id: "", at: 0, kind: "", reply: ""), events: [row])
        var expected = row
        expected.seq = 1
        XCTAssertEqual(try store.events(), [expected])
        XCTAssertEqual(try store.command(id: ""), CommandRow(id: "", at: 0, kind: "", reply: ""))
    }

    func testMetaDefaultsAndUpdates() throws {
        let store = try EventStore.inMemory()
        XCTAssertEqual(try store.meta("app"), "deskpet")
        let created = try XCTUnwrap(try store.meta("created_at").flatMap { Int64($0) })
        XCTAssertGreaterThan(created, 1_600_000_000)
        XCTAssertNil(try store.meta("pet.name"))
        try store.setMeta("pet.name", "Mochi")
        try store.setMeta("pet.name", "Mochi II")
        XCTAssertEqual(try store.meta("pet.name"), "Mochi II")
        XCTAssertEqual(try store.schemaVersion(), EventStore.supportedSchemaVersion)
    }

    func testCommandRecordsItsEventRange() throws {
        let store = try EventStore.inMemory()
        try store.append(command: nil, events: [Sample.tick(day: 1)])
        try store.append(command: Sample.command("c1"), events: [Sample.completed("a", command: "c1"),
                                                                 Sample.completed("b", command: "c1")])
        try store.append(command: Sample.command("rejected"), events: [])  // reply-only command
        let range = try store.query("SELECT first_seq || '-' || last_seq FROM commands WHERE id = 'c1'")
        XCTAssertEqual(range, ["2-3"])
        XCTAssertEqual(try store.command(id: "rejected")?.reply, Sample.command("x").reply)
    }

    func testDuplicateCommandIsRejectedAndChangesNothing() throws {
        let store = try EventStore.inMemory()
        try store.append(command: Sample.command("c1"), events: [Sample.completed("a", command: "c1")])
        let before = try store.events()

        var again = Sample.command("c1")
        again.reply = #"{"different":true}"#
        assertThrows(.duplicateCommand(id: "c1")) {
            try store.append(command: again, events: [Sample.completed("b", command: "c1"), Sample.tick(day: 2)])
        }
        XCTAssertEqual(try store.events(), before)
        XCTAssertEqual(try store.command(id: "c1"), Sample.command("c1"), "original reply is kept")
        // The store is still usable and seqs continue without a gap.
        XCTAssertEqual(try store.append(command: nil, events: [Sample.tick(day: 2)]), [2])
    }

    func testFailureHalfWayLeavesNothing() throws {
        let store = try EventStore.inMemory()
        try store.append(command: nil, events: [Sample.tick(day: 1)])

        var bad = Sample.completed("x", command: "c2")
        bad.payload = "not json: my secret diary"  // rejected by CHECK (json_valid(payload))
        XCTAssertThrowsError(try store.append(
            command: Sample.command("c2"),
            events: [Sample.completed("a", command: "c2"), Sample.completed("b", command: "c2"), bad])
        ) { error in
            guard case let .sqlite(operation, _, message) = error as? StoreError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertTrue(operation.contains("#3"), operation)
            XCTAssertTrue(message.contains("CHECK constraint failed"), message)
            XCTAssertFalse("\(error)".contains("secret"), "payload text must not leak into errors")
        }
        XCTAssertEqual(try store.eventCount(), 1)
        XCTAssertNil(try store.command(id: "c2"), "the command row was rolled back too")
        // Retrying the same command id now works: nothing of the failed attempt remains.
        XCTAssertEqual(try store.append(command: Sample.command("c2"),
                                        events: [Sample.completed("a", command: "c2")]), [2])
    }

    func testEmptyTypeAndUnknownCommandReferenceAreRejected() throws {
        let store = try EventStore.inMemory()
        var untyped = Sample.tick(day: 1)
        untyped.type = ""
        XCTAssertThrowsError(try store.append(command: nil, events: [Sample.tick(day: 1), untyped]))
        // Foreign key: an event may only name a stored command.
        XCTAssertThrowsError(try store.append(command: nil, events: [Sample.completed("a", command: "ghost")]))
        XCTAssertEqual(try store.eventCount(), 0)
    }

    func testSnapshots() throws {
        let store = try EventStore.inMemory()
        XCTAssertNil(try store.latestSnapshot(format: 1))
        try store.append(command: nil, events: (1...5).map { Sample.tick(day: $0) })
        try store.saveSnapshot(seq: 2, format: 1, body: [1, 2, 3])
        try store.saveSnapshot(seq: 4, format: 1, body: [4, 5])
        try store.saveSnapshot(seq: 3, format: 2, body: [])
        XCTAssertEqual(try store.latestSnapshot(format: 1)?.seq, 4)
        XCTAssertEqual(try store.latestSnapshot(format: 1)?.body, [4, 5])
        XCTAssertEqual(try store.latestSnapshot(format: 2)?.body, [], "empty body is stored, not NULL")
        try store.saveSnapshot(seq: 4, format: 1, body: [9])  // replace
        XCTAssertEqual(try store.latestSnapshot(format: 1)?.body, [9])
        assertThrows(.invalidArgument("snapshot seq 6 is outside the event log (last seq 5)")) {
            try store.saveSnapshot(seq: 6, format: 1, body: [])
        }
    }

    func testClosedStoreThrows() throws {
        let store = try EventStore.inMemory()
        store.close()
        store.close()  // idempotent
        assertThrows(.closed) { try store.eventCount() }
        assertThrows(.closed) { try store.append(command: nil, events: [Sample.tick(day: 1)]) }
    }

    func testBulkAppendAndPaging() throws {
        let store = try EventStore.inMemory()
        do {
            for batch in 0..<200 {
                let id = "c\(batch)"
                try store.append(command: Sample.command(id),
                                 events: (0..<25).map { Sample.completed("t\($0)", command: id) })
            }
        }
        XCTAssertEqual(try store.eventCount(), 5_000)
        var seen: Int64 = 0, pages = 0
        while case let page = try store.events(after: seen, limit: 1_000), !page.isEmpty {
            XCTAssertEqual(page.first?.seq, seen + 1)
            seen = try XCTUnwrap(page.last?.seq)
            pages += 1
        }
        XCTAssertEqual(pages, 5)
    }
}
