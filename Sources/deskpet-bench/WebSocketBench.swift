#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PetCore
import PetDevice
import PetLink
import PetSim
import PetLinux

// The phone link over the WebSocket (`WebLink`, docs/companion.md) on loopback: a masked client
// (`WebSocketClient`) and the simulated device in this one thread, taking turns as in LinkBench.
// The command round trip includes the durable journal commit, as on every transport.

/// A nonblocking WebSocket client of the bench: phone-protocol frames as binary messages.
final class BenchWebSocket {
    let fd: Int32
    var codec: WebSocketClient
    var decoder = FrameDecoder(maxBody: 1 << 24)
    var inbox: [[UInt8]] = []

    init(port: UInt16, device: SimDevice) throws {
        codec = try WebSocketClient()
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_port = port.bigEndian
        sa.sin_addr.s_addr = UInt32(127) | UInt32(1) << 24
        let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard r == 0 else { throw BenchError(message: "connect: \(errnoText())") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        try write(codec.request(host: "127.0.0.1:\(port)", origin: "http://127.0.0.1:\(port)"), device: device)
        for _ in 0..<100_000 where !codec.upgraded {
            try device.serveLink(waitingUpToMs: 0)
            try pump()
            if let refusal = codec.refusal { throw BenchError(message: "websocket refused: \(refusal.reason)") }
        }
        guard codec.upgraded else { throw BenchError(message: "no websocket upgrade") }
    }

    private func write(_ bytes: [UInt8], device: SimDevice) throws {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { off += n } else { try device.serveLink(waitingUpToMs: 0); try pump() }
        }
    }

    func send(_ json: String, device: SimDevice) throws {
        try write(try codec.frame(.binary, Frame.encode(Array(json.utf8))), device: device)
    }

    func pump() throws {
        var buf = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            for input in codec.feed(Array(buf[0..<n])) {
                switch input {
                case .message(_, let p): inbox += try decoder.feed(p)
                case .close(let code, let reason): throw BenchError(message: "closed by the device: \(code.map(\.description) ?? "-") \(reason)")
                case .failed(let code, let reason): throw BenchError(message: "bad frame from the device: \(code) \(reason)")
                case .ping, .pong: break
                }
            }
        }
    }

    func await(_ type: String, device: SimDevice) throws -> [String: JSONValue] {
        for _ in 0..<100_000 {
            try pump()
            while !inbox.isEmpty {
                let body = inbox.removeFirst()
                if case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(body)), o["type"] == .string(type) { return o }
            }
            try device.serveLink(waitingUpToMs: 0)
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 1)
        }
        throw BenchError(message: "no \(type) from the device")
    }
}

func benchWebSocket(n: Int) throws {
    let dir = tempDir()
    let link = try WebLink(parsing: "127.0.0.1:0")
    let service = LinkService()
    let device = try SimDevice(dbPath: dir + "/ws.db", start: start2026, zone: "Europe/Berlin", boot: false,
                               link: link, linkService: service)
    let client = try BenchWebSocket(port: link.port, device: device)
    try client.send(#"{"type":"hello","version":1}"#, device: device)
    _ = try client.await("welcome", device: device)
    try client.send(#"{"type":"pair.begin"}"#, device: device)
    guard case .string(let ch) = try client.await("pair.challenge", device: device)["challenge"], let challenge = Hex.decode(ch),
          let code = device.ui.pairingCode else { throw BenchError(message: "no pairing challenge") }
    let nonce = [UInt8](repeating: 3, count: 16)
    let mac = Hex.encode(PairFinish.proof(code: code, challenge: challenge, nonce: nonce))
    try client.send(#"{"type":"pair.finish","nonce":"\#(Hex.encode(nonce))","mac":"\#(mac)","name":"bench"}"#, device: device)
    _ = try client.await("paired", device: device)

    var pings: [Double] = [], commands: [Double] = []
    pings.reserveCapacity(n); commands.reserveCapacity(n)
    for i in 0..<n {
        var t0 = monoNs()
        try client.send(#"{"type":"ping"}"#, device: device)
        _ = try client.await("pong", device: device)
        pings.append(Double(monoNs() - t0) / 1e6)
        try device.wait(ms: 60_000)
        let json = i % 2 == 0
            ? #"{"type":"command","id":"w\#(i)","name":"task.create","fields":{"task":"t\#(i)","title":"Task \#(i)","due":"+\#(1 + i % 30)h"}}"#
            : #"{"type":"command","id":"w\#(i)","name":"task.complete","fields":{"task":"t\#(i - 1)"}}"#
        t0 = monoNs()
        try client.send(json, device: device)
        _ = try client.await("reply", device: device)
        commands.append(Double(monoNs() - t0) / 1e6)
        if i % 1000 == 999 { progress("websocket: \(i + 1)/\(n) round trips") }
    }
    pings.sort(); commands.sort()
    emit([("figure", q("websocket_round_trip_ms")), ("transport", q("websocket over tcp loopback (RFC 6455, masked client frames)")), ("n", "\(n)"),
          ("p50", f(percentile(commands, 50))), ("p95", f(percentile(commands, 95))), ("p99", f(percentile(commands, 99))),
          ("max", f(commands.last ?? 0)), ("ping_p50", f(percentile(pings, 50))), ("ping_p95", f(percentile(pings, 95))),
          ("ping_p99", f(percentile(pings, 99))), ("command", q("task.create / task.complete, reply after the WAL commit")),
          ("target", q("p95<=5"))])
    close(client.fd)
    link.close()
    for s in ["", "-wal", "-shm"] { removeFile(dir + "/ws.db" + s) }
}
