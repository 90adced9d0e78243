/// `error` (device → phone): `{"type":"error","id":"c-17","code":"not_found","message":"no task with id 'x'"}`.
/// `id` is the command's (absent for errors about a frame or a pairing step). Codes are stable
/// (docs/protocol.md#error-codes), all written once in PetCore's `ErrorCode`.
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
