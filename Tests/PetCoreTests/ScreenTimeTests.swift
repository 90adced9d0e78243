import XCTest
import PetCore

/// Screen time and challenges (docs/screen-time.md). 2026-03-02 is a Monday; day start 03:00.
final class ScreenTimeTests: XCTestCase {
    /// Reports a session; sent at its end if that is later than now.
    private func session(_ h: inout Harness, _ app: String, _ start: String, _ end: String,
                         file: StaticString = #filePath, line: UInt = #line) {
        let at = max(h.now, h.t(end))
        h.ok("screen.session", ["app": app, "start": start, "end": end], at: at, file: file, line: line)
    }

    private func minutes(_ h: Harness, _ app: String, _ date: String) -> Int? {
        h.state.appMinutes(day: dayNumber(date))[app]
    }

    // MARK: - Sessions and totals

    func testSessionsAddUpPerAppAndDay() {
        var h = Harness(at: "2026-03-02 23:00")
        session(&h, "YouTube", "2026-03-02 10:00", "2026-03-02 10:45")
        session(&h, "youtube", "2026-03-02 20:00", "2026-03-02 20:30")
        session(&h, "com.whatsapp", "2026-03-02 21:00", "2026-03-02 21:02")
        XCTAssertEqual(minutes(h, "youtube", "2026-03-02"), 75, "app ids are lower-cased")
        XCTAssertEqual(minutes(h, "com.whatsapp", "2026-03-02"), 2)
        XCTAssertEqual(h.state.appTime.knownApps, ["youtube", "com.whatsapp"])
        h.assertReplayEqualsLive()
    }

    func testASessionIsSplitAtTheDayStart() {
        var h = Harness(at: "2026-03-03 12:00")
        // Day start 03:00: 02:30–03:30 is half Monday, half Tuesday.
        session(&h, "youtube", "2026-03-03 02:30", "2026-03-03 03:30")
        XCTAssertEqual(minutes(h, "youtube", "2026-03-02"), 30)
        XCTAssertEqual(minutes(h, "youtube", "2026-03-03"), 30)
        // Midnight is not a boundary: 23:30–00:30 is all Monday.
        session(&h, "tiktok", "2026-03-02 23:30", "2026-03-03 00:30")
        XCTAssertEqual(minutes(h, "tiktok", "2026-03-02"), 60)
        XCTAssertNil(minutes(h, "tiktok", "2026-03-03"))
        // With day start 0, midnight is the boundary.
        var m = Harness(at: "2026-03-03 12:00", dayStart: 0)
        session(&m, "tiktok", "2026-03-02 23:30", "2026-03-03 00:30")
        XCTAssertEqual(minutes(m, "tiktok", "2026-03-02"), 30)
        XCTAssertEqual(minutes(m, "tiktok", "2026-03-03"), 30)
        // A session over three days.
        session(&m, "netflix", "2026-03-01 12:00", "2026-03-02 12:00")
        XCTAssertEqual(minutes(m, "netflix", "2026-03-01"), 720)
        XCTAssertEqual(minutes(m, "netflix", "2026-03-02"), 720)
    }

    func testSplittingAcrossDSTSpringForward() {
        // Berlin 2026-03-29: 02:00 CET → 03:00 CEST. 01:30 CET – 03:30 CEST is one real hour; the
        // day (start 03:00) begins at 03:00 CEST.
        var h = Harness(zone: "Europe/Berlin", at: "2026-03-29 12:00")
        session(&h, "youtube", "2026-03-29 01:30", "2026-03-29 03:30")
        XCTAssertEqual(minutes(h, "youtube", "2026-03-28"), 30)
        XCTAssertEqual(minutes(h, "youtube", "2026-03-29"), 30)
    }

    func testSplittingAcrossDSTFallBack() {
        // New York 2026-11-01: 02:00 EDT → 01:00 EST. 23:00 EDT Oct 31 → 03:30 EST is 5.5 hours;
        // Oct 31's day (25 hours long) ends at 03:00 EST.
        var h = Harness(zone: "America/New_York", at: "2026-11-01 12:00")
        session(&h, "youtube", "2026-10-31 23:00", "2026-11-01 03:30")
        XCTAssertEqual(minutes(h, "youtube", "2026-10-31"), 300)
        XCTAssertEqual(minutes(h, "youtube", "2026-11-01"), 30)
        h.assertReplayEqualsLive()
    }

    func testSecondsRoundToTheNearestMinutePerDayTotal() {
        XCTAssertEqual(AppTimeRules.minutes(seconds: 29), 0)
        XCTAssertEqual(AppTimeRules.minutes(seconds: 30), 1)
        XCTAssertEqual(AppTimeRules.minutes(seconds: 89), 1)
        XCTAssertEqual(AppTimeRules.minutes(seconds: 90), 2)
        var h = Harness(at: "2026-03-02 12:00")
        session(&h, "whatsapp", "2026-03-02 10:00:00", "2026-03-02 10:00:29")
        XCTAssertEqual(minutes(h, "whatsapp", "2026-03-02"), 0)
        // The day's seconds add up before rounding: 29 + 40 + 40 = 109 s → 2 minutes.
        session(&h, "whatsapp", "2026-03-02 11:00:00", "2026-03-02 11:00:40")
        XCTAssertEqual(minutes(h, "whatsapp", "2026-03-02"), 1)
        session(&h, "whatsapp", "2026-03-02 11:30:00", "2026-03-02 11:30:40")
        XCTAssertEqual(minutes(h, "whatsapp", "2026-03-02"), 2)
    }

    func testWeekAndMonthSums() {
        var h = Harness(at: "2026-03-09 12:00")   // Monday
        // Sunday Mar 1 (previous week), Mon 2, Wed 4, Sun 8 (this week), Mon 9 (next week).
        session(&h, "youtube", "2026-03-02 10:00", "2026-03-02 11:00")
        session(&h, "youtube", "2026-03-04 10:00", "2026-03-04 10:20")
        session(&h, "youtube", "2026-03-08 22:00", "2026-03-09 01:00")   // Sunday (until 03:00)
        session(&h, "youtube", "2026-03-09 09:00", "2026-03-09 09:05")
        session(&h, "instagram", "2026-03-05 09:00", "2026-03-05 09:10")
        let week = h.state.appMinutes(weekOf: dayNumber("2026-03-04"))
        XCTAssertEqual(week["youtube"], 60 + 20 + 180)
        XCTAssertEqual(week["instagram"], 10)
        XCTAssertEqual(h.state.appMinutes(weekOf: dayNumber("2026-03-08")), week, "Sunday is in the same week")
        XCTAssertEqual(h.state.appMinutes(weekOf: dayNumber("2026-03-09"))["youtube"], 5)
        XCTAssertEqual(h.state.appMinutes(year: 2026, month: 3)["youtube"], 265)
        XCTAssertEqual(h.state.appMinutes(year: 2026, month: 2), [:])
        XCTAssertEqual(h.state.appMinutes(year: 2026, month: 13), [:])
        // The last day of February collects a session that ends before March 1's day start.
        var f = Harness(at: "2026-03-01 12:00")
        session(&f, "youtube", "2026-03-01 02:00", "2026-03-01 02:30")
        XCTAssertEqual(f.state.appMinutes(year: 2026, month: 2)["youtube"], 30)
        XCTAssertEqual(f.state.appMinutes(year: 2026, month: 3)["youtube"], nil)
    }

    func testSessionRefusals() {
        var h = Harness(at: "2026-03-10 12:00")
        h.refuse("screen.session", ["app": "youtube", "start": "2026-03-10 10:00", "end": "2026-03-10 09:00"], .field("end"))
        h.refuse("screen.session", ["app": "youtube", "start": "2026-03-10 10:00", "end": "2026-03-10 10:00"], .field("end"))
        h.refuse("screen.session", ["app": "youtube", "start": "2026-03-10 11:00", "end": "2026-03-10 12:01"], .field("end"))
        h.refuse("screen.session", ["app": "youtube", "start": "2026-03-08 10:00", "end": "2026-03-09 10:01"], .field("end"))
        // Day start 03:00: the oldest allowed start is Mar 3 03:00 (seven days before today's day).
        h.refuse("screen.session", ["app": "youtube", "start": "2026-03-03 02:59", "end": "2026-03-03 04:00"], .field("start"))
        h.ok("screen.session", ["app": "youtube", "start": "2026-03-03 03:00", "end": "2026-03-03 04:00"])
        h.refuse("screen.session", ["app": "You Tube", "start": "2026-03-10 10:00", "end": "2026-03-10 10:30"], .field("app"))
        h.refuse("screen.session", ["app": "", "start": "2026-03-10 10:00", "end": "2026-03-10 10:30"], .field("app"))
        h.refuse("screen.session", ["start": "2026-03-10 10:00", "end": "2026-03-10 10:30"], .missing("app"))
        h.refuse("screen.session", ["app": "youtube", "end": "2026-03-10 10:30"], .missing("start"))
        h.refuse("screen.session", ["app": "youtube", "start": "2026-03-10 10:00"], .missing("end"))
        h.refuse("screen.session", ["app": "youtube", "start": "ten", "end": "2026-03-10 10:30"], .field("start"))
        h.refuse("screen.session", ["app": "youtube", "start": "2026-03-10 10:00", "end": "2026-03-10 10:30",
                                    "title": "x"], .field("title"))
        // Duplicates and overlaps of the same app are refused; another app may overlap.
        h.ok("screen.session", ["app": "youtube", "start": "2026-03-10 10:00", "end": "2026-03-10 10:30"])
        let start = h.t("2026-03-10 10:00").seconds
        h.refuse("screen.session", ["app": "youtube", "start": "2026-03-10 10:00", "end": "2026-03-10 10:30"],
                 .exists("session", "youtube@\(start)"))
        let s2 = h.t("2026-03-10 10:29").seconds
        h.refuse("screen.session", ["app": "YouTube", "start": "2026-03-10 10:29", "end": "2026-03-10 11:00"],
                 .exists("session", "youtube@\(s2)"))
        h.ok("screen.session", ["app": "youtube", "start": "2026-03-10 10:30", "end": "2026-03-10 11:00"])
        h.ok("screen.session", ["app": "instagram", "start": "2026-03-10 10:00", "end": "2026-03-10 10:30"])
        XCTAssertEqual(minutes(h, "youtube", "2026-03-10"), 60)
        // The same command id twice changes nothing.
        h.ok("screen.session", ["app": "tiktok", "start": "2026-03-10 09:00", "end": "2026-03-10 09:10"], id: "s-1")
        let before = h.state
        XCTAssertTrue(h.ok("screen.session", ["app": "tiktok", "start": "2026-03-10 08:00", "end": "2026-03-10 08:10"],
                           id: "s-1").isEmpty)
        XCTAssertEqual(h.state, before)
        h.assertReplayEqualsLive()
    }

    func testLateSessionsStillRefuseOverlapsAcrossTheKeptWindow() {
        var h = Harness(at: "2026-03-02 12:00")
        session(&h, "youtube", "2026-03-02 10:00", "2026-03-02 11:00")
        h.advance(to: "2026-03-08 12:00")
        h.refuse("screen.session", ["app": "youtube", "start": "2026-03-02 10:30", "end": "2026-03-02 10:40"],
                 .exists("session", "youtube@\(h.t("2026-03-02 10:30").seconds)"))
        XCTAssertEqual(minutes(h, "youtube", "2026-03-02"), 60)
    }

    // MARK: - Private apps

    func testPrivateAppsAreCountedButNotShared() {
        var h = Harness(at: "2026-03-02 12:00")
        session(&h, "youtube", "2026-03-02 10:00", "2026-03-02 10:30")
        session(&h, "dating.app", "2026-03-02 10:00", "2026-03-02 10:20")
        XCTAssertEqual(h.state.shareableApps(), ["dating.app", "youtube"])
        h.ok("screen.private", ["app": "Dating.App", "on": "yes"])
        XCTAssertEqual(h.state.shareableApps(), ["youtube"])
        XCTAssertEqual(minutes(h, "dating.app", "2026-03-02"), 20, "still counted in totals")
        XCTAssertEqual(h.state.shareableAppMinutes(day: dayNumber("2026-03-02")), ["youtube": 30])
        h.refuse("screen.private", ["app": "dating.app", "on": "yes"], .state("app", "dating.app"))
        h.refuse("screen.private", ["app": "youtube", "on": "no"], .state("app", "youtube"))
        h.refuse("screen.private", ["app": "youtube", "on": "maybe"], .field("on"))
        h.refuse("screen.private", ["app": "youtube"], .missing("on"))
        // An app may be marked before it is ever reported.
        h.ok("screen.private", ["app": "bank", "on": "yes"])
        XCTAssertEqual(h.state.shareableApps(), ["youtube"])
        h.ok("screen.private", ["app": "dating.app", "on": "no"])
        XCTAssertEqual(h.state.shareableApps(), ["dating.app", "youtube"])
        h.assertReplayEqualsLive()
    }

    // MARK: - Challenges

    func testDifficultyFormula() {
        XCTAssertEqual([0, 1, 5, 15, 30, 60, 120, 227, 228, 1440].map { ChallengeRules.perDay(limitMinutes: $0) },
                       [20, 19, 15, 9, 6, 4, 2, 2, 1, 1])
        XCTAssertEqual(ChallengeRules.reward(limitMinutes: 0, days: 1), 20)
        XCTAssertEqual(ChallengeRules.reward(limitMinutes: 1, days: 3), 57)
        XCTAssertEqual(ChallengeRules.reward(limitMinutes: 120, days: 7), 18)
        XCTAssertEqual(ChallengeRules.reward(limitMinutes: 30, days: 7), 54)
        XCTAssertEqual(ChallengeRules.reward(limitMinutes: 60, days: 14), 72)
        XCTAssertEqual(ChallengeRules.reward(limitMinutes: 0, days: 30), 760)
        XCTAssertEqual(ChallengeRules.reward(limitMinutes: 1440, days: 1), 1)
        // Tighter pays at least as much, longer pays more.
        for days in 1...30 {
            for limit in 0..<300 {
                XCTAssertGreaterThanOrEqual(ChallengeRules.reward(limitMinutes: limit, days: days),
                                            ChallengeRules.reward(limitMinutes: limit + 1, days: days))
                XCTAssertGreaterThan(ChallengeRules.reward(limitMinutes: limit, days: days + 1),
                                     ChallengeRules.reward(limitMinutes: limit, days: days))
            }
        }
    }

    func testBuiltInKindsAreData() {
        XCTAssertEqual(ChallengeRules.builtIn.map(\.id), ["youtube-2h-fast", "whatsapp-1-minute", "instagram-detox-day"])
        let yt = ChallengeRules.kind(id: "youtube-2h-fast")
        XCTAssertEqual(yt?.app, "youtube")
        XCTAssertEqual(yt?.limitMinutes, 120)
        XCTAssertEqual(yt?.days, 7)
        XCTAssertEqual(yt?.stake, 15)
        for k in ChallengeRules.builtIn { XCTAssertNotNil(Badges.kind(id: "challenge-" + k.id), k.id) }
        XCTAssertNotNil(Badges.kind(id: "challenge-custom"))
    }

    func testCompletingPaysTheFormulaAndTheBadgeOnce() {
        var h = Harness(at: "2026-03-02 10:00")
        let started = h.ok("challenge.start", ["kind": "instagram-detox-day"])
        guard case .appTime(.challengeStarted(let ch))? = started.first?.kind else { return XCTFail("not started") }
        XCTAssertEqual(ch.startDay, dayNumber("2026-03-03"), "runs from the next day")
        // Today does not count: an hour of Instagram on Monday is fine.
        session(&h, "instagram", "2026-03-02 10:00", "2026-03-02 11:00")
        let monClose = h.advance(to: "2026-03-03 03:00")
        XCTAssertFalse(monClose.types.contains { $0.hasPrefix("challenge.") })
        // Tuesday: nothing → completed at Tuesday's close, 20 coins, badge, celebration.
        let close = h.advance(to: "2026-03-04 03:00")
        XCTAssertEqual(close.types.filter { $0.hasPrefix("challenge.") }, ["challenge.day-passed", "challenge.completed"])
        guard case let .appTime(.completed(app, kind, coins, sound))? = close.first("challenge.completed")?.kind else {
            return XCTFail("no completion")
        }
        XCTAssertEqual([app, kind], ["instagram", "instagram-detox-day"])
        XCTAssertEqual(coins, 20)
        XCTAssertEqual(sound, .celebration)
        XCTAssertEqual(close.badges, ["challenge-instagram-detox-day"])
        XCTAssertEqual(h.state.coins, 20)
        XCTAssertNil(h.state.appTime.active["instagram"])
        XCTAssertEqual(h.state.appTime.lastSound?.sound, .celebration)
        // Again: coins again, the badge not again.
        h.ok("challenge.start", ["kind": "instagram-detox-day"], at: h.t("2026-03-04 09:00"))
        let again = h.advance(to: "2026-03-06 03:00")
        XCTAssertEqual(again.types.filter { $0 == "challenge.completed" }.count, 1)
        XCTAssertEqual(again.badges, [])
        XCTAssertEqual(h.state.coins, 40)
        XCTAssertEqual(h.journal.badges.filter { $0 == "challenge-instagram-detox-day" }, ["challenge-instagram-detox-day"])
        XCTAssertEqual(h.state.appTime.completed, 2)
        h.assertReplayEqualsLive()
    }

    func testUnderTheLimitEveryDayCompletesAMultiDayChallenge() {
        var h = Harness(at: "2026-03-02 10:00")
        h.ok("challenge.start", ["kind": "youtube-2h-fast"])
        // Tue–Mon: 120 minutes each day is allowed (the limit is "at most").
        for d in 3...9 {
            let date = "2026-03-0\(d)"
            session(&h, "youtube", date + " 18:00", date + " 20:00")
        }
        XCTAssertEqual(h.state.appTime.active["youtube"]?.passedDays, 6)
        let close = h.advance(to: "2026-03-10 03:00")
        guard case let .appTime(.completed(_, _, coins, _))? = close.first("challenge.completed")?.kind else {
            return XCTFail("no completion")
        }
        // ⌈240 / 132⌉ = 2 per day × 7 + 2 × 2 for the full week = 18
        XCTAssertEqual(coins, 18)
        XCTAssertNotNil(h.state.badges["challenge-youtube-2h-fast"])
        h.assertReplayEqualsLive()
    }

    func testExceedingForfeitsTheStakeNeverBelowZero() {
        var h = Harness(at: "2026-03-02 10:00")
        h.ok("challenge.start", ["kind": "whatsapp-1-minute"])
        // 0 coins: the forfeit costs min(10, 0) = 0.
        session(&h, "whatsapp", "2026-03-03 09:00:00", "2026-03-03 09:01:29")   // 89 s → 1 min: fine
        h.advance(to: "2026-03-04 03:00")
        XCTAssertEqual(h.state.appTime.active["whatsapp"]?.passedDays, 1)
        session(&h, "whatsapp", "2026-03-04 09:00:00", "2026-03-04 09:01:30")   // 90 s → 2 min: over
        let close = h.advance(to: "2026-03-05 03:00")
        guard case let .appTime(.forfeited(app, _, cost, reason, day, mins, sound))? = close.first("challenge.forfeited")?.kind else {
            return XCTFail("no forfeit")
        }
        XCTAssertEqual(app, "whatsapp")
        XCTAssertEqual(cost, 0)
        XCTAssertEqual(reason, .exceeded)
        XCTAssertEqual(day, dayNumber("2026-03-04"))
        XCTAssertEqual(mins, 2)
        XCTAssertEqual(sound, .strongBuzz)
        XCTAssertEqual(h.state.coins, 0)
        XCTAssertNil(h.state.appTime.active["whatsapp"])
        XCTAssertEqual(h.state.appTime.forfeited, 1)
        XCTAssertNil(h.state.badges["challenge-whatsapp-1-minute"])
        h.assertReplayEqualsLive()
    }

    func testForfeitTakesTheStakeOrTheWholeBalance() {
        var h = Harness(at: "2026-03-02 10:00")
        h.ok("task.create", ["task": "a", "title": "Work"])
        h.ok("task.complete", ["task": "a"])   // normal, no due: 10 coins
        XCTAssertEqual(h.state.coins, 10)
        h.ok("challenge.start", ["app": "tiktok", "limit": "30", "days": "5", "stake": "4"])
        let gaveUp = h.ok("challenge.forfeit", ["app": "TikTok"])
        guard case let .appTime(.forfeited(_, kind, cost, reason, _, _, sound))? = gaveUp.first?.kind else {
            return XCTFail("no forfeit")
        }
        XCTAssertEqual(kind, "custom")
        XCTAssertEqual(cost, 4)
        XCTAssertEqual(reason, .givenUp)
        XCTAssertEqual(sound, .strongBuzz)
        XCTAssertEqual(h.state.coins, 6)
        XCTAssertEqual(h.state.coinsSpent, 4)
        // A stake larger than the balance takes the balance: 15 vs 6 → 6.
        h.ok("challenge.start", ["kind": "youtube-2h-fast"])
        h.ok("challenge.forfeit", ["app": "youtube"])
        XCTAssertEqual(h.state.coins, 0)
        // With nothing left it costs nothing.
        h.ok("challenge.start", ["kind": "youtube-2h-fast"])
        XCTAssertEqual(h.ok("challenge.forfeit", ["app": "youtube"]).first?.kind.coinsDelta, 0)
        XCTAssertEqual(h.state.coins, 0)
        h.refuse("challenge.forfeit", ["app": "youtube"], .notFound("challenge", "youtube"))
        h.refuse("challenge.forfeit", [:], .missing("app"))
        h.assertReplayEqualsLive()
    }

    func testChallengeStartRefusals() {
        var h = Harness(at: "2026-03-02 10:00")
        h.refuse("challenge.start", [:], .missing("kind"))
        h.refuse("challenge.start", ["kind": "tetris-week"], .notFound("challenge kind", "tetris-week"))
        h.refuse("challenge.start", ["kind": "youtube-2h-fast", "stake": "50"], .field("stake"))
        h.refuse("challenge.start", ["kind": "youtube-2h-fast", "app": "x"], .field("app"))
        h.refuse("challenge.start", ["app": "tiktok", "days": "3"], .missing("limit"))
        h.refuse("challenge.start", ["app": "tiktok", "limit": "3"], .missing("days"))
        h.refuse("challenge.start", ["app": "tiktok", "limit": "-1", "days": "3"], .field("limit"))
        h.refuse("challenge.start", ["app": "tiktok", "limit": "1441", "days": "3"], .field("limit"))
        h.refuse("challenge.start", ["app": "tiktok", "limit": "10", "days": "0"], .field("days"))
        h.refuse("challenge.start", ["app": "tiktok", "limit": "10", "days": "91"], .field("days"))
        h.refuse("challenge.start", ["app": "tiktok", "limit": "10", "days": "3", "stake": "1001"], .field("stake"))
        h.refuse("challenge.start", ["app": "tiktok", "limit": "10", "days": "3", "stake": "-1"], .field("stake"))
        h.refuse("challenge.start", ["app": "tik tok", "limit": "10", "days": "3"], .field("app"))
        h.refuse("challenge.start", ["app": "tiktok", "limit": "ten", "days": "3"], .field("limit"))
        // One active challenge per app (a built-in one counts for its app).
        h.ok("challenge.start", ["app": "YouTube", "limit": "0", "days": "1"])
        h.refuse("challenge.start", ["kind": "youtube-2h-fast"], .exists("challenge", "youtube"))
        h.refuse("challenge.start", ["app": "youtube", "limit": "10", "days": "2"], .exists("challenge", "youtube"))
        h.ok("challenge.start", ["app": "tiktok", "limit": "10", "days": "2"])
        XCTAssertEqual(h.state.appTime.active.keys.sorted(), ["tiktok", "youtube"])
        XCTAssertEqual(h.state.appTime.active["youtube"]?.stake, 0, "custom stake defaults to 0")
    }

    func testAPausedDayIsNotJudgedAndExtendsTheChallenge() {
        var h = Harness(at: "2026-03-02 10:00")
        h.ok("challenge.start", ["app": "youtube", "limit": "10", "days": "2", "stake": "5"])
        h.advance(to: "2026-03-04 03:00")   // Tuesday passes (0 min)
        h.ok("pause", [:], at: h.t("2026-03-04 09:00"))
        session(&h, "youtube", "2026-03-04 10:00", "2026-03-04 14:00")   // 240 min on a paused day
        let paused = h.advance(to: "2026-03-05 03:00")
        XCTAssertFalse(paused.types.contains { $0.hasPrefix("challenge.") })
        XCTAssertEqual(h.state.appTime.active["youtube"]?.passedDays, 1)
        h.ok("resume", [:], at: h.t("2026-03-05 09:00"))
        let close = h.advance(to: "2026-03-06 03:00")
        XCTAssertEqual(close.types.filter { $0.hasPrefix("challenge.") }, ["challenge.day-passed", "challenge.completed"])
        // ⌈240 / 22⌉ = 11 × 2 = 22
        XCTAssertEqual(h.state.coins, 22)
        XCTAssertNotNil(h.state.badges["challenge-custom"])
        h.assertReplayEqualsLive()
    }

    func testTwoChallengesJudgedTheSameNight() {
        var h = Harness(at: "2026-03-02 10:00")
        h.ok("task.create", ["task": "a", "title": "Work", "priority": "high"])
        h.ok("task.complete", ["task": "a"])   // 20 coins
        h.ok("challenge.start", ["app": "alpha", "limit": "5", "days": "3", "stake": "15"])
        h.ok("challenge.start", ["app": "beta", "limit": "5", "days": "3", "stake": "15"])
        session(&h, "alpha", "2026-03-03 10:00", "2026-03-03 11:00")
        session(&h, "beta", "2026-03-03 10:00", "2026-03-03 11:00")
        h.advance(to: "2026-03-04 03:00")
        // alpha first (app order): 15 of 20; beta: min(15, 5) = 5.
        let costs = h.journal.compactMap { e -> Int? in
            if case let .appTime(.forfeited(_, _, cost, _, _, _, _)) = e.kind { return cost } else { return nil }
        }
        XCTAssertEqual(costs, [15, 5])
        XCTAssertEqual(h.state.coins, 0)
        h.assertReplayEqualsLive()
    }
}

extension EventCodingTests {
    /// One example of every screen-time/challenge event type, optional fields set and absent.
    static func screenExamples() -> [EventKind] {
        let ch = Challenge(id: "cmd-1", kind: "youtube-2h-fast", app: "youtube", limitMinutes: 120, days: 7, stake: 15,
                           startDay: 20515, passedDays: 0)
        return [
            .appTime(.session(app: "youtube", start: Instant(1_772_434_800), end: Instant(1_772_436_600))),
            .appTime(.privacy(app: "dating.app", on: true)), .appTime(.challengeStarted(ch)),
            .appTime(.dayPassed(app: "youtube", day: 20515, minutes: 118)),
            .appTime(.completed(app: "youtube", kind: "youtube-2h-fast", coins: 18, sound: .celebration)),
            .appTime(.forfeited(app: "youtube", kind: "custom", cost: 4, reason: .exceeded, day: 20516, minutes: 121,
                               sound: .strongBuzz)),
            .appTime(.forfeited(app: "youtube", kind: "custom", cost: 0, reason: .givenUp, day: nil, minutes: nil,
                               sound: .strongBuzz)),
        ]
    }
}
