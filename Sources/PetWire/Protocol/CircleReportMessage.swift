import PetCore

/// `circle.report` (device → client): the answer to the link command `circle.report` — this
/// device's member report for one circle (docs/circles.md#what-a-member-shares), computed on the
/// device from the state as it is shared (the export's filter) and the owner's consent for that
/// circle: numbers only, never titles, notes, thoughts, app names or triggers. A bridge publishes
/// `report` as it is on the member's own retained topic.
public struct CircleReportMessage: Codable, Sendable, Equatable {
    public static let type = "circle.report"
    public var type = CircleReportMessage.type
    public var id: String?
    public var circle: String
    public var report: MemberReport

    public init(id: String?, circle: String, report: MemberReport) {
        self.id = id; self.circle = circle; self.report = report
    }
}
