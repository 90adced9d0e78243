import XCTest
import PetCore

/// The quit log (docs/quit-log.md). 2026-03-02 is a Monday; UTC, day start 03:00.
final class QuitLogTests: XCTestCase {
    private func logged(_ events: [Event]) -> [(trigger: String, outcome: QuitOutcome, rec: String)] {
        events.compactMap {
            if case let .quit(.logged(t, o, _, r)) = $0.kind { return (t, o, r) } else { return nil }
        }
    }

    // MARK: - Start, logs, stats

    func testStartWithGoalAndStartingTwiceIsRefused() {
        var h = Harness(at: "2026-03-02 10:00")
        h.refuse("quit.start", ["goal-days": "0"], .field("goal-days"))
        h.refuse("quit.start", ["goal-days": "366"], .field("goal-days"))
        h.refuse("quit.start", ["goal-days": "five"], .field("goal-days"))
        let events = h.ok("quit.start", ["goal-days": "5"])
        XCTAssertEqual(events.types, ["quit.started"])
        XCTAssertEqual(h.state.quit.goalDays, 5)
        XCTAssertEqual(h.state.quit.startedAt, h.t("2026-03-02 10:00"))
        h.refuse("quit.start", [:], .state("quit log", "quit"))
        h.assertReplayEqualsLive()
    }

    func testLogsCountUrgesAndGiveInsPerDay() {
        var h = Harness(at: "2026-03-02 10:00")
        // The first log starts the quit log implicitly.
        let first = h.ok("quit.log", ["trigger": "boredom", "outcome": "resisted"])
        XCTAssertEqual(first.types, ["quit.started", "quit.logged"])
        h.ok("quit.log", ["trigger": "stress", "outcome": "gave-in", "thoughts": "Long day."], at: h.t("2026-03-02 18:00"))
        h.ok("quit.log", ["trigger": "partying", "outcome": "finished"], at: h.t("2026-03-03 01:00"))  // still Monday
        h.ok("quit.log", ["trigger": "waking-up", "outcome": "resisted"], at: h.t("2026-03-03 07:00"))
        let mon = dayNumber("2026-03-02"), tue = dayNumber("2026-03-03")
        XCTAssertEqual(h.state.stats[mon].urges, 3)
        XCTAssertEqual(h.state.stats[mon].giveIns, 2)
        XCTAssertEqual(h.state.stats[tue].urges, 1)
        XCTAssertEqual(h.state.stats[tue].giveIns, 0)
        XCTAssertEqual(h.state.quit.urges, 4)
        XCTAssertEqual(h.state.quit.giveIns, 2)
        XCTAssertEqual(h.state.quit.lastGiveIn, h.t("2026-03-03 01:00"))
        XCTAssertEqual(h.state.quit.recent.map(\.trigger), ["boredom", "stress", "partying", "waking-up"])
        XCTAssertEqual(h.state.quit.recent[1].thoughts, "Long day.")
        XCTAssertNil(h.state.quit.recent[0].thoughts)
        h.assertReplayEqualsLive()
    }

    func testLogRefusalsChangeNothingAndNeverRepeatThoughts() {
        var h = Harness(at: "2026-03-02 10:00")
        h.refuse("quit.log", ["outcome": "resisted"], .missing("trigger"))
        h.refuse("quit.log", ["trigger": "boredom"], .missing("outcome"))
        h.refuse("quit.log", ["trigger": "boredom", "outcome": "maybe"], .field("outcome"))
        h.refuse("quit.log", ["trigger": "nope", "outcome": "resisted"], .notFound("trigger", "nope"))
        // A trigger is named by id; a name (possibly personal) is not repeated in the error.
        h.refuse("quit.log", ["trigger": "My Ex", "outcome": "resisted"], .notFound("trigger", "(not a trigger id)"))
        h.refuse("quit.log", ["trigger": "boredom", "outcome": "resisted", "mood": "x"], .field("mood"))
        let secret = String(repeating: "secret ", count: 72)   // 504 characters
        h.refuse("quit.log", ["trigger": "boredom", "outcome": "resisted", "thoughts": secret], .field("thoughts"))
        do {
            try h.send("quit.log", ["trigger": "boredom", "outcome": "resisted", "thoughts": secret])
            XCTFail("accepted")
        } catch {
            XCTAssertFalse(error.description.contains("secret"))
        }
        XCTAssertNil(h.state.quit.startedAt, "a refused log does not start the quit log")
        let exactly500 = String(repeating: "a", count: 500)
        h.ok("quit.log", ["trigger": "boredom", "outcome": "resisted", "thoughts": exactly500])
        XCTAssertEqual(h.state.quit.recent.last?.thoughts?.count, 500)
        // Blank thoughts are not stored.
        h.ok("quit.log", ["trigger": "boredom", "outcome": "resisted", "thoughts": "   "])
        XCTAssertNil(h.state.quit.recent.last?.thoughts)
    }

    func testRepeatedCommandIDChangesNothing() {
        var h = Harness(at: "2026-03-02 10:00")
        h.ok("quit.log", ["trigger": "boredom", "outcome": "gave-in"], id: "urge-1")
        let before = h.state
        let again = h.ok("quit.log", ["trigger": "stress", "outcome": "resisted"], id: "urge-1")
        XCTAssertTrue(again.isEmpty)
        XCTAssertEqual(h.state, before)
    }

    // MARK: - Triggers

    func testDefaultTriggersHaveStableIDs() {
        let h = Harness(at: "2026-03-02 10:00")
        XCTAssertEqual(h.state.quitTriggers.map(\.id),
                       ["time-of-day", "waking-up", "boredom", "smell", "stress", "seeing-someone", "fatigue", "partying"])
    }

    func testCustomTriggersAddDeleteAndLogsKeepTheirTrigger() {
        var h = Harness(at: "2026-03-02 10:00")
        let added = h.ok("quit.trigger-add", ["name": "  Coffee  "])
        guard case let .quit(.triggerAdded(id, name))? = added.first?.kind else { return XCTFail("no trigger added") }
        XCTAssertEqual(id, "custom-1")
        XCTAssertEqual(name, "Coffee")
        h.refuse("quit.trigger-add", ["name": "coffee"], .exists("trigger", "custom-1"))
        h.refuse("quit.trigger-add", ["name": "BOREDOM"], .exists("trigger", "boredom"))
        h.refuse("quit.trigger-add", ["name": String(repeating: "x", count: 25)], .field("name"))
        h.refuse("quit.trigger-add", ["name": "   "], .field("name"))
        h.refuse("quit.trigger-add", ["name": "two\nlines"], .field("name"))
        h.refuse("quit.trigger-add", [:], .missing("name"))
        h.ok("quit.trigger-add", ["name": String(repeating: "y", count: 24)])
        XCTAssertTrue(h.state.urgeTriggerMenu(at: h.now).contains("custom-1"))

        h.ok("quit.log", ["trigger": "custom-1", "outcome": "resisted"])
        h.refuse("quit.trigger-delete", ["trigger": "boredom"], .state("trigger", "boredom"))
        h.refuse("quit.trigger-delete", ["trigger": "custom-9"], .notFound("trigger", "custom-9"))
        h.ok("quit.trigger-delete", ["trigger": "custom-1"])
        h.refuse("quit.trigger-delete", ["trigger": "custom-1"], .notFound("trigger", "custom-1"))
        h.refuse("quit.log", ["trigger": "custom-1", "outcome": "resisted"], .notFound("trigger", "custom-1"))
        XCTAssertFalse(h.state.urgeTriggerMenu(at: h.now).contains("custom-1"))
        // The log keeps its trigger, and its name stays known.
        XCTAssertEqual(h.state.quit.recent.last?.trigger, "custom-1")
        XCTAssertEqual(h.state.quitTriggerName("custom-1"), "Coffee")
        // The name is free again; ids are never reused.
        h.ok("quit.trigger-add", ["name": "Coffee"])
        XCTAssertEqual(h.state.quit.custom.map(\.id), ["custom-2", "custom-3"])
        h.assertReplayEqualsLive()
    }

    func testCustomTriggerLimit() {
        var h = Harness(at: "2026-03-02 10:00")
        for i in 1...24 { h.ok("quit.trigger-add", ["name": "T\(i)"]) }
        h.refuse("quit.trigger-add", ["name": "T25"], .limit("custom triggers", 24))
    }

    func testTriggerMenuPutsTheLikelyTriggerForTheTimeOfDayFirst() {
        var h = Harness(at: "2026-03-02 06:00")
        // No history: the hour's typical trigger comes first, the rest in table order.
        XCTAssertEqual(h.state.urgeTriggerMenu(at: h.t("2026-03-02 08:00")).first, "waking-up")
        XCTAssertEqual(h.state.urgeTriggerMenu(at: h.t("2026-03-02 15:00")).first, "fatigue")
        XCTAssertEqual(h.state.urgeTriggerMenu(at: h.t("2026-03-02 23:30")).first, "partying")
        XCTAssertEqual(h.state.urgeTriggerMenu(at: h.t("2026-03-02 08:00")).count, 8)
        // History at this hour wins: stress logged at 08:10 and 09:05.
        h.ok("quit.log", ["trigger": "stress", "outcome": "resisted"], at: h.t("2026-03-02 08:10"))
        h.ok("quit.log", ["trigger": "stress", "outcome": "resisted"], at: h.t("2026-03-02 09:05"))
        XCTAssertEqual(h.state.urgeTriggerMenu(at: h.t("2026-03-03 08:30")).prefix(2), ["stress", "waking-up"])
        // Far from those hours the typical trigger still leads.
        XCTAssertEqual(h.state.urgeTriggerMenu(at: h.t("2026-03-03 15:00")).first, "fatigue")
        // A custom trigger logged often in the evening leads in the evening.
        h.ok("quit.trigger-add", ["name": "Gaming"])
        for d in 3...5 {
            h.ok("quit.log", ["trigger": "custom-1", "outcome": "resisted"], at: h.t("2026-03-0\(d) 21:00"))
        }
        XCTAssertEqual(h.state.urgeTriggerMenu(at: h.t("2026-03-06 21:15")).first, "custom-1")
    }

    // MARK: - Recommendations

    func testRecommendationTableHasAtLeastThreePerTrigger() {
        for t in QuitRules.defaultTriggers {
            let own = QuitRules.recommendations.filter { $0.trigger == t.id }
            XCTAssertGreaterThanOrEqual(own.count, 3, t.id)
        }
        XCTAssertGreaterThanOrEqual(QuitRules.recommendations.filter { $0.trigger == "general" }.count, 3)
        XCTAssertEqual(Set(QuitRules.recommendations.map(\.key)).count, QuitRules.recommendations.count)
        for r in QuitRules.recommendations { XCTAssertLessThanOrEqual(r.text.count, 60, r.key) }
        XCTAssertEqual(QuitRules.candidates(for: "custom-7").map(\.trigger), Array(repeating: "general", count: 4))
    }

    func testRecommendationNeverRepeatsAndIsStoredInTheEvent() {
        var h = Harness(at: "2026-03-02 06:00")
        h.ok("quit.trigger-add", ["name": "Coffee"])
        var previous: String?
        var keys: [String] = []
        let triggers = ["boredom", "boredom", "stress", "custom-1", "custom-1", "smell", "boredom"]
        for i in 0..<60 {
            let trigger = triggers[i % triggers.count]
            let events = h.ok("quit.log", ["trigger": trigger, "outcome": i % 5 == 0 ? "gave-in" : "resisted"],
                              at: h.now + 600)
            guard let rec = logged(events).first?.rec else { return XCTFail("no log") }
            XCTAssertNotEqual(rec, previous, "repeated at log \(i)")
            let candidates = QuitRules.candidates(for: trigger).map(\.key)
            XCTAssertTrue(candidates.contains(rec), "\(rec) is not for \(trigger)")
            XCTAssertEqual(h.state.quit.lastRecommendation?.key, rec)
            XCTAssertEqual(h.state.quitRecommendation(at: h.now), QuitRules.recommendation(key: rec)?.text)
            previous = rec
            keys.append(rec)
        }
        XCTAssertGreaterThan(Set(keys).count, 8, "the choice varies")
        // Shown for 5 minutes.
        XCTAssertNotNil(h.state.quitRecommendation(at: h.now + 299))
        XCTAssertNil(h.state.quitRecommendation(at: h.now + 300))
        // Replay reproduces the same recommendations (they are in the events, not recomputed).
        h.assertReplayEqualsLive()
        XCTAssertEqual(h.replayed().state.quit.recent.map(\.recommendation), h.state.quit.recent.map(\.recommendation))
    }

    func testPickNeverReturnsThePrevious() {
        for t in QuitRules.defaultTriggers.map(\.id) + ["custom-1"] {
            for seed in 0..<200 {
                let first = QuitRules.pickRecommendation(trigger: t, seed: seed, previous: nil)
                XCTAssertNotEqual(QuitRules.pickRecommendation(trigger: t, seed: seed, previous: first), first)
                XCTAssertEqual(QuitRules.pickRecommendation(trigger: t, seed: seed, previous: nil), first, "deterministic")
            }
        }
    }

    // MARK: - Reflections

    func testReflectionOnePerDayEditableThatDay() {
        var h = Harness(at: "2026-03-02 20:00")
        h.refuse("quit.reflect", [:], .missing("stressors"))
        h.refuse("quit.reflect", ["stressors": String(repeating: "s", count: 501)], .field("stressors"))
        h.refuse("quit.reflect", ["feelings": String(repeating: "f", count: 501)], .field("feelings"))
        h.ok("quit.reflect", ["stressors": String(repeating: "s", count: 500)])
        h.ok("quit.reflect", ["stressors": "Deadline", "feelings": "Okay"])
        h.ok("quit.reflect", ["feelings": "Proud"], at: h.t("2026-03-03 01:00"))  // still Monday: edits it
        let mon = dayNumber("2026-03-02")
        XCTAssertEqual(h.state.quit.reflections[mon], QuitReflection(stressors: "Deadline", feelings: "Proud"))
        XCTAssertEqual(h.state.quit.reflections.count, 1)
        h.ok("quit.reflect", ["feelings": "Tired"], at: h.t("2026-03-03 20:00"))
        XCTAssertEqual(h.state.quit.reflections[mon + 1], QuitReflection(stressors: "", feelings: "Tired"))
        XCTAssertEqual(h.state.quitReflectionToday?.feelings, "Tired")
        XCTAssertEqual(h.state.quit.reflections[mon]?.feelings, "Proud", "yesterday's stays")
        h.assertReplayEqualsLive()
    }

    // MARK: - Goal, gauge, time since give-in

    func testGaugeOfWhatShouldBeLeft() {
        XCTAssertEqual(QuitRules.percentLeft(goalDays: 5, dayOfPod: 1), 80)
        XCTAssertEqual(QuitRules.percentLeft(goalDays: 5, dayOfPod: 2), 60)
        XCTAssertEqual(QuitRules.percentLeft(goalDays: 5, dayOfPod: 5), 0)
        XCTAssertEqual(QuitRules.percentLeft(goalDays: 5, dayOfPod: 7), 0)
        XCTAssertEqual(QuitRules.percentLeft(goalDays: 3, dayOfPod: 1), 66)
        XCTAssertEqual(QuitRules.percentLeft(goalDays: 1, dayOfPod: 1), 0)

        var h = Harness(at: "2026-03-02 10:00")
        XCTAssertNil(h.state.quitGauge(at: h.now), "no goal")
        h.ok("quit.start", ["goal-days": "5"])
        XCTAssertEqual(h.state.quitGauge(at: h.now), QuitGauge(goalDays: 5, dayOfPod: 1, percentLeft: 80, overdueDays: 0))
        // Pure in the time: Tuesday 02:59 is still Monday; 03:00 is Tuesday.
        XCTAssertEqual(h.state.quitGauge(at: h.t("2026-03-03 02:59"))?.percentLeft, 80)
        XCTAssertEqual(h.state.quitGauge(at: h.t("2026-03-03 03:00"))?.percentLeft, 60)
        XCTAssertEqual(h.state.quitGauge(at: h.t("2026-03-08 12:00")),
                       QuitGauge(goalDays: 5, dayOfPod: 7, percentLeft: 0, overdueDays: 2))
        // Finishing the pod on Wednesday starts the next one that day.
        h.ok("quit.log", ["trigger": "stress", "outcome": "finished"], at: h.t("2026-03-04 09:00"))
        XCTAssertEqual(h.state.quitGauge(at: h.now)?.dayOfPod, 1)
        XCTAssertEqual(h.state.quitGauge(at: h.now)?.percentLeft, 80)
        // A gave-in does not restart the pod.
        h.ok("quit.log", ["trigger": "stress", "outcome": "gave-in"], at: h.t("2026-03-05 09:00"))
        XCTAssertEqual(h.state.quitGauge(at: h.now)?.dayOfPod, 2)
        h.ok("quit.goal", ["days": "10"])
        XCTAssertEqual(h.state.quitGauge(at: h.now)?.percentLeft, 80)
        h.refuse("quit.goal", ["days": "0"], .field("days"))
        h.refuse("quit.goal", ["days": "366"], .field("days"))
        h.refuse("quit.goal", [:], .missing("days"))
        h.assertReplayEqualsLive()
    }

    func testGoalStartsTheQuitLogImplicitly() {
        var h = Harness(at: "2026-03-02 10:00")
        XCTAssertEqual(h.ok("quit.goal", ["days": "4"]).types, ["quit.started", "quit.goal-set"])
        XCTAssertEqual(h.state.quitGauge(at: h.now)?.percentLeft, 75)
    }

    func testTimeSinceTheLastGiveIn() {
        var h = Harness(at: "2026-03-02 10:00")
        XCTAssertNil(h.state.secondsSinceGiveIn(at: h.now))
        h.ok("quit.start")
        XCTAssertEqual(h.state.secondsSinceGiveIn(at: h.t("2026-03-02 12:30")), 9000)
        h.ok("quit.log", ["trigger": "stress", "outcome": "resisted"], at: h.t("2026-03-02 13:00"))
        XCTAssertEqual(h.state.secondsSinceGiveIn(at: h.t("2026-03-02 14:00")), 4 * 3600)
        h.ok("quit.log", ["trigger": "stress", "outcome": "gave-in"], at: h.t("2026-03-02 14:00"))
        XCTAssertEqual(h.state.secondsSinceGiveIn(at: h.t("2026-03-03 14:00")), 86_400)
    }

    // MARK: - Milestones

    func testMilestonesAtExactlyOneThreeAndSevenDays() {
        var h = Harness(at: "2026-03-02 10:00")   // Monday
        h.ok("quit.start")
        // Whole days after Monday: Tuesday's close (Wed 03:00) makes 1.
        h.advance(to: "2026-03-04 02:59")
        XCTAssertEqual(h.state.quitCleanDays, 0)
        XCTAssertNil(h.state.badges["quit-1"])
        let wed = h.advance(to: "2026-03-04 03:00")
        XCTAssertEqual(wed.badges, ["quit-1"])
        XCTAssertEqual(h.state.badges["quit-1"], h.t("2026-03-04 03:00"))
        h.advance(to: "2026-03-06 02:59")
        XCTAssertEqual(h.state.quitCleanDays, 2)
        XCTAssertNil(h.state.badges["quit-3"])
        XCTAssertEqual(h.advance(to: "2026-03-06 03:00").badges, ["quit-3"])
        h.advance(to: "2026-03-10 02:59")
        XCTAssertNil(h.state.badges["quit-7"])
        XCTAssertEqual(h.advance(to: "2026-03-10 03:00").badges, ["quit-7"])
        XCTAssertEqual(h.state.quitCleanDays, 7)
        h.assertReplayEqualsLive()
    }

    func testAGiveInRestartsTheCountAndBadgesStayOnce() {
        var h = Harness(at: "2026-03-02 10:00")
        h.ok("quit.log", ["trigger": "stress", "outcome": "resisted"])   // starts Monday
        h.advance(to: "2026-03-04 03:00")
        XCTAssertNotNil(h.state.badges["quit-1"])
        // Give in on Wednesday: Wednesday does not count; Thursday's close makes 1 again.
        h.ok("quit.log", ["trigger": "stress", "outcome": "gave-in"], at: h.t("2026-03-04 20:00"))
        XCTAssertEqual(h.state.quitCleanDays, 0)
        h.advance(to: "2026-03-06 03:00")
        XCTAssertEqual(h.state.quitCleanDays, 1)
        // Finishing a pod is a give-in too.
        h.ok("quit.log", ["trigger": "partying", "outcome": "finished"], at: h.t("2026-03-06 23:00"))
        h.advance(to: "2026-03-10 03:00")
        XCTAssertEqual(h.state.quitCleanDays, 3)
        XCTAssertEqual(h.journal.badges.filter { $0 == "quit-1" }.count, 1)
        XCTAssertEqual(h.journal.badges.filter { $0 == "quit-3" }.count, 1)
        XCTAssertNil(h.state.badges["quit-7"])
        h.assertReplayEqualsLive()
    }

    func testNoMilestonesBeforeTheQuitLogStarts() {
        var h = Harness(at: "2026-03-02 10:00")
        h.advance(to: "2026-03-12 03:00")
        XCTAssertEqual(h.state.quitCleanDays, 0)
        XCTAssertFalse(h.state.badges.keys.contains { $0.hasPrefix("quit-") })
    }

    // MARK: - Heat map

    func testMonthGridOfUrgesAndGiveIns() {
        var h = Harness(at: "2026-03-02 10:00")
        h.ok("quit.log", ["trigger": "stress", "outcome": "resisted"])
        h.ok("quit.log", ["trigger": "stress", "outcome": "gave-in"])
        h.ok("quit.log", ["trigger": "boredom", "outcome": "resisted"], at: h.t("2026-03-17 10:00"))
        guard let grid = h.state.quitMonthGrid(year: 2026, month: 3) else { return XCTFail("no grid") }
        // March 2026 starts on a Sunday: six blanks, 31 days, five blanks → 6 Monday–Sunday weeks.
        XCTAssertEqual(grid.weeks.count, 6)
        XCTAssertTrue(grid.weeks.allSatisfy { $0.count == 7 })
        XCTAssertEqual(grid.weeks[0].compactMap { $0 }.map(\.date.day), [1])
        XCTAssertEqual(grid.weeks.flatMap { $0 }.compactMap { $0 }.count, 31)
        let cells = grid.weeks.flatMap { $0 }.compactMap { $0 }
        XCTAssertEqual(cells[1].urges, 2)     // March 2
        XCTAssertEqual(cells[1].giveIns, 1)
        XCTAssertEqual(cells[16].urges, 1)    // March 17
        XCTAssertEqual(cells[16].giveIns, 0)
        XCTAssertEqual(cells.map(\.urges).reduce(0, +), 3)
        XCTAssertEqual(grid.weeks[5].compactMap { $0 }.map(\.date.day), [30, 31])
        XCTAssertNil(h.state.quitMonthGrid(year: 2026, month: 13))
        // February 2027 starts on a Monday: exactly 4 weeks.
        XCTAssertEqual(h.state.quitMonthGrid(year: 2027, month: 2)?.weeks.count, 4)
    }
}

extension EventCodingTests {
    /// One example of every quit-log event type, optional fields set and absent (used by `subsystemExamples()`).
    static func quitExamples() -> [EventKind] {
        [
            .quit(.started(goalDays: 5)), .quit(.started(goalDays: nil)),
            .quit(.logged(trigger: "boredom", outcome: .resisted, thoughts: nil, recommendation: "boredom.2")),
            .quit(.logged(trigger: "custom-1", outcome: .finished, thoughts: "Long \"day\"\nreally", recommendation: "general.1")),
            .quit(.triggerAdded(id: "custom-1", name: "Coffee")), .quit(.triggerDeleted(id: "custom-1")),
            .quit(.reflected(day: 20514, stressors: "Deadline", feelings: "")), .quit(.goalSet(days: 7)),
        ]
    }
}
