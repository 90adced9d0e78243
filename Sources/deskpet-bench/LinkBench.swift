#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PetCore
import PetDevice
import PetLink
import PetSim
import PetLinux

// The phone link over loopback TCP: a client socket and the simulated device in this one thread,
// taking turns (the device serves when its epoll descriptor is readable, as the daemon's poll(2)
// loop does). Every command is durably stored (WAL, synchronous=FULL) before its reply is sent.

/// A blocking-free TCP client of the bench: frames out, frames in.
final class BenchClient {
    let fd: Int32
    var decoder = FrameDecoder(maxBody: 1 << 24)
    var inbox: [[UInt8]] = []

    init(port: UInt16) throws {
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
    }

    /// Sends a frame; while the socket is full, the device is served (one thread takes turns).
    func send(_ json: String, device: SimDevice) throws {
        let f = Frame.encode(Array(json.utf8))
        var off = 0
        while off < f.count {
            let n = f[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { off += n } else { try device.serveLink(waitingUpToMs: 0); try pump() }
        }
    }

    /// Reads what is waiting (no wait).
    func pump() throws {
        var buf = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            inbox += try decoder.feed(Array(buf[0..<n]))
        }
    }

    /// Serves the device and reads until a message of `type` arrives (bounded).
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

    /// Says hello and pairs as a phone would, answering the challenge with the code the device
    /// shows; returns the token.
    func pair(device: SimDevice, name: String, nonceByte: UInt8) throws -> String {
        try send(#"{"type":"hello","version":1}"#, device: device)
        _ = try self.await("welcome", device: device)
        try send(#"{"type":"pair.begin"}"#, device: device)
        guard case .string(let ch) = try self.await("pair.challenge", device: device)["challenge"], let challenge = Hex.decode(ch),
              let code = device.ui.pairingCode else { throw BenchError(message: "no pairing challenge") }
        let nonce = [UInt8](repeating: nonceByte, count: 16)
        let mac = Hex.encode(PairFinish.proof(code: code, challenge: challenge, nonce: nonce))
        try send(#"{"type":"pair.finish","nonce":"\#(Hex.encode(nonce))","mac":"\#(mac)","name":"\#(name)"}"#, device: device)
        guard case .string(let token) = try self.await("paired", device: device)["token"] else { throw BenchError(message: "no token") }
        return token
    }
}

struct BenchError: Error, CustomStringConvertible { var message: String; var description: String { message } }

func benchLink(n: Int, queued: Int) throws {
    let dir = tempDir()
    let link = try SocketLink(parsing: "tcp:127.0.0.1:0")
    let service = LinkService()
    let device = try SimDevice(dbPath: dir + "/link.db", start: start2026, zone: "Europe/Berlin", boot: false,
                               link: link, linkService: service)
    let client = try BenchClient(port: link.port)
    _ = try client.pair(device: device, name: "bench", nonceByte: 1)

    var samples: [Double] = []
    samples.reserveCapacity(n)
    for i in 0..<n {
        try device.wait(ms: 60_000)
        let json = i % 2 == 0
            ? #"{"type":"command","id":"c\#(i)","name":"task.create","fields":{"task":"t\#(i)","title":"Task \#(i)","due":"+\#(1 + i % 30)h"}}"#
            : #"{"type":"command","id":"c\#(i)","name":"task.complete","fields":{"task":"t\#(i - 1)"}}"#
        let t0 = monoNs()
        try client.send(json, device: device)
        _ = try client.await("reply", device: device)
        samples.append(Double(monoNs() - t0) / 1e6)
        if i % 1000 == 999 { progress("link: \(i + 1)/\(n) round trips") }
    }
    samples.sort()
    emit([("figure", q("link_round_trip_ms")), ("transport", q("tcp loopback")), ("n", "\(n)"),
          ("p50", f(percentile(samples, 50))), ("p95", f(percentile(samples, 95))), ("p99", f(percentile(samples, 99))),
          ("max", f(samples.last ?? 0)), ("store", q("sqlite WAL synchronous=FULL, reply after commit")),
          ("target", q("p95<=5"))])

    // Offline sync: `queued` commands sent back to back (a companion replaying its queue), then
    // every reply read; each command stored once.
    let before = device.app.state.eventCount
    let commitsBefore = service.batchCommits
    let t0 = monoNs()
    for i in 0..<queued {
        try client.send(#"{"type":"command","id":"q\#(i)","name":"task.create","fields":{"task":"q\#(i)","title":"Queued \#(i)"}}"#, device: device)
    }
    var replies = 0
    for _ in 0..<1_000_000 where replies < queued {
        try device.serveLink(waitingUpToMs: 0)
        try client.pump()
        while !client.inbox.isEmpty {
            if case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(client.inbox.removeFirst())),
               o["type"] == .string("reply") { replies += 1 }
        }
        var p = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, 1)
    }
    let seconds = Double(monoNs() - t0) / 1e9
    emit([("figure", q("link_sync_queued")), ("commands", "\(queued)"), ("replies", "\(replies)"),
          ("events_stored", "\(device.app.state.eventCount - before)"), ("seconds", f(seconds)),
          ("transactions", "\(service.batchCommits - commitsBefore)"), ("store", q("group commit: one transaction per batch of <=64, reply after commit")),
          ("target", q("<=1 s"))])
    close(client.fd)
    link.close()
    for s in ["", "-wal", "-shm"] { removeFile(dir + "/link.db" + s) }
    rmdir(dir)
}
