import PetCore

/// `circle.state` (device → client): the answer to the read-only link command `circle.state`
/// (docs/protocol.md#circles) — what the device knows about its circles, for the companion's
/// Circles view: the circles joined and what each is shared, and for one of them the leaderboards
/// the bridge last handed over (the ranks the Circle screen shows), the challenges whose stake is
/// held and the latest settlements. Numbers, ids and the pets' names only; nothing personal of
/// the owner's (no titles, notes, thoughts, apps, triggers). Bounded by the ledger's own limits
/// (`CircleLedgerRules`): at most 8 circles, 8 boards of 12 rows, 16 challenges, 8 settlements,
/// each settlement summarised (counts, not the other members' outcomes), so the answer always
/// fits one frame (CircleStateLinkTests fills every limit with the longest names).
public struct CircleStateMessage: Codable, Sendable, Equatable {
    public static let type = "circle.state"
    public var type = CircleStateMessage.type
    public var id: String?
    /// The device's clock (unix seconds): what "running" and "settling" are judged against.
    public var at: Int64
    /// Every circle joined, by id.
    public var circles: [Circle]
    /// The circle described below (the one asked for, else the first by id; absent: none joined).
    public var circle: String?
    /// Its leaderboards, week before month, then coins, focus, screen, streak.
    public var boards: [Board]
    /// Its challenges with a stake held (accepted, running, or closed and waiting to settle).
    public var challenges: [Challenge]
    /// Its latest settlements, newest first.
    public var settled: [Settled]
    /// Coins held in stakes over every circle, given to the charity jar, lost by leaving early.
    public var held: Int
    public var charityJar: Int
    public var forfeited: Int
    /// The joins asked for from the companion (`circle.join.request`), as the device holds them in
    /// memory: waiting, joined or refused with the bridge's reason — never the invite.
    public var joins: [Join]?

    public struct Join: Codable, Sendable, Equatable {
        public var join: String
        public var circle: String
        public var member: String
        /// `waiting`, `joined` or `refused`.
        public var status: String
        public var reason: String?
        public var requestedAt: Int64
        enum CodingKeys: String, CodingKey {
            case join, circle, member, status, reason
            case requestedAt = "requested_at"
        }
        public init(_ r: CircleJoinRequest) {
            join = r.id; circle = r.circle; member = r.member; status = r.status; reason = r.reason; requestedAt = r.requestedAt.seconds
        }
    }

    public struct Circle: Codable, Sendable, Equatable {
        public var circle: String
        public var member: String
        /// What the owner consented to share with it (sorted).
        public var share: [String]
        public var screenGoal: Int
        public var joinedAt: Int64
        enum CodingKeys: String, CodingKey {
            case circle, member, share
            case screenGoal = "screen_goal", joinedAt = "joined_at"
        }
    }

    public struct Row: Codable, Sendable, Equatable {
        public var rank: Int
        public var member: String
        public var name: String
        public var value: Int
    }

    public struct Board: Codable, Sendable, Equatable {
        public var metric: String
        public var period: String
        /// The week's Monday day number, or the month (year × 12 + month − 1).
        public var number: Int
        public var ranked: Int
        public var at: Int64
        public var rows: [Row]
    }

    public struct Challenge: Codable, Sendable, Equatable {
        public var challenge: String
        public var proposer: String
        /// `tasks:N`, `habit`, `focus:M`, `screen:M`.
        public var goal: String
        public var start: Int64
        public var end: Int64
        /// 48 hours after the end: members without a final by then count as missing.
        public var deadline: Int64
        public var stake: Int
        /// `upcoming`, `running` or `settling` (the window closed, waiting for the settlement).
        public var phase: String
        /// This member's progress so far (the device's own judgement; for `habit`, `focus` and
        /// `screen` the days met).
        public var progress: Int
        /// Finals held, this member's included.
        public var finals: Int
        enum CodingKeys: String, CodingKey {
            case challenge, proposer, goal, start, end, deadline, stake, phase, progress, finals
        }
    }

    public struct Settled: Codable, Sendable, Equatable {
        public var challenge: String
        public var stake: Int
        public var payout: Int
        /// This member's outcome: `succeeded`, `failed`, `left` or `missing`.
        public var outcome: String
        /// Members settled, and how many of them succeeded.
        public var members: Int
        public var succeeded: Int
        /// The circle's charity share of this settlement.
        public var charity: Int
        public var at: Int64
    }

    enum CodingKeys: String, CodingKey {
        case type, id, at, circles, circle, boards, challenges, settled, held, forfeited, joins
        case charityJar = "charity_jar"
    }

    /// The answer for `state`: `circle` (nil: the first joined, by id) described in full.
    /// Nil when `circle` is named but not joined.
    public init?(id: String?, state s: PetState, circle asked: String?, now: Instant) {
        let c = s.circles
        self.id = id
        at = now.seconds
        circles = c.circles.values.sorted { $0.circle < $1.circle }.map {
            Circle(circle: $0.circle, member: $0.member, share: $0.share.sorted().map(\.rawValue),
                   screenGoal: $0.screenGoal, joinedAt: $0.joinedAt.seconds)
        }
        held = c.held; charityJar = c.charityJar; forfeited = c.forfeited
        boards = []; challenges = []; settled = []
        let shown: CircleMembership?
        if let asked {
            guard let m = c.circles[asked] else { return nil }
            shown = m
        } else {
            shown = c.circles.values.min { $0.circle < $1.circle }
        }
        guard let m = shown else { circle = nil; return }
        circle = m.circle
        boards = (c.standings[m.circle] ?? []).prefix(CircleLedgerRules.maxBoards).map { b in
            Board(metric: b.metric.rawValue, period: b.period.rawValue, number: b.number, ranked: b.ranked, at: b.at.seconds,
                  rows: b.rows.prefix(CircleLedgerRules.maxRows).map {
                      Row(rank: $0.rank, member: $0.member, name: $0.petName, value: $0.value)
                  })
        }
        challenges = c.challenges.values.filter { $0.circle == m.circle }.sorted { $0.terms.id < $1.terms.id }.map { h in
            let t = h.terms
            let phase = now < t.start ? "upcoming" : (now < t.end ? "running" : "settling")
            return Challenge(challenge: t.id, proposer: t.proposer, goal: t.goal.text, start: t.start.seconds, end: t.end.seconds,
                             deadline: t.finalDeadline.seconds, stake: t.stake, phase: phase,
                             progress: now < t.start ? 0 : (h.finals[m.member]?.value ?? s.judge(t).value), finals: h.finals.count)
        }
        settled = c.settled.filter { $0.circle == m.circle }.reversed().map { d in
            let o = d.settlement.outcomes
            return Settled(challenge: d.settlement.challenge, stake: d.stake, payout: d.payout,
                           outcome: (o[d.member] ?? .missing).rawValue, members: o.count,
                           succeeded: o.values.filter { $0 == .succeeded }.count, charity: d.settlement.charity, at: d.at.seconds)
        }
    }
}
