/// `state` (device → phone): a summary pushed after every batch of events, after `welcome`, and
/// as the answer to the `state` command (then with the command's `id` and the open `tasks`, a
/// page at a time: `cursor` says where the next page starts).
/// `{"type":"state","seq":58,"coins":25,"xp":30,"level":2,"streak":1,"mood":"happy","reminders_waiting":0}`.
public struct StateMessage: Codable, Sendable, Equatable {
    public static let type = "state"
    public var type = StateMessage.type
    public var id: String?
    public var seq: Int64
    public var coins: Int
    public var xp: Int
    public var level: Int
    public var streak: Int
    public var mood: String
    public var remindersWaiting: Int
    public var tasks: [TaskSummary]?
    /// In an answer to the `state` command whose open tasks did not all fit in one frame: the
    /// `cursor` field to send for the next page (docs/protocol.md#limits-and-timeouts). Absent: the last page.
    public var cursor: Int?

    public struct TaskSummary: Codable, Sendable, Equatable {
        public var id: String
        public var title: String
        public var due: Int64?
        public var category: String?
        public init(id: String, title: String, due: Int64?, category: String?) {
            self.id = id; self.title = title; self.due = due; self.category = category
        }
    }

    enum CodingKeys: String, CodingKey {
        case type, id, seq, coins, xp, level, streak, mood, tasks, cursor
        case remindersWaiting = "reminders_waiting"
    }

    public init(id: String? = nil, seq: Int64, coins: Int, xp: Int, level: Int, streak: Int, mood: String,
                remindersWaiting: Int, tasks: [TaskSummary]? = nil) {
        self.id = id; self.seq = seq; self.coins = coins; self.xp = xp; self.level = level; self.streak = streak
        self.mood = mood; self.remindersWaiting = remindersWaiting; self.tasks = tasks
    }
}
