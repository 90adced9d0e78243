/// `reminders` (device → phone): the reminders queued for the phone (shown or missed while no
/// phone was connected), sent after `welcome` to an authenticated phone and whenever new ones
/// are queued. The phone confirms with the domain command `notice.delivered`
/// (`fields.ids`: comma-separated ids); until then they are sent again on every connection.
/// `{"type":"reminders","items":[{"id":"task:t1:0","source":"task","ref":"t1","due":1772434800,"solicited":true}]}`.
public struct RemindersMessage: Codable, Sendable, Equatable {
    public static let type = "reminders"
    public var type = RemindersMessage.type
    public var items: [Item]

    public struct Item: Codable, Sendable, Equatable {
        public var id: String
        public var source: String
        public var ref: String
        public var due: Int64
        public var solicited: Bool
        public init(id: String, source: String, ref: String, due: Int64, solicited: Bool) {
            self.id = id; self.source = source; self.ref = ref; self.due = due; self.solicited = solicited
        }
    }

    public init(items: [Item]) { self.items = items }
}
