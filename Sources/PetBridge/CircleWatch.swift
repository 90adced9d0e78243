import PetCore

/// Circles followed live (docs/circles.md#watching-circles), decided without sockets: the retained
/// and live reports of several circles taken in through each circle's `CircleSync` (the same
/// ingestion as `circle sync`: the topic's member, the rules, the report every device keeps), and
/// for each circle whose leaderboard changed, the new leaderboard as one line.
public struct CircleWatch {
    public private(set) var circles: [CircleSync]
    public let metric: LeaderboardMetric
    private var shown: [String?]
    private var dirty: Set<Int> = []

    /// `prefixes`: the circles' topic prefixes (each checked as an invite's is).
    public init(broker: String, prefixes: [String], metric: LeaderboardMetric = .coins) throws(BridgeError) {
        guard (1...CircleWatch.maxCircles).contains(prefixes.count), Set(prefixes).count == prefixes.count else {
            throw .usage("1–\(CircleWatch.maxCircles) different prefixes")
        }
        var list: [CircleSync] = []
        for p in prefixes {
            let last = String(p.split(separator: "/").last ?? "")
            let invite = CircleInvite(broker: broker, prefix: p, circle: CircleLedgerRules.isID(last) ? last : "circle",
                                      member: "watcher", password: "not-a-password")
            if let problem = invite.problem() { throw .usage("the \(problem) '\(p.prefix(64))' is not valid (docs/circles.md#invites)") }
            list.append(CircleSync(entry: CircleEntry(invite: invite, share: "none", screenGoal: 0)))
        }
        circles = list
        self.metric = metric
        shown = [String?](repeating: nil, count: list.count)
    }

    public static let maxCircles = 256

    /// The subscriptions: each circle's members' reports.
    public var topics: [String] { circles.map { "\($0.entry.prefix)/+/report" } }

    /// Members held over every circle.
    public var membersHeld: Int { circles.reduce(0) { $0 + $1.board.reports.count } }

    /// Reports refused over every circle.
    public var refusedCount: Int { circles.reduce(0) { $0 + $1.refused.count } }

    /// Takes in one message; false when it is no circle's report topic.
    @discardableResult
    public mutating func receive(topic: String, payload: [UInt8]) -> Bool {
        var taken = false
        for i in circles.indices where circles[i].member(ofTopic: topic) != nil {
            circles[i].receive(topic: topic, payload: payload)
            dirty.insert(i)
            taken = true
        }
        return taken
    }

    /// The leaderboard of a board: `metric` over the week most members report
    /// (`Leaderboard.period`, as the members' devices rank it; a watcher has no calendar of its own).
    public static func leaderboard(_ board: CircleBoard, metric: LeaderboardMetric) -> [LeaderboardRow] {
        let (week, month) = Leaderboard.period(board) ?? (0, 0)
        return Leaderboard.rank(board, metric: metric, period: .week, week: week, month: month)
    }

    /// One leaderboard as text: `rank:member:value` per row, `;` between rows (no names).
    public static func text(_ rows: [LeaderboardRow]) -> String {
        rows.map { "\($0.rank):\($0.member):\($0.value)" }.joined(separator: ";")
    }

    /// The circles whose leaderboard changed since the last call: prefix, members ranked, the
    /// leaderboard's text.
    public mutating func changes() -> [(prefix: String, ranked: Int, rows: String)] {
        var out: [(String, Int, String)] = []
        for i in dirty.sorted() {
            let rows = Self.leaderboard(circles[i].board, metric: metric)
            let t = Self.text(rows)
            if shown[i] != t {
                shown[i] = t
                out.append((circles[i].entry.prefix, rows.count, t))
            }
        }
        dirty = []
        return out
    }
}
