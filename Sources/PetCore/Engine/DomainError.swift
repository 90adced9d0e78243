/// Why a command was refused. A refused command changes nothing.
///
/// Messages name the field or object and the reason; they never repeat personal text (titles,
/// notes, thoughts), only ids, field names and numbers, so they are safe to log.
public enum DomainError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A field failed validation: which field, and why.
    case invalidField(field: String, reason: String)
    /// A required field is absent.
    case missingField(field: String)
    /// The command names something that does not exist.
    case notFound(kind: String, id: String)
    /// Something with this id already exists.
    case alreadyExists(kind: String, id: String)
    /// The object is in a state that does not allow this action.
    case invalidState(kind: String, id: String, reason: String)
    /// A spend or reversal would take the coin balance below zero.
    case insufficientCoins(needed: Int, balance: Int)
    /// A count limit would be exceeded.
    case limitReached(what: String, limit: Int)
    /// Too soon after the previous one.
    case rateLimited(action: String, retryAfterSeconds: Int64)
    /// The command name is not known.
    case unknownCommand(name: String)
    /// The time-zone identifier is not in the zone database.
    case unknownTimeZone(id: String)

    /// A stable machine-readable code (used by the phone protocol; the strings are in `ErrorCode`).
    public var code: String {
        switch self {
        case .invalidField: return ErrorCode.invalidField
        case .missingField: return ErrorCode.missingField
        case .notFound: return ErrorCode.notFound
        case .alreadyExists: return ErrorCode.alreadyExists
        case .invalidState: return ErrorCode.invalidState
        case .insufficientCoins: return ErrorCode.insufficientCoins
        case .limitReached: return ErrorCode.limitReached
        case .rateLimited: return ErrorCode.rateLimited
        case .unknownCommand: return ErrorCode.unknownCommand
        case .unknownTimeZone: return ErrorCode.unknownTimeZone
        }
    }

    public var description: String {
        switch self {
        case let .invalidField(field, reason): return "invalid \(field): \(reason)"
        case let .missingField(field): return "missing required field '\(field)'"
        case let .notFound(kind, id): return "no \(kind) with id '\(id)'"
        case let .alreadyExists(kind, id): return "a \(kind) with id '\(id)' already exists"
        case let .invalidState(kind, id, reason): return "\(kind) '\(id)' \(reason)"
        case let .insufficientCoins(needed, balance):
            return "not enough coins: needs \(needed), balance is \(balance) (the balance never goes below 0)"
        case let .limitReached(what, limit): return "too many \(what): the limit is \(limit)"
        case let .rateLimited(action, after): return "\(action) is rate-limited: try again in \(after) s"
        case let .unknownCommand(name): return "unknown command '\(name)'"
        case let .unknownTimeZone(id): return "unknown time zone '\(id)' (not in the system zone database)"
        }
    }
}
