import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import PetLink
import TestSupport
import XCTest

/// deskpetctl reads its state files (token.json, queue.jsonl, last_seq) and `batch FILE` only when
/// they are regular files within their documented size (docs/deskpetctl.md, "Files"): `/dev/zero`
/// (endless), a FIFO (no writer: it would wait for ever) or an oversized file is a clear error with
/// exit status 7, read no further.
final class DeskpetctlStateFileTests: XCTestCase {
    var dir: URL!
    var state: String { dir.appendingPathComponent("state").path }
    var ctl: String { Repository.executable("deskpetctl").path }
    var nowhere: String { dir.appendingPathComponent("nobody.sock").path }

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory("deskpetctl-files")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    }
    override func tearDown() { removeTemporaryDirectory(dir) }

    func ctl(_ args: [String]) throws -> ToolResult {
        try runTool(ctl, ["--unix", nowhere, "--state", state, "--timeout", "2"] + args)
    }

    func put(_ name: String, _ text: String) {
        XCTAssertTrue(FileManager.default.createFile(atPath: state + "/" + name, contents: Data(text.utf8)))
    }

    func fifo(_ path: String) { XCTAssertEqual(mkfifo(path, 0o600), 0) }

    func oversized(_ path: String, _ size: Int) {
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        XCTAssertEqual(truncate(path, off_t(size)), 0)
    }

    func assertRefused(_ r: ToolResult, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, 7, r.stderr, file: file, line: line)
        XCTAssertTrue(r.stderr.contains(expected), r.stderr, file: file, line: line)
    }

    let token = #"{"phone":"p1","token":"t1"}"# + "\n"

    func testTheTokenFileMustBeASmallRegularFile() throws {
        let path = state + "/token.json"
        XCTAssertEqual(symlink("/dev/zero", path), 0)
        assertRefused(try ctl(["task", "list"]), "token.json: is not a regular file")
        unlink(path)
        fifo(path)
        assertRefused(try ctl(["task", "list"]), "token.json: is not a regular file")
        unlink(path)
        oversized(path, StateFile.tokenLimit + 1)
        assertRefused(try ctl(["task", "list"]), "more than the \(StateFile.tokenLimit) bytes")
    }

    func testTheQueueAndLastSeqMustBeSmallRegularFiles() throws {
        put("token.json", token)
        let queue = state + "/queue.jsonl", seq = state + "/last_seq"
        XCTAssertEqual(symlink("/dev/zero", queue), 0)
        assertRefused(try ctl(["task", "add", "Water"]), "queue.jsonl: is not a regular file")
        unlink(queue)
        oversized(queue, StateFile.queueLimit + 1)
        assertRefused(try ctl(["queue"]), "more than the \(StateFile.queueLimit) bytes")
        unlink(queue)

        fifo(seq)
        assertRefused(try ctl(["task", "list"]), "last_seq: is not a regular file")
        unlink(seq)
        for bad in ["-1\n", "1 2\n", "x\n", String(repeating: "9", count: StateFile.lastSeqLimit + 1)] {
            put("last_seq", bad)
            let r = try ctl(["task", "list"])
            XCTAssertEqual(r.status, 7, "\(bad): \(r.stderr)")
        }
        put("last_seq", "12\n")
        let r = try ctl(["task", "list"])
        XCTAssertEqual(r.status, 4, "a good last_seq: only the device is missing: \(r.stderr)")
    }

    func testABatchFileMustBeARegularFileWithinTheLimit() throws {
        put("token.json", token)
        let batch = dir.appendingPathComponent("batch").path
        fifo(batch)
        assertRefused(try ctl(["batch", batch]), "is not a regular file")
        assertRefused(try ctl(["batch", "/dev/zero"]), "/dev/zero: is not a regular file")
        unlink(batch)
        oversized(batch, StateFile.batchLimit + 1)
        assertRefused(try ctl(["batch", batch]), "more than the \(StateFile.batchLimit) bytes")
        XCTAssertEqual(access(state + "/queue.jsonl", F_OK), -1, "nothing was queued")
    }
}
