import XCTest
import PetCore

/// docs/domain.md#time-and-days: days run from the day-start hour; DST days are still one day; zone and day-start
/// changes never close a day twice; a clock jump backwards undoes nothing.
final class DayTests: XCTestCase {
    func testDefaultDayStartIs3SoNightOwlHoursBelongToYesterday() {
        let h = Harness(at: "2026-03-02 12:00")
        XCTAssertEqual(h.clock.dayStartHour, 3)
        let monday = dayNumber("2026-03-02")
        XCTAssertEqual(h.state.openDay, monday)
        XCTAssertEqual(h.clock.day(of: h.t("2026-03-02 03:00")), monday)
        XCTAssertEqual(h.clock.day(of: h.t("2026-03-03 01:30")), monday, "01:30 is still yesterday")
        XCTAssertEqual(h.clock.day(of: h.t("2026-03-03 02:59:59")), monday)
        XCTAssertEqual(h.clock.day(of: h.t("2026-03-03 03:00")), monday + 1)
        XCTAssertEqual(h.clock.day(of: h.t("2026-03-02 02:59")), monday - 1)
        XCTAssertEqual(h.clock.start(ofDay: monday), h.t("2026-03-02 03:00"))
        XCTAssertEqual(h.clock.date(ofDay: monday), CivilDate(year: 2026, month: 3, day: 2))
    }

    func testEngineCreatedBeforeDayStartOpensYesterday() {
        let h = Harness(at: "2026-03-02 01:30")
        XCTAssertEqual(h.state.openDay, dayNumber("2026-03-01"))
        XCTAssertEqual(h.engine.nextWakeup(), h.t("2026-03-02 03:00"))
    }

    func testDayStartHourIsSettable0To23() {
        var h = Harness(at: "2026-03-02 12:00")
        h.refuse("settings.day-start", ["hour": "24"], .field("hour"))
        h.refuse("settings.day-start", ["hour": "-1"], .field("hour"))
        h.refuse("settings.day-start", [:], .missing("hour"))
        h.ok("settings.day-start", ["hour": "0"])
        XCTAssertEqual(h.clock.dayStartHour, 0)
        XCTAssertEqual(h.clock.day(of: h.t("2026-03-03 00:00")), dayNumber("2026-03-03"))
        XCTAssertThrowsError(try Engine.create(at: h.now, zoneID: "UTC", dayStartHour: 24, zones: testZones))
        XCTAssertThrowsError(try Engine.create(at: h.now, zoneID: "Mars/Olympus", zones: testZones))
    }

    /// (zone, DST date, hours of the local day starting on that date at 03:00)
    private let dstDays: [(String, String, Int64)] = [
        ("America/New_York", "2026-03-08", 23),
        ("America/New_York", "2026-11-01", 25),
        ("Europe/Berlin", "2026-03-29", 23),
        ("Europe/Berlin", "2026-10-25", 25),
    ]

    private func date(_ text: String, plus days: Int) -> String {
        CivilDate(parsing: text)!.adding(days: days).description
    }

    func testDSTDaysCloseExactlyOnceWithTheirLength() {
        for (zone, dst, hours) in dstDays {
            for stepped in [false, true] {
                var h = Harness(zone: zone, at: date(dst, plus: -2) + " 12:00")
                let end = wall(date(dst, plus: 2) + " 12:00", in: zone)
                if stepped { while h.now < end { h.advance(to: min(h.now + 37 * Seconds.minute, end)) } }
                else { h.advance(to: end) }
                let closes = h.journal.filter { if case .dayClosed = $0.kind { true } else { false } }
                XCTAssertEqual(closes.closedDays.map(\.day), (-2...1).map { dayNumber(dst) + $0 }, "\(zone) \(dst)")
                for (i, e) in closes.enumerated() {
                    XCTAssertEqual(e.at, wall(date(dst, plus: i - 1) + " 03:00", in: zone), "\(zone) \(dst) close \(i)")
                }
                // The clocks change at 02:00/03:00 local, before the 03:00 day start: the transition
                // falls in the day named the date before (from 03:00 that date to 03:00 on `dst`).
                XCTAssertEqual(closes[1].at - closes[0].at, hours * Seconds.hour, "\(zone) day before \(dst) is \(hours) h long")
                XCTAssertEqual(closes[2].at - closes[1].at, 24 * Seconds.hour)
                XCTAssertEqual(closes[3].at - closes[2].at, 24 * Seconds.hour)
            }
        }
    }

    func testEveryDayStartHourClosesEachDayOnceAcrossDST() {
        for (zone, dst, _) in dstDays {
            for hour in 0...23 {
                var h = Harness(zone: zone, at: date(dst, plus: -2) + " 12:00", dayStart: hour)
                let end = wall(date(dst, plus: 2) + " 12:00", in: zone)
                while h.now < end { h.advance(to: min(h.now + 20 * Seconds.minute, end)) }
                let days = h.journal.closedDays.map(\.day)
                let first = h.clock.day(of: wall(date(dst, plus: -2) + " 12:00", in: zone))
                XCTAssertEqual(days, Array(first..<h.state.openDay), "\(zone) \(dst) day start \(hour)")
                XCTAssertEqual(days.count, 4, "\(zone) \(dst) day start \(hour)")
                // Each close happens at the start of the next day.
                for e in h.journal { if case .dayClosed(let r) = e.kind { XCTAssertEqual(e.at, h.clock.start(ofDay: r.day + 1)) } }
            }
        }
    }

    func testAMissedTaskOnA23HourDayIsMissedOnce() {
        let ny = "America/New_York"
        var h = Harness(zone: ny, at: "2026-03-07 12:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-08 02:30"])   // in the gap: 03:30 EDT
        XCTAssertEqual(h.task("a")?.due, wall("2026-03-08 03:30", in: ny))
        h.advance(to: wall("2026-03-12 12:00", in: ny))
        XCTAssertEqual(h.journal.missed, ["a"])
        XCTAssertEqual(h.task("a")?.missedDay, dayNumber("2026-03-08"))
    }

    func testChangingTheZoneNeverClosesADayTwiceOrRewardsTwice() {
        var h = Harness(zone: "Europe/Berlin", at: "2026-03-02 10:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 20:00"])
        h.ok("task.complete", ["task": "a"])
        let zones = ["America/New_York", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Tokyo", "Pacific/Kiritimati",
                     "Europe/Berlin", "Pacific/Pago_Pago", "Asia/Kolkata", "Pacific/Kiritimati", "UTC"]
        for (i, zone) in zones.enumerated() {
            h.advance(by: Int64(5 + 3 * i) * Seconds.hour)
            h.ok("settings.zone", ["zone": zone])
            XCTAssertEqual(h.state.zoneID, zone)
            h.refuse("task.complete", ["task": "a"], .state("task", "a"))
            h.advance(by: 1)
        }
        h.refuse("settings.zone", ["zone": "Mars/Olympus"], .unknownZone("Mars/Olympus"))
        let days = h.journal.closedDays.map(\.day)
        XCTAssertEqual(days, Array(days.first!...days.last!), "consecutive, each once")
        XCTAssertEqual(h.journal.rewards.count, 1)
        XCTAssertEqual(h.state.coins, 10)
        XCTAssertEqual(h.journal.missed, [])
        h.assertReplayEqualsLive()
    }

    func testChangingTheDayStartNeverClosesADayTwice() {
        var h = Harness(at: "2026-03-02 01:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 02:00"])
        h.ok("task.complete", ["task": "a"])
        for (i, hour) in [0, 23, 12, 3, 5, 2, 22, 0, 1].enumerated() {
            h.advance(by: Int64(2 + i) * Seconds.hour)
            h.ok("settings.day-start", ["hour": String(hour)])
            h.advance(by: 1)
            h.refuse("task.complete", ["task": "a"], .state("task", "a"))
        }
        let days = h.journal.closedDays.map(\.day)
        XCTAssertEqual(days, Array(days.first!...days.last!))
        XCTAssertEqual(h.journal.rewards.count, 1)
        XCTAssertEqual(h.state.coins, 10)
        h.assertReplayEqualsLive()
    }

    func testClockJumpBackwardsUndoesNothing() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A"])
        h.ok("task.complete", ["task": "a"])
        h.advance(to: "2026-03-03 10:00")
        let before = h.state
        // Advancing to an earlier instant does nothing.
        XCTAssertEqual(h.advance(to: "2026-03-02 09:00"), [])
        XCTAssertEqual(h.state, before)
        // A command stamped in the past happens "now": yesterday cannot be reopened.
        h.refuse("task.uncomplete", ["task": "a"], .state("task", "a"))
        XCTAssertThrowsError(try h.engine.decide(Command(id: "old", at: h.t("2026-03-02 09:00"), action: .uncompleteTask(id: "a"))))
        let events = h.ok("task.create", ["task": "b", "title": "B"], at: h.t("2026-03-01 09:00"))
        XCTAssertEqual(events.map(\.at), [before.now])
        XCTAssertEqual(h.task("b")?.createdAt, before.now)
        XCTAssertEqual(h.state.openDay, before.openDay)
        XCTAssertEqual(h.state.coins, before.coins)
    }

    /// After switching to a zone ahead, the open day may already be over: the zone change closes it
    /// itself, at its own instant (docs/domain.md), so nothing is left for the loop to settle
    /// and the next wakeup is in the future (an app loop never spins on "now").
    func testAZoneJumpAheadClosesTheDayInTheSameCommand() {
        var h = Harness(zone: "Pacific/Pago_Pago", at: "2026-03-02 20:00")
        let open = h.state.openDay
        let events = h.ok("settings.zone", ["zone": "Pacific/Kiritimati"])  // 25 h ahead: 21:00 on the 3rd there
        XCTAssertEqual(events.closedDays.map(\.day), [open])
        XCTAssertTrue(events.allSatisfy { $0.at == h.now })
        XCTAssertEqual(h.state.openDay, open + 1)
        let w = try! XCTUnwrap(h.engine.nextWakeup())
        XCTAssertGreaterThan(w, h.now, "nothing is left to settle")
        XCTAssertEqual(h.advance(to: h.now), [])
    }
}

/// docs/domain.md#time-and-days, docs/domain.md#tasks: missed items and catch-up after the device was off.
final class MissedAndCatchUpTests: XCTestCase {
    func testPendingTaskIsMissedOnceAtTheEndOfItsDueDayNotBefore() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 10:00"])
        XCTAssertEqual(h.advance(to: "2026-03-02 10:00:01").missed, [], "past due but the day is not over")
        XCTAssertEqual(h.task("a")?.state, .pending)
        XCTAssertEqual(h.advance(to: "2026-03-03 02:59:59").missed, [])
        let events = h.advance(to: "2026-03-03 03:00")
        XCTAssertEqual(events.missed, ["a"])
        XCTAssertEqual(events.first?.at, h.t("2026-03-03 03:00"))
        XCTAssertEqual(h.task("a")?.state, .missed)
        XCTAssertEqual(h.task("a")?.missedDay, dayNumber("2026-03-02"))
        let result = try! XCTUnwrap(events.closedDays.first)
        XCTAssertEqual([result.day, result.due, result.done, result.missed, result.streak],
                       [dayNumber("2026-03-02"), 1, 0, 1, 0])
        XCTAssertEqual(Lines.line(key: events.saidKeys.last ?? "")?.kind, .missed)
        XCTAssertEqual(h.advance(to: "2026-03-09 12:00").missed, [], "never missed twice")
    }

    func testDueBeforeDayStartBelongsToYesterday() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "night", "title": "A", "due": "2026-03-03 01:30"])
        h.ok("task.create", ["task": "morning", "title": "B", "due": "2026-03-03 03:00"])
        XCTAssertEqual(h.advance(to: "2026-03-03 03:00").missed, ["night"])
        XCTAssertEqual(h.advance(to: "2026-03-04 03:00").missed, ["morning"])
    }

    func testInProgressTaskIsMissedToo() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 10:00"])
        h.ok("task.start", ["task": "a"])
        XCTAssertEqual(h.advance(to: "2026-03-03 03:00").missed, ["a"])
    }

    func testDayClosedCountsDueDoneAndMissed() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 10:00"])
        h.ok("task.create", ["task": "b", "title": "B", "due": "2026-03-02 11:00"])
        h.ok("task.create", ["task": "c", "title": "C", "due": "2026-03-05 11:00"])
        h.ok("task.create", ["task": "d", "title": "D"])
        h.ok("task.complete", ["task": "a"])
        h.ok("task.complete", ["task": "c"])
        h.ok("task.complete", ["task": "d"])
        let r = try! XCTUnwrap(h.advance(to: "2026-03-03 03:00").closedDays.first)
        XCTAssertEqual([r.due, r.done, r.missed], [2, 1, 1], "only tasks due that day count")
        XCTAssertEqual(h.state.tally[dayNumber("2026-03-02")]?.done, 3)
        XCTAssertEqual(h.state.tally[dayNumber("2026-03-02")]?.missed, 1)
    }

    func testCatchUpAfterThreeDaysOff() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 10:00"])
        h.ok("task.create", ["task": "b", "title": "B", "due": "2026-03-03 10:00"])
        h.ok("task.create", ["task": "r", "title": "Daily", "due": "2026-03-02 09:00", "repeat": "daily",
                             "reminders": "2026-03-02 08:30"])
        h.ok("task.create", ["task": "c", "title": "C", "due": "2026-03-06 10:00", "reminders": "2026-03-04 12:00"])
        // Off from 08:00 on Monday until 08:00 on Thursday, then one advance.
        let events = h.advance(to: "2026-03-05 08:00")

        XCTAssertEqual(events.closedDays.map(\.day), (0...2).map { dayNumber("2026-03-02") + $0 }, "each day once, in order")
        XCTAssertEqual(events.missed, ["r", "a", "r#1", "b", "r#2"])
        XCTAssertEqual(Set(events.missed).count, events.missed.count, "each overdue item once")
        XCTAssertEqual(events.closedDays.map(\.missed), [2, 2, 1], "one missed daily occurrence per day")
        XCTAssertEqual(h.task("r#3")?.due, h.t("2026-03-05 09:00"))
        XCTAssertEqual(h.task("r#3")?.state, .pending)
        XCTAssertEqual(events.remindersDue, [], "never replayed as due")
        XCTAssertEqual(events.remindersMissed, ["r/0", "r#1/0", "r#2/0", "c/0"])
        XCTAssertEqual(h.state.remindersMissed, 4)
        XCTAssertEqual(h.state.lastReminder?.missed, true)
        XCTAssertEqual(events.map(\.at), events.map(\.at).sorted(), "in time order")
        XCTAssertEqual(h.state.streak, 0)

        XCTAssertEqual(h.advance(to: "2026-03-05 08:00"), [], "advancing again produces nothing")
        XCTAssertEqual(h.advance(to: "2026-03-05 08:10"), [])
        // The next reminder, reached live, is due (not missed).
        let live = h.advance(to: "2026-03-05 08:30:30")
        XCTAssertEqual(live.remindersDue, ["r#3/0"])
        XCTAssertEqual(live.remindersMissed, [])
        h.assertReplayEqualsLive()
    }

    func testCatchUpInOneStepEqualsManySmallSteps() {
        func setUp() -> Harness {
            var h = Harness(zone: "Europe/Berlin", at: "2026-03-27 08:00")
            h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-27 10:00"])
            h.ok("task.create", ["task": "r", "title": "R", "due": "2026-03-27 21:00", "repeat": "daily"])
            h.ok("task.create", ["task": "c", "title": "C", "due": "2026-03-30 10:00"])
            return h
        }
        var once = setUp(), steps = setUp()
        let end = wall("2026-03-31 12:00", in: "Europe/Berlin")
        once.advance(to: end)
        while steps.now < end { steps.advance(to: min(steps.now + 3 * Seconds.hour + 17, end)) }
        XCTAssertEqual(once.journal.closedDays, steps.journal.closedDays)
        XCTAssertEqual(once.journal.missed, steps.journal.missed)
        XCTAssertEqual(once.state.tasks, steps.state.tasks)
        XCTAssertEqual(once.state.needs(at: end), steps.state.needs(at: end))
    }
}

/// docs/domain.md#time-and-days pause: no day counts as missed, no streak breaks, the pet sleeps.
final class PauseTests: XCTestCase {
    func testPauseExcusesDueTasksAndFreezesTheStreak() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 10:00"])
        h.ok("task.complete", ["task": "a"])
        h.advance(to: "2026-03-03 03:00")
        XCTAssertEqual(h.state.streak, 1)

        h.ok("pause")
        XCTAssertTrue(h.state.paused)
        h.refuse("pause", [:], .state("pause", "device"))
        h.ok("task.create", ["task": "b", "title": "B", "due": "2026-03-03 10:00"])
        h.ok("task.create", ["task": "r", "title": "R", "due": "2026-03-03 11:00", "repeat": "daily"])
        let events = h.advance(to: "2026-03-05 12:00")
        XCTAssertEqual(events.missed, [], "nothing is missed while paused")
        XCTAssertEqual(events.excused, ["b", "r", "r#1"])
        XCTAssertEqual(events.closedDays.map(\.paused), [true, true])
        XCTAssertEqual(events.closedDays.map(\.streak), [1, 1], "neither grows nor breaks")
        XCTAssertEqual(h.task("b")?.state, .pending)
        XCTAssertEqual(h.task("b")?.excusedDay, dayNumber("2026-03-03"))
        XCTAssertNil(h.task("r"), "a skipped occurrence of a recurring task leaves the list")
        XCTAssertNil(h.task("r#1"))
        XCTAssertEqual(h.state.openTasks().map(\.id), ["b", "r#2"], "no pile of stale occurrences")
        XCTAssertEqual(h.state.mood(at: h.t("2026-03-05 12:00")), .sleepy, "the pet sleeps peacefully")
        XCTAssertEqual(h.state.coins, 10, "no penalty")

        let resumed = h.ok("resume")
        XCTAssertEqual(resumed.types, ["resumed", "pet.said"])
        XCTAssertEqual(Lines.line(key: resumed.saidKeys[0])?.kind, .greeting)
        h.refuse("resume", [:], .state("pause", "device"))
        // Excused tasks are never missed later; new ones are missed normally again.
        h.ok("task.create", ["task": "d", "title": "D", "due": "2026-03-05 18:00"])
        let after = h.advance(to: "2026-03-06 03:00")
        XCTAssertEqual(Set(after.missed), ["d", "r#2"])
        XCTAssertEqual(after.closedDays.last?.streak, 0)
        XCTAssertEqual(after.closedDays.last?.paused, false)
        h.assertReplayEqualsLive()
    }

    func testStreakGrowsAgainAfterResume() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 10:00"])
        h.ok("task.complete", ["task": "a"])
        h.ok("pause", at: h.t("2026-03-02 20:00"))
        h.ok("resume", at: h.t("2026-03-04 09:00"))
        h.ok("task.create", ["task": "b", "title": "B", "due": "2026-03-04 10:00"])
        h.ok("task.complete", ["task": "b"])
        h.advance(to: "2026-03-05 03:00")
        // Monday counted while paused at its close (paused at 20:00 → neutral), Tuesday paused, Wednesday done.
        XCTAssertEqual(h.journal.closedDays.map(\.streak), [0, 0, 1])
    }
}
