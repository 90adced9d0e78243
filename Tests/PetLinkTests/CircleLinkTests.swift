import Foundation
import PetCore
import PetDevice
@testable import PetLink
import PetSim
import TestSupport
import XCTest

/// The link side of circles (docs/protocol.md#circles): the `circle.*` domain commands reach the
/// journal like any other, and `circle.report` answers with the member's report, computed on the
/// device through the sharing filter (no titles), judging the member once a window has closed.
final class CircleLinkTests: XCTestCase {
    func testTheReportIsComputedOnTheDeviceAndAClosedChallengeIsJudgedOnce() throws {
        let h = try Harness()
        let token = try h.pair(1)
        for i in 0..<3 {
            try h.send(1, #"{"type":"command","id":"t\#(i)","name":"task.create","fields":{"task":"t\#(i)","title":"Secret plan \#(i)"}}"#)
            try h.send(1, #"{"type":"command","id":"d\#(i)","name":"task.complete","fields":{"task":"t\#(i)"}}"#)
        }
        try h.send(1, #"{"type":"command","id":"j1","name":"circle.join","fields":{"circle":"friends","member":"ana1","share":"coins,tasks,challenges"}}"#)
        XCTAssertEqual(try h.last(1, type: "reply")?["command"] as? String, "circle.join")
        let start = h.sim.app.state.now.seconds + 3600
        let end = start + 86_400
        try h.send(1, #"{"type":"command","id":"a1","name":"circle.accept","fields":{"circle":"friends","challenge":"bob2-1","proposer":"bob2","goal":"tasks:1","start":"@\#(start)","end":"@\#(end)","stake":"5"}}"#)
        XCTAssertEqual(try h.last(1, type: "reply")?["command"] as? String, "circle.accept")
        XCTAssertEqual(h.sim.app.state.circles.held, 5)

        try h.send(1, #"{"type":"command","id":"r1","name":"circle.report","fields":{"circle":"friends"}}"#)
        let r = try XCTUnwrapValue(try h.last(1, type: "circle.report"))
        XCTAssertEqual(r["id"] as? String, "r1")
        let report = try XCTUnwrapValue(r["report"] as? [String: Any])
        XCTAssertEqual(report["member"] as? String, "ana1")
        XCTAssertEqual(report["tasksWeek"] as? Int, 3)
        XCTAssertEqual(report["streak"] as? Int, 0, "the streak was not consented")
        let text = String(decoding: try JSONSerialization.data(withJSONObject: r), as: UTF8.self)
        XCTAssertFalse(text.contains("Secret"), text)
        XCTAssertEqual((report["challenges"] as? [[String: Any]])?.first?["finalAt"] as? Int, nil, "running: not final")

        // After the end the report carries the member's final, judged once (journaled).
        try h.sim.wait(ms: (3600 + 86_400 + 600) * 1000)
        try h.connect(2)
        try h.send(2, #"{"type":"hello","version":1,"token":"\#(token)"}"#)
        _ = try h.messages(2)
        try h.send(2, #"{"type":"command","id":"r2","name":"circle.report","fields":{"circle":"friends"}}"#)
        let final1 = try XCTUnwrapValue(((try h.last(2, type: "circle.report"))?["report"] as? [String: Any])?["challenges"] as? [[String: Any]]).first
        XCTAssertEqual(final1?["met"] as? Bool, false, "no task done inside the window")
        let at = try XCTUnwrapValue(final1?["finalAt"] as? Int)
        try h.sim.wait(ms: 60_000)
        try h.send(2, #"{"type":"command","id":"r3","name":"circle.report","fields":{"circle":"friends"}}"#)
        let final2 = ((try h.last(2, type: "circle.report"))?["report"] as? [String: Any])?["challenges"] as? [[String: Any]]
        XCTAssertEqual(final2?.first?["finalAt"] as? Int, at, "the final keeps the instant it was first handed out")
        XCTAssertEqual(h.sim.app.state.circles.challenges["bob2-1"]?.finals["ana1"]?.finalAt?.seconds, Int64(at))

        try h.send(2, #"{"type":"command","id":"r4","name":"circle.report","fields":{"circle":"nope"}}"#)
        XCTAssertEqual(try h.last(2, type: "error")?["code"] as? String, ErrorCode.notFound)
        try h.send(2, #"{"type":"command","id":"r5","name":"circle.report"}"#)
        XCTAssertEqual(try h.last(2, type: "error")?["code"] as? String, ErrorCode.missingField)
    }
}
