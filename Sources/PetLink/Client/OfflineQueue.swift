#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PetDevice

/// A command as the phone keeps it until the device answers: its client-chosen id (kept across
/// retries, so the device applies it at most once), name and fields (strings).
public struct QueuedCommand: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var fields: [String: String]
    /// Unix seconds when it was queued (informational).
    public var queuedAt: Int64?

    enum CodingKeys: String, CodingKey { case id, name, fields, queuedAt = "queued_at" }

    public init(id: String, name: String, fields: [String: String] = [:], queuedAt: Int64? = nil) {
        self.id = id; self.name = name; self.fields = fields; self.queuedAt = queuedAt
    }
}

/// Errors of the phone's local files (the state directory).
public struct ClientStateError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var what: String
    public init(path: String, what: String) { self.path = path; self.what = what }
    public var description: String { "\(path): \(what)" }
}

/// The offline queue: commands not yet answered by the device, one JSON object per line, in
/// the order they were made. Every change rewrites the file atomically (a temporary file in the
/// same folder, fsync, rename), mode 0600, so a crash leaves the old queue or the new one.
public struct OfflineQueue {
    public let path: String
    public private(set) var items: [QueuedCommand]

    /// Loads the queue (empty when the file does not exist).
    public init(path: String) throws(ClientStateError) {
        self.path = path
        items = []
        guard let text = try StateFile.read(path, limit: StateFile.queueLimit) else { return }
        var lineNo = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            lineNo += 1
            guard let c = try? JSONDecoder().decode(QueuedCommand.self, from: Data(line.utf8)) else {
                throw ClientStateError(path: path, what: "line \(lineNo) is not a queued command")
            }
            items.append(c)
        }
    }

    public var count: Int { items.count }

    public mutating func append(_ commands: [QueuedCommand]) throws(ClientStateError) {
        items += commands
        try save()
    }

    /// Drops the commands with these ids (answered by the device).
    public mutating func remove(ids: Set<String>) throws(ClientStateError) {
        guard !ids.isEmpty else { return }
        items.removeAll { ids.contains($0.id) }
        try save()
    }

    public func save() throws(ClientStateError) {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out: [UInt8] = []
        for c in items {
            guard let d = try? enc.encode(c) else { throw ClientStateError(path: path, what: "a queued command cannot be encoded") }
            out += d; out.append(0x0A)
        }
        // Never write a queue that could not be read back.
        guard out.count <= StateFile.queueLimit else {
            throw ClientStateError(path: path, what: "the offline queue would hold more than \(StateFile.queueLimit) bytes: nothing was queued; send what is queued first")
        }
        try StateFile.writeAtomically(path, out)
    }
}

/// Small files of the state directory: read whole, written atomically with mode 0600.
public enum StateFile {
    /// The most a state file may hold (docs/deskpetctl.md, "Files"): the token file and
    /// `last_seq` are a few dozen bytes; the offline queue and a `batch FILE` at most 8 MiB.
    public static let tokenLimit = 4 << 10
    public static let lastSeqLimit = 64
    public static let queueLimit = 8 << 20
    public static let batchLimit = 8 << 20

    /// The file's text, or nil when it does not exist. Only a regular file of at most `limit`
    /// bytes is read: a device (`/dev/zero` would grow without end), a FIFO (it would wait for a
    /// writer), a folder or a larger file is an error saying so, before anything is read.
    public static func read(_ path: String, limit: Int) throws(ClientStateError) -> String? {
        // O_NONBLOCK: opening a FIFO does not wait for a writer (it is refused just below).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw ClientStateError(path: path, what: "cannot open: \(errnoText())")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ClientStateError(path: path, what: "cannot inspect: \(errnoText())") }
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw ClientStateError(path: path, what: "is not a regular file (a device, FIFO, socket or folder); nothing was read")
        }
        guard st.st_size <= limit else {
            throw ClientStateError(path: path, what: "is \(st.st_size) bytes, more than the \(limit) bytes such a file may hold")
        }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw ClientStateError(path: path, what: "cannot read: \(errnoText())")
            }
            if n == 0 { break }
            out += buf[0..<n]
            // It may grow while being read.
            guard out.count <= limit else { throw ClientStateError(path: path, what: "is more than the \(limit) bytes such a file may hold") }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes `bytes` atomically through the one file writer (`PetDevice.writeFile`: a temporary
    /// file beside `path`, every write checked, fsync, rename, fsync of the folder), mode 0600.
    public static func writeAtomically(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o600) throws(ClientStateError) {
        do { try writeFile(path, bytes, mode: mode) } catch { throw ClientStateError(path: path, what: error.message) }
    }

    /// Creates the directory (and its parents) with mode 0700 when missing.
    public static func makeDirectory(_ path: String) throws(ClientStateError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw ClientStateError(path: prefix, what: "cannot create the folder: \(errnoText())")
            }
        }
    }
}
