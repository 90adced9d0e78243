import Foundation
@testable import PetLink
import XCTest

/// Byte vectors: each message's exact bytes (sorted keys), frames, and decoding.
final class MessageBytesTests: XCTestCase {
    private func text<T: Encodable>(_ m: T) -> String { String(decoding: MessageEncoder.body(m), as: UTF8.self) }

    func testDeviceMessagesExactBytes() {
        XCTAssertEqual(text(Welcome(paired: true, phone: "phone-1", seq: 42, replayed: 2, truncated: nil)),
                       #"{"capabilities":["commands","events","resume","reminders","export","time.set","state","pairing","summary","buttons"],"device":"deskpet","max_frame":65536,"paired":true,"phone":"phone-1","replayed":2,"seq":42,"type":"welcome","version":1}"#)
        XCTAssertEqual(text(PairChallenge(challenge: Array(0..<16), expiresIn: 120)),
                       #"{"challenge":"000102030405060708090a0b0c0d0e0f","expires_in":120,"type":"pair.challenge"}"#)
        XCTAssertEqual(text(Paired(phone: "phone-2", token: [UInt8](repeating: 0xab, count: 32))),
                       #"{"phone":"phone-2","token":"\#(String(repeating: "ab", count: 32))","type":"paired"}"#)
        XCTAssertEqual(text(ErrorMessage(id: "c1", code: "not_found", message: "no task with id 'x'")),
                       #"{"code":"not_found","id":"c1","message":"no task with id 'x'","type":"error"}"#)
        XCTAssertEqual(text(ErrorMessage(code: "wrong_code", message: "the code does not match", attemptsLeft: 3)),
                       #"{"attempts_left":3,"code":"wrong_code","message":"the code does not match","type":"error"}"#)
        var r = ReplyMessage(id: "c2", command: "task.complete")
        r.events = 3; r.coins = 12; r.xp = 15; r.level = 1; r.reward = 12; r.seq = 9
        XCTAssertEqual(text(r), #"{"coins":12,"command":"task.complete","events":3,"id":"c2","level":1,"ok":true,"reward":12,"seq":9,"type":"reply","xp":15}"#)
        XCTAssertEqual(text(EventMessage(seq: 7, at: 1_772_434_800, kind: "reward",
                                         event: .object(["type": .string("task.completed"), "coins": .int(12)]))),
                       #"{"at":1772434800,"event":{"coins":12,"type":"task.completed"},"kind":"reward","seq":7,"type":"event"}"#)
        XCTAssertEqual(text(Pong(seq: 5)), #"{"seq":5,"type":"pong"}"#)
        XCTAssertEqual(text(Unpaired(phone: "phone-1")), #"{"phone":"phone-1","type":"unpaired"}"#)
        XCTAssertEqual(text(RemindersMessage(items: [.init(id: "task:t1:0", source: "task", ref: "t1", due: 100, solicited: true)])),
                       #"{"items":[{"due":100,"id":"task:t1:0","ref":"t1","solicited":true,"source":"task"}],"type":"reminders"}"#)
        XCTAssertEqual(text(ExportPart(id: "e", part: 0, parts: 1, data: "{}")), #"{"data":"{}","id":"e","part":0,"parts":1,"type":"export.part"}"#)
        XCTAssertEqual(text(StateMessage(seq: 3, coins: 1, xp: 2, level: 1, streak: 0, mood: "content", remindersWaiting: 0)),
                       #"{"coins":1,"level":1,"mood":"content","reminders_waiting":0,"seq":3,"streak":0,"type":"state","xp":2}"#)
    }

    func testFrameBytes() throws {
        XCTAssertEqual(MessageEncoder.frame(Pong(seq: 5)), [0, 0, 0, 23] + Array(#"{"seq":5,"type":"pong"}"#.utf8))
        XCTAssertEqual(Frame.encode([UInt8](repeating: 1, count: 300)).prefix(4), [0, 0, 1, 44])
        var d = FrameDecoder()
        XCTAssertEqual(try d.feed([0, 0, 0, 2, 0x7B]), [])
        XCTAssertTrue(d.hasPartialFrame)
        XCTAssertEqual(try d.feed([0x7D, 0, 0, 0, 1, 0x31]), [[0x7B, 0x7D], [0x31]])
        XCTAssertFalse(d.hasPartialFrame)
        XCTAssertThrowsError(try d.feed([0, 1, 0, 1])) { XCTAssertEqual($0 as? LinkError, .frameTooLarge(length: 65_537, limit: 65_536)) }
        var z = FrameDecoder()
        XCTAssertThrowsError(try z.feed([0, 0, 0, 0]))
        var max = FrameDecoder()
        XCTAssertEqual(try max.feed([0, 1, 0, 0] + [UInt8](repeating: 0x20, count: 65_536)).count, 1)
    }

    func testClientMessagesDecode() throws {
        XCTAssertEqual(try ClientMessage.decode(Array(#"{"type":"hello","version":1,"token":"ab","last_seq":7}"#.utf8)),
                       .hello(Hello(version: 1, token: "ab", lastSeq: 7)))
        XCTAssertEqual(try ClientMessage.decode(Array(#"{"type":"command","id":"c","name":"habit.check","fields":{"n":5,"b":true,"s":"x"}}"#.utf8)),
                       .command(CommandMessage(id: "c", name: "habit.check", fields: ["n": .int(5), "b": .bool(true), "s": .string("x")])))
        let fields: [String: JSONValue] = ["n": .int(5), "b": .bool(true)]
        XCTAssertEqual(fields["n"]?.fieldText, "5")
        XCTAssertEqual(fields["b"]?.fieldText, "true")
        XCTAssertEqual(try ClientMessage.decode(Array(#" {"type":"ping"}"#.utf8)), .ping(Ping()))
        for bad in ["[1]", "42", "{\"type\":5}", "{", "", "\u{FF}"] {
            XCTAssertThrowsError(try ClientMessage.decode(Array(bad.utf8)), bad)
        }
        XCTAssertThrowsError(try ClientMessage.decode(Array(#"{"type":"nope"}"#.utf8))) { XCTAssertEqual($0 as? LinkError, .unknownType("nope")) }
        XCTAssertThrowsError(try ClientMessage.decode(Array(#"{"type":"pair.finish","nonce":"00"}"#.utf8))) {
            XCTAssertEqual($0 as? LinkError, .malformed(what: "pair.finish: missing field 'mac'"))
        }
    }

    func testProofIsHMACOfChallengeAndNonceKeyedWithTheCode() {
        // The documented example of docs/protocol.md#pairing (checked with Python's hmac module).
        let challenge = Array(0..<16).map(UInt8.init), nonce = Array(16..<32).map(UInt8.init)
        XCTAssertEqual(Hex.encode(PairFinish.proof(code: "123456", challenge: challenge, nonce: nonce)),
                       "c20c6fe6afbb0d44764b3f820d38ccc80aa76058e6651c73698c7cc4c167b57a")
    }

    func testLinkAddresses() throws {
        XCTAssertEqual(try LinkAddress.parse("tcp:127.0.0.1:7300"), .tcp(host: "127.0.0.1", port: 7300))
        XCTAssertEqual(try LinkAddress.parse("tcp:localhost:0"), .tcp(host: "127.0.0.1", port: 0))
        XCTAssertEqual(try LinkAddress.parse("unix:/tmp/x.sock"), .unix(path: "/tmp/x.sock"))
        XCTAssertTrue(try LinkAddress.parse("tcp:127.0.0.1:1").isLoopback)
        XCTAssertFalse(try LinkAddress.parse("tcp:0.0.0.0:1").isLoopback)
        for bad in ["tcp:1.2.3:80", "tcp:127.0.0.1:70000", "udp:x", "unix:", "tcp:host.example:80"] {
            XCTAssertThrowsError(try LinkAddress.parse(bad), bad)
        }
    }
}
