import Foundation
import PetCore
import PetDevice
@testable import PetLink
import PetStore
import XCTest

/// `LinkService` as a function of its host: a `FakeLinkHost` (no loop, no transport, no screen)
/// and assertions on the effects it returns and the requests it makes — their order included.
final class LinkServiceEffectsTests: XCTestCase {
    // MARK: - Helpers

    /// One wake-up of the loop that brought `e` (the service serves a connection one batch per
    /// wake-up, as `DeviceLoop.step` counts them).
    func wake(_ s: LinkService, _ host: FakeLinkHost, _ e: LinkEvent) -> [LinkEffect] {
        host.wakeups += 1
        return s.handle(e, loop: host)
    }

    func frame(_ c: Int, _ json: String) -> LinkEvent { .frame(LinkFrame(client: c, bytes: Frame.encode(Array(json.utf8)))) }

    /// One line per effect: "1 welcome", "2 error not_paired", "1 event task.created",
    /// "1 reply c1", "drop 1", "code 123456", "code -".
    func lines(_ effects: [LinkEffect]) throws -> [String] {
        try effects.map { effect in
            switch effect {
            case .drop(let c): return "drop \(c)"
            case .pairingCode(let code): return "code \(code ?? "-")"
            case .pairingEnded(let r): return "ended \(r)"
            case .send(let f):
                let m = try json(f)
                let type = try XCTUnwrap(m["type"] as? String)
                let detail: String? = switch type {
                case "error": m["code"] as? String
                case "event": (m["event"] as? [String: Any])?["type"] as? String
                case "reply": m["id"] as? String
                default: nil
                }
                return ["\(f.client)", type, detail].compactMap { $0 }.joined(separator: " ")
            }
        }
    }

    /// A sent frame's one message.
    func json(_ f: LinkFrame) throws -> [String: Any] {
        var d = FrameDecoder(maxBody: 1 << 24)
        let bodies = try d.feed(f.bytes)
        XCTAssertEqual(bodies.count, 1, "one whole message per frame")
        XCTAssertFalse(d.hasPartialFrame)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try XCTUnwrap(bodies.first))) as? [String: Any])
    }

    func sent(_ effects: [LinkEffect], to c: Int, type: String) throws -> [[String: Any]] {
        try effects.compactMap { if case .send(let f) = $0, f.client == c { try json(f) } else { nil } }
            .filter { $0["type"] as? String == type }
    }

    /// Pairs client `c` (connect, hello, pair.begin, pair.finish with the code on "screen").
    @discardableResult
    func pair(_ s: LinkService, _ host: FakeLinkHost, _ c: Int) throws -> String {
        XCTAssertEqual(s.handle(.connected(client: c), loop: host), [])
        XCTAssertEqual(try lines(wake(s, host, frame(c, #"{"type":"hello","version":1}"#))), ["\(c) welcome"])
        let begun = wake(s, host, frame(c, #"{"type":"pair.begin"}"#))
        guard case .pairingCode(let shown?) = begun.first else { XCTFail("no code shown: \(begun)"); return "" }
        let challenge = try XCTUnwrap(try sent(begun, to: c, type: "pair.challenge").first?["challenge"] as? String)
        let nonce: [UInt8] = Array(0..<16)
        let mac = PairFinish.proof(code: shown, challenge: try XCTUnwrap(Hex.decode(challenge)), nonce: nonce)
        let finished = wake(s, host, frame(c, #"{"type":"pair.finish","nonce":"\#(Hex.encode(nonce))","mac":"\#(Hex.encode(mac))","name":"P\#(c)"}"#))
        let paired = try XCTUnwrap(try sent(finished, to: c, type: "paired").first)
        return try XCTUnwrap(paired["phone"] as? String)
    }

    // MARK: - Hello, pairing, commands

    func testPairingShowsTheCodeHidesItBeforeTheJournalAndRepliesAfter() throws {
        let host = try FakeLinkHost()
        let s = LinkService(random: SeededRandom(seed: 3))
        XCTAssertEqual(s.handle(.connected(client: 1), loop: host), [])
        XCTAssertEqual(try lines(wake(s, host, frame(1, #"{"type":"hello","version":1}"#))), ["1 welcome"])
        let begun = wake(s, host, frame(1, #"{"type":"pair.begin"}"#))
        let shown = try lines(begun)
        XCTAssertEqual(shown.count, 2)
        XCTAssertTrue(shown[0].hasPrefix("code ") && shown[0].count == 11, "a 6-digit code first: \(shown)")
        XCTAssertEqual(shown[1], "1 pair.challenge")
        XCTAssertTrue(host.requests.isEmpty, "nothing stored to show a code")

        guard case .pairingCode(let code?) = begun[0] else { return XCTFail() }
        let ch = try XCTUnwrap(Hex.decode(try XCTUnwrap(try sent(begun, to: 1, type: "pair.challenge").first?["challenge"] as? String)))
        let nonce = [UInt8](repeating: 7, count: 16)
        let mac = PairFinish.proof(code: code, challenge: ch, nonce: nonce)
        let finished = wake(s, host, frame(1, #"{"type":"pair.finish","nonce":"\#(Hex.encode(nonce))","mac":"\#(Hex.encode(mac))","name":"Mine"}"#))
        // The code was hidden before the pairing was stored (handed to the commit), and the
        // reply comes back after it; the unauthenticated client hears no pushed events.
        XCTAssertEqual(host.requests.count, 1)
        guard case .commit(let before, let ids) = host.requests[0] else { return XCTFail() }
        XCTAssertEqual(before, [.pairingCode(nil)])
        XCTAssertEqual(ids.count, 1)
        XCTAssertTrue(ids[0].hasPrefix("link-pair-"))
        // The screen says so, with the phone's name.
        XCTAssertEqual(try lines(finished), ["ended paired(name: \"Mine\")", "1 paired"])
        XCTAssertEqual(host.state.phones.paired.map(\.id), ["phone-1"])
    }

    func testACommandsEventsAndStateArePushedBeforeItsReplyToEveryPhone() throws {
        let host = try FakeLinkHost()
        let s = LinkService(random: SeededRandom(seed: 4))
        try pair(s, host, 1)
        try pair(s, host, 2)
        XCTAssertEqual(s.handle(.connected(client: 3), loop: host), [])   // not paired: hears nothing
        let effects = wake(s, host, frame(1, #"{"type":"command","id":"c1","name":"task.create","fields":{"task":"t1","title":"Water plants"}}"#))
        XCTAssertEqual(try lines(effects), ["1 event task.created", "1 state", "2 event task.created", "2 state", "1 reply c1"])
        guard case .commit(let before, let ids)? = host.requests.last else { return XCTFail() }
        XCTAssertEqual(before, [])
        XCTAssertEqual(ids, ["phone-1:c1"])
        let reply = try XCTUnwrap(try sent(effects, to: 1, type: "reply").first)
        XCTAssertEqual((reply["seq"] as? NSNumber)?.int64Value, Int64(host.state.eventCount), "the reply carries the durable seq")
        let event = try XCTUnwrap(try sent(effects, to: 2, type: "event").first)
        XCTAssertEqual((event["seq"] as? NSNumber)?.int64Value, Int64(host.state.eventCount))
    }

    func testAPipelinedBatchIsOneCommitAfterTheAnswersBeforeIt() throws {
        let host = try FakeLinkHost()
        let s = LinkService(random: SeededRandom(seed: 5))
        try pair(s, host, 1)
        let commits = s.batchCommits
        let msgs = [#"{"type":"ping"}"#,
                    #"{"type":"command","id":"a","name":"task.create","fields":{"task":"t1","title":"One"}}"#,
                    #"{"type":"command","id":"b","name":"task.create","fields":{"task":"t1","title":"Again"}}"#,
                    #"{"type":"command","id":"c","name":"pet.pet"}"#]
        let bytes = msgs.flatMap { Frame.encode(Array($0.utf8)) }
        let effects = wake(s, host, .frame(LinkFrame(client: 1, bytes: bytes)))
        XCTAssertEqual(s.batchCommits - commits, 1, "three commands, one transaction")
        guard case .commit(let before, let ids)? = host.requests.last else { return XCTFail() }
        XCTAssertEqual(try lines(before), ["1 pong"], "what was answered before the run goes out first")
        XCTAssertEqual(ids, ["phone-1:a", "phone-1:b", "phone-1:c"])
        let l = try lines(effects)
        XCTAssertEqual(l.last, "1 reply c")
        XCTAssertEqual(l[l.count - 3], "1 reply a")
        XCTAssertTrue(l[l.count - 2].hasPrefix("1 error "), "the repeated task id is refused in order: \(l)")
        XCTAssertEqual(l.firstIndex(of: "1 state"), l.count - 4, "events, then the state, then the replies")
        XCTAssertFalse(l.contains("1 pong"))
    }

    func testAJournalFailureAnswersEveryCommandOfTheRunAndStoresNothing() throws {
        let host = try FakeLinkHost()
        let s = LinkService(random: SeededRandom(seed: 6))
        try pair(s, host, 1)
        let count = host.state.eventCount
        host.journalBroken = true
        let bytes = [#"{"type":"command","id":"a","name":"pet.pet"}"#, #"{"type":"command","id":"b","name":"pet.pet"}"#]
            .flatMap { Frame.encode(Array($0.utf8)) }
        let effects = wake(s, host, .frame(LinkFrame(client: 1, bytes: bytes)))
        XCTAssertEqual(try lines(effects), ["1 error journal_failed", "1 error journal_failed"])
        XCTAssertEqual(try sent(effects, to: 1, type: "error").map { $0["id"] as? String }, ["a", "b"])
        XCTAssertEqual(host.state.eventCount, count)
    }

    // MARK: - Drops and timeouts

    func testOverloadAndTooManyClientsDropTheClient() throws {
        let host = try FakeLinkHost()
        var config = LinkConfig()
        config.maxClients = 1
        config.maxWaitingBytes = 40
        let s = LinkService(config: config, random: SeededRandom(seed: 7))
        XCTAssertEqual(s.handle(.connected(client: 1), loop: host), [])
        XCTAssertEqual(try lines(s.handle(.connected(client: 2), loop: host)), ["2 error too_many_clients", "drop 2"])
        XCTAssertEqual(s.clientCount, 1)
        let pings = (0..<5).flatMap { _ in Frame.encode(Array(#"{"type":"ping"}"#.utf8)) }
        XCTAssertEqual(try lines(wake(s, host, .frame(LinkFrame(client: 1, bytes: pings)))), ["1 error overloaded", "drop 1"])
        XCTAssertEqual(s.clientCount, 0)
        XCTAssertNil(s.nextDeadlineMs(loop: host))
        // Frames from a client already dropped change nothing.
        XCTAssertEqual(wake(s, host, frame(1, #"{"type":"ping"}"#)), [])
    }

    func testMalformedAndOversizedFramesDropTheClient() throws {
        let host = try FakeLinkHost()
        let s = LinkService(random: SeededRandom(seed: 8))
        _ = s.handle(.connected(client: 1), loop: host)
        XCTAssertEqual(try lines(wake(s, host, .frame(LinkFrame(client: 1, bytes: [0, 0, 0, 0])))), ["1 error malformed", "drop 1"])
        _ = s.handle(.connected(client: 2), loop: host)
        XCTAssertEqual(try lines(wake(s, host, .frame(LinkFrame(client: 2, bytes: [0x7F, 0xFF, 0xFF, 0xFF])))), ["2 error frame_too_large", "drop 2"])
        // A bad message inside a good frame is answered, not dropped.
        _ = s.handle(.connected(client: 3), loop: host)
        XCTAssertEqual(try lines(wake(s, host, frame(3, "{nope"))), ["3 error malformed"])
        XCTAssertEqual(try lines(wake(s, host, frame(3, #"{"type":"shout"}"#))), ["3 error unknown_type"])
        XCTAssertEqual(s.clientCount, 1)
    }

    func testIdleAndHalfFrameTimeoutsDropAtTheirDeadlines() throws {
        let host = try FakeLinkHost()
        let config = LinkConfig()
        let s = LinkService(config: config, random: SeededRandom(seed: 9))
        let t0 = host.nowMs
        _ = s.handle(.connected(client: 1), loop: host)
        _ = s.handle(.connected(client: 2), loop: host)
        // Client 2 sends half a frame a second later.
        host.nowMs = t0 + 1000
        XCTAssertEqual(wake(s, host, .frame(LinkFrame(client: 2, bytes: Array(Frame.encode(Array(#"{"type":"ping"}"#.utf8)).prefix(6))))), [])
        XCTAssertEqual(s.nextDeadlineMs(loop: host), t0 + 1000 + config.halfFrameTimeoutMs)
        host.nowMs = t0 + 1000 + config.halfFrameTimeoutMs - 1
        XCTAssertEqual(s.tick(loop: host), [])
        host.nowMs += 1
        XCTAssertEqual(try lines(s.tick(loop: host)), ["2 error timeout", "drop 2"])
        XCTAssertEqual(s.nextDeadlineMs(loop: host), t0 + config.idleTimeoutMs)
        host.nowMs = t0 + config.idleTimeoutMs
        XCTAssertEqual(try lines(s.tick(loop: host)), ["1 error timeout", "drop 1"])
        XCTAssertEqual(s.clientCount, 0)
        XCTAssertEqual(s.tick(loop: host), [])
    }

    func testABacklogIsServedOneBatchPerWakeup() throws {
        let host = try FakeLinkHost()
        var config = LinkConfig()
        config.batchLimit = 2
        let s = LinkService(config: config, random: SeededRandom(seed: 10))
        _ = s.handle(.connected(client: 1), loop: host)
        XCTAssertEqual(try lines(wake(s, host, frame(1, #"{"type":"hello","version":1}"#))), ["1 welcome"])
        let pings = (0..<5).flatMap { _ in Frame.encode(Array(#"{"type":"ping"}"#.utf8)) }
        XCTAssertEqual(try lines(wake(s, host, .frame(LinkFrame(client: 1, bytes: pings)))), ["1 pong", "1 pong"])
        XCTAssertEqual(s.nextDeadlineMs(loop: host), host.nowMs, "a backlog: wake at once")
        XCTAssertEqual(s.tick(loop: host), [], "served once in this wake-up already")
        host.wakeups += 1
        XCTAssertEqual(try lines(s.tick(loop: host)), ["1 pong", "1 pong"])
        host.wakeups += 1
        XCTAssertEqual(try lines(s.tick(loop: host)), ["1 pong"])
        XCTAssertNotEqual(s.nextDeadlineMs(loop: host), host.nowMs)
    }

    // MARK: - The pairing code on screen

    func testThePairingCodeIsHiddenWhenItsClientGoesOrItExpiresAndANewerOneReplacesIt() throws {
        let host = try FakeLinkHost()
        var config = LinkConfig()
        config.challengeSeconds = 30
        let s = LinkService(config: config, random: SeededRandom(seed: 11))
        for c in 1...2 {
            _ = s.handle(.connected(client: c), loop: host)
            _ = wake(s, host, frame(c, #"{"type":"hello","version":1}"#))
        }
        let first = wake(s, host, frame(1, #"{"type":"pair.begin"}"#))
        guard case .pairingCode(let one?) = first.first else { return XCTFail() }
        let second = wake(s, host, frame(2, #"{"type":"pair.begin"}"#))
        guard case .pairingCode(let two?) = second.first else { return XCTFail() }
        XCTAssertNotEqual(one, two)
        // Client 1's code is no longer on screen: its going hides nothing; its challenge is void.
        XCTAssertEqual(try lines(wake(s, host, frame(1, #"{"type":"pair.finish","nonce":"\#(String(repeating: "00", count: 16))","mac":"\#(String(repeating: "00", count: 32))","name":"X"}"#))),
                       ["1 error no_challenge"])
        XCTAssertEqual(s.handle(.disconnected(client: 1), loop: host), [])
        // Client 2's code expires: hidden, the client stays.
        host.nowMs += Int64(config.challengeSeconds) * 1000
        XCTAssertEqual(s.tick(loop: host), [.pairingCode(nil), .pairingEnded(.expired)])
        XCTAssertEqual(s.clientCount, 1)
        // A new code, then the client goes: hidden.
        _ = wake(s, host, frame(2, #"{"type":"pair.begin"}"#))
        XCTAssertEqual(s.handle(.disconnected(client: 2), loop: host), [.pairingCode(nil)])
        XCTAssertTrue(host.requests.isEmpty)
    }

    func testAWrongCodeHidesTheCodeAndTheFifthLocksPairingInTheJournal() throws {
        let host = try FakeLinkHost()
        let s = LinkService(random: SeededRandom(seed: 12))
        _ = s.handle(.connected(client: 1), loop: host)
        _ = wake(s, host, frame(1, #"{"type":"hello","version":1}"#))
        let wrong = #"{"type":"pair.finish","nonce":"\#(String(repeating: "00", count: 16))","mac":"\#(String(repeating: "00", count: 32))","name":"X"}"#
        for attempt in 1...PhoneRules.wrongCodesBeforeLock {
            _ = wake(s, host, frame(1, #"{"type":"pair.begin"}"#))
            let effects = try lines(wake(s, host, frame(1, wrong)))
            if attempt < PhoneRules.wrongCodesBeforeLock {
                XCTAssertEqual(effects, ["code -", "ended wrongCode", "1 error wrong_code"])
                XCTAssertTrue(host.requests.isEmpty)
            } else {
                // The lockout is stored; the code was hidden before (handed to the commit).
                XCTAssertEqual(effects, ["ended locked", "1 error pairing_locked"])
                guard case .commit(let before, let ids)? = host.requests.last else { return XCTFail() }
                XCTAssertEqual(before, [.pairingCode(nil)])
                XCTAssertTrue(ids[0].hasPrefix("link-lock-"))
            }
        }
        XCTAssertNotNil(host.state.phones.lockedUntil)
        XCTAssertEqual(try lines(wake(s, host, frame(1, #"{"type":"pair.begin"}"#))), ["1 error pairing_locked"])
    }

    // MARK: - The clock

    func testTimeSetAsksTheHostAndRepliesWithTheNewClock() throws {
        let host = try FakeLinkHost()
        let s = LinkService(random: SeededRandom(seed: 13))
        try pair(s, host, 1)
        let target: Int64 = 1_780_000_000_123
        let effects = wake(s, host, frame(1, #"{"type":"command","id":"t","name":"time.set","fields":{"unix_ms":\#(target)}}"#))
        XCTAssertEqual(host.requests.last, .setClock(ms: target))
        let reply = try XCTUnwrap(try sent(effects, to: 1, type: "reply").first)
        XCTAssertEqual((reply["clock_ms"] as? NSNumber)?.int64Value, target)
        // The connection's idle timer restarted at the new time (a jump is not idleness).
        XCTAssertEqual(s.nextDeadlineMs(loop: host), target + LinkConfig().idleTimeoutMs)

        // Out of range: refused before the host is asked.
        let count = host.requests.count
        XCTAssertEqual(try lines(wake(s, host, frame(1, #"{"type":"command","id":"u","name":"time.set","fields":{"unix_ms":-5}}"#))), ["1 error invalid_field"])
        XCTAssertEqual(host.requests.count, count)

        // The system refuses: unsupported, with its reason.
        host.clockRefusal = HardwareError(device: "system clock", operation: "set the time", reason: "Operation not permitted")
        let refused = try XCTUnwrap(try sent(wake(s, host, frame(1, #"{"type":"command","id":"v","name":"time.set","fields":{"unix_ms":\#(target)}}"#)), to: 1, type: "error").first)
        XCTAssertEqual(refused["code"] as? String, "unsupported")
        XCTAssertEqual(refused["message"] as? String, "the clock could not be set: Operation not permitted")

        // No settable clock at all.
        host.clockRefusal = nil
        host.settable = false
        let none = try XCTUnwrap(try sent(wake(s, host, frame(1, #"{"type":"command","id":"w","name":"time.set","fields":{"unix_ms":\#(target)}}"#)), to: 1, type: "error").first)
        XCTAssertEqual(none["code"] as? String, "unsupported")
        XCTAssertEqual(none["message"] as? String, "this device's clock cannot be set from the phone")
        XCTAssertEqual(host.requests.count, count)
        XCTAssertThrowsError(try s.setClock(unixMs: target, loop: host))
    }

    // MARK: - Unpair and wipe

    func testUnpairingAPhoneUnauthenticatesItsConnectionsAndAWipeAllOfThem() throws {
        let host = try FakeLinkHost()
        let s = LinkService(random: SeededRandom(seed: 14))
        let p1 = try pair(s, host, 1)
        let p2 = try pair(s, host, 2)
        let p3 = try pair(s, host, 3)
        let effects = wake(s, host, frame(1, #"{"type":"command","id":"x","name":"pet.pet"}"#))
        XCTAssertEqual(Set(try lines(effects).filter { $0.hasSuffix(" state") }), ["1 state", "2 state", "3 state"])

        // Client 1 unpairs phone 2: client 2 hears not_paired (and stays connected); the others
        // hear the event; the asker's reply comes last.
        let unpair = try lines(wake(s, host, frame(1, #"{"type":"unpair","phone":"\#(p2)"}"#)))
        XCTAssertEqual(unpair.last, "1 unpaired")
        XCTAssertTrue(unpair.contains("2 error not_paired"))
        XCTAssertFalse(unpair.contains { $0.hasPrefix("drop") })
        XCTAssertFalse(unpair.contains("2 event phone.unpaired"))
        XCTAssertTrue(unpair.contains("3 event phone.unpaired"))
        XCTAssertEqual(try lines(wake(s, host, frame(2, #"{"type":"command","id":"y","name":"pet.pet"}"#))), ["2 error not_paired"])
        XCTAssertEqual(s.authenticatedCount, 2)
        XCTAssertEqual(Set(host.state.phones.paired.map(\.id)), [p1, p3])

        // The owner wipes the device (the loop stored it, the service hears it pushed): every
        // authenticated connection hears not_paired, none is dropped.
        let wiped = try host.app.wipe(now: host.now)
        let pushed = try lines(s.pushed(wiped, loop: host))
        XCTAssertEqual(Set(pushed), ["1 error not_paired", "3 error not_paired"])
        XCTAssertEqual(s.authenticatedCount, 0)
        XCTAssertEqual(s.clientCount, 3)
        XCTAssertEqual(s.pushed([], loop: host), [])
    }

    // MARK: - Pushed events are encoded once

    /// The spliced event message is byte for byte what encoding the parsed body again made.
    func testAPushedEventIsTheSameBytesAsTheDecodedAndReencodedOne() throws {
        let host = try FakeLinkHost()
        let titles = ["Slash / back \\ quote \" </script> & <b>", "Ünïcødé ☕️ 水 😀", "Water plants"]
        var commands: [Command] = []
        for (i, title) in titles.enumerated() {
            commands.append(try CommandParser.parse(name: "task.create", fields: ["task": "t\(i)", "title": title], id: "c\(i)", at: host.now,
                                                    clock: host.state.clock, current: host.state.device))
        }
        commands.append(try CommandParser.parse(name: "task.complete", fields: ["task": "t0"], id: "done", at: host.now,
                                                clock: host.state.clock, current: host.state.device))
        var events: [Event] = []
        for o in try host.app.handleBatch(commands) { events += o.committed }
        host.nowMs += 3 * 86_400_000
        events += try host.app.advance(to: host.now)
        XCTAssertGreaterThan(events.count, titles.count + 1)
        var kinds: Set<String> = []
        for (i, e) in events.enumerated() {
            let seq = Int64(100 + i)
            let kind = EventMessage.kind(type: e.kind.type, coinsDelta: e.kind.coinsDelta)
            kinds.insert(kind)
            let body = MessageEncoder.body(e.kind)
            let old = MessageEncoder.frame(EventMessage(seq: seq, at: e.at.seconds, kind: kind,
                                                        event: JSONValue.parse(String(decoding: body, as: UTF8.self)) ?? .null))
            XCTAssertEqual(LinkService.eventFrame(e, seq: seq), old, "event \(i) (\(e.kind.type))")
        }
        XCTAssertTrue(kinds.isSuperset(of: ["changed", "reward"]), "\(kinds)")
        // A kind that would need escaping takes the long way and is still valid JSON.
        let odd = LinkService.eventFrame(seq: 1, at: 2, kind: "odd\"kind", body: Array(#"{"a":1}"#.utf8))
        XCTAssertEqual(try json(LinkFrame(client: 0, bytes: odd))["kind"] as? String, "odd\"kind")
    }
}

/// The loop's side: `DeviceLoop` applies the service's effects, and those decided before a commit
/// reach the wire before the journal transaction, the run's events and replies after it.
final class DeviceLoopLinkEffectsTests: XCTestCase {
    func testTheLoopSendsWhatCameBeforeACommitFirstAndTheRepliesAfterIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("deskpet-effects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("pet.db").path
        let h = try Harness(dbPath: path)
        try h.pair(1)
        _ = try h.messages(1)
        let observer = try EventStore(path: path)
        defer { observer.close() }
        // What was stored of the command when each frame left, by message type.
        var seen: [(type: String, stored: Bool)] = []
        h.link.onSend = { f in
            var d = FrameDecoder(maxBody: 1 << 24)
            for b in (try? d.feed(f.bytes)) ?? [] {
                let o = (try? JSONSerialization.jsonObject(with: Data(b))) as? [String: Any]
                seen.append((o?["type"] as? String ?? "?", (try? observer.command(id: "phone-1:k")) != nil))
            }
        }
        let bytes = [#"{"type":"ping"}"#, #"{"type":"command","id":"k","name":"task.create","fields":{"task":"k","title":"Kettle"}}"#]
            .flatMap { Frame.encode(Array($0.utf8)) }
        try h.raw(1, bytes)
        XCTAssertEqual(seen.map(\.type), ["pong", "event", "state", "reply"])
        XCTAssertEqual(seen.map(\.stored), [false, true, true, true])
        XCTAssertEqual(h.sim.loop.linkClients, [1])

        // A drop closes the transport's client and clears the link icon; a code goes on screen.
        h.sim.loop.apply([.pairingCode("123456")])
        XCTAssertEqual(h.sim.ui.pairingCode, "123456")
        h.sim.loop.apply([.drop(client: 1), .pairingCode(nil)])
        XCTAssertTrue(h.link.disconnected.contains(1))
        XCTAssertEqual(h.sim.loop.linkClients, [])
        XCTAssertNil(h.sim.ui.pairingCode)

        // How an attempt ended goes on the pairing screen: the phone's name, a wrong code (and
        // the lockout), a code that expired.
        h.sim.loop.apply([.pairingCode("654321"), .pairingCode(nil), .pairingEnded(.paired(name: "Ann's phone"))])
        XCTAssertEqual(h.sim.ui.screen, .pairing)
        XCTAssertEqual(h.sim.ui.pairingOutcome, .paired(phone: "Ann's phone"))
        h.sim.loop.apply([.pairingEnded(.wrongCode)])
        XCTAssertEqual(h.sim.ui.pairingOutcome, .failed)
        h.sim.loop.apply([.pairingEnded(.locked)])
        XCTAssertEqual(h.sim.ui.pairingOutcome, .failed)
        h.sim.loop.apply([.pairingEnded(.expired)])
        XCTAssertEqual(h.sim.ui.pairingOutcome, .timedOut)
        // A new code replaces the outcome.
        h.sim.loop.apply([.pairingCode("111222")])
        XCTAssertNil(h.sim.ui.pairingOutcome)
        XCTAssertEqual(h.sim.ui.pairingCode, "111222")
    }
}
