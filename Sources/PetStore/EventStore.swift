// EventStore.swift — durable, append-only storage of DeskPet events.
//
// The domain core produces events; this store persists them as opaque rows
// in one SQLite file (WAL journal, synchronous=FULL: when `append` returns,
// the rows survive a crash or power loss). It knows nothing about the domain.
//
// Threading: an EventStore is not Sendable. Use it from one thread/actor;
// the connection is opened with SQLITE_OPEN_NOMUTEX accordingly.

import CSQLite
#if canImport(Glibc)
import Glibc
#endif

public final class EventStore {
    /// Tuning knobs. The defaults are the durable production settings.
    public struct Options: Sendable, Equatable {
        /// `PRAGMA synchronous` levels. Only lower it for benchmarks or tests.
        public enum Synchronous: String, Sendable, Equatable {
            case off = "OFF", normal = "NORMAL", full = "FULL", extra = "EXTRA"
        }

        public var synchronous: Synchronous
        /// How long to wait for another connection's write lock.
        public var busyTimeoutMilliseconds: Int32
        /// Run `PRAGMA quick_check` when opening an existing file, so damage is
        /// reported as `.corrupt` up front instead of on some later read.
        public var verifyOnOpen: Bool

        public init(synchronous: Synchronous = .full, busyTimeoutMilliseconds: Int32 = 5_000,
                    verifyOnOpen: Bool = true) {
            self.synchronous = synchronous
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.verifyOnOpen = verifyOnOpen
        }
    }

    /// The `PRAGMA application_id` stamped on every DeskPet database.
    public static let applicationID: Int32 = Schema.applicationID
    /// The newest schema version (`PRAGMA user_version`) this build can open.
    public static var supportedSchemaVersion: Int { Schema.latestVersion }

    /// The database file path (":memory:" for in-memory stores).
    public let path: String
    private var connection: Connection?
    /// This process's share of the journal's writer lock (none in memory or read-only).
    private var writerLock: WriterLock?

    /// Opens the DeskPet database at `path`, creating it if missing and
    /// upgrading its schema if older. A file that is not a DeskPet database
    /// (garbage, corrupt, foreign, or from a newer DeskPet) is refused with a
    /// typed error and left byte-for-byte untouched.
    public convenience init(path: String, options: Options = Options()) throws(StoreError) {
        try self.init(path: path, options: options, schemaVersion: Schema.latestVersion)
    }

    /// A private, empty database in memory (for tests and benchmarks).
    public static func inMemory(options: Options = Options()) throws(StoreError) -> EventStore {
        try EventStore(path: ":memory:", options: options)
    }

    /// Opens and migrates up to `target` only. Internal so tests can build
    /// databases at an older schema version.
    init(path: String, options: Options, schemaVersion target: Int) throws(StoreError) {
        self.path = path
        (self.connection, self.writerLock) = try Self.openValidated(path: path, options: options, target: target)
    }

    private init(path: String, connection: Connection) {
        self.path = path
        self.connection = connection
    }

    /// Opens an existing DeskPet database only to read it (`deskpet export`): nothing is written,
    /// not even a migration or the file's mode, so it works on a read-only file or folder and
    /// while the daemon runs (no writer lock). Refused like `init(path:)` (foreign, newer, corrupt),
    /// and also when the schema is older than this build's: upgrading it would write.
    public static func openReadOnly(path: String, options: Options = Options()) throws(StoreError) -> EventStore {
        switch FileProbe.probe(path: path) {
        case .notSQLite, .newDatabase: throw .notADatabase(path: path)
        case .truncatedHeader: throw .corrupt(path: path, detail: "file ends inside the 100-byte SQLite header")
        case .sqliteHeader, .unreadable: break
        }
        do throws(StoreError) {
            return try openReadOnly(path: path, options: options, immutable: false)
        } catch let .sqlite(_, code, _) where code == SQLITE_READONLY_DIRECTORY_CODE && access(path + "-wal", F_OK) != 0 {
            // A WAL database in a read-only folder with no -wal or -shm beside it (SQLite cannot
            // create them): nobody can be writing it (a writer needs them), so the file alone holds
            // everything, and it is read as immutable.
            return try openReadOnly(path: path, options: options, immutable: true)
        }
    }

    private static let SQLITE_READONLY_DIRECTORY_CODE: Int32 = 8 | (6 << 8)

    private static func openReadOnly(path: String, options: Options, immutable: Bool) throws(StoreError) -> EventStore {
        var name = path, flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        if immutable {
            var escaped = ""
            for c in path.unicodeScalars {
                switch c {
                case "%": escaped += "%25"
                case "?": escaped += "%3f"
                case "#": escaped += "%23"
                default: escaped.unicodeScalars.append(c)
                }
            }
            name = "file:" + escaped + "?immutable=1"
            flags |= SQLITE_OPEN_URI
        }
        let conn = try Connection.open(path: name, flags: flags)
        do throws(StoreError) {
            try inspect(conn, path: path, options: options, target: Schema.latestVersion)
            let version = try conn.scalarInt("PRAGMA user_version", "read user_version") ?? 0
            guard version == Int64(Schema.latestVersion) else {
                throw StoreError.cannotOpen(path: path, code: SQLITE_READONLY,
                                            message: "schema version \(version) must be upgraded to \(Schema.latestVersion) first, which writes (start the daemon once)")
            }
        } catch {
            conn.close()
            throw error
        }
        return EventStore(path: path, connection: conn)
    }

    /// Throws `StoreError.locked` when another process writes the journal at `path` now (see
    /// WriterLock.swift); nothing is opened or held. The daemon asks before it opens its board.
    public static func checkNoOtherWriter(path: String) throws(StoreError) {
        try WriterLock.checkFree(path: path)
    }

    deinit { connection?.close(); writerLock?.release() }

    /// Closes the database (and gives back this store's share of the writer lock). Further calls
    /// throw `.closed`. Idempotent.
    public func close() {
        connection?.close()
        connection = nil
        writerLock?.release()
        writerLock = nil
    }

    private func live() throws(StoreError) -> Connection {
        guard let connection else { throw .closed }
        return connection
    }

    // MARK: - Writing

    /// Appends `events` (and the `command` that produced them, if any) in one
    /// transaction and returns the sequence numbers assigned to the events.
    /// The input `seq` values are ignored. On any failure nothing is stored.
    /// Throws `.duplicateCommand` if `command.id` was stored before.
    @discardableResult
    public func append(command: CommandRow?, events: [EventRow]) throws(StoreError) -> [Int64] {
        let conn = try live()
        try conn.begin()
        do {
            let seqs = try insert(command: command, events: events, conn)
            try conn.commit()
            return seqs
        } catch {
            conn.rollback()
            throw error
        }
    }

    /// Appends several commands' groups of events (group commit) in ONE transaction: each group
    /// as `append(command:events:)` would store it, in order, but with a single commit (one WAL
    /// sync) for them all. Returns each group's sequence numbers. On any failure (a duplicate
    /// command id, a full disk) nothing of any group is stored.
    @discardableResult
    public func appendBatch(_ groups: [(command: CommandRow?, events: [EventRow])]) throws(StoreError) -> [[Int64]] {
        let conn = try live()
        try conn.begin()
        do {
            var all: [[Int64]] = []
            all.reserveCapacity(groups.count)
            for g in groups { all.append(try insert(command: g.command, events: g.events, conn)) }
            try conn.commit()
            return all
        } catch {
            conn.rollback()
            throw error
        }
    }

    /// The body of `append`; runs inside the caller's transaction.
    private func insert(command: CommandRow?, events: [EventRow], _ conn: Connection) throws(StoreError) -> [Int64] {
        if let command {
            if try self.command(id: command.id) != nil { throw StoreError.duplicateCommand(id: command.id) }
            let stmt = try conn.prepare(
                "INSERT INTO commands(id, at, kind, reply) VALUES (?1, ?2, ?3, ?4)", "store command")
            defer { stmt.reset() }
            try stmt.bind(1, command.id)
            try stmt.bind(2, command.at)
            try stmt.bind(3, command.kind)
            try stmt.bind(4, command.reply)
            do {
                try stmt.run()
            } catch let StoreError.sqlite(_, code, _) where code == sqliteConstraintPrimaryKey {
                throw StoreError.duplicateCommand(id: command.id)  // lost a race with another writer
            }
        }

        var seqs: [Int64] = []
        seqs.reserveCapacity(events.count)
        for (index, event) in events.enumerated() {
            let stmt = try conn.prepare(
                """
                INSERT INTO events(at, day, type, command_id, coins_delta, xp_delta, reason, payload)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """,
                // Names the failing row by position and type, never by payload.
                "append event #\(index + 1) of \(events.count) (type '\(event.type)')")
            defer { stmt.reset() }
            try stmt.bind(1, event.at)
            try stmt.bind(2, event.day)
            try stmt.bind(3, event.type)
            try stmt.bind(4, event.commandID)
            try stmt.bind(5, event.coinsDelta)
            try stmt.bind(6, event.xpDelta)
            try stmt.bind(7, event.reason)
            try stmt.bind(8, event.payload)
            try stmt.run()
            seqs.append(sqlite3_last_insert_rowid(conn.db))
        }

        if let command, let first = seqs.first, let last = seqs.last {
            let stmt = try conn.prepare(
                "UPDATE commands SET first_seq = ?2, last_seq = ?3 WHERE id = ?1", "record command's events")
            defer { stmt.reset() }
            try stmt.bind(1, command.id)
            try stmt.bind(2, first)
            try stmt.bind(3, last)
            try stmt.run()
        }
        return seqs
    }

    /// Factory reset: deletes every event, command, snapshot and metadata row in one transaction,
    /// with SQLite's secure delete so the freed pages are zeroed, then compacts the file and
    /// truncates the WAL so no old content is left on disk. The schema stays.
    public func wipe() throws(StoreError) {
        let conn = try live()
        try conn.execute("PRAGMA secure_delete = ON", "enable secure delete")
        try conn.begin()
        do {
            for table in ["events", "commands", "snapshots", "meta"] {
                try conn.execute("DELETE FROM \(table)", "wipe \(table)")
            }
            try conn.commit()
        } catch {
            conn.rollback()
            throw error
        }
        try conn.execute("VACUUM", "compact after wipe")
        if path != ":memory:" {
            try conn.execute("PRAGMA wal_checkpoint(TRUNCATE)", "truncate the WAL after wipe")
        }
    }

    /// Deletes every snapshot (they are a cache: the next opening replays the whole journal).
    /// For the bench's before/after figure and for a snapshot format that went wrong.
    public func dropSnapshots() throws(StoreError) {
        try live().execute("DELETE FROM snapshots", "drop snapshots")
    }

    /// Sets a metadata value (committed immediately).
    public func setMeta(_ key: String, _ value: String) throws(StoreError) {
        let stmt = try live().prepare(
            "INSERT INTO meta(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            "set meta '\(key)'")
        defer { stmt.reset() }
        try stmt.bind(1, key)
        try stmt.bind(2, value)
        try stmt.run()
    }

    /// Stores a snapshot of caller-defined `format` reflecting events up to
    /// and including `seq`. A snapshot already stored at `seq` is replaced.
    public func saveSnapshot(seq: Int64, format: Int, body: [UInt8]) throws(StoreError) {
        let last = try lastSeq()
        guard seq >= 0, seq <= last else {
            throw .invalidArgument("snapshot seq \(seq) is outside the event log (last seq \(last))")
        }
        let stmt = try live().prepare(
            """
            INSERT OR REPLACE INTO snapshots(seq, created_at, format, body)
            VALUES (?1, CAST(strftime('%s', 'now') AS INTEGER), ?2, ?3)
            """,
            "save snapshot at seq \(seq)")
        defer { stmt.reset() }
        try stmt.bind(1, seq)
        try stmt.bind(2, format)
        try stmt.bind(3, body)
        try stmt.run()
    }

    // MARK: - Reading

    /// The stored command with this id, if it was handled before.
    public func command(id: String) throws(StoreError) -> CommandRow? {
        let stmt = try live().prepare("SELECT id, at, kind, reply FROM commands WHERE id = ?1", "look up command")
        defer { stmt.reset() }
        try stmt.bind(1, id)
        guard try stmt.step() else { return nil }
        return CommandRow(id: stmt.text(0) ?? "", at: stmt.int64(1), kind: stmt.text(2) ?? "",
                          reply: stmt.text(3) ?? "")
    }

    /// Events with `seq > after`, in seq order; at most `limit` if given
    /// (page through a long log by passing the last seq seen).
    public func events(after: Int64 = 0, limit: Int? = nil) throws(StoreError) -> [EventRow] {
        let stmt = try live().prepare(
            """
            SELECT seq, at, day, type, command_id, coins_delta, xp_delta, reason, payload
            FROM events WHERE seq > ?1 ORDER BY seq LIMIT ?2
            """,
            "read events")
        defer { stmt.reset() }
        try stmt.bind(1, after)
        try stmt.bind(2, Int64(limit ?? -1))  // negative LIMIT means no limit
        var rows: [EventRow] = []
        while try stmt.step() {
            rows.append(EventRow(
                seq: stmt.int64(0), at: stmt.int64(1), day: stmt.int(2), type: stmt.text(3) ?? "",
                commandID: stmt.text(4), coinsDelta: stmt.int(5), xpDelta: stmt.int(6),
                reason: stmt.text(7), payload: stmt.text(8) ?? ""))
        }
        return rows
    }

    /// Number of stored events.
    public func eventCount() throws(StoreError) -> Int {
        Int(try live().scalarInt("SELECT count(*) FROM events", "count events") ?? 0)
    }

    /// The highest assigned seq, 0 when the log is empty.
    public func lastSeq() throws(StoreError) -> Int64 {
        try live().scalarInt("SELECT coalesce(max(seq), 0) FROM events", "read last seq") ?? 0
    }

    /// A metadata value ("app", "created_at", or anything set with `setMeta`).
    public func meta(_ key: String) throws(StoreError) -> String? {
        let stmt = try live().prepare("SELECT value FROM meta WHERE key = ?1", "read meta '\(key)'")
        defer { stmt.reset() }
        try stmt.bind(1, key)
        return try stmt.step() ? stmt.text(0) : nil
    }

    /// The newest snapshot of `format`, if any.
    public func latestSnapshot(format: Int) throws(StoreError) -> (seq: Int64, body: [UInt8])? {
        let stmt = try live().prepare(
            "SELECT seq, body FROM snapshots WHERE format = ?1 ORDER BY seq DESC LIMIT 1", "read snapshot")
        defer { stmt.reset() }
        try stmt.bind(1, format)
        guard try stmt.step() else { return nil }
        return (stmt.int64(0), stmt.blob(1))
    }

    /// The schema version of the open database.
    public func schemaVersion() throws(StoreError) -> Int {
        Int(try live().scalarInt("PRAGMA user_version", "read user_version") ?? 0)
    }

    /// The journal mode in effect ("wal" for files). Internal, for tests.
    func journalMode() throws(StoreError) -> String {
        try query("PRAGMA journal_mode").first ?? ""
    }

    /// First column of every row of a trusted SQL query, as text. Internal,
    /// for tests and diagnostics; not for domain data access.
    func query(_ sql: String) throws(StoreError) -> [String] {
        try live().textColumn(sql, "diagnostic query")
    }

    // MARK: - Opening

    /// Opens `path`, refuses anything that is not a healthy DeskPet database
    /// of a supported version, then configures and migrates it. Nothing is
    /// written to the file until all checks have passed.
    private static func openValidated(path: String, options: Options, target: Int) throws(StoreError) -> (Connection, WriterLock?) {
        let inMemory = path == ":memory:"
        var lock: WriterLock?
        if !inMemory {
            switch FileProbe.probe(path: path) {
            case .notSQLite:
                throw .notADatabase(path: path)
            case .truncatedHeader:
                throw .corrupt(path: path, detail: "file ends inside the 100-byte SQLite header")
            case .sqliteHeader:
                // Decide foreign and newer files from the bytes (and a hot -wal's newest page 1)
                // before SQLite opens anything: its recovery and checkpoint would rewrite them.
                if let h = HeaderProbe.read(path: path) {
                    let isNew = h.applicationID == 0 && h.userVersion == 0 && h.schemaCookie == 0
                    if !isNew && h.applicationID != Schema.applicationID {
                        throw .foreignFile(path: path, applicationID: h.applicationID)
                    }
                    if h.applicationID == Schema.applicationID && Int(h.userVersion) > target {
                        throw .newerSchema(path: path, found: Int(h.userVersion), supported: target)
                    }
                }
            case .newDatabase:
                // The journal holds the owner's personal data: create it owner-only (SQLite gives
                // its -wal and -shm the database file's mode).
                let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
                if fd >= 0 { _ = fchmod(fd, 0o600); _ = Glibc.close(fd) }
            case .unreadable:
                break  // let SQLite report the precise reason
            }
            // One writing process per journal, before SQLite opens (and may recover) anything.
            lock = try WriterLock.acquire(path: path)
        }

        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let conn = try Connection.open(path: path, flags: flags)
        do {
            try inspect(conn, path: path, options: options, target: target)
            try configure(conn, inMemory: inMemory, options: options)
            try migrate(conn, path: path, to: target)
            if !inMemory { makePrivate(path) }
            return (conn, lock)
        } catch {
            conn.close()
            lock?.release()
            throw error
        }
    }

    /// Journal files are the owner's: the group and other bits of the database, its -wal and -shm
    /// are cleared (files from older builds were 0644 → 0600). Only bits are cleared, never one
    /// added: a read-only journal (0444) becomes 0400, still read-only. Only after every check
    /// passed: a refused file is left as it was.
    static func makePrivate(_ path: String) {
        for file in [path, path + "-wal", path + "-shm"] {
            var st = stat()
            guard stat(file, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_mode & 0o077 != 0,
                  st.st_uid == geteuid() else { continue }
            _ = chmod(file, st.st_mode & 0o7700)
        }
    }

    /// Read-only checks: application id, schema version, integrity.
    private static func inspect(_ conn: Connection, path: String, options: Options, target: Int) throws(StoreError) {
        let code = sqlite3_busy_timeout(conn.db, options.busyTimeoutMilliseconds)
        guard code == SQLITE_OK else { throw sqliteError(conn.db, "set busy timeout", code) }

        let appID: Int64, version: Int64, objects: Int64
        do {
            appID = try conn.scalarInt("PRAGMA application_id", "read application_id") ?? 0
            version = try conn.scalarInt("PRAGMA user_version", "read user_version") ?? 0
            objects = try conn.scalarInt("SELECT count(*) FROM sqlite_schema", "read schema") ?? 0
        } catch {
            throw classify(error, path: path)
        }

        let isNew = appID == 0 && version == 0 && objects == 0
        if isNew { return }
        guard appID == Int64(Schema.applicationID) else {
            throw .foreignFile(path: path, applicationID: Int32(truncatingIfNeeded: appID))
        }
        guard version >= 0 else {
            throw .corrupt(path: path, detail: "schema version (PRAGMA user_version) \(version) is negative")
        }
        guard version <= Int64(target) else {
            throw .newerSchema(path: path, found: Int(version), supported: target)
        }
        if options.verifyOnOpen {
            let report: [String]
            do {
                report = try conn.textColumn("PRAGMA quick_check", "check integrity")
            } catch {
                throw classify(error, path: path)
            }
            guard report == ["ok"] else {
                throw .corrupt(path: path, detail: report.prefix(3).joined(separator: "; "))
            }
        }
    }

    /// Maps "this is not / no longer a database" SQLite errors to file errors.
    private static func classify(_ error: StoreError, path: String) -> StoreError {
        guard case let .sqlite(_, code, message) = error else { return error }
        switch code & 0xFF {  // primary result code
        case SQLITE_NOTADB: return .notADatabase(path: path)
        case SQLITE_CORRUPT: return .corrupt(path: path, detail: message)
        default: return error
        }
    }

    /// Durability and integrity settings (first writes to the file).
    private static func configure(_ conn: Connection, inMemory: Bool, options: Options) throws(StoreError) {
        if !inMemory {
            // Small pages: a command touches a handful of pages, and every touched page is written
            // whole to the WAL, so 1 KiB pages write about a quarter of what 4 KiB pages would
            // (flash wear, docs/performance.md). Takes effect only when the file is created.
            try conn.execute("PRAGMA page_size = 1024", "set page size")
            let mode = try conn.textColumn("PRAGMA journal_mode = WAL", "enable WAL journal").first ?? ""
            guard mode.lowercased() == "wal" else {
                throw .sqlite(operation: "enable WAL journal", code: SQLITE_ERROR,
                              message: "journal mode stayed '\(mode)'")
            }
        }
        try conn.execute("PRAGMA synchronous = \(options.synchronous.rawValue)", "set synchronous")
        try conn.execute("PRAGMA foreign_keys = ON", "enable foreign keys")
    }

    /// Applies pending migrations, one transaction each.
    private static func migrate(_ conn: Connection, path: String, to target: Int) throws(StoreError) {
        while true {
            try conn.begin()
            do throws(StoreError) {
                // Re-read inside the write lock: another process may have migrated meanwhile.
                let version = Int(try conn.scalarInt("PRAGMA user_version", "read user_version") ?? 0)
                guard version < target else {
                    try conn.commit()
                    return
                }
                // Never index the migrations with a version they do not have (a negative or
                // foreign user_version is refused, not trapped on).
                guard version >= 0, version < Schema.migrations.count else {
                    throw .corrupt(path: path, detail: "schema version (PRAGMA user_version) \(version) is not one this build can migrate")
                }
                let operation = "migrate schema to version \(version + 1)"
                for sql in Schema.migrations[version] {
                    try conn.execute(sql, operation)
                }
                try conn.execute("PRAGMA user_version = \(version + 1)", operation)
                try conn.commit()
            } catch {
                conn.rollback()
                throw error
            }
        }
    }
}
