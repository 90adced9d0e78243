/// Every error code the device sends (docs/protocol.md#error-codes): the only place the wire
/// strings are written. Everything else — `DomainError.code`, the link service, the journal's
/// `AppError.code`, deskpetctl, the simulator — names the constant, so a program on either side
/// matches on `ErrorCode.wrongCode` and never on a hand-typed string (a test scans Sources for
/// quoted codes outside this file). The strings are stable: a phone in the field matches on them.
public enum ErrorCode {
    // The domain's (`DomainError.code`): a refused command that changed nothing.
    public static let invalidField = "invalid_field"
    public static let missingField = "missing_field"
    public static let notFound = "not_found"
    public static let alreadyExists = "already_exists"
    public static let invalidState = "invalid_state"
    public static let insufficientCoins = "insufficient_coins"
    public static let limitReached = "limit_reached"
    public static let rateLimited = "rate_limited"
    public static let unknownCommand = "unknown_command"
    public static let unknownTimeZone = "unknown_time_zone"

    // The link's own.
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
    public static let unsupported = "unsupported"
    public static let confirmOnDevice = "confirm_on_device"
    public static let journal = "journal_failed"
    public static let internalError = "internal"
    /// The device is already doing as much of this as it allows (exports): try again later.
    public static let busy = "exports_busy"
    /// An answer would not fit in one frame (docs/protocol.md#limits-and-timeouts).
    public static let tooLarge = "answer_too_large"

    // The device app's (`AppError.code`) for failures below the domain.
    public static let storage = "storage_error"
    public static let journalRead = "journal_error"
    public static let hardware = "hardware_error"

    /// The domain's codes, in the order of `DomainError`'s cases.
    public static let domain: [String] = [invalidField, missingField, notFound, alreadyExists, invalidState,
                                          insufficientCoins, limitReached, rateLimited, unknownCommand, unknownTimeZone]

    /// The link's codes, in the order of docs/protocol.md's table.
    public static let link: [String] = [malformed, frameTooLarge, unknownType, unsupportedVersion, helloFirst,
                                        notPaired, badToken, noChallenge, wrongCode, pairingLocked, tooManyPhones,
                                        tooManyClients, timeout, overloaded, unsupported, confirmOnDevice, journal,
                                        internalError, busy, tooLarge]

    /// The device app's codes.
    public static let app: [String] = [storage, journalRead, hardware]

    /// Every code, each once.
    public static var all: [String] { domain + link + app }

    /// The codes that refuse a command for good: sending it again gets the same answer, so a
    /// phone's offline queue drops it (`journal_failed`, `timeout` and a lost connection are worth
    /// a retry; these are not).
    public static let final: Set<String> = Set(domain + [malformed, confirmOnDevice, unsupported])
}
