#if canImport(Glibc)
import Glibc
#endif
import PetBridge
import PetIO
import TestSupport
import XCTest

/// The broker owner's files (docs/circles.md#creating-a-circle-on-the-broker): `circle create`'s
/// and `circle invite --acl --passwd`'s edits of mosquitto's ACL and password files — idempotent,
/// other lines untouched, hostile files refused whole, the replacement atomic (a full disk leaves
/// the file as it was). tools/circle-test.sh runs a real mosquitto on files made this way.
final class CircleBrokerTests: XCTestCase {
    let p = "deskpet-circles/friends"

    func testCreateAppendsOneBlockAndAgainChangesNothing() throws {
        let owner = "# mine\npattern read $SYS/#\nuser admin\ntopic readwrite #"   // no final newline
        let once = try CircleBroker.acl(owner, circle: "friends", prefix: p, readers: ["course_leader"])
        XCTAssertTrue(once.text.hasPrefix(owner + "\n\n"), "the owner's lines stay, byte for byte")
        XCTAssertEqual(once.text, owner + "\n\n" + CircleBroker.blockText(circle: "friends", prefix: p, readers: ["course_leader"]).joined(separator: "\n") + "\n")
        XCTAssertTrue(once.text.contains("\npattern readwrite \(p)/%u/#\nuser course_leader\ntopic read \(p)/#\n"))
        let twice = try CircleBroker.acl(once.text, circle: "friends", prefix: p, readers: ["course_leader"])
        XCTAssertEqual(twice.text, once.text, "create run again: the same bytes")
        // A member added by an invite, then the same again; the leader stays.
        let withAna = try CircleBroker.acl(once.text, circle: "friends", prefix: p, readers: ["ana1"]).text
        XCTAssertEqual(try CircleBroker.blocks(withAna).map(\.readers), [["course_leader", "ana1"]])
        XCTAssertEqual(try CircleBroker.acl(withAna, circle: "friends", prefix: p, readers: ["ana1", "course_leader"]).text, withAna)
        // A second circle: its own block; the first's lines unchanged.
        let two = try CircleBroker.acl(withAna, circle: "course", prefix: "deskpet-circles/course-66", readers: ["teacher_1"]).text
        XCTAssertTrue(two.hasPrefix(withAna))
        XCTAssertEqual(try CircleBroker.blocks(two).map(\.circle), ["friends", "course"])
        let bobInCourse = try CircleBroker.acl(two, circle: "course", prefix: "deskpet-circles/course-66", readers: ["bob2"]).text
        XCTAssertTrue(bobInCourse.hasPrefix(withAna), "adding to one circle never touches another's lines")
        XCTAssertEqual(try CircleBroker.blocks(bobInCourse).first(where: { $0.circle == "friends" })?.readers, ["course_leader", "ana1"])
    }

    func testUpdatingABlockInTheMiddleKeepsTheLinesAfterIt() throws {
        let a = try CircleBroker.acl("", circle: "friends", prefix: p, readers: ["ana1"]).text
        let withOwnerAfter = a + "\n# the owner's, later\nuser zed_admin\ntopic readwrite ops/#\n"
        let r = try CircleBroker.acl(withOwnerAfter, circle: "friends", prefix: p, readers: ["bob2"])
        XCTAssertTrue(r.text.hasSuffix("\n# the owner's, later\nuser zed_admin\ntopic readwrite ops/#\n"))
        XCTAssertEqual(try CircleBroker.blocks(r.text).first?.readers, ["ana1", "bob2"])
    }

    func testRefusesPrefixesThatOverlapOrAnotherPrefixForTheCircle() throws {
        let a = try CircleBroker.acl("", circle: "friends", prefix: p, readers: []).text
        for (circle, prefix) in [("other", p), ("other", p + "/sub"), ("other", "deskpet-circles"), ("friends", "deskpet-circles/elsewhere")] {
            XCTAssertThrowsError(try CircleBroker.acl(a, circle: circle, prefix: prefix, readers: []), "\(circle) \(prefix)") { e in
                XCTAssertEqual((e as? CircleBroker.Problem)?.line, 1, "the line of the block in the way is named")
            }
        }
        XCTAssertNoThrow(try CircleBroker.acl(a, circle: "other", prefix: "deskpet-circles/friends2", readers: []), "a sibling prefix is not inside")
        XCTAssertThrowsError(try CircleBroker.acl(a, circle: "friends", prefix: p, readers: ["bad name"]))
        XCTAssertThrowsError(try CircleBroker.acl(a, circle: "friends", prefix: p, readers: ["a:b"]))
    }

    func testHostileACLFilesAreRefusedWholeNamingTheLine() throws {
        let good = try CircleBroker.acl("user admin\ntopic readwrite #\n", circle: "friends", prefix: p, readers: ["ana1"]).text
        var lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let begin = lines.firstIndex { $0.hasPrefix("# deskpet-circle friends begin") }!
        let end = lines.firstIndex { $0 == "# deskpet-circle friends end" }!
        func refused(_ text: String, line: Int?, _ what: String, file: StaticString = #filePath, l: UInt = #line) {
            XCTAssertThrowsError(try CircleBroker.acl(text, circle: "friends", prefix: p, readers: ["bob2"]), what, file: file, line: l) { e in
                XCTAssertEqual((e as? CircleBroker.Problem)?.line, line, what, file: file, line: l)
            }
        }
        var noEnd = lines; noEnd.remove(at: end)
        refused(noEnd.joined(separator: "\n"), line: begin + 1, "a block with no end")
        var smuggled = lines; smuggled.insert("topic readwrite #", at: end)
        refused(smuggled.joined(separator: "\n"), line: end + 1, "a hand-written grant inside the block")
        var otherUser = lines; otherUser.insert("user eve9", at: end)
        refused(otherUser.joined(separator: "\n"), line: end + 1, "a user line with no read line")
        refused(good + good, line: lines.count - 1 + begin + 1, "a second block for the circle")
        refused(good + "# deskpet-circle friends end\n", line: lines.count, "an end line with no block")
        var nested = lines; nested.insert("# deskpet-circle other begin x/y", at: end)
        refused(nested.joined(separator: "\n"), line: end + 1, "a block begun inside another")
        var badBegin = lines; badBegin[begin] = "# deskpet-circle Friends! begin " + p
        refused(badBegin.joined(separator: "\n"), line: begin + 1, "a begin line with an invalid id")
        var dup = lines; dup.insert(contentsOf: ["user ana1", "topic read \(p)/#"], at: end)
        refused(dup.joined(separator: "\n"), line: end + 1, "a reader listed twice")
        // Binary and non-UTF-8 files are refused before any edit.
        XCTAssertThrowsError(try CircleBroker.text(Array("user a\n".utf8) + [0] + Array("x".utf8))) { e in
            XCTAssertEqual((e as? CircleBroker.Problem)?.line, 2)
        }
        XCTAssertThrowsError(try CircleBroker.text([0x75, 0xff, 0xfe, 0x0a]))
        XCTAssertEqual(try CircleBroker.text(Array("é\r\n".utf8)), "é\r\n")
        // CRLF files: the block is still read; the owner's lines keep their \r.
        let crlf = good.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
        XCTAssertEqual(try CircleBroker.blocks(crlf).first?.readers, ["ana1"])
        let added = try CircleBroker.acl(crlf, circle: "friends", prefix: p, readers: ["bob2"]).text
        XCTAssertTrue(added.hasPrefix("user admin\r\ntopic readwrite #\r\n"))
        XCTAssertEqual(try CircleBroker.blocks(added).first?.readers, ["ana1", "bob2"])
        // A line outside the block naming the prefix is left alone, and the owner is told.
        let notes = try CircleBroker.acl("user x_y\ntopic readwrite \(p)/#\n", circle: "friends", prefix: p, readers: []).notes
        XCTAssertEqual(notes, ["line 2 outside circle friends's block names its prefix: check it by hand"])
    }

    func testPasswordFileAccounts() throws {
        let h = CirclePassword.hash("leader-password-1", salt: Array(0..<12))
        XCTAssertTrue(CirclePassword.verify("leader-password-1", hash: h))
        XCTAssertFalse(CirclePassword.verify("leader-password-2", hash: h))
        XCTAssertFalse(CirclePassword.verify("x", hash: "$6$abc$def"))
        let owner = "someone:$6$abc$def\nnot a line\n"
        let added = try CircleBroker.addAccount(owner, user: "course_leader", hash: h)
        XCTAssertEqual(added, owner + "course_leader:" + h + "\n")
        XCTAssertEqual(try CircleBroker.account(added, user: "course_leader"), .present(hash: h))
        XCTAssertEqual(try CircleBroker.account(added, user: "ana1"), .absent)
        XCTAssertThrowsError(try CircleBroker.addAccount(added, user: "course_leader", hash: h), "an account is never replaced")
        XCTAssertThrowsError(try CircleBroker.addAccount(owner, user: "ana1", hash: h + "\nevil:x"), "a hash smuggling a line")
        XCTAssertThrowsError(try CircleBroker.addAccount(owner, user: "a:b", hash: h))
        XCTAssertThrowsError(try CircleBroker.account(added + "course_leader:" + h + "\n", user: "course_leader")) { e in
            XCTAssertEqual((e as? CircleBroker.Problem)?.line, 4, "two lines for one user: refused, the second named")
        }
        XCTAssertEqual(try CircleBroker.addAccount("x:y", user: "ana1", hash: h), "x:y\nana1:" + h + "\n", "a file without a final newline")
    }

    func testReplaceKeepsModeRefusesLinksAndLeavesTheFileOnAFullDisk() throws {
        let dir = try makeTemporaryDirectory("circle-broker")
        defer { removeTemporaryDirectory(dir) }
        let path = dir.path + "/acl"
        try CircleBroker.replace(path, Array("one\n".utf8))
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o7777, 0o600, "a new file: 0600")
        XCTAssertEqual(chmod(path, 0o640), 0)
        try CircleBroker.replace(path, Array("two\n".utf8))
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o7777, 0o640, "the old file's mode is kept")
        XCTAssertEqual(try readRegularFile(path), Array("two\n".utf8))
        // A full disk: the write fails (ENOSPC after a few bytes), the file is as it was, no
        // temporary file is left.
        let full = FileWriteCalls(write: { fd, p, n in
            if n > 3 { _ = Glibc.write(fd, p, 3); return 3 }
            errno = ENOSPC; return -1
        }, fsync: { Glibc.fsync($0) }, close: { Glibc.close($0) }, rename: { Glibc.rename($0, $1) })
        XCTAssertThrowsError(try CircleBroker.replace(path, Array("three, longer\n".utf8), calls: full)) { e in
            XCTAssertEqual((e as? FileError)?.code, ENOSPC)
        }
        XCTAssertEqual(try readRegularFile(path), Array("two\n".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["acl"])
        // A symbolic link is refused (renaming over it would replace the link).
        XCTAssertEqual(symlink(path, dir.path + "/link"), 0)
        XCTAssertThrowsError(try CircleBroker.replace(dir.path + "/link", Array("x".utf8)))
        XCTAssertEqual(try readRegularFile(path), Array("two\n".utf8))
    }
}
