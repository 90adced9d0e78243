#if canImport(Glibc)
import Glibc
#endif
import CLinux
import PetDevice

/// The phone link over TCP or a Unix stream socket: nonblocking sockets gathered in one epoll
/// descriptor (the loop's `fileDescriptor`), clients numbered from 1. No thread: `receive()`
/// accepts, reads what is waiting and flushes queued output; `send` writes what the kernel
/// takes and queues the rest (written when the socket is writable again). A client whose queue
/// grows past `maxQueuedBytes` (it does not read) is dropped, so it can never block the device.
///
/// TCP listens on loopback unless `allowRemote` (docs/protocol.md: the board or a flag must ask).
public final class SocketLink: PhoneLink {
    public let address: LinkAddress
    /// The TCP port actually bound (useful with port 0).
    public private(set) var port: UInt16 = 0
    /// Output a client may have queued before it is dropped.
    public var maxQueuedBytes = 1 << 20
    /// Bytes read per client per `receive()` at most (others get their turn; the rest waits).
    public var readBudget = 256 * 1024
    /// Connections accepted per `receive()` at most.
    public var acceptBudget = 64

    private var listener: Int32 = -1
    private var epoll: Int32 = -1
    private var clients: [Int: Client] = [:]
    private var clientByFD: [Int32: Int] = [:]
    private var nextClient = 1
    /// Disconnections found while sending (reported by the next `receive()`).
    private var pending: [LinkEvent] = []

    private struct Client {
        var fd: Int32
        /// Output not yet taken by the kernel: `out[head...]` (the front is dropped in one go
        /// once it is large, not after every write).
        var out: [UInt8] = []
        var head = 0
        var watchingOut = false
    }

    public convenience init(parsing text: String, allowRemote: Bool = false) throws(LinkError) {
        try self.init(try LinkAddress.parse(text), allowRemote: allowRemote)
    }

    public init(_ address: LinkAddress, allowRemote: Bool = false) throws(LinkError) {
        self.address = address
        guard address.isLoopback || allowRemote else {
            throw .badAddress(address.description, reason: "not a loopback address: listening there needs the board's link-remote setting or --link-remote")
        }
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw .system(what: "epoll_create1", reason: errnoText()) }
        do {
            try open()
        } catch {
            Glibc.close(epoll); epoll = -1
            if listener >= 0 { Glibc.close(listener); listener = -1 }
            throw error
        }
    }

    deinit { close() }

    private func open() throws(LinkError) {
        let where_ = address.description
        switch address {
        case let .tcp(host, port):
            listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard listener >= 0 else { throw .system(what: "socket \(where_)", reason: errnoText()) }
            var one: Int32 = 1
            setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            guard let b = ipv4(host) else { throw .badAddress(where_, reason: "not an IPv4 address") }
            var sa = sockaddr_in()
            sa.sin_family = sa_family_t(AF_INET)
            sa.sin_port = port.bigEndian
            sa.sin_addr.s_addr = (UInt32(b.0) | UInt32(b.1) << 8 | UInt32(b.2) << 16 | UInt32(b.3) << 24)
            let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            guard r == 0 else { throw .system(what: "bind \(where_)", reason: errnoText()) }
            var bound = sockaddr_in()
            var len = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &len) } }
            self.port = UInt16(bigEndian: bound.sin_port)
        case .unix(let path):
            listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard listener >= 0 else { throw .system(what: "socket \(where_)", reason: errnoText()) }
            var sa = sockaddr_un()
            sa.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            withUnsafeMutableBytes(of: &sa.sun_path) { raw in
                for (i, b) in bytes.enumerated() where i < raw.count - 1 { raw[i] = b }
            }
            // A socket file left by an earlier run is replaced; one a running process still serves
            // (it accepts a connection) is never taken over, and any other file is not touched.
            var st = stat()
            if lstat(path, &st) == 0 {
                guard st.st_mode & S_IFMT == S_IFSOCK else { throw .badAddress(where_, reason: "the path exists and is not a socket") }
                if Self.isServed(sa) {
                    throw .badAddress(where_, reason: "another process (a running deskpet daemon or simulator) serves this socket; stop it first or choose another path")
                }
                unlink(path)
            }
            let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            guard r == 0 else { throw .system(what: "bind \(where_)", reason: errnoText()) }
            chmod(path, 0o600)
        }
        guard listen(listener, 128) == 0 else { throw .system(what: "listen \(where_)", reason: errnoText()) }
        try watch(listener, out: false, add: true)
    }

    /// Whether a process listens on the Unix socket at `sa` (a connection is accepted; a socket
    /// file left by a process that ended refuses it with ECONNREFUSED).
    private static func isServed(_ address: sockaddr_un) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var sa = address
        let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        return r == 0 || errno == EAGAIN   // EAGAIN: its backlog is full, it is still alive
    }

    private func watch(_ fd: Int32, out: Bool, add: Bool) throws(LinkError) {
        var ev = epoll_event()
        ev.events = EPOLLIN.rawValue | (out ? EPOLLOUT.rawValue : 0)
        ev.data.fd = fd
        guard epoll_ctl(epoll, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &ev) == 0 else {
            throw .system(what: "epoll_ctl", reason: errnoText())
        }
    }

    /// Closes every connection and the listener (and removes the Unix socket file).
    public func close() {
        for c in clients.keys.sorted() { disconnect(client: c) }
        if listener >= 0 {
            Glibc.close(listener); listener = -1
            if case .unix(let path) = address { unlink(path) }
        }
        if epoll >= 0 { Glibc.close(epoll); epoll = -1 }
    }

    public var clientCount: Int { clients.count }

    public func queuedBytes(client: Int) -> Int { clients[client].map { $0.out.count - $0.head } ?? 0 }

    // MARK: - PhoneLink

    public var fileDescriptor: Int32? { epoll >= 0 ? epoll : nil }

    public func receive() throws(HardwareError) -> [LinkEvent] {
        var events = pending
        pending = []
        guard epoll >= 0 else { return events }
        var ready = [epoll_event](repeating: epoll_event(), count: 64)
        let n = ready.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, Int32($0.count), 0) }
        if n < 0 {
            if errno == EINTR { return events }
            throw HardwareError(device: "phone link \(address)", operation: "epoll_wait", errno: errno)
        }
        for i in 0..<Int(n) {
            let fd = ready[i].data.fd
            let flags = ready[i].events
            if fd == listener { accept(into: &events); continue }
            guard let c = clientByFD[fd] else { continue }
            if flags & EPOLLOUT.rawValue != 0 { flush(c, into: &events) }
            if flags & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0, clients[c] != nil { read(c, into: &events) }
        }
        return events
    }

    public func send(_ frame: LinkFrame) throws(HardwareError) {
        guard var client = clients[frame.client] else { return }
        client.out.append(contentsOf: frame.bytes)
        clients[frame.client] = client
        var events: [LinkEvent] = []
        flush(frame.client, into: &events)
        pending += events
    }

    public func disconnect(client c: Int) {
        guard let client = clients.removeValue(forKey: c) else { return }
        clientByFD.removeValue(forKey: client.fd)
        // Last words (an error frame) go out if the kernel takes them now.
        if client.out.count > client.head {
            _ = client.out.withUnsafeBytes { Glibc.send(client.fd, $0.baseAddress! + client.head, $0.count - client.head, Int32(MSG_NOSIGNAL)) }
        }
        epoll_ctl(epoll, EPOLL_CTL_DEL, client.fd, nil)
        shutdown(client.fd, Int32(SHUT_WR))
        Glibc.close(client.fd)
    }

    // MARK: - Work

    private func accept(into events: inout [LinkEvent]) {
        for _ in 0..<acceptBudget {
            let fd = Glibc.accept(listener, nil, nil)
            if fd < 0 { return }   // EAGAIN: no more waiting (other errors: the next wake-up tries again)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if case .tcp = address {
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            do { try watch(fd, out: false, add: true) } catch { Glibc.close(fd); continue }
            let c = nextClient
            nextClient += 1
            clients[c] = Client(fd: fd)
            clientByFD[fd] = c
            events.append(.connected(client: c))
        }
    }

    private func read(_ c: Int, into events: inout [LinkEvent]) {
        guard let fd = clients[c]?.fd else { return }
        var got: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 16_384)
        while got.count < readBudget {
            let r = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if r > 0 { got.append(contentsOf: buf[0..<r]); continue }
            if r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            if r < 0 && errno == EINTR { continue }
            // End of stream or an error: the client is gone (after what it sent).
            if !got.isEmpty { events.append(.frame(LinkFrame(client: c, bytes: got))) }
            gone(c, into: &events)
            return
        }
        if !got.isEmpty { events.append(.frame(LinkFrame(client: c, bytes: got))) }
    }

    private func flush(_ c: Int, into events: inout [LinkEvent]) {
        guard var client = clients[c] else { return }
        while client.head < client.out.count {
            let r = client.out.withUnsafeBytes { Glibc.send(client.fd, $0.baseAddress! + client.head, $0.count - client.head, Int32(MSG_NOSIGNAL)) }
            if r > 0 { client.head += r; continue }
            if r < 0 && errno == EINTR { continue }
            if r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            clients[c] = client
            gone(c, into: &events)
            return
        }
        if client.head == client.out.count { client.out.removeAll(keepingCapacity: client.out.count <= 65_536); client.head = 0 }
        else if client.head >= 65_536 { client.out.removeFirst(client.head); client.head = 0 }
        if client.out.count - client.head > maxQueuedBytes {
            clients[c] = client
            gone(c, into: &events)
            return
        }
        let wantOut = client.head < client.out.count
        if wantOut != client.watchingOut {
            client.watchingOut = wantOut
            try? watch(client.fd, out: wantOut, add: false)
        }
        clients[c] = client
    }

    private func gone(_ c: Int, into events: inout [LinkEvent]) {
        guard let client = clients.removeValue(forKey: c) else { return }
        clientByFD.removeValue(forKey: client.fd)
        epoll_ctl(epoll, EPOLL_CTL_DEL, client.fd, nil)
        Glibc.close(client.fd)
        events.append(.disconnected(client: c))
    }

}
