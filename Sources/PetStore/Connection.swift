// Connection.swift — a thin, checked wrapper over the SQLite C API.
//
// Owns one sqlite3 handle and a cache of prepared statements keyed by SQL
// text. Every SQLite return code is checked and turned into a StoreError.

import CSQLite

/// SQLITE_TRANSIENT: the C macro `((sqlite3_destructor_type)-1)` is not
/// imported into Swift. It tells SQLite to copy bound bytes before the bind
/// call returns, which is required because Swift only lends us the buffer
/// for the duration of the closure.
var sqliteTransient: sqlite3_destructor_type {
    unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// SQLITE_CONSTRAINT_PRIMARYKEY (extended result code); the macro is not
/// importable because it is an expression.
let sqliteConstraintPrimaryKey: Int32 = SQLITE_CONSTRAINT | (6 << 8)

/// A cached prepared statement. Non-owning: the Connection finalizes it.
/// Callers bind, step, read, and call `reset()` (usually via `defer`).
struct Statement {
    let handle: OpaquePointer
    let db: OpaquePointer
    /// Human-readable name of the operation, used in error messages.
    let operation: String

    private func check(_ code: Int32) throws(StoreError) {
        guard code == SQLITE_OK else { throw sqliteError(db, operation, code) }
    }

    func bind(_ index: Int32, _ value: Int64) throws(StoreError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ index: Int32, _ value: Int) throws(StoreError) {
        try bind(index, Int64(value))
    }

    /// Binds UTF-8 text with an explicit length (so embedded NULs survive); nil binds NULL.
    func bind(_ index: Int32, _ value: String?) throws(StoreError) {
        guard var text = value else {
            try check(sqlite3_bind_null(handle, index))
            return
        }
        let code = text.withUTF8 { bytes -> Int32 in
            // An empty buffer may have a nil base address, which SQLite would
            // read as NULL; bind a real empty string instead.
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(handle, index, $0, Int32(bytes.count), sqliteTransient)
            }
        }
        try check(code)
    }

    func bind(_ index: Int32, _ value: [UInt8]) throws(StoreError) {
        let code = value.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                return sqlite3_bind_zeroblob(handle, index, 0)  // empty, not NULL
            }
            return sqlite3_bind_blob(handle, index, base, Int32(bytes.count), sqliteTransient)
        }
        try check(code)
    }

    /// Advances; returns true when a row is available, false when done.
    func step() throws(StoreError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw sqliteError(db, operation, code)
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(StoreError) {
        while try step() {}
    }

    /// Resets for reuse and drops bindings (releasing copied text/blobs).
    /// sqlite3_reset repeats the last step's error code, which has already
    /// been reported by `step()`, so its result is intentionally not rethrown.
    func reset() {
        _ = sqlite3_reset(handle)
        _ = sqlite3_clear_bindings(handle)
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func int(_ column: Int32) -> Int { Int(truncatingIfNeeded: sqlite3_column_int64(handle, column)) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func text(_ column: Int32) -> String? {
        guard !isNull(column), let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))  // after column_text, per SQLite docs
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) -> [UInt8] {
        guard let base = sqlite3_column_blob(handle, column) else { return [] }  // NULL or empty
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }
}

/// Builds a StoreError from the connection's current error message.
func sqliteError(_ db: OpaquePointer?, _ operation: String, _ code: Int32) -> StoreError {
    let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        ?? String(cString: sqlite3_errstr(code))
    return .sqlite(operation: operation, code: code, message: message)
}

/// One open database connection with a prepared-statement cache.
final class Connection {
    let db: OpaquePointer
    private var cache: [String: OpaquePointer] = [:]
    private var isClosed = false

    /// Opens (or creates) a database file. On failure the handle is closed.
    static func open(path: String, flags: Int32) throws(StoreError) -> Connection {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let db = handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) }
                ?? String(cString: sqlite3_errstr(code))
            _ = sqlite3_close_v2(handle)  // SQLite allocates a handle even on failure
            throw .cannotOpen(path: path, code: code, message: message)
        }
        // Report e.g. SQLITE_CONSTRAINT_PRIMARYKEY rather than plain SQLITE_CONSTRAINT.
        _ = sqlite3_extended_result_codes(db, 1)  // only fails for a nil handle
        return Connection(db: db)
    }

    private init(db: OpaquePointer) { self.db = db }

    deinit { close() }

    /// Returns the cached prepared statement for `sql`, preparing it on first use.
    func prepare(_ sql: String, _ operation: String) throws(StoreError) -> Statement {
        if let cached = cache[sql] {
            return Statement(handle: cached, db: db, operation: operation)
        }
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let stmt = handle else {
            _ = sqlite3_finalize(handle)  // no-op for nil
            throw sqliteError(db, operation, code)
        }
        cache[sql] = stmt
        return Statement(handle: stmt, db: db, operation: operation)
    }

    /// Runs one statement that returns no rows (cached).
    func run(_ sql: String, _ operation: String) throws(StoreError) {
        let stmt = try prepare(sql, operation)
        defer { stmt.reset() }
        try stmt.run()
    }

    /// Runs one statement without caching it (migrations, one-off pragmas).
    func execute(_ sql: String, _ operation: String) throws(StoreError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(db, sql, nil, nil, &errorMessage)
        defer { sqlite3_free(errorMessage) }
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            throw .sqlite(operation: operation, code: code, message: message)
        }
    }

    /// First column of the first row as an integer (nil when there is no row).
    func scalarInt(_ sql: String, _ operation: String) throws(StoreError) -> Int64? {
        let stmt = try prepare(sql, operation)
        defer { stmt.reset() }
        return try stmt.step() ? stmt.int64(0) : nil
    }

    /// First column of every row as text (NULL becomes "").
    func textColumn(_ sql: String, _ operation: String) throws(StoreError) -> [String] {
        let stmt = try prepare(sql, operation)
        defer { stmt.reset() }
        var out: [String] = []
        while try stmt.step() { out.append(stmt.text(0) ?? "") }
        return out
    }

    // MARK: Transactions

    func begin() throws(StoreError) {
        // IMMEDIATE takes the write lock now, so COMMIT cannot fail on a lock upgrade.
        try run("BEGIN IMMEDIATE", "begin transaction")
    }

    func commit() throws(StoreError) {
        try run("COMMIT", "commit transaction")
    }

    /// Rolls back if a transaction is open. Used on error paths, where the
    /// original error matters more than a rollback failure; SQLite also rolls
    /// back automatically when the connection closes.
    func rollback() {
        guard sqlite3_get_autocommit(db) == 0 else { return }
        _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
    }

    // MARK: Closing

    /// Finalizes cached statements and closes the handle. Idempotent.
    /// sqlite3_close_v2 always returns SQLITE_OK for a valid handle (it
    /// defers the close if anything is still open), and sqlite3_finalize
    /// only repeats the statement's last error, so there is nothing to report.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        rollback()
        for stmt in cache.values { _ = sqlite3_finalize(stmt) }
        cache.removeAll()
        _ = sqlite3_close_v2(db)
    }
}
