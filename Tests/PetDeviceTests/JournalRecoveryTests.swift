import Foundation
import XCTest
import TestSupport
import PetCore
import PetStore
import PetUI
@testable import PetDevice

/// A stored row that cannot be read or folded is refused with its `seq` named, and the device then
/// runs in recovery mode (docs/reliability.md): the journals here are hand-edited with the sqlite3 CLI.
final class JournalRecoveryTests: XCTestCase {
    let t0 = Instant(1_772_434_800) // Mon 2026-03-02 07:00 UTC

    /// A journal with a pet, a task (seq 2), its completion (seq 3…) and a day closed.
    func journal() throws -> (path: String, seqs: [String: Int64]) {
        let dir = try makeTemporaryDirectory("deskpet-recovery")
        addTeardownBlock { removeTemporaryDirectory(dir) }
        let path = dir.appendingPathComponent("pet.db").path
        let app = try PetApp(store: try EventStore(path: path), now: t0, zone: "Europe/Berlin")
        try app.handle(try CommandParser.parse(name: "task.create", fields: ["task": "t", "title": "T", "due": "today 21:00"],
                                               id: "c1", at: t0, clock: app.state.clock))
        try app.handle(try CommandParser.parse(name: "task.complete", fields: ["task": "t"], id: "c2", at: t0 + 60,
                                               clock: app.state.clock))
        try app.advance(to: t0 + 2 * Seconds.day)
        var seqs: [String: Int64] = [:]
        for r in try app.store.events() where seqs[r.type] == nil { seqs[r.type] = r.seq }
        app.store.close()
        return (path, seqs)
    }

    func sqlite(_ path: String, _ sql: String) throws {
        let r = try runTool("/usr/bin/sqlite3", ["-batch", path, sql])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func assertRecovery(_ path: String, seq: Int64, mentions: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let store = try EventStore(path: path)
        defer { store.close() }
        let before = try store.events()
        let opened = try PetApp.openOrRecover(store: store, now: t0 + 3 * Seconds.day)
        guard case .failure(let recovery) = opened else { return XCTFail("the bad row was folded", file: file, line: line) }
        XCTAssertEqual(recovery.seq, seq, recovery.detail, file: file, line: line)
        XCTAssertTrue(recovery.detail.contains(mentions), recovery.detail, file: file, line: line)
        XCTAssertTrue(recovery.screenLines.contains { $0.contains("Entry \(seq) ") }, file: file, line: line)
        // The recovery screen draws on every display size, in the owner's words (what happened, that
        // nothing is lost, what to do), every line inside the panel, in the display's legible face.
        for (w, h) in [(240, 240), (320, 240), (128, 64), (250, 122)] {
            let canvas = recovery.render(width: w, height: h)
            let text = canvas.textRuns.map(\.text).joined(separator: " ")
            for words in ["can't read", "\(seq)", "Nothing is lost", "update DeskPet", "deskpetctl export"] {
                XCTAssertTrue(text.contains(words), "\(w)x\(h): '\(words)' not in \(text)", file: file, line: line)
            }
            for run in canvas.textRuns {
                XCTAssertTrue(canvas.bounds.contains(run.rect), "\(w)x\(h): '\(run.text)' at \(run.rect)", file: file, line: line)
                if h >= 240 { XCTAssertGreaterThanOrEqual(run.rect.h, 16, "\(w)x\(h): '\(run.text)' is not legible", file: file, line: line) }
            }
        }
        // Export still works: every row exactly as stored, the bad one named.
        let json = try JSONSerialization.jsonObject(with: Data(try recovery.export(store: store))) as? [String: Any]
        XCTAssertEqual(json?["unreadableSeq"] as? Int, Int(seq), file: file, line: line)
        XCTAssertEqual((json?["rows"] as? [Any])?.count, before.count, file: file, line: line)
        // State-changing commands are refused in recovery mode; nothing was written.
        XCTAssertEqual(recovery.refusal.code, "invalid_state", file: file, line: line)
        XCTAssertEqual(try store.events(), before, file: file, line: line)
    }

    func testCoinsOrXPAtInt64MaxAreRefusedWithTheirSeq() throws {
        for field in ["coins", "xp"] {
            let (path, seqs) = try journal()
            let seq = try XCTUnwrap(seqs["task.completed"])
            try sqlite(path, "UPDATE events SET payload = json_set(payload, '$.\(field)', 9223372036854775807) WHERE seq = \(seq);")
            try assertRecovery(path, seq: seq, mentions: field == "coins" ? "coins" : "XP")
        }
    }

    func testAnEventAtTheEndsOfInt64IsRefusedWithItsSeq() throws {
        for at in ["-9223372036854775808", "9223372036854775807", "253402300800"] {
            let (path, seqs) = try journal()
            let seq = try XCTUnwrap(seqs["task.completed"])
            try sqlite(path, "UPDATE events SET at = \(at) WHERE seq = \(seq);")
            try assertRecovery(path, seq: seq, mentions: "outside the valid range")
        }
    }

    func testATaskDueAtInt64MaxIsRefusedWithItsSeq() throws {
        let (path, seqs) = try journal()
        let seq = try XCTUnwrap(seqs["task.created"])
        try sqlite(path, "UPDATE events SET payload = json_set(payload, '$.task.due', 9223372036854775807) WHERE seq = \(seq);")
        try assertRecovery(path, seq: seq, mentions: "due")
    }

    func testAGarbagePayloadIsRefusedWithItsSeq() throws {
        let (path, seqs) = try journal()
        let seq = try XCTUnwrap(seqs["task.completed"])
        try sqlite(path, #"UPDATE events SET payload = '{"type":"task.completed","id":[1,2]}' WHERE seq = \#(seq);"#)
        try assertRecovery(path, seq: seq, mentions: "task.completed")
    }

    func testADayClosedFarAwayIsRefusedInsteadOfWalkingDayByDay() throws {
        let (path, seqs) = try journal()
        let seq = try XCTUnwrap(seqs["day.closed"])
        try sqlite(path, "UPDATE events SET payload = json_set(payload, '$.result.day', 9223372036854775807) WHERE seq = \(seq);")
        try assertRecovery(path, seq: seq, mentions: "day")
    }

    /// The fuzzer's find (Fuzz/known-crashes/journal): a session ending centuries after it began
    /// is refused, not folded day by day for hours.
    func testAScreenSessionLastingCenturiesIsRefusedInsteadOfWalkingDayByDay() throws {
        for end in ["35448847982", "1772400000"] {   // year 3093; before its start
            let (path, seqs) = try journal()
            let seq = try XCTUnwrap(seqs["task.completed"])
            try sqlite(path, #"UPDATE events SET type = 'screen.session', coins_delta = 0, xp_delta = 0, reason = NULL, "# +
                       #"payload = '{"app":"youtube","end":\#(end),"start":1772490600,"type":"screen.session"}' WHERE seq = \#(seq);"#)
            try assertRecovery(path, seq: seq, mentions: "screen.session")
        }
    }

    func testAnUntouchedJournalOpensNormally() throws {
        let (path, _) = try journal()
        let store = try EventStore(path: path)
        defer { store.close() }
        guard case .success(let app) = try PetApp.openOrRecover(store: store, now: t0 + 3 * Seconds.day) else {
            return XCTFail("a good journal went into recovery")
        }
        XCTAssertEqual(app.state.coins, 10)
    }
}
