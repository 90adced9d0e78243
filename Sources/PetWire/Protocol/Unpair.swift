/// `unpair` (phone → device, authenticated): `{"type":"unpair"}` forgets this phone (its token
/// no longer works); `{"type":"unpair","phone":"phone-2"}` forgets another one. The device
/// answers `unpaired` once `phone.unpaired` is in the journal.
public struct Unpair: Codable, Sendable, Equatable {
    public static let type = "unpair"
    public var type = Unpair.type
    public var phone: String?
    public init(phone: String? = nil) { self.phone = phone }
}
