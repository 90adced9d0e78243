// StoreError.swift — every failure PetStore reports.
//
// Messages say what went wrong and where (file path, operation). They never
// include event payloads or replies, which may contain personal text.

public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite could not open or create the file (missing directory, permissions, ...).
    case cannotOpen(path: String, code: Int32, message: String)
    /// The file exists but is not a SQLite database. It was not modified.
    case notADatabase(path: String)
    /// The file looks like a SQLite database but is damaged. It was not modified.
    case corrupt(path: String, detail: String)
    /// The database was written by a newer DeskPet. It was not modified.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The file is a SQLite database belonging to some other application. It was not modified.
    case foreignFile(path: String, applicationID: Int32)
    /// A SQLite call failed. `operation` names what the store was doing.
    case sqlite(operation: String, code: Int32, message: String)
    /// `append` was given a command id that is already stored; nothing was changed.
    case duplicateCommand(id: String)
    /// A caller-supplied argument was rejected before touching the database.
    case invalidArgument(String)
    /// The store was used after `close()`.
    case closed
    /// Another process writes this journal (its writer lock is held), or the lock cannot be
    /// taken. Nothing was opened or changed.
    case locked(path: String, detail: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, code, message):
            return "PetStore: cannot open database at '\(path)' (SQLite code \(code): \(message))"
        case let .notADatabase(path):
            return "PetStore: '\(path)' is not a SQLite database; the file was left untouched"
        case let .corrupt(path, detail):
            return "PetStore: database '\(path)' is corrupt (\(detail)); the file was left untouched"
        case let .newerSchema(path, found, supported):
            return "PetStore: database '\(path)' has schema version \(found), but this build supports "
                + "up to \(supported); update DeskPet. The file was left untouched"
        case let .foreignFile(path, applicationID):
            return "PetStore: '\(path)' is a SQLite database of another application "
                + "(application_id \(applicationID)); the file was left untouched"
        case let .sqlite(operation, code, message):
            return "PetStore: \(operation) failed (SQLite code \(code): \(message))"
        case let .duplicateCommand(id):
            return "PetStore: command '\(id)' was already handled; nothing was stored"
        case let .invalidArgument(what):
            return "PetStore: invalid argument: \(what)"
        case .closed:
            return "PetStore: the store was used after close()"
        case let .locked(path, detail):
            return "PetStore: journal '\(path)' is in use: \(detail)"
        }
    }
}
