/// `error` (device → phone): `{"type":"error","id":"c-17","code":"not_found","message":"no task with id 'x'"}`.
/// `id` is the command's (absent for errors about a frame or a pairing step). Codes are stable
/// (docs/protocol.md#error-codes): the domain's (`DomainError.code`) and the link's (`ErrorCode`).
/// Messages never repeat personal text. `retry_after` (seconds) comes with `pairing_locked`;
/// `attempts_left` with `wrong_code`.
public struct ErrorMessage: Codable, Sendable, Equatable, Error {
    public static let type = "error"
    public var type = ErrorMessage.type
    public var id: String?
    public var code: String
    public var message: String
    public var retryAfter: Int64?
    public var attemptsLeft: Int?

    enum CodingKeys: String, CodingKey {
        case type, id, code, message
        case retryAfter = "retry_after", attemptsLeft = "attempts_left"
    }

    public init(id: String? = nil, code: String, message: String, retryAfter: Int64? = nil, attemptsLeft: Int? = nil) {
        self.id = id; self.code = code; self.message = message; self.retryAfter = retryAfter; self.attemptsLeft = attemptsLeft
    }
}

/// The link's own error codes (the domain's come from `DomainError.code`).
public enum ErrorCode {
    public static let malformed = "malformed"
    public static let frameTooLarge = "frame_too_large"
    public static let unknownType = "unknown_type"
    public static let unsupportedVersion = "unsupported_version"
    public static let helloFirst = "hello_first"
    public static let notPaired = "not_paired"
    public static let badToken = "bad_token"
    public static let noChallenge = "no_challenge"
    public static let wrongCode = "wrong_code"
    public static let pairingLocked = "pairing_locked"
    public static let tooManyPhones = "too_many_phones"
    public static let tooManyClients = "too_many_clients"
    public static let timeout = "timeout"
    public static let overloaded = "overloaded"
    /// The device is already doing as much of this as it allows (exports): try again later.
    public static let busy = "busy"
    /// An answer would not fit in one frame (docs/protocol.md#limits).
    public static let tooLarge = "too_large"
    public static let unsupported = "unsupported"
    public static let confirmOnDevice = "confirm_on_device"
    public static let journal = "journal_failed"
    public static let internalError = "internal"
}
