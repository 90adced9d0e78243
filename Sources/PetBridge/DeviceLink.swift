#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PetIO
import PetWire

/// The bridge's connection to the daemon's link (docs/protocol.md): a non-blocking stream socket
/// (Unix, or TCP on loopback) carrying frames both ways, read when `poll` says so.
public final class DeviceLink {
    public let fd: Int32
    public let address: LinkAddress
    private var decoder = FrameDecoder(maxBody: Frame.maxBody)
    private var outbox: [UInt8] = []
    /// Output the device has not read yet, at most (beyond it the link is dropped and made again).
    public static let outboxLimit = 4 << 20

    public init(address: LinkAddress) throws(BridgeError) {
        self.address = address
        let s: Int32
        switch address {
        case let .tcp(host, port):
            s = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard s >= 0 else { throw .link("socket: \(errnoText())") }
            var sa = sockaddr_in()
            sa.sin_family = sa_family_t(AF_INET)
            sa.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &sa.sin_addr) == 1 else { close(s); throw .link("\(address): not an IPv4 address") }
            let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            guard r == 0 else { let e = errnoText(); close(s); throw .link("\(address): \(e)") }
            var one: Int32 = 1
            setsockopt(s, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        case .unix(let path):
            s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard s >= 0 else { throw .link("socket: \(errnoText())") }
            var sa = sockaddr_un()
            sa.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: sa.sun_path) else { close(s); throw .link("\(address): the path is too long") }
            withUnsafeMutableBytes(of: &sa.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
            let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            guard r == 0 else { let e = errnoText(); close(s); throw .link("\(address): \(e)") }
        }
        _ = fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK)
        fd = s
    }

    deinit { close(fd) }

    public var wantsWrite: Bool { !outbox.isEmpty }

    /// Queues a message and writes what the socket takes now.
    public func send(_ message: [String: JSONValue]) throws(BridgeError) {
        let body = MessageEncoder.body(JSONValue.object(message))
        guard body.count <= Frame.maxBody else { throw .link("a message of \(body.count) bytes is over the frame limit") }
        outbox += Frame.encode(body)
        guard outbox.count <= Self.outboxLimit else { throw .link("the device has not read \(outbox.count) bytes") }
        try flush()
    }

    public func flush() throws(BridgeError) {
        while !outbox.isEmpty {
            let n = outbox.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { outbox.removeFirst(n); continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            throw .link("send: \(n == 0 ? "closed" : errnoText())")
        }
    }

    /// Whatever whole messages can be read now. Throws when the device closed the connection or
    /// sent something that is not a frame of a JSON object.
    public func receive() throws(BridgeError) -> [[String: JSONValue]] {
        var out: [[String: JSONValue]] = []
        var buf = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buf.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { throw .link("the device closed the connection") }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return out }
                throw .link("recv: \(errnoText())")
            }
            let bodies: [[UInt8]]
            do { bodies = try decoder.feed(Array(buf[0..<n])) } catch { throw .link(error.description) }
            for b in bodies {
                guard case .object(let o)? = try? JSONDecoder().decode(JSONValue.self, from: Data(b)), case .string? = o["type"] else {
                    throw .link("a frame that is not a JSON object with a type")
                }
                out.append(o)
            }
        }
    }
}
