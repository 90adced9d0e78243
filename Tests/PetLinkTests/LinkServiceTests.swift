import Foundation
import PetCore
import PetDevice
@testable import PetLink
import PetSim
import PetStore
import TestSupport
import XCTest

/// The protocol service on an in-memory transport driving a simulated device: pairing, commands
/// acknowledged after the journal, pushed events, resume, reminders, and refused input that
/// changes nothing.
final class LinkServiceTests: XCTestCase {
    func testPairAddCompleteRewardAndDuplicate() throws {
        let h = try Harness()
        let token = try h.pair(1)
        XCTAssertEqual(h.sim.app.state.phones.paired.map(\.id), ["phone-1"])
        XCTAssertNil(h.sim.ui.pairingCode, "the code is hidden once paired")
        try h.send(1, #"{"type":"command","id":"c1","name":"task.create","fields":{"task":"t1","title":"Water plants"}}"#)
        var ms = try h.messages(1)
        let created = try XCTUnwrapValue(ms.last)
        XCTAssertEqual(created["type"] as? String, "reply")
        XCTAssertEqual(created["id"] as? String, "c1")
        XCTAssertEqual(created["ok"] as? Bool, true)
        // The journal row exists by the time the reply is sent (the reply is the last frame).
        let seq = try h.lastSeq()
        XCTAssertEqual((created["seq"] as? NSNumber)?.int64Value, seq)
        XCTAssertEqual(try h.sim.app.store.events(after: seq - 1).first?.type, "task.created")
        XCTAssertTrue(ms.contains { $0["type"] as? String == "event" && $0["kind"] as? String == "changed" })

        try h.send(1, #"{"type":"command","id":"c2","name":"task.complete","fields":{"task":"t1"}}"#)
        ms = try h.messages(1)
        let reward = try XCTUnwrapValue(ms.first { $0["type"] as? String == "event" && $0["kind"] as? String == "reward" })
        XCTAssertEqual((reward["event"] as? [String: Any])?["type"] as? String, "task.completed")
        let done = try XCTUnwrapValue(ms.last)
        XCTAssertEqual(done["type"] as? String, "reply")
        let coins = try XCTUnwrapValue(done["coins"] as? Int)
        XCTAssertGreaterThan(coins, 0)
        XCTAssertLessThan(ms.firstIndex { $0["kind"] as? String == "reward" } ?? 99, ms.count - 1, "events before the reply")

        // The same id again: the stored reply, marked duplicate, nothing new in the journal.
        let before = try h.lastSeq()
        try h.send(1, #"{"type":"command","id":"c2","name":"task.complete","fields":{"task":"t1"}}"#)
        ms = try h.messages(1)
        XCTAssertEqual(ms.count, 1)
        XCTAssertEqual(ms[0]["duplicate"] as? Bool, true)
        XCTAssertEqual(ms[0]["coins"] as? Int, coins)
        XCTAssertEqual(try h.lastSeq(), before)
        XCTAssertEqual(h.sim.app.state.coins, coins)

        // The token is stored only hashed.
        let rows = try h.sim.app.store.events()
        let paired = try XCTUnwrapValue(rows.first { $0.type == "phone.paired" })
        XCTAssertFalse(rows.contains { $0.payload.contains(token) })
        XCTAssertTrue(paired.payload.contains(Hex.encode(SHA256.hash(try XCTUnwrapValue(Hex.decode(token))))))
        XCTAssertFalse(paired.payload.contains("Test phone") == false)
    }

    func testLaterConnectionsAuthenticateWithTheToken() throws {
        let h = try Harness()
        let token = try h.pair(1)
        try h.connect(2)
        try h.send(2, #"{"type":"hello","version":1,"token":"\#(token)"}"#)
        let w = try XCTUnwrapValue(try h.messages(2).first)
        XCTAssertEqual(w["type"] as? String, "welcome")
        XCTAssertEqual(w["paired"] as? Bool, true)
        XCTAssertEqual(w["phone"] as? String, "phone-1")
        try h.send(2, #"{"type":"command","id":"x","name":"pet.pet"}"#)
        XCTAssertEqual(try h.messages(2).last?["type"] as? String, "reply")
        // A wrong token: refused, and the connection stays unauthenticated.
        try h.connect(3)
        try h.send(3, #"{"type":"hello","version":1,"token":"\#(String(repeating: "0", count: 64))"}"#)
        XCTAssertEqual(try h.messages(3).last?["code"] as? String, "bad_token")
        try h.send(3, #"{"type":"command","id":"y","name":"pet.pet"}"#)
        XCTAssertEqual(try h.messages(3).last?["code"] as? String, "not_paired")
    }

    func testUnpairedConnectionsMayOnlyHelloAndPair() throws {
        let h = try Harness()
        let seq = try h.lastSeq()
        try h.connect(1)
        try h.send(1, #"{"type":"command","id":"c1","name":"task.create","fields":{"title":"x"}}"#)
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "hello_first")
        try h.send(1, #"{"type":"hello","version":1}"#)
        let w = try XCTUnwrapValue(try h.messages(1).first)
        XCTAssertEqual(w["paired"] as? Bool, false)
        try h.send(1, #"{"type":"command","id":"c1","name":"task.create","fields":{"title":"x"}}"#)
        let e = try XCTUnwrapValue(try h.messages(1).last)
        XCTAssertEqual(e["code"] as? String, "not_paired")
        XCTAssertEqual(e["id"] as? String, "c1")
        try h.send(1, #"{"type":"unpair"}"#)
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "not_paired")
        try h.send(1, #"{"type":"hello","version":2}"#)
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "unsupported_version")
        XCTAssertEqual(try h.lastSeq(), seq, "nothing stored")
        XCTAssertFalse(h.link.disconnected.contains(1))
    }

    func testFiveWrongCodesLockPairingForTenMinutesAcrossARestart() throws {
        let dir = try makeTemporaryDirectory("link-lock")
        defer { removeTemporaryDirectory(dir) }
        let path = dir.appendingPathComponent("pet.db").path
        do {
            let h = try Harness(dbPath: path)
            try h.connect(1)
            try h.send(1, #"{"type":"hello","version":1}"#)
            _ = try h.messages(1)
            let seq = try h.lastSeq()
            for attempt in 1...5 {
                try h.send(1, #"{"type":"pair.begin"}"#)
                XCTAssertNotNil(h.sim.ui.pairingCode)
                _ = try h.messages(1)
                try h.send(1, #"{"type":"pair.finish","nonce":"\#(String(repeating: "11", count: 16))","mac":"\#(String(repeating: "22", count: 32))","name":"p"}"#)
                let e = try XCTUnwrapValue(try h.messages(1).last)
                if attempt < 5 {
                    XCTAssertEqual(e["code"] as? String, "wrong_code")
                    XCTAssertEqual(e["attempts_left"] as? Int, 5 - attempt)
                    XCTAssertEqual(try h.lastSeq(), seq, "a wrong code stores nothing")
                } else {
                    XCTAssertEqual(e["code"] as? String, "pairing_locked")
                    XCTAssertEqual(e["retry_after"] as? Int, 600)
                }
            }
            XCTAssertEqual(try h.sim.app.store.events(after: seq).map(\.type), ["phone.pairing-locked"])
            XCTAssertTrue(h.sim.canvas.showsText("locked"), "the pairing screen says so")
            try h.send(1, #"{"type":"pair.begin"}"#)
            XCTAssertEqual(try h.messages(1).last?["code"] as? String, "pairing_locked")
            h.sim.app.store.close()
        }
        // A restart does not lift it; ten minutes do.
        let h = try Harness(dbPath: path)
        try h.connect(1)
        try h.send(1, #"{"type":"hello","version":1}"#)
        try h.send(1, #"{"type":"pair.begin"}"#)
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "pairing_locked")
        try h.sim.wait(ms: 601_000)
        try h.connect(2)
        try h.send(2, #"{"type":"hello","version":1}"#)
        try h.send(2, #"{"type":"pair.begin"}"#)
        XCTAssertEqual(try h.messages(2).last?["type"] as? String, "pair.challenge")
    }

    func testAReplayedProofFails() throws {
        let h = try Harness()
        try h.connect(1)
        try h.send(1, #"{"type":"hello","version":1}"#)
        try h.send(1, #"{"type":"pair.begin"}"#)
        let ch = try XCTUnwrapValue(try h.last(1, type: "pair.challenge")?["challenge"] as? String)
        let code = try XCTUnwrapValue(h.sim.ui.pairingCode)
        XCTAssertEqual(code.count, 6)
        XCTAssertTrue(code.allSatisfy(\.isNumber))
        let nonce = [UInt8](repeating: 7, count: 16)
        let mac = PairFinish.proof(code: code, challenge: try XCTUnwrapValue(Hex.decode(ch)), nonce: nonce)
        let finish = #"{"type":"pair.finish","nonce":"\#(Hex.encode(nonce))","mac":"\#(Hex.encode(mac))","name":"A"}"#
        try h.send(1, finish)
        XCTAssertEqual(try h.messages(1).last?["type"] as? String, "paired")
        // The same proof again, on this connection and on another: no open challenge.
        try h.send(1, finish)
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "no_challenge")
        try h.connect(2)
        try h.send(2, #"{"type":"hello","version":1}"#)
        try h.send(2, finish)
        XCTAssertEqual(try h.messages(2).last?["code"] as? String, "no_challenge")
        // And against a fresh challenge it is a wrong code.
        try h.send(2, #"{"type":"pair.begin"}"#)
        try h.send(2, finish)
        XCTAssertEqual(try h.messages(2).last?["code"] as? String, "wrong_code")
        XCTAssertEqual(h.sim.app.state.phones.paired.count, 1)
    }

    func testAtMostFourPhonesAndUnpairFromThePhone() throws {
        let h = try Harness()
        var tokens: [String] = []
        for c in 1...4 { tokens.append(try h.pair(c, name: "P\(c)")) }
        try h.connect(5)
        try h.send(5, #"{"type":"hello","version":1}"#)
        try h.send(5, #"{"type":"pair.begin"}"#)
        XCTAssertEqual(try h.messages(5).last?["code"] as? String, "too_many_phones")
        // Phone 2 unpairs itself; phone 1 unpairs phone 3 (which is told and loses its session).
        try h.send(2, #"{"type":"unpair"}"#)
        XCTAssertEqual(try h.messages(2).last?["type"] as? String, "unpaired")
        _ = try h.messages(3)
        try h.send(1, #"{"type":"unpair","phone":"phone-3"}"#)
        XCTAssertEqual(try h.messages(1).last?["phone"] as? String, "phone-3")
        XCTAssertEqual(try h.messages(3).last?["code"] as? String, "not_paired")
        try h.send(3, #"{"type":"command","id":"z","name":"pet.pet"}"#)
        XCTAssertEqual(try h.messages(3).last?["code"] as? String, "not_paired")
        XCTAssertEqual(h.sim.app.state.phones.paired.map(\.id), ["phone-1", "phone-4"])
        try h.connect(6)
        try h.send(6, #"{"type":"hello","version":1,"token":"\#(tokens[1])"}"#)
        XCTAssertEqual(try h.messages(6).last?["code"] as? String, "bad_token")
        let types = try h.sim.app.store.events().map(\.type).filter { $0.hasPrefix("phone.") }
        XCTAssertEqual(types, ["phone.paired", "phone.paired", "phone.paired", "phone.paired", "phone.unpaired", "phone.unpaired"])
    }

    func testBadFramesAndMessages() throws {
        let h = try Harness()
        try h.pair(1)
        _ = try h.messages(1)
        let seq = try h.lastSeq()
        try h.send(1, "not json")
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "malformed")
        try h.send(1, #"{"type":"command","id":"c1"}"#)
        let e = try XCTUnwrapValue(try h.messages(1).last)
        XCTAssertEqual(e["code"] as? String, "malformed")
        XCTAssertTrue((e["message"] as? String ?? "").contains("'name'"), "\(e)")
        try h.send(1, #"{"type":"teleport"}"#)
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "unknown_type")
        try h.send(1, #"{"type":"command","id":"c1","name":"task.fly"}"#)
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "unknown_command")
        try h.send(1, #"{"type":"command","id":"c1","name":"phone.pair","fields":{"id":"x"}}"#)
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "unknown_command", "pairing is not a command")
        try h.send(1, #"{"type":"command","id":"bad id!","name":"pet.pet"}"#)
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "invalid_field")
        try h.send(1, #"{"type":"command","id":"c2","name":"task.create","fields":{"title":["a"]}}"#)
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "invalid_field")
        try h.send(1, #"{"type":"command","id":"c3","name":"task.complete","fields":{"task":"nope"}}"#)
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "not_found")
        try h.send(1, #"{"type":"command","id":"c4","name":"wipe"}"#)
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "confirm_on_device")
        XCTAssertEqual(try h.lastSeq(), seq, "refused input stores nothing")
        XCTAssertFalse(h.link.disconnected.contains(1), "bad messages keep the connection")
        // A frame over the limit: refused, and the client is dropped (the stream cannot resync).
        try h.raw(1, [0x00, 0x01, 0x00, 0x01, 0x7B])
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "frame_too_large")
        XCTAssertTrue(h.link.disconnected.contains(1))
        XCTAssertEqual(h.service.clientCount, 0)
        XCTAssertEqual(try h.lastSeq(), seq)
    }

    func testFramesArriveInAnyPieces() throws {
        let h = try Harness()
        try h.connect(1)
        let bytes = Frame.encode(Array(#"{"type":"hello","version":1}"#.utf8)) + Frame.encode(Array(#"{"type":"ping"}"#.utf8))
        for b in bytes { try h.raw(1, [b]) }
        XCTAssertEqual(try h.messages(1).map { $0["type"] as? String }, ["welcome", "pong"])
    }

    func testHalfAFrameThenSilenceTimesOutAndIdleClientsAreDropped() throws {
        let h = try Harness()
        try h.connect(1)
        try h.connect(2)
        try h.send(2, #"{"type":"hello","version":1}"#)
        try h.raw(1, [0, 0, 0, 50, 0x7B])
        try h.sim.wait(ms: 29_000)
        XCTAssertFalse(h.link.disconnected.contains(1))
        try h.sim.wait(ms: 2_000)
        XCTAssertTrue(h.link.disconnected.contains(1))
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "timeout")
        XCTAssertFalse(h.link.disconnected.contains(2))
        try h.send(2, #"{"type":"ping"}"#)
        try h.sim.wait(ms: 119_000)
        XCTAssertFalse(h.link.disconnected.contains(2))
        try h.sim.wait(ms: 2_000)
        XCTAssertTrue(h.link.disconnected.contains(2), "idle for 120 s")
    }

    func testAHundredClientsAtOnce() throws {
        let h = try Harness()
        let token = try h.pair(1)
        _ = token
        for c in 2...101 { h.link.inbox.append(.connected(client: c)) }
        try h.sim.serveLink()
        XCTAssertEqual(h.service.clientCount, 16)
        let refused = (2...101).filter { h.link.disconnected.contains($0) }
        XCTAssertEqual(refused.count, 85)
        XCTAssertEqual(try h.messages(refused[0]).last?["code"] as? String, "too_many_clients")
        try h.send(1, #"{"type":"command","id":"after","name":"pet.pet"}"#)
        XCTAssertEqual(try h.messages(1).last?["type"] as? String, "reply", "the device keeps serving")
    }

    func testResumeReplaysWhatThePhoneMissed() throws {
        let h = try Harness()
        let token = try h.pair(1)
        try h.send(1, #"{"type":"command","id":"a","name":"task.create","fields":{"task":"t1","title":"A"}}"#)
        let seen = try XCTUnwrapValue(try h.messages(1).last?["seq"] as? Int)
        h.link.inbox.append(.disconnected(client: 1))
        try h.sim.serveLink()
        // Meanwhile the owner completes the task on the device.
        try h.sim.send(Command(id: "dev-x", at: h.sim.now, action: .completeTask(id: "t1")))
        try h.connect(2)
        try h.send(2, #"{"type":"hello","version":1,"token":"\#(token)","last_seq":\#(seen)}"#)
        let ms = try h.messages(2)
        XCTAssertEqual(ms.first?["type"] as? String, "welcome")
        let events = ms.filter { $0["type"] as? String == "event" }
        XCTAssertEqual(ms.first?["replayed"] as? Int, events.count)
        XCTAssertEqual(events.compactMap { $0["seq"] as? Int }, Array((seen + 1)...Int(try h.lastSeq())))
        XCTAssertTrue(events.contains { $0["kind"] as? String == "reward" })
        XCTAssertEqual(ms.last?["type"] as? String, "state")
    }

    func testQueuedRemindersAreDeliveredOnReconnectAndAcknowledged() throws {
        let h = try Harness()
        let token = try h.pair(1)
        try h.send(1, #"{"type":"command","id":"a","name":"task.create","fields":{"task":"t1","title":"A","reminders":"+10m"}}"#)
        h.link.inbox.append(.disconnected(client: 1))
        try h.sim.serveLink()
        try h.sim.wait(ms: 11 * 60_000)
        XCTAssertEqual(h.sim.app.state.reminders.outbox.count, 1)
        try h.connect(2)
        try h.send(2, #"{"type":"hello","version":1,"token":"\#(token)"}"#)
        let r = try XCTUnwrapValue(try h.last(2, type: "reminders"))
        let items = try XCTUnwrapValue(r["items"] as? [[String: Any]])
        let id = try XCTUnwrapValue(items.first?["id"] as? String)
        try h.send(2, #"{"type":"command","id":"ack1","name":"notice.delivered","fields":{"ids":"\#(id)"}}"#)
        XCTAssertEqual(try h.messages(2).last?["ok"] as? Bool, true)
        XCTAssertTrue(h.sim.app.state.reminders.outbox.isEmpty)
        try h.connect(3)
        try h.send(3, #"{"type":"hello","version":1,"token":"\#(token)"}"#)
        XCTAssertNil(try h.last(3, type: "reminders"), "delivered once")
    }

    func testExportStateAndTimeSet() throws {
        let h = try Harness()
        try h.pair(1)
        try h.send(1, #"{"type":"command","id":"a","name":"task.create","fields":{"task":"t1","title":"A"}}"#)
        _ = try h.messages(1)
        try h.send(1, #"{"type":"command","id":"e1","name":"export"}"#)
        let ms = try h.messages(1)
        let parts = ms.filter { $0["type"] as? String == "export.part" }
        let text = parts.compactMap { $0["data"] as? String }.joined()
        let doc = try XCTUnwrapDict(JSONSerialization.jsonObject(with: Data(text.utf8)))
        XCTAssertEqual(doc["format"] as? String, "deskpet-export")
        XCTAssertEqual(ms.last?["parts"] as? Int, parts.count)
        XCTAssertEqual(ms.last?["bytes"] as? Int, text.utf8.count)
        try h.send(1, #"{"type":"command","id":"s1","name":"state"}"#)
        let st = try XCTUnwrapValue(try h.messages(1).last)
        XCTAssertEqual(st["type"] as? String, "state")
        XCTAssertEqual((st["tasks"] as? [[String: Any]])?.first?["id"] as? String, "t1")
        let target = (Harness.start.seconds + 3600) * 1000
        try h.send(1, #"{"type":"command","id":"t1","name":"time.set","fields":{"unix_ms":\#(target)}}"#)
        let r = try XCTUnwrapValue(try h.messages(1).last)
        XCTAssertEqual((r["clock_ms"] as? NSNumber)?.int64Value, target, "\(r)")
        XCTAssertEqual(h.sim.nowMs, target)
    }

    func testExportPiecesNeverSplitACharacter() {
        let text = Array(String(repeating: "aé🐱", count: 10).utf8)
        for size in 1...9 {
            let pieces = ExportPart.pieces(of: text, maxPiece: max(4, size))
            XCTAssertEqual(Array(pieces.joined().utf8), text)
            XCTAssertTrue(pieces.allSatisfy { $0.utf8.count <= max(4, size) })
        }
    }

    func testAWipeForgetsEveryPhone() throws {
        let h = try Harness()
        try h.pair(1)
        _ = try h.messages(1)
        try h.sim.chordHold()
        XCTAssertTrue(h.sim.app.state.phones.paired.isEmpty)
        XCTAssertEqual(try h.messages(1).last?["code"] as? String, "not_paired")
    }
}
