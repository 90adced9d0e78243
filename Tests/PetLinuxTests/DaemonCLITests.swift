import Foundation
import XCTest
import TestSupport

/// The `deskpet` daemon's command line on a machine without hardware: help, bad options and bad
/// boards are refused with a message that says what is wrong and an exit status, and nothing is
/// created. (The daemon on real kernel devices: tools/vm-test.sh daemon.)
final class DaemonCLITests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("deskpet-cli") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    func daemon() throws -> String {
        var d = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while d.pathExtension == "xctest" || d.lastPathComponent == "MacOS" || d.lastPathComponent == "Contents" {
            d.deleteLastPathComponent()
        }
        let path = d.appendingPathComponent("deskpet").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            XCTFail("deskpet is not built next to the tests (\(d.path)); swift test builds it")
            throw CocoaError(.fileNoSuchFile)
        }
        return path
    }

    func run(_ args: [String]) throws -> ToolResult { try runTool(try daemon(), args, cwd: dir) }

    func testHelpAndVersion() throws {
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("deskpet run --board BOARD"), help.stdout)
        XCTAssertEqual(try run(["--version"]).status, 0)
    }

    func testBadCommandLinesAreRefusedWithStatus2() throws {
        for (args, says) in [(["frobnicate"], "unknown command 'frobnicate'"),
                             (["run"], "run needs --board"),
                             (["run", "--board", "sim-240x240", "--fps", "99"], "--fps 99"),
                             (["run", "--bogus"], "unknown option '--bogus'"),
                             (["check", "--board", "no-such-board"], "no board named 'no-such-board'")] {
            let r = try run(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.output)")
            XCTAssertTrue(r.stderr.contains(says), "\(args): \(r.stderr)")
        }
    }

    func testABadBoardFileNamesFileLineAndKey() throws {
        let file = dir.appendingPathComponent("mine.board")
        try "name = mine\n[display]\ncontroller = st7789\nsize = 240x240\nbus = sim\nfrobs = 3\n".write(to: file, atomically: true, encoding: .utf8)
        let r = try run(["check", "--board", file.path])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("mine.board:6"), r.stderr)
        XCTAssertTrue(r.stderr.contains("frobs"), r.stderr)
    }

    /// A board whose devices this machine lacks is refused before anything is created (a
    /// simulator board runs headless instead: DaemonHeadlessTests).
    func testABoardWhoseDevicesAreMissingIsRefusedByRunAndNothingIsCreated() throws {
        let data = dir.appendingPathComponent("data").path
        let board = Repository.folder("boards").appendingPathComponent("pi-waveshare-lcd-hat-1in3.board").path
        let r = try run(["run", "--board", board, "--data", data, "--link", "none"])
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.stderr.contains("gpiochip") || r.stderr.contains("spidev"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: data), "a refused start creates nothing")
    }
}
