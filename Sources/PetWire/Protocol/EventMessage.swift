/// `event` (device → phone, pushed to authenticated connections): one journal event.
/// `{"type":"event","seq":57,"at":1772434800,"kind":"reward","event":{"type":"task.completed",…}}`.
/// `seq` is the event's journal sequence number: unique and increasing, so a client drops
/// what it has seen and resumes with `hello.last_seq`. `kind` sorts events for a phone:
/// `reminder`, `reward`, `level`, `badge`, `pairing`, `changed`; `event` is the journal body
/// (docs/storage.md).
public struct EventMessage: Codable, Sendable, Equatable {
    public static let type = "event"
    public var type = EventMessage.type
    public var seq: Int64
    public var at: Int64
    public var kind: String
    public var event: JSONValue

    public init(seq: Int64, at: Int64, kind: String, event: JSONValue) {
        self.seq = seq; self.at = at; self.kind = kind; self.event = event
    }

    /// The phone-facing kind of a journal event type (and its coin change).
    public static func kind(type: String, coinsDelta: Int) -> String {
        switch type {
        case "reminder.due", "reminder.missed", "notice.shown", "notice.missed": "reminder"
        case "level.reached": "level"
        case "badge.earned": "badge"
        case "phone.paired", "phone.unpaired", "phone.pairing-locked": "pairing"
        default: coinsDelta > 0 ? "reward" : "changed"
        }
    }
}
