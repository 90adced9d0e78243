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

/// `circle.when` (device → client): the answer to the link command `circle.when` — the instants
/// the device reads a proposal's `start` and `end` as (`YYYY-MM-DD HH:MM`, `today HH:MM`, `+2h`,
/// `@unix`), in its own time zone and by its own clock (docs/protocol.md#circles). Read-only.
public struct CircleWhenMessage: Codable, Sendable, Equatable {
    public static let type = "circle.when"
    public var type = CircleWhenMessage.type
    public var id: String?
    /// Unix seconds; absent when the field was not asked.
    public var start: Int64?
    public var end: Int64?

    public init(id: String?, start: Int64?, end: Int64?) {
        self.id = id; self.start = start; self.end = end
    }
}
