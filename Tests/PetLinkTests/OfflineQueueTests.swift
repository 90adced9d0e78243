import Foundation
@testable import PetLink
import TestSupport
import XCTest

/// The phone's offline queue: JSON lines in order, atomic 0600 rewrites, removal by id, and a
/// damaged file refused with its line number.
final class OfflineQueueTests: XCTestCase {
    func testQueueKeepsOrderAndIdsAcrossReloadsAndRemovesAnswered() throws {
        let dir = try makeTemporaryDirectory("offline-queue")
        defer { removeTemporaryDirectory(dir) }
        let path = dir.appendingPathComponent("queue.jsonl").path
        var q = try OfflineQueue(path: path)
        XCTAssertEqual(q.count, 0)
        try q.append([QueuedCommand(id: "a", name: "task.create", fields: ["title": "A/B \"quoted\"", "task": "t1"]),
                      QueuedCommand(id: "b", name: "task.complete", fields: ["task": "t1"])])
        try q.append([QueuedCommand(id: "c", name: "focus.cancel")])
        var again = try OfflineQueue(path: path)
        XCTAssertEqual(again.items.map(\.id), ["a", "b", "c"])
        XCTAssertEqual(again.items[0].fields["title"], "A/B \"quoted\"")
        let mode = try XCTUnwrapValue(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)
        XCTAssertEqual(mode.intValue & 0o777, 0o600)
        try again.remove(ids: ["a", "c"])
        XCTAssertEqual(try OfflineQueue(path: path).items.map(\.id), ["b"])
        // Nothing is left beside it (the temporary file was renamed over it).
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["queue.jsonl"])
    }

    func testDamagedQueueFileIsRefusedWithItsLine() throws {
        let dir = try makeTemporaryDirectory("offline-queue-bad")
        defer { removeTemporaryDirectory(dir) }
        let path = dir.appendingPathComponent("queue.jsonl").path
        try #"{"id":"a","name":"x","fields":{}}"#.appending("\nnot json\n").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try OfflineQueue(path: path)) { e in
            XCTAssertEqual((e as? ClientStateError)?.what, "line 2 is not a queued command")
        }
    }

    func testCommandMessageCarriesTheQueuedId() {
        let m = LinkClient.commandMessage(QueuedCommand(id: "ctl-1", name: "habit.check", fields: ["habit": "water"]))
        XCTAssertEqual(String(decoding: MessageEncoder.body(m), as: UTF8.self),
                       #"{"fields":{"habit":"water"},"id":"ctl-1","name":"habit.check","type":"command"}"#)
    }
}
