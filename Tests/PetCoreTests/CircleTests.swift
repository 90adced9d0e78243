import XCTest
import TestSupport
@testable import PetCore

/// Circles (docs/circles.md): the reports a device holds, the leaderboards and the group
/// challenges' settlement are the same on every device that received the same reports, in any
/// order, repeated or late; and a settlement never creates or destroys a coin.
final class CircleTests: XCTestCase {
    private let t0 = Instant(1_790_000_000)

    private func report(_ m: String, seq: Int, at: Instant? = nil, coins: Int = 0, focus: Int = 0, screen: Int = 0,
                        goal: Int = 0, streak: Int = 0, week: Int = 2900, challenges: [ChallengeProgress] = []) -> MemberReport {
        MemberReport(member: m, seq: seq, sentAt: at ?? t0, petName: "Pip \(m)", level: 3, week: week, month: 670,
                     coinsWeek: coins, coinsMonth: coins * 4, focusWeek: focus, focusMonth: focus * 4,
                     screenWeek: screen, screenMonth: screen * 4, screenGoal: goal, streak: streak, challenges: challenges)
    }

    private func terms(_ stake: Int = 10, days: Int64 = 7) -> ChallengeTerms {
        ChallengeTerms(id: "anna-1", proposer: "anna", goal: .tasksDone(5), start: t0, end: t0 + days * Seconds.day, stake: stake)
    }

    // MARK: reports

    func testAReportThatBreaksARuleIsRefusedByName() {
        var b = CircleBoard()
        let cases: [(MemberReport, String)] = [
            (report("A!", seq: 1), "member id"),
            (report("abc", seq: 1), "member id"),
            (report(String(repeating: "a", count: 33), seq: 1), "member id"),
            (report("anna", seq: -1), "seq"),
            (report("anna", seq: 1, coins: -5), "a figure"),
            (report("anna", seq: 1, coins: 10_000_001), "a figure"),
            (report("anna", seq: 1, challenges: [ChallengeProgress(challenge: "x", met: true, value: 1),
                                                 ChallengeProgress(challenge: "x", met: false, value: 0)]), "challenges"),
        ]
        for (r, field) in cases {
            XCTAssertThrowsError(try b.receive(r)) { XCTAssertEqual($0 as? CircleBoard.Refusal, .invalid(field)) }
        }
        var named = report("anna", seq: 1)
        for bad in ["", "a\u{1B}[2J", "\u{202E}evil", String(repeating: "x", count: 25), "line\nbreak"] {
            named.petName = bad
            XCTAssertThrowsError(try b.receive(named), "\(bad.debugDescription)")
        }
        named.level = 101
        named.petName = "Pip"
        XCTAssertThrowsError(try b.receive(named))
        XCTAssertTrue(b.reports.isEmpty, "a refused report changes nothing")
    }

    func testTheLaterReportOfAMemberIsKeptWhateverTheOrder() throws {
        let older = report("anna", seq: 4, coins: 10)
        let newer = report("anna", seq: 5, coins: 3)
        var a = CircleBoard(), b = CircleBoard()
        XCTAssertTrue(try a.receive(older)); XCTAssertTrue(try a.receive(newer)); XCTAssertFalse(try a.receive(older))
        XCTAssertTrue(try b.receive(newer)); XCTAssertFalse(try b.receive(older)); XCTAssertFalse(try b.receive(newer))
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.reports["anna"]?.coinsWeek, 3)
        // Two different reports with one seq (a device that lost its counter): both boards keep the same one.
        let twinA = report("bob1", seq: 7, coins: 1), twinB = report("bob1", seq: 7, coins: 2)
        var c = CircleBoard(), d = CircleBoard()
        try c.receive(twinA); try c.receive(twinB)
        try d.receive(twinB); try d.receive(twinA)
        XCTAssertEqual(c, d)
    }

    // MARK: leaderboards

    func testRanksShareEqualValuesAndListTiesByMemberID() throws {
        var b = CircleBoard()
        for (m, c) in [("dora", 30), ("anna", 50), ("carl", 30), ("bob1", 10), ("eve1", 30)] { try b.receive(report(m, seq: 1, coins: c)) }
        let rows = Leaderboard.rank(b, metric: .coins, period: .week, week: 2900, month: 670)
        XCTAssertEqual(rows.map(\.member), ["anna", "carl", "dora", "eve1", "bob1"])
        XCTAssertEqual(rows.map(\.rank), [1, 2, 2, 2, 5])
        XCTAssertEqual(rows.map(\.value), [50, 30, 30, 30, 10])
    }

    func testScreenTimeRanksLeastFirstAndOnlyMembersWithAGoal() throws {
        var b = CircleBoard()
        try b.receive(report("anna", seq: 1, screen: 300, goal: 60))
        try b.receive(report("bob1", seq: 1, screen: 90, goal: 60))
        try b.receive(report("carl", seq: 1, screen: 0, goal: 0))
        let rows = Leaderboard.rank(b, metric: .screen, period: .week, week: 2900, month: 670)
        XCTAssertEqual(rows.map(\.member), ["bob1", "anna"])
    }

    func testLastWeeksReportIsNotRankedThisWeek() throws {
        var b = CircleBoard()
        try b.receive(report("anna", seq: 1, coins: 99, week: 2899))
        try b.receive(report("bob1", seq: 1, coins: 1, week: 2900))
        XCTAssertEqual(Leaderboard.rank(b, metric: .coins, period: .week, week: 2900, month: 670).map(\.member), ["bob1"])
        XCTAssertEqual(Leaderboard.rank(b, metric: .streak, period: .week, week: 2899, month: 670).map(\.member), ["anna"])
    }

    // MARK: challenges

    func testTermsOutsideTheRulesAreRefused() {
        var t = terms()
        XCTAssertNil(t.problem())
        t.stake = 0; XCTAssertEqual(t.problem(), "stake")
        t = terms(); t.id = "bob1-1"; XCTAssertEqual(t.problem(), "id")
        t = terms(); t.end = t.start; XCTAssertEqual(t.problem(), "window")
        t = terms(); t.end = t.start + 93 * Seconds.day; XCTAssertEqual(t.problem(), "window")
        t = terms(); t.end = t.start + Seconds.day + 1; XCTAssertEqual(t.problem(), "window")
        t = terms(); t.goal = .tasksDone(0); XCTAssertEqual(t.problem(), "goal")
        t = terms(); t.goal = .screenUnder(1441); XCTAssertEqual(t.problem(), "goal")
    }

    func testFailedStakesAreSplitAmongWinnersAndTheRemainderGoesToCharity() {
        let s = ChallengeSettlement.split(terms(10), outcomes: ["anna": .succeeded, "bob1": .failed, "carl": .succeeded,
                                                               "dora": .left, "eve1": .missing, "finn": .succeeded])
        // 3 losers × 10 = 30 shared by 3 winners: 10 each, no remainder.
        XCTAssertEqual(s.payouts, ["anna": 20, "carl": 20, "finn": 20, "bob1": 0, "dora": 0, "eve1": 0])
        XCTAssertEqual(s.charity, 0)
        XCTAssertEqual(s.pot, 60)
        let uneven = ChallengeSettlement.split(terms(7), outcomes: ["anna": .succeeded, "bob1": .failed, "carl": .succeeded, "dora": .failed,
                                                                   "eve1": .succeeded, "finn": .failed, "gus1": .failed])
        // 4 × 7 = 28 among 3: 9 each, 1 to the charity jar.
        XCTAssertEqual(uneven.payouts["anna"], 16)
        XCTAssertEqual(uneven.charity, 1)
        XCTAssertEqual(uneven.pot, 49)
        let nobody = ChallengeSettlement.split(terms(5), outcomes: ["anna": .failed, "bob1": .left])
        XCTAssertEqual(nobody.charity, 10)
        XCTAssertEqual(nobody.payouts.values.reduce(0, +), 0)
        let everybody = ChallengeSettlement.split(terms(5), outcomes: ["anna": .succeeded, "bob1": .succeeded])
        XCTAssertEqual(everybody.payouts, ["anna": 5, "bob1": 5])
        XCTAssertEqual(everybody.charity, 0)
    }

    func testASettlementWaitsForEveryFinalUntilTheDeadlineThenCountsTheMissingAsFailed() throws {
        let t = terms(10)
        var b = CircleBoard()
        let final = t.end + Seconds.hour
        try b.receive(report("anna", seq: 2, at: final, challenges: [ChallengeProgress(challenge: t.id, met: true, value: 6, finalAt: final)]))
        try b.receive(report("bob1", seq: 2, at: t.end - Seconds.day, challenges: [ChallengeProgress(challenge: t.id, met: true, value: 3)]))
        XCTAssertNil(ChallengeSettlement.settle(t, members: ["anna", "bob1"], board: b, now: t.end - 1), "before the end")
        XCTAssertNil(ChallengeSettlement.settle(t, members: ["anna", "bob1"], board: b, now: t.end + Seconds.day), "bob1's final may still come")
        XCTAssertNil(ChallengeSettlement.settle(t, members: ["anna", "bob1"], board: b, now: t.finalDeadline),
                     "the clocks' allowance: a final stamped in time by a clock behind may still come (docs/circles.md#clock-skew)")
        let s = try XCTUnwrap(ChallengeSettlement.settle(t, members: ["anna", "bob1"], board: b, now: t.missingAfter))
        XCTAssertEqual(s.outcomes, ["anna": .succeeded, "bob1": .missing])
        XCTAssertEqual(s.payouts, ["anna": 20, "bob1": 0])
        // bob1 comes back after the deadline and sends its final: it is late, everybody (bob1 too) keeps the same result.
        let late = t.finalDeadline + Seconds.hour
        try b.receive(report("bob1", seq: 3, at: late, challenges: [ChallengeProgress(challenge: t.id, met: true, value: 5, finalAt: late)]))
        XCTAssertEqual(ChallengeSettlement.settle(t, members: ["anna", "bob1"], board: b, now: t.missingAfter + Seconds.hour), s)
    }

    func testAFinalKeptAcrossALaterWeeklyReport() throws {
        let t = terms(10)
        var b = CircleBoard()
        let final = t.end + 60
        try b.receive(report("anna", seq: 2, at: final, challenges: [ChallengeProgress(challenge: t.id, met: true, value: 6, finalAt: final)]))
        try b.receive(report("anna", seq: 3, at: t.end + 5 * Seconds.day))   // next week's report without the challenge
        let s = try XCTUnwrap(ChallengeSettlement.settle(t, members: ["anna"], board: b, now: t.end + 5 * Seconds.day))
        XCTAssertEqual(s.outcomes["anna"], .succeeded)
    }

    func testASuccessJudgedBeforeTheEndIsNotOne() throws {
        let t = terms(10)
        var b = CircleBoard()
        let early = t.end - Seconds.hour
        try b.receive(report("anna", seq: 2, at: early, challenges: [ChallengeProgress(challenge: t.id, met: true, value: 6, finalAt: early)]))
        let s = try XCTUnwrap(ChallengeSettlement.settle(t, members: ["anna"], board: b, now: t.end))
        XCTAssertEqual(s.outcomes["anna"], .failed)
        XCTAssertEqual(s.charity, 10)
    }

    /// Random circles: each member's reports (progress while the challenge runs, its final, later
    /// weekly reports, forged and late ones) delivered to several devices in random orders, with
    /// duplicates and drops of non-final reports → every device settles the same way, and the pot
    /// is exactly the stakes.
    func testRandomCirclesSettleIdenticallyOnEveryDeviceAndConserveCoins() throws {
        var withWinners = 0, withLosers = 0, withMissing = 0, withRemainder = 0
        for seed in 1...200 {
            var rng = SplitMix64(seed: UInt64(seed))
            let n = Int.random(in: 1...12, using: &rng)
            let members = (0..<n).map { "m\(String(format: "%03d", $0))" }
            let stake = Int.random(in: CircleRules.stakeRange, using: &rng)
            let t = ChallengeTerms(id: "m000-\(seed)", proposer: "m000", goal: .focusPerDay(25), start: t0,
                                   end: t0 + Int64(Int.random(in: 1...14, using: &rng)) * Seconds.day, stake: stake)
            var all: [MemberReport] = []
            var mustArrive: [MemberReport] = []
            for m in members {
                var seq = 0
                for _ in 0..<Int.random(in: 0...3, using: &rng) {   // progress while it runs
                    seq += 1
                    let at = t.start + Int64.random(in: 0...(t.end - t.start - 1), using: &rng)
                    all.append(report(m, seq: seq, at: at, challenges: [ChallengeProgress(challenge: t.id, met: Bool.random(using: &rng), value: 1)]))
                }
                let kind = Int.random(in: 0...9, using: &rng)
                if kind < 7 {   // a final, on time (or left early), maybe repeated in later reports
                    let left = kind == 6
                    let at = left ? t.start + Int64.random(in: 0...(t.end - t.start - 1), using: &rng)
                                  : t.end + Int64.random(in: 0...CircleRules.finalGrace, using: &rng)
                    let p = ChallengeProgress(challenge: t.id, met: Bool.random(using: &rng), value: 2, finalAt: at, left: left)
                    for i in 0..<Int.random(in: 1...3, using: &rng) {
                        seq += 1
                        let r = report(m, seq: seq, at: at + Int64(i) * Seconds.day, challenges: [p])
                        all.append(r)
                        // The retained topic carries at least one, unless the member left (leaving
                        // clears its report: a device may never see the forfeit).
                        if i == 0 && !left { mustArrive.append(r) }
                    }
                } else if kind < 9 {   // a final sent after the deadline
                    seq += 1
                    let at = t.finalDeadline + Int64.random(in: 1...Seconds.day, using: &rng)
                    all.append(report(m, seq: seq, at: at, challenges: [ChallengeProgress(challenge: t.id, met: true, value: 9, finalAt: at)]))
                }   // else: never reports a final
                if Bool.random(using: &rng) {   // a later weekly report without the challenge
                    seq += 1
                    all.append(report(m, seq: seq, at: t.finalDeadline + 3 * Seconds.day, week: 2901))
                }
            }
            var settlements: [ChallengeSettlement] = []
            for _ in 0..<4 {   // four devices, each with its own arrival order, duplicates and drops
                var arrivals: [MemberReport] = mustArrive
                for r in all where !mustArrive.contains(r) {
                    let final = r.challenges.contains { $0.isFinal && !$0.left }
                    if final || Bool.random(using: &rng) { arrivals.append(r) }
                    if Bool.random(using: &rng) { arrivals.append(r) }
                }
                arrivals.shuffle(using: &rng)
                var b = CircleBoard()
                for r in arrivals { try b.receive(r) }
                let now = t.missingAfter + Int64.random(in: 0...(10 * Seconds.day), using: &rng)
                settlements.append(try XCTUnwrap(ChallengeSettlement.settle(t, members: members, board: b, now: now), "seed \(seed)"))
            }
            for s in settlements.dropFirst() { XCTAssertEqual(s, settlements[0], "seed \(seed)") }
            let s = settlements[0]
            XCTAssertEqual(s.pot, stake * n, "seed \(seed): coins conserved")
            XCTAssertTrue(s.payouts.values.allSatisfy { $0 >= 0 })
            for (m, o) in s.outcomes where o != .succeeded { XCTAssertEqual(s.payouts[m], 0, "seed \(seed)") }
            XCTAssertFalse(s.outcomes.values.contains(.left), "seed \(seed): a member that left is missing on every device")
            let winners = s.outcomes.values.filter { $0 == .succeeded }.count
            if winners > 0 { XCTAssertLessThan(s.charity, winners, "seed \(seed): only the remainder goes to charity") }
            if winners > 0 { withWinners += 1 }
            if winners < n { withLosers += 1 }
            if s.outcomes.values.contains(.missing) { withMissing += 1 }
            if winners > 0 && s.charity > 0 { withRemainder += 1 }
        }
        // The random circles cover every case of the split, not one.
        XCTAssertGreaterThan(withWinners, 50)
        XCTAssertGreaterThan(withLosers, 50)
        XCTAssertGreaterThan(withMissing, 20)
        XCTAssertGreaterThan(withRemainder, 10)
    }
}
