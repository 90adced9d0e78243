import XCTest
import TestSupport
@testable import PetCore

/// Members' clocks differ (docs/circles.md#clock-skew): every device stamps and decides with its
/// own clock, minutes to hours apart, one a whole day off. Played over true time: each device
/// settles at the first moment its own clock lets it, from the reports on the broker by then.
/// No wrong settlement (all the same), no coin created or destroyed, the same leaderboard.
final class CircleClockSkewTests: XCTestCase {
    private let t0 = Instant(1_790_000_000)

    private func report(_ m: String, seq: Int, at: Instant, week: Int = 2900, month: Int = 670, coins: Int = 0,
                        challenges: [ChallengeProgress] = []) -> MemberReport {
        MemberReport(member: m, seq: seq, sentAt: at, petName: "Pip \(m)", level: 3, week: week, month: month,
                     coinsWeek: coins, coinsMonth: coins * 4, focusWeek: 0, focusMonth: 0, screenWeek: 0, screenMonth: 0,
                     screenGoal: 0, streak: 0, challenges: challenges)
    }

    /// A published report and the true time it reached the broker.
    private struct Published { var at: Instant; var report: MemberReport }

    /// The first settlement device `d` (its clock `offset` from true time) makes, trying every true
    /// instant at which something changes for it, from the reports published by then.
    private func settleOn(_ t: ChallengeTerms, members: [String], offset: Int64, published: [Published]) -> (ChallengeSettlement, Instant)? {
        var instants = published.map(\.at) + [t.end - offset, t.finalDeadline - offset, t.missingAfter - offset]
        instants = Array(Set(instants)).sorted()
        for trueNow in instants {
            var b = CircleBoard()
            for p in published where p.at <= trueNow { _ = try? b.receive(p.report) }
            if let s = ChallengeSettlement.settle(t, members: members, board: b, now: trueNow + offset) { return (s, trueNow) }
        }
        return nil
    }

    func testSkewedClocksSettleIdenticallyAndConserveCoins() throws {
        var sawLate = 0, sawMissing = 0, sawFailed = 0
        for seed in 1...300 {
            var rng = SplitMix64(seed: UInt64(seed))
            let n = Int.random(in: 2...8, using: &rng)
            let members = (0..<n).map { "m\(String(format: "%03d", $0))" }
            // Minutes to ±2 h for everyone; one member's clock a whole day off, ahead or behind.
            var offset: [String: Int64] = [:]
            for m in members { offset[m] = Int64.random(in: -2 * Seconds.hour...2 * Seconds.hour, using: &rng) }
            let odd = members[Int.random(in: 0..<n, using: &rng)]
            offset[odd] = (Bool.random(using: &rng) ? 1 : -1) * (Seconds.day + Int64.random(in: 0...Seconds.hour, using: &rng))
            let stake = Int.random(in: CircleRules.stakeRange, using: &rng)
            let t = ChallengeTerms(id: "m000-\(seed)", proposer: "m000", goal: .tasksDone(1), start: t0,
                                   end: t0 + Int64(Int.random(in: 1...7, using: &rng)) * Seconds.day, stake: stake)
            var published: [Published] = []
            for m in members {
                let off = offset[m]!
                let kind = Int.random(in: 0...9, using: &rng)
                guard kind < 9 else { continue }   // never comes back: missing everywhere
                // The device judges once its own clock has passed the end, when it is online: at
                // once, or hours later, or near (even past) the deadline by its own clock.
                let delay: Int64 = kind < 5 ? Int64.random(in: 0...600, using: &rng)
                    : kind < 8 ? Int64.random(in: 0...CircleRules.finalGrace - Seconds.hour, using: &rng)
                    : CircleRules.finalGrace + Int64.random(in: -Seconds.hour...Seconds.hour, using: &rng)
                let trueAt = t.end - off + delay
                let stamp = trueAt + off   // its own clock, at the moment it hands the report over
                let p = ChallengeProgress(challenge: t.id, met: Bool.random(using: &rng), value: 1, finalAt: stamp)
                published.append(Published(at: trueAt, report: report(m, seq: 2, at: stamp, challenges: [p])))
                // Repeated in later reports (the final keeps its first stamp).
                if Bool.random(using: &rng) {
                    published.append(Published(at: trueAt + Seconds.day, report: report(m, seq: 3, at: stamp + Seconds.day, challenges: [p])))
                }
                if kind == 8 { sawLate += 1 }
            }
            // A member whose clock is far behind stamps a "final" before the end by true time it is
            // not; one whose clock is a day ahead stamps before the true end: each device judges its
            // own member by its own clock, and all settle from the same stamps.
            var results: [ChallengeSettlement] = []
            for d in members {
                let (s, when) = try XCTUnwrap(settleOn(t, members: members, offset: offset[d]!, published: published), "seed \(seed) device \(d)")
                XCTAssertGreaterThanOrEqual(when + offset[d]!, t.end, "seed \(seed): nobody settles before the end by its own clock")
                results.append(s)
            }
            for s in results.dropFirst() { XCTAssertEqual(s, results[0], "seed \(seed): the same settlement on every device") }
            let s = results[0]
            XCTAssertEqual(s.pot, stake * n, "seed \(seed): coins conserved")
            if s.outcomes.values.contains(.missing) { sawMissing += 1 }
            if s.outcomes.values.contains(.failed) { sawFailed += 1 }
        }
        XCTAssertGreaterThan(sawLate, 50, "finals stamped around the deadline are covered")
        XCTAssertGreaterThan(sawMissing, 50)
        XCTAssertGreaterThan(sawFailed, 50)
    }

    /// Without the allowance the same run gives two settlements: the reason for it.
    func testTheAllowanceIsWhatKeepsThemEqual() throws {
        let t = ChallengeTerms(id: "anna-1", proposer: "anna", goal: .tasksDone(1), start: t0, end: t0 + Seconds.day, stake: 10)
        // bob1's clock is a day behind: it judges and publishes a day after the true end, stamped
        // at the end by its clock... and just before the deadline by its clock: a day and 47 h
        // after the true end. anna's clock is a day ahead.
        let bobStamp = t.finalDeadline - Seconds.hour
        let bobTrue = bobStamp + Seconds.day
        let anna = Published(at: t.end, report: report("anna", seq: 2, at: t.end, challenges: [ChallengeProgress(challenge: t.id, met: true, value: 1, finalAt: t.end + Seconds.day)]))
        let bob = Published(at: bobTrue, report: report("bob1", seq: 2, at: bobStamp, challenges: [ChallengeProgress(challenge: t.id, met: true, value: 1, finalAt: bobStamp)]))
        let ahead = try XCTUnwrap(settleOn(t, members: ["anna", "bob1"], offset: Seconds.day, published: [anna, bob]))
        let behind = try XCTUnwrap(settleOn(t, members: ["anna", "bob1"], offset: -Seconds.day, published: [anna, bob]))
        XCTAssertEqual(ahead.0, behind.0)
        XCTAssertEqual(ahead.0.outcomes, ["anna": .succeeded, "bob1": .succeeded])
        XCTAssertGreaterThan(ahead.1, bobTrue - 1, "the device a day ahead waited for bob1's final")
        // Had it counted the missing at the deadline by its own clock, it would have settled first,
        // bob1 missing — a second settlement.
        var b = CircleBoard()
        _ = try b.receive(anna.report)
        let tooSoon = t.finalDeadline   // anna's clock at the true deadline − a day
        XCTAssertNil(ChallengeSettlement.settle(t, members: ["anna", "bob1"], board: b, now: tooSoon))
        XCTAssertEqual(ChallengeSettlement.settle(t, members: ["anna", "bob1"], board: b, now: t.missingAfter)?.outcomes["bob1"], .missing)
    }

    /// The leaderboard's period comes from the reports, not the device's clock: a member a day
    /// ahead on Sunday night (next week already), or a day behind, moves nobody's board.
    func testTheLeaderboardIsTheSameWhateverTheDevicesClock() throws {
        let week = 2900
        var b = CircleBoard()
        for (i, m) in ["anna", "bob1", "cid3", "dora"].enumerated() { _ = try b.receive(report(m, seq: 1, at: t0, week: week, coins: 10 * i)) }
        _ = try b.receive(report("eve9", seq: 1, at: t0 + Seconds.day, week: week + 7, month: 671, coins: 99))   // a day ahead, next week
        _ = try b.receive(report("fred", seq: 1, at: t0 - Seconds.day, week: week - 7, coins: 77))               // far behind, last week
        let p = try XCTUnwrap(Leaderboard.period(b))
        XCTAssertEqual(p.week, week)
        XCTAssertEqual(p.month, 670)
        let rows = Leaderboard.rank(b, metric: .coins, period: .week, week: p.week, month: p.month)
        XCTAssertEqual(rows.map(\.member), ["dora", "cid3", "bob1", "anna"], "the others' week; eve9 and fred are not ranked with it")
        // A tie between two weeks: the later, on every device.
        var tie = CircleBoard()
        _ = try tie.receive(report("anna", seq: 1, at: t0, week: week))
        _ = try tie.receive(report("bob1", seq: 1, at: t0, week: week + 7))
        XCTAssertEqual(Leaderboard.period(tie)?.week, week + 7)
        XCTAssertNil(Leaderboard.period(CircleBoard()))
    }
}
