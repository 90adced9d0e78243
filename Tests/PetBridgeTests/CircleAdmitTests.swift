import PetBridge
import PetWire
import XCTest

/// The one-time credential (docs/circles.md#the-one-time-credential): the member's own password
/// as mosquitto's password-file hash (SHA-512 and PBKDF2 checked against Python's hashlib; the real
/// mosquitto accepts it in tools/circle-test.sh), and the owner's rewrite of the password file.
final class CircleAdmitTests: XCTestCase {
    func testSHA512AndPBKDF2MatchKnownValues() {
        XCTAssertEqual(Hex.encode(CirclePassword.sha512(Array("abc".utf8))),
                       "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        XCTAssertEqual(Hex.encode(CirclePassword.pbkdf2(password: Array("password".utf8), salt: Array("saltsaltsalt".utf8), iterations: 101, length: 64)),
                       "1421bb101a3ccc98a4d185f2d861f349064c22044c3b0efcf323b806ef3c91ca5f14aa4bdba7789106706169d4ae19b940ff00cb8b5171e80f66280273529506")
        // A key longer than the block (hashed first), three iterations.
        XCTAssertEqual(Hex.encode(CirclePassword.pbkdf2(password: [UInt8](repeating: 0x78, count: 200), salt: Array(0..<12), iterations: 3, length: 64)),
                       "c5e6e0c210abf7a9f6a5646630bb82b8da388bc338845ba795f21bac384f54c2165675f5762451d4ef09bd28a369fe50e7aacb4ab4edc2f5f0d50cca26b4f95a")
        let h = CirclePassword.hash("password", salt: Array("saltsaltsalt".utf8))
        XCTAssertTrue(h.hasPrefix("$7$101$c2FsdHNhbHRzYWx0$"))
        XCTAssertTrue(CirclePassword.isHash(h))
        for bad in ["", "$6$abc$def", h + "x", h.replacingOccurrences(of: "$101$", with: "$0$"), "$7$101$c2FsdA==$" + String(h.split(separator: "$")[3]),
                    "ana1:" + h, h + "\nbob2:x"] {
            XCTAssertFalse(CirclePassword.isHash(bad), bad)
        }
    }

    func testAdmittingReplacesOnlyInvitedAccountsLinesWithValidHashes() {
        let h1 = CirclePassword.hash("own-password-of-ana1", salt: Array(0..<12))
        let h2 = CirclePassword.hash("own-password-of-bob2", salt: Array(12..<24))
        let passwd = "ana1:$7$101$aW52aXRlaW52aXRl$old\ncourse_leader:$7$101$x$y\nbob2:" + h2 + "\n"
        let r = CircleAdmit.apply(passwd: passwd, requests: ["ana1": h1, "bob2": h2, "zed9": h1, "course_leader": h1, "cid3": "not a hash"])
        XCTAssertEqual(r.admitted, ["ana1"], "bob2 already has its hash; the leader is no member; cid3's request is not a hash")
        XCTAssertEqual(r.unknown, ["cid3", "zed9"], "no invite made these accounts: nothing is added")
        XCTAssertEqual(r.text, "ana1:" + h1 + "\ncourse_leader:$7$101$x$y\nbob2:" + h2 + "\n")
        XCTAssertEqual(CircleAdmit.apply(passwd: r.text, requests: ["ana1": h1]).admitted, [], "applied twice: nothing changes")
        // A request that tries to smuggle a second line in is no hash.
        XCTAssertEqual(CircleAdmit.apply(passwd: passwd, requests: ["ana1": h1 + "\neve9:" + h1]).admitted, [])
    }
}
