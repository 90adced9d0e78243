import Foundation
import PetBridge
import PetCore
import PetWire
import TestSupport
import XCTest

/// The bridge's side of circles (docs/circles.md#the-bridge): invites read back exactly and refuse
/// what is damaged, and one sync round hands the device what the circle's reports say — never a
/// report whose topic names another member.
final class CircleBridgeTests: XCTestCase {
    func testAnInviteRoundTripsAndADamagedOneIsRefusedByWhatIsWrong() throws {
        let invite = CircleInvite(broker: "mqtts://broker.example:8883", prefix: "deskpet-circles/friends", circle: "friends",
                                  member: "bob2", password: "Zm9vYmFyYmF6cXV4cXV1eA")
        XCTAssertNil(invite.problem())
        XCTAssertTrue(invite.text.hasPrefix("dpc1."))
        XCTAssertFalse(invite.text.contains("="), "no padding")
        XCTAssertEqual(try CircleInvite.parse(invite.text), invite)
        XCTAssertEqual(try CircleInvite.parse("  " + invite.text + "\n"), invite)
        for bad in ["", "dpc2.abc", "dpc1.!!!!", "dpc1." + String(invite.text.dropFirst(5).dropLast(3))] {
            XCTAssertThrowsError(try CircleInvite.parse(bad), bad)
        }
        for (field, broken) in [("broker", CircleInvite(broker: "http://x", prefix: "p", circle: "c", member: "bob2", password: "0123456789abcdef")),
                                ("prefix", CircleInvite(broker: "mqtt://x", prefix: "a/#", circle: "c", member: "bob2", password: "0123456789abcdef")),
                                ("member", CircleInvite(broker: "mqtt://x", prefix: "p", circle: "c", member: "B", password: "0123456789abcdef")),
                                ("password", CircleInvite(broker: "mqtt://x", prefix: "p", circle: "c", member: "bob2", password: "short"))] {
            XCTAssertEqual(broken.problem(), field)
            XCTAssertThrowsError(try CircleInvite.parse(broken.text)) { XCTAssertFalse("\($0)".contains(broken.password) && broken.password.count > 5) }
        }
        let a = try CircleInvite.newPassword(), b = try CircleInvite.newPassword()
        XCTAssertEqual(a.count, 32); XCTAssertNotEqual(a, b)
    }

    func testASyncRoundHandsTheDeviceFinalsTheStandingAndASettlementAndRefusesForgedReports() throws {
        let entry = CircleEntry(invite: CircleInvite(broker: "mqtt://127.0.0.1", prefix: "dc/friends", circle: "friends", member: "ana1",
                                                     password: "0123456789abcdef"), share: "all", screenGoal: 0)
        var sync = CircleSync(entry: entry)
        let t = Instant(1_790_000_000)
        func report(_ m: String, coins: Int, final: Bool) -> MemberReport {
            MemberReport(member: m, seq: 3, sentAt: t, petName: "Pip;\(m)", level: 2, week: 20780, month: 24322, coinsWeek: coins,
                         challenges: [ChallengeProgress(challenge: "ana1-1", met: true, value: 2, finalAt: final ? t : nil)])
        }
        sync.receive(topic: "dc/friends/bob2/report", payload: CircleSync.encode(report("bob2", coins: 30, final: true)))
        sync.receive(topic: "dc/friends/cid3/report", payload: CircleSync.encode(report("cid3", coins: 10, final: false)))
        // bob2 writing a report for cid3's id on its own topic is refused (and the ACL refuses the reverse).
        sync.receive(topic: "dc/friends/bob2/report", payload: CircleSync.encode(report("cid3", coins: 999, final: true)))
        sync.receive(topic: "dc/friends/zed9/report", payload: Array("not json".utf8))
        sync.receive(topic: "elsewhere/ana1/report", payload: CircleSync.encode(report("ana1", coins: 1, final: true)))
        XCTAssertEqual(sync.refused, ["dc/friends/bob2/report", "dc/friends/zed9/report"])
        let own = report("ana1", coins: 20, final: true)
        sync.receive(topic: entry.reportTopic, payload: CircleSync.encode(own))
        let cmds = sync.commands(own: own)
        // Every board someone is ranked on (nobody shares screen time against a goal: no screen board).
        XCTAssertEqual(cmds.map(\.name), ["circle.final"] + Array(repeating: "circle.standing", count: 6) + ["circle.settle"])
        XCTAssertEqual(cmds.filter { $0.name == "circle.standing" }.map { $0.fields["period"]! + ":" + $0.fields["metric"]! },
                       ["week:coins", "week:focus", "week:streak", "month:coins", "month:focus", "month:streak"])
        XCTAssertEqual(cmds[4].fields["number"], "24322", "a month's board is numbered by the month")
        XCTAssertEqual(cmds[0].fields["member"], "bob2")
        XCTAssertEqual(cmds[0].fields["final_at"], "@\(t.seconds)")
        XCTAssertEqual(cmds[1].fields["rows"], "1:bob2:30:Pip%3Bbob2;2:ana1:20:Pip%3Bana1;3:cid3:10:Pip%3Bcid3")
        XCTAssertEqual(cmds.last?.fields["members"], "ana1,bob2,cid3")
        // A member who left (an empty retained message) is no longer ranked; its final stays.
        sync.receive(topic: "dc/friends/bob2/report", payload: [])
        XCTAssertEqual(sync.commands(own: own)[1].fields["ranked"], "2")
        XCTAssertEqual(sync.members(of: "ana1-1", own: "ana1"), ["ana1", "bob2", "cid3"])
    }
}
