import Foundation
import PetCore
import PetDevice
@testable import PetLink
import PetSim
import TestSupport
import XCTest
import PetLinux

/// The protocol's second implementation (tools/deskpet_link.py, written from docs/protocol.md)
/// as a client of a simulated device on a Unix socket: it pairs with the code the device shows,
/// adds and completes a task, sees each reply only once its journal row exists, gets the reward
/// event, and a repeated id is a duplicate with no second reward.
final class PythonClientTests: XCTestCase {
    func testPythonClientPairsCommandsAndDeduplicates() throws {
        let python = try XCTUnwrap(findTool("python3"), "python3 is not installed: run tools/setup-debian.sh")
        let dir = try makeTemporaryDirectory("link-python")
        defer { removeTemporaryDirectory(dir) }
        let sock = dir.appendingPathComponent("pet.sock").path
        let db = dir.appendingPathComponent("pet.db").path
        let link = try SocketLink(parsing: "unix:\(sock)")
        let service = LinkService()
        let sim = try SimDevice(dbPath: db, start: Harness.start, zone: "UTC", boot: false, link: link, linkService: service)

        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [Repository.root.appendingPathComponent("tools/deskpet_link.py").path, "--unix", sock, "--timeout", "20",
                       "selftest", "--db", db]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        p.standardInput = stdin; p.standardOutput = stdout; p.standardError = stderr
        try p.run()
        var codeSent = false
        // Serve until the client exits (each round waits for the socket at most 20 ms; bounded).
        for _ in 0..<3000 where p.isRunning {
            try sim.serveLink(waitingUpToMs: 20)
            if !codeSent, let code = sim.ui.pairingCode {
                stdin.fileHandleForWriting.write(Data((code + "\n").utf8))
                codeSent = true
            }
        }
        if p.isRunning { p.terminate() }
        p.waitUntilExit()
        let out = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(p.terminationStatus, 0, err + out)
        let last = try XCTUnwrapValue(out.split(separator: "\n").last.map(String.init), "output")
        let r = try XCTUnwrapDict(JSONSerialization.jsonObject(with: Data(last.utf8)))
        XCTAssertEqual(r["phone"] as? String, "phone-1")
        XCTAssertEqual(r["token_len"] as? Int, 64)
        // [journal rows of the command when its reply arrived, events the reply counts]
        let atReply = try XCTUnwrapValue(r["rows_at_reply"] as? [String: [Int]])
        XCTAssertEqual(atReply["c1"], [1, 1], "each reply came after its journal rows")
        XCTAssertEqual(atReply["c2"]?.first, atReply["c2"]?.last)
        XCTAssertGreaterThanOrEqual(atReply["c2"]?.first ?? 0, 1)
        XCTAssertEqual(r["reward_events"] as? Int, 1)
        XCTAssertEqual(r["duplicate"] as? Bool, true)
        XCTAssertEqual(r["coins_after_duplicate"] as? Int, r["coins"] as? Int)
        XCTAssertEqual(r["reward_events_after_duplicate"] as? Int, 0)
        XCTAssertEqual(r["unknown_command"] as? String, "unknown_command")
        // One completion in the journal, and the reward event's seq is its row.
        let rows = try sim.app.store.events()
        XCTAssertEqual(rows.filter { $0.type == "task.completed" }.count, 1)
        XCTAssertEqual(rows.first { $0.type == "task.completed" }?.seq, (r["reward_seq"] as? NSNumber)?.int64Value)
        XCTAssertEqual(sim.app.state.coins, r["coins"] as? Int)
    }
}
