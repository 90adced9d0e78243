import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import PetLink
import TestSupport
import XCTest

/// The built `deskpet-sim --web 0` as the browser tests start it: it prints where it serves and
/// each pairing code, serves the app and /link, keeps running through hostile input, writes the
/// screen's text, stops on SIGTERM, and a restart on the same --data continues the journal.
/// No fixed sleeps: bounded polls on its output and on the sockets.
final class WebServeProcessTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("web-serve") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    final class Sim {
        let process = Process()
        let out = Pipe()
        var text = ""
        init(_ args: [String]) throws {
            process.executableURL = Repository.executable("deskpet-sim")
            process.arguments = args
            process.standardOutput = out
            process.standardError = out
            try process.run()
            _ = fcntl(out.fileHandleForReading.fileDescriptor, F_SETFL, O_NONBLOCK)
        }
        /// Reads its output until `pattern` matches a line (bounded: 30 s); the first group.
        func await(_ pattern: String, after start: String.Index? = nil) throws -> String {
            let re = try NSRegularExpression(pattern: pattern)
            for _ in 0..<3000 {
                var buf = [UInt8](repeating: 0, count: 4096)
                let n = read(out.fileHandleForReading.fileDescriptor, &buf, buf.count)
                if n > 0 { text += String(decoding: buf[0..<n], as: UTF8.self) }
                let scope = String(text[(start ?? text.startIndex)...])
                if let m = re.firstMatch(in: scope, range: NSRange(scope.startIndex..., in: scope)) {
                    return m.numberOfRanges > 1 ? String(scope[Range(m.range(at: 1), in: scope)!]) : String(scope[Range(m.range, in: scope)!])
                }
                if !process.isRunning && n <= 0 { break }
                var p = pollfd(fd: out.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, 10)
            }
            throw HarnessError(description: "no '\(pattern)' in: \(text)")
        }
    }

    /// Pumps the client (the device is in the other process) until `done` (bounded: 20 s).
    private func wait(_ clients: [WSTestClient], _ done: () throws -> Bool) throws -> Bool {
        for _ in 0..<2000 {
            for c in clients { c.pump() }
            if try done() { return true }
            var fds = clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 10)
        }
        return false
    }

    private func has(_ c: WSTestClient, _ type: String) throws -> [String: Any]? {
        try c.messages().last { $0["type"] as? String == type }
    }

    func testServesPairsSurvivesHostileInputAndContinuesAfterARestart() throws {
        let web = dir.appendingPathComponent("web")
        try FileManager.default.createDirectory(at: web, withIntermediateDirectories: true)
        try Data("<!doctype html><title>DeskPet</title>".utf8).write(to: web.appendingPathComponent("index.html"))
        let data = dir.appendingPathComponent("data").path
        let screen = dir.appendingPathComponent("screen.txt").path
        let args = ["--web", "0", "--web-root", web.path, "--data", data, "--screen-text", screen]
        let sim = try Sim(args)
        defer { if sim.process.isRunning { sim.process.terminate(); sim.process.waitUntilExit() } }
        let port = try XCTUnwrap(UInt16(try sim.await(#"web: serving http://127\.0\.0\.1:([0-9]+)/"#)))
        XCTAssertEqual(try sim.await(#"journal: (\S+)"#), data + "/deskpet.db")

        // The app's page.
        let page = try WSTestClient(port: port)
        page.send("GET / HTTP/1.1\r\nHost: localhost:\(port)\r\n\r\n")
        XCTAssertTrue(try wait([page]) { page.ended })
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(String(decoding: page.body, as: UTF8.self), "<!doctype html><title>DeskPet</title>")

        // Hostile neighbours: an unmasked frame, a text frame, a bad Origin, a header flood.
        let unmasked = try WSTestClient(port: port)
        unmasked.upgrade(host: "127.0.0.1:\(port)", origin: "http://127.0.0.1:\(port)")
        XCTAssertTrue(try wait([unmasked]) { unmasked.codec.upgraded })
        unmasked.send(WebSocketFrame.encode(.binary, [0, 0, 0, 2, 0x7B, 0x7D]))
        let evil = try WSTestClient(port: port)
        evil.upgrade(host: "127.0.0.1:\(port)", origin: "https://evil.example")
        let flood = try WSTestClient(port: port)
        flood.send("GET /link HTTP/1.1\r\n" + String(repeating: "X: \(String(repeating: "a", count: 100))\r\n", count: 100))
        XCTAssertTrue(try wait([unmasked, evil, flood]) { unmasked.ended && evil.codec.refusal != nil && flood.status != 0 })
        XCTAssertEqual(unmasked.closeCode, .protocolError)
        XCTAssertEqual(evil.codec.refusal?.status, 403)
        XCTAssertEqual(flood.status, 431)
        XCTAssertTrue(sim.process.isRunning)

        // Pair with the code it prints, as the browser test does, and send a command.
        let phone = try WSTestClient(port: port)
        phone.upgrade(host: "localhost:\(port)", origin: "http://localhost:\(port)")
        try phone.message(#"{"type":"hello","version":1}"#)   // sent right behind the handshake
        try phone.message(#"{"type":"pair.begin"}"#)
        XCTAssertTrue(try wait([phone]) { try self.has(phone, "pair.challenge") != nil })
        let code = try sim.await(#"pairing code: ([0-9]{6})"#)
        let shown = try wait([]) { (try? String(contentsOfFile: screen, encoding: .utf8))?.replacingOccurrences(of: " ", with: "").contains(code) == true }
        XCTAssertTrue(shown, "the screen's text shows the code (in groups: 123 456)")
        let ch = try XCTUnwrapValue(try has(phone, "pair.challenge")?["challenge"] as? String)
        let nonce: [UInt8] = Array(0..<16)
        let mac = PairFinish.proof(code: code, challenge: try XCTUnwrapValue(Hex.decode(ch)), nonce: nonce)
        try phone.message(#"{"type":"pair.finish","nonce":"\#(Hex.encode(nonce))","mac":"\#(Hex.encode(mac))","name":"Browser"}"#)
        XCTAssertTrue(try wait([phone]) { try self.has(phone, "paired") != nil })
        let token = try XCTUnwrapValue(try has(phone, "paired")?["token"] as? String)
        try phone.message(#"{"type":"command","id":"c-1","name":"task.create","fields":{"task":"t1","title":"Water plants"}}"#)
        XCTAssertTrue(try wait([phone]) { try self.has(phone, "reply") != nil })
        let seq = try XCTUnwrapValue(try has(phone, "reply")?["seq"] as? Int)

        // SIGTERM: it stops cleanly; a restart on the same --data continues the journal.
        sim.process.terminate()
        sim.process.waitUntilExit()
        XCTAssertEqual(sim.process.terminationStatus, 0)
        XCTAssertTrue(try sim.await("web: stopped").contains("stopped"))
        let again = try Sim(args)
        defer { if again.process.isRunning { again.process.terminate(); again.process.waitUntilExit() } }
        let port2 = try XCTUnwrap(UInt16(try again.await(#"web: serving http://127\.0\.0\.1:([0-9]+)/"#)))
        let back = try WSTestClient(port: port2)
        back.upgrade(host: "127.0.0.1:\(port2)", origin: nil)
        try back.message(#"{"type":"hello","version":1,"token":"\#(token)","last_seq":0}"#)
        XCTAssertTrue(try wait([back]) { try self.has(back, "welcome") != nil && self.has(back, "state") != nil })
        let welcome = try XCTUnwrapValue(try has(back, "welcome"))
        XCTAssertEqual(welcome["paired"] as? Bool, true, "the pairing is in the journal")
        XCTAssertGreaterThanOrEqual(welcome["seq"] as? Int ?? 0, seq)
        try back.message(#"{"type":"command","id":"c-1","name":"task.create","fields":{"task":"t1","title":"Water plants"}}"#)
        XCTAssertTrue(try wait([back]) { try self.has(back, "reply") != nil })
        XCTAssertEqual(try has(back, "reply")?["duplicate"] as? Bool, true, "the same id is applied once, across the restart")
    }
}
