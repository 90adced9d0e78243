import Foundation
@testable import PetCore
import PetDevice
@testable import PetLink
import PetWire
import TestSupport
import XCTest

/// `circle.state` (docs/protocol.md#circles): the read-only link command the companion's Circles
/// view uses — the circles joined with their consent, one circle's leaderboards as the device
/// holds them (the Circle screen's ranks), its held and settled challenges; stores nothing; hostile
/// names travel as text; every limit filled still fits one frame.
final class CircleStateLinkTests: XCTestCase {
    func testNoCircleIsAnEmptyAnswerAndBadFieldsAreTypedErrors() throws {
        let h = try Harness()
        try h.pair(1)
        let seq = try h.lastSeq()
        try h.send(1, #"{"type":"command","id":"s1","name":"circle.state"}"#)
        let r = try XCTUnwrapValue(try h.last(1, type: "circle.state"))
        XCTAssertEqual(r["id"] as? String, "s1")
        XCTAssertEqual((r["circles"] as? [Any])?.count, 0)
        XCTAssertNil(r["circle"], "no circle joined: none described")
        XCTAssertEqual((r["boards"] as? [Any])?.count, 0)
        XCTAssertEqual((r["challenges"] as? [Any])?.count, 0)
        XCTAssertEqual((r["settled"] as? [Any])?.count, 0)
        XCTAssertEqual(r["held"] as? Int, 0)
        try h.send(1, #"{"type":"command","id":"s2","name":"circle.state","fields":{"circle":"nope"}}"#)
        XCTAssertEqual(try h.last(1, type: "error")?["code"] as? String, ErrorCode.notFound)
        try h.send(1, #"{"type":"command","id":"s3","name":"circle.state","fields":{"circle":"Bad Id"}}"#)
        let bad = try XCTUnwrapValue(try h.last(1, type: "error"))
        XCTAssertEqual(bad["code"] as? String, ErrorCode.invalidField)
        XCTAssertEqual(bad["id"] as? String, "s3")
        try h.send(1, #"{"type":"command","id":"s4","name":"circle.state","fields":{"circle":{"x":1}}}"#)
        XCTAssertEqual(try h.last(1, type: "error")?["code"] as? String, ErrorCode.invalidField)
        XCTAssertEqual(try h.lastSeq(), seq, "read-only: nothing stored")
        // Unpaired connections get nothing.
        try h.connect(2)
        try h.send(2, #"{"type":"hello","version":1}"#)
        try h.send(2, #"{"type":"command","id":"s5","name":"circle.state"}"#)
        XCTAssertEqual(try h.last(2, type: "error")?["code"] as? String, ErrorCode.notPaired)
    }

    func testTheBoardsChallengesAndSettlementsAsTheDeviceHoldsThem() throws {
        let h = try Harness()
        let token = try h.pair(1)
        for i in 0..<2 {
            try h.send(1, #"{"type":"command","id":"t\#(i)","name":"task.create","fields":{"task":"t\#(i)","title":"Secret plan \#(i)"}}"#)
            try h.send(1, #"{"type":"command","id":"d\#(i)","name":"task.complete","fields":{"task":"t\#(i)"}}"#)
        }
        try h.send(1, #"{"type":"command","id":"j1","name":"circle.join","fields":{"circle":"friends","member":"ana1","share":"coins,focus,challenges","screen_goal":"90"}}"#)
        try h.send(1, #"{"type":"command","id":"j2","name":"circle.join","fields":{"circle":"book-club","member":"ana-b","share":"none"}}"#)
        // Hostile names: markup, quotes, the row format's own separators.
        let hostile = #"<img src=x onerror=p=1>"#   // 23 characters: a pet name is at most 24
        let rows = "1:bob2:50:\(CircleCommands.escape(hostile));2:ana1:40:Pip;2:cid3:40:\(CircleCommands.escape("\"Ci;d\" 100%"))"
        try h.send(1, #"{"type":"command","id":"b1","name":"circle.standing","fields":{"circle":"friends","metric":"coins","period":"week","number":"20514","ranked":"3","rows":"\#(rows.replacingOccurrences(of: "\"", with: "\\\""))"}}"#)
        XCTAssertEqual(try h.last(1, type: "reply")?["command"] as? String, "circle.standing")
        try h.send(1, #"{"type":"command","id":"b2","name":"circle.standing","fields":{"circle":"friends","metric":"focus","period":"month","number":"24314","ranked":"2","rows":"1:ana1:300:Pip;2:bob2:20:Bob"}}"#)
        try h.send(1, #"{"type":"command","id":"b3","name":"circle.standing","fields":{"circle":"friends","metric":"coins","period":"month","number":"24314","ranked":"1","rows":"1:ana1:70:Pip"}}"#)
        let start = h.sim.app.state.now.seconds + 3600
        let end = start + 86_400
        try h.send(1, #"{"type":"command","id":"a1","name":"circle.accept","fields":{"circle":"friends","challenge":"bob2-1","proposer":"bob2","goal":"tasks:1","start":"@\#(start)","end":"@\#(end)","stake":"5"}}"#)
        try h.send(1, #"{"type":"command","id":"a2","name":"circle.accept","fields":{"circle":"friends","challenge":"cid3-1","proposer":"cid3","goal":"habit","start":"@\#(start)","end":"@\#(end + 86_400)","stake":"3"}}"#)
        XCTAssertEqual(h.sim.app.state.circles.held, 8)

        let seq = try h.lastSeq()
        try h.send(1, #"{"type":"command","id":"s1","name":"circle.state"}"#)
        let r = try XCTUnwrapValue(try h.last(1, type: "circle.state"))
        XCTAssertEqual(try h.lastSeq(), seq, "read-only: nothing stored")
        XCTAssertEqual(r["circle"] as? String, "book-club", "the first by id, when none is asked for")
        let circles = try XCTUnwrapValue(r["circles"] as? [[String: Any]])
        XCTAssertEqual(circles.map { $0["circle"] as? String }, ["book-club", "friends"])
        XCTAssertEqual(circles[1]["share"] as? [String], ["challenges", "coins", "focus"])
        XCTAssertEqual(circles[1]["screen_goal"] as? Int, 90)
        XCTAssertEqual(circles[0]["share"] as? [String], [])
        XCTAssertEqual(r["held"] as? Int, 8)

        try h.send(1, #"{"type":"command","id":"s2","name":"circle.state","fields":{"circle":"friends"}}"#)
        let f = try XCTUnwrapValue(try h.last(1, type: "circle.state"))
        let boards = try XCTUnwrapValue(f["boards"] as? [[String: Any]])
        XCTAssertEqual(boards.map { "\($0["period"]!):\($0["metric"]!)" }, ["week:coins", "month:coins", "month:focus"],
                       "week before month, then coins, focus, screen, streak")
        let week = try XCTUnwrapValue(boards[0]["rows"] as? [[String: Any]])
        XCTAssertEqual(week.map { $0["rank"] as? Int }, [1, 2, 2], "the ranks the bridge handed over, ties shared")
        XCTAssertEqual(week.map { $0["name"] as? String }, [hostile, "Pip", "\"Ci;d\" 100%"], "names as text, unescaped")
        XCTAssertEqual(boards[0]["ranked"] as? Int, 3)
        // The same ranks the Circle screen draws from.
        XCTAssertEqual(h.sim.app.state.circles.standing("friends", .coins, .week)?.rows.map(\.rank), [1, 2, 2])
        let running = try XCTUnwrapValue(f["challenges"] as? [[String: Any]])
        XCTAssertEqual(running.map { $0["challenge"] as? String }, ["bob2-1", "cid3-1"])
        XCTAssertEqual(running[0]["phase"] as? String, "upcoming")
        XCTAssertEqual(running[0]["goal"] as? String, "tasks:1")
        XCTAssertEqual(running[0]["stake"] as? Int, 5)
        XCTAssertEqual(running[0]["deadline"] as? Int, Int(end) + 48 * 3600)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: f), as: UTF8.self)
        XCTAssertFalse(text.contains("Secret"), "no titles")

        // Past the end: bob2's final arrives, ana1 is judged (no task in the window), settled.
        try h.sim.wait(ms: (3600 + 86_400 + 600) * 1000)
        try h.connect(3)
        try h.send(3, #"{"type":"hello","version":1,"token":"\#(token)"}"#)
        _ = try h.messages(3)
        try h.send(3, #"{"type":"command","id":"f1","name":"circle.final","fields":{"circle":"friends","challenge":"bob2-1","member":"bob2","met":"yes","value":"3","final_at":"@\#(end + 60)"}}"#)
        try h.send(3, #"{"type":"command","id":"g1","name":"circle.judge","fields":{"circle":"friends"}}"#)
        try h.send(3, #"{"type":"command","id":"p1","name":"circle.state","fields":{"circle":"friends"}}"#)
        let closed = try XCTUnwrapValue(try h.last(3, type: "circle.state")?["challenges"] as? [[String: Any]])
        XCTAssertEqual(closed.first?["phase"] as? String, "settling")
        XCTAssertEqual(closed.first?["finals"] as? Int, 2)
        XCTAssertEqual(closed.last?["phase"] as? String, "running")
        try h.send(3, #"{"type":"command","id":"x1","name":"circle.settle","fields":{"circle":"friends","challenge":"bob2-1","members":"ana1,bob2"}}"#)
        XCTAssertEqual(try h.last(3, type: "reply")?["command"] as? String, "circle.settle")
        try h.send(3, #"{"type":"command","id":"s3","name":"circle.state","fields":{"circle":"friends"}}"#)
        let after = try XCTUnwrapValue(try h.last(3, type: "circle.state"))
        let settled = try XCTUnwrapValue(after["settled"] as? [[String: Any]])
        XCTAssertEqual(settled.count, 1)
        XCTAssertEqual(settled[0]["challenge"] as? String, "bob2-1")
        XCTAssertEqual(settled[0]["outcome"] as? String, "failed")
        XCTAssertEqual(settled[0]["payout"] as? Int, 0)
        XCTAssertEqual(settled[0]["stake"] as? Int, 5)
        XCTAssertEqual(settled[0]["members"] as? Int, 2)
        XCTAssertEqual(settled[0]["succeeded"] as? Int, 1)
        XCTAssertEqual((after["challenges"] as? [[String: Any]])?.map { $0["challenge"] as? String }, ["cid3-1"])
        XCTAssertEqual(after["held"] as? Int, 3)
    }

    /// Every limit of the ledger filled with the longest names (24 four-byte characters, quotes
    /// that JSON escapes): the answer still fits one frame.
    func testEveryLimitFilledStillFitsOneFrame() throws {
        let h = try Harness()
        var s = h.sim.app.state
        let now = s.now
        let name = String(repeating: "\u{1F600}", count: 23) + "\""
        func member(_ i: Int) -> String { "m" + String(repeating: "x", count: 27) + String(format: "%04d", i) }
        for c in 0..<CircleLedgerRules.maxCircles {
            let id = String(format: "c%02d", c) + String(repeating: "z", count: 45)
            s.circles.circles[id] = CircleMembership(circle: id, member: member(0), share: Set(CircleShare.allCases), screenGoal: 1440,
                                                     joinedAt: now)
            s.circles.standings[id] = LeaderboardPeriod.allCases.flatMap { p in
                LeaderboardMetric.allCases.map { m in
                    CircleStanding(metric: m, period: p, number: 99_999_999, ranked: 1_000_000,
                                   rows: (0..<CircleLedgerRules.maxRows).map {
                                       LeaderboardRow(rank: 1_000_000 - $0, member: member($0), petName: name, value: Int(Int32.max))
                                   }, at: now)
                }
            }
        }
        let first = s.circles.circles.keys.min()!
        for k in 0..<CircleLedgerRules.maxChallenges {
            let terms = ChallengeTerms(id: member(k) + "-" + String(repeating: "9", count: 15), proposer: member(k), goal: .tasksDone(10_000),
                                       start: now + 60, end: now + 92 * 86_400, stake: 1000)
            var held = HeldChallenge(circle: first, terms: terms, acceptedAt: now)
            for m in 0..<CircleLedgerRules.maxChallengeMembers {
                held.finals[member(m)] = ChallengeProgress(challenge: terms.id, met: true, value: 10_000, finalAt: now)
            }
            s.circles.challenges[terms.id] = held
        }
        for k in 0..<CircleLedgerRules.keepSettled {
            var outcomes: [String: ChallengeOutcome] = [:], payouts: [String: Int] = [:]
            for m in 0..<CircleLedgerRules.maxChallengeMembers { outcomes[member(m)] = .succeeded; payouts[member(m)] = 1000 }
            s.circles.settled.append(SettledChallenge(circle: first, settlement: ChallengeSettlement(challenge: "x\(k)", outcomes: outcomes,
                                                                                                   payouts: payouts, charity: 999),
                                                      member: member(0), payout: 1000, stake: 1000, at: now, final: nil, deadline: now))
        }
        let answer = try XCTUnwrapValue(CircleStateMessage(id: String(repeating: "i", count: LinkService.maxClientID), state: s,
                                                           circle: first, now: now))
        XCTAssertEqual(answer.boards.count, CircleLedgerRules.maxBoards)
        XCTAssertEqual(answer.challenges.count, CircleLedgerRules.maxChallenges)
        XCTAssertEqual(answer.settled.count, CircleLedgerRules.keepSettled)
        let body = MessageEncoder.body(answer)
        XCTAssertLessThanOrEqual(body.count, Frame.maxBody, "\(body.count) bytes")
        XCTAssertGreaterThan(body.count, 20_000, "the limits were filled")
    }
}
