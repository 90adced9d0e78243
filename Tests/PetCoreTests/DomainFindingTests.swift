import XCTest
import TestSupport
import PetCore

// Domain findings, each checked against the rules (docs/domain.md):
// 2. a recurring task keeps the owner's wall-clock time through a DST gap (docs/domain.md#time-and-days, docs/domain.md#tasks);
// 3. the daily streak counts every due task and every habit, never the movement box (docs/domain.md#streak-and-badges vs docs/habits.md);
// 4. a verification outside a commitment's window is refused and changes nothing; the window's
//    close is the (only) way to fail (docs/commitments.md);
// 5. a zone or day-start change that ends the open day closes it at once, in the same command (docs/domain.md#time-and-days).

final class RecurrenceWallClockTests: XCTestCase {
    private let berlin = "Europe/Berlin"

    private func local(_ h: Harness, _ id: String) -> String? {
        h.task(id)?.due.map { h.clock.local($0).description }
    }

    /// The issue's repro: due 02:30, the DST day (29 March 2026: 02:00 → 03:00) has no 02:30.
    func testDailyDueInsideTheSpringForwardGapReturnsToItsTimeAfterTheDSTDay() {
        var h = Harness(zone: berlin, at: "2026-03-27 09:00")
        h.ok("task.create", ["task": "night", "title": "Night", "due": "2026-03-28 02:30", "repeat": "daily",
                             "reminders": "2026-03-28 02:00"])
        h.ok("task.complete", ["task": "night"], at: wall("2026-03-28 01:00", in: berlin))
        XCTAssertEqual(local(h, "night#1"), "2026-03-29 03:30", "the gap moves the DST day's occurrence forward")
        XCTAssertEqual(h.task("night#1")?.plannedSecondOfDay, 2 * 3600 + 1800, "the planned time stays 02:30")
        h.ok("task.complete", ["task": "night#1"], at: wall("2026-03-29 03:10", in: berlin))
        XCTAssertEqual(local(h, "night#2"), "2026-03-30 02:30", "back at the owner's time the day after")
        XCTAssertEqual(h.task("night#2")?.due, wall("2026-03-30 02:30", in: berlin))
        // The reminder keeps its distance (30 minutes) to each occurrence's due.
        XCTAssertEqual(h.task("night#2")?.reminders, [wall("2026-03-30 02:00", in: berlin)])
        h.ok("task.complete", ["task": "night#2"], at: wall("2026-03-30 01:00", in: berlin))
        XCTAssertEqual(local(h, "night#3"), "2026-03-31 02:30")
        h.assertReplayEqualsLive()
    }

    func testAnOccurrenceMissedOnTheDSTDaySpawnsTheNextAtThePlannedTime() {
        var h = Harness(zone: berlin, at: "2026-03-27 09:00")
        h.ok("task.create", ["task": "n", "title": "N", "due": "2026-03-28 02:30", "repeat": "daily"])
        h.ok("task.complete", ["task": "n"], at: wall("2026-03-28 01:00", in: berlin))
        // n#1 (Sun 03:30 CEST) is left open: missed at the close of its day (Mon 03:00), n#2 spawned
        // then at the first planned 02:30 still ahead: Tuesday's (Monday's 02:30 is already over).
        let events = h.advance(to: wall("2026-03-30 12:00", in: berlin))
        XCTAssertEqual(events.missed, ["n#1"])
        XCTAssertEqual(local(h, "n#2"), "2026-03-31 02:30")
        h.assertReplayEqualsLive()
    }

    func testWeekdayAndEveryNDaysRepeatsAlsoKeepThePlannedTime() {
        var h = Harness(zone: berlin, at: "2026-03-20 09:00")
        // Sundays and Mondays at 02:30: Sun 22, Sun 29 (gap → 03:30), Mon 30 (02:30 again).
        h.ok("task.create", ["task": "w", "title": "W", "due": "2026-03-22 02:30", "repeat": "weekdays:sun,mon"])
        // Every 2 days at 02:15: Fri 27, Sun 29 (gap → 03:15), Tue 31 (02:15 again).
        h.ok("task.create", ["task": "e", "title": "E", "due": "2026-03-27 02:15", "repeat": "every:2"])
        h.ok("task.complete", ["task": "w"])
        XCTAssertEqual(local(h, "w#1"), "2026-03-23 02:30")
        h.ok("task.complete", ["task": "w#1"])
        XCTAssertEqual(local(h, "w#2"), "2026-03-29 03:30")
        h.ok("task.complete", ["task": "e"])
        XCTAssertEqual(local(h, "e#1"), "2026-03-29 03:15")
        h.ok("task.complete", ["task": "w#2"], at: wall("2026-03-28 12:00", in: berlin))
        XCTAssertEqual(local(h, "w#3"), "2026-03-30 02:30")
        h.ok("task.complete", ["task": "e#1"])
        XCTAssertEqual(local(h, "e#2"), "2026-03-31 02:15")
        h.assertReplayEqualsLive()
    }

    func testTheRepeatedHourOfFallBackUsesTheEarlierInstantEachTime() {
        // 25 October 2026: 03:00 CEST → 02:00 CET, so 02:30 happens twice (00:30 and 01:30 UTC).
        var h = Harness(zone: berlin, at: "2026-10-23 09:00")
        h.ok("task.create", ["task": "f", "title": "F", "due": "2026-10-24 02:30", "repeat": "daily"])
        h.ok("task.complete", ["task": "f"])
        XCTAssertEqual(h.task("f#1")?.due, wall("2026-10-25 00:30"), "the earlier 02:30 (CEST)")
        h.ok("task.complete", ["task": "f#1"])
        XCTAssertEqual(h.task("f#2")?.due, wall("2026-10-26 01:30"), "02:30 CET the day after")
        XCTAssertEqual(local(h, "f#2"), "2026-10-26 02:30")
        h.assertReplayEqualsLive()
    }

    func testADueTypedInsideTheGapKeepsTheTypedTimeForTheNextOccurrences() {
        var h = Harness(zone: berlin, at: "2026-03-28 20:00")
        // Written as local times for the DST Sunday: stored at 03:30 (the gap), planned at 02:30 / 02:15.
        h.ok("task.create", ["task": "n", "title": "N", "due": "2026-03-29 02:30", "repeat": "daily"])
        h.ok("task.create", ["task": "m", "title": "M", "due": "tomorrow 02:15", "repeat": "daily"])
        // An instant (@unix) names no wall time: its own local time (03:30) is planned.
        let at = wall("2026-03-29 03:30", in: berlin).seconds
        h.ok("task.create", ["task": "u", "title": "U", "due": "@\(at)", "repeat": "daily"])
        XCTAssertEqual(local(h, "n"), "2026-03-29 03:30")
        XCTAssertEqual(local(h, "m"), "2026-03-29 03:15")
        XCTAssertEqual(h.task("n")?.plannedSecondOfDay, 9000)
        XCTAssertEqual(h.task("m")?.plannedSecondOfDay, 8100)
        XCTAssertEqual(h.task("u")?.plannedSecondOfDay, 12600)
        for id in ["n", "m", "u"] { h.ok("task.complete", ["task": id]) }
        XCTAssertEqual(local(h, "n#1"), "2026-03-30 02:30")
        XCTAssertEqual(local(h, "m#1"), "2026-03-30 02:15")
        XCTAssertEqual(local(h, "u#1"), "2026-03-30 03:30")
        // A duplicate keeps the planned time; an edit of the due to a gap time plans the typed time.
        h.ok("task.create", ["task": "e", "title": "E", "due": "2026-03-29 05:00", "repeat": "daily"])
        h.ok("task.edit", ["task": "e", "due": "2026-03-29 02:45"])
        XCTAssertEqual(h.task("e")?.plannedSecondOfDay, 9900)
        h.ok("task.duplicate", ["task": "e", "new": "e2"])
        XCTAssertEqual(h.task("e2")?.plannedSecondOfDay, 9900)
        // Editing only the start of a dated task keeps the planned due time.
        h.ok("task.edit", ["task": "e", "start": "2026-03-29 01:00"])
        XCTAssertEqual(h.task("e")?.plannedSecondOfDay, 9900)
        h.ok("task.complete", ["task": "e"])
        XCTAssertEqual(local(h, "e#1"), "2026-03-30 02:45")
        h.assertReplayEqualsLive()
    }

    func testWallSecondOfDayReadsOnlyLocalTimeTexts() {
        XCTAssertEqual(TimeText.wallSecondOfDay("2026-03-29 02:30"), 9000)
        XCTAssertEqual(TimeText.wallSecondOfDay("2026-03-29 02:30:15"), 9015)
        XCTAssertEqual(TimeText.wallSecondOfDay("today 23:59"), 86_340)
        XCTAssertEqual(TimeText.wallSecondOfDay("tomorrow 00:00"), 0)
        for text in [nil, "", "@1774748400", "+2h", "today 24:00", "tomorrow", "2026-03-29", "02:30"] as [String?] {
            XCTAssertNil(TimeText.wallSecondOfDay(text), "\(text as Any)")
        }
    }

    func testEditingTheDueReplansTheWallTime() {
        var h = Harness(zone: berlin, at: "2026-03-27 09:00")
        h.ok("task.create", ["task": "n", "title": "N", "due": "2026-03-28 02:30", "repeat": "daily"])
        h.ok("task.edit", ["task": "n", "due": "2026-03-28 05:00"])
        XCTAssertEqual(h.task("n")?.plannedSecondOfDay, 5 * 3600)
        h.ok("task.complete", ["task": "n"])
        XCTAssertEqual(local(h, "n#1"), "2026-03-29 05:00")
    }

    func testAPlannedTimeThatNoLongerResolvesToTheDueIsIgnored() throws {
        let clock = DayClock(zone: try XCTUnwrap(coreTestZoneTable[berlin]))
        let gapDay = wall("2026-03-29 03:30", in: berlin)
        XCTAssertEqual(clock.plannedLocal(gapDay, secondOfDay: 9000).description, "2026-03-29 02:30")
        // Not inside a gap (or another zone's time), out of range, or unknown: the due's own local time.
        for bad in [nil, -1, 86_400, Int.max, Int.min, 3 * 3600, 2 * 3600 - 1] as [Int?] {
            XCTAssertEqual(clock.plannedLocal(gapDay, secondOfDay: bad).description, "2026-03-29 03:30", "\(bad as Any)")
        }
        let normal = wall("2026-03-30 02:30", in: berlin)
        XCTAssertEqual(clock.plannedLocal(normal, secondOfDay: 9000 + 60).description, "2026-03-30 02:30")
    }
}

final class StreakMovementTests: XCTestCase {
    func testADayWithEveryTaskAndHabitDoneButNoMovementKeepsTheStreak() {
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(2)
        for (i, day) in ["2026-03-02", "2026-03-03", "2026-03-04"].enumerated() {
            h.advance(to: "\(day) 08:00")
            h.ok("task.create", ["task": "t\(i)", "title": "T", "due": "\(day) 18:00"])
            h.ok("task.complete", ["task": "t\(i)"])
            // Monday with movement, Tuesday and Wednesday without.
            if i == 0 { h.check("h1", "h2", "movement") } else { h.check("h1", "h2") }
        }
        h.advance(to: "2026-03-05 04:00")
        let days = h.journal.closedDays
        XCTAssertEqual(days.map(\.streak), [1, 2, 3], "movement is not needed for the daily streak")
        XCTAssertEqual(days.map(\.missed), [0, 0, 0])
        XCTAssertEqual(days.map(\.due), [2, 2, 2], "one task and the habits item each day")
        XCTAssertEqual(h.state.badges["streak-3"], h.t("2026-03-05 03:00"))
        // The bonus (docs/habits.md) is still movement's: only Monday was complete. 2 habits: 25; ×1.5 → 38 + 1.
        XCTAssertEqual(h.journal.habitScores.map(\.points), [39, 25, 25])
        XCTAssertEqual(h.journal.habitScores.map(\.bonus), [1, 0, 0])
        XCTAssertEqual(h.state.habits.counter, 1)
        h.assertReplayEqualsLive()
    }

    func testAnUncheckedHabitStillBreaksTheStreakAndMovementCannotStandInForIt() {
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(2)
        h.check("h1", "h2")
        h.advance(to: "2026-03-03 08:00")
        XCTAssertEqual(h.state.streak, 1)
        h.check("h1", "movement")
        let closed = h.advance(to: "2026-03-04 04:00").closedDays
        XCTAssertEqual(closed.map(\.missed), [1])
        XCTAssertEqual(h.state.streak, 0)
        XCTAssertEqual(h.state.lastBreak?.length, 1)
    }

    func testMovementAloneWithoutHabitsIsNeutral() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "t", "title": "T", "due": "today 18:00"])
        h.ok("task.complete", ["task": "t"])
        h.check("movement")
        let closed = h.advance(to: "2026-03-03 04:00").closedDays
        XCTAssertEqual(closed.map(\.due), [1], "no checklist: only the task is due")
        XCTAssertEqual(h.state.streak, 1)
    }
}

final class CommitmentOutsideWindowTests: XCTestCase {
    private func harness() -> Harness {
        var h = Harness(at: "2026-03-02 08:00")
        h.commitEarn(100)
        return h
    }

    func testAnEarlyVerificationIsRefusedChangesNothingAndTheWindowStillCounts() {
        var h = harness()
        h.ok("commitment.add", ["commitment": "c", "kind": "on-time", "at": "2026-03-02 10:00", "stake": "30"])
        XCTAssertEqual(h.state.coins, 70)
        // 09:49:59 is one second before the window opens: refused, nothing changes (Harness.refuse
        // checks the state and the journal), no forfeit.
        h.advance(to: "2026-03-02 09:49:59")
        h.refuse("commitment.verify", ["commitment": "c"], .state("commitment", "c"))
        h.refuse("commitment.verify", ["commitment": "c", "source": "button"], .state("commitment", "c"))
        XCTAssertEqual(h.state.commitments.charityJar, 0)
        XCTAssertEqual(h.commitment("c")?.status, .active)
        XCTAssertEqual(h.state.commitments.held, 30)
        // Inside the window it is verified as usual and the stake comes back.
        h.ok("commitment.verify", ["commitment": "c"], at: h.t("2026-03-02 09:55"))
        XCTAssertEqual(h.state.coins, 100)
        XCTAssertEqual(h.commitment("c")?.kept, 1)
        XCTAssertFalse(h.commitmentTypes.contains("commitment.forfeited"))
        h.assertReplayEqualsLive()
    }

    func testAWakeUpButtonPressBeforeTheWindowIsNotAVerification() {
        var h = harness()
        h.ok("commitment.add", ["commitment": "w", "kind": "wake-up", "at": "2026-03-03 07:00", "stake": "20"])
        h.advance(to: "2026-03-03 06:00")
        XCTAssertEqual(h.state.awaitingButtonPress(at: h.now), [], "the device sends nothing before the window")
        h.refuse("commitment.verify", ["commitment": "w", "source": "button"], .state("commitment", "w"))
        h.ok("commitment.verify", ["commitment": "w", "source": "button"], at: h.t("2026-03-03 07:05"))
        XCTAssertEqual(h.commitment("w")?.kept, 1)
        XCTAssertEqual(h.state.commitments.charityJar, 0)
    }

    func testALateVerificationFindsTheStakeAlreadyForfeitedOnce() {
        var h = harness()
        h.ok("commitment.add", ["commitment": "c", "kind": "on-time", "at": "2026-03-02 10:00", "stake": "30"])
        // Nothing in the window: the close (10:10:01) forfeits the stake to the jar.
        h.advance(to: "2026-03-02 10:10:00")
        let closed = h.advance(to: "2026-03-02 10:30")
        XCTAssertEqual(closed.kinds.first, .commitment(.forfeited(id: "c", n: 0, stake: 30, reason: .missed)))
        XCTAssertEqual(closed.first?.at, h.t("2026-03-02 10:10:01"))
        // Verifying at 10:30 is refused and changes nothing: no second forfeit, nothing back.
        h.refuse("commitment.verify", ["commitment": "c"], .state("commitment", "c"))
        XCTAssertEqual(h.state.commitments.charityJar, 30)
        XCTAssertEqual(h.state.coins, 70)
        XCTAssertEqual(h.commitmentTypes.filter { $0 == "commitment.forfeited" }.count, 1)
        h.assertReplayEqualsLive()
    }
}

final class SettingsCloseTheDayTests: XCTestCase {
    func testADayStartChangeThatEndsTheDayClosesItInTheSameCommand() {
        var h = Harness(zone: "Europe/Berlin", at: "2026-06-01 08:00")
        h.addHabits(1)
        h.check("h1")
        // 01:00 on 2 June is still 1 June's day (days start at 03:00).
        h.advance(to: "2026-06-02 01:00")
        XCTAssertEqual(h.state.openDay, dayNumber("2026-06-01"))
        XCTAssertEqual(h.state.coins, 0)
        // Days now start at midnight: 1 June ended an hour ago. It closes now, once.
        let events = h.ok("settings.day-start", ["hour": "0"])
        XCTAssertEqual(events.closedDays.map(\.day), [dayNumber("2026-06-01")])
        XCTAssertTrue(events.allSatisfy { $0.at == h.now }, "closed at the command's instant")
        XCTAssertTrue(events.allSatisfy { $0.commandID != nil }, "part of the command")
        XCTAssertEqual(events.types.first, "settings.day-start")
        XCTAssertEqual(h.state.openDay, dayNumber("2026-06-02"))
        // 1 habit checked: 10 points → 10 coins at once; the streak item done → streak 1.
        XCTAssertEqual(h.state.coins, 10)
        XCTAssertEqual(h.state.streak, 1)
        // Nothing is left to settle and nothing closes twice.
        XCTAssertEqual(h.engine.nextWakeup().map { $0 > h.now }, true)
        XCTAssertEqual(h.advance(to: h.now), [])
        XCTAssertEqual(h.advance(to: "2026-06-02 12:00").closedDays, [])
        h.assertReplayEqualsLive()
    }

    func testAZoneChangeThatEndsTheDayClosesItAtOnceAndMissesOverdueTasks() {
        var h = Harness(zone: "Europe/Berlin", at: "2026-06-01 08:00")
        h.ok("task.create", ["task": "t", "title": "T", "due": "today 18:00"])
        // 22:00 in Berlin is 05:00 on 2 June in Tokyo: 1 June's day ended at 03:00 there.
        h.advance(to: "2026-06-01 22:00")
        let events = h.ok("settings.zone", ["zone": "Asia/Tokyo"])
        XCTAssertEqual(events.missed, ["t"], "the overdue task is missed now, not when the clock moves")
        XCTAssertEqual(events.closedDays.map(\.day), [dayNumber("2026-06-01")])
        XCTAssertEqual(h.state.openDay, dayNumber("2026-06-02"))
        XCTAssertEqual(h.clock.local(h.now).description, "2026-06-02 05:00")
        XCTAssertEqual(h.advance(to: h.now), [])
        h.assertReplayEqualsLive()
    }

    func testATaskMissedBeforeADayStartChangeIsNotDueAgainTheNextDay() {
        // Due 01:00 on 2 June: with days starting at 03:00 it is 1 June's task, missed at its close.
        var h = Harness(zone: "Europe/Berlin", at: "2026-06-01 08:00")
        h.ok("task.create", ["task": "t", "title": "T", "due": "2026-06-02 01:00"])
        h.addHabits(1)
        h.check("h1")
        h.advance(to: "2026-06-02 08:00")
        XCTAssertEqual(h.task("t")?.missedDay, dayNumber("2026-06-01"))
        h.check("h1")
        // Days start at midnight from now on: 2 June's hours now include 01:00, the old due time.
        h.advance(to: "2026-06-03 01:00")
        let events = h.ok("settings.day-start", ["hour": "0"])
        let closed = events.closedDays
        XCTAssertEqual(closed.map(\.day), [dayNumber("2026-06-02")])
        XCTAssertEqual(closed.map(\.due), [1], "only the habits: the task was judged on 1 June")
        XCTAssertEqual(h.state.streak, 1)
    }

    func testAZoneChangeOfMoreThanADayClosesEachEndedDayOnce() {
        // Pago Pago is UTC−11, Kiritimati UTC+14: 25 hours apart.
        var h = Harness(zone: "Pacific/Pago_Pago", at: "2026-06-01 02:30")
        XCTAssertEqual(h.state.openDay, dayNumber("2026-05-31"))
        let events = h.ok("settings.zone", ["zone": "Pacific/Kiritimati"])
        XCTAssertEqual(h.clock.local(h.now).description, "2026-06-02 03:30")
        XCTAssertEqual(events.closedDays.map(\.day), [dayNumber("2026-05-31"), dayNumber("2026-06-01")])
        XCTAssertEqual(h.state.openDay, dayNumber("2026-06-02"))
        XCTAssertEqual(h.advance(to: h.now), [])
        h.assertReplayEqualsLive()
    }

    func testMovingTheDayEndLaterClosesNothing() {
        var h = Harness(zone: "Europe/Berlin", at: "2026-06-02 04:00")
        let day = h.state.openDay
        let events = h.ok("settings.day-start", ["hour": "5"])
        XCTAssertEqual(events.closedDays, [], "days never move backwards either")
        XCTAssertEqual(h.state.openDay, day)
        let zone = h.ok("settings.zone", ["zone": "America/New_York"])
        XCTAssertEqual(zone.closedDays, [])
        XCTAssertEqual(h.state.openDay, day)
    }
}

/// Found while checking docs/domain.md#reminders-and-nudges ("none lost") against the code: a habit reminder at 02:30 with days
/// starting at 03:00 was lost on the spring-forward night (02:30 → 03:30 fell into the next day).
final class HabitReminderGapTests: XCTestCase {
    func testAReminderInsideTheGapThatWouldLeaveItsDayFiresAtTheJump() {
        let berlin = "Europe/Berlin"
        var h = Harness(zone: berlin, at: "2026-03-28 09:00")
        h.ok("checkin.set", ["at": "off"])
        h.ok("habit.add", ["habit": "n", "text": "Night walk", "reminder": "02:30"])
        // Saturday's day ends at Sunday 03:00 CEST (01:00 UTC); its 02:30 does not exist.
        let day = h.state.openDay
        XCTAssertEqual(h.state.instant(minute: 150, inDay: day), wall("2026-03-29 00:59:59"),
                       "the day's last second, 01:59:59 CET, just before the clock jumps")
        let events = h.live(until: wall("2026-03-29 04:00", in: berlin))
        XCTAssertEqual(events.nudgesShown.map(\.id), ["habit:n:\(day)"])
        XCTAssertEqual(events.nudgesShown.first?.due, wall("2026-03-29 00:59:59"))
        XCTAssertEqual(events.nudgesMissed.count, 0)
        // The next night is ordinary again: 02:30 CEST on Monday.
        XCTAssertEqual(h.state.instant(minute: 150, inDay: day + 1), wall("2026-03-30 02:30", in: berlin))
        // A time the gap moves forward but keeps inside its day is unchanged (days starting at 04:00).
        let g = Harness(zone: berlin, at: "2026-03-28 09:00", dayStart: 4)
        XCTAssertEqual(g.state.instant(minute: 150, inDay: g.state.openDay), wall("2026-03-29 03:30", in: berlin))
    }
}

/// Found while checking docs/domain.md#the-pet against the code: the mood's follow-through ("share of due items done
/// over the last 3 days") counted tasks only, so an owner keeping (or dropping) every habit left the
/// pet exactly as content as one doing nothing. Habits are due items (docs/domain.md#streak-and-badges).
final class MoodHabitsTests: XCTestCase {
    private func threeDays(checking: Bool) -> Harness {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("checkin.set", ["at": "off"])
        h.addHabits(2)
        for day in ["2026-03-02", "2026-03-03", "2026-03-04"] {
            h.advance(to: "\(day) 08:00")
            if checking { h.check("h1", "h2") }
        }
        h.advance(to: "2026-03-05 12:00")
        return h
    }

    func testKeptAndDroppedHabitsMoveTheMood() {
        let kept = threeDays(checking: true)
        let dropped = threeDays(checking: false)
        let day = dayNumber("2026-03-04")
        XCTAssertEqual(kept.state.tally[day]?.habitsDone, 1)
        XCTAssertEqual(dropped.state.tally[day]?.habitsMissed, 1)
        XCTAssertEqual(kept.state.tally[day]?.missed, 0, "task tallies (perfect week, repair) are unchanged")
        // Both are hungry by now (fullness < 20: −25). Kept: 3/3 done → 100 − 25 = 75 → content.
        // Dropped: 0/3 → 0 − 25 → sad (before: nothing due → 75 − 25 = 50, content for both).
        XCTAssertLessThan(kept.state.needs(at: kept.now).fullness, 20)
        XCTAssertEqual(kept.state.mood(at: kept.now), .content)
        XCTAssertEqual(dropped.state.mood(at: dropped.now), .sad)
        // One habit checked today cheers it up (sad → content).
        var cheered = dropped
        cheered.check("h1")
        XCTAssertEqual(cheered.state.mood(at: cheered.now + 11 * 60), .content)
        kept.assertReplayEqualsLive()
        dropped.assertReplayEqualsLive()
    }

    func testPausedDaysAndDaysWithoutHabitsAreNeutral() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("checkin.set", ["at": "off"])
        h.addHabits(1)
        h.ok("pause")
        h.advance(to: "2026-03-03 08:00")
        XCTAssertEqual(h.state.tally[dayNumber("2026-03-02")]?.habitsMissed ?? 0, 0)
        h.ok("resume")
        h.ok("habit.remove", ["habit": "h1"])
        h.advance(to: "2026-03-04 08:00")
        XCTAssertEqual(h.state.tally[dayNumber("2026-03-03")]?.habitsMissed ?? 0, 0)
    }

    func testOldSnapshotTalliesDecodeWithoutTheHabitFields() throws {
        let old = try JSONDecoder().decode(DayTally.self, from: Data(#"{"done":2,"missed":1}"#.utf8))
        XCTAssertEqual(old.done, 2)
        XCTAssertEqual(old.habitsDone, 0)
        XCTAssertThrowsError(try JSONDecoder().decode(DayTally.self, from: Data(#"{"done":2}"#.utf8)))
    }
}
