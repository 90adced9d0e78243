/// `pair.begin` (phone → device): `{"type":"pair.begin"}`. The device shows a fresh 6-digit
/// code on its screen and answers `pair.challenge`.
public struct PairBegin: Codable, Sendable, Equatable {
    public static let type = "pair.begin"
    public var type = PairBegin.type
    public init() {}
}
