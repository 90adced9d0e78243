import XCTest
import TestSupport
import PetCore

// docs/commitments.md commitments: stakes reserved when set, released when verified inside the window,
// forfeited to the charity jar when the window closes without one (no grace), paused occurrences
// released, weekly series until an end date, DST and midnight-spanning windows.

extension Harness {
    /// Completes one-off tasks until the balance has grown by exactly `coins` (≥ 5): high priority
    /// with a 240-minute estimate earns 20 + 16 = 36; smaller remainders use a fitting priority and
    /// estimate (+1 per 15 minutes).
    mutating func commitEarn(_ coins: Int, file: StaticString = #filePath, line: UInt = #line) {
        var left = coins
        while left > 0 {
            let (priority, size): (String, Int)
            switch left {
            case 36...: (priority, size) = ("high", 16)
            case 20...35: (priority, size) = ("high", left - 20)
            case 10...19: (priority, size) = ("normal", left - 10)
            case 5...9: (priority, size) = ("low", left - 5)
            default: XCTFail("cannot earn exactly \(left) coins", file: file, line: line); return
            }
            let id = "earn-\(state.eventCount)"
            var fields = ["task": id, "title": "Earn", "priority": priority]
            if size > 0 { fields["estimate"] = "\(size * 15)" }
            ok("task.create", fields, file: file, line: line)
            ok("task.complete", ["task": id], file: file, line: line)
            left -= (priority == "high" ? 20 : priority == "normal" ? 10 : 5) + size
        }
    }

    var commitmentEvents: [CommitmentEvent] {
        journal.compactMap { if case .commitment(let e) = $0.kind { return e } else { return nil } }
    }

    var commitmentTypes: [String] { commitmentEvents.map(\.type) }

    func commitment(_ id: String) -> Commitment? { state.commitments.items[id] }
}

final class CommitmentRuleTests: XCTestCase {
    /// Monday 2026-03-02 08:00 UTC with `coins` coins.
    private func harness(coins: Int = 100, zone: String = "UTC") -> Harness {
        var h = Harness(zone: zone, at: "2026-03-02 08:00")
        h.commitEarn(coins)
        XCTAssertEqual(h.state.coins, coins)
        return h
    }

    private func add(_ id: String, _ kind: String = "on-time", at: String = "2026-03-02 10:00",
                     stake: Int = 30, _ extra: [String: String] = [:]) -> [String: String] {
        var f = ["commitment": id, "kind": kind, "at": at, "stake": "\(stake)"]
        for (k, v) in extra { f[k] = v }
        return f
    }

    // MARK: Stakes and windows

    func testStakeIsOneToThousandCoins() {
        var h = harness(coins: 1000)
        h.refuse("commitment.add", add("c", stake: 0), .field("stake"))
        h.refuse("commitment.add", add("c", stake: 1001), .field("stake"))
        h.refuse("commitment.add", add("c", "on-time", ["stake": "ten"]), .field("stake"))
        h.refuse("commitment.add", ["commitment": "c", "kind": "on-time", "at": "2026-03-02 10:00"], .missing("stake"))
        h.ok("commitment.add", add("one", stake: 1))
        XCTAssertEqual(h.state.coins, 999)
        h.ok("commitment.add", add("all", at: "2026-03-02 12:00", stake: 999))
        XCTAssertEqual(h.state.coins, 0)
        XCTAssertEqual(h.state.commitments.held, 1000)
        h.assertReplayEqualsLive()
    }

    func testStakeLargerThanTheBalanceIsRefused() {
        var h = harness(coins: 20)
        h.refuse("commitment.add", add("c", stake: 21), .coins(needed: 21, balance: 20))
        h.ok("commitment.add", add("c", stake: 20))
        XCTAssertEqual(h.state.coins, 0)
        h.refuse("commitment.add", add("d", at: "2026-03-02 12:00", stake: 1), .coins(needed: 1, balance: 0))
        h.assertReplayEqualsLive()
    }

    func testWindowDefaultsToTenMinutesAndIsOneTo120() {
        var h = harness()
        h.refuse("commitment.add", add("c", "on-time", ["window": "0"]), .field("window"))
        h.refuse("commitment.add", add("c", "on-time", ["window": "121"]), .field("window"))
        h.refuse("commitment.add", add("c", "on-time", ["window": "x"]), .field("window"))
        h.ok("commitment.add", add("default", stake: 1))
        let o = h.commitment("default")?.current
        XCTAssertEqual(o?.target, h.t("2026-03-02 10:00"))
        XCTAssertEqual(o?.opens, h.t("2026-03-02 09:50"))
        XCTAssertEqual(o?.closes, h.t("2026-03-02 10:10"))
        h.ok("commitment.add", add("narrow", stake: 1, ["window": "1"]))
        XCTAssertEqual(h.commitment("narrow")?.current?.opens, h.t("2026-03-02 09:59"))
        h.ok("commitment.add", add("wide", at: "2026-03-02 11:00", stake: 1, ["window": "120"]))
        XCTAssertEqual(h.commitment("wide")?.current?.opens, h.t("2026-03-02 09:00"))
        XCTAssertEqual(h.commitment("wide")?.current?.closes, h.t("2026-03-02 13:00"))
    }

    func testTheWindowMustOpenAfterNow() {
        var h = harness()
        // Now 08:00 + the task completions (same instant); 08:10 ± 10 opens at 08:00: too late.
        h.refuse("commitment.add", add("c", at: "2026-03-02 08:10"), .field("at"))
        h.refuse("commitment.add", add("c", at: "2026-03-02 07:00"), .field("at"))
        h.ok("commitment.add", add("c", at: "2026-03-02 08:11"))
    }

    // MARK: Reserve, release, forfeit

    func testReserveThenReleaseWhenVerifiedInTheWindow() {
        var h = harness(coins: 100)
        h.ok("commitment.add", add("c", stake: 30))
        XCTAssertEqual(h.state.coins, 70, "the stake leaves the spendable balance")
        XCTAssertEqual(h.state.commitments.held, 30)
        XCTAssertEqual(h.commitmentTypes, ["commitment.added", "commitment.reserved"])
        h.ok("commitment.verify", ["commitment": "c"], at: h.t("2026-03-02 10:03"))
        XCTAssertEqual(h.state.coins, 100)
        XCTAssertEqual(h.state.commitments.held, 0)
        XCTAssertEqual(h.state.commitments.charityJar, 0)
        XCTAssertEqual(h.commitment("c")?.status, .finished)
        XCTAssertEqual(h.commitment("c")?.kept, 1)
        XCTAssertEqual(Array(h.commitmentTypes.suffix(2)), ["commitment.verified", "commitment.finished"])
        // Nothing happens when the window would have closed.
        let later = h.advance(to: "2026-03-02 12:00")
        XCTAssertFalse(later.types.contains { $0.hasPrefix("commitment.") })
        XCTAssertEqual(h.state.coins, 100)
        h.assertReplayEqualsLive()
    }

    func testMissedWindowForfeitsTheStakeToTheCharityJarWithoutGrace() {
        var h = harness(coins: 100)
        h.ok("commitment.add", add("c", stake: 30))
        h.advance(to: "2026-03-02 10:10:00")
        XCTAssertEqual(h.commitment("c")?.status, .active, "the last second of the window still counts")
        let events = h.advance(to: "2026-03-02 10:10:01")
        XCTAssertEqual(events.first?.kind, .commitment(.forfeited(id: "c", n: 0, stake: 30, reason: .missed)))
        XCTAssertEqual(events.first?.at, h.t("2026-03-02 10:10:01"))
        XCTAssertEqual(h.state.coins, 70, "the stake does not come back")
        XCTAssertEqual(h.state.commitments.charityJar, 30)
        XCTAssertEqual(h.state.commitments.held, 0)
        XCTAssertEqual(h.commitment("c")?.failed, 1)
        XCTAssertEqual(h.commitment("c")?.status, .finished)
        XCTAssertTrue(events.saidKeys.contains { $0.hasPrefix("missed.") }, "an encouraging line")
        // No retries: a late verification is refused and changes nothing.
        h.refuse("commitment.verify", ["commitment": "c"], .state("commitment", "c"))
        // The jar is not spendable: only the 70 coins count.
        h.refuse("commitment.add", add("d", at: "2026-03-02 12:00", stake: 71), .coins(needed: 71, balance: 70))
        h.assertReplayEqualsLive()
    }

    func testVerificationJustInsideAndJustOutsideTheWindowEdges() {
        var h = harness(coins: 100)
        h.ok("commitment.add", add("early", at: "2026-03-02 10:00", stake: 10))
        h.ok("commitment.add", add("late", at: "2026-03-02 12:00", stake: 10))
        h.ok("commitment.add", add("miss", at: "2026-03-02 14:00", stake: 10))
        h.advance(to: "2026-03-02 09:49:59")
        h.refuse("commitment.verify", ["commitment": "early"], .state("commitment", "early"))
        h.ok("commitment.verify", ["commitment": "early"], at: h.t("2026-03-02 09:50:00"))
        XCTAssertEqual(h.commitment("early")?.kept, 1)
        h.ok("commitment.verify", ["commitment": "late"], at: h.t("2026-03-02 12:10:00"))
        XCTAssertEqual(h.commitment("late")?.kept, 1)
        h.advance(to: "2026-03-02 14:10:01")
        h.refuse("commitment.verify", ["commitment": "miss"], .state("commitment", "miss"))
        XCTAssertEqual(h.state.coins, 90)
        XCTAssertEqual(h.state.commitments.charityJar, 10)
        h.assertReplayEqualsLive()
    }

    func testReservedAndReleasedStakesAreNotCountedAsSpentOrEarnedButForfeitsAreSpent() {
        var h = harness(coins: 100)
        let day = h.state.openDay
        let earned = h.state.coinsEarned
        h.ok("commitment.add", add("kept", stake: 30))
        h.ok("commitment.add", add("lost", at: "2026-03-02 12:00", stake: 20))
        XCTAssertEqual(h.state.coinsSpent, 0)
        XCTAssertEqual(h.state.stats[day].coinsSpent, 0)
        h.ok("commitment.verify", ["commitment": "kept"], at: h.t("2026-03-02 10:00"))
        XCTAssertEqual(h.state.coinsEarned, earned)
        XCTAssertEqual(h.state.stats[day].coinsEarned, earned)
        h.advance(to: "2026-03-02 13:00")
        XCTAssertEqual(h.state.coinsSpent, 20)
        XCTAssertEqual(h.state.stats[day].coinsSpent, 20)
        XCTAssertEqual(h.state.coins, 80)
        h.assertReplayEqualsLive()
    }

    // MARK: Midnight, DST

    func testAWindowSpanningMidnight() {
        var h = harness(coins: 100)
        // Tuesday 00:05 ± 10 opens Monday 23:55.
        h.ok("commitment.add", add("night", "wake-up", at: "2026-03-03 00:05", stake: 25))
        XCTAssertEqual(h.commitment("night")?.current?.opens, h.t("2026-03-02 23:55"))
        XCTAssertEqual(h.state.awaitingButtonPress(at: h.t("2026-03-02 23:54:59")), [])
        h.advance(to: "2026-03-02 23:56")
        XCTAssertEqual(h.engine.awaitingButtonPress(at: h.now), ["night"])
        h.ok("commitment.verify", ["commitment": "night", "source": "button"])
        XCTAssertEqual(h.state.coins, 100)
        XCTAssertEqual(h.engine.awaitingButtonPress(at: h.now), [])
        // Weekly on Tuesdays at 00:05: the window opens on Monday evening.
        h.ok("commitment.add", add("weekly", "wake-up", at: "00:05", stake: 25, ["days": "tue", "until": "2026-03-17"]))
        XCTAssertEqual(h.commitment("weekly")?.current?.target, h.t("2026-03-10 00:05"))
        XCTAssertEqual(h.commitment("weekly")?.current?.opens, h.t("2026-03-09 23:55"))
        h.advance(to: "2026-03-10 00:15:01")
        XCTAssertEqual(h.commitment("weekly")?.failed, 1)
        XCTAssertEqual(h.commitment("weekly")?.current?.target, h.t("2026-03-17 00:05"))
        h.advance(to: "2026-03-16 23:58")
        h.ok("commitment.verify", ["commitment": "weekly", "source": "button"])
        XCTAssertEqual(h.commitment("weekly")?.status, .finished)
        XCTAssertEqual(h.state.coins, 75)
        XCTAssertEqual(h.state.commitments.charityJar, 25)
        h.assertReplayEqualsLive()
    }

    func testAWeeklyTimeInsideTheSpringForwardGapMovesByTheGap() {
        var h = harness(coins: 50, zone: "Europe/Berlin")
        // 2026-03-29 (Sunday) 02:00 → 03:00 CEST: 02:30 does not exist and is read as 03:30.
        h.ok("commitment.add", add("sun", at: "02:30", stake: 10, ["days": "sun", "until": "2026-04-05"]),
             at: h.t("2026-03-28 12:00"))
        let o = h.commitment("sun")?.current
        XCTAssertEqual(o?.target, wall("2026-03-29 03:30", in: "Europe/Berlin"))
        XCTAssertEqual(o.map { $0.closes - $0.opens }, 20 * 60, "± 10 real minutes")
        h.ok("commitment.verify", ["commitment": "sun"], at: wall("2026-03-29 03:39", in: "Europe/Berlin"))
        // The next Sunday keeps 02:30 local (CEST now).
        XCTAssertEqual(h.commitment("sun")?.current?.target, wall("2026-04-05 02:30", in: "Europe/Berlin"))
        XCTAssertEqual(h.commitment("sun")?.current?.target, Instant(wall("2026-04-05 00:30").seconds))
        h.assertReplayEqualsLive()
    }

    // MARK: Weekly series

    func testWeekdaysUntilAnEndDate() {
        var h = harness(coins: 100)
        // Mondays and Wednesdays at 09:00 until Wednesday 2026-03-11: 2, 4, 9 and 11 March.
        h.ok("commitment.add", add("gym", at: "09:00", stake: 10, ["days": "mon,wed", "until": "2026-03-11"]))
        XCTAssertEqual(h.commitment("gym")?.current?.target, h.t("2026-03-02 09:00"))
        XCTAssertEqual(h.state.coins, 90)
        h.ok("commitment.verify", ["commitment": "gym"], at: h.t("2026-03-02 09:05"))
        XCTAssertEqual(h.commitment("gym")?.current?.target, h.t("2026-03-04 09:00"))
        XCTAssertEqual(h.commitment("gym")?.current?.n, 1)
        XCTAssertEqual(h.state.coins, 90, "released 10, reserved 10 for Wednesday")
        h.ok("commitment.verify", ["commitment": "gym"], at: h.t("2026-03-04 08:55"))
        XCTAssertEqual(h.commitment("gym")?.current?.target, h.t("2026-03-09 09:00"))
        h.advance(to: "2026-03-09 12:00")   // Monday missed
        XCTAssertEqual(h.state.commitments.charityJar, 10)
        XCTAssertEqual(h.state.coins, 80)
        XCTAssertEqual(h.commitment("gym")?.current?.target, h.t("2026-03-11 09:00"))
        h.ok("commitment.verify", ["commitment": "gym"], at: h.t("2026-03-11 09:10"))
        XCTAssertNil(h.commitment("gym")?.current)
        XCTAssertEqual(h.commitment("gym")?.status, .finished)
        XCTAssertEqual(h.commitment("gym").map { [$0.kept, $0.failed] }, [3, 1])
        XCTAssertEqual(h.state.coins, 90)
        h.advance(to: "2026-03-16 12:00")
        XCTAssertEqual(h.state.coins, 90, "nothing after the end date")
        h.assertReplayEqualsLive()
    }

    func testWeeklyFirstOccurrenceIsTheFirstWhoseWindowOpensAfterNow() {
        var h = harness(coins: 100)
        // Monday 08:00 now: Monday 08:05 ± 10 has opened already, so the first is Wednesday.
        h.ok("commitment.add", add("w", at: "08:05", stake: 10, ["days": "mon,wed", "until": "2026-03-04"]))
        XCTAssertEqual(h.commitment("w")?.current?.target, h.t("2026-03-04 08:05"))
        // Nothing left before `until`.
        h.refuse("commitment.add", add("x", at: "08:05", stake: 10, ["days": "mon", "until": "2026-03-08"]), .field("until"))
    }

    func testRecurringStakesAreReservedPerOccurrenceAndSkippedWhenNotCovered() {
        var h = harness(coins: 10)
        h.ok("commitment.add", add("r", at: "09:00", stake: 10, ["days": "mon,tue,wed,thu", "until": "2026-03-05"]))
        XCTAssertEqual(h.state.coins, 0)
        // Monday missed: forfeited; Tuesday's stake cannot be reserved (balance 0): unfunded.
        h.advance(to: "2026-03-02 09:10:01")
        XCTAssertEqual(h.commitment("r")?.current?.funded, false)
        XCTAssertEqual(h.commitment("r")?.current?.target, h.t("2026-03-03 09:00"))
        XCTAssertEqual(h.state.commitments.held, 0)
        // Earned before Tuesday's window opens: reserved when it opens.
        h.commitEarn(12)
        h.advance(to: "2026-03-03 08:50")
        XCTAssertEqual(h.commitment("r")?.current?.funded, true)
        XCTAssertEqual(h.state.coins, 2)
        h.ok("commitment.verify", ["commitment": "r"], at: h.t("2026-03-03 09:00"))
        XCTAssertEqual(h.commitment("r")?.current?.funded, true, "Wednesday reserved at once (12 coins)")
        XCTAssertEqual(h.state.coins, 2)
        // Wednesday missed → Thursday unfunded, still not covered when its window opens: skipped,
        // not failed, nothing goes to the jar.
        h.advance(to: "2026-03-04 09:10:01")
        XCTAssertEqual(h.commitment("r")?.current?.funded, false)
        let jar = h.state.commitments.charityJar
        h.advance(to: "2026-03-05 08:50")
        XCTAssertEqual(h.commitment("r").map { [$0.kept, $0.failed, $0.skipped] }, [1, 2, 1])
        XCTAssertEqual(h.state.commitments.charityJar, jar)
        XCTAssertEqual(jar, 20)
        XCTAssertEqual(h.commitment("r")?.status, .finished)
        XCTAssertEqual(h.state.coins, 2)
        XCTAssertTrue(h.commitmentTypes.contains("commitment.unfunded"))
        XCTAssertTrue(h.commitmentTypes.contains("commitment.skipped"))
        h.assertReplayEqualsLive()
    }

    // MARK: Pause

    func testAnOccurrenceClosingWhilePausedIsReleasedNotFailed() {
        var h = harness(coins: 100)
        h.ok("commitment.add", add("c", stake: 30))
        h.ok("pause", at: h.t("2026-03-02 09:00"))
        let events = h.advance(to: "2026-03-02 10:30")
        XCTAssertTrue(events.kinds.contains(.commitment(.excused(id: "c", n: 0, stake: 30))))
        XCTAssertFalse(events.types.contains("notice.shown"), "no nudge while paused")
        XCTAssertEqual(h.state.coins, 100)
        XCTAssertEqual(h.state.commitments.charityJar, 0)
        XCTAssertEqual(h.commitment("c")?.excused, 1)
        XCTAssertEqual(h.commitment("c")?.failed, 0)
        h.assertReplayEqualsLive()
    }

    func testPausedWeeklyOccurrencesAreReleasedAndTheSeriesGoesOn() {
        var h = harness(coins: 100)
        h.ok("commitment.add", add("w", at: "09:00", stake: 10, ["days": "mon,tue,wed", "until": "2026-03-04"]))
        h.ok("pause", at: h.t("2026-03-02 08:30"))
        h.ok("resume", at: h.t("2026-03-03 12:00"))
        h.advance(to: "2026-03-04 09:10:01")
        XCTAssertEqual(h.commitment("w").map { [$0.excused, $0.failed] }, [2, 1])
        XCTAssertEqual(h.state.coins, 90)
        XCTAssertEqual(h.state.commitments.charityJar, 10)
        h.assertReplayEqualsLive()
    }

    // MARK: Cancel

    func testCancelOnlyBeforeTheWindowOpensReleasesTheStake() {
        var h = harness(coins: 100)
        h.ok("commitment.add", add("c", stake: 30))
        h.ok("commitment.add", add("d", at: "2026-03-02 12:00", stake: 20))
        h.ok("commitment.cancel", ["commitment": "c"], at: h.t("2026-03-02 09:49:59"))
        XCTAssertEqual(h.commitment("c")?.status, .cancelled)
        XCTAssertEqual(h.state.coins, 80)
        h.refuse("commitment.cancel", ["commitment": "c"], .state("commitment", "c"))
        h.refuse("commitment.verify", ["commitment": "c"], .state("commitment", "c"))
        h.advance(to: "2026-03-02 11:50")
        h.refuse("commitment.cancel", ["commitment": "d"], .state("commitment", "d"))
        h.refuse("commitment.cancel", ["commitment": "nope"], .notFound("commitment", "nope"))
        h.refuse("commitment.cancel", [:], .missing("commitment"))
        XCTAssertEqual(h.state.coinsSpent, 0)
        h.assertReplayEqualsLive()
    }

    func testCancellingAWeeklySeriesBetweenOccurrencesEndsIt() {
        var h = harness(coins: 100)
        h.ok("commitment.add", add("w", at: "09:00", stake: 10, ["days": "mon,wed", "until": "2026-03-31"]))
        h.ok("commitment.verify", ["commitment": "w"], at: h.t("2026-03-02 09:00"))
        h.ok("commitment.cancel", ["commitment": "w"], at: h.t("2026-03-03 12:00"))
        XCTAssertEqual(h.state.coins, 100)
        h.advance(to: "2026-03-05 12:00")
        XCTAssertEqual(h.state.coins, 100)
        XCTAssertEqual(h.commitment("w")?.kept, 1)
        // A week after it ended it leaves the live state (on the next commitment event).
        h.ok("commitment.add", add("later", at: "2026-03-12 10:00", stake: 1), at: h.t("2026-03-10 12:00"))
        XCTAssertEqual(h.commitment("w")?.status, .cancelled)
        h.ok("commitment.verify", ["commitment": "later"], at: h.t("2026-03-12 10:00"))
        XCTAssertNil(h.commitment("w"))
        h.assertReplayEqualsLive()
    }

    // MARK: Kinds

    func testWakeUpIsVerifiedByADeviceButtonNotThePhone() {
        var h = harness(coins: 100)
        h.ok("commitment.add", add("up", "wake-up", at: "2026-03-03 07:00", stake: 15))
        h.advance(to: "2026-03-03 06:55")
        XCTAssertEqual(h.state.awaitingButtonPress(at: h.now), ["up"])
        h.refuse("commitment.verify", ["commitment": "up", "source": "phone"], .field("source"))
        h.refuse("commitment.verify", ["commitment": "up"], .field("source"))   // default source: phone
        h.refuse("commitment.verify", ["commitment": "up", "source": "focus"], .field("source"))
        h.refuse("commitment.verify", ["commitment": "up", "source": "watch"], .field("source"))
        let events = h.ok("commitment.verify", ["commitment": "up", "source": "button"])
        XCTAssertTrue(events.kinds.contains(.commitment(.verified(id: "up", n: 0, source: .button, stake: 15))))
        XCTAssertEqual(h.state.awaitingButtonPress(at: h.now), [])
        XCTAssertEqual(h.state.coins, 100)
        h.assertReplayEqualsLive()
    }

    func testOnTimeIsVerifiedOnTheDeviceOrThePhone() {
        var h = harness(coins: 100)
        h.ok("commitment.add", add("a", at: "2026-03-02 10:00", stake: 10))
        h.ok("commitment.add", add("b", at: "2026-03-02 11:00", stake: 10))
        h.ok("commitment.verify", ["commitment": "a", "source": "device"], at: h.t("2026-03-02 10:00"))
        h.ok("commitment.verify", ["commitment": "b", "source": "phone"], at: h.t("2026-03-02 11:00"))
        XCTAssertEqual(h.state.awaitingButtonPress(at: h.t("2026-03-02 11:00")), [], "on-time is not a wake-up")
        XCTAssertEqual(h.state.coins, 100)
    }

    func testPlaceRadiusAndVerdict() {
        var h = harness(coins: 100)
        h.refuse("commitment.add", add("p", "place", ["radius": "49"]), .field("radius"))
        h.refuse("commitment.add", add("p", "place", ["radius": "501"]), .field("radius"))
        h.refuse("commitment.add", add("p", "on-time", ["radius": "100"]), .field("radius"))
        h.ok("commitment.add", add("p", "place", stake: 10))
        XCTAssertEqual(h.commitment("p")?.plan.radius, 50)
        h.ok("commitment.add", add("q", "place", at: "2026-03-02 11:00", stake: 10, ["radius": "500"]))
        XCTAssertEqual(h.commitment("q")?.plan.radius, 500)
        h.advance(to: "2026-03-02 09:55")
        h.refuse("commitment.verify", ["commitment": "p"], .state("commitment", "p"))
        h.refuse("commitment.place-verdict", ["commitment": "p", "ok": "maybe"], .field("ok"))
        h.refuse("commitment.place-verdict", ["commitment": "q", "ok": "yes"], .state("commitment", "q"))
        h.ok("commitment.place-verdict", ["commitment": "p", "ok": "yes"])
        XCTAssertEqual(h.commitment("p")?.kept, 1)
        XCTAssertEqual(h.state.coins, 90)
        // A negative verdict fails at once (no retries), inside the window.
        let events = h.ok("commitment.place-verdict", ["commitment": "q", "ok": "no"], at: h.t("2026-03-02 10:55"))
        XCTAssertTrue(events.kinds.contains(.commitment(.forfeited(id: "q", n: 0, stake: 10, reason: .place))))
        XCTAssertEqual(h.state.commitments.charityJar, 10)
        h.refuse("commitment.place-verdict", ["commitment": "q", "ok": "yes"], .state("commitment", "q"))
        h.ok("commitment.add", add("r", "on-time", at: "2026-03-02 12:00", stake: 10))
        h.advance(to: "2026-03-02 12:00")
        h.refuse("commitment.place-verdict", ["commitment": "r", "ok": "yes"], .state("commitment", "r"))
        h.assertReplayEqualsLive()
    }

    // MARK: Validation

    func testAddValidation() {
        var h = harness(coins: 100)
        h.refuse("commitment.add", add("c", "nap"), .field("kind"))
        h.refuse("commitment.add", ["commitment": "c", "at": "2026-03-02 10:00", "stake": "5"], .missing("kind"))
        h.refuse("commitment.add", ["commitment": "c", "kind": "on-time", "stake": "5"], .missing("at"))
        h.refuse("commitment.add", add("c", at: "soon"), .field("at"))
        h.refuse("commitment.add", add("c", at: "2026-03-02 10:00", ["until": "2026-03-09"]), .field("until"))
        h.refuse("commitment.add", add("c", at: "2026-03-02 10:00", ["days": "mon"]), .field("at"))
        h.refuse("commitment.add", add("c", at: "10:00", ["days": "mon"]), .missing("until"))
        h.refuse("commitment.add", add("c", at: "10:00", ["days": "mon", "until": "next week"]), .field("until"))
        h.refuse("commitment.add", add("c", at: "10:00", ["days": "funday", "until": "2026-03-09"]), .field("days"))
        h.refuse("commitment.add", add("c", at: "10:00", ["days": ",", "until": "2026-03-09"]), .field("days"))
        h.refuse("commitment.add", add("c", at: "25:00", ["days": "mon", "until": "2026-03-09"]), .field("at"))
        h.refuse("commitment.add", add("bad id"), .field("commitment"))
        h.refuse("commitment.add", add("c", "on-time", ["minutes": "25"]), .field("minutes"))
        h.refuse("commitment.add", add("c", "on-time", ["color": "red"]), .field("color"))
        h.ok("commitment.add", add("c", stake: 1))
        h.refuse("commitment.add", add("c", stake: 1), .exists("commitment", "c"))
        h.refuse("commitment.verify", ["commitment": "zzz"], .notFound("commitment", "zzz"))
        h.refuse("commitment.verify", [:], .missing("commitment"))
        h.refuse("commitment.place-verdict", ["commitment": "c"], .missing("ok"))
        h.refuse("commitment.nope", [:], .unknownCommand("commitment.nope"))
        // Full weekday names and the command id as the default commitment id.
        h.ok("commitment.add", ["kind": "on-time", "at": "10:00", "days": "Tuesday,thu", "until": "2026-03-12", "stake": "1"],
             id: "cmd-weekly")
        XCTAssertEqual(h.commitment("cmd-weekly")?.plan.schedule.weekdays, [2, 4])
        h.assertReplayEqualsLive()
    }

    func testAtMostTwentyActiveCommitments() {
        var h = harness(coins: 100)
        for i in 0..<20 { h.ok("commitment.add", add("c\(i)", stake: 1)) }
        h.refuse("commitment.add", add("c20", stake: 1), .limit("active commitments", 20))
        h.ok("commitment.cancel", ["commitment": "c0"])
        h.ok("commitment.add", add("c20", stake: 1))
        XCTAssertEqual(h.state.commitments.active.count, 20)
    }

    func testTheSameCommandIDAppliesOnce() {
        var h = harness(coins: 100)
        h.ok("commitment.add", add("c", stake: 30), id: "same")
        XCTAssertEqual(h.ok("commitment.add", add("c", stake: 30), id: "same"), [])
        XCTAssertEqual(h.state.coins, 70)
        h.ok("commitment.verify", ["commitment": "c"], at: h.t("2026-03-02 10:00"), id: "v")
        XCTAssertEqual(h.ok("commitment.verify", ["commitment": "c"], id: "v"), [])
        XCTAssertEqual(h.state.coins, 100)
        h.assertReplayEqualsLive()
    }

    // MARK: Reminders

    func testTheWindowOpeningIsASolicitedReminderShownOnceOrMissedWhenOff() {
        var h = harness(coins: 100)
        h.ok("commitment.add", add("a", at: "2026-03-02 10:00", stake: 5))
        h.ok("commitment.add", add("b", at: "2026-03-02 12:00", stake: 5))
        let events = h.advance(to: "2026-03-02 09:50")
        let shown = events.compactMap { e -> Reminder? in if case .reminder(.shown(let n)) = e.kind { n } else { nil } }
        XCTAssertEqual(shown.map(\.source), [.commitment])
        XCTAssertEqual(shown.first?.ref, "a")
        XCTAssertEqual(shown.first?.due, h.t("2026-03-02 09:50"))
        XCTAssertEqual(shown.first?.solicited, true)
        XCTAssertTrue(events.types.contains("commitment.window-opened"))
        // The device was off over b's opening: reported once as missed, and b still fails.
        let later = h.advance(to: "2026-03-02 13:00")
        XCTAssertEqual(later.types.filter { $0 == "notice.missed" }.count, 1)
        XCTAssertEqual(h.commitment("b")?.failed, 1)
        h.assertReplayEqualsLive()
    }

    func testStepwiseAndOneJumpAdvanceGiveTheSameJournal() {
        func run(stepwise: Bool) -> [String] {
            var h = harness(coins: 100)
            h.ok("commitment.add", add("w", at: "23:58", stake: 10, ["days": "mon,tue,wed", "until": "2026-03-04"]))
            if stepwise {
                var t = h.now
                while t < h.t("2026-03-05 12:00") { t = t + 7 * 60; h.advance(to: t) }
            } else {
                h.advance(to: "2026-03-05 12:00")
            }
            return h.journal.filter { $0.kind.type.hasPrefix("commitment.") }.map { "\($0.at.seconds) \($0.kind.type)" }
        }
        XCTAssertEqual(run(stepwise: true), run(stepwise: false))
    }
}

/// Random sequences of commitment, focus, task and pause commands with random time steps: coins
/// never go below 0, every coin is accounted for (balance + held + jar = everything earned), the
/// journal replays to the live state, and refusals change nothing.
final class CommitmentPropertyTests: XCTestCase {
    func testRandomSequencesKeepTheInvariants() {
        var seen: Set<String> = []
        for seed in UInt64(1)...12 {
            var rng = SplitMix64(seed: seed)
            var h = Harness(zone: seed % 2 == 0 ? "Europe/Berlin" : "America/New_York", at: "2026-03-05 08:00")
            let ids = ["a", "b", "c", "d"]
            let kinds = ["wake-up", "on-time", "focus", "place"]
            for step in 0..<150 {
                let id = ids[Int(rng.next() % 4)]
                var fields: [String: String] = [:]
                let name: String
                switch rng.next() % 12 {
                case 0, 1:
                    name = "commitment.add"
                    fields = ["commitment": id, "kind": kinds[Int(rng.next() % 4)], "stake": "\(1 + rng.next() % 80)",
                              "window": "\(1 + rng.next() % 30)"]
                    if rng.next() % 2 == 0 {
                        fields["at"] = "+\(10 + rng.next() % 600)m"
                    } else {
                        fields["at"] = "0\(rng.next() % 10):\(10 + rng.next() % 50)"
                        fields["days"] = ["mon,wed", "sun", "tue,thu,sat", "mon,tue,wed,thu,fri"][Int(rng.next() % 4)]
                        fields["until"] = "2026-03-\(10 + rng.next() % 19)"
                    }
                case 2...3 where rng.next() % 2 == 0:
                    // Aim inside the pending occurrence's window (or just outside it).
                    if let o = h.commitment(id)?.current, o.opens > h.now {
                        let span = UInt64(o.closes - o.opens + 2)
                        h.advance(to: o.opens - 1 + Int64(rng.next() % span))
                    }
                    name = h.commitment(id)?.kind == .place ? "commitment.place-verdict" : "commitment.verify"
                    fields = ["commitment": id, "source": rng.next() % 4 == 0 ? "phone" : "button"]
                    if name == "commitment.place-verdict" { fields = ["commitment": id, "ok": rng.next() % 3 == 0 ? "no" : "yes"] }
                case 2: name = "commitment.verify"; fields = ["commitment": id, "source": ["button", "device", "phone"][Int(rng.next() % 3)]]
                case 3: name = "commitment.place-verdict"; fields = ["commitment": id, "ok": rng.next() % 3 == 0 ? "no" : "yes"]
                case 4: name = "commitment.cancel"; fields = ["commitment": id]
                case 5: name = "focus.start"; fields = ["block": "x,y"]; if rng.next() % 2 == 0 { fields["minutes"] = "\(15 + rng.next() % 60)" }
                case 6: name = "focus.cancel"
                case 7: name = "focus.app-used"; fields = ["app": rng.next() % 2 == 0 ? "x" : "z"]
                case 8:
                    let task = "t\(step)"
                    _ = try? h.send("task.create", ["task": task, "title": "T", "estimate": "\(15 + rng.next() % 200)"])
                    name = "task.complete"; fields = ["task": task]
                case 9: name = rng.next() % 3 == 0 ? "pause" : "resume"
                default:
                    h.advance(by: Int64(rng.next() % (8 * 3600)))
                    continue
                }
                let before = h.state
                let count = h.journal.count
                do { try h.send(name, fields) } catch {
                    XCTAssertEqual(h.state, before, "seed \(seed) step \(step): refused \(name) changed the state")
                    XCTAssertEqual(h.journal.count, count)
                }
                XCTAssertGreaterThanOrEqual(h.state.coins, 0)
                var income = 0
                for e in h.journal {
                    switch e.kind {
                    case .taskCompleted(_, _, let r): income += r.coins
                    case .commitment(.focusCompleted(_, _, let r)): income += r.coins
                    default: break
                    }
                }
                let c = h.state.commitments
                XCTAssertEqual(h.state.coins + c.held + c.charityJar, income, "seed \(seed) step \(step)")
                // At most one stake held per commitment, and only for a scheduled occurrence.
                for x in c.items.values where x.status != .active { XCTAssertNil(x.current) }
            }
            h.advance(by: 30 * 86_400)
            XCTAssertEqual(h.state.commitments.held, 0, "seed \(seed): every stake settled after the series ended")
            XCTAssertNil(h.state.commitments.focus)
            h.assertReplayEqualsLive()
            seen.formUnion(h.commitmentTypes)
        }
        XCTAssertEqual(Set(CommitmentEvent.allTypes).subtracting(seen), [], "the sequences reach every event type")
    }
}

extension EventCodingTests {
    /// One example of every commitment and focus event type (listed in JournalTests' examples).
    static func commitmentExamples() -> [EventKind] {
        let once = CommitmentPlan(id: "up", kind: .wakeUp, schedule: .once(Instant(1_772_434_800)), windowMinutes: 10,
                                  stake: 30, radius: nil, focusMinutes: nil)
        let weekly = CommitmentPlan(id: "gym", kind: .place,
                                    schedule: .weekly([1, 3], secondOfDay: 32_400, until: CivilDate(year: 2026, month: 3, day: 31)),
                                    windowMinutes: 120, stake: 1000, radius: 500, focusMinutes: nil)
        let focus = CommitmentPlan(id: "deep", kind: .focus, schedule: .once(Instant(1_772_434_800)), windowMinutes: 1,
                                   stake: 1, radius: nil, focusMinutes: 240)
        let session = FocusSession(id: "f1", start: Instant(1_772_434_800), end: Instant(1_772_436_300), minutes: 25,
                                   blocked: ["com.video", "com.chat"], commitments: ["deep"])
        return [
            .commitment(.added(once)), .commitment(.added(weekly)), .commitment(.added(focus)),
            .commitment(.reserved(id: "up", n: 0, target: Instant(1_772_434_800), stake: 30)),
            .commitment(.unfunded(id: "gym", n: 3, target: Instant(1_772_434_800))),
            .commitment(.windowOpened(id: "up", n: 0)),
            .commitment(.verified(id: "up", n: 0, source: .button, stake: 30)),
            .commitment(.forfeited(id: "gym", n: 2, stake: 1000, reason: .missed)),
            .commitment(.excused(id: "gym", n: 4, stake: 1000)),
            .commitment(.skipped(id: "gym", n: 3)),
            .commitment(.cancelled(id: "gym", stake: 0)),
            .commitment(.finished(id: "up")),
            .commitment(.focusStarted(session)),
            .commitment(.focusCompleted(session: "f1", minutes: 25, reward: Reward(coins: 11, xp: 22))),
            .commitment(.focusFailed(session: "f1", reason: .app, app: "com.chat")),
            .commitment(.focusFailed(session: "f2", reason: .cancelled, app: nil)),
        ]
    }
}
