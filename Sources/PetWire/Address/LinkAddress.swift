/// Where the phone link listens: `tcp:HOST:PORT` (IPv4; `localhost` is 127.0.0.1; port 0 picks a
/// free one) or `unix:PATH` (a stream socket, mode 0600).
public enum LinkAddress: Sendable, Equatable, CustomStringConvertible {
    case tcp(host: String, port: UInt16)
    case unix(path: String)

    public static func parse(_ text: String) throws(LinkError) -> LinkAddress {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw .badAddress(text, reason: "unix: needs a path") }
            guard path.utf8.count < 108 else { throw .badAddress(text, reason: "a Unix socket path must be under 108 bytes") }
            return .unix(path: path)
        }
        if text.hasPrefix("tcp:") {
            let rest = text.dropFirst(4)
            guard let colon = rest.lastIndex(of: ":") else { throw .badAddress(text, reason: "use tcp:HOST:PORT") }
            var host = String(rest[..<colon])
            if host == "localhost" || host.isEmpty { host = "127.0.0.1" }
            guard let port = UInt16(rest[rest.index(after: colon)...]) else { throw .badAddress(text, reason: "the port must be 0–65535") }
            guard ipv4(host) != nil else { throw .badAddress(text, reason: "the host must be an IPv4 address such as 127.0.0.1") }
            return .tcp(host: host, port: port)
        }
        throw .badAddress(text, reason: "use tcp:HOST:PORT or unix:PATH")
    }

    /// True for addresses only this machine can reach (127.0.0.0/8, Unix sockets).
    public var isLoopback: Bool {
        switch self {
        case .unix: true
        case .tcp(let host, _): ipv4(host)?.0 == 127
        }
    }

    public var description: String {
        switch self {
        case let .tcp(host, port): "tcp:\(host):\(port)"
        case .unix(let path): "unix:\(path)"
        }
    }
}

/// The four bytes of a dotted IPv4 address.
package func ipv4(_ s: String) -> (UInt8, UInt8, UInt8, UInt8)? {
    let parts = s.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var b: [UInt8] = []
    for p in parts {
        guard !p.isEmpty, p.count <= 3, p.allSatisfy(\.isASCII), let v = UInt8(p) else { return nil }
        b.append(v)
    }
    return (b[0], b[1], b[2], b[3])
}
