// RangeScenarioTests.swift — every crash of docs/reliability.md ("Crashes found", 1–5 and 8) run as the
// scenario line that crashed `deskpet-sim run`: each is now a clear error naming the step or the
// field, or (catch-up) finishes quickly.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import XCTest
import TestSupport
import PetSim
import PetCore

final class RangeScenarioTests: XCTestCase {
    var outDir: URL!

    override func setUpWithError() throws { outDir = try makeTemporaryDirectory("petsim-range") }
    override func tearDownWithError() throws { removeTemporaryDirectory(outDir) }

    func run(_ text: String) throws -> ScenarioRunner.Summary {
        var options = ScenarioRunner.Options()
        options.outDir = outDir.path
        options.quiet = true
        return try ScenarioRunner(options: options, print: { _ in }).run(try ScenarioParser.parse(text, file: "range.scenario"))
    }

    /// The error a scenario stops with (a syntax error or a failed step), as printed.
    func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try run(text)
            XCTFail("the scenario passed", file: file, line: line)
            return ""
        } catch {
            return (error as? ScenarioError)?.description ?? "\(error)"
        }
    }

    func testCrashesOneToFiveAreClearErrorsNamingTheField() {
        let berlin = "start 2026-03-02 08:00 zone=Europe/Berlin\n"
        let cases: [(String, String)] = [
            (berlin + "send task.create task=t title=T due=@9223372036854775807", "invalid due"),
            ("start 2026-03-02 08:00\nsend task.create task=t title=T due=@-9223372036854775808", "invalid due"),
            ("start @-9223372036854775808", "not a local time"),
            ("start 2026-03-02 08:00\nsend screen.session app=x start=@-9223372036854775808 end=@0", "invalid start"),
            (berlin + "send commitment.add commitment=c kind=on-time at=@9223372036854775807 window=5 stake=5", "invalid at"),
            (berlin + "send commitment.add commitment=c kind=on-time at=@-9223372036854775808 window=5 stake=5", "invalid at"),
            ("start 300000000-01-01 00:00", "outside the valid range"),
            ("start 2026-03-02 08:00\ntime -300000000-01-01 00:00", "outside the valid range"),
            ("start 1899-12-31 23:00", "outside the valid range"),
            ("start 1900-01-01 00:30 zone=Europe/Berlin", "start: 1900-01-01 00:30 Europe/Berlin is outside the valid range"),
            ("start 2026-03-02 08:00\noff 999999999d", "longer than the longest valid duration"),
            ("start 2026-03-02 08:00\nadvance 999999999d", "longer than the longest valid duration"),
            ("start 9999-12-31 08:00\nadvance 1d", "advance: 86400 s from"),
            ("start 9999-12-31 08:00\noff 1d", "off: 86400 s from"),
        ]
        for (text, expected) in cases {
            let message = failure(text)
            XCTAssertTrue(message.contains(expected), "\(text)\n→ \(message)")
            XCTAssertFalse(message.contains("9223372036854775807 s"), message)
        }
    }

    func testLongCatchUpsFinishAndStayInRange() throws {
        // Crash 8: each used to run out of memory or for hours. (Timings are measured in
        // deskpet-bench, `catchup_seconds`; here only that they finish and are right.)
        let s1 = try run("start 2026-03-02 08:00\nsend task.create task=m title=M due=\"today 21:00\" repeat=daily reminders=\"today 20:00\"\noff 36500d\nexpect day == 2126-02-06\nrestart")
        XCTAssertGreaterThan(s1.events, Int(Engine.preciseCatchUpDays))
        XCTAssertLessThan(s1.events, 40 * Int(Engine.preciseCatchUpDays), "days older than ten years are summarised")
        _ = try run("start 2026-03-02 08:00\nadvance 999999999s\nexpect time == \"2057-11-08 09:46\"\nrestart")
        _ = try run("start 2026-03-02 08:00\ntime 9999-12-31 00:00\nexpect day == 9999-12-30\nrestart")
        _ = try run("start 2026-03-02 08:00\ntime 9999-12-31 23:59:59\nexpect time == \"9999-12-31 23:59\"")
    }

    /// A clock set back (a phone's Current Time write, `time.set`, a scenario's `time`) and then run
    /// forward while it is still behind the journal: the screen used to stay lit (idle time
    /// negative), so the loop woke for every minute on the clock — about 525,600 wake-ups per
    /// virtual year. Counted in wake-ups (work), not seconds: bounded whatever the two instants.
    func testAClockSetBackThenForwardDoesNotWalkItsMinutes() throws {
        let db = outDir.appendingPathComponent("back.db").path
        let start = Instant(1_780_300_800)   // 2026-06-01 08:00 UTC
        for (back, forward) in [(Instant(0), Instant(86_400)),                         // 1970, a day
                                (Instant(0), Instant(315_532_800)),                  // 1970 → 1980
                                (TimeRange.earliest, Instant(1_767_225_600)),        // 1900 → 2026-01-01
                                (Instant(1_780_300_800 - 3_600), Instant(1_780_300_800 - 60))] { // an hour back, still behind
            for suffix in ["", "-wal", "-shm"] { unlink(db + suffix) }
            let device = try SimDevice(dbPath: db, start: start, zone: "UTC", boot: false)
            try device.setClock(back)
            let before = device.loop.wakeups
            try device.run(until: forward)
            let work = device.loop.wakeups - before
            XCTAssertLessThan(work, 200, "\(back) → \(forward): \(work) wake-ups")
            XCTAssertEqual(device.app.state.now, start, "nothing moved back or forward in the journal")
            try device.run(until: start + 2 * Seconds.day)
            XCTAssertEqual(device.app.state.openDay, device.app.state.clock.day(of: start + 2 * Seconds.day), "time goes on once the clock is past the journal")
            device.app.store.close()
        }
    }
}
