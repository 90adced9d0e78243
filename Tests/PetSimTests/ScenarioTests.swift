// ScenarioTests.swift — the scenario files in sim/ as a CI user runs them, the parser's and the
// runner's error reports, and independent tools reading what a run wrote (a PNG decoder, pngcheck,
// the sqlite3 CLI).

import Foundation
import XCTest
import TestSupport
import PetSim
import PetCore

final class ScenarioTests: XCTestCase {
    var outDir: URL!

    override func setUpWithError() throws {
        outDir = FileManager.default.temporaryDirectory
            .appendingPathComponent("petsim-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let outDir { try? FileManager.default.removeItem(at: outDir) }
    }

    // MARK: - Helpers

    /// The repository's sim/ folder, found from this file's path (Tests/PetSimTests/…).
    static var simDir: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("sim", isDirectory: true)
    }

    static func scenarioFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: simDir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "scenario" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    func runner(quiet: Bool = true) -> ScenarioRunner {
        var options = ScenarioRunner.Options()
        options.outDir = outDir.path
        options.quiet = quiet
        return ScenarioRunner(options: options, print: { _ in })
    }

    func run(_ text: String, file: String = "test.scenario") throws -> ScenarioRunner.Summary {
        let scenario = try ScenarioParser.parse(text, file: file)
        return try runner().run(scenario)
    }

    /// The syntax error `text` must produce.
    func syntaxError(_ text: String, file: String = "bad.scenario",
                     sourceFile: StaticString = #filePath, sourceLine: UInt = #line) -> (file: String, line: Int, message: String)? {
        do {
            _ = try ScenarioParser.parse(text, file: file)
            XCTFail("expected a syntax error", file: sourceFile, line: sourceLine)
        } catch {
            // ScenarioParser.parse throws only ScenarioError (typed throws)
            if case let .syntax(f, l, m) = error { return (f, l, m) }
            XCTFail("expected a syntax error, got \(error)", file: sourceFile, line: sourceLine)
        }
        return nil
    }

    /// Runs a program, returning its exit status and combined output.
    @discardableResult
    func exec(_ path: String, _ args: [String], cwd: URL? = nil) throws -> (status: Int32, output: String) {
        let r = try runTool(path, args, cwd: cwd)
        return (r.status, r.output)
    }

    // MARK: - (a) every sim/*.scenario passes

    func testEverySimScenarioPasses() throws {
        let files = try Self.scenarioFiles()
        XCTAssertGreaterThanOrEqual(files.count, 6, "sim/ should hold at least 6 scenarios")
        for url in files {
            let text = try String(contentsOf: url, encoding: .utf8)
            let scenario = try ScenarioParser.parse(text, file: "sim/\(url.lastPathComponent)")
            do {
                let summary = try runner().run(scenario)
                XCTAssertGreaterThan(summary.expectations, 0, "\(url.lastPathComponent) checks nothing")
            } catch {
                XCTFail("\(error)")
            }
        }
    }

    /// `deskpet-sim` with no arguments runs the built-in demo.
    func testDemoScenarioPasses() throws {
        let scenario = try ScenarioParser.parse(Demo.text, file: "<demo>", name: Demo.name)
        let summary = try runner().run(scenario)
        XCTAssertEqual(summary.snapshots.count, 3)
        XCTAssertGreaterThan(summary.expectations, 10)
    }

    /// The built binary itself, when `swift test` built it next to the test bundle.
    func testSimulatorBinaryWithNoArgumentsSucceeds() throws {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = testBinary.deletingLastPathComponent()
        if dir.lastPathComponent == "MacOS" || dir.lastPathComponent == "Contents" {   // an .xctest bundle
            while dir.pathExtension != "xctest", dir.path != "/" { dir.deleteLastPathComponent() }
            dir.deleteLastPathComponent()
        }
        let sim = dir.appendingPathComponent("deskpet-sim").path
        guard FileManager.default.isExecutableFile(atPath: sim) else {
            return XCTFail("deskpet-sim is not built next to the tests (\(dir.path)); swift test builds it")
        }
        let (status, output) = try exec(sim, [], cwd: outDir)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("✔ demo"), output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: outDir.appendingPathComponent("out/demo/deskpet.db").path))
    }

    // MARK: - (b) syntax errors name file, line and problem

    func testUnknownStep() {
        guard let e = syntaxError("# comment\n\nstart 2026-03-02 08:00\njump 3\n") else { return }
        XCTAssertEqual(e.file, "bad.scenario")
        XCTAssertEqual(e.line, 4)
        XCTAssertTrue(e.message.contains("unknown step 'jump'"), e.message)
    }

    func testDeviceSteps() throws {
        let sc = try ScenarioParser.parse("start 2026-03-02 08:00\ndevice link on\ndevice battery 42\ndevice battery none\ndevice link off\n",
                                    file: "ok.scenario")
        XCTAssertEqual(sc.steps.count, 5)
        for bad in ["device link maybe", "device battery 101", "device battery -1", "device battery", "device volume 3"] {
            guard let e = syntaxError("start 2026-03-02 08:00\n\(bad)") else { continue }
            XCTAssertEqual(e.line, 2, bad)
            XCTAssertTrue(e.message.contains("device"), e.message)
        }
    }

    func testBadDuration() {
        for bad in ["advance 3x", "advance 2m3h", "off -1d", "advance", "off 0s"] {
            guard let e = syntaxError("start 2026-03-02 08:00\n\(bad)") else { continue }
            XCTAssertEqual(e.line, 2, bad)
            XCTAssertTrue(e.message.contains("duration"), "\(bad): \(e.message)")
        }
    }

    func testUnterminatedQuote() {
        guard let e = syntaxError("start 2026-03-02 08:00\nsend task.create title=\"Write report\nadvance 1h") else { return }
        XCTAssertEqual(e.line, 2)
        XCTAssertTrue(e.message.contains("unterminated quote"), e.message)
    }

    func testBadButton() {
        guard let e = syntaxError("press A\nhold D\n") else { return }
        XCTAssertEqual(e.line, 2)
        XCTAssertTrue(e.message.contains("unknown button 'D'"), e.message)
        guard let c = syntaxError("chord A+B") else { return }
        XCTAssertEqual(c.line, 1)
        XCTAssertTrue(c.message.contains("A+C"), c.message)
    }

    func testStartMustBeFirst() {
        guard let e = syntaxError("advance 1h\nstart 2026-03-02 08:00 zone=UTC\n") else { return }
        XCTAssertEqual(e.line, 2)
        XCTAssertTrue(e.message.contains("'start' must be the first step"), e.message)
    }

    func testBadExpectOperator() {
        guard let e = syntaxError("start 2026-03-02 08:00\nexpect coins =~ 3\n") else { return }
        XCTAssertEqual(e.line, 2)
        XCTAssertTrue(e.message.contains("unknown operator '=~'"), e.message)
        guard let m = syntaxError("expect coins 3") else { return }
        XCTAssertTrue(m.message.contains("expect <value> <op> <expected>"), m.message)
    }

    func testKeyWithoutEquals() {
        guard let e = syntaxError("start 2026-03-02 08:00\nsend task.create task=a title\n") else { return }
        XCTAssertEqual(e.line, 2)
        XCTAssertTrue(e.message.contains("'title' is not key=value"), e.message)
    }

    func testOtherSyntaxErrors() {
        let cases: [(String, String)] = [
            ("start 2026-02-30 08:00", "is not a local time"),
            ("start 2026-03-02 08:00 day-start=24", "day-start must be 0–23"),
            ("start 2026-03-02 08:00 zone=../etc/passwd", "is not a zone identifier"),
            ("snapshot ../x.png", "snapshot names a .png file"),
            ("snapshot shot.jpg", "snapshot names a .png file"),
            ("restart now", "restart takes no arguments"),
            ("send task.create title=A title=B", "field 'title' given twice"),
            ("reject", "reject needs an error code"),
            ("send", "send needs a command name"),
        ]
        for (text, problem) in cases {
            guard let e = syntaxError(text) else { continue }
            XCTAssertEqual(e.line, 1, text)
            XCTAssertTrue(e.message.contains(problem), "\(text): \(e.message)")
        }
    }

    func testSyntaxErrorDescriptionNamesFileAndLine() {
        do {
            _ = try ScenarioParser.parse("\n\nbogus\n", file: "sim/x.scenario")
            XCTFail("expected an error")
        } catch {
            XCTAssertTrue(error.description.hasPrefix("sim/x.scenario:3: syntax error: unknown step 'bogus'"),
                          error.description)
        }
    }

    func testQuotingAndComments() throws {
        let s = try ScenarioParser.parse("""
            # a comment line
              send task.create title="Say \\"hi\\" # not a comment" notes=a\\b   # trailing comment
            expect screen "two  spaces"
            echo hello   world
            """, file: "q.scenario")
        XCTAssertEqual(s.steps.count, 3)
        XCTAssertEqual(s.steps[0].line, 2)
        XCTAssertEqual(s.steps[0].step, .send(id: nil, name: "task.create",
                                             fields: ["title": "Say \"hi\" # not a comment", "notes": "a\\b"]))
        XCTAssertEqual(s.steps[1].step, .expectScreen(text: "two  spaces", shown: true))
        XCTAssertEqual(s.steps[2].step, .echo("hello world"))
        XCTAssertEqual(s.name, "q")
    }

    // MARK: - (c) a failing expectation names its line, the expected and the actual value

    func testFailedExpectationReportsLineExpectedAndActual() throws {
        let text = """
            start 2026-03-02 08:00 zone=UTC
            # normal priority, no due date: 10 coins
            send task.create task=a title="Alpha"
            send task.complete task=a

            expect coins == 12
            expect coins == 10
            """
        do {
            _ = try run(text, file: "fail.scenario")
            XCTFail("expected the run to fail")
        } catch let e as ScenarioError {
            guard case let .failed(file, line, step, message) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(file, "fail.scenario")
            XCTAssertEqual(line, 6)
            XCTAssertEqual(step, "expect coins == 12")
            XCTAssertTrue(message.contains("expected coins == 12"), message)
            XCTAssertTrue(message.contains("it is 10"), message)
            XCTAssertTrue(e.description.hasPrefix("fail.scenario:6: expect coins == 12"), e.description)
        }
    }

    func testFailedScreenAndRejectAndUnknownValue() throws {
        let base = "start 2026-03-02 08:00 zone=UTC\nsend task.create task=a title=Alpha\n"
        let cases: [(String, String)] = [
            ("expect screen \"Bravo\"", "does not show \"Bravo\""),
            ("expect no-screen \"Alpha\"", "shows \"Alpha\""),
            ("reject invalid_field task.create task=b title=Bravo", "but it was accepted"),
            ("reject not_found task.create task=a title=Again", "expected error not_found, got already_exists"),
            ("expect wealth == 3", "unknown value 'wealth'"),
            ("send task.complete task=zzz", "command refused: not_found"),
        ]
        for (step, problem) in cases {
            do {
                _ = try run(base + step, file: "f.scenario")
                XCTFail("\(step) should fail")
            } catch let e as ScenarioError {
                guard case let .failed(_, line, _, message) = e else { XCTFail("\(e)"); continue }
                XCTAssertEqual(line, 3, step)
                XCTAssertTrue(message.contains(problem), "\(step): \(message)")
            }
        }
    }

    /// The shop screen was called `store`: scenarios that still say so keep working (docs/scenarios.md).
    func testOldStoreSpellingsAreAliasesOfShop() throws {
        let summary = try run("""
        start 2026-04-06 08:00 zone=UTC
        press B
        press A
        press A
        press A
        press A
        press A
        press A
        press A
        press A
        expect ui.menu == store
        expect ui.menu == shop
        expect ui.row == menu:store
        press B
        expect ui.screen == store
        expect ui.screen == shop
        expect ui.back == home
        expect ui.store-tab == food
        expect ui.shop-tab == food
        expect ui.highlight contains "Apple"
        """)
        XCTAssertEqual(summary.expectations, 9)
        let device = try XCTUnwrap(try? SimDevice(dbPath: nil, start: Instant(1_775_462_400), zone: "UTC", boot: false))
        XCTAssertEqual(SimDevice.uiAlias("ui.back", expected: "home,store").expected, "home,shop")
        XCTAssertEqual(device.uiValue("ui.store-tab"), device.uiValue("ui.shop-tab"))
    }

    func testInMemoryRefusesOffAndRestart() throws {
        var options = ScenarioRunner.Options()
        options.outDir = outDir.path
        options.quiet = true
        options.inMemory = true
        let s = try ScenarioParser.parse("start 2026-03-02 08:00\nadvance 1h\noff 1d\n", file: "m.scenario")
        XCTAssertThrowsError(try ScenarioRunner(options: options, print: { _ in }).run(s)) { e in
            guard case let .failed(_, line, _, message)? = e as? ScenarioError else { return XCTFail("\(e)") }
            XCTAssertEqual(line, 3)
            XCTAssertTrue(message.contains("needs the journal on disk"), message)
        }
    }

    // MARK: - (d) snapshots are real PNG files; (e) the journal is a real SQLite database

    /// A small run with a snapshot and a few rewards: 8 (plants, recurring) + 31 (report, early).
    static let artefactScenario = """
        start 2026-03-02 08:00 zone=Europe/Berlin
        send task.create task=plants title="Water the plants" due="today 12:00" repeat=daily
        send task.create task=report title="Report" priority=high due="tomorrow 17:00" estimate=90
        send task.complete task=plants
        send task.complete task=report
        send task.uncomplete task=report
        send task.complete task=report
        expect coins == 39
        snapshot home.png
        """

    func testSnapshotIsReadableByIndependentDecoders() throws {
        let summary = try run(Self.artefactScenario, file: "artefacts.scenario")
        let png = try XCTUnwrap(summary.snapshots.first)
        XCTAssertEqual(png, outDir.appendingPathComponent("artefacts/home.png").path)

        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else { return XCTFail("no \(python): run tools/setup-debian.sh") }
        let (status, output) = try exec(python, ["-c", """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1]); im.load()
            print(im.format, im.size[0], im.size[1], im.mode)
            """, png])
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(output.trimmingCharacters(in: .whitespacesAndNewlines), "PNG 240 240 RGB")

        let pngcheck = "/usr/bin/pngcheck"
        guard FileManager.default.isExecutableFile(atPath: pngcheck) else { return XCTFail("no \(pngcheck): run tools/setup-debian.sh") }
        let check = try exec(pngcheck, ["-q", png])
        XCTAssertEqual(check.status, 0, check.output)
    }

    func testJournalIsReadableBySqliteCLI() throws {
        let summary = try run(Self.artefactScenario, file: "artefacts.scenario")
        let db = try XCTUnwrap(summary.database)
        XCTAssertEqual(summary.coins, 39)
        let sqlite = "/usr/bin/sqlite3"
        guard FileManager.default.isExecutableFile(atPath: sqlite) else { return XCTFail("no \(sqlite): run tools/setup-debian.sh") }
        func query(_ sql: String) throws -> String {
            let (status, output) = try exec(sqlite, ["-batch", "-readonly", db, sql])
            XCTAssertEqual(status, 0, output)
            return output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertEqual(try query("SELECT count(*) FROM events"), "\(summary.events)")
        XCTAssertEqual(try query("SELECT balance FROM ledger ORDER BY seq DESC LIMIT 1"), "\(summary.coins)")
        // every coin change is in the ledger: +8, +31, −31 (un-complete), +31
        XCTAssertEqual(try query("SELECT group_concat(coins_delta, ' ') FROM ledger ORDER BY seq"), "8 31 -31 31")
    }

    /// Each sim/ scenario's journal agrees with its summary when read by the sqlite3 CLI.
    func testSimScenarioJournalsAgreeWithSqliteCLI() throws {
        let sqlite = "/usr/bin/sqlite3"
        guard FileManager.default.isExecutableFile(atPath: sqlite) else { return XCTFail("no \(sqlite): run tools/setup-debian.sh") }
        let url = Self.simDir.appendingPathComponent("01-first-week.scenario")
        let scenario = try ScenarioParser.parse(try String(contentsOf: url, encoding: .utf8), file: url.path)
        let summary = try runner().run(scenario)
        let db = try XCTUnwrap(summary.database)
        let (_, count) = try exec(sqlite, ["-batch", "-readonly", db, "SELECT count(*) FROM events"])
        XCTAssertEqual(count.trimmingCharacters(in: .whitespacesAndNewlines), "\(summary.events)")
        let (_, balance) = try exec(sqlite, ["-batch", "-readonly", db,
                                             "SELECT balance FROM ledger ORDER BY seq DESC LIMIT 1"])
        XCTAssertEqual(balance.trimmingCharacters(in: .whitespacesAndNewlines), "127")
        XCTAssertEqual(summary.coins, 127)
    }
}
