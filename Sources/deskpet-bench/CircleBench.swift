#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PetCore
import PetIO

/// `--only circle` (docs/circles.md#scale): a circle of `members` on one device's side — every
/// member's retained report built and encoded as the bridge publishes it (sorted-key JSON), then
/// decoded and taken into a board as a member's or the leader's bridge does after subscribing,
/// the week's leaderboards ranked, and a challenge with every member in it settled with PetCore's
/// rules. One JSON line: the times, the bytes one member downloads (every retained report of the
/// circle), the largest report, and the process's peak RSS. Pure computation: the broker's side
/// is measured by tools/circle-test.sh.
func benchCircle(members: Int) throws {
    let week = CivilDate(year: 2026, month: 11, day: 23).dayNumber
    let start = Instant(Int64(week) * Seconds.day), end = start + 7 * Seconds.day
    let terms = ChallengeTerms(id: "m0000-week", proposer: "m0000", goal: .tasksDone(5), start: start, end: end, stake: 10)
    var payloads: [[UInt8]] = []
    let enc = JSONEncoder()
    enc.outputFormatting = .sortedKeys
    var ids: [String] = []
    for i in 0..<members {
        let id = "m" + String(repeating: "0", count: max(0, 4 - "\(i)".count)) + "\(i)"
        ids.append(id)
        // A full report: every figure shared, a course day, three challenges (one final).
        let r = MemberReport(member: id, seq: 4000 + i, sentAt: end + 3600 + Int64(i), petName: "Pet of learner \(i)", level: 1 + i % 100,
                             week: week, month: 2026 * 12 + 10, coinsWeek: (i * 7919) % 500, coinsMonth: (i * 7919) % 2000,
                             tasksWeek: i % 40, focusWeek: (i * 31) % 900, focusMonth: (i * 31) % 3600, screenWeek: (i * 17) % 1500,
                             screenMonth: (i * 17) % 6000, screenGoal: 90, streak: i % 66, courseDay: 1 + i % 66, postsRead: i % 66,
                             challenges: [ChallengeProgress(challenge: terms.id, met: i % 3 != 0, value: i % 9, finalAt: end + 600),
                                          ChallengeProgress(challenge: "m0001-focus", met: true, value: 3),
                                          ChallengeProgress(challenge: "m0002-habit", met: false, value: 1)])
        payloads.append(Array(try enc.encode(r)))
    }
    let bytes = payloads.reduce(0) { $0 + $1.count }
    let largest = payloads.map(\.count).max() ?? 0
    let dec = JSONDecoder()
    let t0 = monoNs()
    var board = CircleBoard()
    for p in payloads { try board.receive(try dec.decode(MemberReport.self, from: Data(p))) }
    let t1 = monoNs()
    var ranked = 0
    for metric in LeaderboardMetric.allCases {
        ranked += Leaderboard.rank(board, metric: metric, period: .week, week: week, month: 2026 * 12 + 10).count
    }
    let t2 = monoNs()
    guard let s = ChallengeSettlement.settle(terms, members: ids, board: board, now: terms.finalDeadline) else {
        printError("deskpet-bench: circle: the challenge did not settle"); exit(1)
    }
    let t3 = monoNs()
    guard s.pot == members * terms.stake, ranked > 0 else { printError("deskpet-bench: circle: coins not conserved"); exit(1) }
    let ms = { (a: UInt64, b: UInt64) in f(Double(b - a) / 1e6, 2) }
    emit([("figure", q("circle_\(members)")), ("members", "\(members)"), ("ingest_ms", ms(t0, t1)),
          ("rank_ms", ms(t1, t2)), ("rank_metrics", "\(LeaderboardMetric.allCases.count)"), ("settle_ms", ms(t2, t3)),
          ("winners", "\(s.outcomes.values.filter { $0 == .succeeded }.count)"), ("charity", "\(s.charity)"),
          ("report_bytes_downloaded", "\(bytes)"), ("report_bytes_max", "\(largest)"), ("peak_rss_kib", "\(peakRSSKiB())")])
}
