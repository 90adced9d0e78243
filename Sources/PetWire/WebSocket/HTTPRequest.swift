/// One HTTP/1.x request head (RFC 9112 §2–5): the request line and the header fields. Only what
/// the device's web server needs (GET and HEAD of static files, the WebSocket upgrade): no body,
/// no folded lines, CRLF line ends, ASCII request line.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    /// The request target as sent (`/index.html?x`); `path` is it without query and fragment.
    public var target: String
    public var version: String
    /// Header fields in order, names lowercased, values trimmed of spaces and tabs.
    public var headers: [(name: String, value: String)]

    package init(method: String, target: String, version: String, headers: [(name: String, value: String)]) {
        self.method = method; self.target = target; self.version = version; self.headers = headers
    }

    public var path: Substring { target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0].split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0] }

    /// Every value of a field, joined with ", " (a list field may be sent as several lines).
    public func header(_ name: String) -> String? {
        let values = headers.filter { $0.name == name }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    public func count(of name: String) -> Int { headers.filter { $0.name == name }.count }

    /// True when the comma-separated list field `name` holds `token` (ASCII case-insensitive).
    public func listHeader(_ name: String, contains token: String) -> Bool {
        guard let v = header(name) else { return false }
        return v.split(separator: ",").contains { $0.trimmingSpaces.lowercased() == token.lowercased() }
    }

    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.target == b.target && a.version == b.version
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }

    public enum Parse: Sendable, Equatable {
        /// The head has not ended yet (and is still under the size limit).
        case incomplete
        /// The head, and how many bytes it took (anything after it is the next protocol's).
        case complete(HTTPRequest, consumed: Int)
        /// Refuse with this status (400, 431, 505) and close.
        case refused(status: Int, reason: String)
    }

    /// Parses a request head from the start of `bytes`. `maxHeaderBytes` bounds the head
    /// (431 beyond it, also while incomplete); `maxFields` the number of header lines (431).
    public static func parse(_ bytes: [UInt8], maxHeaderBytes: Int = 8192, maxFields: Int = 64) -> Parse {
        // Find the blank line that ends the head.
        var end: Int?
        var i = 0
        let limit = min(bytes.count, maxHeaderBytes)
        while i < limit {
            // A bare LF is refused at once (not waited on until the size limit).
            if bytes[i] == 10 && (i == 0 || bytes[i - 1] != 13) { return .refused(status: 400, reason: "a bare LF (lines end with CRLF)") }
            if i + 3 < limit, bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 { end = i; break }
            i += 1
        }
        guard let end else {
            return bytes.count >= maxHeaderBytes ? .refused(status: 431, reason: "the request head is over \(maxHeaderBytes) bytes") : .incomplete
        }
        let head = bytes[0..<end]
        var lines: [ArraySlice<UInt8>] = []
        var from = head.startIndex
        var j = head.startIndex
        while j < head.endIndex {
            if head[j] == 13 {
                guard j + 1 < head.endIndex, head[j + 1] == 10 else { return .refused(status: 400, reason: "a CR not followed by LF") }
                lines.append(head[from..<j]); j += 2; from = j; continue
            }
            if head[j] == 10 { return .refused(status: 400, reason: "a bare LF (lines end with CRLF)") }
            if head[j] == 0 { return .refused(status: 400, reason: "a NUL byte in the request head") }
            j += 1
        }
        lines.append(head[from..<head.endIndex])
        guard lines.count - 1 <= maxFields else { return .refused(status: 431, reason: "more than \(maxFields) header fields") }

        // Request line: METHOD SP TARGET SP HTTP/1.x, visible ASCII only.
        let line = lines[0]
        guard line.allSatisfy({ $0 > 32 && $0 < 127 || $0 == 32 }) else {
            return .refused(status: 400, reason: "the request line holds characters other than visible ASCII")
        }
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            return .refused(status: 400, reason: "the request line is not METHOD TARGET VERSION")
        }
        let method = String(decoding: parts[0], as: UTF8.self)
        guard method.utf8.allSatisfy(isTokenByte) else { return .refused(status: 400, reason: "the method is not a token") }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version.hasPrefix("HTTP/") else { return .refused(status: 400, reason: "the version is not HTTP/…") }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .refused(status: 505, reason: "only HTTP/1.0 and HTTP/1.1 are served")
        }
        let target = String(decoding: parts[1], as: UTF8.self)

        var headers: [(name: String, value: String)] = []
        for raw in lines.dropFirst() {
            guard let first = raw.first else { return .refused(status: 400, reason: "an empty header line") }
            if first == 32 || first == 9 { return .refused(status: 400, reason: "a folded header line (obsolete line folding is refused)") }
            guard let colon = raw.firstIndex(of: 58) else { return .refused(status: 400, reason: "a header line without a colon") }
            let name = raw[raw.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
                return .refused(status: 400, reason: "a header name that is not a token")
            }
            let value = raw[(colon + 1)...]
            guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
                return .refused(status: 400, reason: "a control character in a header value")
            }
            headers.append((String(decoding: name, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self).trimmingSpaces))
        }
        let request = HTTPRequest(method: method, target: target, version: version, headers: headers)
        return .complete(request, consumed: end + 4)
    }

    /// RFC 9110 §5.6.2 tchar.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(b)
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's OWS).
    package var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}

/// An HTTP/1.1 response head and body. `Connection: close` always: the device answers one
/// request per connection (the app is a handful of files, and a socket is freed at once).
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// HEAD: the head with the body's length, no body.
    public var headOnly = false

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status; self.headers = headers; self.body = body
    }

    /// A short plain-text answer (errors): the reason, then a line end.
    public static func text(_ status: Int, _ text: String, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Array((text + "\n").utf8))
    }

    public static func reason(_ status: Int) -> String {
        switch status {
        case 101: "Switching Protocols"
        case 200: "OK"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 414: "URI Too Long"
        case 426: "Upgrade Required"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }

    public var bytes: [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if status != 101 && status != 304 {
            head += "Content-Length: \(body.count)\r\n"
            head += "Connection: close\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + (headOnly || status == 304 ? [] : body)
    }
}
