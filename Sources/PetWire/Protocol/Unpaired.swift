/// `unpaired` (device → phone): `{"type":"unpaired","phone":"phone-1"}`.
public struct Unpaired: Codable, Sendable, Equatable {
    public static let type = "unpaired"
    public var type = Unpaired.type
    public var phone: String
    public init(phone: String) { self.phone = phone }
}
