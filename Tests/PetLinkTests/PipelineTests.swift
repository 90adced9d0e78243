import Foundation
import PetCore
import PetDevice
@testable import PetLink
import PetStore
import TestSupport
import XCTest

/// Pipelined commands (a phone replaying its queue): answered in order, stored by group commit
/// (one transaction per batch), each reply sent only once its command is durable, at most
/// `batchLimit` messages per connection per wake-up so other clients are served between batches.
final class PipelineTests: XCTestCase {
    func tempDB() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("deskpet-pipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir.appendingPathComponent("pet.db").path
    }

    func frames(_ jsons: [String]) -> [UInt8] { jsons.flatMap { Frame.encode(Array($0.utf8)) } }

    func create(_ i: Int) -> String {
        #"{"type":"command","id":"q\#(i)","name":"task.create","fields":{"task":"q\#(i)","title":"Queued \#(i)"}}"#
    }

    func testEveryReplyIsSentOnlyAfterItsCommandIsDurableAndInOrder() throws {
        let path = try tempDB()
        let h = try Harness(dbPath: path)
        try h.pair(1)
        _ = try h.messages(1)
        // Every frame the device sends is checked against a second connection to the journal at
        // the moment it is sent: an `ok` reply's command row must already be committed.
        let observer = try EventStore(path: path)
        defer { observer.close() }
        var violations: [String] = []
        var order: [String] = []
        h.link.onSend = { f in
            var d = FrameDecoder(maxBody: 1 << 24)
            guard let bodies = try? d.feed(f.bytes) else { violations.append("undecodable"); return }
            for b in bodies {
                guard let o = try? JSONSerialization.jsonObject(with: Data(b)) as? [String: Any] else { continue }
                let type = o["type"] as? String ?? "?"
                order.append(type)
                guard type == "reply", let id = o["id"] as? String else { continue }
                if (try? observer.command(id: "phone-1:\(id)")) == nil { violations.append(id) }
            }
        }
        var jsons = (0..<30).map(create)
        jsons.insert(#"{"type":"command","id":"bad","name":"task.complete","fields":{"task":"nope"}}"#, at: 10)
        jsons.insert(#"{"type":"command","id":"q3","name":"task.create","fields":{"task":"q3","title":"Queued 3"}}"#, at: 20)
        jsons.insert(#"{"type":"command","id":"bad2","name":"no.such.command"}"#, at: 25)
        jsons.insert(#"{"type":"ping"}"#, at: 27)
        let commits = h.service.batchCommits
        try h.raw(1, frames(jsons))
        XCTAssertEqual(violations, [], "replies sent before their command was committed")
        // Runs end at the repeated id (q3) and the ping: three transactions for 33 commands.
        XCTAssertEqual(h.service.batchCommits - commits, 3)
        let ms = try h.messages(1)
        let answers = ms.filter { ["reply", "error", "pong"].contains($0["type"] as? String ?? "") }
        XCTAssertEqual(answers.count, jsons.count, "one answer per message")
        let ids = answers.map { $0["id"] as? String ?? ($0["type"] as? String ?? "") }
        var expected = (0..<30).map { "q\($0)" }
        expected.insert("bad", at: 10); expected.insert("q3", at: 20); expected.insert("bad2", at: 25); expected.insert("pong", at: 27)
        XCTAssertEqual(ids, expected, "answered in order")
        XCTAssertEqual(answers[10]["code"] as? String, "not_found")
        XCTAssertEqual(answers[20]["duplicate"] as? Bool, true)
        XCTAssertEqual(answers[25]["code"] as? String, "unknown_command")
        // Each reply's seq is the journal position after its own command.
        let seqs = answers.compactMap { ($0["type"] as? String) == "reply" && $0["duplicate"] == nil ? ($0["seq"] as? NSNumber)?.int64Value : nil }
        XCTAssertEqual(seqs, seqs.sorted())
        XCTAssertEqual(Set(seqs).count, seqs.count)
        XCTAssertEqual(seqs.last, try h.lastSeq())
        // Events are pushed before the replies of their batch.
        XCTAssertLessThan(order.firstIndex(of: "event") ?? 999, order.firstIndex(of: "reply") ?? -1)
        XCTAssertEqual(try h.sim.app.store.events().filter { $0.type == "task.created" }.count, 30, "each applied once")
    }

    func testABigPipelineIsServedInBatchesAndOtherClientsBetweenThem() throws {
        var config = LinkConfig()
        config.batchLimit = 16
        let h = try Harness(config: config)
        try h.pair(1)
        let token = try XCTUnwrapValue(h.sim.app.state.phones.paired.first?.id)
        XCTAssertEqual(token, "phone-1")
        try h.connect(2)
        try h.send(2, #"{"type":"hello","version":1}"#)
        _ = try h.messages(1); _ = try h.messages(2)
        // 50 commands arrive in one read from client 1 and a ping from client 2 in the same wake-up.
        h.link.inbox.append(.frame(LinkFrame(client: 1, bytes: frames((0..<50).map(create)))))
        h.link.inbox.append(.frame(LinkFrame(client: 2, bytes: frames([#"{"type":"ping"}"#]))))
        try h.sim.serveLink()
        XCTAssertEqual(try h.messages(1).filter { $0["type"] as? String == "reply" }.count, 16, "one batch per wake-up")
        XCTAssertEqual(try h.messages(2).last?["type"] as? String, "pong", "the other client is served meanwhile")
        // The backlog makes the loop wake at once; it drains batch by batch.
        let now = h.sim.loop.nowMs
        XCTAssertEqual(h.sim.loop.nextDeadlineMs(), now)
        var replies = 16, wakeups = 0
        while h.service.nextDeadlineMs(loop: h.sim.loop) == now, wakeups < 10 {
            try h.sim.serveLink()
            wakeups += 1
            replies += try h.messages(1).filter { $0["type"] as? String == "reply" }.count
        }
        XCTAssertEqual(replies, 50)
        XCTAssertEqual(wakeups, 3)
        XCTAssertEqual(h.sim.app.state.tasks.count, 50)
    }

    func testAJournalFailureAnswersEveryCommandOfTheBatchAndAcknowledgesNone() throws {
        let h = try Harness()
        try h.pair(1)
        _ = try h.messages(1)
        let before = h.sim.app.state
        h.sim.app.store.close()
        try h.raw(1, frames((0..<5).map(create) + [#"{"type":"command","id":"x","name":"task.complete","fields":{"task":"nope"}}"#]))
        let answers = try h.messages(1).filter { $0["type"] as? String != "event" && $0["type"] as? String != "state" }
        XCTAssertEqual(answers.map { $0["code"] as? String }, Array(repeating: "journal_failed", count: 5) + ["journal_failed"])
        XCTAssertFalse(answers.contains { $0["ok"] as? Bool == true })
        XCTAssertEqual(h.sim.app.state, before)
    }

    func testAClientThatFloodsBeyondTheWaitingBoundIsClosed() throws {
        var config = LinkConfig()
        config.batchLimit = 4
        config.maxWaitingBytes = 2000
        let h = try Harness(config: config)
        try h.pair(1)
        _ = try h.messages(1)
        try h.raw(1, frames((0..<40).map(create)))
        XCTAssertTrue(h.link.disconnected.contains(1))
        XCTAssertEqual(h.service.clientCount, 0)
        XCTAssertEqual(h.sim.app.state.tasks.count, 0, "nothing of a refused flood was applied")
    }
}
