import XCTest
import PetCore

// docs/commitments.md focus sessions: 15–240 minutes (default 25), one at a time, failing on cancel or on a
// blocked app, completing at their (absolute) end with a task's reward for estimate = length, and
// verifying focus commitments whose window was open when they started.

final class FocusSessionTests: XCTestCase {
    private func harness(coins: Int = 0, zone: String = "UTC", at: String = "2026-03-02 08:00") -> Harness {
        var h = Harness(zone: zone, at: at)
        if coins > 0 { h.commitEarn(coins) }
        return h
    }

    private func focusEvents(_ events: [Event]) -> [CommitmentEvent] {
        events.compactMap { if case .commitment(let e) = $0.kind, e.type.hasPrefix("focus.") { return e } else { return nil } }
    }

    func testMinutesAre15To240Default25() {
        var h = harness()
        h.refuse("focus.start", ["minutes": "14"], .field("minutes"))
        h.refuse("focus.start", ["minutes": "241"], .field("minutes"))
        h.refuse("focus.start", ["minutes": "half"], .field("minutes"))
        h.refuse("focus.start", ["length": "25"], .field("length"))
        h.ok("focus.start", [:], id: "f1")
        let s = h.state.commitments.focus
        XCTAssertEqual(s?.id, "f1")
        XCTAssertEqual(s?.minutes, 25)
        XCTAssertEqual(s?.start, h.t("2026-03-02 08:00"))
        XCTAssertEqual(s?.end, h.t("2026-03-02 08:25"))
        h.advance(to: "2026-03-02 09:00")
        h.ok("focus.start", ["minutes": "15"])
        XCTAssertEqual(h.state.commitments.focus?.end, h.t("2026-03-02 09:15"))
        h.advance(to: "2026-03-02 10:00")
        h.ok("focus.start", ["minutes": "240"])
        XCTAssertEqual(h.state.commitments.focus?.end, h.t("2026-03-02 14:00"))
        h.assertReplayEqualsLive()
    }

    func testOneSessionAtATime() {
        var h = harness()
        h.ok("focus.start", ["minutes": "30"], id: "first")
        h.advance(to: "2026-03-02 08:29:59")
        h.refuse("focus.start", [:], .state("focus session", "first"))
        h.advance(to: "2026-03-02 08:30")
        XCTAssertNil(h.state.commitments.focus)
        h.ok("focus.start", [:])
    }

    func testACompletedSessionEarnsATaskRewardWithEstimateEqualToItsLength() {
        for (minutes, coins) in [(15, 11), (25, 11), (29, 11), (30, 12), (60, 14), (239, 25), (240, 26)] {
            var h = harness()
            h.ok("focus.start", ["minutes": "\(minutes)"], id: "f")
            let events = h.advance(by: Int64(minutes) * 60)
            let expected = RewardRules.taskReward(priority: .normal, timing: .onTime, recurring: false, estimateMinutes: minutes)
            XCTAssertEqual(expected.coins, coins, "\(minutes) min")
            XCTAssertEqual(focusEvents(events), [.focusCompleted(session: "f", minutes: minutes, reward: expected)])
            XCTAssertEqual(h.state.coins, coins)
            XCTAssertEqual(h.state.xp, 2 * coins)
            XCTAssertEqual(h.state.stats[h.state.openDay].focusMinutes, minutes)
            XCTAssertEqual(h.state.stats[h.state.openDay].coinsEarned, coins)
            XCTAssertEqual(h.state.commitments.focusMinutes, minutes)
            XCTAssertEqual(h.state.commitments.focusCompleted, 1)
            XCTAssertNil(h.state.commitments.focus)
            XCTAssertEqual(h.state.mood(at: h.now), .excited)
            XCTAssertEqual(events.saidKeys.last?.hasPrefix("done."), true, "a pet line")
            h.assertReplayEqualsLive()
        }
    }

    func testTheFocusEndIsASolicitedReminder() {
        var h = harness()
        h.ok("focus.start", [:], id: "f")
        let events = h.advance(to: "2026-03-02 08:25")
        let shown = events.compactMap { e -> Reminder? in if case .reminder(.shown(let n)) = e.kind { n } else { nil } }
        XCTAssertEqual(shown, [Reminder(id: "focus:f", source: .focus, ref: "f", due: h.t("2026-03-02 08:25"), solicited: true)])
        // Found late (device off): reported once as missed; the session still completes.
        h.ok("focus.start", [:], id: "g")
        let later = h.advance(to: "2026-03-02 12:00")
        XCTAssertEqual(later.types.filter { $0 == "notice.missed" }.count, 1)
        XCTAssertEqual(h.state.commitments.focusCompleted, 2)
        h.assertReplayEqualsLive()
    }

    func testCompletingASessionCanLevelUp() {
        var h = harness(coins: 35)   // one task: 35 coins, 70 XP (level 2 needs 75)
        XCTAssertEqual(h.state.xp, 70)
        h.ok("focus.start", [:])
        let events = h.advance(to: "2026-03-02 08:25")
        XCTAssertEqual(events.levels, [2])
        XCTAssertEqual(h.state.xp, 92)
        XCTAssertEqual(events.saidKeys.last?.hasPrefix("level."), true)
        h.assertReplayEqualsLive()
    }

    func testCancellingFailsTheSessionAndEarnsNothing() {
        var h = harness()
        h.refuse("focus.cancel", [:], .state("focus session", "none"))
        h.ok("focus.start", [:], id: "f")
        let events = h.ok("focus.cancel", [:], at: h.t("2026-03-02 08:24:59"))
        XCTAssertEqual(focusEvents(events), [.focusFailed(session: "f", reason: .cancelled, app: nil)])
        XCTAssertEqual(h.state.coins, 0)
        XCTAssertEqual(h.state.commitments.focusFailed, 1)
        XCTAssertNil(h.state.commitments.focus)
        let after = h.advance(to: "2026-03-02 09:00")
        XCTAssertTrue(focusEvents(after).isEmpty)
        XCTAssertEqual(h.state.stats[h.state.openDay].focusMinutes, 0)
        h.refuse("focus.cancel", [:], .state("focus session", "none"))
        h.assertReplayEqualsLive()
    }

    func testABlockedAppFailsTheSession() {
        var h = harness()
        h.refuse("focus.start", ["block": "com.video app"], .field("block"))
        h.ok("focus.start", ["block": "com.video, com.chat ,com.video"], id: "f")
        XCTAssertEqual(h.state.commitments.focus?.blocked, ["com.video", "com.chat"])
        h.refuse("focus.app-used", ["app": "com.maps"], .field("app"))
        h.refuse("focus.app-used", [:], .missing("app"))
        let events = h.ok("focus.app-used", ["app": "com.chat"], at: h.t("2026-03-02 08:10"))
        XCTAssertEqual(focusEvents(events), [.focusFailed(session: "f", reason: .app, app: "com.chat")])
        XCTAssertTrue(events.saidKeys.last?.hasPrefix("missed.") ?? false)
        XCTAssertEqual(h.state.coins, 0)
        h.refuse("focus.app-used", ["app": "com.chat"], .state("focus session", "none"))
        // An empty block list: no app can fail it.
        h.ok("focus.start", [:], id: "g")
        h.refuse("focus.app-used", ["app": "com.chat"], .field("app"))
        h.advance(to: "2026-03-02 08:35")
        XCTAssertEqual(h.state.commitments.focusCompleted, 1)
        h.assertReplayEqualsLive()
    }

    func testAtMost32BlockedApps() {
        var h = harness()
        let apps = (0..<33).map { "app\($0)" }
        h.refuse("focus.start", ["block": apps.joined(separator: ",")], .limit("blocked apps", 32))
        h.ok("focus.start", ["block": apps.dropLast().joined(separator: ",")])
    }

    func testASessionThroughADSTChangeLastsItsRealMinutes() {
        // New York, 2026-03-08: 02:00 EST → 03:00 EDT.
        var h = harness(zone: "America/New_York", at: "2026-03-08 01:30")
        h.ok("focus.start", ["minutes": "60"], id: "f")
        let s = h.state.commitments.focus
        XCTAssertEqual(s.map { $0.end - $0.start }, 3600)
        XCTAssertEqual(s.map { h.clock.local($0.end).description }, "2026-03-08 03:30")
        h.advance(to: "2026-03-08 03:29:59")
        XCTAssertNotNil(h.state.commitments.focus)
        h.advance(to: "2026-03-08 03:30")
        XCTAssertEqual(h.state.commitments.focusCompleted, 1)
        XCTAssertEqual(h.state.commitments.focusMinutes, 60)
        // Fall back (2026-11-01 02:00 EDT → 01:00 EST): 01:30 EDT + 60 min = 01:30 EST.
        h.ok("focus.start", ["minutes": "60"], at: wall("2026-11-01 05:30"), id: "g")
        XCTAssertEqual(h.clock.local(h.now).description, "2026-11-01 01:30")
        h.advance(by: 3599)
        XCTAssertNotNil(h.state.commitments.focus)
        h.advance(by: 1)
        XCTAssertEqual(h.clock.local(h.now).description, "2026-11-01 01:30")
        XCTAssertEqual(h.state.commitments.focusCompleted, 2)
        h.assertReplayEqualsLive()
    }

    // MARK: Focus commitments

    private func focusCommitment(_ id: String, at: String = "2026-03-02 14:00", stake: Int = 20,
                                 _ extra: [String: String] = [:]) -> [String: String] {
        var f = ["commitment": id, "kind": "focus", "at": at, "stake": "\(stake)"]
        for (k, v) in extra { f[k] = v }
        return f
    }

    func testFocusCommitmentMinutesAre15To240Default25() {
        var h = harness(coins: 100)
        h.refuse("commitment.add", focusCommitment("c", ["minutes": "14"]), .field("minutes"))
        h.refuse("commitment.add", focusCommitment("c", ["minutes": "241"]), .field("minutes"))
        h.ok("commitment.add", focusCommitment("c"))
        XCTAssertEqual(h.state.commitments.items["c"]?.plan.focusMinutes, 25)
        h.ok("commitment.add", focusCommitment("d", at: "2026-03-02 16:00", ["minutes": "240"]))
        XCTAssertEqual(h.state.commitments.items["d"]?.plan.focusMinutes, 240)
        h.advance(to: "2026-03-02 14:00")
        h.refuse("commitment.verify", ["commitment": "c"], .state("commitment", "c"))
    }

    func testASessionStartedInTheWindowVerifiesTheCommitmentWhenItCompletes() {
        var h = harness(coins: 100)
        h.ok("commitment.add", focusCommitment("c"))
        XCTAssertEqual(h.state.coins, 80)
        // Started at 13:55, inside 13:50–14:10; the length defaults to the commitment's 25 minutes.
        h.ok("focus.start", [:], at: h.t("2026-03-02 13:55"), id: "f")
        XCTAssertEqual(h.state.commitments.focus?.commitments, ["c"])
        XCTAssertEqual(h.state.commitments.focus?.minutes, 25)
        // The window closes while the session runs: no failure.
        let during = h.advance(to: "2026-03-02 14:19:59")
        XCTAssertFalse(during.types.contains("commitment.forfeited"))
        let end = h.advance(to: "2026-03-02 14:20")
        XCTAssertTrue(end.kinds.contains(.commitment(.verified(id: "c", n: 0, source: .focus, stake: 20))))
        XCTAssertEqual(h.state.coins, 100 + 11)
        XCTAssertEqual(h.state.commitments.items["c"]?.status, .finished)
        XCTAssertEqual(h.state.commitments.charityJar, 0)
        h.assertReplayEqualsLive()
    }

    func testTheSessionDefaultsToTheLongestOpenFocusCommitment() {
        var h = harness(coins: 100)
        h.ok("commitment.add", focusCommitment("c", ["minutes": "50"]))
        h.ok("focus.start", [:], at: h.t("2026-03-02 14:00"))
        XCTAssertEqual(h.state.commitments.focus?.minutes, 50)
        XCTAssertEqual(h.state.commitments.focus?.commitments, ["c"])
    }

    func testACancelledOrBrokenSessionFailsItsCommitmentAtOnce() {
        var h = harness(coins: 100)
        h.ok("commitment.add", focusCommitment("c"))
        h.ok("commitment.add", focusCommitment("d", at: "2026-03-02 16:00"))
        h.ok("focus.start", [:], at: h.t("2026-03-02 14:00"))
        let events = h.ok("focus.cancel", [:], at: h.t("2026-03-02 14:05"))
        XCTAssertTrue(events.kinds.contains(.commitment(.forfeited(id: "c", n: 0, stake: 20, reason: .focus))))
        XCTAssertEqual(h.state.commitments.charityJar, 20)
        // No retry inside the same window.
        h.ok("focus.start", [:], at: h.t("2026-03-02 14:06"))
        XCTAssertEqual(h.state.commitments.focus?.commitments, [])
        h.ok("focus.cancel", [:])
        h.ok("focus.start", ["block": "com.game"], at: h.t("2026-03-02 16:00"))
        let broken = h.ok("focus.app-used", ["app": "com.game"], at: h.t("2026-03-02 16:24"))
        XCTAssertTrue(broken.kinds.contains(.commitment(.forfeited(id: "d", n: 0, stake: 20, reason: .focus))))
        XCTAssertEqual(h.state.commitments.charityJar, 40)
        XCTAssertEqual(h.state.coins, 60)
        h.assertReplayEqualsLive()
    }

    func testNoSessionOrOneStartedOutsideTheWindowOrTooShortFails() {
        var h = harness(coins: 100)
        h.ok("commitment.add", focusCommitment("none"))
        h.ok("commitment.add", focusCommitment("before", at: "2026-03-02 16:00"))
        h.ok("commitment.add", focusCommitment("short", at: "2026-03-02 18:00", ["minutes": "50"]))
        h.advance(to: "2026-03-02 14:10:01")
        XCTAssertEqual(h.state.commitments.items["none"]?.failed, 1)
        // Started at 15:49:59, one second before the window: it does not count.
        h.ok("focus.start", ["minutes": "30"], at: h.t("2026-03-02 15:49:59"))
        XCTAssertEqual(h.state.commitments.focus?.commitments, [])
        h.advance(to: "2026-03-02 16:20")
        XCTAssertEqual(h.state.commitments.items["before"]?.failed, 1)
        // 25 minutes started in the window of a 50-minute commitment: not linked.
        h.ok("focus.start", ["minutes": "25"], at: h.t("2026-03-02 18:00"))
        XCTAssertEqual(h.state.commitments.focus?.commitments, [])
        h.advance(to: "2026-03-02 18:30")
        XCTAssertEqual(h.state.commitments.items["short"]?.failed, 1)
        XCTAssertEqual(h.state.commitments.charityJar, 60)
        XCTAssertEqual(h.state.coins, 40 + 12 + 11, "two sessions still earned their own rewards")
        h.assertReplayEqualsLive()
    }

    func testAWeeklyFocusCommitmentGoesOnAfterItsSession() {
        var h = harness(coins: 100)
        h.ok("commitment.add", focusCommitment("w", at: "09:00", ["days": "mon,tue", "until": "2026-03-03"]))
        h.ok("focus.start", [:], at: h.t("2026-03-02 09:00"))
        h.advance(to: "2026-03-02 09:25")
        XCTAssertEqual(h.state.commitments.items["w"]?.kept, 1)
        XCTAssertEqual(h.state.commitments.items["w"]?.current?.target, h.t("2026-03-03 09:00"))
        XCTAssertEqual(h.state.commitments.held, 20)
        h.assertReplayEqualsLive()
    }
}
