import Foundation
import PetCore
import PetDevice
@testable import PetLink
import PetSim
import TestSupport
import XCTest
import PetLinux

/// The built `deskpetctl` against a simulated device served in this process (loopback TCP, as
/// the issue asks, and a Unix socket)
/// (docs/deskpetctl.md): it pairs with the code the device shows, adds a task, watches (a queued
/// reminder, the reward event of a completion made meanwhile by another deskpetctl run), resends
/// the completion's id (a duplicate: no second reward), then the device goes away: 1001
/// commands are queued offline (one `task add` and a `batch` of 1000, one of them repeating the
/// completion's id), the device comes back (restarted on the same journal), `sync` applies each
/// once, and `export` and `stats` read it all back. No fixed sleeps: the device is served while
/// each run lasts (poll(2) up to 20 ms per round, bounded).
final class DeskpetctlEndToEndTests: XCTestCase {
    var dir: URL!
    var sock: String { dir.appendingPathComponent("pet.sock").path }
    var db: String { dir.appendingPathComponent("pet.db").path }
    var stateDir: String { dir.appendingPathComponent("ctl-state").path }
    var ctl: String { Repository.executable("deskpetctl").path }

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory("deskpetctl-e2e")
    }
    override func tearDown() { removeTemporaryDirectory(dir) }

    struct Run { var status: Int32; var out: String; var err: String }

    /// Starts deskpetctl with output to files.
    func start(_ args: [String], name: String) throws -> (Process, Pipe, URL, URL) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ctl)
        p.arguments = transport + ["--state", stateDir, "--timeout", "20"] + args
        let outURL = dir.appendingPathComponent("\(name).out"), errURL = dir.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: outURL)
        p.standardError = try FileHandle(forWritingTo: errURL)
        let stdin = Pipe()
        p.standardInput = stdin
        try p.run()
        return (p, stdin, outURL, errURL)
    }

    func text(_ u: URL) -> String { (try? String(contentsOf: u, encoding: .utf8)) ?? "" }

    /// Runs deskpetctl to its end, serving `sim` meanwhile (nil: nobody serves).
    @discardableResult
    func run(_ args: [String], serving sim: SimDevice?, onRound: (() throws -> Void)? = nil) throws -> Run {
        let name = "run\(runs)"; runs += 1
        let (p, stdin, o, e) = try start(args, name: name)
        try? stdin.fileHandleForWriting.close()
        for _ in 0..<6000 where p.isRunning {
            if let sim { try sim.serveLink(waitingUpToMs: 20) } else { _ = poll(nil, 0, 20) }
            try onRound?()
        }
        if p.isRunning { p.terminate() }
        p.waitUntilExit()
        return Run(status: p.terminationStatus, out: text(o), err: text(e))
    }
    var runs = 0
    /// `--unix PATH` or `--tcp 127.0.0.1:PORT` of the device now.
    var transport: [String] = []

    /// A device link: a Unix socket, or loopback TCP on a free port.
    func makeLink(tcp: Bool) throws -> SocketLink {
        let link = try SocketLink(parsing: tcp ? "tcp:127.0.0.1:0" : "unix:\(sock)")
        transport = tcp ? ["--tcp", "127.0.0.1:\(link.port)"] : ["--unix", sock]
        return link
    }

    func testOverLoopbackTCP() throws { try endToEnd(tcp: true) }
    func testOverUnixSocket() throws { try endToEnd(tcp: false) }

    func endToEnd(tcp: Bool) throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: ctl), "build deskpetctl first (swift build)")
        var link = try makeLink(tcp: tcp)
        var sim = try SimDevice(dbPath: db, start: Harness.start, zone: "UTC", boot: false, link: link, linkService: LinkService())

        // Pair: the code is read from the device's screen and typed in.
        let (pp, pin, po, pe) = try start(["pair", "--name", "e2e"], name: "pair")
        var typed = false
        for _ in 0..<3000 where pp.isRunning {
            try sim.serveLink(waitingUpToMs: 20)
            if !typed, let code = sim.ui.pairingCode {
                pin.fileHandleForWriting.write(Data((code + "\n").utf8)); typed = true
            }
        }
        pp.waitUntilExit()
        XCTAssertEqual(pp.terminationStatus, 0, text(pe))
        XCTAssertTrue(text(po).contains("paired as phone-1"), text(po))
        let tokenFile = stateDir + "/token.json"
        let mode = try XCTUnwrapValue(try FileManager.default.attributesOfItem(atPath: tokenFile)[.posixPermissions] as? NSNumber)
        XCTAssertEqual(mode.intValue & 0o777, 0o600)

        // A task with a reminder in 10 minutes.
        var r = try run(["task", "add", "Water plants", "--task", "t1", "--reminders", "+10m", "--due", "+2h"], serving: sim)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("task t1"), r.out)
        XCTAssertTrue(try run(["task", "list"], serving: sim).out.contains("t1\tWater plants"))

        // 11 minutes pass with no phone connected: the reminder waits in the device's queue.
        try sim.wait(ms: 11 * 60_000)
        XCTAssertEqual(sim.app.state.reminders.outbox.count, 1)

        // watch: gets the queued reminder (and confirms it), then the reward event of a
        // completion another run makes while it watches.
        let (wp, win, wo, we) = try start(["watch", "--json", "--for", "60"], name: "watch")
        try? win.fileHandleForWriting.close()
        for _ in 0..<3000 where wp.isRunning && !sim.app.state.reminders.outbox.isEmpty { try sim.serveLink(waitingUpToMs: 20) }
        XCTAssertTrue(sim.app.state.reminders.outbox.isEmpty, "watch confirmed the reminder: " + text(we))
        r = try run(["task", "done", "t1", "--id", "done-1"], serving: sim)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("reward +"), r.out)
        let coins = sim.app.state.coins
        XCTAssertGreaterThan(coins, 0)
        for _ in 0..<3000 where wp.isRunning && !text(wo).contains("\"task.completed\"") { try sim.serveLink(waitingUpToMs: 20) }
        wp.interrupt()   // Ctrl-C
        for _ in 0..<500 where wp.isRunning { try sim.serveLink(waitingUpToMs: 20) }
        wp.waitUntilExit()
        let watched = text(wo).split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertTrue(watched.contains { $0["type"] as? String == "reminder" }, text(wo))
        XCTAssertTrue(watched.contains { $0["kind"] as? String == "reward" && ($0["event"] as? [String: Any])?["type"] as? String == "task.completed" }, text(wo))

        // The same command id again: a duplicate, no second reward.
        r = try run(["task", "done", "t1", "--id", "done-1"], serving: sim)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("duplicate"), r.out)
        XCTAssertEqual(sim.app.state.coins, coins)

        // The device goes away: commands are queued.
        link.close()
        r = try run(["task", "add", "Offline one", "--task", "off1"], serving: nil)
        XCTAssertEqual(r.status, 3, r.err)
        XCTAssertTrue(r.out.contains("queued (1 waiting)"), r.out)
        var lines = (0..<999).map { #"{"name":"task.create","fields":{"task":"q\#($0)","title":"Queued \#($0)"}}"# }
        lines.insert(#"{"name":"task.complete","fields":{"task":"t1"},"id":"done-1"}"#, at: 500)
        let batch = dir.appendingPathComponent("batch.jsonl")
        try lines.joined(separator: "\n").write(to: batch, atomically: true, encoding: .utf8)
        r = try run(["batch", batch.path], serving: nil)
        XCTAssertEqual(r.status, 3, r.err)
        XCTAssertTrue(r.out.contains("queued (1001 waiting)"), r.out)

        // The device comes back (restarted on its journal); sync applies each command once.
        sim.app.store.close()
        link = try makeLink(tcp: tcp)
        sim = try SimDevice(dbPath: db, start: Harness.start, zone: "UTC", boot: false, link: link, linkService: LinkService())
        r = try run(["sync"], serving: sim)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("synced 1001 queued command(s): 1000 applied, 1 already applied, 0 refused"), r.out)
        XCTAssertTrue(try run(["queue"], serving: nil).out.contains("0 waiting"))
        let rows = try sim.app.store.events()
        XCTAssertEqual(rows.filter { $0.type == "task.created" }.count, 1 + 1 + 999)
        XCTAssertEqual(rows.filter { $0.type == "task.completed" }.count, 1)
        XCTAssertEqual(sim.app.state.coins, coins)
        r = try run(["sync"], serving: sim)
        XCTAssertTrue(r.out.contains("nothing queued"), r.out)

        // Export and stats.
        let exportFile = dir.appendingPathComponent("export.json").path
        r = try run(["export", exportFile], serving: sim)
        XCTAssertEqual(r.status, 0, r.err)
        let doc = try XCTUnwrapDict(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: exportFile))))
        XCTAssertEqual(doc["format"] as? String, "deskpet-export")
        let journal = try XCTUnwrapValue(doc["journal"] as? [[String: Any]])
        XCTAssertEqual(journal.filter { $0["type"] as? String == "task.created" }.count, 1001)
        let csv = dir.appendingPathComponent("stats.csv").path
        r = try run(["stats", "--csv", csv, "--png", dir.appendingPathComponent("charts").path], serving: sim)
        XCTAssertEqual(r.status, 0, r.err)
        let csvText = try String(contentsOfFile: csv, encoding: .utf8)
        XCTAssertTrue(csvText.hasPrefix("date,events,tasks_completed,coins_earned"), csvText)
        XCTAssertTrue(csvText.contains("2026-03-02,"), csvText)
        let png = try Data(contentsOf: dir.appendingPathComponent("charts/coins.png"))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])

        // Refusals and usage errors have their exit codes.
        XCTAssertEqual(try run(["task", "done", "nope"], serving: sim).status, 1)
        XCTAssertEqual(try run(["task", "frobnicate"], serving: nil).status, 2)
        XCTAssertEqual(try run(["--ble", "AA:BB:CC:DD:EE:FF", "task", "list"], serving: nil).status, 2)   // two transports
        let saved = transport
        transport = []
        XCTAssertEqual(try run(["--ble", "AA:BB", "task", "list"], serving: nil).status, 2)   // not an address
        // No device at this address (and here no adapter, or no Bluetooth at all): unreachable
        // (4, a read is not queued) or an unsupported transport (8, no Bluetooth in the kernel).
        r = try run(["--ble", "00:00:00:00:00:01", "--timeout", "1", "task", "list"], serving: nil)
        XCTAssertTrue([4, 8].contains(r.status), "\(r.status) \(r.err)")
        XCTAssertTrue(r.err.contains("ble:00:00:00:00:00:01") || r.err.contains("Bluetooth"), r.err)
        transport = saved
        link.close()
    }
}
