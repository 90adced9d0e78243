import FoundationEssentials
import PetCore
import PetStore
#if canImport(Glibc)
import Glibc
#endif

/// Where a streamed export goes, one piece at a time (docs/export.md, "Memory"): standard output,
/// or a temporary file in FILE's folder renamed over FILE once every byte is written and synced
/// (the same rules as `ExportDestination.write`: only a regular or missing FILE, owner-only, every
/// write checked). Nothing but the current piece is held in memory.
public final class ExportSink {
    private let path: String?
    /// Standard output (1), the temporary file, or -1 before it is opened.
    private var fd: Int32 = -1
    private var tmp = ""
    private var finished = false
    /// Bytes written so far.
    public private(set) var written = 0

    /// Opens the destination: standard output without `path`, else a new temporary file beside it.
    public init(path: String?) throws(FileError) {
        self.path = path
        guard let path else { fd = 1; fflush(nil); return }   // what was printed before goes first
        try ExportDestination.check(path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        for attempt in 0..<8 {
            tmp = "\(folderOf(path))/.\(name).tmp-\(getpid())-\(ts.tv_nsec)-\(attempt)"
            fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, FileModes.personalFile)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { let e = errno; throw FileError(path: path, message: "cannot create file (\(errnoText(e)))", code: e) }
        if fchmod(fd, FileModes.personalFile) != 0 { let e = errno; abandon(); throw FileError(path: path, message: "cannot set its mode (\(errnoText(e)))", code: e) }
    }

    deinit { abandon() }

    /// Writes `bytes` whole (a short or failed write is an error; the temporary file is removed).
    public func write(_ bytes: [UInt8]) throws(FileError) {
        guard !bytes.isEmpty else { return }
        let e = writeAll(fd, bytes)
        guard e == 0 else {
            abandon()
            throw FileError(path: path ?? "standard output", message: "write failed (\(errnoText(e)))", code: e)
        }
        written += bytes.count
    }

    /// Syncs and closes the file and renames it over FILE (then syncs the folder).
    public func finish() throws(FileError) {
        guard let path, !finished else { finished = true; return }
        var failure: (String, Int32)?
        if fsync(fd) != 0 { failure = ("fsync failed", errno) }
        if close(fd) != 0, failure == nil { failure = ("close failed", errno) }
        fd = -1
        if failure == nil, rename(tmp, path) != 0 { failure = ("cannot rename into place", errno) }
        finished = true
        if let (what, e) = failure {
            unlink(tmp)
            throw FileError(path: path, message: "\(what) (\(errnoText(e)))", code: e)
        }
        let dfd = open(folderOf(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            let r = fsync(dfd)
            let e = errno
            close(dfd)
            if r != 0 && e != EINVAL { throw FileError(path: path, message: "fsync of the folder failed (\(errnoText(e)))", code: e) }
        }
    }

    /// Gives up: the temporary file is closed and removed (FILE is unchanged).
    public func abandon() {
        guard path != nil, !finished else { return }
        finished = true
        if fd >= 0 { close(fd); fd = -1 }
        if !tmp.isEmpty { unlink(tmp) }
    }
}

/// Failures of a streamed export: reading the journal, or writing the output.
public enum ExportStreamError: Error, CustomStringConvertible {
    case app(AppError)
    case file(FileError)
    public var description: String {
        switch self {
        case .app(let e): return e.description
        case .file(let e): return e.description
        }
    }
}

extension JournalRecovery {
    /// Journal rows are read and written this many at a time by the streamed exports.
    public static let exportPage = 512

    /// Writes the recovery export (`export(store:)`: the same bytes) piece by piece to `write`:
    /// the journal is read `exportPage` rows at a time, so memory does not grow with its length.
    public func streamExport(store: EventStore, to write: ([UInt8]) throws(ExportStreamError) -> Void) throws(ExportStreamError) {
        // The document is `{"format","problem","rows","unreadableSeq"}` with sorted keys, pretty
        // printed as JSONEncoder prints it; each row is encoded alone and indented one level more.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        func json<T: Encodable>(_ v: T) throws(ExportStreamError) -> [UInt8] {
            do { return Array(try encoder.encode(v)) } catch {
                throw .app(.journal(seq: seq, detail: "the recovery export cannot be encoded"))
            }
        }
        var first: [EventRow]
        do { first = try store.events(limit: Self.exportPage) } catch { throw .app(.store(error)) }
        if first.isEmpty { try write(try json(Document(unreadableSeq: seq, problem: detail, rows: []))); return }
        try write(Array("{\n  \"format\" : ".utf8) + (try json("deskpet-recovery-1")) + Array(",\n  \"problem\" : ".utf8)
                  + (try json(detail)) + Array(",\n  \"rows\" : [\n".utf8))
        var page = first
        var out: [UInt8] = []
        var leading = true
        while true {
            out.removeAll(keepingCapacity: true)
            for r in page {
                if !leading { out += Array(",\n".utf8) }
                leading = false
                let row = try json(RawRow(seq: r.seq, at: r.at, day: r.day, type: r.type, command: r.commandID,
                                          coinsDelta: r.coinsDelta, xpDelta: r.xpDelta, payload: r.payload))
                out += [0x20, 0x20, 0x20, 0x20]
                for b in row {
                    out.append(b)
                    if b == 0x0A { out += [0x20, 0x20, 0x20, 0x20] }
                }
            }
            try write(out)
            guard page.count == Self.exportPage, let last = page.last else { break }
            do { page = try store.events(after: last.seq, limit: Self.exportPage) } catch { throw .app(.store(error)) }
            if page.isEmpty { break }
        }
        var tail = Array("\n  ]".utf8)
        if let seq { tail += Array(",\n  \"unreadableSeq\" : \(seq)".utf8) }
        try write(tail + Array("\n}".utf8))
    }

    /// `deskpet export`: the export of the journal at `path` (every row as stored, docs/export.md)
    /// streamed to FILE or standard output (then ending in a newline), and which row can't be read,
    /// if one can't. Writes nothing to the journal; memory does not grow with its length.
    public static func streamJournal(at path: String, to file: String?, zones: ZoneDatabase = ZoneDatabase()) throws(ExportStreamError) -> JournalRecovery? {
        let store: EventStore
        do { store = try EventStore.openReadOnly(path: path) } catch { throw .app(.store(error)) }
        defer { store.close() }
        let problem: JournalRecovery?
        do { problem = try findProblem(store, zones: zones) } catch { throw .app(error) }
        let sink: ExportSink
        do { sink = try ExportSink(path: file) } catch { throw .file(error) }
        try (problem ?? JournalRecovery(seq: nil, detail: "every row can be read")).streamExport(store: store) { (bytes: [UInt8]) throws(ExportStreamError) in
            do throws(FileError) { try sink.write(bytes) } catch { throw .file(error) }
        }
        do {
            if file == nil { try sink.write([0x0A]) }
            try sink.finish()
        } catch { throw .file(error) }
        return problem
    }

    static func findProblem(_ store: EventStore, zones: ZoneDatabase) throws(AppError) -> JournalRecovery? {
        let count: Int
        do { count = try store.eventCount() } catch { throw .store(error) }
        if count > 0, case .failure(let r) = try PetApp.openOrRecover(store: store, zones: zones, now: TimeRange.earliest) {
            return r
        }
        return nil
    }
}
