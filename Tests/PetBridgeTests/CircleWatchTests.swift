import PetBridge
import PetCore
import TestSupport
import XCTest

/// Circles followed live (docs/circles.md#watching-circles): several circles' reports taken in
/// through the ingestion of a sync round; a leaderboard line only for a circle whose leaderboard
/// changed; the same reports in any order, replayed or duplicated, give the same lines.
final class CircleWatchTests: XCTestCase {
    func report(_ m: String, seq: Int, coins: Int, week: Int = 20780) -> [UInt8] {
        CircleSync.encode(MemberReport(member: m, seq: seq, sentAt: Instant(1_790_000_000 + Int64(seq)), petName: "Pip", level: 2,
                                       week: week, month: 24322, coinsWeek: coins))
    }

    func testTwoCirclesChangeSeparatelyAndForgedOrOldReportsChangeNothing() throws {
        var w = try CircleWatch(broker: "mqtt://127.0.0.1", prefixes: ["dc/a", "dc/b"])
        XCTAssertEqual(w.topics, ["dc/a/+/report", "dc/b/+/report"])
        XCTAssertTrue(w.receive(topic: "dc/a/ana1/report", payload: report("ana1", seq: 2, coins: 30)))
        XCTAssertTrue(w.receive(topic: "dc/a/bob2/report", payload: report("bob2", seq: 1, coins: 30)))
        XCTAssertFalse(w.receive(topic: "dc/c/ana1/report", payload: report("ana1", seq: 9, coins: 99)), "not a watched circle")
        var ch = w.changes()
        XCTAssertEqual(ch.map(\.prefix), ["dc/a"])
        XCTAssertEqual(ch.first?.rows, "1:ana1:30;1:bob2:30")
        XCTAssertEqual(ch.first?.ranked, 2)
        // A replay of ana1's older report, a forged report on bob2's topic, a duplicate: nothing changes.
        w.receive(topic: "dc/a/ana1/report", payload: report("ana1", seq: 1, coins: 5))
        w.receive(topic: "dc/a/bob2/report", payload: report("ana1", seq: 9, coins: 999))
        w.receive(topic: "dc/a/bob2/report", payload: report("bob2", seq: 1, coins: 30))
        XCTAssertTrue(w.changes().isEmpty)
        XCTAssertEqual(w.refusedCount, 1)
        w.receive(topic: "dc/b/cid3/report", payload: report("cid3", seq: 1, coins: 4))
        w.receive(topic: "dc/a/bob2/report", payload: report("bob2", seq: 2, coins: 31))
        ch = w.changes()
        XCTAssertEqual(ch.map(\.prefix), ["dc/a", "dc/b"])
        XCTAssertEqual(ch.first?.rows, "1:bob2:31;2:ana1:30")
        XCTAssertEqual(w.membersHeld, 3)
        // A member who left (an empty retained message) is no longer ranked.
        w.receive(topic: "dc/a/ana1/report", payload: [])
        XCTAssertEqual(w.changes().first?.rows, "1:bob2:31")
    }

    func testTheSameReportsInAnyOrderGiveTheSameLeaderboard() throws {
        var msgs: [(String, [UInt8])] = []
        for k in 0..<30 {
            let m = "m\(1000 + k)"
            for seq in 1...3 { msgs.append(("dc/a/\(m)/report", report(m, seq: seq, coins: (k * 7 + seq * 13) % 40))) }
        }
        var rng = SplitMix64(seed: 7)
        var lines: Set<String> = []
        for _ in 0..<20 {
            var w = try CircleWatch(broker: "mqtt://127.0.0.1", prefixes: ["dc/a"])
            var order = msgs + msgs.prefix(Int(rng.next() % 20))
            for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
            for (t, p) in order { w.receive(topic: t, payload: p) }
            lines.insert(w.changes().first?.rows ?? "")
        }
        XCTAssertEqual(lines.count, 1)
        XCTAssertEqual(lines.first?.split(separator: ";").count, 30)
    }

    func testBadPrefixesAreRefused() {
        for bad in [[], ["dc/a", "dc/a"], ["dc/#"], ["/dc"]] {
            XCTAssertThrowsError(try CircleWatch(broker: "mqtt://127.0.0.1", prefixes: bad), "\(bad)")
        }
    }
}

/// Proposals over the broker (docs/circles.md#proposing-and-accepting-a-challenge): a proposal
/// counts only on its proposer's topic, under its own id, within the rules, and is not changed once
/// out; an empty retained message withdraws it.
final class CircleProposalTests: XCTestCase {
    func testAProposalCountsOnlyOnItsProposersTopicAndIsNotChanged() {
        let entry = CircleEntry(invite: CircleInvite(broker: "mqtt://127.0.0.1", prefix: "dc/friends", circle: "friends", member: "bob2",
                                                     password: "0123456789abcdef"), share: "all", screenGoal: 0)
        var sync = CircleSync(entry: entry)
        let start = Instant(1_790_000_000)
        let t = ChallengeTerms(id: "ana1-1", proposer: "ana1", goal: .tasksDone(1), start: start, end: start + Seconds.day, stake: 5)
        XCTAssertEqual(sync.proposalTopic(t), "dc/friends/ana1/challenge/ana1-1")
        sync.receive(topic: sync.proposalTopic(t), payload: CircleSync.encode(t))
        XCTAssertEqual(sync.proposals["ana1-1"], t)
        // In ana1's name on bob2's topic; under another id; breaking the rules; changed terms: refused.
        var forged = t; forged.id = "ana1-2"
        sync.receive(topic: "dc/friends/bob2/challenge/ana1-2", payload: CircleSync.encode(forged))
        sync.receive(topic: "dc/friends/ana1/challenge/ana1-3", payload: CircleSync.encode(forged))
        var bad = t; bad.id = "ana1-4"; bad.stake = 5000
        sync.receive(topic: "dc/friends/ana1/challenge/ana1-4", payload: CircleSync.encode(bad))
        var changed = t; changed.stake = 1
        sync.receive(topic: sync.proposalTopic(t), payload: CircleSync.encode(changed))
        sync.receive(topic: "dc/friends/ana1/challenge/ana1-5", payload: Array("{".utf8))
        XCTAssertEqual(Array(sync.proposals.keys), ["ana1-1"])
        XCTAssertEqual(sync.proposals["ana1-1"]?.stake, 5)
        XCTAssertEqual(sync.refused.count, 5)
        XCTAssertTrue(sync.board.reports.isEmpty, "a proposal is no report")
        sync.receive(topic: sync.proposalTopic(t), payload: [])
        XCTAssertTrue(sync.proposals.isEmpty)
    }
}
