// BoardSimTests.swift — the simulator on board files: `start … board=` in scenarios and
// `deskpet-sim --board`, with names of built-in boards and paths (docs/boards.md).

import Foundation
import XCTest
import TestSupport
import PetDevice
import PetSim
import PetUI

final class BoardSimTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("petsim-boards-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func syntaxMessage(_ text: String, file: String = "t.scenario") -> String? {
        do {
            _ = try ScenarioParser.parse(text, file: file)
        } catch {
            return error.description
        }
        XCTFail("expected an error")
        return nil
    }

    func write(_ name: String, _ text: String) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    // MARK: - board= in scenarios

    func testBoardByNameSetsDisplayKeysAndDebounce() throws {
        for name in Board.builtInNames {
            let s = try ScenarioParser.parse("start 2026-03-02 08:00 board=\(name)\nadvance 1h\n", file: "t.scenario")
            let board = try XCTUnwrap(try Board.builtIn(named: name))
            XCTAssertEqual(s.board?.name, name)
            XCTAssertEqual(s.display, board.profile)
            XCTAssertEqual(s.buttons, board.layout)
            XCTAssertEqual(s.debounceMs, 30)
        }
        let plain = try ScenarioParser.parse("start 2026-03-02 08:00 display=128x64\n", file: "t.scenario")
        XCTAssertNil(plain.board)
        XCTAssertEqual(plain.display, .oled128)
    }

    /// A board path is relative to the scenario file; the board's debounce reaches the device.
    func testBoardPathRelativeToTheScenarioRunsEndToEnd() throws {
        let text = Board.builtInTexts.first { $0.name == "sim-320x240-4buttons" }!.text
            .replacingOccurrences(of: "name = sim-320x240-4buttons", with: "name = desk")
            .replacingOccurrences(of: "debounce-ms = 30", with: "debounce-ms = 50")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("boards"), withIntermediateDirectories: true)
        _ = try write("boards/desk.board", text)
        let scenarioURL = try write("desk.scenario", """
        start 2026-03-02 08:00 zone=UTC board=boards/desk.board
        send task.create task=a title="First" due="today 10:00"
        send task.create task=b title="Second" due="today 11:00"
        expect ui.task == a
        press D
        expect ui.task == b
        expect screen "Second"
        """)
        let scenario = try ScenarioParser.parse(try String(contentsOf: scenarioURL, encoding: .utf8), file: scenarioURL.path)
        XCTAssertEqual(scenario.board?.name, "desk")
        XCTAssertEqual(scenario.display, .wide320)
        XCTAssertEqual(scenario.buttons, .fourButtons)
        XCTAssertEqual(scenario.debounceMs, 50)
        var options = ScenarioRunner.Options()
        options.outDir = dir.appendingPathComponent("out").path
        var lines: [String] = []
        let summary = try ScenarioRunner(options: options, print: { lines.append($0) }).run(scenario)
        XCTAssertEqual(summary.expectations, 3)
        XCTAssertTrue(lines.first?.contains("on board desk (320x240, buttons=4)") == true, "\(lines)")
        let device = try ScenarioPlayer.makeDevice(for: scenario)
        XCTAssertEqual(device.debounceMs, 50)
        XCTAssertEqual(device.profile, .wide320)
    }

    func testBoardErrorsNameTheScenarioLineAndTheBoardFile() throws {
        XCTAssertEqual(syntaxMessage("start 2026-03-02 08:00 board=sim-oled-128x64 display=240x240\n"),
                       "t.scenario:1: syntax error: board= names the display and the keys: leave out display= and buttons= (or board=)")
        XCTAssertEqual(syntaxMessage("start 2026-03-02 08:00 buttons=4 board=sim-oled-128x64\n"),
                       "t.scenario:1: syntax error: board= names the display and the keys: leave out display= and buttons= (or board=)")
        XCTAssertEqual(syntaxMessage("\nstart 2026-03-02 08:00 board=nope\n"),
                       "t.scenario:2: syntax error: board=nope: nope: no such board: give a path to a .board file or the name of one of "
                       + "sim-240x240, sim-240x240-joystick, sim-320x240-4buttons, sim-epaper-250x122, sim-oled-128x64 (docs/boards.md)")
        XCTAssertEqual(syntaxMessage("start 2026-03-02 08:00 board=sim-240x240-joystick\npress A\n"),
                       "t.scenario:2: syntax error: unknown button 'A' on this board (buttons=joystick: UP, DOWN, LEFT, RIGHT, CENTRE)")
        XCTAssertEqual(syntaxMessage("start 2026-03-02 08:00 board=sim-240x240-joystick\nchord\n"),
                       "t.scenario:2: syntax error: a joystick has no A+C chord (factory reset is a settings row)")
        // A broken board file: its own file, line and key.
        _ = try write("bad.board", "name = bad\n[display]\ncontroller = st7789\nsize = 240x240\nrotation = 45\nbus = sim\n[buttons]\nlayout = 3\nbus = sim\n")
        let scenario = dir.appendingPathComponent("x.scenario").path
        XCTAssertEqual(syntaxMessage("start 2026-03-02 08:00 board=bad.board\n", file: scenario),
                       "\(scenario):1: syntax error: board=bad.board: \(dir.path)/bad.board:5: display.rotation: '45' is not a rotation: 0, 90, 180 or 270 (degrees)")
        XCTAssertEqual(syntaxMessage("start 2026-03-02 08:00 board=missing.board\n", file: scenario),
                       "\(scenario):1: syntax error: board=missing.board: \(dir.path)/missing.board: cannot read the board file (missing, unreadable or larger than 64 KiB)")
        // chord = no is a valid board, but not simulated yet.
        _ = try write("nochord.board", Board.builtInTexts[0].text.replacingOccurrences(of: "name = sim-240x240", with: "name = nochord")
                      + "\n[capabilities]\nchord = no\n")
        XCTAssertEqual(syntaxMessage("start 2026-03-02 08:00 board=nochord.board\n", file: scenario),
                       "\(scenario):1: syntax error: board=nochord.board: nochord: the simulator cannot run a board with chord = no yet "
                       + "(its navigation would still offer the A+C factory reset)")
    }

    /// A scenario moved onto another board is checked against that board's keys.
    func testScenarioOnAnotherBoard() throws {
        let s = try ScenarioParser.parse("start 2026-03-02 08:00\npress B\nhold C\n", file: "t.scenario")
        let oled = try XCTUnwrap(try Board.builtIn(named: "sim-oled-128x64"))
        let moved = try s.on(oled)
        XCTAssertEqual(moved.display, .oled128)
        XCTAssertEqual(moved.board?.name, "sim-oled-128x64")
        let joystick = try XCTUnwrap(try Board.builtIn(named: "sim-240x240-joystick"))
        XCTAssertThrowsError(try s.on(joystick)) { error in
            XCTAssertEqual((error as? ScenarioError)?.description,
                           "t.scenario:2: syntax error: unknown button 'B' on this board (buttons=joystick: UP, DOWN, LEFT, RIGHT, CENTRE) — board sim-240x240-joystick")
        }
    }

    // MARK: - deskpet-sim --board

    func simulator() throws -> String {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var d = testBinary.deletingLastPathComponent()
        if d.lastPathComponent == "MacOS" || d.lastPathComponent == "Contents" {
            while d.pathExtension != "xctest", d.path != "/" { d.deleteLastPathComponent() }
            d.deleteLastPathComponent()
        }
        let sim = d.appendingPathComponent("deskpet-sim").path
        guard FileManager.default.isExecutableFile(atPath: sim) else {
            XCTFail("deskpet-sim is not built next to the tests (\(d.path)); swift test builds it")
            throw CocoaError(.fileNoSuchFile)
        }
        return sim
    }

    func exec(_ args: [String]) throws -> (status: Int32, output: String) {
        // Run in a folder with no boards/: the built-in boards must do.
        let r = try runTool(try simulator(), args, cwd: dir)
        return (r.status, r.output)
    }

    /// The PNG's width and height (from its IHDR chunk).
    func pngSize(_ url: URL) throws -> (Int, Int) {
        let b = [UInt8](try Data(contentsOf: url))
        XCTAssertGreaterThan(b.count, 24)
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        return (be32(16), be32(20))
    }

    func testTheBinaryRunsTheDemoAndScenariosOnABoard() throws {
        var r = try exec(["--board", "sim-oled-128x64", "-q"])
        XCTAssertEqual(r.status, 0, r.output)
        let size = try pngSize(dir.appendingPathComponent("out/demo/1-morning.png"))
        XCTAssertTrue(size == (128, 64), "\(size)")
        // The demo runs on every board, the joystick's too (its select is the centre key).
        r = try exec(["--board", "sim-240x240-joystick", "-q"])
        XCTAssertEqual(r.status, 0, r.output)

        let boardFile = try write("mine.board", Board.builtInTexts.first { $0.name == "sim-epaper-250x122" }!.text
            .replacingOccurrences(of: "name = sim-epaper-250x122", with: "name = mine"))
        let scenario = try write("s.scenario", "start 2026-03-02 08:00\nsnapshot a.png\n")
        r = try exec(["run", scenario.path, "--board", boardFile.path, "--out", "o"])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("on board mine (250x122, buttons=3)"), r.output)
        XCTAssertTrue(try pngSize(dir.appendingPathComponent("o/s/a.png")) == (250, 122))

        r = try exec(["run", scenario.path, "--board", "sim-320x240-4buttons", "--gif", "x.gif", "-q"])
        XCTAssertEqual(r.status, 0, r.output)
        let gif = [UInt8](try Data(contentsOf: dir.appendingPathComponent("x.gif")))
        XCTAssertEqual(Int(gif[6]) | Int(gif[7]) << 8, 320)
        XCTAssertEqual(Int(gif[8]) | Int(gif[9]) << 8, 240)

        r = try exec(["pictures", "--board", "sim-epaper-250x122", "--out", "pics", "-q"])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(try pngSize(dir.appendingPathComponent("pics/250x122/home.png")) == (250, 122))
    }

    func testTheBinaryRefusesBadBoardOptions() throws {
        var r = try exec(["--board", "nope"])
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.output.contains("nope: no such board"), r.output)
        r = try exec(["--board", "sim-oled-128x64", "--display", "240x240"])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.output.contains("--board names the display and the keys"), r.output)
        _ = try write("broken.board", "name = broken\n[display]\ncontroller = st7789\n")
        r = try exec(["--board", "broken.board"])
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.output.contains("broken.board:2: display.bus: missing"), r.output)
        r = try exec(["--help"])
        XCTAssertTrue(r.output.contains("--board B"), r.output)
    }
}
