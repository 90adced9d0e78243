/// The client's side of a WebSocket as a pure codec (no I/O): the opening handshake, then masked
/// frames out and the server's frames in. The bench and the tests put it on a socket; a browser
/// has its own. Every frame it writes is masked with a fresh key from `random` (RFC 6455 §5.3).
public struct WebSocketClient {
    public let key: String
    private let random: SecureRandom
    private var head: [UInt8] = []
    public private(set) var upgraded = false
    /// The server refused the upgrade: its status (0: not HTTP) and status line.
    public private(set) var refusal: (status: Int, reason: String)?
    private var reader: WebSocketReader

    public init(random: SecureRandom = SystemRandom(), maxMessage: Int = 1 << 24) throws(LinkError) {
        self.random = random
        key = Base64.encode(try random.bytes(16))
        reader = WebSocketReader(role: .client, maxMessage: maxMessage, acceptsText: true)
    }

    /// The opening handshake to send first.
    public func request(host: String, path: String = "/link", origin: String? = nil) -> [UInt8] {
        WebSocketHandshake.request(host: host, path: path, key: key, origin: origin)
    }

    /// A masked frame (one whole message unless `fin` is false).
    public func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) throws(LinkError) -> [UInt8] {
        let k = try random.bytes(4)
        return WebSocketFrame.encode(opcode, payload, fin: fin, maskKey: (k[0], k[1], k[2], k[3]))
    }

    /// Bytes from the server: the handshake's answer first (checked), then frames. A refused
    /// handshake sets `refusal` and yields nothing.
    public mutating func feed(_ bytes: [UInt8]) -> [WebSocketInput] {
        guard refusal == nil else { return [] }
        if upgraded { return reader.feed(bytes) }
        head += bytes
        switch WebSocketHandshake.checkResponse(head, key: key) {
        case .incomplete: return []
        case let .refused(status, reason):
            refusal = (status, reason)
            return []
        case .upgraded(let consumed):
            upgraded = true
            let rest = Array(head[consumed...])
            head = []
            return rest.isEmpty ? [] : reader.feed(rest)
        }
    }
}
