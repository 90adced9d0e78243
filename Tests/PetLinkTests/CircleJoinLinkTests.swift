import Foundation
@testable import PetCore
import PetDevice
@testable import PetLink
import PetWire
import TestSupport
import XCTest

/// Joining a circle from the companion (docs/circles.md#joining-from-the-phone): the request is
/// checked on the device, held in memory only (never journaled), handed to the bridge with its
/// invite, shown in `circle.state` without it, expires on the virtual clock, and is bounded.
final class CircleJoinLinkTests: XCTestCase {
    static func invite(broker: String = "mqtt://broker.example:1883", prefix: String = "deskpet/friends", circle: String = "friends",
                       member: String = "ana1", password: String = "S3cretOneTimeCredential") -> String {
        let body = [broker, prefix, circle, member, password].joined(separator: "\n")
        return "dpc1." + String(Base64.encode(Array(body.utf8)).compactMap { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 == "=" ? nil : $0 })
    }

    func testARequestIsHeldInMemoryHandedToTheBridgeAndShownWithoutItsInvite() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cj-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = try Harness(dbPath: dir.appendingPathComponent("pet.db").path)
        var logged: [String] = []
        h.service.log = { logged.append($0) }
        try h.pair(1)
        let seq = try h.lastSeq()
        let inv = Self.invite()
        try h.send(1, #"{"type":"command","id":"r1","name":"circle.join.request","fields":{"invite":"\#(inv)","share":"coins,focus","screen_goal":"90"}}"#)
        let req = try XCTUnwrapValue(try h.last(1, type: "circle.join.requested"))
        XCTAssertEqual(req["circle"] as? String, "friends")
        XCTAssertEqual(req["member"] as? String, "ana1")
        let join = try XCTUnwrapValue(req["join"] as? String)
        XCTAssertEqual(try h.lastSeq(), seq, "never journaled")
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
            let bytes = try Data(contentsOf: dir.appendingPathComponent(name))
            XCTAssertNil(bytes.range(of: Data("S3cretOneTimeCredential".utf8)), "\(name) holds the credential")
            XCTAssertNil(bytes.range(of: Data(inv.utf8)), "\(name) holds the invite")
        }
        XCTAssertFalse(logged.joined().contains("S3cret") || logged.joined().contains(inv), "never logged")

        try h.send(1, #"{"type":"command","id":"s1","name":"circle.state"}"#)
        let s1 = try XCTUnwrapValue(try h.last(1, type: "circle.state"))
        let joins = try XCTUnwrapValue(s1["joins"] as? [[String: Any]])
        XCTAssertEqual(joins.count, 1)
        XCTAssertEqual(joins[0]["status"] as? String, "waiting")
        XCTAssertEqual(joins[0]["join"] as? String, join)
        XCTAssertNil(joins[0]["invite"])

        // The bridge (another paired client) reads it with its invite.
        try h.pair(2, name: "bridge")
        try h.send(2, #"{"type":"command","id":"p1","name":"circle.join.pending"}"#)
        let pending = try XCTUnwrapValue(try h.last(2, type: "circle.join.pending")?["joins"] as? [[String: Any]])
        XCTAssertEqual(pending.count, 1)
        XCTAssertEqual(pending[0]["invite"] as? String, inv)
        XCTAssertEqual(pending[0]["share"] as? String, "coins,focus")
        XCTAssertEqual(pending[0]["screen_goal"] as? Int, 90)

        // "joined" only once the device has joined (the bridge sends circle.join first).
        try h.send(2, #"{"type":"command","id":"x1","name":"circle.join.result","fields":{"join":"\#(join)","outcome":"joined"}}"#)
        XCTAssertEqual(try h.last(2, type: "error")?["code"] as? String, ErrorCode.invalidState)
        // A reason that repeats the credential is refused.
        try h.send(2, #"{"type":"command","id":"x2","name":"circle.join.result","fields":{"join":"\#(join)","outcome":"refused","reason":"bad S3cretOneTimeCredential"}}"#)
        XCTAssertEqual(try h.last(2, type: "error")?["code"] as? String, ErrorCode.invalidField)
        try h.send(2, #"{"type":"command","id":"j1","name":"circle.join","fields":{"circle":"friends","member":"ana1","share":"coins,focus","screen_goal":"90"}}"#)
        XCTAssertEqual(try h.last(2, type: "reply")?["command"] as? String, "circle.join")
        try h.send(2, #"{"type":"command","id":"x3","name":"circle.join.result","fields":{"join":"\#(join)","outcome":"joined"}}"#)
        XCTAssertEqual(try h.last(2, type: "reply")?["id"] as? String, "x3")
        XCTAssertEqual(h.service.circleJoins.first?.invite, "", "the invite is dropped with the result")
        try h.send(2, #"{"type":"command","id":"p2","name":"circle.join.pending"}"#)
        XCTAssertEqual((try h.last(2, type: "circle.join.pending")?["joins"] as? [Any])?.count, 0)
        try h.send(2, #"{"type":"command","id":"x4","name":"circle.join.result","fields":{"join":"\#(join)","outcome":"refused"}}"#)
        XCTAssertEqual(try h.last(2, type: "error")?["code"] as? String, ErrorCode.invalidState, "one result only")
        try h.send(1, #"{"type":"command","id":"s2","name":"circle.state"}"#)
        let s2 = try XCTUnwrapValue(try h.last(1, type: "circle.state")?["joins"] as? [[String: Any]])
        XCTAssertEqual(s2.first?["status"] as? String, "joined")

        // Joined already: a second request is refused.
        try h.send(1, #"{"type":"command","id":"r2","name":"circle.join.request","fields":{"invite":"\#(inv)","share":"none"}}"#)
        XCTAssertEqual(try h.last(1, type: "error")?["code"] as? String, ErrorCode.alreadyExists)

        // Kept a day on the virtual clock, then gone (the idle connections were dropped meanwhile).
        try h.sim.run(until: Harness.start + 86_400 - 3600)
        XCTAssertEqual(h.service.circleJoins.count, 1)
        try h.sim.run(until: Harness.start + 86_400 + 60)
        try h.pair(3)
        try h.send(3, #"{"type":"command","id":"s3","name":"circle.state"}"#)
        XCTAssertEqual((try h.last(3, type: "circle.state")?["joins"] as? [Any])?.count, 0)
        XCTAssertEqual(h.service.circleJoins.count, 0)
    }

    func testBadRequestsAreRefusedNamingTheFieldAndTheLimitHolds() throws {
        let h = try Harness()
        try h.pair(1)
        func code(_ fields: String) throws -> (String?, String?) {
            try h.send(1, #"{"type":"command","id":"b","name":"circle.join.request","fields":\#(fields)}"#)
            let e = try h.last(1, type: "error")
            h.link.sent[1] = []
            h.decoders[1] = nil
            return (e?["code"] as? String, e?["message"] as? String)
        }
        XCTAssertEqual(try code(#"{"share":"all"}"#).0, ErrorCode.missingField)
        XCTAssertEqual(try code(#"{"invite":"\#(Self.invite())"}"#).0, ErrorCode.missingField)
        let hostile: [(String, String)] = [
            ("<script>alert(1)</script>", "invite"), ("dpc1.@@@", "invite"), ("dpc1." + String(repeating: "A", count: 2000), "invite"),
            (Self.invite(broker: "http://x"), "broker"), (Self.invite(prefix: "a/#"), "prefix"), (Self.invite(prefix: "/a"), "prefix"),
            (Self.invite(circle: "Bad Id"), "circle"), (Self.invite(member: "<b>"), "member"), (Self.invite(password: "short"), "password"),
            (Self.invite(password: "with space in it!!"), "password"), (Self.invite(member: "ana1\nextra"), "invite")
        ]
        for (text, part) in hostile {
            let esc = text.replacingOccurrences(of: "\n", with: "\\n")
            let (c, msg) = try code(#"{"invite":"\#(esc)","share":"all"}"#)
            XCTAssertEqual(c, ErrorCode.invalidField, text)
            XCTAssertTrue(msg?.contains(part) ?? false, "\(text): \(msg ?? "")")
            XCTAssertFalse(msg?.contains("short") ?? true, "never the password")
        }
        XCTAssertEqual(try code(#"{"invite":"\#(Self.invite())","share":"titles"}"#).0, ErrorCode.invalidField)
        XCTAssertEqual(try code(#"{"invite":"\#(Self.invite())","share":"all","screen_goal":"1441"}"#).0, ErrorCode.invalidField)
        XCTAssertEqual(h.service.circleJoins.count, 0)
        for i in 0..<LinkService.maxCircleJoins {
            XCTAssertNil(try code(#"{"invite":"\#(Self.invite(circle: "c" + String(i)))","share":"all"}"#).0)
        }
        // The same circle again replaces its request; a fifth circle is over the limit.
        XCTAssertNil(try code(#"{"invite":"\#(Self.invite(circle: "c0"))","share":"none"}"#).0)
        XCTAssertEqual(try code(#"{"invite":"\#(Self.invite(circle: "c9"))","share":"all"}"#).0, ErrorCode.limitReached)
        XCTAssertEqual(h.service.circleJoins.count, LinkService.maxCircleJoins)
        XCTAssertEqual(h.service.circleJoins.first { $0.circle == "c0" }?.share, "none")
        // Unknown join ids, bad outcomes.
        try h.send(1, #"{"type":"command","id":"u1","name":"circle.join.result","fields":{"join":"join-nope","outcome":"joined"}}"#)
        XCTAssertEqual(try h.last(1, type: "error")?["code"] as? String, ErrorCode.notFound)
        let id = h.service.circleJoins[0].id
        try h.send(1, #"{"type":"command","id":"u2","name":"circle.join.result","fields":{"join":"\#(id)","outcome":"maybe"}}"#)
        XCTAssertEqual(try h.last(1, type: "error")?["code"] as? String, ErrorCode.invalidField)
        try h.send(1, #"{"type":"command","id":"u3","name":"circle.join.result","fields":{"join":"\#(id)","outcome":"refused","reason":"line\nbreak"}}"#)
        XCTAssertEqual(try h.last(1, type: "error")?["code"] as? String, ErrorCode.invalidField)
        try h.send(1, #"{"type":"command","id":"u4","name":"circle.join.result","fields":{"join":"\#(id)","outcome":"refused","reason":"the broker refused the invite's credential: used already"}}"#)
        XCTAssertEqual(try h.last(1, type: "reply")?["id"] as? String, "u4")
        try h.send(1, #"{"type":"command","id":"s","name":"circle.state"}"#)
        let joins = try XCTUnwrapValue(try h.last(1, type: "circle.state")?["joins"] as? [[String: Any]])
        XCTAssertEqual(joins.first { $0["join"] as? String == id }?["status"] as? String, "refused")
        XCTAssertEqual(joins.first { $0["join"] as? String == id }?["reason"] as? String, "the broker refused the invite's credential: used already")
        // Unpaired connections get nothing.
        try h.connect(3)
        try h.send(3, #"{"type":"hello","version":1}"#)
        try h.send(3, #"{"type":"command","id":"q","name":"circle.join.pending"}"#)
        XCTAssertEqual(try h.last(3, type: "error")?["code"] as? String, ErrorCode.notPaired)
    }
}
