/// What went wrong on the phone link, naming what and where. Never carries personal text
/// (titles, notes, names): only message types, field names, sizes and client numbers.
public enum LinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A frame's length prefix is over the maximum (the client is dropped).
    case frameTooLarge(length: Int, limit: Int)
    /// A frame is not a JSON object, or a field has the wrong shape.
    case malformed(what: String)
    /// The `type` of a message is not one this device knows.
    case unknownType(String)
    /// A system call failed (socket, getrandom…).
    case system(what: String, reason: String)
    /// A transport address (`tcp:HOST:PORT`, `unix:PATH`) cannot be used.
    case badAddress(String, reason: String)

    public var description: String {
        switch self {
        case let .frameTooLarge(length, limit): "frame of \(length) bytes is over the limit of \(limit)"
        case .malformed(let what): "malformed message: \(what)"
        case .unknownType(let t): "unknown message type '\(t.prefix(40))'"
        case let .system(what, reason): "\(what): \(reason)"
        case let .badAddress(a, reason): "link address '\(a)': \(reason)"
        }
    }
}
