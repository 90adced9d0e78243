/// The opening handshake (RFC 6455 §4): the server checks a client's upgrade request and
/// answers 101 with `Sec-WebSocket-Accept`; the client builds the request and checks that
/// answer. Pure: no I/O. No extension (permessage-deflate) and no subprotocol is agreed.
public enum WebSocketHandshake {
    /// §1.3: appended to the key before hashing.
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key`: base64(SHA-1(key ‖ GUID)) (§4.2.2).
    public static func accept(key: String) -> String {
        Base64.encode(SHA1.hash(Array((key + guid).utf8)))
    }

    /// A refusal: the HTTP status and why (sent as a short text body, then the connection closes).
    public struct Refusal: Error, Sendable, Equatable {
        public var status: Int
        public var reason: String
        public var headers: [(String, String)] = []
        public init(status: Int, reason: String, headers: [(String, String)] = []) {
            self.status = status; self.reason = reason; self.headers = headers
        }
        public static func == (a: Refusal, b: Refusal) -> Bool {
            a.status == b.status && a.reason == b.reason && a.headers.map(\.0) == b.headers.map(\.0) && a.headers.map(\.1) == b.headers.map(\.1)
        }
        public var response: HTTPResponse { .text(status, reason, headers: headers) }
    }

    /// True when the request asks for a WebSocket (`Upgrade: websocket`), right or wrong otherwise.
    public static func isUpgrade(_ r: HTTPRequest) -> Bool {
        r.listHeader("upgrade", contains: "websocket")
    }

    /// Checks a client's opening handshake (§4.2.1) and returns its key. `originAllowed` decides
    /// the `Origin` (a browser always sends one; a request without it comes from a program,
    /// which could send any Origin it liked, so it is let through).
    public static func check(_ r: HTTPRequest, originAllowed: (String) -> Bool) -> Result<String, Refusal> {
        guard r.method == "GET" else {
            return .failure(Refusal(status: 405, reason: "a WebSocket handshake is a GET", headers: [("Allow", "GET")]))
        }
        guard r.version == "HTTP/1.1" else { return .failure(Refusal(status: 400, reason: "a WebSocket handshake needs HTTP/1.1")) }
        guard r.count(of: "host") == 1 else { return .failure(Refusal(status: 400, reason: "exactly one Host header is needed")) }
        guard r.listHeader("upgrade", contains: "websocket") else {
            return .failure(Refusal(status: 400, reason: "Upgrade: websocket is missing"))
        }
        guard r.listHeader("connection", contains: "upgrade") else {
            return .failure(Refusal(status: 400, reason: "Connection: Upgrade is missing"))
        }
        guard r.count(of: "sec-websocket-version") == 1, r.header("sec-websocket-version") == "13" else {
            return .failure(Refusal(status: 426, reason: "only WebSocket version 13 is spoken",
                                    headers: [("Sec-WebSocket-Version", "13")]))
        }
        guard r.count(of: "sec-websocket-key") == 1, let key = r.header("sec-websocket-key") else {
            return .failure(Refusal(status: 400, reason: "Sec-WebSocket-Key is missing"))
        }
        guard let raw = Base64.decode(key), raw.count == 16 else {
            return .failure(Refusal(status: 400, reason: "Sec-WebSocket-Key is not 16 bytes in base64"))
        }
        if r.count(of: "origin") > 1 { return .failure(Refusal(status: 403, reason: "more than one Origin")) }
        if let origin = r.header("origin"), !originAllowed(origin) {
            return .failure(Refusal(status: 403, reason: "this origin may not connect (docs/companion.md: --web-origin)"))
        }
        if let len = r.header("content-length"), len != "0" {
            return .failure(Refusal(status: 400, reason: "a handshake has no body"))
        }
        if r.header("transfer-encoding") != nil { return .failure(Refusal(status: 400, reason: "a handshake has no body")) }
        return .success(key)
    }

    /// The server's 101 answer to a checked request.
    public static func response(key: String) -> [UInt8] {
        HTTPResponse(status: 101, headers: [
            ("Upgrade", "websocket"),
            ("Connection", "Upgrade"),
            ("Sec-WebSocket-Accept", accept(key: key)),
        ]).bytes
    }

    // MARK: - The client's side

    /// A client's opening handshake for `path` on `host` (e.g. `127.0.0.1:8080`), with a
    /// 16-byte nonce `key` (base64) and an optional Origin.
    public static func request(host: String, path: String = "/link", key: String, origin: String? = nil) -> [UInt8] {
        var s = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        s += "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { s += "Origin: \(origin)\r\n" }
        s += "\r\n"
        return Array(s.utf8)
    }

    /// What the client makes of the server's answer.
    public enum ClientResult: Sendable, Equatable {
        case incomplete
        /// Upgraded; `consumed` bytes were the HTTP head (any rest is WebSocket frames).
        case upgraded(consumed: Int)
        /// Not upgraded: the status line's code and why.
        case refused(status: Int, reason: String)
    }

    /// Checks the server's answer (§4.1): 101, `Upgrade: websocket`, `Connection: Upgrade`, the
    /// right `Sec-WebSocket-Accept`, no extension or subprotocol the client did not ask for.
    public static func checkResponse(_ bytes: [UInt8], key: String, maxHeaderBytes: Int = 8192) -> ClientResult {
        var end: Int?
        var i = 0
        while i + 3 < min(bytes.count, maxHeaderBytes) {
            if bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 { end = i; break }
            i += 1
        }
        guard let end else { return bytes.count >= maxHeaderBytes ? .refused(status: 0, reason: "the answer's head is too long") : .incomplete }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let status = lines[0].split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard status.count >= 2, status[0].hasPrefix("HTTP/1."), let code = Int(status[1]) else {
            return .refused(status: 0, reason: "not an HTTP answer")
        }
        guard code == 101 else { return .refused(status: code, reason: String(lines[0])) }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return .refused(status: 101, reason: "a header line without a colon") }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingSpaces
        }
        guard fields["upgrade"]?.lowercased() == "websocket" else { return .refused(status: 101, reason: "Upgrade: websocket missing") }
        guard fields["connection"]?.lowercased().split(separator: ",").contains(where: { $0.trimmingSpaces == "upgrade" }) == true else {
            return .refused(status: 101, reason: "Connection: Upgrade missing")
        }
        guard fields["sec-websocket-accept"] == accept(key: key) else { return .refused(status: 101, reason: "wrong Sec-WebSocket-Accept") }
        guard fields["sec-websocket-extensions"] == nil, fields["sec-websocket-protocol"] == nil else {
            return .refused(status: 101, reason: "an extension or subprotocol that was not asked for")
        }
        return .upgraded(consumed: end + 4)
    }
}
