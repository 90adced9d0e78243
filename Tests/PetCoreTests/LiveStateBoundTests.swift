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

    /// Eleven and a half years of use: the stats keep about 400 days one by one, older days by
    /// month and months older than ten years by year, so the state stops growing; every figure
    /// over a whole month, a whole year and the whole history equals the count over the journal
    /// (what `deskpetctl stats` counts), the habit line is exact at month ends, and replay agrees.
    func testOldDaysRollUpIntoMonthsAndYearsKeepingEveryTotal() {
        var h = Harness(at: "2026-03-02 08:00")
        let firstDay = h.state.openDay
        h.ok("habit.add", ["habit": "walk", "text": "Walk"])
        var maxRecords = 0
        // Each month's figures read on its last day, while still kept day by day.
        var whileDaily: [Int: PeriodStats] = [:]
        for d in 0..<(12 * 365 + 60) {
            if d % 3 != 2 {
                h.ok("task.create", ["task": "t\(d)", "title": "T", "due": "today 18:00"])
                if d % 3 == 0 { h.ok("task.complete", ["task": "t\(d)"]) }
            }
            if d % 2 == 0 { h.ok("habit.check", ["habit": "walk"]) }
            _ = h.advance(by: Seconds.day)
            let date = CivilDate(dayNumber: h.state.openDay)
            if date.day == 2 {   // the 1st closed: last month is whole
                let last = h.state.openDay - 2
                let c = CivilDate(dayNumber: last)
                let first = CivilDate(year: c.year, month: c.month, day: 1).dayNumber
                if last >= firstDay { whileDaily[first] = h.state.stats(from: max(first, firstDay), to: last) }
            }
            maxRecords = max(maxRecords, h.state.stats.days.count + h.state.stats.months.count + h.state.stats.years.count)
        }
        let today = h.state.openDay
        let stats = h.state.stats
        XCTAssertLessThanOrEqual(stats.days.count, StatsState.dailyDays + 31, "days kept one by one")
        XCTAssertGreaterThanOrEqual(stats.days.count, StatsState.dailyDays - 1)
        XCTAssertLessThanOrEqual(stats.months.count, 12 * (StatsState.monthlyYears + 1), "months kept")
        XCTAssertFalse(stats.years.isEmpty, "the first year rolled up")
        XCTAssertLessThan(maxRecords, StatsState.dailyDays + 31 + 12 * (StatsState.monthlyYears + 1) + 2,
                          "the records never grew with the years (4,400 days)")
        // Each whole calendar month and year, and the whole history, as they were day by day and
        // against the journal.
        func count(_ from: Int, _ to: Int) -> (done: Int, earned: Int) {
            var r = (done: 0, earned: 0)
            for e in h.journal {
                let day = h.clock.day(of: e.at)
                guard day >= from, day <= to else { continue }
                if case .taskCompleted = e.kind { r.done += 1 }
                r.earned += max(0, e.kind.coinsDelta)
            }
            return r
        }
        var checked = 0
        var byYear: [Int: (done: Int, missed: Int, earned: Int, score: Int)] = [:]
        for (first, before) in whileDaily.sorted(by: { $0.key < $1.key }) {
            let year = CivilDate(dayNumber: first).year
            byYear[year, default: (0, 0, 0, 0)].done += before.tasksDone
            byYear[year, default: (0, 0, 0, 0)].missed += before.tasksMissed
            byYear[year, default: (0, 0, 0, 0)].earned += before.coinsEarned
            byYear[year, default: (0, 0, 0, 0)].score += before.habitScore
            // A month rolled into its year is counted with the year only.
            guard stats.years[CivilDate(year: year, month: 1, day: 1).dayNumber] == nil else { continue }
            let p = h.state.stats(from: before.firstDay, to: before.lastDay)
            XCTAssertEqual(p, before, "month of \(CivilDate(dayNumber: first)), rolled up or not")
            XCTAssertEqual(p.tasksDone, count(before.firstDay, before.lastDay).done)
            checked += 1
        }
        for (y, _) in stats.years {
            let year = CivilDate(dayNumber: y).year
            let p = h.state.stats(from: y, to: CivilDate(year: year, month: 12, day: 31).dayNumber)
            let before = byYear[year] ?? (0, 0, 0, 0)
            XCTAssertEqual(p.tasksDone, before.done, "\(year)")
            XCTAssertEqual(p.tasksMissed, before.missed, "\(year)")
            XCTAssertEqual(p.coinsEarned, before.earned, "\(year)")
            XCTAssertEqual(p.habitScore, before.score, "\(year)")
            XCTAssertGreaterThan(p.tasksDone, 100)
        }
        XCTAssertGreaterThan(checked, 130)
        let all = h.state.stats(from: firstDay, to: today), j = count(firstDay, today)
        XCTAssertEqual(all.tasksDone, j.done)
        XCTAssertEqual(all.tasksDone, h.state.tasksCompleted)
        XCTAssertEqual(all.coinsEarned, j.earned)
        XCTAssertNotNil(all.averageCompletionSeconds)
        // The habit line since the start ends at the sum of every day's score.
        let scores = h.journal.reduce(0) { n, e in if case .habit(.dayScored(let s)) = e.kind { n + s.points } else { n } }
        XCTAssertEqual(h.state.habitScoreLine(from: firstDay, to: today).last, scores)
        // A single old day reads as empty; the charts (recent days) are unchanged.
        XCTAssertEqual(h.state.stats[firstDay], DayStats())
        XCTAssertEqual(h.state.doneBars(endingWith: today - 1).reduce(0, +), count(today - 7, today - 1).done)
        h.assertReplayEqualsLive()
    }

    /// A phone adding and removing habits for years: removed habits keep only their ids, the
    /// latest 256 of them; the oldest may be used again, a recent one stays taken.
    func testArchivedHabitsKeepOnlyTheLatestIDs() {
        var h = Harness(at: "2026-03-02 08:00")
        for i in 0..<(HabitRules.maxArchived + 20) {
            h.ok("habit.add", ["habit": "h\(i)", "text": "Habit number \(i)"])
            _ = h.advance(by: 60)
            h.ok("habit.remove", ["habit": "h\(i)"])
        }
        XCTAssertEqual(h.state.habits.archived.count, HabitRules.maxArchived)
        XCTAssertNil(h.state.habits.archived["h19"])
        XCTAssertNotNil(h.state.habits.archived["h20"])
        h.refuse("habit.add", ["habit": "h\(HabitRules.maxArchived + 19)", "text": "Again"], .exists("habit", "h\(HabitRules.maxArchived + 19)"))
        h.ok("habit.add", ["habit": "h0", "text": "Forgotten id, used again"])
        XCTAssertTrue(h.state.habits.habits.values.allSatisfy { $0.id == "h0" })
        h.assertReplayEqualsLive()
    }
}
