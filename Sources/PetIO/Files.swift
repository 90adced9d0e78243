#if canImport(Glibc)
import Glibc
#endif

// The one home of DeskPet's file helpers (the device, the simulator, the tools and the bench all
// use these). Every file DeskPet writes goes through `writeFile`: a temporary file in the same
// folder, written whole, fsynced, closed, renamed over the target, and the folder fsynced, every
// step checked — so a crash or a full disk never leaves a half-written file behind and a failure
// is always an error (docs/storage.md#writing-files).

/// A file operation that failed: the path, what went wrong (the system's reason) and the errno
/// (0 when the problem is not a system error). Never holds the file's contents.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    /// The system error number (ENOSPC for a full disk), or 0.
    public var code: Int32
    public init(path: String, message: String, code: Int32 = 0) { self.path = path; self.message = message; self.code = code }
    public var description: String { "\(path): \(message)" }
}

/// Modes for the owner's personal files and folders (journals, exports, snapshots, keys).
public enum FileModes {
    public static let personalFile: mode_t = 0o600
    public static let personalFolder: mode_t = 0o700
}

/// The system calls a file write goes through. Tests replace one to make that step fail the way
/// a full disk or a failing card would (each call sets `errno` like the real one).
public struct FileWriteCalls: Sendable {
    public var write: @Sendable (Int32, UnsafeRawPointer, Int) -> Int
    public var fsync: @Sendable (Int32) -> Int32
    public var close: @Sendable (Int32) -> Int32
    public var rename: @Sendable (String, String) -> Int32
    public init(write: @escaping @Sendable (Int32, UnsafeRawPointer, Int) -> Int,
                fsync: @escaping @Sendable (Int32) -> Int32,
                close: @escaping @Sendable (Int32) -> Int32,
                rename: @escaping @Sendable (String, String) -> Int32) {
        self.write = write; self.fsync = fsync; self.close = close; self.rename = rename
    }
    /// The real system calls.
    public static let system = FileWriteCalls(
        write: { fd, p, n in Glibc.write(fd, p, n) },
        fsync: { fd in Glibc.fsync(fd) },
        close: { fd in Glibc.close(fd) },
        rename: { a, b in Glibc.rename(a, b) })
}

/// Writes all of `bytes` to `fd`, retrying short writes and EINTR. Returns 0, or the errno of the
/// failure (a write that makes no progress counts as ENOSPC).
public func writeAll(_ fd: Int32, _ bytes: [UInt8], calls: FileWriteCalls = .system) -> Int32 {
    var offset = 0
    var failure: Int32 = 0
    bytes.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }
        while offset < raw.count {
            errno = 0
            let n = calls.write(fd, base + offset, raw.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno == 0 ? EIO : errno
                return
            }
            if n == 0 { failure = ENOSPC; return }
            offset += n
        }
    }
    return failure
}

/// The folder part of a path ("." for a bare name).
public func folderOf(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let dir = String(path[..<slash])
    return dir.isEmpty ? "/" : dir
}

/// Writes `bytes` to `path` atomically with `mode` permissions (default 0600: most of what
/// DeskPet writes is the owner's personal data): a temporary file in the same folder, every write
/// checked, fsync, close checked, rename over `path`, fsync of the folder. Any failure is a
/// `FileError` (the target is then unchanged and the temporary file removed). With `owner`, the
/// new file is given that user and group before it is renamed into place (a file another program
/// reads, such as a broker's ACL, keeps its owner).
public func writeFile(_ path: String, _ bytes: [UInt8], mode: mode_t = FileModes.personalFile,
                      owner: (uid: uid_t, gid: gid_t)? = nil,
                      calls: FileWriteCalls = .system) throws(FileError) {
    let folder = folderOf(path)
    let name = path.split(separator: "/").last.map(String.init) ?? path
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    var fd: Int32 = -1
    var tmp = ""
    for attempt in 0..<8 {
        tmp = "\(folder)/.\(name).tmp-\(getpid())-\(ts.tv_nsec)-\(attempt)"
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        if fd >= 0 || errno != EEXIST { break }
    }
    guard fd >= 0 else {
        let e = errno
        throw FileError(path: path, message: "cannot create file (\(errnoText(e)))", code: e)
    }
    var failure: (String, Int32)?
    if let owner, fchown(fd, owner.uid, owner.gid) != 0 { failure = ("cannot give the new file the old one's owner", errno) }
    if failure == nil, fchmod(fd, mode) != 0 { failure = ("cannot set its mode", errno) }   // the umask must not loosen it
    if failure == nil {
        let e = writeAll(fd, bytes, calls: calls)
        if e != 0 { failure = ("write failed", e) }
    }
    if failure == nil, calls.fsync(fd) != 0 { failure = ("fsync failed", errno) }
    if calls.close(fd) != 0, failure == nil { failure = ("close failed", errno) }
    if failure == nil, calls.rename(tmp, path) != 0 { failure = ("cannot rename into place", errno) }
    if let (what, e) = failure {
        unlink(tmp)
        throw FileError(path: path, message: "\(what) (\(errnoText(e)))", code: e)
    }
    // The rename is durable only once the folder's entry is on the disk.
    let dfd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if dfd >= 0 {
        let r = calls.fsync(dfd)
        let e = errno
        close(dfd)
        // Some file systems cannot fsync a folder (EINVAL); there is nothing more to do there.
        if r != 0 && e != EINVAL { throw FileError(path: path, message: "fsync of the folder failed (\(errnoText(e)))", code: e) }
    }
}

/// Reads a whole regular file of at most `limit` bytes. Anything else — a FIFO, a device such as
/// /dev/zero, a folder — is refused without blocking: the file is opened non-blocking and checked
/// with fstat before a byte is read.
public func readRegularFile(_ path: String, limit: Int = 1 << 20) throws(FileError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard fd >= 0 else { let e = errno; throw FileError(path: path, message: "cannot open (\(errnoText(e)))", code: e) }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { let e = errno; throw FileError(path: path, message: "cannot stat (\(errnoText(e)))", code: e) }
    let type = st.st_mode & S_IFMT
    guard type == S_IFREG else {
        let what = switch type {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a file"
        }
        throw FileError(path: path, message: "is not a regular file (it is \(what))")
    }
    if st.st_size > limit { throw FileError(path: path, message: "is larger than \(limit) bytes") }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 16_384)
    while true {
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            let e = errno
            throw FileError(path: path, message: "cannot read (\(errnoText(e)))", code: e)
        }
        if n == 0 { break }
        out.append(contentsOf: buf[0..<n])
        // procfs and sysfs files report size 0: the limit is checked on what arrives, exactly.
        if out.count > limit { throw FileError(path: path, message: "is larger than \(limit) bytes") }
    }
    return out
}

/// Reads a whole regular file; nil if it cannot be opened or read, is not a regular file, or is
/// larger than `limit` bytes (`readRegularFile` says which).
public func readFile(_ path: String, limit: Int = 1 << 20) -> [UInt8]? {
    try? readRegularFile(path, limit: limit)
}

/// Reads a UTF-8 text file (at most `limit` bytes); a byte-order mark is kept (parsers skip it).
public func readTextFile(_ path: String, limit: Int = 64 << 20) throws(FileError) -> String {
    let bytes = try readRegularFile(path, limit: limit)
    guard let s = String(validating: bytes, as: UTF8.self) else { throw FileError(path: path, message: "is not UTF-8 text") }
    return s
}

/// Creates a directory and its parents (like mkdir -p); new folders get `mode` (default 0700).
public func makeDirectories(_ path: String, mode: mode_t = FileModes.personalFolder) throws(FileError) {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
        current += "/" + part
        if mkdir(current, mode) != 0 && errno != EEXIST {
            let e = errno
            throw FileError(path: current, message: "cannot create directory (\(errnoText(e)))", code: e)
        }
    }
}

/// Creates a folder for personal files (and its parents) and makes sure the folder itself is 0700
/// even when it already existed with a looser mode.
public func makePrivateDirectory(_ path: String) throws(FileError) {
    try makeDirectories(path, mode: FileModes.personalFolder)
    var st = stat()
    guard stat(path, &st) == 0 else { let e = errno; throw FileError(path: path, message: "cannot stat (\(errnoText(e)))", code: e) }
    guard st.st_mode & S_IFMT == S_IFDIR else { throw FileError(path: path, message: "is not a folder") }
    if st.st_mode & 0o777 != FileModes.personalFolder, st.st_uid == geteuid() {
        guard chmod(path, FileModes.personalFolder) == 0 else {
            let e = errno
            throw FileError(path: path, message: "cannot make the folder private (\(errnoText(e)))", code: e)
        }
    }
}

/// A name turned into one safe path component: no "/", no control characters, not "." or "..",
/// not empty, not starting with "." (hidden) or "-". Anything unsafe becomes "_"; an empty or
/// all-dots result becomes `fallback`. Output paths derived from names use it so they never leave
/// their folder.
public func safePathComponent(_ name: String, fallback: String = "unnamed") -> String {
    var out = ""
    for u in name.unicodeScalars.prefix(100) {
        if u == "/" || u == "\\" || u.value < 0x20 || u.value == 0x7F || (0x80..<0xA0).contains(u.value) {
            out.append("_")
        } else {
            out.unicodeScalars.append(u)
        }
    }
    while out.hasPrefix(".") || out.hasPrefix("-") { out.removeFirst() }
    out = String(out.drop { $0 == " " })
    if out.isEmpty { return fallback }
    return out
}

/// Removes a file if it exists.
public func removeFile(_ path: String) { unlink(path) }

/// Writes a line to standard error.
public func printError(_ s: String) {
    let line = s.hasSuffix("\n") ? s : s + "\n"
    var bytes = Array(line.utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

/// Set when a flush of standard output failed (see `outputSucceeded`).
nonisolated(unsafe) private var outputFlushFailed = false

/// Flushes standard output (progress lines appear at once even when piped); a failure is
/// remembered for `outputSucceeded`.
public func flushOutput() { if fflush(nil) != 0 { outputFlushFailed = true } }

/// Flushes standard output and reports whether everything printed reached it (false on a full
/// disk or a closed pipe): a tool then exits non-zero instead of claiming success.
public func outputSucceeded() -> Bool { fflush(nil) == 0 && !outputFlushFailed }
