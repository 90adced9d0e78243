import Foundation
import XCTest
@testable import PetCore

/// History does not cost memory (docs/reliability.md, "Limits"; docs/storage.md, "Command ids"):
/// the state remembers a bounded number of command ids, open tasks are capped, and finished tasks
/// that left the live state keep their numbers in the stats.
final class LiveStateBoundTests: XCTestCase {
    func testRecentCommandIDsKeepTheLatestCapacityInOrder() throws {
        var ids = RecentCommandIDs()
        let n = RecentCommandIDs.capacity + 37
        for i in 0..<n { ids.insert("c\(i)") }
        ids.insert("c\(n - 1)")   // again: no change
        XCTAssertEqual(ids.count, RecentCommandIDs.capacity)
        XCTAssertFalse(ids.contains("c0"))
        XCTAssertFalse(ids.contains("c36"))
        XCTAssertTrue(ids.contains("c37"))
        XCTAssertTrue(ids.contains("c\(n - 1)"))
        XCTAssertEqual(ids.ids, (37..<n).map { "c\($0)" })
        // Encoded oldest first; decoding rebuilds an equal value (whatever the ring's layout).
        let decoded = try JSONDecoder().decode(RecentCommandIDs.self, from: JSONEncoder().encode(ids))
        XCTAssertEqual(decoded, ids)
        XCTAssertEqual(decoded.ids, ids.ids)
        decoded.ids.forEach { XCTAssertTrue(ids.contains($0)) }
        // A longer list (hand-made) keeps its newest `capacity`.
        let long = try JSONDecoder().decode(RecentCommandIDs.self, from: JSONEncoder().encode((0..<(n + 5)).map { "x\($0)" }))
        XCTAssertEqual(long.ids.first, "x\(n + 5 - RecentCommandIDs.capacity)")
        XCTAssertEqual(long.count, RecentCommandIDs.capacity)
    }

    func testTheStateForgetsCommandIDsBeyondTheWindowAndReplayAgrees() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "first", "title": "First"], id: "old-1")
        XCTAssertTrue(h.engine.isDuplicate("old-1"))
        for i in 0..<RecentCommandIDs.capacity { _ = h.advance(by: 61); h.ok("pet.pet", id: "p\(i)") }
        XCTAssertFalse(h.engine.isDuplicate("old-1"), "the engine keeps only the latest ids (the app asks the journal)")
        XCTAssertTrue(h.engine.isDuplicate("p\(RecentCommandIDs.capacity - 1)"))
        XCTAssertEqual(h.state.recentCommands.count, RecentCommandIDs.capacity)
        h.assertReplayEqualsLive()
    }

    func testOpenTasksAreCappedAndTheCapRefusesCleanly() {
        var h = Harness(at: "2026-03-02 08:00")
        for i in 0..<TaskRules.maxOpen { h.ok("task.create", ["task": "t\(i)", "title": "T"]) }
        h.refuse("task.create", ["task": "one-more", "title": "T"], .limit("open tasks", TaskRules.maxOpen))
        h.refuse("task.duplicate", ["task": "t0", "new": "copy"], .limit("open tasks", TaskRules.maxOpen))
        // A finished task frees a place; a recurring task's next occurrence is never refused.
        h.ok("task.complete", ["task": "t1"])
        h.ok("task.create", ["task": "daily", "title": "D", "repeat": "daily", "due": "today 18:00"])
        XCTAssertEqual(h.state.openTasks().count, TaskRules.maxOpen)
        let events = h.ok("task.complete", ["task": "daily"])
        XCTAssertTrue(events.contains { if case .taskCreated = $0.kind { true } else { false } }, "the next occurrence")
        XCTAssertEqual(h.state.openTasks().count, TaskRules.maxOpen)
        XCTAssertEqual(DomainError.limitReached(what: "open tasks", limit: TaskRules.maxOpen).code, "limit_reached")
        h.assertReplayEqualsLive()
    }

    func testFinishedTasksLeaveTheLiveStateButStayInTheStats() {
        var h = Harness(at: "2026-03-02 08:00")
        let firstDay = h.state.openDay
        for i in 0..<6 {
            h.ok("task.create", ["task": "a\(i)", "title": "A", "due": "today 18:00"])
            if i < 4 { h.ok("task.complete", ["task": "a\(i)"]) }
        }
        _ = h.advance(by: 30 * Seconds.day)
        XCTAssertTrue((0..<6).allSatisfy { h.task("a\($0)") == nil }, "finished tasks left the live state")
        let day = h.state.stats(from: firstDay, to: firstDay)
        XCTAssertEqual(day.tasksDone, 4)
        XCTAssertEqual(day.tasksMissed, 2)
        XCTAssertEqual(h.state.stats.days[firstDay]?.tasksCreated, 6)
        // The numbers equal a count over the journal (what `deskpetctl stats` counts from an export).
        let completedInJournal = h.journal.filter { e in
            if case .taskCompleted = e.kind { return h.clock.day(of: e.at) == firstDay } else { return false }
        }.count
        XCTAssertEqual(completedInJournal, day.tasksDone)
        let earned = h.journal.filter { h.clock.day(of: $0.at) == firstDay }.reduce(0) { $0 + max(0, $1.kind.coinsDelta) }
        XCTAssertEqual(earned, day.coinsEarned)
        h.assertReplayEqualsLive()
    }
}
