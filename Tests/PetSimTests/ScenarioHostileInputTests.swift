// Hostile scenario input is refused, not guessed: line ends, byte-order marks, files without
// steps, repeated keys, control characters, and names that would lead out of --out.

import Foundation
import XCTest
import TestSupport
import PetSim
import PetCore
import PetDevice

final class ScenarioHostileInputTests: XCTestCase {
    var outDir: URL!
    override func setUpWithError() throws { outDir = try makeTemporaryDirectory("petsim-hostile") }
    override func tearDown() { removeTemporaryDirectory(outDir) }

    func syntax(_ text: String, file: String = "bad.scenario") -> (line: Int, message: String)? {
        do { _ = try ScenarioParser.parse(text, file: file); return nil } catch {
            if case let .syntax(_, l, m) = error { return (l, m) }
            return nil
        }
    }

    func testCRLFAndABOMAreLineEndsNotText() throws {
        // A CRLF file whose first line is a comment: three steps, and the failing expectation fails.
        let crlf = "# a comment first\r\nstart 2026-01-05 09:00\r\nexpect coins == 999\r\n"
        let s = try ScenarioParser.parse(crlf, file: "crlf.scenario")
        XCTAssertEqual(s.steps.count, 2)
        XCTAssertEqual(s.steps.map(\.line), [2, 3])
        var o = ScenarioRunner.Options(); o.outDir = outDir.path; o.quiet = true; o.inMemory = true
        XCTAssertThrowsError(try ScenarioRunner(options: o, print: { _ in }).run(s)) { error in
            guard case let .failed(_, line, _, message)? = error as? ScenarioError else { return XCTFail("\(error)") }
            XCTAssertEqual(line, 3)
            XCTAssertTrue(message.contains("999"), message)
        }
        // A BOM, lone CRs and a value ending in CR are read the same way as plain LF.
        let plain = try ScenarioParser.parse("start 2026-01-05 09:00\nsend task.create task=t title=T\n", file: "a")
        for variant in ["\u{FEFF}start 2026-01-05 09:00\r\nsend task.create task=t title=T\r\n",
                        "start 2026-01-05 09:00\rsend task.create task=t title=T\r",
                        "\u{FEFF}start 2026-01-05 09:00\nsend task.create task=t title=T"] {
            let v = try ScenarioParser.parse(variant, file: "a")
            XCTAssertEqual(v.steps.map(\.step), plain.steps.map(\.step), variant.debugDescription)
            XCTAssertEqual(v.steps.map(\.line), [1, 2])
        }
    }

    func testAFileWithNoStepsIsAnError() {
        for text in ["", "\n\n", "# only a comment\r\n", "\u{FEFF}", "   \n\t\n# x\n"] {
            let e = syntax(text)
            XCTAssertNotNil(e, text.debugDescription)
            XCTAssertTrue(e?.message.contains("no steps") ?? false, "\(text.debugDescription): \(e?.message ?? "")")
        }
    }

    func testRepeatedKeysAreRefused() {
        let cases: [(String, String)] = [
            ("start 2026-01-05 09:00\nsend task.create id=a id=b task=t title=T", "'id=' given twice"),
            ("start 2026-01-05 09:00\nsend task.create task=t task=u title=T", "field 'task' given twice"),
            ("start 2026-01-05 09:00 zone=UTC zone=Europe/Berlin", "'zone=' given twice"),
            ("start 2026-01-05 09:00 day-start=3 day-start=4", "'day-start=' given twice"),
            ("start 2026-01-05 09:00 display=128x64 display=240x240", "display= given twice"),
            ("start 2026-01-05 09:00 buttons=3 buttons=4", "buttons= given twice"),
            ("start 2026-01-05 09:00\nreject invalid_field task.create id=a id=a title=", "'id=' given twice"),
        ]
        for (text, expected) in cases {
            let e = syntax(text)
            XCTAssertTrue(e?.message.contains(expected) ?? false, "\(text): \(e?.message ?? "accepted")")
        }
    }

    func testControlCharactersAreRefusedNamingTheField() {
        for (c, hex) in [("\u{0}", "U+0000"), ("\u{7}", "U+0007"), ("\u{1B}", "U+001B"), ("\u{7F}", "U+007F")] {
            let e = syntax("start 2026-01-05 09:00\nsend task.create task=t title=\"a\(c)b\"")
            XCTAssertEqual(e?.line, 2)
            XCTAssertTrue(e?.message.contains("field 'title'") ?? false, e?.message ?? "accepted")
            XCTAssertTrue(e?.message.contains(hex) ?? false, e?.message ?? "accepted")
        }
        XCTAssertNotNil(syntax("start 2026-01-05 09:00\necho a\u{1B}[2Jb"))
        XCTAssertNotNil(syntax("start 2026-01-05 09:00\nsnapshot a\u{0}.png"))
    }

    func testOutputNamesNeverLeaveTheirFolder() throws {
        // "...scenario" would be the folder "OUT/..".
        let s = try ScenarioParser.parse("start 2026-01-05 09:00\nexport e.json\nsnapshot s.png\n", file: "x/...scenario")
        XCTAssertFalse(s.name.isEmpty || s.name == ".." || s.name == "." || s.name.contains("/"), s.name)
        let out = outDir.appendingPathComponent("out")
        let sentinel = outDir.appendingPathComponent("deskpet.db")
        try Data("not yours".utf8).write(to: sentinel)
        var o = ScenarioRunner.Options(); o.outDir = out.path; o.quiet = true
        let summary = try ScenarioRunner(options: o, print: { _ in }).run(s)
        XCTAssertEqual(try String(contentsOf: sentinel, encoding: .utf8), "not yours", "a file outside --out was rewritten")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outDir.path).sorted(), ["deskpet.db", "out"])
        XCTAssertTrue(summary.database?.hasPrefix(out.path + "/") ?? false)
        for name in ["..", ".", "", "/", "a/b", "\n"] {
            let t = try ScenarioParser.parse("start 2026-01-05 09:00\n", file: "f", name: name)
            XCTAssertFalse(t.name.isEmpty || t.name == ".." || t.name == "." || t.name.contains("/"), "\(name) -> \(t.name)")
        }
        // Snapshot and export names are one plain file name in the folder.
        for step in ["snapshot ../x.png", "snapshot .png", "snapshot ..png", "export ../../e.json", "export .json", "export a/b.json"] {
            XCTAssertNotNil(syntax("start 2026-01-05 09:00\n\(step)"), step)
        }
    }

    func testRunOutputIsPrivate() throws {
        let s = try ScenarioParser.parse("start 2026-01-05 09:00\nexport e.json\nsnapshot s.png\n", file: "p.scenario")
        var o = ScenarioRunner.Options(); o.outDir = outDir.path; o.quiet = true
        _ = try ScenarioRunner(options: o, print: { _ in }).run(s)
        func mode(_ p: String) throws -> Int {
            try XCTUnwrap((FileManager.default.attributesOfItem(atPath: p)[.posixPermissions] as? NSNumber)?.intValue)
        }
        let dir = outDir.appendingPathComponent("p").path
        XCTAssertEqual(try mode(dir), 0o700)
        for f in ["e.json", "s.png", "deskpet.db"] { XCTAssertEqual(try mode(dir + "/" + f), 0o600, f) }
    }

    func testTheToolsReportWrongInputAndFailedOutput() throws {
        let sim = Repository.executable("deskpet-sim").path
        let bench = Repository.executable("deskpet-bench").path
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: sim), "deskpet-sim is not built")
        let zero = try runTool(sim, ["check", "/dev/zero"])
        XCTAssertNotEqual(zero.status, 0)
        XCTAssertTrue(zero.stderr.contains("/dev/zero: is not a regular file (it is a character device)"), zero.stderr)
        let fifo = outDir.appendingPathComponent("s.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let f = try runTool(sim, ["check", fifo])      // must return, not block on the FIFO
        XCTAssertNotEqual(f.status, 0)
        XCTAssertTrue(f.stderr.contains("FIFO"), f.stderr)
        // A transcript that cannot be written (stdout on a full disk) is a failure, not success.
        let scenario = outDir.appendingPathComponent("ok.scenario").path
        try Data("start 2026-01-05 09:00\nexpect coins == 0\n".utf8).write(to: URL(fileURLWithPath: scenario))
        let full = try runTool("/bin/sh", ["-c", "'\(sim)' run '\(scenario)' --in-memory --out '\(outDir.path)' > /dev/full"])
        XCTAssertNotEqual(full.status, 0, full.stderr)
        XCTAssertTrue(full.stderr.contains("No space left on device"), full.stderr)
        if FileManager.default.isExecutableFile(atPath: bench) {
            let nope = try runTool(bench, ["--only", "nope"])
            XCTAssertNotEqual(nope.status, 0)
            XCTAssertTrue(nope.stderr.contains("'nope'") && nope.stderr.contains("latency") && nope.stderr.contains("sessions"), nope.stderr)
        }
    }
}
