import PetBridge
import PetCore
import PetWire
import XCTest

/// Joining (docs/circles.md#invites, docs/circles.md#joining-from-the-phone): `CircleJoiner`'s
/// steps in order, each failure typed and leaving the bridge's circles as they were, the join
/// request taken back from the broker when the device or the save fails, and no reason that
/// repeats the invite's credential.
final class CircleJoinTests: XCTestCase {
    static let secret = "S3cretOneTimeCredential"
    static func invite(circle: String = "friends", member: String = "ana1", password: String = secret) -> String {
        CircleInvite(broker: "mqtt://127.0.0.1:1883", prefix: "dc/friends", circle: circle, member: member, password: password).text
    }

    /// A fake broker, device and circles.json that record what was done.
    final class World {
        var brokerAnswer: Result<Void, CircleBrokerProblem> = .success(())
        var deviceAnswer: [String: Result<Void, CircleJoinError>] = [:]
        var saveAnswer: Result<Void, CircleJoinError> = .success(())
        var published: [(user: String, password: String, topic: String, payload: [UInt8])] = []
        var commands: [(String, [String: String])] = []
        var saved: [[CircleEntry]] = []

        func join(_ invite: String, share: String = "coins,focus", goal: Int = 0, circles: [CircleEntry] = []) -> Result<(entry: CircleEntry, circles: [CircleEntry]), CircleJoinError> {
            CircleJoiner.join(invite: invite, share: share, screenGoal: goal, circles: circles, random: SeededRandom(seed: 7),
                              broker: { e, publish in
                                  for (t, p) in publish { self.published.append((e.member, e.password, t, p)) }
                                  // A refusal publishes nothing.
                                  if case .failure = self.brokerAnswer { self.published.removeAll() }
                                  return self.brokerAnswer
                              },
                              device: { name, fields in self.commands.append((name, fields)); return self.deviceAnswer[name] ?? .success(()) },
                              save: { l in self.saved.append(l); return self.saveAnswer })
        }
    }

    func testAJoinPublishesTheHashWithTheInvitesCredentialThenTheDeviceJoinsThenTheCircleIsSaved() throws {
        let w = World()
        let other = CircleEntry(invite: CircleInvite(broker: "mqtt://b", prefix: "x/y", circle: "book-club", member: "ana2", password: "0123456789abcdef"),
                                share: "none", screenGoal: 0)
        let r = try w.join(Self.invite(), goal: 90, circles: [other]).get()
        XCTAssertEqual(w.published.count, 1)
        XCTAssertEqual(w.published[0].user, "ana1")
        XCTAssertEqual(w.published[0].password, Self.secret, "the join request goes with the invite's credential")
        XCTAssertEqual(w.published[0].topic, "dc/friends/ana1/join")
        let hash = String(decoding: w.published[0].payload, as: UTF8.self)
        XCTAssertTrue(CirclePassword.isHash(hash))
        XCTAssertTrue(CirclePassword.verify(r.entry.password, hash: hash), "the hash is of the member's own password")
        XCTAssertNotEqual(r.entry.password, Self.secret)
        XCTAssertEqual(r.entry.invitePassword, Self.secret, "kept until admitted")
        XCTAssertEqual(w.commands.map(\.0), ["circle.join"])
        XCTAssertEqual(w.commands[0].1, ["circle": "friends", "member": "ana1", "share": "coins,focus", "screen_goal": "90"])
        XCTAssertEqual(w.saved.count, 1)
        XCTAssertEqual(w.saved[0].map(\.circle), ["book-club", "friends"], "the other circles kept")
        XCTAssertEqual(r.circles, w.saved[0])
    }

    func testWhatTheUserGaveIsRefusedBeforeAnythingIsDone() {
        let w = World()
        let joined = CircleEntry(invite: CircleInvite(broker: "mqtt://b", prefix: "dc/friends", circle: "friends", member: "bob2", password: "0123456789abcdef"),
                                 share: "none", screenGoal: 0)
        let cases: [(String, String, Int, [CircleEntry], (CircleJoinError) -> Bool)] = [
            ("hello", "all", 0, [], { if case .badInvite(let s) = $0 { s.contains("not a DeskPet circle invite") } else { false } }),
            ("dpc1.<script>", "all", 0, [], { if case .badInvite = $0 { true } else { false } }),
            (Self.invite(password: "short"), "all", 0, [], { if case .badInvite(let s) = $0 { s.contains("password") } else { false } }),
            (Self.invite(member: "B!"), "all", 0, [], { if case .badInvite(let s) = $0 { s.contains("member") } else { false } }),
            (Self.invite(), "titles", 0, [], { $0 == .badShare }),
            (Self.invite(), "all", 1441, [], { $0 == .badScreenGoal }),
            (Self.invite(), "all", -1, [], { $0 == .badScreenGoal }),
            (Self.invite(), "all", 0, [joined], { $0 == .joinedAsAnother(circle: "friends", member: "bob2") }),
        ]
        for (text, share, goal, circles, expected) in cases {
            guard case .failure(let e) = w.join(text, share: share, goal: goal, circles: circles) else { XCTFail(text); continue }
            XCTAssertTrue(expected(e), "\(text): \(e)")
            XCTAssertFalse(e.description.contains("short") || e.description.contains(Self.secret), "never the password: \(e)")
        }
        XCTAssertTrue(w.published.isEmpty && w.commands.isEmpty && w.saved.isEmpty, "nothing done")
    }

    func testTheBrokerRefusingTheCredentialOrNotAnsweringChangesNothing() {
        for (answer, check) in [(CircleBrokerProblem.refused("Connection Refused: not authorised."), "used already or removed"),
                                (.unreachable("no answer within 10 s"), "unreachable")] {
            let w = World()
            w.brokerAnswer = .failure(answer)
            guard case .failure(let e) = w.join(Self.invite()) else { XCTFail("\(answer)"); continue }
            XCTAssertTrue(e.reason().contains(check), e.reason())
            XCTAssertTrue(e.reason().contains(answer.text))
            XCTAssertFalse(e.reason().contains(Self.secret))
            XCTAssertTrue(w.commands.isEmpty, "the device is not touched")
            XCTAssertTrue(w.saved.isEmpty, "circles.json is not written")
        }
    }

    func testTheDeviceRefusingTakesTheJoinRequestBackAndSavesNothing() {
        let w = World()
        w.deviceAnswer["circle.join"] = .failure(.deviceRefused(circle: "friends", code: ErrorCode.limitReached))
        guard case .failure(let e) = w.join(Self.invite()) else { return XCTFail("joined") }
        XCTAssertEqual(e, .deviceRefused(circle: "friends", code: ErrorCode.limitReached))
        XCTAssertEqual(w.published.map(\.topic), ["dc/friends/ana1/join", "dc/friends/ana1/join"])
        XCTAssertEqual(w.published.last?.payload, [], "the join request is cleared: admit puts in no hash nobody keeps")
        XCTAssertTrue(w.saved.isEmpty)
    }

    func testASaveThatFailsLeavesTheDeviceAgainUnlessItWasInTheCircleBefore() {
        let w = World()
        w.saveAnswer = .failure(.state("circles.json: No space left on device"))
        guard case .failure(let e) = w.join(Self.invite()) else { return XCTFail("joined") }
        XCTAssertEqual(e, .state("circles.json: No space left on device"))
        XCTAssertEqual(w.commands.map(\.0), ["circle.join", "circle.leave"])
        XCTAssertEqual(w.commands[1].1, ["circle": "friends"])
        XCTAssertEqual(w.published.last?.payload, [])

        // Joining again as the same member (a new consent): the old membership stays on a failure.
        let w2 = World()
        w2.saveAnswer = .failure(.state("x"))
        let same = CircleEntry(invite: CircleInvite(broker: "mqtt://b", prefix: "dc/friends", circle: "friends", member: "ana1", password: "0123456789abcdef"),
                               share: "none", screenGoal: 0)
        _ = w2.join(Self.invite(), circles: [same])
        XCTAssertEqual(w2.commands.map(\.0), ["circle.join"])
    }

    func testAReasonIsOneLineOfAtMost200BytesCutOnACharacter() {
        let long = CircleJoinError.brokerUnreachable(broker: "mqtt://h", reason: String(repeating: "ü", count: 300) + "\nsecond line")
        let r = long.reason()
        XCTAssertLessThanOrEqual(r.utf8.count, CircleJoinError.maxReason)
        XCTAssertFalse(r.contains("\n"))
        XCTAssertTrue(r.hasSuffix("ü"))
        XCTAssertEqual(CircleJoinError.badShare.exitStatus, 2)
        XCTAssertEqual(CircleJoinError.device("x").exitStatus, 1)
    }
}
