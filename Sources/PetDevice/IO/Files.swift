#if canImport(Glibc)
import Glibc
#endif

// The one home of DeskPet's file helpers (the device, the simulator and the bench all use these).
// Writes are atomic: a temporary file next to the target, written, flushed, fsynced and renamed
// over it, so a crash or a full disk never leaves a half-written file behind and a failure is
// always an error.

/// A file operation that failed: the path and what went wrong (the system's reason). Never holds
/// the file's contents.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    public init(path: String, message: String) { self.path = path; self.message = message }
    public var description: String { "\(path): \(message)" }
}

/// The current errno as text.
public func errnoText() -> String { String(cString: strerror(errno)) }

/// Reads a whole file; nil if it cannot be opened or read, or is larger than `limit` bytes.
public func readFile(_ path: String, limit: Int = 1 << 20) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 16_384)
    while true {
        let n = buf.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
        if n > 0 { out.append(contentsOf: buf[0..<n]) }
        if n < buf.count { break }
        if out.count > limit { return nil }
    }
    return ferror(f) == 0 && out.count <= limit ? out : nil
}

/// Reads a UTF-8 text file (at most `limit` bytes).
public func readTextFile(_ path: String, limit: Int = 64 << 20) throws(FileError) -> String {
    guard let bytes = readFile(path, limit: limit) else {
        throw FileError(path: path, message: "cannot read (missing, unreadable, or larger than \(limit) bytes)")
    }
    guard let s = String(validating: bytes, as: UTF8.self) else { throw FileError(path: path, message: "is not UTF-8 text") }
    return s
}

/// Writes `bytes` to `path` atomically (temporary file, fsync, rename), with `mode` permissions
/// (0o600 for the owner's personal files). Every step is checked: a full disk is an error.
public func writeFile(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o644) throws(FileError) {
    let tmp = path + ".tmp-\(getpid())"
    let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard fd >= 0 else { throw FileError(path: path, message: "cannot create file (\(errnoText()))") }
    var failure: String?
    var offset = 0
    bytes.withUnsafeBytes { raw in
        while offset < raw.count {
            let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 { if errno == EINTR { continue }; failure = "write failed (\(errnoText()))"; return }
            offset += n
        }
    }
    if failure == nil, fsync(fd) != 0 { failure = "fsync failed (\(errnoText()))" }
    if close(fd) != 0, failure == nil { failure = "close failed (\(errnoText()))" }
    if failure == nil, rename(tmp, path) != 0 { failure = "cannot rename into place (\(errnoText()))" }
    if let failure {
        unlink(tmp)
        throw FileError(path: path, message: failure)
    }
}

/// Creates a directory and its parents (like mkdir -p).
public func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(FileError) {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
        current += "/" + part
        if mkdir(current, mode) != 0 && errno != EEXIST {
            throw FileError(path: current, message: "cannot create directory (\(errnoText()))")
        }
    }
}

/// Removes a file if it exists.
public func removeFile(_ path: String) { unlink(path) }

/// Writes a line to standard error.
public func printError(_ s: String) {
    let line = s.hasSuffix("\n") ? s : s + "\n"
    var bytes = Array(line.utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

/// Flushes standard output (progress lines appear at once even when piped).
public func flushOutput() { fflush(nil) }
