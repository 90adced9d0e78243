import Foundation
import PetCore
import PetDevice
@testable import PetLink
import TestSupport
import XCTest

/// Lenient parsing closed (docs/protocol.md, "Strict JSON"): every message from a phone is read
/// once by the strict reader before it is decoded, and texts follow one set of rules.
final class StrictMessageTests: XCTestCase {
    func malformed(_ body: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            let m = try ClientMessage.decode(body)
            XCTFail("accepted: \(m)", file: file, line: line)
            return nil
        } catch {
            guard case .malformed(let what) = error else { XCTFail("\(error)", file: file, line: line); return nil }
            return what
        }
    }

    func testLenientJSONIsRefused() {
        let cases: [([UInt8], String)] = [
            // invalid UTF-8 in a string nobody reads
            (Array(#"{"type":"ping","x":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8), "not valid UTF-8"),
            (Array(#"{"type":"ping",}"#.utf8), "trailing comma"),
            (Array(#"{"type":"command","id":"c","name":"pet.pet","fields":{"a":"1",}}"#.utf8), "trailing comma"),
            (Array(#"{"type":"command","id":"c","name":"pet.pet","fields":{},"x":[1,]}"#.utf8), "trailing comma"),
            // the first `token` would win: one could be smuggled past a check of the other
            (Array(#"{"type":"hello","version":1,"token":"aa","token":"bb"}"#.utf8), "appears twice"),
            (Array(#"{"type":"ping","type":"hello","version":1}"#.utf8), "appears twice"),
            (Array(#"{"type":"ping"} {"type":"ping"}"#.utf8), "after the JSON value"),
            (Array(#"{"type":"ping","n":01}"#.utf8), "may not start with 0"),
            (Array(#"{"type":"ping","s":"\ud800"}"#.utf8), "lone surrogate"),
        ]
        for (body, expected) in cases {
            guard let what = malformed(body) else { continue }
            XCTAssertTrue(what.contains(expected), "\(String(decoding: body, as: UTF8.self)) → \(what)")
        }
        // A byte-order mark before the object.
        XCTAssertNotNil(malformed([0xEF, 0xBB, 0xBF] + Array(#"{"type":"ping"}"#.utf8)))
        // What a well-behaved phone sends still decodes.
        XCTAssertEqual(try ClientMessage.decode(Array(#"{"type":"hello","version":1,"token":"ab","last_seq":0}"#.utf8)),
                       .hello(Hello(version: 1, token: "ab", lastSeq: 0)))
        XCTAssertEqual(try ClientMessage.decode(Array("{\"type\":\"ping\",\"x\":\"\\u00e9\\ud83d\\ude00\"}\n".utf8)), .ping(Ping()))
    }

    func testANegativeLastSeqIsRefusedNotReadAsZero() {
        for seq in ["-1", "-9223372036854775808"] {
            let what = malformed(Array(#"{"type":"hello","version":1,"token":"ab","last_seq":\#(seq)}"#.utf8))
            XCTAssertEqual(what, "hello: field 'last_seq' is not valid", seq)
        }
    }

    func testTitlesRefuseTheByteOrderMarkAndDirectionOverrides() throws {
        let clock = DayClock(zone: .utc)
        for (title, code) in [("\u{FEFF}Water", "U+FEFF"), ("Wat\u{202E}er", "U+202E"), ("\u{202D}x", "U+202D"),
                              ("a\u{2066}b\u{2069}", "U+2066"), ("\u{202A}x", "U+202A")] {
            XCTAssertThrowsError(try CommandParser.parse(name: "task.create", fields: ["task": "t", "title": title], id: "c",
                                                         at: Instant(0), clock: clock)) { error in
                XCTAssertTrue("\(error)".contains("invalid title"), "\(error)")
                XCTAssertTrue("\(error)".contains(code), "\(error)")
                XCTAssertFalse("\(error)".contains("Wat"), "the text itself is never quoted")
            }
        }
        // Right-to-left text and its implicit marks are text.
        for title in ["שלום", "مرحبا\u{200F}", "a\u{200E}b", "x\u{061C}y"] {
            XCTAssertNoThrow(try CommandParser.parse(name: "task.create", fields: ["task": "t", "title": title], id: "c",
                                                     at: Instant(0), clock: clock), title)
        }
    }

    func testAPhoneNameFollowsTheTitleRules() throws {
        let combining = "a" + String(repeating: "\u{0301}", count: 10_000)
        for (name, expected) in [("Ann\u{0}", "U+0000"), ("\u{1B}[31mAnn", "U+001B"), ("Ann\nBob", "U+000A"), ("Ann\u{7F}", "U+007F"),
                                 ("\u{202E}enohp", "U+202E"), (combining, "bytes of UTF-8"), ("", "1–32 characters"),
                                 ("   ", "1–32 characters"), (String(repeating: "x", count: 33), "1–32 characters")] {
            XCTAssertThrowsError(try PhoneRules.validateName(name)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
        XCTAssertNoThrow(try PhoneRules.validateName("Ann's phone"))
        XCTAssertNoThrow(try PhoneRules.validateName(String(repeating: "😀", count: 32)))

        // Through the link: pairing with such a name is refused and stores nothing.
        let h = try Harness()
        let before = try h.lastSeq()
        try h.connect(1)
        try h.send(1, #"{"type":"hello","version":1}"#)
        try h.send(1, #"{"type":"pair.begin"}"#)
        let ch = try XCTUnwrap(try h.last(1, type: "pair.challenge")?["challenge"] as? String)
        let nonce: [UInt8] = Array(0..<16)
        let mac = PairFinish.proof(code: try XCTUnwrap(h.sim.ui.pairingCode), challenge: try XCTUnwrap(Hex.decode(ch)), nonce: nonce)
        try h.send(1, #"{"type":"pair.finish","nonce":"\#(Hex.encode(nonce))","mac":"\#(Hex.encode(mac))","name":"Ann\u001b[2J"}"#)
        let refusal = try XCTUnwrap(try h.messages(1).last)
        XCTAssertEqual(refusal["code"] as? String, "invalid_field", "\(refusal)")
        XCTAssertTrue((refusal["message"] as? String ?? "").contains("U+001B"), "\(refusal)")
        XCTAssertEqual(try h.lastSeq(), before, "nothing stored")
        XCTAssertTrue(h.sim.app.state.phones.paired.isEmpty)
        _ = try h.pair(2, name: "Ann's phone")
        XCTAssertEqual(h.sim.app.state.phones.paired.map(\.name), ["Ann's phone"])
    }
}
