import Foundation
import PetCore
import PetDevice
@testable import PetLink
import PetSim
import TestSupport
import XCTest

/// The link commands a home-automation bridge uses (docs/protocol.md#summary-and-buttons):
/// `summary` passes the sharing filter and carries no personal text unless asked for the next
/// title; `buttons.watch` pushes key gestures to the connections that asked, and no others.
final class BridgeLinkTests: XCTestCase {
    func testSummaryHasCountsAndNoTitleUnlessAsked() throws {
        let h = try Harness()
        let token = try h.pair(1)
        try h.send(1, #"{"type":"command","id":"c1","name":"task.create","fields":{"task":"t1","title":"Secret plan","due":"today 09:00"}}"#)
        try h.send(1, #"{"type":"command","id":"c2","name":"task.create","fields":{"task":"t2","title":"Later thing","due":"+3d"}}"#)
        try h.send(1, #"{"type":"command","id":"c3","name":"quit.log","fields":{"trigger":"stress","outcome":"resisted","thoughts":"private words"}}"#)
        _ = try h.messages(1)
        try h.sim.wait(ms: 3 * 3_600_000)   // 10:00: t1 is overdue (the idle connection was closed meanwhile)
        try h.connect(3)
        try h.send(3, #"{"type":"hello","version":1,"token":"\#(token)"}"#)
        _ = try h.messages(3)
        try h.send(3, #"{"type":"command","id":"s1","name":"summary"}"#)
        let s = try XCTUnwrapValue(try h.last(3, type: "summary"))
        XCTAssertEqual(s["id"] as? String, "s1")
        XCTAssertEqual(s["tasks_open"] as? Int, 2)
        XCTAssertEqual(s["tasks_overdue"] as? Int, 1)
        XCTAssertEqual(s["tasks_due_today"] as? Int, 1)
        XCTAssertEqual(s["pet"] as? String, h.sim.app.state.pet.name)
        XCTAssertEqual(s["buttons"] as? [String], ["A", "B", "C"])
        XCTAssertNotNil(s["last_urge"] as? Int)
        XCTAssertEqual(s["sound"] as? Bool, true)
        XCTAssertEqual(s["brightness"] as? Int, 80)
        XCTAssertNil(s["next_task_title"], "no title unless asked")
        let text = String(decoding: try JSONSerialization.data(withJSONObject: s), as: UTF8.self)
        for secret in ["Secret plan", "Later thing", "private words", "stress"] {
            XCTAssertFalse(text.contains(secret), "the summary holds no personal text: \(secret)")
        }
        try h.send(3, #"{"type":"command","id":"s2","name":"summary","fields":{"titles":"yes"}}"#)
        XCTAssertEqual(try h.last(3, type: "summary")?["next_task_title"] as? String, "Secret plan", "the earliest due open task")
        try h.send(3, #"{"type":"command","id":"s3","name":"summary","fields":{"titles":"maybe"}}"#)
        let e = try XCTUnwrapValue(try h.last(3, type: "error"))
        XCTAssertEqual(e["code"] as? String, ErrorCode.invalidField)
        XCTAssertEqual(e["id"] as? String, "s3")
    }

    func testSummaryNeedsAPairedPhone() throws {
        let h = try Harness()
        try h.connect(2)
        try h.send(2, #"{"type":"hello","version":1}"#)
        try h.send(2, #"{"type":"command","id":"s1","name":"summary"}"#)
        XCTAssertEqual(try h.last(2, type: "error")?["code"] as? String, ErrorCode.notPaired)
    }

    func testGesturesGoOnlyToWatchers() throws {
        let h = try Harness()
        try h.pair(1)
        try h.pair(2, name: "Other")
        try h.send(1, #"{"type":"command","id":"w1","name":"buttons.watch"}"#)
        XCTAssertEqual(try h.last(1, type: "reply")?["command"] as? String, "buttons.watch")
        _ = try h.messages(2)
        // (Pairing left the pairing screen open, where holding select unpairs a phone: A and C here.)
        try h.sim.hold(.a)
        try h.sim.doubleTap(.c)
        let got = try h.messages(1).filter { $0["type"] as? String == "button" }
        XCTAssertEqual(h.sim.app.state.phones.paired.count, 2)
        XCTAssertTrue(got.contains { $0["button"] as? String == "A" && $0["gesture"] as? String == "hold" })
        XCTAssertTrue(got.contains { $0["button"] as? String == "C" && $0["gesture"] as? String == "double_tap" })
        XCTAssertTrue(got.contains { $0["button"] as? String == "C" && $0["gesture"] as? String == "tap" })
        XCTAssertFalse(try h.messages(2).contains { $0["type"] as? String == "button" }, "a phone that did not ask gets none")
        // Turned off again.
        try h.send(1, #"{"type":"command","id":"w2","name":"buttons.watch","fields":{"on":"no"}}"#)
        _ = try h.messages(1)
        try h.sim.press(.c)
        XCTAssertFalse(try h.messages(1).contains { $0["type"] as? String == "button" })
    }

    func testATaskReminderPushesTheQueueAtOnce() throws {
        let h = try Harness()
        try h.pair(1)
        try h.send(1, #"{"type":"command","id":"c1","name":"task.create","fields":{"task":"t1","title":"Call","reminders":"+1m"}}"#)
        _ = try h.messages(1)
        try h.sim.wait(ms: 61_000)
        let items = try XCTUnwrapValue(try h.last(1, type: "reminders")?["items"] as? [[String: Any]])
        XCTAssertEqual(items.first?["id"] as? String, "task:t1:0", "pushed when the reminder fires, not at the next connection")
    }

    func testTheChordIsNotReported() throws {
        let h = try Harness()
        try h.pair(1)
        try h.send(1, #"{"type":"command","id":"w1","name":"buttons.watch"}"#)
        _ = try h.messages(1)
        try h.sim.chord()
        let got = try h.messages(1).filter { $0["type"] as? String == "button" }
        XCTAssertFalse(got.contains { ($0["gesture"] as? String)?.contains("chord") ?? true })
    }

    /// Gestures while the watcher is away are kept and replayed, once, after `since=RUN:N`.
    func testGesturesMissedWhileAwayAreReplayedAfterSince() throws {
        let h = try Harness()
        let token = try h.pair(1)
        try h.send(1, #"{"type":"command","id":"w1","name":"buttons.watch"}"#)
        _ = try h.messages(1)
        try h.sim.hold(.a)
        let first = try XCTUnwrapValue(try h.messages(1).last { $0["type"] as? String == "button" })
        let run = try XCTUnwrapValue(first["run"] as? String)
        let n = try XCTUnwrapValue(first["n"] as? Int)
        XCTAssertNotNil(first["at"] as? Int)
        XCTAssertNil(first["replayed"])
        // The watcher goes away; the owner presses on.
        h.link.inbox.append(.disconnected(client: 1))
        try h.sim.serveLink()
        try h.sim.hold(.c)
        try h.sim.press(.c)
        try h.connect(3)
        try h.send(3, #"{"type":"hello","version":1,"token":"\#(token)"}"#)
        _ = try h.messages(3)
        try h.send(3, #"{"type":"command","id":"w2","name":"buttons.watch","fields":{"since":"\#(run):\#(n)"}}"#)
        let again = try h.messages(3)
        XCTAssertEqual(again.first?["type"] as? String, "reply", "the reply first, then the replay")
        let replayed = again.filter { $0["type"] as? String == "button" }
        // (A press may first wake the screen: that tap is reported too.)
        let kept = h.service.gestureLog.filter { ($0.n ?? 0) > Int64(n) }
        XCTAssertEqual(replayed.map { $0["gesture"] as? String }, kept.map(\.gesture))
        XCTAssertEqual(Array(replayed.map { $0["gesture"] as? String }.suffix(2)), ["hold", "tap"])
        XCTAssertEqual(replayed.map { $0["n"] as? Int }, Array((n + 1)...(n + kept.count)), "in order, none twice")
        let latest = n + kept.count
        XCTAssertTrue(replayed.allSatisfy { $0["replayed"] as? Bool == true && $0["run"] as? String == run })
        // Since the latest: nothing again; another run's mark: everything kept; nonsense: refused.
        try h.send(3, #"{"type":"command","id":"w3","name":"buttons.watch","fields":{"since":"\#(run):\#(latest)"}}"#)
        XCTAssertFalse(try h.messages(3).contains { $0["type"] as? String == "button" })
        try h.send(3, #"{"type":"command","id":"w4","name":"buttons.watch","fields":{"since":"0123abcd:99"}}"#)
        XCTAssertEqual(try h.messages(3).filter { $0["type"] as? String == "button" }.count, h.service.gestureLog.count)
        for bad in ["x", run + ":-1", ":3", run + ":3:4"] {
            try h.send(3, #"{"type":"command","id":"w5","name":"buttons.watch","fields":{"since":"\#(bad)"}}"#)
            XCTAssertEqual(try h.last(3, type: "error")?["code"] as? String, ErrorCode.invalidField, bad)
        }
    }

    /// The kept gestures are bounded: at most `gestureKeep`, none older than the window.
    func testKeptGesturesAreBounded() throws {
        let h = try Harness()
        try h.pair(1)
        for _ in 0..<(LinkService.gestureKeep + 10) { try h.sim.press(.c) }
        XCTAssertEqual(h.service.gestureLog.count, LinkService.gestureKeep)
        XCTAssertEqual(h.service.gestureLog.last?.n, Int64(LinkService.gestureKeep + 10))
        try h.sim.wait(ms: (LinkService.gestureWindowSeconds + 1) * 1000)
        try h.sim.press(.c)
        XCTAssertEqual(h.service.gestureLog.count, 1, "the old ones fell out of the window")
    }
}
