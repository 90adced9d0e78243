#if canImport(Glibc)
import Glibc
#endif
// Glibc's socket names reach a module that also links CBluetooth through its headers.
import CBluetooth
import CLinux
import PetDevice
import PetLink

/// Nonblocking stream sockets in one epoll set — what the phone link's socket transports share
/// (`SocketLink`: TCP and Unix sockets; `WebLink`: HTTP and WebSocket on TCP): a listener, the
/// connections it accepts, the set the device loop waits on (the transport's `fileDescriptor`),
/// and reads and writes that never block. The transports keep their own per-client state.
public final class StreamSockets {
    /// The epoll set: readable when a connection waits or a watched socket is ready.
    public private(set) var epoll: Int32 = -1
    /// The listening socket.
    public private(set) var listener: Int32 = -1
    /// The TCP port actually bound (useful with port 0; 0 for a Unix socket).
    public private(set) var port: UInt16 = 0
    public let address: LinkAddress
    /// The Unix socket file is ours to remove (it was bound here).
    private var boundPath = false

    /// Listens on `address` (`name`: how errors name the place). A Unix socket file left by an
    /// earlier run is replaced; one a running process still serves is never taken over, and any
    /// other file at the path is not touched. The socket file is made private (0600).
    public init(listening address: LinkAddress, name: String) throws(LinkError) {
        self.address = address
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw .system(what: "epoll_create1", reason: errnoText()) }
        do { try open(name) } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private func open(_ name: String) throws(LinkError) {
        switch address {
        case let .tcp(host, port):
            listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard listener >= 0 else { throw .system(what: "socket \(name)", reason: errnoText()) }
            var one: Int32 = 1
            setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            guard let b = ipv4(host) else { throw .badAddress(name, reason: "not an IPv4 address") }
            var sa = sockaddr_in()
            sa.sin_family = sa_family_t(AF_INET)
            sa.sin_port = port.bigEndian
            sa.sin_addr.s_addr = UInt32(b.0) | UInt32(b.1) << 8 | UInt32(b.2) << 16 | UInt32(b.3) << 24
            let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            guard r == 0 else { throw .system(what: "bind \(name)", reason: errnoText()) }
            var bound = sockaddr_in()
            var len = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &len) } }
            self.port = UInt16(bigEndian: bound.sin_port)
        case .unix(let path):
            listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard listener >= 0 else { throw .system(what: "socket \(name)", reason: errnoText()) }
            var sa = sockaddr_un()
            sa.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            withUnsafeMutableBytes(of: &sa.sun_path) { raw in
                for (i, b) in bytes.enumerated() where i < raw.count - 1 { raw[i] = b }
            }
            var st = stat()
            if lstat(path, &st) == 0 {
                guard st.st_mode & S_IFMT == S_IFSOCK else { throw .badAddress(name, reason: "the path exists and is not a socket") }
                if Self.isServed(sa) {
                    throw .badAddress(name, reason: "another process (a running deskpet daemon or simulator) serves this socket; stop it first or choose another path")
                }
                unlink(path)
            }
            let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            guard r == 0 else { throw .system(what: "bind \(name)", reason: errnoText()) }
            boundPath = true
            chmod(path, 0o600)
        }
        guard listen(listener, 128) == 0 else { throw .system(what: "listen \(name)", reason: errnoText()) }
        try watch(listener, add: true)
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

    /// Adds `fd` to the set (`add`) or changes what it is watched for: readable, and writable
    /// when `out` (output is waiting for the kernel to take it).
    public func watch(_ fd: Int32, out: Bool = false, add: Bool) throws(LinkError) {
        var ev = epoll_event()
        ev.events = EPOLLIN.rawValue | (out ? EPOLLOUT.rawValue : 0)
        ev.data.fd = fd
        guard epoll_ctl(epoll, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &ev) == 0 else {
            throw .system(what: "epoll_ctl", reason: errnoText())
        }
    }

    /// A descriptor of the set that is ready.
    public struct Ready {
        public var fd: Int32
        /// Input, end of stream or an error is waiting (a read says which).
        public var readable: Bool
        /// The kernel takes output again.
        public var writable: Bool
    }

    /// What is ready now, at most 64 (never blocks; interrupted: nothing). `device` names the
    /// transport in the error.
    public func ready(device: String) throws(HardwareError) -> [Ready] {
        guard epoll >= 0 else { return [] }
        var ready = [epoll_event](repeating: epoll_event(), count: 64)
        let n = ready.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress!, Int32($0.count), 0) }
        if n < 0 {
            if errno == EINTR { return [] }
            throw HardwareError(device: device, operation: "epoll_wait", errno: errno)
        }
        return ready.prefix(Int(n)).map {
            Ready(fd: $0.data.fd, readable: $0.events & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0,
                  writable: $0.events & EPOLLOUT.rawValue != 0)
        }
    }

    /// A waiting connection, nonblocking and close-on-exec, not yet in the set (nil: none waits;
    /// another error is tried again at the next wake-up).
    public func accept() -> Int32? {
        let fd = Glibc.accept(listener, nil, nil)
        if fd < 0 { return nil }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// A TCP connection's options: no Nagle delay (frames are small and answered at once), and
    /// the send buffer's size when given.
    public static func tune(_ fd: Int32, sendBuffer: Int32? = nil) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if var size = sendBuffer { setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// Reads what is waiting, at most about `budget` bytes; `ended`: end of stream or an error
    /// (the peer is gone, after the bytes returned).
    public static func read(_ fd: Int32, budget: Int) -> (bytes: [UInt8], ended: Bool) {
        var got: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 16_384)
        while got.count < budget {
            let r = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if r > 0 { got.append(contentsOf: buf[0..<r]); continue }
            if r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            if r < 0 && errno == EINTR { continue }
            return (got, true)
        }
        return (got, false)
    }

    /// What a write did.
    public enum Written: Equatable {
        /// The kernel took this many bytes (more than 0).
        case bytes(Int)
        /// It takes nothing now (wait until the socket is writable).
        case wouldBlock
        /// The connection is broken.
        case failed
    }

    /// Writes what the kernel takes of `bytes` now (never SIGPIPE).
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Written {
        while true {
            let r = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if r > 0 { return .bytes(r) }
            if r < 0 && errno == EINTR { continue }
            if r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .wouldBlock }
            return .failed
        }
    }

    /// No more output from this end (the peer reads to the end, then sees the stream close).
    public static func shutdownWrites(_ fd: Int32) { shutdown(fd, Int32(SHUT_WR)) }

    /// Takes a connection out of the set and closes it.
    public func close(_ fd: Int32) {
        epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil)
        Glibc.close(fd)
    }

    /// Closes the listener (and removes the Unix socket file it bound) and the set.
    public func close() {
        if listener >= 0 {
            Glibc.close(listener); listener = -1
            if boundPath, case .unix(let path) = address { unlink(path) }
            boundPath = false
        }
        if epoll >= 0 { Glibc.close(epoll); epoll = -1 }
    }
}
