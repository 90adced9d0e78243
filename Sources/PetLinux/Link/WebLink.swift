#if canImport(Glibc)
import Glibc
#endif
// Glibc's socket names reach a module that also links CBluetooth through its headers.
import CBluetooth
import CLinux
import PetDevice
import PetLink

/// The phone link for browsers (docs/companion.md, "Serving the app from the device"): one TCP
/// port that serves the companion web app's files (`WebRoot`) and upgrades `GET /link` to a
/// WebSocket (RFC 6455, `Sources/PetWire/WebSocket`). Each phone-protocol frame travels as one
/// binary message holding exactly the bytes the other transports carry, length prefix included
/// (docs/protocol.md), so `LinkService` serves it like `SocketLink`.
///
/// Like `SocketLink`: nonblocking sockets in one epoll descriptor (`StreamSockets`), no thread, clients numbered
/// from 1 (a client is a connection once upgraded), output queued and bounded. Limits of its own,
/// before the protocol's (which `LinkService` enforces per client):
/// - connections in any state at most `maxConnections` (more: `503` and closed);
/// - a request head within `handshakeTimeoutMs` (`408`) and `maxHeaderBytes` (`431`);
/// - a message at most `maxMessage` bytes (close 1009); a fragmented message finished within
///   `fragmentTimeoutMs` (close 1008); binary only (text: 1003); a client must mask (1002);
/// - output a client leaves unread at most `maxQueuedBytes` (then the socket is closed);
/// - a closing connection is kept at most `closeLingerMs` for the peer's close, then closed.
/// Timeouts use the monotonic clock given (a timerfd in the epoll set wakes the loop for them).
public final class WebLink: PhoneLink {
    public struct Options: Sendable {
        /// Listen on an address other machines can reach (`--link-remote`); else loopback only.
        public var allowRemote = false
        /// Origins allowed besides the served one (`http://localhost:PORT`,
        /// `http://127.0.0.1:PORT`): e.g. `https://owner.github.io` for a hosted copy.
        public var origins: [String] = []
        /// The web app's folder; nil serves no files (only `/link`).
        public var webRoot: String?
        public var maxConnections = 64
        public var handshakeTimeoutMs: Int64 = 10_000
        public var maxHeaderBytes = 8192
        /// One phone-protocol frame: the 4-byte prefix and the largest body.
        public var maxMessage = 4 + Frame.maxBody
        public var fragmentTimeoutMs: Int64 = 30_000
        public var maxQueuedBytes = 1 << 20
        public var closeLingerMs: Int64 = 2_000
        /// SO_SNDBUF of each connection (nil: the kernel's own sizing). Tests make it small so
        /// a client that never reads fills it quickly.
        public var socketSendBuffer: Int32?
        public init() {}
    }

    public let host: String
    /// The port actually bound (useful with port 0).
    public private(set) var port: UInt16 = 0
    public let options: Options
    /// Bytes read per connection per `receive()` at most (others get their turn).
    public var readBudget = 256 * 1024
    /// Connections accepted per `receive()` at most.
    public var acceptBudget = 64
    /// Short notes for the operator's log (client numbers, statuses, close codes; no content).
    public var log: ((String) -> Void)?

    private let root: WebRoot?
    private let now: () -> UInt64
    private var sockets: StreamSockets?
    private var timer: Int32 = -1
    private var conns: [Int32: Conn] = [:]
    private var fdByClient: [Int: Int32] = [:]
    private var nextClient = 1
    private var pending: [LinkEvent] = []
    private var armedNs: UInt64?

    private enum Phase {
        /// Reading the request head.
        case http([UInt8])
        /// An upgraded WebSocket: client id, reader.
        case open(Int, WebSocketReader)
        /// Answered (an HTTP response or a close frame): flush, then wait for the peer to close.
        case closing
    }

    private struct Conn {
        var fd: Int32
        var phase: Phase
        var out: [UInt8] = []
        var watchingOut = false
        /// When this connection times out (ns, the monotonic clock), nil: no timer.
        var deadline: UInt64?
        var shutDown = false
        var client: Int? { if case .open(let c, _) = phase { c } else { nil } }
    }

    /// Parses `PORT`, `HOST:PORT` or `localhost:PORT` (IPv4).
    public static func parseAddress(_ text: String) throws(LinkError) -> (host: String, port: UInt16) {
        let spec = text.contains(":") ? text : "127.0.0.1:\(text)"
        guard case let .tcp(host, port) = try LinkAddress.parse("tcp:" + spec) else {
            throw .badAddress(text, reason: "use PORT or HOST:PORT")
        }
        return (host, port)
    }

    public convenience init(parsing text: String, options: Options = Options(), monotonicNs: (() -> UInt64)? = nil) throws(LinkError) {
        let (host, port) = try Self.parseAddress(text)
        try self.init(host: host, port: port, options: options, monotonicNs: monotonicNs)
    }

    public init(host: String, port: UInt16, options: Options = Options(), monotonicNs: (() -> UInt64)? = nil) throws(LinkError) {
        self.host = host
        self.options = options
        self.now = monotonicNs ?? { SystemClock().monotonicNs }
        guard LinkAddress.tcp(host: host, port: port).isLoopback || options.allowRemote else {
            throw .badAddress("\(host):\(port)", reason: "not a loopback address: serving the web app there needs --link-remote")
        }
        for o in options.origins where Self.normalOrigin(o) == nil {
            throw .badAddress(o, reason: "a web origin is http(s)://host[:port], nothing after")
        }
        root = try options.webRoot.map { dir throws(LinkError) in try WebRoot(dir) }
        let sockets = try StreamSockets(listening: .tcp(host: host, port: port), name: "\(host):\(port)")
        self.sockets = sockets
        self.port = sockets.port
        // The connections' deadlines: a timer in the same set.
        timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        do throws(LinkError) {
            guard timer >= 0 else { throw .system(what: "timerfd_create", reason: errnoText()) }
            try sockets.watch(timer, add: true)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Closes every connection, the listener and the timer.
    public func close() {
        for fd in conns.keys.sorted() { closeNow(fd) }
        if timer >= 0 { Glibc.close(timer) }
        timer = -1
        sockets?.close()
        sockets = nil
    }

    /// WebSocket clients connected now (upgraded, not closing).
    public var clientCount: Int { fdByClient.count }
    /// Connections in any state.
    public var connectionCount: Int { conns.count }

    /// The origins that may open the WebSocket: the served one on both loopback names (and on
    /// the bound address when it is not a wildcard), and those in `options.origins`.
    public var allowedOrigins: [String] {
        var list = ["http://localhost:\(port)", "http://127.0.0.1:\(port)"]
        if host != "0.0.0.0" && host != "127.0.0.1" { list.append("http://\(host):\(port)") }
        return list + options.origins.compactMap(Self.normalOrigin)
    }

    /// An origin in the form browsers send (`scheme://host[:port]`, lowercase, no default port),
    /// nil when it is not one.
    static func normalOrigin(_ s: String) -> String? {
        let lower = s.lowercased()
        let scheme: String
        if lower.hasPrefix("http://") { scheme = "http" } else if lower.hasPrefix("https://") { scheme = "https" } else { return nil }
        let rest = lower.dropFirst(scheme.count + 3)
        guard !rest.isEmpty, rest.allSatisfy({ $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "." || $0 == "-" || $0 == ":" }) else { return nil }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty else { return nil }
        if parts.count == 2 {
            guard let p = UInt16(parts[1]), p > 0 else { return nil }
            if (scheme == "http" && p == 80) || (scheme == "https" && p == 443) { return "\(scheme)://\(parts[0])" }
        }
        return "\(scheme)://\(rest)"
    }

    func originAllowed(_ origin: String) -> Bool {
        guard let o = Self.normalOrigin(origin) else { return false }
        return allowedOrigins.contains(o)
    }

    /// The Host header a loopback server answers to (a DNS-rebinding page sends its own name).
    func hostAllowed(_ host: String?) -> Bool {
        guard let host else { return false }
        if options.allowRemote { return true }
        let h = host.lowercased()
        return h == "localhost:\(port)" || h == "127.0.0.1:\(port)" || h == "\(self.host):\(port)"
    }

    /// The headers every HTTP answer carries.
    var securityHeaders: [(String, String)] {
        let ws = allowedOrigins.filter { $0.hasPrefix("http://") }.map { "ws://" + $0.dropFirst(7) }.joined(separator: " ")
        return [
            ("Content-Security-Policy", "default-src 'self'; connect-src 'self' \(ws); img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
            ("Cross-Origin-Resource-Policy", "same-origin"),
            ("X-Frame-Options", "DENY"),
        ]
    }

    // MARK: - PhoneLink

    public var fileDescriptor: Int32? { sockets?.epoll }

    public func receive() throws(HardwareError) -> [LinkEvent] {
        var events = pending
        pending = []
        guard let sockets else { return events }
        for r in try sockets.ready(device: "web link \(host):\(port)") {
            let fd = r.fd
            if fd == sockets.listener { accept(into: &events); continue }
            if fd == timer {
                var expirations: UInt64 = 0
                _ = Glibc.read(timer, &expirations, 8)
                armedNs = nil
                continue
            }
            guard conns[fd] != nil else { continue }
            if r.writable { flush(fd, into: &events) }
            if r.readable, conns[fd] != nil { read(fd, into: &events) }
        }
        expire(into: &events)
        arm()
        return events
    }

    public func send(_ frame: LinkFrame) throws(HardwareError) {
        guard let fd = fdByClient[frame.client], var conn = conns[fd], case .open = conn.phase else { return }
        conn.out += WebSocketFrame.encode(.binary, frame.bytes)
        conns[fd] = conn
        var events: [LinkEvent] = []
        flush(fd, into: &events)
        pending += events
    }

    /// The protocol drops a client (after its last error frame): close 1008, then the socket.
    public func disconnect(client c: Int) {
        guard let fd = fdByClient.removeValue(forKey: c) else { return }
        startClosing(fd, .policyViolation, "dropped by the device (see the error message before)")
        var events: [LinkEvent] = []
        flush(fd, into: &events)
        pending += events.filter { if case .disconnected(c) = $0 { false } else { true } }
    }

    // MARK: - Connections

    private func accept(into events: inout [LinkEvent]) {
        guard let sockets else { return }
        for _ in 0..<acceptBudget {
            guard let fd = sockets.accept() else { return }
            if conns.count >= options.maxConnections {
                let busy = HTTPResponse.text(503, "the device serves at most \(options.maxConnections) connections", headers: securityHeaders).bytes
                _ = busy.withUnsafeBytes { StreamSockets.write(fd, $0) }
                Glibc.close(fd)
                log?("web: connection refused: \(conns.count) open")
                continue
            }
            StreamSockets.tune(fd, sendBuffer: options.socketSendBuffer)
            do { try sockets.watch(fd, add: true) } catch { Glibc.close(fd); continue }
            conns[fd] = Conn(fd: fd, phase: .http([]), deadline: now() &+ UInt64(options.handshakeTimeoutMs) * 1_000_000)
        }
    }

    private func read(_ fd: Int32, into events: inout [LinkEvent]) {
        let (got, ended) = StreamSockets.read(fd, budget: readBudget)
        if !got.isEmpty { take(got, fd, into: &events) }
        if ended, conns[fd] != nil { gone(fd, into: &events) }
    }

    /// Bytes from a connection, by its phase.
    private func take(_ bytes: [UInt8], _ fd: Int32, into events: inout [LinkEvent]) {
        guard var conn = conns[fd] else { return }
        switch conn.phase {
        case .closing:
            return   // waiting for the peer's close: what it sends now is dropped
        case .http(var head):
            head += bytes
            switch HTTPRequest.parse(head, maxHeaderBytes: options.maxHeaderBytes) {
            case .incomplete:
                conn.phase = .http(head)
                conns[fd] = conn
            case .refused(let status, let reason):
                log?("web: request refused: \(status)")
                answer(fd, HTTPResponse.text(status, reason), into: &events)
            case let .complete(request, consumed):
                handle(request, rest: Array(head[consumed...]), fd, into: &events)
            }
        case .open(let c, var reader):
            let inputs = reader.feed(bytes)
            conn.phase = .open(c, reader)
            if reader.hasPartialMessage {
                if conn.deadline == nil { conn.deadline = now() &+ UInt64(options.fragmentTimeoutMs) * 1_000_000 }
            } else {
                conn.deadline = nil
            }
            conns[fd] = conn
            for input in inputs {
                switch input {
                case .message(_, let payload):
                    events.append(.frame(LinkFrame(client: c, bytes: payload)))
                case .ping(let payload):
                    conns[fd]?.out += WebSocketFrame.encode(.pong, payload)
                case .pong:
                    break
                case let .close(code, _):
                    fdByClient.removeValue(forKey: c)
                    events.append(.disconnected(client: c))
                    startClosing(fd, code ?? .normal, "")
                case let .failed(code, reason):
                    log?("web: client \(c) closed: \(code.rawValue)")
                    fdByClient.removeValue(forKey: c)
                    events.append(.disconnected(client: c))
                    startClosing(fd, code, reason)
                }
            }
            flush(fd, into: &events)
        }
    }

    private func handle(_ request: HTTPRequest, rest: [UInt8], _ fd: Int32, into events: inout [LinkEvent]) {
        guard hostAllowed(request.header("host")), request.count(of: "host") == 1 else {
            log?("web: request refused: 403 (Host)")
            answer(fd, HTTPResponse.text(403, "this server answers to localhost:\(port) and 127.0.0.1:\(port) only"), into: &events)
            return
        }
        guard request.path == "/link" else {
            guard let root else {
                answer(fd, HTTPResponse.text(404, "no web app is served here (deskpet-sim --web-root DIR)"), into: &events)
                return
            }
            let response = root.respond(to: request)
            if response.status >= 400 { log?("web: GET refused: \(response.status)") }
            answer(fd, response, into: &events)
            return
        }
        guard WebSocketHandshake.isUpgrade(request) else {
            answer(fd, HTTPResponse.text(426, "/link is the WebSocket: connect with a WebSocket client",
                                         headers: [("Upgrade", "websocket"), ("Sec-WebSocket-Version", "13")]), into: &events)
            return
        }
        switch WebSocketHandshake.check(request, originAllowed: originAllowed) {
        case .failure(let refusal):
            log?("web: handshake refused: \(refusal.status)")
            answer(fd, refusal.response, into: &events)
        case .success(let key):
            let c = nextClient
            nextClient += 1
            fdByClient[c] = fd
            conns[fd]?.out += WebSocketHandshake.response(key: key)
            conns[fd]?.phase = .open(c, WebSocketReader(role: .server, maxMessage: options.maxMessage, acceptsText: false))
            conns[fd]?.deadline = nil
            events.append(.connected(client: c))
            if rest.isEmpty { flush(fd, into: &events) } else { take(rest, fd, into: &events) }
        }
    }

    /// Sends an HTTP answer and closes after it.
    private func answer(_ fd: Int32, _ response: HTTPResponse, into events: inout [LinkEvent]) {
        var r = response
        r.headers += securityHeaders
        guard var conn = conns[fd] else { return }
        conn.out += r.bytes
        conn.phase = .closing
        conn.deadline = now() &+ UInt64(options.closeLingerMs) * 1_000_000
        conns[fd] = conn
        flush(fd, into: &events)
    }

    /// Queues a close frame; the socket is shut for writing once it is out, then closed when the
    /// peer closes or after `closeLingerMs`.
    private func startClosing(_ fd: Int32, _ code: WebSocketCloseCode, _ reason: String) {
        guard var conn = conns[fd] else { return }
        conn.out += WebSocketFrame.encode(.close, WebSocketFrame.closePayload(code, reason: reason))
        conn.phase = .closing
        conn.deadline = now() &+ UInt64(options.closeLingerMs) * 1_000_000
        conns[fd] = conn
    }

    private func flush(_ fd: Int32, into events: inout [LinkEvent]) {
        guard var conn = conns[fd] else { return }
        writing: while !conn.out.isEmpty {
            switch conn.out.withUnsafeBytes({ StreamSockets.write(fd, $0) }) {
            case .bytes(let n): conn.out.removeFirst(n)
            case .wouldBlock: break writing
            case .failed:
                conns[fd] = conn
                gone(fd, into: &events)
                return
            }
        }
        if conn.out.count > options.maxQueuedBytes {
            conns[fd] = conn
            log?("web: connection dropped: \(conn.out.count) bytes unread")
            gone(fd, into: &events)
            return
        }
        if conn.out.isEmpty, case .closing = conn.phase, !conn.shutDown {
            StreamSockets.shutdownWrites(fd)
            conn.shutDown = true
        }
        let wantOut = !conn.out.isEmpty
        if wantOut != conn.watchingOut {
            conn.watchingOut = wantOut
            try? sockets?.watch(fd, out: wantOut, add: false)
        }
        conns[fd] = conn
    }

    /// Connections past their deadline: a request head not in time (408), a fragmented message
    /// not finished (close 1008), a closing one the peer did not close.
    private func expire(into events: inout [LinkEvent]) {
        let t = now()
        for fd in conns.keys.sorted() {
            guard let conn = conns[fd], let d = conn.deadline, d <= t else { continue }
            switch conn.phase {
            case .http:
                log?("web: request refused: 408")
                answer(fd, HTTPResponse.text(408, "the request head did not come within \(options.handshakeTimeoutMs / 1000) s"), into: &events)
            case .open(let c, _):
                log?("web: client \(c) closed: fragmented message unfinished")
                fdByClient.removeValue(forKey: c)
                events.append(.disconnected(client: c))
                startClosing(fd, .policyViolation, "a fragmented message was left unfinished for \(options.fragmentTimeoutMs / 1000) s")
                flush(fd, into: &events)
            case .closing:
                closeNow(fd)
            }
        }
    }

    /// Arms the timer for the earliest deadline.
    private func arm() {
        guard timer >= 0 else { return }
        let next = conns.values.compactMap(\.deadline).min()
        guard next != armedNs else { return }
        armedNs = next
        var spec = itimerspec()
        if let next {
            let t = now()
            let wait = next > t ? next - t : 1
            spec.it_value.tv_sec = Int(wait / 1_000_000_000)
            spec.it_value.tv_nsec = Int(max(1, wait % 1_000_000_000))
        }
        timerfd_settime(timer, 0, &spec, nil)
    }

    /// The peer is gone (end of stream, an error) or must be: close now.
    private func gone(_ fd: Int32, into events: inout [LinkEvent]) {
        if let c = conns[fd]?.client, fdByClient[c] != nil {
            fdByClient.removeValue(forKey: c)
            events.append(.disconnected(client: c))
        }
        closeNow(fd)
    }

    private func closeNow(_ fd: Int32) {
        guard let conn = conns.removeValue(forKey: fd) else { return }
        if let c = conn.client { fdByClient.removeValue(forKey: c) }
        sockets?.close(fd)
    }

}
