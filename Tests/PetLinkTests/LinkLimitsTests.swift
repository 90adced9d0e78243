import Foundation
import PetCore
import PetDevice
@testable import PetLink
import PetStore
import XCTest

/// The link under big and hostile clients (docs/protocol.md#limits-and-timeouts, docs/reliability.md): every
/// frame the device sends fits its own frame limit, texts count bytes, exports are produced a
/// slice per wake-up as the client reads, and connections that never authenticate cannot keep
/// a paired phone out. `LinkService` against a `FakeLinkHost`, on virtual time.
final class LinkLimitsTests: XCTestCase {
    // MARK: - Helpers

    func wake(_ s: LinkService, _ host: FakeLinkHost, _ e: LinkEvent) -> [LinkEffect] {
        host.wakeups += 1
        return s.handle(e, loop: host)
    }

    /// A wake-up with nothing from the transport (the loop woke on a deadline or a drained socket).
    func tick(_ s: LinkService, _ host: FakeLinkHost) -> [LinkEffect] {
        host.wakeups += 1
        return s.tick(loop: host)
    }

    func frame(_ c: Int, _ json: String) -> LinkEvent { .frame(LinkFrame(client: c, bytes: Frame.encode(Array(json.utf8)))) }

    func frames(_ effects: [LinkEffect], to c: Int? = nil) -> [LinkFrame] {
        effects.compactMap { if case .send(let f) = $0, c == nil || f.client == c { f } else { nil } }
    }

    /// A sent frame's one message (frames of any size are read here, to see what was sent).
    func json(_ f: LinkFrame) throws -> [String: Any] {
        var d = FrameDecoder(maxBody: 1 << 24)
        let bodies = try d.feed(f.bytes)
        XCTAssertEqual(bodies.count, 1, "one whole message per frame")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try XCTUnwrap(bodies.first))) as? [String: Any])
    }

    func messages(_ effects: [LinkEffect], to c: Int, type: String? = nil) throws -> [[String: Any]] {
        try frames(effects, to: c).map { try json($0) }.filter { type == nil || $0["type"] as? String == type }
    }

    /// Every frame within the device's own limit (what its peers accept).
    func assertFit(_ effects: [LinkEffect], file: StaticString = #filePath, line: UInt = #line) {
        for f in frames(effects) {
            XCTAssertLessThanOrEqual(f.bytes.count - 4, Frame.maxBody, "a frame of \(f.bytes.count - 4) bytes", file: file, line: line)
        }
    }

    /// Pairs client `c`; returns the phone's token.
    @discardableResult
    func pair(_ s: LinkService, _ host: FakeLinkHost, _ c: Int) throws -> String {
        _ = s.handle(.connected(client: c), loop: host)
        _ = wake(s, host, frame(c, #"{"type":"hello","version":1}"#))
        let begun = wake(s, host, frame(c, #"{"type":"pair.begin"}"#))
        guard case .pairingCode(let shown?) = begun.first else { XCTFail("no code shown: \(begun)"); return "" }
        let challenge = try XCTUnwrap(try messages(begun, to: c, type: "pair.challenge").first?["challenge"] as? String)
        let nonce: [UInt8] = Array(0..<16)
        let mac = PairFinish.proof(code: shown, challenge: try XCTUnwrap(Hex.decode(challenge)), nonce: nonce)
        let finished = wake(s, host, frame(c, #"{"type":"pair.finish","nonce":"\#(Hex.encode(nonce))","mac":"\#(Hex.encode(mac))","name":"P\#(c)"}"#))
        return try XCTUnwrap(try messages(finished, to: c, type: "paired").first?["token"] as? String)
    }

    /// Connects client `c` and says hello with `token`.
    func resume(_ s: LinkService, _ host: FakeLinkHost, _ c: Int, token: String) throws {
        _ = s.handle(.connected(client: c), loop: host)
        let w = try messages(wake(s, host, frame(c, #"{"type":"hello","version":1,"token":"\#(token)"}"#)), to: c, type: "welcome")
        XCTAssertEqual(w.first?["paired"] as? Bool, true)
    }

    /// Stores `n` tasks straight in the host's journal (titles and notes as given).
    func addTasks(_ host: FakeLinkHost, _ n: Int, title: (Int) -> String, notes: String = "") throws {
        var commands: [Command] = []
        for i in 0..<n {
            var fields = ["task": "t\(i)", "title": title(i)]
            if !notes.isEmpty { fields["notes"] = notes }
            commands.append(try CommandParser.parse(name: "task.create", fields: fields, id: "seed-\(host.state.eventCount)-\(i)",
                                                    at: host.now, clock: host.state.clock, current: host.state.device))
        }
        for o in try host.app.handleBatch(commands) { if case .failure(let e) = o.result { XCTFail("\(e)") } }
    }

    // MARK: - Frames fit

    func testAStateReplyWithManyLongTasksIsPagedWithinTheFrameLimit() throws {
        let host = try FakeLinkHost()
        let s = LinkService(random: SeededRandom(seed: 1))
        try pair(s, host, 1)
        // 170 open tasks of 100 emoji each (400 bytes): 75,839 bytes in one reply before.
        try addTasks(host, 170, title: { _ in String(repeating: "😀", count: 100) })
        var ids: [String] = []
        var cursor: Int?
        var pages = 0
        repeat {
            let fields = cursor.map { #","fields":{"cursor":"\#($0)"}"# } ?? ""
            let effects = wake(s, host, frame(1, #"{"type":"command","id":"s\#(pages)","name":"state"\#(fields)}"#))
            assertFit(effects)
            let st = try XCTUnwrap(try messages(effects, to: 1, type: "state").last)
            XCTAssertEqual(st["id"] as? String, "s\(pages)")
            let tasks = try XCTUnwrap(st["tasks"] as? [[String: Any]])
            XCTAssertFalse(tasks.isEmpty)
            ids += tasks.compactMap { $0["id"] as? String }
            cursor = st["cursor"] as? Int
            pages += 1
        } while cursor != nil && pages < 10
        XCTAssertEqual(pages, 2)
        XCTAssertEqual(ids.count, 170)
        XCTAssertEqual(Set(ids).count, 170, "every task once")
        // A cursor past the end: the summary and no task; a bad cursor is refused.
        let past = try XCTUnwrap(try messages(wake(s, host, frame(1, #"{"type":"command","id":"p","name":"state","fields":{"cursor":"999"}}"#)), to: 1, type: "state").first)
        XCTAssertEqual((past["tasks"] as? [Any])?.count, 0)
        XCTAssertNil(past["cursor"])
        let bad = try messages(wake(s, host, frame(1, #"{"type":"command","id":"b","name":"state","fields":{"cursor":"-1"}}"#)), to: 1, type: "error")
        XCTAssertEqual(bad.first?["code"] as? String, "invalid_field")
    }

    func testATitleOfOneLetterAndThousandsOfMarksIsRefusedByItsBytes() throws {
        let host = try FakeLinkHost()
        let s = LinkService(random: SeededRandom(seed: 2))
        try pair(s, host, 1)
        let before = host.state.eventCount
        // One character as people count them, 65,401 bytes: its event frame was 65,735 bytes.
        let title = "a" + String(repeating: "\u{301}", count: 32_700)
        XCTAssertEqual(title.count, 1)
        let effects = wake(s, host, frame(1, #"{"type":"command","id":"big","name":"task.create","fields":{"task":"t1","title":"\#(title)"}}"#))
        assertFit(effects)
        let e = try XCTUnwrap(try messages(effects, to: 1, type: "error").first)
        XCTAssertEqual(e["code"] as? String, "invalid_field")
        XCTAssertTrue((e["message"] as? String ?? "").contains("bytes"), "\(e)")
        XCTAssertEqual(host.state.eventCount, before, "nothing stored")
        // The byte caps of the domain, at their edges: 100 four-byte characters are a title.
        let marks = wake(s, host, frame(1, #"{"type":"command","id":"m","name":"task.create","fields":{"task":"t4","title":"\#("a" + String(repeating: "\u{301}", count: 200))"}}"#))
        XCTAssertEqual(try messages(marks, to: 1, type: "error").first?["code"] as? String, "invalid_field", "401 bytes")
        let ok = wake(s, host, frame(1, #"{"type":"command","id":"ok","name":"task.create","fields":{"task":"t2","title":"\#(String(repeating: "😀", count: 100))","notes":"\#(String(repeating: "é", count: 500))"}}"#))
        XCTAssertEqual(try messages(ok, to: 1, type: "reply").first?["ok"] as? Bool, true)
        let tooManyBytes = wake(s, host, frame(1, #"{"type":"command","id":"n","name":"task.create","fields":{"task":"t3","title":"x","notes":"\#(String(repeating: "😀", count: 500) + "a")"}}"#))
        XCTAssertEqual(try messages(tooManyBytes, to: 1, type: "error").first?["code"] as? String, "invalid_field")
    }

    func testAnEventTooLargeForAFrameIsSentWithoutItsBody() throws {
        // An event stored before the byte limits (a journal may hold one): pushed and replayed
        // without its body, its seq kept, so a phone never receives a frame it must refuse.
        let body = Array((#"{"type":"task.created","title":""# + String(repeating: "x", count: 70_000) + #""}"#).utf8)
        let f = LinkService.eventFrame(seq: 42, at: 1_772_434_800, kind: "changed", body: body)
        XCTAssertLessThanOrEqual(f.count - 4, Frame.maxBody)
        let m = try json(LinkFrame(client: 1, bytes: f))
        XCTAssertEqual(m["type"] as? String, "event")
        XCTAssertEqual(m["seq"] as? Int, 42)
        XCTAssertEqual(m["kind"] as? String, "changed")
        XCTAssertTrue(m["event"] is NSNull)
        let overhead = LinkService.eventFrame(seq: 42, at: 1_772_434_800, kind: "changed", body: Array("{}".utf8)).count - 4 - 2
        XCTAssertEqual(m["too_large"] as? Int, body.count + overhead)
        // One that fits is byte for byte as before.
        let small = LinkService.eventFrame(seq: 1, at: 2, kind: "changed", body: Array(#"{"type":"x"}"#.utf8))
        XCTAssertEqual(String(decoding: small.dropFirst(4), as: UTF8.self), #"{"at":2,"event":{"type":"x"},"kind":"changed","seq":1,"type":"event"}"#)
    }

    // MARK: - Exports

    /// A journal whose export is about `tasks` × 4.4 KB (each task's notes in its event and state).
    func bigJournal(_ host: FakeLinkHost, tasks: Int) throws {
        try addTasks(host, tasks, title: { "Task \($0)" }, notes: String(repeating: "😀", count: 500))
    }

    func exportParts(_ effects: [LinkEffect], to c: Int) throws -> [[String: Any]] { try messages(effects, to: c, type: "export.part") }

    func testAnExportIsProducedASlicePerWakeUpAsTheClientReads() throws {
        let host = try FakeLinkHost()
        var config = LinkConfig()
        config.exportRowsPerSlice = 40
        let s = LinkService(config: config, random: SeededRandom(seed: 3))
        try pair(s, host, 1)
        try bigJournal(host, tasks: 150)
        let expected = try Export.document(host.app, now: host.now)
        XCTAssertGreaterThan(expected.count, 12 * ExportPart.maxPiece)
        var effects = wake(s, host, frame(1, #"{"type":"command","id":"e1","name":"export"}"#))
        var data: [String] = []
        var reply: [String: Any]?
        var wakeUps = 1
        var rowsBefore = 0
        while true {
            // The work of one wake-up: at most a slice of journal rows, or a few parts.
            let rows = try XCTUnwrap(host.producers.first).rowsRead
            XCTAssertLessThanOrEqual(rows - rowsBefore, config.exportRowsPerSlice, "journal rows read in one wake-up")
            rowsBefore = rows
            assertFit(effects)
            let parts = try exportParts(effects, to: 1)
            XCTAssertLessThanOrEqual(parts.count, config.exportPartsPerWake, "at most a slice per wake-up")
            data += parts.compactMap { $0["data"] as? String }
            if let r = try messages(effects, to: 1, type: "reply").first { reply = r; break }
            XCTAssertEqual(s.nextDeadlineMs(loop: host), host.nowMs, "the next slice at once")
            guard wakeUps < 100 else { return XCTFail("the export never ended") }
            effects = tick(s, host)
            wakeUps += 1
        }
        XCTAssertEqual(host.exportsBuilt, 1)
        XCTAssertEqual(Array(data.joined().utf8), expected, "the export arrives whole")
        XCTAssertEqual(reply?["parts"] as? Int, data.count)
        XCTAssertEqual(reply?["bytes"] as? Int, expected.count)
        XCTAssertEqual(try XCTUnwrap(host.producers.first).rowsRead, host.state.eventCount)
        XCTAssertGreaterThanOrEqual(wakeUps, max(host.state.eventCount / config.exportRowsPerSlice,
                                                 (data.count + config.exportPartsPerWake - 1) / config.exportPartsPerWake))
        XCTAssertEqual(tick(s, host), [], "nothing left")
    }

    /// The export streams: a journal of about 7 MB (6,000 tasks with notes of 498 characters that
    /// the frame escapes twice, created and deleted, so the state stays small) arrives whole, every part fits the frame limit,
    /// only the last part says `parts`, and between wake-ups the device holds at most a slice of
    /// rows and two parts of it — never the document.
    func testABigExportIsStreamedFromTheJournalHoldingOnlyASliceAndTwoParts() throws {
        let host = try FakeLinkHost()
        let config = LinkConfig()
        let s = LinkService(config: config, random: SeededRandom(seed: 8))
        try pair(s, host, 1)
        let notes = String(repeating: "é\"<", count: 166)   // escaped in the document and again in the frame
        for round in 0..<12 {
            try addTasks(host, 500, title: { "Task \(round)-\($0)" }, notes: notes)
            var deletes: [Command] = []
            for i in 0..<500 {
                deletes.append(try CommandParser.parse(name: "task.delete", fields: ["task": "t\(i)"], id: "del-\(round)-\(i)",
                                                       at: host.now, clock: host.state.clock, current: host.state.device))
            }
            for o in try host.app.handleBatch(deletes) { if case .failure(let e) = o.result { XCTFail("\(e)") } }
        }
        XCTAssertTrue(host.state.tasks.isEmpty)
        let expected = try Export.document(host.app, now: host.now)
        XCTAssertGreaterThan(expected.count, 6_000_000)
        var effects = wake(s, host, frame(1, #"{"type":"command","id":"big","name":"export"}"#))
        var data: [String] = []
        var counts: [Int?] = []
        var reply: [String: Any]?
        for _ in 0..<2_000 {
            assertFit(effects)
            for p in try exportParts(effects, to: 1) {
                XCTAssertEqual(p["part"] as? Int, data.count, "parts in order")
                data.append(try XCTUnwrap(p["data"] as? String))
                counts.append(p["parts"] as? Int)
            }
            if let r = try messages(effects, to: 1, type: "reply").first { reply = r; break }
            effects = tick(s, host)
        }
        let r = try XCTUnwrap(reply, "the export ended")
        XCTAssertEqual(Array(data.joined().utf8), expected, "the export arrives whole")
        XCTAssertEqual(r["parts"] as? Int, data.count)
        XCTAssertEqual(r["bytes"] as? Int, expected.count)
        XCTAssertEqual(counts.last ?? nil, data.count, "the last part says how many")
        XCTAssertTrue(counts.dropLast().allSatisfy { $0 == nil }, "only the last part says how many")
        let rowBytes = 5 * 166 + 600   // the notes as stored (é is 2 bytes, \" 2) and the row around them
        XCTAssertLessThanOrEqual(s.exportHeldPeak, 2 * ExportPart.maxPiece + 4 + config.exportRowsPerSlice * rowBytes,
                                 "held between wake-ups: a slice and two parts")
        XCTAssertLessThan(s.exportHeldPeak, expected.count / 20)
    }

    func testAnExportWaitsWhileItsClientHasNotReadAndGoesOnWhenItHas() throws {
        let host = try FakeLinkHost()
        let config = LinkConfig()
        let s = LinkService(config: config, random: SeededRandom(seed: 4))
        try pair(s, host, 1)
        try bigJournal(host, tasks: 60)
        let first = wake(s, host, frame(1, #"{"type":"command","id":"e1","name":"export"}"#))
        XCTAssertEqual(try exportParts(first, to: 1).count, config.exportPartsPerWake)
        // The client reads nothing: its output stays in the transport; no part more.
        host.queued[1] = config.exportWindowBytes
        let deadline = try XCTUnwrap(s.nextDeadlineMs(loop: host))
        XCTAssertGreaterThan(deadline, host.nowMs, "no busy wake-ups while the client does not read")
        for _ in 0..<5 { XCTAssertEqual(try exportParts(tick(s, host), to: 1).count, 0) }
        // It read most of it: the export goes on. A ping is answered meanwhile.
        let ping = wake(s, host, frame(1, #"{"type":"ping"}"#))
        XCTAssertEqual(try messages(ping, to: 1, type: "pong").count, 1)
        host.queued[1] = 1000
        XCTAssertEqual(s.nextDeadlineMs(loop: host), host.nowMs)
        let more = try exportParts(tick(s, host), to: 1)
        XCTAssertGreaterThan(more.count, 0)
        XCTAssertEqual(more.first?["part"] as? Int, config.exportPartsPerWake, "in order, nothing lost")
    }

    func testSixtyFourExportsInOneWriteBuildOneDocumentAndTheRestAreBusy() throws {
        let host = try FakeLinkHost()
        let s = LinkService(random: SeededRandom(seed: 5))
        try pair(s, host, 1)
        try bigJournal(host, tasks: 20)
        let many = (0..<64).flatMap { Frame.encode(Array(#"{"type":"command","id":"e\#($0)","name":"export"}"#.utf8)) }
        let effects = wake(s, host, .frame(LinkFrame(client: 1, bytes: many)))
        XCTAssertEqual(host.exportsBuilt, 1, "one document built in the wake-up, not 64")
        // e0 is answered (small enough for one slice), e1 waits for the next wake-up (the
        // connection's one export), the other 62 are refused.
        XCTAssertEqual(try messages(effects, to: 1, type: "reply").map { $0["id"] as? String }, ["e0"])
        let busy = try messages(effects, to: 1, type: "error")
        XCTAssertEqual(busy.count, 62)
        XCTAssertTrue(busy.allSatisfy { $0["code"] as? String == ErrorCode.busy })
        XCTAssertEqual(busy.first?["id"] as? String, "e2")
        var replies: [[String: Any]] = []
        for _ in 0..<20 where replies.isEmpty { replies = try messages(tick(s, host), to: 1, type: "reply") }
        XCTAssertEqual(replies.first?["id"] as? String, "e1")
        XCTAssertEqual(host.exportsBuilt, 2)
        // Once it has finished, the next export is accepted.
        let again = wake(s, host, frame(1, #"{"type":"command","id":"f","name":"export"}"#))
        XCTAssertEqual(try messages(again, to: 1, type: "error").count, 0)
    }

    func testExportsRunOneAtATimeWithACapInAll() throws {
        let host = try FakeLinkHost()
        var config = LinkConfig()
        config.maxExports = 2
        let s = LinkService(config: config, random: SeededRandom(seed: 6))
        let token = try pair(s, host, 1)
        for c in 2...3 { try resume(s, host, c, token: token) }
        try bigJournal(host, tasks: 60)
        let a = wake(s, host, frame(1, #"{"type":"command","id":"a","name":"export"}"#))
        XCTAssertGreaterThan(try exportParts(a, to: 1).count, 0)
        let b = wake(s, host, frame(2, #"{"type":"command","id":"b","name":"export"}"#))
        XCTAssertEqual(try exportParts(b, to: 2).count, 0, "waits its turn")
        let c = try messages(wake(s, host, frame(3, #"{"type":"command","id":"c","name":"export"}"#)), to: 3, type: "error")
        XCTAssertEqual(c.first?["code"] as? String, ErrorCode.busy)
        XCTAssertEqual(c.first?["id"] as? String, "c")
        // Client 1 goes away mid-export: client 2's turn comes, and it arrives whole.
        _ = s.handle(.disconnected(client: 1), loop: host)
        var data = ""
        var done = false
        for _ in 0..<50 where !done {
            let e = tick(s, host)
            XCTAssertEqual(try exportParts(e, to: 1).count, 0)
            data += try exportParts(e, to: 2).compactMap { $0["data"] as? String }.joined()
            done = try messages(e, to: 2, type: "reply").first != nil
        }
        XCTAssertTrue(done)
        XCTAssertEqual(Array(data.utf8), try Export.document(host.app, now: host.now))
    }

    // MARK: - Connections

    func testConnectionsThatOnlySaidHelloCannotKeepAPairedPhoneOut() throws {
        let host = try FakeLinkHost()
        let config = LinkConfig()
        let s = LinkService(config: config, random: SeededRandom(seed: 7))
        let token = try pair(s, host, 100)
        _ = s.handle(.disconnected(client: 100), loop: host)
        let t0 = host.nowMs
        for c in 1...config.maxClients {
            _ = s.handle(.connected(client: c), loop: host)
            XCTAssertEqual(try messages(wake(s, host, frame(c, #"{"type":"hello","version":1}"#)), to: c, type: "welcome").count, 1)
            host.nowMs += 10
        }
        XCTAssertEqual(s.clientCount, config.maxClients)
        // At once, a newcomer is refused (the slots were just taken).
        let early = s.handle(.connected(client: 50), loop: host)
        XCTAssertEqual(try messages(early, to: 50, type: "error").first?["code"] as? String, "too_many_clients")
        XCTAssertTrue(early.contains(.drop(client: 50)))
        // Later, the owner's phone comes: the connection unauthenticated longest gives way.
        host.nowMs = t0 + config.unauthenticatedGraceMs + 1_000
        let owner = s.handle(.connected(client: 51), loop: host)
        XCTAssertEqual(try messages(owner, to: 1, type: "error").first?["code"] as? String, "too_many_clients")
        XCTAssertTrue(owner.contains(.drop(client: 1)))
        XCTAssertFalse(owner.contains(.drop(client: 51)))
        let w = try messages(wake(s, host, frame(51, #"{"type":"hello","version":1,"token":"\#(token)"}"#)), to: 51, type: "welcome")
        XCTAssertEqual(w.first?["paired"] as? Bool, true)
        XCTAssertEqual(s.authenticatedCount, 1)
        XCTAssertEqual(s.clientCount, config.maxClients)
        // Another newcomer takes the next unauthenticated slot, never the paired phone's.
        for c in 52...(52 + config.maxClients) {
            host.nowMs += 1
            _ = s.handle(.connected(client: c), loop: host)
        }
        XCTAssertEqual(s.authenticatedCount, 1)
        let answer = try messages(wake(s, host, frame(51, #"{"type":"ping"}"#)), to: 51, type: "pong")
        XCTAssertEqual(answer.count, 1, "the paired phone is still served")
    }

    func testAConnectionShowingAPairingCodeIsNotReplaced() throws {
        let host = try FakeLinkHost()
        var config = LinkConfig()
        config.maxClients = 2
        let s = LinkService(config: config, random: SeededRandom(seed: 8))
        _ = s.handle(.connected(client: 1), loop: host)
        _ = wake(s, host, frame(1, #"{"type":"hello","version":1}"#))
        let begun = wake(s, host, frame(1, #"{"type":"pair.begin"}"#))
        XCTAssertEqual(try messages(begun, to: 1, type: "pair.challenge").count, 1)
        host.nowMs += 1_000
        _ = s.handle(.connected(client: 2), loop: host)
        host.nowMs += config.unauthenticatedGraceMs
        let third = s.handle(.connected(client: 3), loop: host)
        XCTAssertTrue(third.contains(.drop(client: 2)), "the idle one gives way")
        XCTAssertFalse(third.contains(.drop(client: 1)), "the one pairing keeps its place")
        let fourth = s.handle(.connected(client: 4), loop: host)
        XCTAssertTrue(fourth.contains(.drop(client: 4)), "the newest is within its grace: refused")
    }
}
