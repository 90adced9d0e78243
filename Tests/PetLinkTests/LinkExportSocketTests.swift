import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PetCore
import PetDevice
@testable import PetLink
import PetSim
import TestSupport
import XCTest
import PetLinux

/// A large export over real sockets to a phone that reads promptly: it arrives whole (the
/// export waits for the socket to drain instead of overflowing the transport's output bound).
final class LinkExportSocketTests: XCTestCase {
    var dir: URL?
    override func tearDown() { removeTemporaryDirectory(dir) }

    private func connectClient(_ link: SocketLink) throws -> Int32 { try SocketClientTesting.client(link) }

    private func write(_ fd: Int32, _ json: String) { SocketClientTesting.sendFrame(fd, json) }

    /// Serves and reads promptly until a message of type `until` (or the stream ends, or 2,000
    /// rounds pass); the messages, and whether the stream ended.
    private func read(_ sim: SimDevice, _ fd: Int32, until: String) throws -> (messages: [[String: Any]], ended: Bool) {
        var d = FrameDecoder(maxBody: 1 << 24)
        var out: [[String: Any]] = []
        var buf = [UInt8](repeating: 0, count: 65_536)
        for _ in 0..<2_000 {
            try sim.serveLink(waitingUpToMs: 10)
            var got: [UInt8] = []
            while true {
                let r = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if r > 0 { got += buf[0..<r]; continue }
                if r == 0 {
                    for b in try d.feed(got) { out.append(try XCTUnwrapDict(JSONSerialization.jsonObject(with: Data(b)))) }
                    return (out, true)
                }
                break
            }
            for b in try d.feed(got) { out.append(try XCTUnwrapDict(JSONSerialization.jsonObject(with: Data(b)))) }
            if out.contains(where: { $0["type"] as? String == until }) { return (out, false) }
        }
        return (out, false)
    }

    private func exportArrivesWhole(_ address: (URL) -> String) throws {
        dir = try makeTemporaryDirectory("link-export")
        let link = try SocketLink(parsing: address(dir!))
        let service = LinkService(random: SeededRandom(seed: 1))
        let sim = try SimDevice(dbPath: nil, start: Harness.start, zone: "UTC", boot: false, link: link, linkService: service)
        // A journal whose export is about 2.6 MB (400 tasks with 2,000-byte notes, edited twice).
        var commands: [Command] = []
        for round in 0..<3 {
            for i in 0..<400 {
                let fields = round == 0 ? ["task": "t\(i)", "title": "Task \(i)", "notes": String(repeating: "😀", count: 500)]
                                        : ["task": "t\(i)", "notes": String(repeating: round == 1 ? "😃" : "😄", count: 500)]
                commands.append(try CommandParser.parse(name: round == 0 ? "task.create" : "task.edit", fields: fields, id: "seed-\(round)-\(i)",
                                                        at: sim.now, clock: sim.app.state.clock))
            }
        }
        for o in try sim.app.handleBatch(commands) { if case .failure(let e) = o.result { XCTFail("\(e)") } }
        let fd = try connectClient(link)
        defer { close(fd) }
        write(fd, #"{"type":"hello","version":1}"#)
        write(fd, #"{"type":"pair.begin"}"#)
        let ch = try XCTUnwrapValue(try read(sim, fd, until: "pair.challenge").messages.last?["challenge"] as? String)
        let code = try XCTUnwrapValue(sim.ui.pairingCode)
        let nonce: [UInt8] = Array(0..<16)
        let mac = PairFinish.proof(code: code, challenge: try XCTUnwrapValue(Hex.decode(ch)), nonce: nonce)
        write(fd, #"{"type":"pair.finish","nonce":"\#(Hex.encode(nonce))","mac":"\#(Hex.encode(mac))","name":"Reader"}"#)
        XCTAssertFalse(try read(sim, fd, until: "paired").ended)
        write(fd, #"{"type":"command","id":"big","name":"export"}"#)
        let (ms, ended) = try read(sim, fd, until: "reply")
        XCTAssertFalse(ended, "the connection stays open")
        let text = ms.filter { $0["type"] as? String == "export.part" }.compactMap { $0["data"] as? String }.joined()
        let reply = try XCTUnwrapValue(ms.last(where: { $0["type"] as? String == "reply" }))
        XCTAssertGreaterThan(text.utf8.count, 2_400_000)
        XCTAssertEqual(reply["bytes"] as? Int, text.utf8.count, "every byte arrived")
        let doc = try XCTUnwrapDict(JSONSerialization.jsonObject(with: Data(text.utf8)))
        XCTAssertEqual((doc["journal"] as? [Any])?.count, sim.app.state.eventCount)
        XCTAssertLessThanOrEqual(link.queuedBytes(client: 1), link.maxQueuedBytes)
    }

    func testALargeExportArrivesWholeOverAUnixSocket() throws {
        try exportArrivesWhole { "unix:\($0.appendingPathComponent("s").path)" }
    }

    func testALargeExportArrivesWholeOverTCP() throws {
        try exportArrivesWhole { _ in "tcp:127.0.0.1:0" }
    }
}
