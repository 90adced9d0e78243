import Foundation
import XCTest
import TestSupport
@testable import PetCore

/// The stake ledger of circles on the device (docs/circles.md#on-the-device): stakes held on
/// accept, settled or forfeited as journaled events, the same settlement on every member's device
/// whatever order the finals came in, coins conserved, a replay giving the same coins.
final class CircleLedgerTests: XCTestCase {
    /// A device of a member: a harness with some coins earned from tasks, joined to "friends".
    private func device(_ member: String, tasks: Int = 6, share: String = "all", at text: String = "2026-03-02 09:00") -> Harness {
        var h = Harness(at: text)
        for i in 0..<tasks {
            h.ok("task.create", ["task": "t\(i)", "title": "secret title \(i)"])
            h.ok("task.complete", ["task": "t\(i)"])
        }
        h.ok("circle.join", ["circle": "friends", "member": member, "share": share, "screen_goal": "90"])
        return h
    }

    private func acceptFields(stake: Int = 10, goal: String = "tasks:2", start: String = "@1772496000", days: Int64 = 3) -> [String: String] {
        let s = Instant(1_772_496_000)   // 2026-03-03 00:00 UTC
        return ["circle": "friends", "challenge": "ana1-1", "proposer": "ana1", "goal": goal,
                "start": start, "end": "@\((s + days * Seconds.day).seconds)", "stake": "\(stake)"]
    }

    /// A member's own final, as its bridge would read it from that member's report.
    private func finalFields(of h: Harness, challenge: String = "ana1-1") -> [String: String]? {
        guard let m = h.state.circles.circles["friends"]?.member,
              let p = h.state.circles.challenges[challenge]?.finals[m], let at = p.finalAt else { return nil }
        return ["circle": "friends", "challenge": p.challenge, "member": m, "met": p.met ? "yes" : "no",
                "value": "\(p.value)", "final_at": "@\(at.seconds)", "left": p.left ? "yes" : "no"]
    }

    func testAStakeIsHeldOnAcceptAndTheSettlementIsTheSameOnEveryDeviceAndConservesCoins() {
        var devices = [device("ana1"), device("bob2"), device("cid3")]
        let before = devices.map { $0.state.coins }
        XCTAssertTrue(before.allSatisfy { $0 >= 10 }, "\(before)")
        for i in devices.indices { devices[i].ok("circle.accept", acceptFields()) }
        for (i, d) in devices.enumerated() {
            XCTAssertEqual(d.state.coins, before[i] - 10)
            XCTAssertEqual(d.state.circles.held, 10)
        }
        // In the window: ana1 and bob2 do two tasks a day … only ana1 and bob2 reach 2 tasks.
        devices[0].advance(to: "2026-03-03 10:00")
        devices[1].advance(to: "2026-03-03 10:00")
        for i in 0...1 {
            for k in 0..<2 {
                devices[i].ok("task.create", ["task": "w\(k)", "title": "window \(k)"])
                devices[i].ok("task.complete", ["task": "w\(k)"])
            }
        }
        let earned = devices.map { $0.state.coins }
        // Before the end a settlement is refused, and so is judging anything.
        devices[0].refuse("circle.settle", ["circle": "friends", "challenge": "ana1-1", "members": "ana1,bob2,cid3"],
                          .state("challenge", "ana1-1"))
        // The window closes (2026-03-06 00:00); every device judges its own member.
        for i in devices.indices {
            devices[i].advance(to: "2026-03-06 08:00")
            devices[i].ok("circle.judge", ["circle": "friends"])
        }
        XCTAssertEqual(devices.map { $0.state.circles.challenges["ana1-1"]!.finals.values.first!.met }, [true, true, false])
        // Every device gets the others' finals, in its own order, some twice.
        let finals = devices.compactMap { finalFields(of: $0) }
        XCTAssertEqual(finals.count, 3)
        for i in devices.indices {
            var order = finals.filter { $0["member"] != devices[i].state.circles.circles["friends"]!.member }
            order = i == 1 ? order.reversed() + order : order
            for f in order { devices[i].ok("circle.final", f) }
        }
        for i in devices.indices {
            devices[i].ok("circle.settle", ["circle": "friends", "challenge": "ana1-1", "members": i == 2 ? "cid3,bob2,ana1" : "ana1,bob2,cid3"])
        }
        let settled = devices.map { $0.state.circles.settled.last!.settlement }
        XCTAssertEqual(settled[0], settled[1]); XCTAssertEqual(settled[1], settled[2])
        XCTAssertEqual(settled[0].payouts, ["ana1": 15, "bob2": 15, "cid3": 0])
        XCTAssertEqual(settled[0].charity, 0)
        for (i, d) in devices.enumerated() {
            XCTAssertEqual(d.state.coins, earned[i] + settled[0].payouts[["ana1", "bob2", "cid3"][i]]!)
            XCTAssertEqual(d.state.circles.held, 0)
            d.assertReplayEqualsLive()
        }
        // Conserved: what the three hold now and the charity jar are what they held before the
        // settlement and the 30 coins staked.
        XCTAssertEqual(devices.map { $0.state.coins }.reduce(0, +) + settled[0].charity, earned.reduce(0, +) + 30)
        XCTAssertEqual(settled[0].pot, 30)
        // A second settle is refused: the stake is no longer held.
        devices[0].refuse("circle.settle", ["circle": "friends", "challenge": "ana1-1", "members": "ana1,bob2,cid3"],
                          .notFound("challenge", "ana1-1"))
    }

    func testAMemberOfflineAtTheCloseSettlesLaterWithTheSameResult() throws {
        var a = device("ana1"), b = device("bob2"), c = device("cid3")
        a.ok("circle.accept", acceptFields(stake: 7, goal: "tasks:1"))
        b.ok("circle.accept", acceptFields(stake: 7, goal: "tasks:1"))
        c.ok("circle.accept", acceptFields(stake: 7, goal: "tasks:1"))
        a.advance(to: "2026-03-04 10:00")
        a.ok("task.create", ["task": "w", "title": "w"]); a.ok("task.complete", ["task": "w"])
        c.advance(to: "2026-03-04 10:00")
        c.ok("task.create", ["task": "w", "title": "w"]); c.ok("task.complete", ["task": "w"])
        // a and b judge just after the close; c is offline until three days later.
        a.advance(to: "2026-03-06 01:00"); a.ok("circle.judge", ["circle": "friends"])
        b.advance(to: "2026-03-06 01:00"); b.ok("circle.judge", ["circle": "friends"])
        a.ok("circle.final", finalFields(of: b)!); b.ok("circle.final", finalFields(of: a)!)
        // Before the deadline (48 h after the end) and the clocks' allowance (48 h more) they wait for c.
        a.refuse("circle.settle", ["circle": "friends", "challenge": "ana1-1", "members": "ana1,bob2,cid3"], .state("challenge", "ana1-1"))
        a.advance(to: "2026-03-08 00:00")
        a.refuse("circle.settle", ["circle": "friends", "challenge": "ana1-1", "members": "ana1,bob2,cid3"], .state("challenge", "ana1-1"))
        a.advance(to: "2026-03-10 00:00"); b.advance(to: "2026-03-10 00:00")
        a.ok("circle.settle", ["circle": "friends", "challenge": "ana1-1", "members": "ana1,bob2,cid3"])
        b.ok("circle.settle", ["circle": "friends", "challenge": "ana1-1", "members": "ana1,bob2,cid3"])
        // c comes back on 2026-03-11: it judges itself now (after the deadline), reads the retained
        // finals and settles: the same result — it is missing everywhere, its own device included.
        c.advance(to: "2026-03-11 12:00")
        c.ok("circle.judge", ["circle": "friends"])
        // a and b settled: their finals come from their reports (repeated after the settlement).
        for other in [a, b] {
            let r = try XCTUnwrap(other.state.circleReport("friends", now: other.now))
            let p = try XCTUnwrap(r.challenges.first { $0.challenge == "ana1-1" })
            XCTAssertTrue(p.isFinal)
            c.ok("circle.final", ["circle": "friends", "challenge": "ana1-1", "member": r.member, "met": p.met ? "yes" : "no",
                                  "value": "\(p.value)", "final_at": "@\(p.finalAt!.seconds)"])
        }
        c.ok("circle.settle", ["circle": "friends", "challenge": "ana1-1", "members": "ana1,bob2,cid3"])
        let s = [a, b, c].map { $0.state.circles.settled.last!.settlement }
        XCTAssertEqual(s[0], s[1]); XCTAssertEqual(s[1], s[2])
        XCTAssertEqual(s[0].outcomes, ["ana1": .succeeded, "bob2": .failed, "cid3": .missing])
        XCTAssertEqual(s[0].payouts, ["ana1": 21, "bob2": 0, "cid3": 0])
        XCTAssertEqual(s[0].pot, 21)
        for d in [a, b, c] { d.assertReplayEqualsLive() }
    }

    func testNobodySucceedingSendsEveryStakeToTheCharityJarAndAnUnevenSplitItsRemainder() {
        var ds = [device("ana1"), device("bob2"), device("cid3")]
        for i in ds.indices { ds[i].ok("circle.accept", acceptFields(stake: 5, goal: "tasks:1")) }
        ds[0].advance(to: "2026-03-04 10:00"); ds[1].advance(to: "2026-03-04 10:00")
        for i in 0...1 { ds[i].ok("task.create", ["task": "w", "title": "w"]); ds[i].ok("task.complete", ["task": "w"]) }
        for i in ds.indices { ds[i].advance(to: "2026-03-06 01:00"); ds[i].ok("circle.judge", ["circle": "friends"]) }
        let finals = ds.compactMap { finalFields(of: $0) }
        for i in ds.indices { for f in finals where f["member"] != ["ana1", "bob2", "cid3"][i] { ds[i].ok("circle.final", f) } }
        for i in ds.indices { ds[i].ok("circle.settle", ["circle": "friends", "challenge": "ana1-1", "members": "ana1,bob2,cid3"]) }
        let s = ds[0].state.circles.settled.last!.settlement
        // One loser's 5 coins among two winners: 2 each, 1 to the charity jar.
        XCTAssertEqual(s.payouts, ["ana1": 7, "bob2": 7, "cid3": 0]); XCTAssertEqual(s.charity, 1)
        XCTAssertEqual(ds.map { $0.state.circles.charityJar }, [1, 1, 1])

        var lone = [device("ana1"), device("bob2")]
        for i in lone.indices { lone[i].ok("circle.accept", acceptFields(stake: 4, goal: "tasks:9")) }
        for i in lone.indices { lone[i].advance(to: "2026-03-06 01:00"); lone[i].ok("circle.judge", ["circle": "friends"]) }
        lone[0].ok("circle.final", finalFields(of: lone[1])!); lone[1].ok("circle.final", finalFields(of: lone[0])!)
        for i in lone.indices { lone[i].ok("circle.settle", ["circle": "friends", "challenge": "ana1-1", "members": "ana1,bob2"]) }
        XCTAssertEqual(lone[0].state.circles.settled.last!.settlement.charity, 8)
        XCTAssertEqual(lone[1].state.circles.charityJar, 8)
    }

    func testAcceptingIsRefusedAfterTheStartWithoutCoinsWithoutConsentOrWithBadTerms() {
        var h = device("ana1")
        let coins = h.state.coins
        h.refuse("circle.accept", acceptFields(stake: coins + 1), .coins(needed: coins + 1, balance: coins))
        h.refuse("circle.accept", acceptFields(stake: 0), .field("stake"))
        h.refuse("circle.accept", acceptFields(stake: 1001), .field("stake"))
        h.refuse("circle.accept", acceptFields(goal: "tasks:0"), .field("goal"))
        h.refuse("circle.accept", acceptFields(goal: "lines:3"), .field("goal"))
        h.refuse("circle.accept", acceptFields(days: 93), .field("end"))
        var other = acceptFields(); other["circle"] = "nope"
        h.refuse("circle.accept", other, .notFound("circle", "nope"))
        var forged = acceptFields(); forged["challenge"] = "bob2-1"
        h.refuse("circle.accept", forged, .field("challenge"))
        var noConsent = device("bob2", share: "coins,focus")
        noConsent.refuse("circle.accept", acceptFields(), .state("circle", "friends"))
        h.ok("circle.accept", acceptFields())
        XCTAssertTrue(h.send2("circle.accept", acceptFields()).isEmpty, "accepting again changes nothing")
        h.advance(to: "2026-03-03 00:00")
        var late = device("cid3")
        late.advance(to: "2026-03-03 00:00")
        late.refuse("circle.accept", acceptFields(), .state("challenge", "ana1-1"))
    }

    func testLeavingARunningChallengeForfeitsItsStakeAndAClosedOneWaitsForItsSettlement() {
        var h = device("ana1")
        let coins = h.state.coins
        h.ok("circle.accept", acceptFields(stake: 10))
        h.advance(to: "2026-03-04 12:00")
        let events = h.ok("circle.leave", ["circle": "friends"])
        XCTAssertEqual(events.map(\.kind.type), ["circle.final", "circle.forfeited", "circle.left"])
        XCTAssertEqual(h.state.coins, coins - 10, "the stake is gone: it is the others' or the charity jar's")
        XCTAssertEqual(h.state.circles.held, 0)
        XCTAssertEqual(h.state.circles.forfeited, 10)
        XCTAssertNil(h.state.circles.circles["friends"])
        h.assertReplayEqualsLive()

        var k = device("bob2")
        k.ok("circle.accept", acceptFields(stake: 10))
        k.advance(to: "2026-03-06 12:00")
        k.refuse("circle.leave", ["circle": "friends"], .state("circle", "friends"))
    }

    func testADeviceRefusesAFinalForItsOwnMemberAndKeepsTheEarlierOfTwoFinals() {
        var h = device("ana1")
        h.ok("circle.accept", acceptFields())
        h.advance(to: "2026-03-06 01:00")
        var own = ["circle": "friends", "challenge": "ana1-1", "member": "ana1", "met": "yes", "value": "9", "final_at": "@1772758800"]
        h.refuse("circle.final", own, .field("member"))
        own["member"] = "bob2"
        h.ok("circle.final", own)
        var later = own; later["final_at"] = "@1772762400"; later["met"] = "no"
        XCTAssertTrue(h.send2("circle.final", later).isEmpty, "a later final does not replace the one held")
        var earlier = own; earlier["final_at"] = "@1772755200"; earlier["met"] = "no"
        XCTAssertEqual(h.send2("circle.final", earlier).map(\.kind.type), ["circle.final"])
        XCTAssertEqual(h.state.circles.challenges["ana1-1"]?.finals["bob2"]?.met, false)
        h.refuse("circle.final", ["circle": "friends", "challenge": "zzz9-1", "member": "bob2", "final_at": "@1772758800", "value": "1"],
                 .notFound("challenge", "zzz9-1"))
        h.refuse("circle.settle", ["circle": "friends", "challenge": "ana1-1", "members": "bob2"], .field("members"))
        h.refuse("circle.settle", ["circle": "friends", "challenge": "ana1-1", "members": "ana1,ana1"], .field("members"))
    }

    func testTheReportCarriesOnlyConsentedNumbersNeverTitles() throws {
        var h = device("ana1", share: "coins,challenges")
        h.ok("circle.accept", acceptFields())
        let r = try XCTUnwrap(h.state.circleReport("friends", now: h.now))
        XCTAssertNil(r.problem())
        XCTAssertEqual(r.member, "ana1")
        XCTAssertGreaterThan(r.coinsWeek, 0)
        XCTAssertEqual(r.tasksWeek, 0, "tasks not consented")
        XCTAssertEqual(r.streak, 0)
        XCTAssertEqual(r.screenGoal, 0)
        XCTAssertEqual(r.challenges.map(\.challenge), ["ana1-1"])
        XCTAssertFalse(r.challenges[0].isFinal)
        let json = String(decoding: try JSONEncoder().encode(r), as: UTF8.self)
        XCTAssertFalse(json.contains("secret"), json)
        XCTAssertNil(h.state.circleReport("other", now: h.now))
        var b = CircleBoard()
        XCTAssertTrue(try b.receive(r))
        h.ok("circle.join", ["circle": "friends", "member": "ana1", "share": "all", "screen_goal": "60"])
        let all = try XCTUnwrap(h.state.circleReport("friends", now: h.now))
        XCTAssertEqual(all.tasksWeek, 6); XCTAssertEqual(all.screenGoal, 60)
        h.refuse("circle.join", ["circle": "friends", "member": "zed9"], .state("circle", "friends"))
        h.refuse("circle.join", ["circle": "friends", "member": "zed9", "share": "titles"], .field("share"))
    }

    func testTheWeeksHabitScoreIsSharedOnlyWithConsent() throws {
        // Monday 2026-03-02: a habit and movement checked (15 points); Tuesday: the habit (10).
        var h = device("ana1", tasks: 0, share: "coins", at: "2026-03-02 08:00")
        h.ok("habit.add", ["habit": "water", "text": "Secret habit text"])
        h.ok("habit.check", ["habit": "water"]); h.ok("habit.check", ["habit": "movement"])
        _ = h.advance(to: "2026-03-03 09:00")
        h.ok("habit.check", ["habit": "water"])
        _ = h.advance(to: "2026-03-04 09:00")
        let none = try XCTUnwrap(h.state.circleReport("friends", now: h.now))
        XCTAssertNil(none.habitWeek, "habits not consented")
        XCTAssertNil(none.habitDays)
        h.ok("circle.join", ["circle": "friends", "member": "ana1", "share": "coins,habits", "screen_goal": "0"])
        let r = try XCTUnwrap(h.state.circleReport("friends", now: h.now))
        // The two days' scores as the stats hold them (15 and 10, and the bonus points of complete days).
        let monday = h.state.clock.day(of: h.t("2026-03-02 12:00"))
        let days = [h.state.stats[monday].habitScore, h.state.stats[monday + 1].habitScore]
        XCTAssertGreaterThanOrEqual(days[0], 15)
        XCTAssertGreaterThanOrEqual(days[1], 10)
        XCTAssertEqual(r.habitWeek, days[0] + days[1])
        XCTAssertEqual(r.habitDays, 2)
        XCTAssertNil(r.problem())
        let json = String(decoding: try JSONEncoder().encode(r), as: UTF8.self)
        XCTAssertFalse(json.contains("Secret") || json.contains("water"), json)
        var bad = r; bad.habitDays = 8
        XCTAssertEqual(bad.problem(), "habit days")
    }

    func testEachHabitsWeekIsSharedByPositionOnlyWithConsent() throws {
        // Three habits: #1 checked Monday, Tuesday and today (Wednesday); #2 Tuesday; #3 never.
        var h = device("ana1", tasks: 0, share: "coins", at: "2026-03-02 08:00")
        h.ok("habit.add", ["habit": "water", "text": "Secret habit text"])
        h.ok("habit.add", ["habit": "quit-smoking", "text": "Another secret"])
        h.ok("habit.add", ["habit": "read", "text": "Third"])
        h.ok("habit.check", ["habit": "water"])
        _ = h.advance(to: "2026-03-03 09:00")
        h.ok("habit.check", ["habit": "water"]); h.ok("habit.check", ["habit": "quit-smoking"])
        h.ok("habit.uncheck", ["habit": "quit-smoking"]); h.ok("habit.check", ["habit": "quit-smoking"])
        _ = h.advance(to: "2026-03-04 09:00")
        h.ok("habit.check", ["habit": "water"])
        XCTAssertNil(try XCTUnwrap(h.state.circleReport("friends", now: h.now)).habitEach, "habits not consented")
        h.ok("circle.join", ["circle": "friends", "member": "ana1", "share": "habits", "screen_goal": "0"])
        let r = try XCTUnwrap(h.state.circleReport("friends", now: h.now))
        XCTAssertEqual(r.habitEach, [3, 1, 0], "by checklist position; today's check counts")
        let json = String(decoding: try JSONEncoder().encode(r), as: UTF8.self)
        XCTAssertFalse(json.contains("water") || json.contains("smoking") || json.contains("Secret"), json)
        // Next Monday: a new week, nothing checked yet; the history is bounded.
        _ = h.advance(to: "2026-03-09 09:00")
        XCTAssertEqual(try XCTUnwrap(h.state.circleReport("friends", now: h.now)).habitEach, [0, 0, 0])
        _ = h.advance(to: "2026-03-30 09:00")
        XCTAssertNil(h.state.habits.checkedDays, "checks older than \(HabitRules.keptCheckDays) days are dropped")
        // A removed habit leaves the history and the positions close up.
        h.ok("habit.check", ["habit": "read"])
        h.ok("habit.remove", ["habit": "water"])
        XCTAssertEqual(try XCTUnwrap(h.state.circleReport("friends", now: h.now)).habitEach, [0, 1])
        var bad = r; bad.habitEach = [8]
        XCTAssertEqual(bad.problem(), "habit each")
        bad.habitEach = Array(repeating: 1, count: HabitRules.maxActive + 1)
        XCTAssertEqual(bad.problem(), "habit each")
        h.assertReplayEqualsLive()
    }

    func testTheStandingIsKeptForTheScreenAndItsRowsAreChecked() {
        var h = device("ana1")
        let rows = "1:ana1:40:Pip;2:bob2:30:B%3Bob %25;2:cid3:30:Cid"
        h.ok("circle.standing", ["circle": "friends", "metric": "coins", "period": "week", "number": "20513", "ranked": "3", "rows": rows])
        let s = h.state.circles.standing("friends", .coins, .week)!
        XCTAssertEqual(s.rows.map(\.petName), ["Pip", "B;ob %", "Cid"])
        XCTAssertEqual(s.rows.map(\.rank), [1, 2, 2])
        XCTAssertTrue(h.send2("circle.standing", ["circle": "friends", "metric": "coins", "period": "week", "number": "20513",
                                                  "ranked": "3", "rows": rows]).isEmpty, "the same standing again stores nothing")
        h.refuse("circle.standing", ["circle": "friends", "metric": "coins", "period": "week", "number": "1", "ranked": "1",
                                     "rows": "1:ana1:40"], .field("rows[0]"))
        h.refuse("circle.standing", ["circle": "friends", "metric": "titles", "period": "week", "number": "1", "ranked": "1"], .field("metric"))
        XCTAssertEqual(CircleCommands.escape("a;b%c"), "a%3Bb%25c")
    }

    /// Random circles of 2–6 devices, random goals, random work in the window, finals delivered in
    /// random orders with duplicates, some members offline at the close: every device that settles
    /// computes the same settlement, the coins are conserved, and each device's replay gives its coins.
    func testRandomCirclesSettleIdenticallyAndConserveCoins() {
        var rng = SplitMix64(seed: 0xC1C1E)
        for round in 0..<25 {
            let n = Int(rng.next() % 5) + 2
            let names = (0..<n).map { "m\($0)x\(round)" }
            let stake = Int(rng.next() % 12) + 1
            let goal = Int(rng.next() % 3) + 1
            var ds = names.map { device($0, tasks: 4) }
            var fields = acceptFields(stake: stake, goal: "tasks:\(goal)")
            fields["challenge"] = "\(names[0])-1"; fields["proposer"] = names[0]
            for i in ds.indices { ds[i].ok("circle.accept", fields) }
            let start = ds.map { $0.state.coins }
            var earnedInWindow = Array(repeating: 0, count: n)
            for i in ds.indices {
                ds[i].advance(to: "2026-03-04 09:00")
                let before = ds[i].state.coins
                for k in 0..<Int(rng.next() % 4) {
                    ds[i].ok("task.create", ["task": "r\(k)", "title": "r"]); ds[i].ok("task.complete", ["task": "r\(k)"])
                }
                earnedInWindow[i] = ds[i].state.coins - before
            }
            // Online members judge soon after the close; offline ones after the deadline.
            let offline = (0..<n).map { _ in rng.next() % 4 == 0 }
            for i in ds.indices {
                ds[i].advance(to: offline[i] ? "2026-03-08 06:00" : "2026-03-06 0\(Int(rng.next() % 9) + 1):00")
                ds[i].ok("circle.judge", ["circle": "friends"])
            }
            let finals = ds.compactMap { finalFields(of: $0, challenge: names[0] + "-1") }
            XCTAssertEqual(finals.count, n)
            for i in ds.indices {
                var mine = finals.filter { $0["member"] != names[i] }
                mine += mine.filter { _ in rng.next() % 2 == 0 }
                for j in stride(from: mine.count - 1, to: 0, by: -1) { mine.swapAt(j, Int(rng.next() % UInt64(j + 1))) }
                for f in mine { _ = try? ds[i].send("circle.final", f) }
                ds[i].advance(to: "2026-03-10 12:00")
                ds[i].ok("circle.settle", ["circle": "friends", "challenge": names[0] + "-1", "members": names.shuffledBy(&rng).joined(separator: ",")])
            }
            let s = ds.map { $0.state.circles.settled.last!.settlement }
            for x in s.dropFirst() { XCTAssertEqual(x, s[0], "round \(round)") }
            XCTAssertEqual(s[0].pot, n * stake, "round \(round): coins conserved")
            let now = ds.map { $0.state.coins }.reduce(0, +)
            XCTAssertEqual(now + s[0].charity, start.reduce(0, +) + n * stake + earnedInWindow.reduce(0, +), "round \(round)")
            for d in ds { d.assertReplayEqualsLive() }
        }
    }
}

extension Harness {
    /// `send` whose events are returned (empty when nothing changed), failing the test if refused.
    mutating func send2(_ name: String, _ fields: [String: String], file: StaticString = #filePath, line: UInt = #line) -> [Event] {
        do { return try send(name, fields) } catch { XCTFail("\(name) refused: \(error)", file: file, line: line); return [] }
    }
}

extension Array {
    func shuffledBy(_ rng: inout SplitMix64) -> [Element] {
        var a = self
        for j in stride(from: a.count - 1, to: 0, by: -1) { a.swapAt(j, Int(rng.next() % UInt64(j + 1))) }
        return a
    }
}
