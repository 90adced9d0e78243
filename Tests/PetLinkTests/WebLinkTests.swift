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
@testable import PetLinux

/// A test clock for the transport's timeouts (the device's own clock is the simulator's).
final class TestMonotonic { var ns: UInt64 = 1_000_000_000 }

/// A client socket on loopback: raw bytes, or a WebSocket through `WebSocketClient` (masked
/// frames; the server's inputs collected). Nonblocking: the test serves the device between reads.
final class WSTestClient {
    let fd: Int32
    var codec: WebSocketClient
    var inputs: [WebSocketInput] = []
    var raw: [UInt8] = []
    var ended = false
    private var decoder = FrameDecoder(maxBody: 1 << 24)
    private var consumed = 0

    init(port: UInt16) throws {
        codec = try WebSocketClient()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_port = port.bigEndian
        sa.sin_addr.s_addr = UInt32(127) | UInt32(1) << 24
        let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard r == 0 else { throw HarnessError(description: "connect: \(String(cString: strerror(errno)))") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            off += n
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Closes the sending side (as a browser does after the close handshake).
    func shut() { shutdown(fd, Int32(SHUT_WR)) }

    /// The opening handshake for /link.
    func upgrade(host: String, origin: String?) { send(codec.request(host: host, origin: origin)) }

    /// A phone-protocol message as one binary WebSocket message (masked).
    func message(_ json: String) throws { send(try codec.frame(.binary, Frame.encode(Array(json.utf8)))) }

    /// Reads what is waiting (no wait).
    func pump() {
        var buf = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 { raw += buf[0..<n]; inputs += codec.feed(Array(buf[0..<n])); continue }
            if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { ended = true }
            return
        }
    }

    /// The phone-protocol messages received so far (from binary messages), all of them.
    func messages() throws -> [[String: Any]] {
        var d = FrameDecoder(maxBody: 1 << 24)
        var out: [[String: Any]] = []
        for case .message(.binary, let p) in inputs {
            for b in try d.feed(p) { out.append(try XCTUnwrapDict(JSONSerialization.jsonObject(with: Data(b)))) }
        }
        return out
    }

    var closeCode: WebSocketCloseCode? {
        for case .close(let code, _) in inputs { return code }
        return nil
    }

    /// The HTTP status of what was read (0: none yet).
    var status: Int {
        let head = String(decoding: raw.prefix(64), as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 ") else { return 0 }
        return Int(head.dropFirst(9).prefix(3)) ?? 0
    }

    func header(_ name: String) -> String? {
        let text = String(decoding: raw, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return nil }
        for line in text[..<end.lowerBound].split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    var body: [UInt8] {
        guard let i = (0..<max(0, raw.count - 3)).first(where: { raw[$0] == 13 && raw[$0 + 1] == 10 && raw[$0 + 2] == 13 && raw[$0 + 3] == 10 }) else { return [] }
        return Array(raw[(i + 4)...])
    }
}

final class WebLinkTests: XCTestCase {
    var dir: URL?
    override func tearDown() { removeTemporaryDirectory(dir) }

    private func device(options: WebLink.Options = WebLink.Options(), clock: TestMonotonic = TestMonotonic(),
                        config: LinkConfig = LinkConfig()) throws -> (SimDevice, WebLink, LinkService) {
        let link = try WebLink(parsing: "127.0.0.1:0", options: options, monotonicNs: { clock.ns })
        let service = LinkService(config: config, random: SeededRandom(seed: 7))
        let sim = try SimDevice(dbPath: nil, start: Harness.start, zone: "UTC", boot: false, link: link, linkService: service)
        return (sim, link, service)
    }

    /// Serves the device and pumps the clients until `done` (at most 500 rounds of ≤ 10 ms).
    @discardableResult
    private func serve(_ sim: SimDevice, _ clients: [WSTestClient], until done: () throws -> Bool) throws -> Bool {
        for _ in 0..<500 {
            try sim.serveLink(waitingUpToMs: 2)
            for c in clients { c.pump() }
            if try done() { return true }
        }
        return false
    }

    private func connected(_ sim: SimDevice, _ link: WebLink, origin: String? = nil) throws -> WSTestClient {
        let c = try WSTestClient(port: link.port)
        c.upgrade(host: "127.0.0.1:\(link.port)", origin: origin ?? "http://127.0.0.1:\(link.port)")
        XCTAssertTrue(try serve(sim, [c]) { c.codec.upgraded || c.codec.refusal != nil })
        XCTAssertTrue(c.codec.upgraded, "upgraded: \(String(describing: c.codec.refusal))")
        return c
    }

    private func pair(_ sim: SimDevice, _ c: WSTestClient) throws {
        try c.message(#"{"type":"hello","version":1}"#)
        try c.message(#"{"type":"pair.begin"}"#)
        XCTAssertTrue(try serve(sim, [c]) { try c.messages().contains { $0["type"] as? String == "pair.challenge" } })
        let ch = try XCTUnwrapValue(try c.messages().last { $0["type"] as? String == "pair.challenge" }?["challenge"] as? String)
        let code = try XCTUnwrapValue(sim.ui.pairingCode, "the code on the screen")
        let nonce: [UInt8] = Array(100..<116)
        let mac = PairFinish.proof(code: code, challenge: try XCTUnwrapValue(Hex.decode(ch)), nonce: nonce)
        try c.message(#"{"type":"pair.finish","nonce":"\#(Hex.encode(nonce))","mac":"\#(Hex.encode(mac))","name":"Browser"}"#)
        XCTAssertTrue(try serve(sim, [c]) { try c.messages().contains { $0["type"] as? String == "paired" } })
    }

    // MARK: - The round trip

    func testPairedRoundTripOverTheWebSocket() throws {
        let (sim, link, service) = try device()
        let c = try connected(sim, link)
        XCTAssertEqual(service.clientCount, 1)
        try pair(sim, c)
        try c.message(#"{"type":"command","id":"w-1","name":"task.create","fields":{"task":"t1","title":"Water plants","due":"today 18:00"}}"#)
        XCTAssertTrue(try serve(sim, [c]) { try c.messages().contains { $0["type"] as? String == "reply" } })
        let reply = try XCTUnwrapValue(try c.messages().last { $0["type"] as? String == "reply" })
        XCTAssertEqual(reply["id"] as? String, "w-1")
        XCTAssertEqual(reply["ok"] as? Bool, true)
        XCTAssertEqual(sim.app.state.openTasks().map(\.title), ["Water plants"])
        // Every device message is one binary WebSocket message holding exactly one frame.
        for case .message(let op, let p) in c.inputs {
            XCTAssertEqual(op, .binary)
            XCTAssertEqual(p.count, 4 + Int(p[0]) << 24 + Int(p[1]) << 16 + Int(p[2]) << 8 + Int(p[3]))
        }
        // A WebSocket ping is answered with its payload; the protocol's ping with pong.
        c.send(try c.codec.frame(.ping, Array("are you there".utf8)))
        try c.message(#"{"type":"ping"}"#)
        XCTAssertTrue(try serve(sim, [c]) { try c.inputs.contains(.pong(Array("are you there".utf8))) && c.messages().contains { $0["type"] as? String == "pong" } })
        // A frame split over two binary messages, and two frames in one, read the same.
        let f = Frame.encode(Array(#"{"type":"ping"}"#.utf8))
        c.send(try c.codec.frame(.binary, Array(f.prefix(3))))
        c.send(try c.codec.frame(.binary, Array(f.dropFirst(3)) + f))
        XCTAssertTrue(try serve(sim, [c]) { try c.messages().filter { $0["type"] as? String == "pong" }.count == 3 })
        // The client closes: the device answers the close and forgets the client.
        c.send(try c.codec.frame(.close, WebSocketFrame.closePayload(.normal, reason: "bye")))
        XCTAssertTrue(try serve(sim, [c]) { c.ended })
        XCTAssertEqual(c.closeCode, .normal)
        XCTAssertEqual(service.clientCount, 0)
        XCTAssertEqual(link.connectionCount, 1, "kept until the client closes its side")
        c.shut()
        XCTAssertTrue(try serve(sim, [c]) { link.connectionCount == 0 })
    }

    // MARK: - Handshakes

    private func rawRequest(_ sim: SimDevice, _ link: WebLink, _ text: String) throws -> WSTestClient {
        let c = try WSTestClient(port: link.port)
        c.send(text)
        XCTAssertTrue(try serve(sim, [c]) { c.ended }, "the server closes after its answer")
        return c
    }

    private func upgradeRequest(_ port: UInt16, drop: String? = nil, extra: [String] = [], origin: String? = nil) -> String {
        var lines = ["GET /link HTTP/1.1", "Host: 127.0.0.1:\(port)", "Upgrade: websocket", "Connection: Upgrade",
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
                     "Origin: \(origin ?? "http://127.0.0.1:\(port)")"]
        if let drop { lines.removeAll { $0.hasPrefix(drop) } }
        return (lines + extra).joined(separator: "\r\n") + "\r\n\r\n"
    }

    func testBadHandshakesGetAnHTTPErrorAndTheServerCarriesOn() throws {
        var o = WebLink.Options()
        o.origins = ["https://Owner.github.io:443"]
        let (sim, link, service) = try device(options: o)
        let p = link.port
        XCTAssertEqual(try rawRequest(sim, link, upgradeRequest(p, drop: "Sec-WebSocket-Key")).status, 400)
        let v8 = try rawRequest(sim, link, upgradeRequest(p, drop: "Sec-WebSocket-Version", extra: ["Sec-WebSocket-Version: 8"]))
        XCTAssertEqual(v8.status, 426)
        XCTAssertEqual(v8.header("Sec-WebSocket-Version"), "13")
        for bad in ["http://evil.example", "null", "http://127.0.0.1:\(p == 1 ? 2 : 1)", "https://127.0.0.1:\(p)", "http://localhost:\(p).evil.example", "file://"] {
            XCTAssertEqual(try rawRequest(sim, link, upgradeRequest(p, origin: bad)).status, 403, bad)
        }
        XCTAssertEqual(try rawRequest(sim, link, upgradeRequest(p).replacingOccurrences(of: "Host: 127.0.0.1", with: "Host: evil.example")).status, 403,
                       "a DNS-rebinding Host")
        XCTAssertEqual(try rawRequest(sim, link, "GET /link HTTP/1.1\r\nHost: 127.0.0.1:\(p)\r\n\r\n").status, 426, "/link without an upgrade")
        XCTAssertEqual(try rawRequest(sim, link, "GET /link HTTP/1.1\r\nHost: 127.0.0.1:\(p)\r\n" + String(repeating: "X-Flood: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n", count: 400)).status, 431, "header flood")
        XCTAssertEqual(try rawRequest(sim, link, "GET /link HTTP/1.1\nHost: x\n\n").status, 400)
        XCTAssertEqual(try rawRequest(sim, link, "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}\r\n\r\n").status, 400, "a TLS hello")
        XCTAssertEqual(try rawRequest(sim, link, upgradeRequest(p).replacingOccurrences(of: "GET /link", with: "POST /link")).status, 405)
        // Allowed: both loopback names of the served origin, the --web-origin (normalised), none.
        var kept: [WSTestClient] = []
        for good in ["http://127.0.0.1:\(p)", "http://localhost:\(p)", "https://owner.github.io", "HTTPS://OWNER.GITHUB.IO"] {
            let c = try WSTestClient(port: p)
            kept.append(c)
            c.send(upgradeRequest(p, origin: good))
            XCTAssertTrue(try serve(sim, [c]) { c.status != 0 })
            XCTAssertEqual(c.status, 101, good)
        }
        let programmatic = try WSTestClient(port: p)
        programmatic.send(upgradeRequest(p, drop: "Origin"))
        XCTAssertTrue(try serve(sim, [programmatic]) { programmatic.status == 101 }, "no Origin: a program, not a page")
        // The served clients are still answered.
        let c = try connected(sim, link)
        try c.message(#"{"type":"hello","version":1}"#)
        XCTAssertTrue(try serve(sim, [c]) { try c.messages().contains { $0["type"] as? String == "welcome" } })
        XCTAssertEqual(service.clientCount, 6, "the four allowed origins, the program, this one")
        XCTAssertEqual(kept.count, 4)
    }

    func testAHeadThatNeverEndsTimesOutWith408() throws {
        let clock = TestMonotonic()
        let (sim, link, _) = try device(clock: clock)
        let slow = try WSTestClient(port: link.port)
        slow.send("GET /link HTTP/1.1\r\nHost: 127.0.0.1:\(link.port)\r\n")
        try serve(sim, [slow]) { link.connectionCount == 1 }
        clock.ns += 9_000_000_000
        try sim.serveLink(waitingUpToMs: 1); slow.pump()
        XCTAssertEqual(slow.status, 0, "not yet at 9 s")
        clock.ns += 1_000_000_000
        XCTAssertTrue(try serve(sim, [slow]) { slow.status != 0 })
        XCTAssertEqual(slow.status, 408)
        clock.ns += 3_000_000_000
        XCTAssertTrue(try serve(sim, [slow]) { link.connectionCount == 0 }, "closed after the linger even if the client stays")
    }

    // MARK: - Hostile frames

    func testHostileFramesGetTheirCloseCodesAndOthersAreServed() throws {
        let clock = TestMonotonic()
        let (sim, link, service) = try device(clock: clock)
        let good = try connected(sim, link)
        try good.message(#"{"type":"hello","version":1}"#)

        let unmasked = try connected(sim, link)
        unmasked.send(WebSocketFrame.encode(.binary, Frame.encode(Array(#"{"type":"ping"}"#.utf8))))
        let big = try connected(sim, link)
        big.send(Array(try big.codec.frame(.binary, [UInt8](repeating: 0, count: 65_541)).prefix(14)))
        let text = try connected(sim, link)
        text.send(try text.codec.frame(.text, Array(#"{"type":"hello","version":1}"#.utf8)))
        let reserved = try connected(sim, link)
        reserved.send([0xC2, 0x80, 1, 2, 3, 4])
        let badClose = try connected(sim, link)
        badClose.send(try badClose.codec.frame(.close, [0x03, 0xED]))   // 1005 may not be sent
        let longPing = try connected(sim, link)
        longPing.send(Array(try longPing.codec.frame(.ping, [UInt8](repeating: 1, count: 126))))
        let fragments = try connected(sim, link)
        fragments.send(try fragments.codec.frame(.binary, Array(Frame.encode(Array(#"{"type":"ping"}"#.utf8)).prefix(5)), fin: false))
        let zeroFrame = try connected(sim, link)
        zeroFrame.send(try zeroFrame.codec.frame(.binary, [0, 0, 0, 0]))   // the protocol's malformed zero length

        let all = [good, unmasked, big, text, reserved, badClose, longPing, fragments, zeroFrame]
        XCTAssertTrue(try serve(sim, all) { [unmasked, big, text, reserved, badClose, longPing, zeroFrame].allSatisfy(\.ended) })
        XCTAssertEqual(unmasked.closeCode, .protocolError)
        XCTAssertEqual(big.closeCode, .messageTooBig)
        XCTAssertEqual(text.closeCode, .unsupportedData)
        XCTAssertEqual(reserved.closeCode, .protocolError)
        XCTAssertEqual(badClose.closeCode, .protocolError)
        XCTAssertEqual(longPing.closeCode, .protocolError)
        XCTAssertEqual(zeroFrame.closeCode, .policyViolation)
        XCTAssertEqual(try zeroFrame.messages().first?["code"] as? String, "malformed", "the protocol's error comes before the close")
        XCTAssertFalse(fragments.ended, "an unfinished message is given its time")
        // 30 s later the unfinished message is a timeout (close 1008); the good client stays.
        clock.ns += 30_000_000_000
        XCTAssertTrue(try serve(sim, all) { fragments.ended })
        XCTAssertEqual(fragments.closeCode, .policyViolation)
        XCTAssertTrue(try serve(sim, [good]) { try good.messages().contains { $0["type"] as? String == "welcome" } })
        try good.message(#"{"type":"ping"}"#)
        XCTAssertTrue(try serve(sim, [good]) { try good.messages().contains { $0["type"] as? String == "pong" } })
        XCTAssertFalse(good.ended)
        XCTAssertEqual(service.clientCount, 1)
        XCTAssertEqual(link.clientCount, 1)
    }

    /// The protocol's own timeouts apply per client as on every transport (the device's clock):
    /// no whole frame for 120 s, half a frame for 30 s — its `timeout` error, then close 1008.
    func testTheProtocolsTimeoutsCloseWith1008() throws {
        let (sim, link, service) = try device()
        let idle = try connected(sim, link)
        try idle.message(#"{"type":"hello","version":1}"#)
        let half = try connected(sim, link)
        half.send(try half.codec.frame(.binary, Array(Frame.encode(Array(#"{"type":"ping"}"#.utf8)).prefix(6))))
        XCTAssertTrue(try serve(sim, [idle, half]) { try idle.messages().count == 1 })
        try sim.wait(ms: 31_000)
        XCTAssertTrue(try serve(sim, [idle, half]) { half.ended })
        XCTAssertEqual(try half.messages().last?["code"] as? String, "timeout")
        XCTAssertEqual(half.closeCode, .policyViolation)
        XCTAssertFalse(idle.ended)
        try sim.wait(ms: 90_000)
        XCTAssertTrue(try serve(sim, [idle]) { idle.ended })
        XCTAssertEqual(try idle.messages().last?["code"] as? String, "timeout")
        XCTAssertEqual(idle.closeCode, .policyViolation)
        XCTAssertEqual(service.clientCount, 0)
    }

    func testAClientThatNeverReadsIsDroppedAndOthersAreServed() throws {
        var o = WebLink.Options()
        o.maxQueuedBytes = 16_384
        o.socketSendBuffer = 8192
        let (sim, link, service) = try device(options: o)
        let good = try connected(sim, link)
        let slow = try connected(sim, link)
        var size: Int32 = 4096
        setsockopt(slow.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        try good.message(#"{"type":"hello","version":1}"#)
        let hello = try slow.codec.frame(.binary, Array([[UInt8]](repeating: Frame.encode(Array(#"{"type":"hello","version":1}"#.utf8)), count: 50).joined()))
        var dropped = false
        for _ in 0..<400 {
            slow.send(hello)   // never read
            try sim.serveLink(waitingUpToMs: 1)
            good.pump()
            if service.clientCount == 1 { dropped = true; break }
        }
        XCTAssertTrue(dropped, "the client that does not read is dropped")
        try good.message(#"{"type":"ping"}"#)
        XCTAssertTrue(try serve(sim, [good]) { try good.messages().contains { $0["type"] as? String == "pong" } })
    }

    func testAHundredConnectionsAtOnce() throws {
        let (sim, link, service) = try device()
        var clients: [WSTestClient] = []
        for _ in 0..<100 {
            let c = try WSTestClient(port: link.port)
            c.upgrade(host: "127.0.0.1:\(link.port)", origin: "http://localhost:\(link.port)")
            clients.append(c)
        }
        XCTAssertTrue(try serve(sim, clients) { clients.allSatisfy { $0.status != 0 } })
        let busy = clients.filter { $0.status == 503 }
        let upgraded = clients.filter { $0.status == 101 }
        XCTAssertEqual(busy.count, 36, "over 64 connections: 503")
        XCTAssertEqual(upgraded.count, 64)
        // Of those upgraded, the protocol serves 16 and refuses the rest with its error and 1008.
        XCTAssertTrue(try serve(sim, clients) { upgraded.filter(\.ended).count == 48 })
        let refused = upgraded.filter(\.ended)
        for c in refused {
            XCTAssertEqual(try c.messages().first?["code"] as? String, "too_many_clients")
            XCTAssertEqual(c.closeCode, .policyViolation)
        }
        XCTAssertEqual(service.clientCount, 16)
        let served = upgraded.filter { !$0.ended }
        for c in served { try c.message(#"{"type":"hello","version":1}"#) }
        XCTAssertTrue(try serve(sim, served) { try served.allSatisfy { try $0.messages().contains { $0["type"] as? String == "welcome" } } })
        // Once the refused are gone, a newcomer is served again.
        for c in refused { c.shut() }
        XCTAssertTrue(try serve(sim, clients) { link.connectionCount == 16 })
        let late = try connected(sim, link)
        XCTAssertEqual(late.status, 101)
    }

    func testListensOnLoopbackOnlyUnlessAskedAndChecksOrigins() throws {
        XCTAssertThrowsError(try WebLink(parsing: "0.0.0.0:0")) {
            guard case .badAddress = $0 as? LinkError else { return XCTFail("\($0)") }
        }
        var remote = WebLink.Options()
        remote.allowRemote = true
        XCTAssertNoThrow(try WebLink(parsing: "0.0.0.0:0", options: remote))
        var bad = WebLink.Options()
        bad.origins = ["https://x.example/path"]
        XCTAssertThrowsError(try WebLink(parsing: "0", options: bad))
        XCTAssertEqual(WebLink.normalOrigin("https://Owner.GitHub.io:443"), "https://owner.github.io")
        XCTAssertEqual(WebLink.normalOrigin("http://localhost:8080"), "http://localhost:8080")
        XCTAssertNil(WebLink.normalOrigin("null"))
        XCTAssertNil(WebLink.normalOrigin("http://a@b"))
        XCTAssertNil(WebLink.normalOrigin("ftp://a"))
        XCTAssertNil(WebLink.normalOrigin("http://a:99999"))
    }

    // MARK: - The web app's files

    func testStaticFilesTypesHeadersAndRefusals() throws {
        dir = try makeTemporaryDirectory("webroot")
        let root = dir!.appendingPathComponent("web")
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try fm.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let files: [(String, String)] = [("index.html", "<!doctype html>"), ("app.js", "export {}"), ("style.css", "body{}"),
                                         ("manifest.webmanifest", "{}"), ("data.json", "[]"), ("icon.svg", "<svg/>"),
                                         ("sub/index.html", "sub"), (".git/config", "secret"), ("notes.md", "# no"), ("run.sh", "echo")]
        for (name, text) in files { try Data(text.utf8).write(to: root.appendingPathComponent(name)) }
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: root.appendingPathComponent("icon.png"))
        try Data("outside".utf8).write(to: dir!.appendingPathComponent("secret.txt"))
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("escape.txt").path, withDestinationPath: dir!.appendingPathComponent("secret.txt").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("linkdir").path, withDestinationPath: dir!.path)
        try Data(count: 5000).write(to: root.appendingPathComponent("big.json"))
        var o = WebLink.Options()
        o.webRoot = root.path
        let (sim, link, _) = try device(options: o)
        let p = link.port
        func get(_ path: String, method: String = "GET", extra: String = "") throws -> WSTestClient {
            try rawRequest(sim, link, "\(method) \(path) HTTP/1.1\r\nHost: localhost:\(p)\r\n\(extra)\r\n")
        }
        let types = [("/", "text/html; charset=utf-8", "<!doctype html>"), ("/index.html", "text/html; charset=utf-8", "<!doctype html>"),
                     ("/app.js?v=2", "text/javascript; charset=utf-8", "export {}"), ("/style.css", "text/css; charset=utf-8", "body{}"),
                     ("/manifest.webmanifest", "application/manifest+json", "{}"), ("/data.json", "application/json", "[]"),
                     ("/icon.svg", "image/svg+xml", "<svg/>"), ("/sub/", "text/html; charset=utf-8", "sub"),
                     ("/%69ndex.html", "text/html; charset=utf-8", "<!doctype html>")]
        for (path, type, body) in types {
            let c = try get(path)
            XCTAssertEqual(c.status, 200, path)
            XCTAssertEqual(c.header("Content-Type"), type, path)
            XCTAssertEqual(String(decoding: c.body, as: UTF8.self), body, path)
            XCTAssertEqual(c.header("X-Content-Type-Options"), "nosniff")
            XCTAssertEqual(c.header("Cache-Control"), "no-cache")
            XCTAssertEqual(c.header("Content-Length"), String(body.utf8.count))
            let csp = try XCTUnwrapValue(c.header("Content-Security-Policy"))
            XCTAssertTrue(csp.hasPrefix("default-src 'self'; connect-src 'self' ws://localhost:\(p) ws://127.0.0.1:\(p);"), csp)
        }
        XCTAssertEqual(try get("/icon.png").body, [0x89, 0x50, 0x4E, 0x47])
        let head = try get("/app.js", method: "HEAD")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), "9")
        XCTAssertEqual(head.body, [], "HEAD: no body")
        let etag = try XCTUnwrapValue(try get("/app.js").header("ETag"))
        XCTAssertEqual(try get("/app.js", extra: "If-None-Match: \(etag)\r\n").status, 304)
        // Refused: traversal (plain, encoded, mixed case, through a symlink), NUL, bad escapes,
        // hidden files, folders without a slash, types not served, a file over the cap, methods.
        let refusals: [(String, Int)] = [
            ("/../secret.txt", 403), ("/%2e%2e/secret.txt", 403), ("/%2E%2E/secret.txt", 403), ("/sub/../../secret.txt", 403),
            ("/sub/..%2f..%2fsecret.txt", 403), ("/.%2e/secret.txt", 403), ("/./index.html", 403), ("/escape.txt", 403),
            ("/linkdir/secret.txt", 403), ("/index.html%00.js", 400), ("/%zz", 400), ("/%c3%28.html", 400), ("/a\\..\\secret.txt", 403),
            ("/.git/config", 404), ("/sub", 404), ("/notes.md", 404), ("/run.sh", 404), ("/missing.js", 404), ("//etc/passwd", 404),
            ("http://localhost/index.html", 400), ("/" + String(repeating: "a", count: 1100) + ".js", 414),
        ]
        for (path, status) in refusals {
            let c = try get(path)
            XCTAssertEqual(c.status, status, path)
            XCTAssertEqual(c.header("X-Content-Type-Options"), "nosniff", path)
            XCTAssertFalse(String(decoding: c.body, as: UTF8.self).contains("outside"), path)
        }
        XCTAssertEqual(try get("/index.html", method: "POST").status, 405)
        XCTAssertEqual(try get("/index.html", method: "DELETE").status, 405)
        XCTAssertEqual(try get("/index.html", extra: "Content-Length: 3\r\n").status, 400)
        XCTAssertEqual(try rawRequest(sim, link, "GET / HTTP/1.1\r\nHost: rebind.evil.example:\(p)\r\n\r\n").status, 403, "Host not ours")
        XCTAssertEqual(try rawRequest(sim, link, "GET / HTTP/1.1\r\n\r\n").status, 403, "no Host")
        var capped = try WebRoot(root.path) as WebRoot?
        capped?.maxFileBytes = 4096
        XCTAssertEqual(capped?.respond(to: HTTPRequest(method: "GET", target: "/big.json", version: "HTTP/1.1", headers: [])).status, 403)
        XCTAssertEqual(capped?.respond(to: HTTPRequest(method: "GET", target: "/data.json", version: "HTTP/1.1", headers: [])).status, 200)
        XCTAssertThrowsError(try WebRoot(root.appendingPathComponent("index.html").path), "a file is not a root")
    }
}
