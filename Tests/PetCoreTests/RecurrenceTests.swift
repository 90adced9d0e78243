import XCTest
import PetCore

/// docs/domain.md#tasks: recurrence (daily, chosen weekdays, every N days, optional end date); the next
/// occurrence is spawned when the current one is completed or missed, at the same local time.
final class RecurrenceTests: XCTestCase {
    func testParse() throws {
        XCTAssertEqual(try Recurrence.parse("daily"), .daily)
        XCTAssertEqual(try Recurrence.parse("every:1"), .daily)
        XCTAssertEqual(try Recurrence.parse("every:3"), .everyNDays(3))
        XCTAssertEqual(try Recurrence.parse("every:3d"), .everyNDays(3))
        XCTAssertEqual(try Recurrence.parse("weekdays:fri,mon,wed,mon"), .weekdays([1, 3, 5]))
        XCTAssertEqual(try Recurrence.parse("weekly:sun"), .weekdays([0]))
        for bad in ["", "weekly", "weekdays:", "weekly:", "weekdays:,", "every:", "every:x", "every:-2", "yearly"] {
            XCTAssertThrowsError(try Recurrence.parse(bad), bad)
        }
    }

    func testNextDates() {
        let mon = CivilDate(year: 2026, month: 3, day: 2)
        XCTAssertEqual(mon.weekday, 1)
        XCTAssertEqual(Recurrence(rule: .daily).nextDate(after: mon), CivilDate(year: 2026, month: 3, day: 3))
        XCTAssertEqual(Recurrence(rule: .everyNDays(3)).nextDate(after: mon), CivilDate(year: 2026, month: 3, day: 5))
        let mwf = Recurrence(rule: .weekdays([1, 3, 5]))
        XCTAssertEqual(mwf.nextDate(after: mon), CivilDate(year: 2026, month: 3, day: 4))
        XCTAssertEqual(mwf.nextDate(after: CivilDate(year: 2026, month: 3, day: 6)), CivilDate(year: 2026, month: 3, day: 9))
        let until = Recurrence(rule: .daily, until: CivilDate(year: 2026, month: 3, day: 3))
        XCTAssertEqual(until.nextDate(after: mon), CivilDate(year: 2026, month: 3, day: 3), "until is inclusive")
        XCTAssertNil(until.nextDate(after: CivilDate(year: 2026, month: 3, day: 3)))
    }

    private func dueDates(_ h: Harness) -> [String] {
        h.state.taskList().compactMap { $0.due.map { h.clock.local($0).description } }
    }

    func testDailySpawnsNextOnComplete() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "walk", "title": "Walk", "due": "2026-03-02 18:00", "repeat": "daily",
                             "reminders": "2026-03-02 17:30"])
        let events = h.ok("task.complete", ["task": "walk"])
        let child = try! XCTUnwrap(events.created.first)
        XCTAssertEqual(child.id, "walk#1")
        XCTAssertEqual(child.due, h.t("2026-03-03 18:00"))
        XCTAssertEqual(child.reminders, [h.t("2026-03-03 17:30")], "reminders keep their distance to due")
        XCTAssertEqual(child.state, .pending)
        XCTAssertEqual(child.occurrence, 1)
        XCTAssertEqual(child.seriesID, "walk")
        XCTAssertEqual(child.spawnedFrom, "walk")
        XCTAssertEqual(h.task("walk")?.spawnedID, "walk#1")
        XCTAssertEqual(child.recurrence, h.task("walk")?.recurrence)
    }

    func testATaskPlannedInThePastDoesNotSpawnOccurrencesThatAreOver() {
        var h = Harness(at: "2026-03-10 08:00")
        h.ok("task.create", ["task": "old", "title": "Old", "start": "2026-03-01 08:00", "due": "2026-03-02 09:00",
                             "repeat": "daily"])
        let events = h.advance(to: "2026-03-11 03:00")
        XCTAssertEqual(events.missed, ["old"], "the overdue occurrence is missed once")
        XCTAssertEqual(h.task("old#1")?.due, h.t("2026-03-11 09:00"), "the next one is the first still ahead")
        h.advance(to: "2026-03-11 08:00")
        XCTAssertEqual(h.state.openTasks().map(\.id), ["old#1"])
    }

    func testWeekdayNamesMustBeExact() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 19:00", "repeat": "weekdays:monday,fri"])
        h.refuse("task.create", ["task": "b", "title": "B", "due": "2026-03-02 19:00", "repeat": "weekdays:monkey"],
                 .field("recurrence"))
    }

    func testWeekdaysSkipToTheNextChosenDay() {
        var h = Harness(at: "2026-03-02 08:00")   // Monday
        h.ok("task.create", ["task": "gym", "title": "Gym", "due": "2026-03-02 19:00", "repeat": "weekdays:mon,wed,fri"])
        h.ok("task.complete", ["task": "gym"])
        h.ok("task.complete", ["task": "gym#1"])
        h.ok("task.complete", ["task": "gym#2"])
        XCTAssertEqual(h.task("gym#1")?.due, h.t("2026-03-04 19:00"))
        XCTAssertEqual(h.task("gym#2")?.due, h.t("2026-03-06 19:00"))
        XCTAssertEqual(h.task("gym#3")?.due, h.t("2026-03-09 19:00"))
    }

    func testEveryNDays() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "water", "title": "Water", "due": "2026-03-02 10:00", "repeat": "every:3"])
        h.ok("task.complete", ["task": "water"])
        XCTAssertEqual(h.task("water#1")?.due, h.t("2026-03-05 10:00"))
    }

    func testUntilStopsTheSeries() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 10:00", "repeat": "daily", "until": "2026-03-03"])
        h.ok("task.complete", ["task": "a"])
        XCTAssertEqual(h.task("a#1")?.due, h.t("2026-03-03 10:00"))
        let events = h.ok("task.complete", ["task": "a#1"])
        XCTAssertEqual(events.created, [], "no occurrence after the end date")
    }

    func testMissedOccurrenceSpawnsTheNext() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 10:00", "repeat": "daily"])
        let events = h.advance(to: "2026-03-03 03:00")
        XCTAssertEqual(events.missed, ["a"])
        XCTAssertEqual(events.created.map(\.id), ["a#1"])
        XCTAssertEqual(h.task("a#1")?.due, h.t("2026-03-03 10:00"))
        // Completing the missed occurrence later does not spawn a second one.
        let late = h.ok("task.complete", ["task": "a"])
        XCTAssertEqual(late.created, [])
    }

    func testDailyKeepsLocalTimeAcrossSpringForward() {
        let ny = "America/New_York"
        var h = Harness(zone: ny, at: "2026-03-06 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-06 09:00", "repeat": "daily"])
        h.ok("task.complete", ["task": "a"])
        h.ok("task.complete", ["task": "a#1"], at: wall("2026-03-07 08:00", in: ny))
        // a#2 (Sunday 8 March, the 23-hour day) is missed: a#3 is spawned at the day's end.
        h.advance(to: wall("2026-03-10 12:00", in: ny))
        XCTAssertEqual(dueDates(h), ["2026-03-06 09:00", "2026-03-07 09:00", "2026-03-08 09:00", "2026-03-09 09:00",
                                     "2026-03-10 09:00"])
        XCTAssertEqual(h.task("a#2")?.due, wall("2026-03-08 09:00", in: ny))
        XCTAssertEqual(h.task("a#2")!.due! - h.task("a#1")!.due!, 23 * Seconds.hour)
        XCTAssertEqual(h.task("a#3")!.due! - h.task("a#2")!.due!, 24 * Seconds.hour)
    }

    func testDailyKeepsLocalTimeAcrossFallBack() {
        let berlin = "Europe/Berlin"
        var h = Harness(zone: berlin, at: "2026-10-24 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-10-24 21:00", "repeat": "daily"])
        h.ok("task.complete", ["task": "a"])
        XCTAssertEqual(h.task("a#1")?.due, wall("2026-10-25 21:00", in: berlin))
        XCTAssertEqual(h.task("a#1")!.due! - h.task("a")!.due!, 25 * Seconds.hour)
    }

    func testUncompleteTakesBackTheSpawnedOccurrence() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 18:00", "repeat": "daily"])
        h.ok("task.complete", ["task": "a"])
        XCTAssertNotNil(h.task("a#1"))
        let events = h.ok("task.uncomplete", ["task": "a"])
        XCTAssertEqual(events.kinds.last, .taskDeleted(id: "a#1"))
        XCTAssertNil(h.task("a#1"))
        XCTAssertNil(h.task("a")?.spawnedID)
        XCTAssertEqual(h.task("a")?.state, .pending)
        // Completing again spawns it again, once.
        XCTAssertEqual(h.ok("task.complete", ["task": "a"]).created.map(\.id), ["a#1"])
        h.assertReplayEqualsLive()
    }

    func testUncompleteKeepsAnOccurrenceAlreadyWorkedOn() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 18:00", "repeat": "daily"])
        h.ok("task.complete", ["task": "a"])
        h.ok("task.start", ["task": "a#1"])
        let events = h.ok("task.uncomplete", ["task": "a"])
        XCTAssertEqual(events.types, ["task.uncompleted"])
        XCTAssertEqual(h.task("a#1")?.state, .inProgress)
    }

    /// A finished recurring task does not seem to come back at once: its next occurrence exists
    /// (reminders, the phone's list) but the day's list shows it only from its day, and the one
    /// finished shows as done for today meanwhile.
    func testTheNextOccurrenceWaitsForItsDayOnTheDaysList() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "walk", "title": "Walk", "due": "2026-03-02 18:00", "repeat": "daily"])
        h.ok("task.create", ["task": "mail", "title": "Mail", "due": "2026-03-05 12:00"])
        XCTAssertEqual(h.state.todayTasks().map(\.id), ["walk", "mail"])
        h.ok("task.complete", ["task": "walk"])
        XCTAssertEqual(h.state.openTasks().map(\.id), ["walk#1", "mail"], "the next occurrence exists")
        XCTAssertEqual(h.state.todayTasks().map(\.id), ["mail"], "but waits for its day; a one-off due later stays")
        XCTAssertEqual(h.state.recurringDoneToday().map(\.id), ["walk"])
        XCTAssertEqual(h.state.nextTask?.id, "mail")
        // Still the same day at 02:59 (the day starts at 03:00).
        h.advance(to: "2026-03-03 02:59")
        XCTAssertEqual(h.state.todayTasks().map(\.id), ["mail"])
        h.advance(to: "2026-03-03 03:00")
        XCTAssertEqual(h.state.todayTasks().map(\.id), ["walk#1", "mail"], "its day has come")
        XCTAssertEqual(h.state.recurringDoneToday().map(\.id), [])
        // Completed early (the day before its own), a weekly one's next waits a week.
        h.ok("task.create", ["task": "bins", "title": "Bins", "due": "2026-03-04 07:00", "repeat": "weekly:wed"])
        h.ok("task.complete", ["task": "bins"])
        XCTAssertEqual(h.task("bins#1")?.due, h.t("2026-03-11 07:00"))
        XCTAssertFalse(h.state.todayTasks().contains { $0.id == "bins#1" })
        h.advance(to: "2026-03-11 03:00")
        XCTAssertTrue(h.state.todayTasks().contains { $0.id == "bins#1" })
    }
}
