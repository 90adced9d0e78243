import XCTest
@testable import PetCore

/// docs/domain.md#stats: stats per day, week and month from the per-day aggregates the fold keeps.
final class StatsTests: XCTestCase {
    /// Mon 2 … Sun 8 March 2026 in UTC: tasks done, missed and pending, coins, completion times.
    func week() -> Harness {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 12:00"])          // normal
        h.ok("task.complete", ["task": "a"], at: h.t("2026-03-02 10:00"))                  // +10, 2 h after creation
        h.ok("task.create", ["task": "b", "title": "B", "due": "2026-03-03 12:00", "priority": "high"], at: h.t("2026-03-02 10:00"))
        h.ok("task.complete", ["task": "b"], at: h.t("2026-03-03 11:00"))                  // +20, 25 h
        h.ok("task.create", ["task": "c", "title": "C", "due": "2026-03-04 12:00", "priority": "low"])
        h.ok("task.create", ["task": "d", "title": "D", "due": "2026-03-20 12:00"])        // pending, later in March
        h.advance(to: "2026-03-05 08:00")                                                  // c missed on the 4th
        return h
    }

    func testDayStats() {
        let h = week()
        let mon = h.state.dayStats(dayNumber("2026-03-02"))
        XCTAssertEqual(mon.tasksDone, 1)
        XCTAssertEqual(mon.coinsEarned, 10)
        XCTAssertEqual(mon.averageCompletionSeconds, 2 * 3600)
        let wed = h.state.dayStats(dayNumber("2026-03-04"))
        XCTAssertEqual(wed.tasksMissed, 1)
        XCTAssertEqual(wed.tasksDone, 0)
        XCTAssertNil(wed.averageCompletionSeconds)
    }

    func testWeekAndMonth() {
        let h = week()
        let w = h.state.weekStats(containing: dayNumber("2026-03-05"))
        XCTAssertEqual(w.firstDay, dayNumber("2026-03-02"), "weeks run Monday to Sunday")
        XCTAssertEqual(w.lastDay, dayNumber("2026-03-08"))
        XCTAssertEqual(w.tasksDone, 2)
        XCTAssertEqual(w.tasksMissed, 1)
        XCTAssertEqual(w.tasksPending, 0)
        XCTAssertEqual(w.coinsEarned, 30)
        XCTAssertEqual(w.averageCompletionSeconds, (2 * 3600 + 25 * 3600) / 2)
        let m = h.state.monthStats(containing: dayNumber("2026-03-05"))
        XCTAssertEqual(m.firstDay, dayNumber("2026-03-01"))
        XCTAssertEqual(m.lastDay, dayNumber("2026-03-31"))
        XCTAssertEqual(m.tasksPending, 1, "d is due on the 20th and still open")
        XCTAssertEqual(m.tasksDone, 2)
    }

    func testUncompleteTakesTheDayStatsBack() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A"])
        h.ok("task.complete", ["task": "a"], at: h.t("2026-03-02 09:00"))
        h.ok("task.uncomplete", ["task": "a"], at: h.t("2026-03-02 09:30"))
        let mon = h.state.dayStats(dayNumber("2026-03-02"))
        XCTAssertEqual(mon.tasksDone, 0)
        XCTAssertEqual(mon.coinsEarned, 0)
        XCTAssertNil(mon.averageCompletionSeconds)
        XCTAssertEqual(h.state.stats[dayNumber("2026-03-02")].tasksCreated, 1)
    }

    func testBarsLineAndHeatMap() {
        let h = week()
        let wed = dayNumber("2026-03-04")
        XCTAssertEqual(h.state.doneBars(endingWith: wed), [0, 0, 0, 0, 1, 1, 0])
        let line = h.state.coinLine(endingWith: wed)
        XCTAssertEqual(line.count, 30)
        XCTAssertEqual(line.suffix(3), [10, 20, 0])
        let map = h.state.activityHeatMap(containing: wed)
        // March 2026 starts on a Sunday: six leading blanks in a Monday-first grid, 31 days.
        XCTAssertEqual(map.first?.prefix(6).allSatisfy { $0 == nil }, true)
        XCTAssertEqual(map.flatMap { $0 }.compactMap { $0 }.count, 31)
        XCTAssertEqual(map[1][0], 1, "Monday 2 March: one task done")
        XCTAssertEqual(map.count, 6)
    }

    func testStatsSurviveReplay() {
        let h = week()
        h.assertReplayEqualsLive()
        XCTAssertEqual(h.replayed().state.stats, h.state.stats)
    }
}

/// docs/domain.md#reminders-and-nudges through `notify`: shown once, missed when late, the unsolicited cap, the phone queue.
final class ReminderTests: XCTestCase {
    func nudge(_ id: String, _ due: Instant, solicited: Bool) -> Reminder {
        Reminder(id: id, source: solicited ? .habit : .checkin, ref: "x", due: due, solicited: solicited)
    }

    func testShownOnceThenDelivered() {
        let h = Harness(at: "2026-03-02 08:00")
        var e = h.engine
        let due = h.t("2026-03-02 09:00")
        e.outbox = []
        XCTAssertTrue(e.notify(nudge("n1", due, solicited: true), at: due, upTo: due))
        XCTAssertFalse(e.notify(nudge("n1", due, solicited: true), at: due, upTo: due), "an id fires once")
        XCTAssertEqual(e.outbox.map(\.kind.type), ["notice.shown", "pet.said"])
        XCTAssertEqual(e.state.reminders.outbox.map(\.id), ["n1"])
        XCTAssertEqual(e.state.reminders.last?.id, "n1")
        // The phone confirms: the queue empties; a repeat of the confirmation is refused.
        let delivered = Command(id: "c1", at: due + 5, action: .reminder(.delivered(ids: ["n1", "unknown"])))
        let events = try? e.decide(delivered)
        XCTAssertEqual(events?.map(\.kind), [.reminder(.delivered(ids: ["n1"]))])
        e.apply(events ?? [])
        XCTAssertEqual(e.state.reminders.outbox, [])
        XCTAssertThrowsError(try e.decide(Command(id: "c2", at: due + 6, action: .reminder(.delivered(ids: ["n1"])))))
    }

    func testTwoDueInTheSameSecondBothShow() {
        let h = Harness(at: "2026-03-02 08:00")
        var e = h.engine
        let due = h.t("2026-03-02 09:00")
        e.notify(nudge("a", due, solicited: true), at: due, upTo: due)
        e.notify(nudge("b", due, solicited: true), at: due, upTo: due)
        XCTAssertEqual(e.state.reminders.outbox.map(\.id), ["a", "b"])
        XCTAssertEqual(e.state.reminders.fired.count, 2)
    }

    func testLateMeansMissedOnceAndCounted() {
        let h = Harness(at: "2026-03-02 08:00")
        var e = h.engine
        let due = h.t("2026-03-02 09:00")
        e.notify(nudge("late", due, solicited: true), at: due, upTo: due + 61)
        XCTAssertEqual(e.outbox.map(\.kind.type), ["notice.missed"], "no pet nudge for a missed one")
        XCTAssertEqual(e.state.remindersMissed, 1)
        XCTAssertFalse(e.notify(nudge("late", due, solicited: true), at: due, upTo: due + 61))
        XCTAssertEqual(e.state.remindersMissed, 1)
    }

    func testAtMostThreeUnsolicitedADay() {
        let h = Harness(at: "2026-03-02 08:00")
        var e = h.engine
        for i in 0..<5 {
            let due = h.t("2026-03-02 1\(i):00")
            e.notify(nudge("u\(i)", due, solicited: false), at: due, upTo: due)
        }
        let solicited = h.t("2026-03-02 16:00")
        e.notify(nudge("s", solicited, solicited: true), at: solicited, upTo: solicited)
        let types = e.outbox.map(\.kind.type).filter { $0 != "pet.said" }
        XCTAssertEqual(types, ["notice.shown", "notice.shown", "notice.shown", "notice.suppressed", "notice.suppressed",
                               "notice.shown"], "solicited reminders are not capped")
        let nextDay = h.t("2026-03-03 10:00")
        XCTAssertTrue(e.notify(nudge("u-next", nextDay, solicited: false), at: nextDay, upTo: nextDay))
        XCTAssertEqual(e.outbox.last(where: { $0.kind.type != "pet.said" })?.kind.type, "notice.shown", "a new day, a new allowance")
    }

    func testQuietHoursAreVisualOnly() {
        let h = Harness(at: "2026-03-02 08:00")
        XCTAssertTrue(h.engine.isQuiet(at: h.t("2026-03-02 23:30")))
        XCTAssertTrue(h.engine.isQuiet(at: h.t("2026-03-03 06:59")))
        XCTAssertFalse(h.engine.isQuiet(at: h.t("2026-03-03 07:00")))
        XCTAssertFalse(h.engine.isQuiet(at: h.t("2026-03-02 21:59")))
    }

    func testSilenceMutesSoundsButNotReminders() {
        var h = Harness(at: "2026-03-02 08:00")
        XCTAssertTrue(h.engine.reminderSoundAllowed(at: h.t("2026-03-02 10:00")))
        XCTAssertFalse(h.engine.reminderSoundAllowed(at: h.t("2026-03-02 23:00")), "quiet hours are visual only")
        h.ok("notice.silence", ["until": "+2h"])
        XCTAssertFalse(h.engine.reminderSoundAllowed(at: h.t("2026-03-02 09:59")))
        XCTAssertTrue(h.engine.reminderSoundAllowed(at: h.t("2026-03-02 10:00")))
        h.ok("task.create", ["task": "a", "title": "A", "reminders": "2026-03-02 09:00"])
        XCTAssertEqual(h.advance(to: "2026-03-02 09:00").types.first, "reminder.due", "still shown")
        h.ok("notice.silence", ["until": "off"])
        XCTAssertTrue(h.engine.reminderSoundAllowed(at: h.t("2026-03-02 09:30")))
        h.refuse("notice.silence", ["until": "2026-03-01 09:00"], .field("until"))
        h.refuse("notice.silence", ["until": "+8d"], .field("until"))
        h.assertReplayEqualsLive()
    }

    func testTaskRemindersJoinThePhoneQueueOnce() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 18:00", "reminders": "2026-03-02 09:00"])
        h.advance(to: "2026-03-02 09:00")
        XCTAssertEqual(h.state.reminders.outbox.map(\.id), ["task:a:0"])
        h.advance(to: "2026-03-02 12:00")
        XCTAssertEqual(h.state.reminders.outbox.count, 1)
        h.ok("notice.delivered", ["ids": "task:a:0"])
        XCTAssertEqual(h.state.reminders.outbox, [])
        h.refuse("notice.delivered", ["ids": "task:a:0"], .state("notice", "task:a:0"))
        h.refuse("notice.delivered", ["ids": " , "], .field("ids"))
        h.assertReplayEqualsLive()
    }
}

/// docs/screens.md settings: theme, sound, brightness, dim and sleep times.
final class DeviceSettingsTests: XCTestCase {
    func testChangesAndRefusals() {
        var h = Harness(at: "2026-03-02 08:00")
        XCTAssertEqual(h.state.device, DeviceSettings())
        h.ok("settings.device", ["theme": "dark", "sound": "off"])
        XCTAssertEqual(h.state.device.theme, .dark)
        XCTAssertFalse(h.state.device.sound)
        h.refuse("settings.device", ["brightness": "5"], .field("brightness"))
        h.refuse("settings.device", ["brightness": "101"], .field("brightness"))
        h.refuse("settings.device", ["dim": "300", "sleep": "200"], .field("sleep"))
        h.refuse("settings.device", ["theme": "purple"], .field("theme"))
        h.refuse("settings.device", ["sound": "loud"], .field("sound"))
        h.assertReplayEqualsLive()
    }
}
