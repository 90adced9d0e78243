import FoundationEssentials
import PetCore
import PetStore

/// The owner's data as one JSON document (docs/export.md):
///
/// ```
/// { "format": "deskpet-export", "version": 1, "exportedAt": <unix>, "zone": "...",
///   "summary": { coins, xp, level, streak, bestStreak, tasksCompleted, charity, badges },
///   "state": { …the whole domain state… },
///   "journal": [ { "seq", "at", "day", "type", "command", "coins", "event": { … } }, … ] }
/// ```
/// Apps marked private are left out of anything that leaves the device: removed from the state
/// (`PetState.sharedCopy`) and from the journal by the one event filter (`EventKind.shared`):
/// events about a private app are dropped, focus sessions lose the private apps they name.
public enum Export {
    public static let format = "deskpet-export"
    public static let version = 1

    struct Summary: Encodable {
        var coins: Int
        var xp: Int
        var level: Int
        var streak: Int
        var bestStreak: Int
        var tasksCompleted: Int
        var badges: [String: Int64]
    }

    struct Head: Encodable {
        var format: String
        var version: Int
        var exportedAt: Int64
        var zone: String
        var dayStartHour: Int
        var summary: Summary
    }

    /// Builds the document. `now` is the export instant.
    public static func document(_ app: PetApp, now: Instant) throws(AppError) -> [UInt8] {
        let producer = Producer(app, now: now)
        var out: [UInt8] = []
        while let piece = try producer.next(rows: 4096) { out += piece }
        return out
    }

    /// The document a piece at a time (the phone link builds an export a slice per wake-up of
    /// the device loop): the head and the state first, then the journal `rows` at a time, then
    /// the end. The pieces together are `document`'s bytes. The export is of the moment the
    /// producer was made: its state, private apps and journal length then (events stored
    /// meanwhile are left out; a journal that shrank — a wipe — fails the export).
    public final class Producer {
        let app: PetApp
        let now: Instant
        let lastSeq: Int64
        let privateApps: Set<String>
        var head: [UInt8]?
        var after: Int64 = 0
        var first = true
        var finished = false
        /// Journal rows read so far (for tests counting the work per slice).
        public private(set) var rowsRead = 0

        public init(_ app: PetApp, now: Instant) {
            self.app = app
            self.now = now
            lastSeq = Int64(app.state.eventCount)
            privateApps = app.state.privateApps
        }

        /// The next piece; nil once the document is complete.
        public func next(rows: Int) throws(AppError) -> [UInt8]? {
            if finished { return nil }
            if head == nil {
                head = try Export.head(app, now: now)
                return head
            }
            guard Int64(app.state.eventCount) >= lastSeq else {
                throw .journal(seq: nil, detail: "the journal was reset during the export")
            }
            var out: [UInt8] = []
            let page: [EventRow]
            if after < lastSeq {
                do { page = try app.store.events(after: after, limit: Int(min(Int64(max(1, rows)), lastSeq - after))) } catch { throw .store(error) }
            } else { page = [] }
            rowsRead += page.count
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let decoder = JSONDecoder()
            for var r in page where r.seq <= lastSeq {
                after = r.seq
                // One filter knows every event kind (PetCore/Sharing): events about a private app are
                // left out, events mentioning one are written without it.
                if !privateApps.isEmpty {
                    let kind = try JournalCodec.event(r, decoder: decoder).kind
                    guard let shared = kind.shared(privateApps: privateApps) else { continue }
                    if shared != kind {
                        do { r.payload = String(decoding: try encoder.encode(shared), as: UTF8.self) } catch {
                            throw .journal(seq: r.seq, detail: "cannot encode a \(r.type) event for the export")
                        }
                    }
                }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                var line = "{\"seq\":\(r.seq),\"at\":\(r.at),\"day\":\(r.day),\"type\":\"\(jsonEscaped(r.type))\""
                if let c = r.commandID { line += ",\"command\":\"\(jsonEscaped(c))\"" }
                if r.coinsDelta != 0 { line += ",\"coins\":\(r.coinsDelta)" }
                line += ",\"event\":"
                out.append(contentsOf: Array(line.utf8))
                out.append(contentsOf: Array(r.payload.utf8))   // valid JSON (the journal checks it)
                out.append(UInt8(ascii: "}"))
            }
            if page.isEmpty || after >= lastSeq {
                out.append(contentsOf: Array("]}\n".utf8))
                finished = true
            }
            return out
        }
    }

    /// The document up to the journal's opening bracket: head, summary, state.
    static func head(_ app: PetApp, now: Instant) throws(AppError) -> [UInt8] {
        let s = app.state.sharedCopy()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let head = Head(format: format, version: version, exportedAt: now.seconds, zone: s.zoneID,
                        dayStartHour: s.clock.dayStartHour,
                        summary: Summary(coins: s.coins, xp: s.xp, level: s.level, streak: s.streak,
                                         bestStreak: s.bestStreak, tasksCompleted: s.tasksCompleted,
                                         badges: s.badges.mapValues(\.seconds)))
        var out: [UInt8] = []
        do {
            let headJSON = try encoder.encode(head)
            out.append(contentsOf: headJSON.dropLast())          // without the closing brace
            out.append(contentsOf: Array(",\"state\":".utf8))
            out.append(contentsOf: try encoder.encode(s))
        } catch {
            throw .journal(seq: nil, detail: "cannot encode the export")
        }
        out.append(contentsOf: Array(",\"journal\":[".utf8))
        return out
    }

    static func jsonEscaped(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Where `deskpet export`, `deskpet-sim export-journal` and `deskpetctl export` put the document
/// (docs/export.md, "Where an export goes").
public enum ExportDestination {
    /// Refuses a FILE that exists and is not a regular file: a symbolic link, a character or block
    /// device, a FIFO, a socket or a folder. The export is written to a temporary file renamed over
    /// FILE, so it would replace that node by a regular file (a symlink's target, `/dev/null`, a
    /// FIFO another program reads would not get the bytes). A missing FILE is created.
    public static func check(_ path: String) throws(FileError) {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            let e = errno
            if e == ENOENT { return }
            throw FileError(path: path, message: "cannot inspect it (\(errnoText(e)))", code: e)
        }
        let kind: String
        switch st.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFLNK: kind = "a symbolic link"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFIFO: kind = "a FIFO"
        case S_IFSOCK: kind = "a socket"
        case S_IFDIR: kind = "a folder"
        default: kind = "not a regular file"
        }
        throw FileError(path: path, message: "is \(kind), not a regular file: give the path of a regular file to create or replace (or no FILE for standard output)", code: EINVAL)
    }

    /// Writes the whole document to standard output: every write checked (a short or failed
    /// write, a full disk, `/dev/full`, a closed pipe is an error, never a silent cut).
    public static func writeStandardOutput(_ bytes: [UInt8]) throws(FileError) {
        fflush(nil)   // what was printed before goes first
        let e = writeAll(1, bytes)
        guard e == 0 else { throw FileError(path: "standard output", message: "write failed (\(errnoText(e)))", code: e) }
    }

    /// `check`, then `writeFile` (owner-only, atomic), or standard output without a path.
    public static func write(_ bytes: [UInt8], to path: String?) throws(FileError) {
        guard let path else { try writeStandardOutput(bytes); return }
        try check(path)
        try writeFile(path, bytes, mode: FileModes.personalFile)
    }
}
