import XCTest
import TestSupport
import PetCore

// docs/habits.md habits and the daily checklist, docs/domain.md#streak-and-badges (habits in the daily streak), docs/domain.md#reminders-and-nudges (habit reminders,
// evening check-in). Mon 2026-03-02 is the first day unless a test says otherwise; days start 03:00.

extension Array where Element == Event {
    var habitScores: [HabitDayScore] {
        compactMap { if case .habit(.dayScored(let s)) = $0.kind { return s } else { return nil } }
    }
    var nudgesShown: [Reminder] {
        compactMap { if case .reminder(.shown(let n)) = $0.kind { return n } else { return nil } }
    }
    var nudgesMissed: [Reminder] {
        compactMap { if case .reminder(.missed(let n)) = $0.kind { return n } else { return nil } }
    }
}

extension Array {
    subscript(safeIndex i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}

extension Harness {
    /// Runs the device switched on until `target`: through every wake-up on the way, so reminders
    /// are shown on time (one big `advance` is catch-up after the device was off: reminders missed).
    @discardableResult
    mutating func live(until target: Instant) -> [Event] {
        var out: [Event] = []
        var steps = 0
        while let w = engine.nextWakeup(), w <= target, steps < 10_000 {
            let events = advance(to: w)
            out += events
            steps += 1
            if events.isEmpty && w == now { break }
        }
        return out + advance(to: target)
    }

    @discardableResult
    mutating func live(until text: String) -> [Event] { live(until: t(text)) }

    /// Adds habits h1…hN.
    mutating func addHabits(_ n: Int, file: StaticString = #filePath, line: UInt = #line) {
        for i in 0..<n { ok("habit.add", ["habit": "h\(i + 1)", "text": "Habit \(i + 1)"], file: file, line: line) }
    }

    mutating func check(_ items: String..., file: StaticString = #filePath, line: UInt = #line) {
        for i in items { ok("habit.check", ["habit": i], file: file, line: line) }
    }
}

final class HabitScoreTests: XCTestCase {
    static let withoutMovement = [0, 10, 25, 45, 70, 100, 135, 175, 220, 270, 325, 385, 450]
    static let withMovement = [5, 15, 38, 68, 105, 150, 203, 263, 330, 405, 488, 578, 675]

    func testFormulaForZeroToTwelveHabits() {
        // 10 × n × (1 + 0.25 × (n − 1)); ×1.5 with movement, halves rounded up (37.5 → 38); at least 5.
        for n in 0...12 {
            XCTAssertEqual(HabitRules.dayPoints(checked: n, movement: false), Self.withoutMovement[n], "n = \(n)")
            XCTAssertEqual(HabitRules.dayPoints(checked: n, movement: true), Self.withMovement[n], "n = \(n) + movement")
        }
    }

    func testDayScoreThroughTheEngineForEveryCount() {
        // 12 active habits, n of them checked: only n = 12 with movement is a complete day (+1 bonus).
        for n in 0...12 {
            for movement in [false, true] {
                var h = Harness(at: "2026-03-02 08:00")
                h.addHabits(12)
                for i in 0..<n { h.check("h\(i + 1)") }
                if movement { h.check("movement") }
                let bonus = (n == 12 && movement) ? 1 : 0
                let expected = (movement ? Self.withMovement[n] : Self.withoutMovement[n]) + bonus
                XCTAssertEqual(h.state.habitScoreToday, expected, "live score n = \(n) movement \(movement)")
                let scores = h.advance(to: "2026-03-03 04:00").habitScores
                XCTAssertEqual(scores.map(\.points), [expected], "n = \(n) movement \(movement)")
                XCTAssertEqual(h.state.coins, expected)
                XCTAssertEqual(h.state.habitYesterday?.points, expected)
            }
        }
    }

    func testMovementAloneEarnsFivePoints() {
        // With habits: one habit unchecked, movement checked → 0 × 1.5 → at least 5; not complete.
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(1)
        h.check("movement")
        XCTAssertEqual(h.state.habitScoreToday, 5)
        let s = h.advance(to: "2026-03-03 04:00").habitScores
        XCTAssertEqual(s.map(\.points), [5])
        XCTAssertEqual(s.first?.complete, false)
        XCTAssertEqual(h.state.coins, 5)
        // 5 points → XP 5 / 2 = 2.5 → 3 (halves up)
        XCTAssertEqual(h.state.xp, 3)

        // Without any habit: movement still scores 5, but there is no checklist (no bonus, no streak).
        var g = Harness(at: "2026-03-02 08:00")
        g.check("movement")
        let events = g.advance(to: "2026-03-03 04:00")
        XCTAssertEqual(events.habitScores.map(\.points), [5])
        XCTAssertEqual(events.habitScores.first?.complete, nil)
        XCTAssertEqual(events.closedDays.first?.due, 0, "no checklist: nothing due for the streak")
        XCTAssertEqual(g.state.habits.counter, 0)
    }

    func testNoHabitsAndNoChecksScoresNothing() {
        var h = Harness(at: "2026-03-02 08:00")
        let events = h.advance(to: "2026-03-05 04:00")
        XCTAssertEqual(events.habitScores, [])
        XCTAssertNil(h.engine.state.habitYesterday)
    }

    func testStreakBonusSequenceWithAMissedDayInTheMiddle() {
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(1)
        // Mon complete: 15 + counter 1 = 16
        h.check("h1", "movement")
        XCTAssertEqual(h.state.habitScoreToday, 16)
        // Tue complete: 15 + 2 = 17
        h.advance(to: "2026-03-03 08:00")
        XCTAssertEqual(h.state.habitYesterday?.points, 16)
        h.check("h1", "movement")
        // Wed nothing: 0, the counter stays 2
        h.advance(to: "2026-03-05 08:00")
        // Thu only the habit: 10, not complete, the counter stays 2
        h.check("h1")
        // Fri complete: 15 + 3 = 18
        h.advance(to: "2026-03-06 08:00")
        h.check("h1", "movement")
        XCTAssertEqual(h.state.habitScoreToday, 18)
        h.advance(to: "2026-03-07 08:00")
        let scores = h.journal.habitScores
        XCTAssertEqual(scores.map(\.points), [16, 17, 0, 10, 18])
        XCTAssertEqual(scores.map(\.bonus), [1, 2, 0, 0, 3])
        XCTAssertEqual(scores.map(\.counter), [1, 2, 2, 2, 3])
        XCTAssertEqual(h.state.habits.counter, 3)
        // Coins 1:1: 16 + 17 + 0 + 10 + 18 = 61. XP 2:1, halves up: 8 + 9 + 0 + 5 + 9 = 31.
        XCTAssertEqual(h.state.coins, 61)
        XCTAssertEqual(h.state.xp, 31)
        XCTAssertEqual(scores.map(\.xp), [8, 9, 0, 5, 9])
        // Daily streak (every habit counts like a due item; movement only matters for the bonus):
        // Mon 1, Tue 2, Wed 0 (nothing), Thu 1 (the habit without movement), Fri 2.
        XCTAssertEqual(h.journal.closedDays.map(\.streak), [1, 2, 0, 1, 2])
        // Stats keep each day's habit score.
        XCTAssertEqual(h.state.stats[dayNumber("2026-03-02")].habitScore, 16)
        XCTAssertEqual(h.state.stats[dayNumber("2026-03-05")].habitScore, 10)
        h.assertReplayEqualsLive()
    }

    func testPointsConvertToCoinsOneToOneAndXPTwoToOneInOneEvent() {
        // 2 habits + movement, complete: 37.5 → 38 + bonus 1 = 39 points → 39 coins, 39 / 2 = 19.5 → 20 XP.
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(2)
        h.check("h1", "h2", "movement")
        let events = h.advance(to: "2026-03-03 04:00")
        let scored = events.filter { $0.kind.type == "habit.day-scored" }
        XCTAssertEqual(scored.count, 1)
        XCTAssertEqual(scored.first?.kind.coinsDelta, 39)
        XCTAssertEqual(scored.first?.kind.xpDelta, 20)
        XCTAssertEqual(scored.first?.at, h.t("2026-03-03 03:00"), "scored at the day's close")
        XCTAssertEqual(h.state.coins, 39)
        XCTAssertEqual(h.state.xp, 20)
        XCTAssertEqual(h.state.stats[dayNumber("2026-03-02")].habitScore, 39)
        // The ledger books the coins on the day they were paid out (the close, in Tuesday's day).
        XCTAssertEqual(h.state.stats[dayNumber("2026-03-03")].coinsEarned, 39)
    }

    func testBigHabitDaysCelebrateLevels() {
        // 12 habits + movement: 675 + 1 = 676 points → 338 XP: level 1 → 4 (300 XP), level 5 needs 450.
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(12)
        for i in 1...12 { h.check("h\(i)") }
        h.check("movement")
        let events = h.advance(to: "2026-03-03 04:00")
        XCTAssertEqual(h.state.xp, 338)
        XCTAssertEqual(events.levels, [2, 3, 4])
        XCTAssertEqual(h.state.level, 4)
    }

    func testPausedDayIsNeutral() {
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(1)
        h.check("h1", "movement")
        h.advance(to: "2026-03-03 08:00")
        XCTAssertEqual(h.state.streak, 1)
        h.ok("pause")
        // Paused Tue: nothing checked → 0, counter kept, streak kept, no reminders.
        h.advance(to: "2026-03-04 08:00")
        // Paused Wed, but the owner checks everything: scored, no bonus, counter unchanged.
        h.check("h1", "movement")
        h.advance(to: "2026-03-05 08:00")
        h.ok("resume")
        let scores = h.journal.habitScores
        XCTAssertEqual(scores.map(\.points), [16, 0, 15])
        XCTAssertEqual(scores.map(\.paused), [false, true, true])
        XCTAssertEqual(h.state.habits.counter, 1)
        XCTAssertEqual(h.state.streak, 1)
        XCTAssertEqual(h.journal.filter { $0.kind.type.hasPrefix("notice.") }.count, 0, "no check-in while paused")
        h.assertReplayEqualsLive()
    }
}

final class HabitChecklistTests: XCTestCase {
    func testChecklistIsHabitsPlusMovementAndResetsAtTheDayStart() {
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(2)
        XCTAssertEqual(h.state.checklist, ["h1", "h2", "movement"])
        h.check("h2", "movement")
        XCTAssertEqual(h.state.checkedToday, ["h2", "movement"])
        // 1 habit + movement = 15
        XCTAssertEqual(h.state.habitScoreToday, 15)
        h.ok("habit.uncheck", ["habit": "movement"])
        XCTAssertEqual(h.state.habitScoreToday, 10)
        h.advance(to: "2026-03-03 02:59")
        XCTAssertEqual(h.state.checkedToday, ["h2"], "02:59 is still Monday")
        h.advance(to: "2026-03-03 03:00")
        XCTAssertEqual(h.state.checkedToday, [])
        XCTAssertEqual(h.state.habitScoreToday, 0)
        XCTAssertEqual(h.state.habitYesterday?.points, 10)
    }

    func testACheckBelongsToTheDayOpenWhenItIsMade() {
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(1)
        // 02:50 on Tuesday's date is still Monday's day: the check counts for Monday.
        h.advance(to: "2026-03-03 02:50")
        let e = h.ok("habit.check", ["habit": "h1"])
        XCTAssertEqual(e.first.map(\.kind), .habit(.checked(item: "h1", day: dayNumber("2026-03-02"))))
        h.advance(to: "2026-03-03 03:10")
        XCTAssertEqual(h.journal.habitScores.map(\.points), [10])
        XCTAssertEqual(h.journal.habitScores.first?.day, dayNumber("2026-03-02"))
        // Unchecking after the day start is about Tuesday, where nothing is checked: refused.
        h.refuse("habit.uncheck", ["habit": "h1"], .state("habit", "h1"))
        // Checking again counts for Tuesday.
        let t = h.ok("habit.check", ["habit": "h1"])
        XCTAssertEqual(t.first.map(\.kind), .habit(.checked(item: "h1", day: dayNumber("2026-03-03"))))
        h.advance(to: "2026-03-04 04:00")
        XCTAssertEqual(h.journal.habitScores.map(\.points), [10, 10])
        h.assertReplayEqualsLive()
    }

    func testThreeDaysOffScoreZeroOnceEachAndReportRemindersOnce() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("habit.add", ["habit": "a", "text": "Stretch", "reminder": "09:00"])
        h.check("a", "movement")
        // Off from Mon 08:00 until Thu 12:00: Mon (complete), Tue, Wed close once each.
        let events = h.advance(to: "2026-03-05 12:00")
        XCTAssertEqual(events.habitScores.map(\.points), [16, 0, 0])
        XCTAssertEqual(events.habitScores.map(\.day), [dayNumber("2026-03-02"), dayNumber("2026-03-03"), dayNumber("2026-03-04")])
        XCTAssertEqual(h.state.habits.counter, 1, "missed days leave the counter")
        // Reminders: Mon 09:00 not due (checked); Tue, Wed, Thu 09:00 missed once; check-ins Tue, Wed 20:30 missed.
        XCTAssertEqual(events.nudgesMissed.map(\.id).sorted(),
                       ["checkin:\(dayNumber("2026-03-03"))", "checkin:\(dayNumber("2026-03-04"))",
                        "habit:a:\(dayNumber("2026-03-03"))", "habit:a:\(dayNumber("2026-03-04"))",
                        "habit:a:\(dayNumber("2026-03-05"))"])
        XCTAssertEqual(events.nudgesShown, [])
        XCTAssertEqual(h.advance(to: "2026-03-05 12:00"), [], "nothing replayed")
        // Thursday complete: 15 + counter 2.
        h.check("a", "movement")
        XCTAssertEqual(h.state.habitScoreToday, 17)
        h.assertReplayEqualsLive()
    }

    func testHabitsCountInTheDailyStreak() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "t", "title": "T", "due": "today 18:00"])
        h.ok("task.complete", ["task": "t"])
        h.addHabits(2)
        h.check("h1", "movement")
        // The task is done but one habit is unchecked: the habits item is missed → streak 0.
        let mon = h.advance(to: "2026-03-03 04:00").closedDays
        XCTAssertEqual(mon.map(\.due), [2])
        XCTAssertEqual(mon.map(\.missed), [1])
        XCTAssertEqual(h.state.streak, 0)
        // Both habits without movement: done for the streak (docs/domain.md#streak-and-badges), but no bonus (docs/habits.md).
        h.check("h1", "h2")
        h.advance(to: "2026-03-04 04:00")
        XCTAssertEqual(h.state.streak, 1)
        XCTAssertEqual(h.engine.state.habits.lastScore?.complete, false, "the bonus still needs movement")
        XCTAssertEqual(h.engine.state.habits.lastScore?.bonus, 0)
    }

    func testAddingAndRemovingHabits() {
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(3)
        h.check("h1", "h2")
        h.ok("habit.remove", ["habit": "h2"])
        XCTAssertEqual(h.state.checklist, ["h1", "h3", "movement"])
        XCTAssertEqual(h.state.checkedToday, ["h1"], "the removed habit's check goes with it")
        XCTAssertNotNil(h.state.habits.archived["h2"], "its id stays taken")
        XCTAssertNil(h.state.habits.habits["h2"], "its text leaves the live state")
        h.refuse("habit.check", ["habit": "h2"], .notFound("habit", "h2"))
        h.refuse("habit.add", ["habit": "h2", "text": "Again"], .exists("habit", "h2"))
        // The id defaults to the command id.
        h.ok("habit.add", ["text": "Walk"], id: "walk-1")
        XCTAssertEqual(h.state.habits.order, ["h1", "h3", "walk-1"])
        // Text is trimmed.
        h.ok("habit.add", ["habit": "sp", "text": "  Floss  "])
        XCTAssertEqual(h.state.habits.habits["sp"]?.text, "Floss")
        h.assertReplayEqualsLive()
    }

    func testTwelveActiveHabitsAtMost() {
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(12)
        h.refuse("habit.add", ["habit": "h13", "text": "One more"], .limit("active habits", 12))
        // Removing one makes room again.
        h.ok("habit.remove", ["habit": "h5"])
        h.ok("habit.add", ["habit": "h13", "text": "One more"])
        XCTAssertEqual(h.state.habits.order.count, 12)
    }

    func testTextLimits() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("habit.add", ["habit": "max", "text": String(repeating: "é", count: 140)])
        h.ok("habit.add", ["habit": "one", "text": "x"])
        h.refuse("habit.add", ["habit": "long", "text": String(repeating: "x", count: 141)], .field("text"))
        h.refuse("habit.add", ["habit": "empty", "text": ""], .field("text"))
        h.refuse("habit.add", ["habit": "blank", "text": "   "], .field("text"))
        h.refuse("habit.add", ["habit": "nl", "text": "a\nb"], .field("text"))
        h.refuse("habit.add", ["habit": "x"], .missing("text"))
        h.refuse("habit.add", ["habit": "movement", "text": "Move"], .field("habit"))
        h.refuse("habit.add", ["habit": "Observation", "text": "Look"], .field("habit"))
        h.refuse("habit.add", ["habit": "bad id", "text": "x"], .field("habit"))
        h.refuse("habit.add", ["habit": "r", "text": "x", "reminder": "24:00"], .field("reminder"))
        h.refuse("habit.add", ["habit": "r", "text": "x", "color": "red"], .field("color"))
        XCTAssertEqual(h.state.habits.habits["max"]?.text.count, 140)
    }

    func testTextBecomesEditableExactlyFourteenDaysAfterCreationAndIsAnnouncedOnce() {
        var h = Harness(at: "2026-03-02 10:00")
        h.ok("habit.add", ["habit": "a", "text": "Read"])
        XCTAssertEqual(h.state.habits.habits["a"]?.editableFrom, h.t("2026-03-16 10:00"))
        h.refuse("habit.edit", ["habit": "a", "text": "Read more"], .state("habit", "a"))
        h.advance(to: h.t("2026-03-16 10:00") - 1)
        h.refuse("habit.edit", ["habit": "a", "text": "Read more"], .state("habit", "a"))
        XCTAssertEqual(h.journal.filter { $0.kind.type == "habit.edit-unlocked" }.count, 0,
                       "the close at 03-16 03:00 is before the unlock")
        h.advance(to: "2026-03-16 10:00")
        h.ok("habit.edit", ["habit": "a", "text": "Read more"])
        XCTAssertEqual(h.state.habits.habits["a"]?.text, "Read more")
        h.refuse("habit.edit", ["habit": "a", "text": ""], .field("text"))
        // Announced at the first day close at or after the unlock (Tue 03-17 03:00), once, with a line.
        let events = h.advance(to: "2026-03-17 04:00")
        let unlock = events.first("habit.edit-unlocked")
        XCTAssertEqual(unlock?.kind, .habit(.editUnlocked(id: "a")))
        XCTAssertEqual(unlock?.at, h.t("2026-03-17 03:00"))
        let i = events.firstIndex { $0.kind.type == "habit.edit-unlocked" } ?? 0
        XCTAssertEqual(events[safeIndex: i + 1]?.kind.type, "pet.said", "the pet announces it")
        h.advance(to: "2026-03-30 04:00")
        XCTAssertEqual(h.journal.filter { $0.kind.type == "habit.edit-unlocked" }.count, 1)
        h.refuse("habit.edit", ["habit": "zz", "text": "x"], .notFound("habit", "zz"))
        h.assertReplayEqualsLive()
    }

    func testRefusedCommandsChangeNothing() {
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(1)
        h.check("h1")
        h.refuse("habit.check", ["habit": "h1"], .state("habit", "h1"))
        h.refuse("habit.check", ["habit": "nope"], .notFound("habit", "nope"))
        h.refuse("habit.check", ["habit": "observation"], .state("habit", "observation"))
        h.refuse("habit.check", [:], .missing("habit"))
        h.refuse("habit.uncheck", ["habit": "movement"], .state("habit", "movement"))
        h.refuse("habit.uncheck", ["habit": "nope"], .notFound("habit", "nope"))
        h.refuse("habit.remove", ["habit": "nope"], .notFound("habit", "nope"))
        h.refuse("habit.reminder", ["habit": "h1", "at": "8am"], .field("at"))
        h.refuse("habit.reminder", ["habit": "h1", "at": "on"], .field("at"))
        h.refuse("habit.reminder", ["habit": "nope", "at": "08:00"], .notFound("habit", "nope"))
        h.refuse("habit.reminder", ["habit": "h1"], .missing("at"))
        h.refuse("checkin.set", ["at": "7pm"], .field("at"))
        h.refuse("checkin.set", [:], .missing("at"))
        h.refuse("habit.edit", ["habit": "h1", "text": "New"], .state("habit", "h1"))
        h.refuse("habit.edit", ["habit": "h1"], .missing("text"))
    }

    func testTheSameCommandIDTwiceChecksOnce() throws {
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(1)
        h.ok("habit.check", ["habit": "h1"], id: "phone-7")
        let before = h.state
        XCTAssertEqual(try h.send("habit.check", ["habit": "h1"], id: "phone-7"), [])
        XCTAssertEqual(h.state, before)
    }
}

final class HabitReminderTests: XCTestCase {
    func testAReminderFiresOnlyWhileTheHabitIsUnchecked() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("habit.add", ["habit": "a", "text": "A", "reminder": "09:00"])
        h.ok("habit.add", ["habit": "b", "text": "B", "reminder": "09:00"])
        h.ok("checkin.set", ["at": "off"])
        h.check("a")
        XCTAssertEqual(h.engine.nextWakeup(), h.t("2026-03-02 09:00"))
        let events = h.live(until: "2026-03-02 10:00")
        let today = dayNumber("2026-03-02")
        XCTAssertEqual(events.nudgesShown, [Reminder(id: "habit:b:\(today)", source: .habit, ref: "b",
                                                   due: h.t("2026-03-02 09:00"), solicited: true)])
        // Next day both fire (nothing checked yet).
        let tue = h.live(until: "2026-03-03 10:00").nudgesShown.map(\.id)
        XCTAssertEqual(tue, ["habit:a:\(today + 1)", "habit:b:\(today + 1)"])
        h.assertReplayEqualsLive()
    }

    func testReminderOnOffAndATimeAlreadyPastToday() {
        var h = Harness(at: "2026-03-02 10:00")
        h.ok("habit.add", ["habit": "a", "text": "A"])
        h.ok("checkin.set", ["at": "off"])
        // Set at 10:00 for 09:00: today's 09:00 is past → first reminder Tuesday 09:00.
        h.ok("habit.reminder", ["habit": "a", "at": "09:00"])
        XCTAssertEqual(h.live(until: "2026-03-02 23:00").nudgesShown, [])
        XCTAssertEqual(h.live(until: "2026-03-03 09:30").nudgesShown.map(\.id), ["habit:a:\(dayNumber("2026-03-03"))"])
        h.ok("habit.reminder", ["habit": "a", "at": "off"])
        XCTAssertEqual(h.state.habits.habits["a"]?.reminderMinute, 540, "the time is kept while off")
        XCTAssertEqual(h.live(until: "2026-03-04 09:30").nudgesShown, [])
        h.ok("habit.reminder", ["habit": "a", "at": "on"])
        XCTAssertEqual(h.live(until: "2026-03-05 09:30").nudgesShown.map(\.id), ["habit:a:\(dayNumber("2026-03-05"))"])
        h.assertReplayEqualsLive()
    }

    func testReminderKeepsItsLocalTimeAcrossTheDSTChange() {
        // New York springs forward on Sun 2026-03-08 (02:00 → 03:00).
        var h = Harness(zone: "America/New_York", at: "2026-03-06 12:00")
        h.ok("habit.add", ["habit": "a", "text": "A", "reminder": "08:00"])
        h.ok("checkin.set", ["at": "off"])
        let shown = h.live(until: "2026-03-09 12:00").nudgesShown
        XCTAssertEqual(shown.map(\.id), (dayNumber("2026-03-07")...dayNumber("2026-03-09")).map { "habit:a:\($0)" })
        XCTAssertEqual(shown.map { h.clock.local($0.due).description },
                       ["2026-03-07 08:00", "2026-03-08 08:00", "2026-03-09 08:00"])
        // 23 hours between Saturday's and Sunday's 08:00.
        XCTAssertEqual(shown[1].due - shown[0].due, 23 * Seconds.hour)
        XCTAssertEqual(shown[2].due - shown[1].due, 24 * Seconds.hour)
        // A reminder before the day start (01:00) belongs to the day before it: 2026-03-08 01:00 is still day 03-07.
        var g = Harness(zone: "America/New_York", at: "2026-03-07 12:00")
        g.ok("habit.add", ["habit": "late", "text": "Night", "reminder": "01:00"])
        let night = g.live(until: "2026-03-08 01:30").nudgesShown.filter { $0.source == .habit }
        XCTAssertEqual(night.map(\.id), ["habit:late:\(dayNumber("2026-03-07"))"])
        XCTAssertEqual(night.first.map { g.clock.local($0.due).description }, "2026-03-08 01:00")
        h.assertReplayEqualsLive()
    }

    func testEveningCheckInOnlyWhenTheChecklistIsIncomplete() {
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(1)
        let mon = dayNumber("2026-03-02")
        // Mon: nothing checked → check-in at 20:30, unsolicited.
        let m = h.live(until: "2026-03-02 21:00").nudgesShown
        XCTAssertEqual(m, [Reminder(id: "checkin:\(mon)", source: .checkin, ref: "checklist",
                                 due: h.t("2026-03-02 20:30"), solicited: false)])
        // Tue: complete before 20:30 → no check-in.
        h.live(until: "2026-03-03 12:00")
        h.check("h1", "movement")
        XCTAssertEqual(h.live(until: "2026-03-03 23:00").nudgesShown, [])
        // Wed: moved to 21:15.
        h.ok("checkin.set", ["at": "21:15"])
        XCTAssertEqual(h.live(until: "2026-03-04 21:14").nudgesShown, [])
        XCTAssertEqual(h.live(until: "2026-03-04 21:16").nudgesShown.map { h.clock.local($0.due).description },
                       ["2026-03-04 21:15"])
        // Thu: off.
        h.ok("checkin.set", ["at": "off"])
        XCTAssertEqual(h.live(until: "2026-03-06 04:00").nudgesShown, [])
        XCTAssertNil(h.state.habits.checkinMinute)
        // No checklist (no habits) → no check-in even when on.
        var g = Harness(at: "2026-03-02 08:00")
        g.check("movement")
        XCTAssertEqual(g.live(until: "2026-03-03 04:00").nudgesShown, [])
        h.assertReplayEqualsLive()
    }

    func testTheCheckInIsUnsolicitedAndFiresOncePerDay() {
        // The check-in is unsolicited (it counts toward the 3-a-day cap) and fires once per day.
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(1)
        let events = h.live(until: "2026-03-05 04:00")
        XCTAssertEqual(events.nudgesShown.count, 3)
        XCTAssertTrue(events.nudgesShown.allSatisfy { !$0.solicited && $0.source == .checkin })
    }
}

final class HabitReplayTests: XCTestCase {
    func testAHabitMonthReplaysToTheLiveState() {
        var h = Harness(zone: "Europe/Berlin", at: "2026-03-02 07:30")
        h.ok("habit.add", ["habit": "water", "text": "Drink water", "reminder": "10:00"])
        h.ok("habit.add", ["habit": "read", "text": "Read 10 pages", "reminder": "21:00"])
        h.ok("checkin.set", ["at": "20:00"])
        var rng = SplitMix64(seed: 66)
        for day in 0..<35 {
            let date = CivilDate(year: 2026, month: 3, day: 2).adding(days: day)
            h.advance(to: h.clock.instant(LocalDateTime(date: date, secondOfDay: 9 * 3600)))
            for item in ["water", "read", "movement"] where rng.next() % 3 != 0 { h.check(item) }
            if h.state.checkedToday.contains("movement"), rng.next() % 5 == 0 { h.ok("habit.uncheck", ["habit": "movement"]) }
        }
        h.ok("habit.edit", ["habit": "water", "text": "Drink 2 l of water"])
        h.ok("habit.remove", ["habit": "read"])
        h.advance(by: Seconds.day)
        h.assertReplayEqualsLive()
        XCTAssertEqual(h.state.coins, h.journal.habitScores.map(\.points).reduce(0, +))
        XCTAssertEqual(h.state.xp, h.journal.habitScores.map(\.xp).reduce(0, +))
    }
}
