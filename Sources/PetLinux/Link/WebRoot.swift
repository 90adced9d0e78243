#if canImport(Glibc)
import Glibc
#endif
import PetDevice
import PetLink

/// The companion web app's files, served read-only by `WebLink` (docs/companion.md, "Serving the
/// app from the device"). GET and HEAD of regular files under one folder, by an allow-list of
/// types; nothing else:
/// - no directory listing (a folder is its `index.html`, only when asked with a trailing slash);
/// - no way out of the folder: `..` and `.` segments (also percent-encoded: `%2e%2e`), an
///   encoded `/` or `\`, NUL, invalid escapes or UTF-8 are refused, and the file's real path
///   (symlinks resolved) must still be inside the folder's real path;
/// - no hidden files (a segment starting with `.`), no type outside the list, nothing over
///   `maxFileBytes`.
public struct WebRoot: Sendable {
    /// The folder's real path (symlinks resolved when opened).
    public let path: String
    public var maxFileBytes = 4 << 20
    public var maxTargetBytes = 1024

    /// The types served, by the file name's ending.
    public static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "json": "application/json",
        "webmanifest": "application/manifest+json",
        "png": "image/png",
        "svg": "image/svg+xml",
        "ico": "image/x-icon",
        "txt": "text/plain; charset=utf-8",
    ]

    public init(_ folder: String) throws(LinkError) {
        guard let real = Self.realPath(folder) else {
            throw .system(what: "web root \(folder)", reason: errnoText())
        }
        var st = stat()
        guard stat(real, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
            throw .system(what: "web root \(folder)", reason: "not a folder")
        }
        path = real
    }

    static func realPath(_ p: String) -> String? {
        guard let r = realpath(p, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }

    /// Where a request target leads: the file's path under the root and its type, or a refusal.
    public func resolve(_ target: String) -> Result<(file: String, type: String), WebSocketHandshake.Refusal> {
        guard target.utf8.count <= maxTargetBytes else { return .failure(.init(status: 414, reason: "the path is too long")) }
        guard target.hasPrefix("/") else { return .failure(.init(status: 400, reason: "the path must start with /")) }
        let raw = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        // Split first, then decode each segment: an encoded "/" can never make a new segment.
        var segments: [String] = []
        let pieces = raw.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (i, piece) in pieces.enumerated() {
            guard let seg = Self.percentDecode(piece) else {
                return .failure(.init(status: 400, reason: "a bad percent escape, a NUL or not UTF-8 in the path"))
            }
            if seg == "." || seg == ".." { return .failure(.init(status: 403, reason: "the path may not leave the web root")) }
            if seg.contains("/") || seg.contains("\\") { return .failure(.init(status: 403, reason: "an encoded slash or backslash in the path")) }
            if seg.isEmpty {
                // Only the last segment may be empty (a trailing slash: the folder's index.html).
                guard i == pieces.count - 1 else { return .failure(.init(status: 404, reason: "not found")) }
                segments.append("index.html")
                continue
            }
            if seg.hasPrefix(".") { return .failure(.init(status: 404, reason: "not found")) }
            segments.append(seg)
        }
        if segments.isEmpty { segments = ["index.html"] }
        let name = segments[segments.count - 1]
        guard let dot = name.lastIndex(of: "."), let type = Self.contentTypes[name[name.index(after: dot)...].lowercased()] else {
            return .failure(.init(status: 404, reason: "not found"))
        }
        let joined = path + "/" + segments.joined(separator: "/")
        guard let real = Self.realPath(joined) else { return .failure(.init(status: 404, reason: "not found")) }
        guard real.hasPrefix(path + "/") else { return .failure(.init(status: 403, reason: "the path may not leave the web root")) }
        return .success((real, type))
    }

    /// `%XX` escapes decoded; nil for a bad escape, a NUL, or bytes that are not UTF-8.
    static func percentDecode(_ s: Substring) -> String? {
        var out: [UInt8] = []
        var it = Array(s.utf8)[...]
        while let c = it.popFirst() {
            if c == UInt8(ascii: "%") {
                guard let h = it.popFirst(), let l = it.popFirst(), let hv = hex(h), let lv = hex(l) else { return nil }
                out.append(hv << 4 | lv)
            } else {
                out.append(c)
            }
        }
        guard !out.contains(0) else { return nil }
        return String(validating: out, as: UTF8.self)
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The answer to a GET or HEAD of `request.target` (the caller adds the security headers).
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .text(405, "only GET and HEAD", headers: [("Allow", "GET, HEAD")])
        }
        if let len = request.header("content-length"), len != "0" { return .text(400, "a GET has no body") }
        if request.header("transfer-encoding") != nil { return .text(400, "a GET has no body") }
        let file: String, type: String
        switch resolve(request.target) {
        case .failure(let r): return r.response
        case .success(let found): (file, type) = found
        }
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return .text(404, "not found") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return .text(404, "not found") }
        guard Int(st.st_size) <= maxFileBytes else { return .text(403, "the file is over the served size cap") }
        let etag = "\"\(st.st_size)-\(st.st_mtim.tv_sec)-\(st.st_mtim.tv_nsec)-\(st.st_ino)\""
        let headers: [(String, String)] = [("Content-Type", type), ("Cache-Control", "no-cache"), ("ETag", etag)]
        if let match = request.header("if-none-match"), match.split(separator: ",").contains(where: { $0.trimmingSpaces == etag }) {
            return HTTPResponse(status: 304, headers: headers)
        }
        var body = [UInt8](repeating: 0, count: Int(st.st_size))
        var got = 0
        while got < body.count {
            let n = body.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return .text(500, "the file could not be read") }
            got += n
        }
        var response = HTTPResponse(status: 200, headers: headers, body: body)
        response.headOnly = request.method == "HEAD"
        return response
    }
}
