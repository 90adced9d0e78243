/// The device's side of circles (docs/circles.md#on-the-device): the circles it joined and what it
/// shares with each, the stakes it holds for group challenges, the finals it was handed, the
/// settlements it computed, and the leaderboard it shows. Every change is a journaled `circle.*`
/// event, so a replay gives the same coins.
///
/// The bridge (`deskpet-bridge circle …`) carries reports between the broker and the device; the
/// device computes its own member's report and judges its own member's challenges
/// (CircleReporting.swift), and settles a challenge itself from the finals it holds
/// (`ChallengeSettlement.settle`), so a bridge can neither move coins nor speak for the member.

/// What a member may share with one circle (the owner's consent, per circle). The pet's name and
/// level are always shared: they are how the others know the member.
public enum CircleShare: String, Codable, Sendable, CaseIterable, Comparable {
    /// Coins earned this week and month.
    case coins
    /// Tasks done this week.
    case tasks
    /// The streak.
    case streak
    /// Focus minutes.
    case focus
    /// Phone screen time and the daily goal.
    case screen
    /// The 66-day course's day and posts read (course circles).
    case course
    /// The week's habit score (the daily checklist's points, docs/habits.md) and the days scored.
    case habits
    /// Progress in the circle's challenges (needed to take part in one).
    case challenges

    public static func < (a: CircleShare, b: CircleShare) -> Bool { a.rawValue < b.rawValue }

    /// `coins,focus` → the set; `all` → every one; `none` → none.
    public static func parse(_ text: String) -> Set<CircleShare>? {
        if text == "all" { return Set(allCases) }
        if text == "none" { return [] }
        var out: Set<CircleShare> = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let s = CircleShare(rawValue: String(part).trimmingSpaces) else { return nil }
            out.insert(s)
        }
        return out
    }
}

/// One circle the device belongs to.
public struct CircleMembership: Codable, Sendable, Equatable {
    /// The circle's id (the bridge's name for it; also the last part of its topic prefix).
    public var circle: String
    /// This device's member id in the circle.
    public var member: String
    /// What the owner agreed to share with it.
    public var share: Set<CircleShare>
    /// The daily screen-time goal shared with it (minutes; 0: none, not ranked on screen time).
    public var screenGoal: Int
    public var joinedAt: Instant

    public init(circle: String, member: String, share: Set<CircleShare>, screenGoal: Int, joinedAt: Instant) {
        self.circle = circle; self.member = member; self.share = share; self.screenGoal = screenGoal; self.joinedAt = joinedAt
    }
}

/// A challenge the device holds a stake for.
public struct HeldChallenge: Codable, Sendable, Equatable {
    public var circle: String
    public var terms: ChallengeTerms
    public var acceptedAt: Instant
    /// Final progress held, by member (the own member's included once judged): the rule of
    /// `CircleBoard.finals` — once held, only an earlier or less favourable final replaces it.
    public var finals: [String: ChallengeProgress] = [:]
}

/// A settled challenge, as the device computed it (kept for the screen: the latest few).
public struct SettledChallenge: Codable, Sendable, Equatable {
    public var circle: String
    public var settlement: ChallengeSettlement
    /// This device's member and what it got back.
    public var member: String
    public var payout: Int
    public var stake: Int
    public var at: Instant
    /// This member's final, repeated in its reports until `CircleRules.keepFinals` after the
    /// challenge's deadline (a member offline at the close settles from it when it comes back).
    public var final: ChallengeProgress?
    public var deadline: Instant

    public init(circle: String, settlement: ChallengeSettlement, member: String, payout: Int, stake: Int, at: Instant,
                final: ChallengeProgress?, deadline: Instant) {
        self.circle = circle; self.settlement = settlement; self.member = member; self.payout = payout; self.stake = stake; self.at = at
        self.final = final; self.deadline = deadline
    }
}

/// The leaderboard the bridge last handed the device for one circle (computed by
/// `Leaderboard.rank` from the reports it holds; the device shows it).
public struct CircleStanding: Codable, Sendable, Equatable {
    public var metric: LeaderboardMetric
    public var period: LeaderboardPeriod
    /// The week's Monday day number, or the month (year × 12 + month − 1), ranked.
    public var number: Int
    /// Members ranked in all (the rows are the top ones and this device's).
    public var ranked: Int
    public var rows: [LeaderboardRow]
    public var at: Instant

    public init(metric: LeaderboardMetric, period: LeaderboardPeriod, number: Int, ranked: Int, rows: [LeaderboardRow], at: Instant) {
        self.metric = metric; self.period = period; self.number = number; self.ranked = ranked; self.rows = rows; self.at = at
    }
}

public struct CircleState: Codable, Sendable, Equatable {
    public var circles: [String: CircleMembership] = [:]
    /// Held stakes, by challenge id.
    public var challenges: [String: HeldChallenge] = [:]
    /// The latest settlements (at most `CircleLedgerRules.keepSettled`), oldest first.
    public var settled: [SettledChallenge] = []
    /// Leaderboards to show, by circle: one per period and metric (at most
    /// `CircleLedgerRules.maxBoards`), week before month, then coins, focus, screen, streak.
    public var standings: [String: [CircleStanding]] = [:]
    /// What went to the charity jar from the challenges this device settled: every stake when
    /// nobody succeeded, the remainder of an uneven split — the circle's whole charity, the same
    /// figure on every member's device (the pot is conserved: payouts + charity = stakes).
    public var charityJar = 0
    /// Stakes this device lost by leaving a challenge early (a forfeit).
    public var forfeited = 0
    public init() {}

    /// Coins held in stakes (not spendable until settled).
    public var held: Int { challenges.values.reduce(0) { $0 + $1.terms.stake } }

    /// The circle's leaderboard for one period and metric, if the bridge handed one.
    public func standing(_ circle: String, _ metric: LeaderboardMetric, _ period: LeaderboardPeriod) -> CircleStanding? {
        standings[circle]?.first { $0.metric == metric && $0.period == period }
    }
}

extension CircleStanding {
    /// The order the boards of a circle are kept and shown in: week before month, then
    /// coins, focus, screen, streak.
    public var order: Int {
        (period == .week ? 0 : 10) + (LeaderboardMetric.allCases.firstIndex(of: metric) ?? 0)
    }
}

public enum CircleLedgerRules {
    /// Circles one device belongs to at most.
    public static let maxCircles = 8
    /// Challenges held at once (all circles).
    public static let maxChallenges = 16
    /// Members a challenge may have (the settle command's member list fits one field).
    public static let maxChallengeMembers = 50
    /// Settlements kept for the screen.
    public static let keepSettled = 8
    /// Leaderboard rows the device keeps for one board.
    public static let maxRows = 12
    /// Boards a circle has at most: one per period and metric.
    public static let maxBoards = LeaderboardPeriod.allCases.count * LeaderboardMetric.allCases.count

    /// Circle and challenge ids: 1–48 of `a-z 0-9 -` (topic-safe).
    public static func isID(_ s: String) -> Bool {
        guard (1...48).contains(s.utf8.count) else { return false }
        return s.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2d }
    }
}

// MARK: - Commands

public enum CircleAction: Sendable, Equatable {
    case join(circle: String, member: String, share: Set<CircleShare>, screenGoal: Int)
    /// Leaves the circle: a running challenge's stake is forfeited (docs/circles.md).
    case leave(circle: String)
    /// Accepts a proposed challenge before its start: its stake is held.
    case accept(circle: String, terms: ChallengeTerms)
    /// Another member's final progress, as the bridge read it from that member's report.
    case final(circle: String, member: String, progress: ChallengeProgress)
    /// Judges this device's own member in every challenge of the circle whose window has closed
    /// (the `circle.report` link command sends it before it builds the report).
    case judge(circle: String)
    /// Settles a challenge among `members` (those who accepted before its start).
    case settle(circle: String, challenge: String, members: [String])
    /// The leaderboard to show.
    case standing(circle: String, standing: CircleStanding)

    public var name: String {
        switch self {
        case .join: "circle.join"
        case .leave: "circle.leave"
        case .accept: "circle.accept"
        case .final: "circle.final"
        case .judge: "circle.judge"
        case .settle: "circle.settle"
        case .standing: "circle.standing"
        }
    }
}

enum CircleCommands: CommandTable {
    static let fields: [String: Set<String>] = [
        "circle.join": ["circle", "member", "share", "screen_goal"],
        "circle.leave": ["circle"],
        "circle.accept": ["circle", "challenge", "proposer", "goal", "start", "end", "stake"],
        "circle.final": ["circle", "challenge", "member", "met", "value", "final_at", "left"],
        "circle.judge": ["circle"],
        "circle.settle": ["circle", "challenge", "members"],
        "circle.standing": ["circle", "metric", "period", "number", "ranked", "rows"],
    ]

    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? {
        func id(_ k: String) throws(DomainError) -> String {
            let v = try f.required(k)
            guard CircleLedgerRules.isID(v) else { throw .invalidField(field: k, reason: "must be 1–48 of a-z, 0-9 and -") }
            return v
        }
        func member(_ k: String) throws(DomainError) -> String {
            let v = try f.required(k)
            guard CircleRules.isMemberID(v) else { throw .invalidField(field: k, reason: "must be 4–32 of a-z, 0-9 and -") }
            return v
        }
        func yesNo(_ k: String, default d: Bool) throws(DomainError) -> Bool {
            switch f[k] {
            case nil: return d
            case "yes"?: return true
            case "no"?: return false
            default: throw .invalidField(field: k, reason: "must be yes or no")
            }
        }
        func count(_ k: String) throws(DomainError) -> Int {
            guard let n = try f.int(k) else { throw .missingField(field: k) }
            guard n >= 0 else { throw .invalidField(field: k, reason: "must be 0 or more") }
            return n
        }
        switch name {
        case "circle.join":
            guard let share = CircleShare.parse(f["share"] ?? "none") else {
                throw .invalidField(field: "share", reason: "must be all, none or a list of \(CircleShare.allCases.map(\.rawValue).joined(separator: ","))")
            }
            let goal = try f.int("screen_goal") ?? 0
            guard (0...1440).contains(goal) else { throw .invalidField(field: "screen_goal", reason: "must be 0–1440 minutes") }
            return .circle(.join(circle: try id("circle"), member: try member("member"), share: share, screenGoal: goal))
        case "circle.leave": return .circle(.leave(circle: try id("circle")))
        case "circle.judge": return .circle(.judge(circle: try id("circle")))
        case "circle.accept":
            guard let goal = ChallengeGoal(text: try f.required("goal")) else {
                throw .invalidField(field: "goal", reason: "must be tasks:N, habit, focus:M or screen:M")
            }
            guard let start = try f.time("start") else { throw .missingField(field: "start") }
            guard let end = try f.time("end") else { throw .missingField(field: "end") }
            guard let stake = try f.int("stake") else { throw .missingField(field: "stake") }
            let proposer = try member("proposer")
            let terms = ChallengeTerms(id: try id("challenge"), proposer: proposer, goal: goal,
                                       start: start, end: end, stake: stake)
            switch terms.problem() {
            case nil: break
            case "id"?: throw .invalidField(field: "challenge", reason: "must be \(proposer)-1 or \(proposer)-2 (the proposer's id, '-' and a number)")
            case "window"?: throw .invalidField(field: "end", reason: "must be 1–92 whole days after start")
            case "stake"?: throw .invalidField(field: "stake", reason: "must be \(CircleRules.stakeRange.text) coins")
            case let p?: throw .invalidField(field: p, reason: "breaks the challenge rules (docs/circles.md#limits)")
            }
            return .circle(.accept(circle: try id("circle"), terms: terms))
        case "circle.final":
            guard let at = try f.time("final_at") else { throw .missingField(field: "final_at") }
            let p = ChallengeProgress(challenge: try id("challenge"), met: try yesNo("met", default: false),
                                      value: try count("value"), finalAt: at, left: try yesNo("left", default: false))
            return .circle(.final(circle: try id("circle"), member: try member("member"), progress: p))
        case "circle.settle":
            let list = try f.required("members").split(separator: ",").map { String($0).trimmingSpaces }
            for (i, m) in list.enumerated() where !CircleRules.isMemberID(m) {
                throw .invalidField(field: "members[\(i)]", reason: "must be 4–32 of a-z, 0-9 and -")
            }
            return .circle(.settle(circle: try id("circle"), challenge: try id("challenge"), members: list))
        case "circle.standing":
            guard let metric = LeaderboardMetric(rawValue: try f.required("metric")) else {
                throw .invalidField(field: "metric", reason: "must be coins, focus, screen or streak")
            }
            guard let period = LeaderboardPeriod(rawValue: try f.required("period")) else {
                throw .invalidField(field: "period", reason: "must be week or month")
            }
            let rows = try Self.rows(f["rows"] ?? "")
            return .circle(.standing(circle: try id("circle"), standing: CircleStanding(
                metric: metric, period: period, number: try count("number"), ranked: try count("ranked"), rows: rows, at: f.at)))
        default: return nil
        }
    }

    /// `rank:member:value:name` rows separated by `;` (the name last, with `%` `;` written `%25`
    /// `%3B`).
    static func rows(_ text: String) throws(DomainError) -> [LeaderboardRow] {
        var out: [LeaderboardRow] = []
        for (i, part) in text.split(separator: ";").enumerated() {
            let bits = part.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            guard bits.count == 4, let rank = Int(bits[0]), rank >= 1, let value = Int(bits[2]), value >= 0,
                  CircleRules.isMemberID(String(bits[1])), let name = unescape(bits[3]),
                  CircleRules.nameLength.contains(name.count) else {
                throw .invalidField(field: "rows[\(i)]", reason: "must be rank:member:value:name")
            }
            out.append(LeaderboardRow(rank: rank, member: String(bits[1]), petName: name, value: value))
        }
        guard out.count <= CircleLedgerRules.maxRows else {
            throw .limitReached(what: "leaderboard rows", limit: CircleLedgerRules.maxRows)
        }
        return out
    }

    /// The row format's escaping of a name (`%` → `%25`, `;` → `%3B`).
    public static func escape(_ name: String) -> String {
        name.replacingAll("%", "%25").replacingAll(";", "%3B")
    }

    static func unescape(_ s: Substring) -> String? {
        var out = ""
        var it = s.makeIterator()
        while let c = it.next() {
            guard c == "%" else { out.append(c); continue }
            guard let a = it.next(), let b = it.next() else { return nil }
            switch String([a, b]) {
            case "25": out.append("%")
            case "3B", "3b": out.append(";")
            default: return nil
            }
        }
        return out
    }
}

extension String {
    func replacingAll(_ a: Character, _ b: String) -> String {
        var out = ""
        for c in self { if c == a { out += b } else { out.append(c) } }
        return out
    }
}

// MARK: - Events

public enum CircleEvent: SubEvent {
    case joined(CircleMembership)
    case left(circle: String)
    /// A challenge accepted: its stake held (−stake).
    case staked(circle: String, terms: ChallengeTerms)
    /// A final progress held (another member's, or this device's own member judged).
    case finalHeld(circle: String, member: String, progress: ChallengeProgress)
    /// Left a running challenge: the held stake is lost (it is the others' or the charity jar's).
    case forfeited(circle: String, challenge: String, stake: Int)
    /// Settled: the held stake is released and this member's payout added (+payout).
    case settled(SettledChallenge)
    case standing(circle: String, standing: CircleStanding)

    public var type: String {
        switch self {
        case .joined: "circle.joined"
        case .left: "circle.left"
        case .staked: "circle.staked"
        case .finalHeld: "circle.final"
        case .forfeited: "circle.forfeited"
        case .settled: "circle.settled"
        case .standing: "circle.standing"
        }
    }

    public var coinsDelta: Int {
        switch self {
        case .staked(_, let t): -t.stake
        case .settled(let s): s.payout
        default: 0
        }
    }

    public static func owns(_ type: String) -> Bool { type.hasPrefix("circle.") }
    public static let allTypes = ["circle.joined", "circle.left", "circle.staked", "circle.final", "circle.forfeited",
                                  "circle.settled", "circle.standing"]

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        func put<T: Encodable>(_ v: T, _ k: String) throws { try c.encode(v, forKey: AnyKey(k)) }
        try put(type, "type")
        switch self {
        case .joined(let m): try put(m, "membership")
        case .left(let circle): try put(circle, "circle")
        case let .staked(circle, t): try put(circle, "circle"); try put(t, "terms")
        case let .finalHeld(circle, member, p): try put(circle, "circle"); try put(member, "member"); try put(p, "progress")
        case let .forfeited(circle, ch, stake): try put(circle, "circle"); try put(ch, "challenge"); try put(stake, "stake")
        case .settled(let s): try put(s, "settled")
        case let .standing(circle, s): try put(circle, "circle"); try put(s, "standing")
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        func get<T: Decodable>(_ k: String) throws -> T { try c.decode(T.self, forKey: AnyKey(k)) }
        let type: String = try get("type")
        switch type {
        case "circle.joined": self = .joined(try get("membership"))
        case "circle.left": self = .left(circle: try get("circle"))
        case "circle.staked": self = .staked(circle: try get("circle"), terms: try get("terms"))
        case "circle.final": self = .finalHeld(circle: try get("circle"), member: try get("member"), progress: try get("progress"))
        case "circle.forfeited": self = .forfeited(circle: try get("circle"), challenge: try get("challenge"), stake: try get("stake"))
        case "circle.settled": self = .settled(try get("settled"))
        case "circle.standing": self = .standing(circle: try get("circle"), standing: try get("standing"))
        default: throw unknownSubEvent(decoder, type)
        }
    }
}

// MARK: - The subsystem

enum CirclesSubsystem: EventWrappingSubsystem {
    typealias Commands = CircleCommands
    static func claim(_ action: Action) -> CircleAction? { if case .circle(let a) = action { a } else { nil } }
    static func claim(_ event: EventKind) -> CircleEvent? { if case .circle(let e) = event { e } else { nil } }
    static func wrap(_ event: CircleEvent) -> EventKind { .circle(event) }

    static func run(_ action: CircleAction, in engine: inout Engine, at: Instant, commandID: String) throws(DomainError) {
        try engine.runCircle(action, at: at)
    }

    static func apply(_ event: CircleEvent, to engine: inout Engine, at: Instant) {
        engine.state.circles.apply(event)
    }
}

extension CircleState {
    mutating func apply(_ e: CircleEvent) {
        switch e {
        case .joined(let m): circles[m.circle] = m
        case .left(let circle):
            circles[circle] = nil
            standings[circle] = nil
        case let .staked(circle, t):
            challenges[t.id] = HeldChallenge(circle: circle, terms: t, acceptedAt: t.start)
        case let .finalHeld(_, member, p):
            challenges[p.challenge]?.finals[member] = p
        case let .forfeited(_, ch, stake):
            challenges[ch] = nil
            forfeited = forfeited.saturatingAdded(stake)
        case .settled(let s):
            challenges[s.settlement.challenge] = nil
            charityJar = charityJar.saturatingAdded(s.settlement.charity)
            settled.append(s)
            if settled.count > CircleLedgerRules.keepSettled { settled.removeFirst(settled.count - CircleLedgerRules.keepSettled) }
        case let .standing(circle, s):
            var boards = (standings[circle] ?? []).filter { $0.metric != s.metric || $0.period != s.period }
            boards.append(s)
            standings[circle] = boards.sorted { $0.order < $1.order }
        }
    }
}

extension Engine {
    private func membership(_ circle: String) throws(DomainError) -> CircleMembership {
        guard let m = state.circles.circles[circle] else { throw .notFound(kind: "circle", id: circle) }
        return m
    }

    private func held(_ circle: String, _ challenge: String) throws(DomainError) -> HeldChallenge {
        guard let h = state.circles.challenges[challenge], h.circle == circle else { throw .notFound(kind: "challenge", id: challenge) }
        return h
    }

    mutating func runCircle(_ a: CircleAction, at: Instant) throws(DomainError) {
        switch a {
        case let .join(circle, member, share, goal):
            if let m = state.circles.circles[circle] {
                // Joining again changes the consent (the member id stays: the others know it).
                guard m.member == member else {
                    throw .invalidState(kind: "circle", id: circle, reason: "is joined as \(m.member): leave it first")
                }
                guard m.share != share || m.screenGoal != goal else { return }
                emit(.circle(.joined(CircleMembership(circle: circle, member: member, share: share, screenGoal: goal, joinedAt: m.joinedAt))), at: at)
                return
            }
            guard state.circles.circles.count < CircleLedgerRules.maxCircles else {
                throw .limitReached(what: "circles", limit: CircleLedgerRules.maxCircles)
            }
            emit(.circle(.joined(CircleMembership(circle: circle, member: member, share: share, screenGoal: goal, joinedAt: at))), at: at)

        case .leave(let circle):
            let m = try membership(circle)
            let mine = state.circles.challenges.values.filter { $0.circle == circle }.sorted { $0.terms.id < $1.terms.id }
            // A closed window waits for its settlement: the member's final is already out, and the
            // others pay it out or not; leaving now would lose coins that are not the device's to lose.
            if let closed = mine.first(where: { at >= $0.terms.end }) {
                throw .invalidState(kind: "circle", id: circle,
                                    reason: "has challenge \(closed.terms.id) closed and waiting for its settlement (until \(state.clock.local(closed.terms.missingAfter)))")
            }
            for h in mine {
                let p = ChallengeProgress(challenge: h.terms.id, met: false, value: 0, finalAt: at, left: true)
                emit(.circle(.finalHeld(circle: circle, member: m.member, progress: p)), at: at)
                emit(.circle(.forfeited(circle: circle, challenge: h.terms.id, stake: h.terms.stake)), at: at)
            }
            emit(.circle(.left(circle: circle)), at: at)

        case let .accept(circle, terms):
            let m = try membership(circle)
            guard m.share.contains(.challenges) else {
                throw .invalidState(kind: "circle", id: circle, reason: "does not have the owner's consent to share challenge progress (share=challenges)")
            }
            if let h = state.circles.challenges[terms.id] {
                guard h.terms == terms else { throw .alreadyExists(kind: "challenge", id: terms.id) }
                return   // accepted before: nothing changes
            }
            guard at < terms.start else {
                throw .invalidState(kind: "challenge", id: terms.id, reason: "has started (\(state.clock.local(terms.start))): accept before the start")
            }
            guard state.circles.challenges.count < CircleLedgerRules.maxChallenges else {
                throw .limitReached(what: "challenges", limit: CircleLedgerRules.maxChallenges)
            }
            let spendable = state.coins
            guard spendable >= terms.stake else { throw .insufficientCoins(needed: terms.stake, balance: spendable) }
            emit(.circle(.staked(circle: circle, terms: terms)), at: at)

        case let .final(circle, member, p):
            let m = try membership(circle)
            let h = try held(circle, p.challenge)
            guard member != m.member else {
                throw .invalidField(field: "member", reason: "is this device's own member: the device judges it itself")
            }
            if let old = h.finals[member], !ChallengeProgress.keeps(p, over: old) { return }
            emit(.circle(.finalHeld(circle: circle, member: member, progress: p)), at: at)

        case .judge(let circle):
            let m = try membership(circle)
            let due = state.circles.challenges.values.filter { $0.circle == circle && at >= $0.terms.end && $0.finals[m.member] == nil }
            for h in due.sorted(by: { $0.terms.id < $1.terms.id }) {
                let (met, value) = state.judge(h.terms)
                emit(.circle(.finalHeld(circle: circle, member: m.member,
                                        progress: ChallengeProgress(challenge: h.terms.id, met: met, value: value, finalAt: at))), at: at)
            }

        case let .settle(circle, challenge, members):
            let m = try membership(circle)
            let h = try held(circle, challenge)
            let set = Set(members)
            guard set.count == members.count else { throw .invalidField(field: "members", reason: "names a member twice") }
            guard set.contains(m.member) else { throw .invalidField(field: "members", reason: "must include this device's member \(m.member)") }
            guard set.count <= CircleLedgerRules.maxChallengeMembers else {
                throw .limitReached(what: "challenge members", limit: CircleLedgerRules.maxChallengeMembers)
            }
            var board = CircleBoard()
            board.holdFinals(challenge, h.finals)
            guard let s = ChallengeSettlement.settle(h.terms, members: members, board: board, now: at) else {
                throw .invalidState(kind: "challenge", id: challenge,
                                    reason: at < h.terms.end ? "is still running" : "waits for members' finals until \(state.clock.local(h.terms.missingAfter))")
            }
            emit(.circle(.settled(SettledChallenge(circle: circle, settlement: s, member: m.member,
                                                   payout: s.payouts[m.member] ?? 0, stake: h.terms.stake, at: at,
                                                   final: h.finals[m.member], deadline: h.terms.finalDeadline))), at: at)

        case let .standing(circle, standing):
            _ = try membership(circle)
            let old = state.circles.standing(circle, standing.metric, standing.period)
            guard old.map({ var o = $0; o.at = standing.at; return o != standing }) ?? true else { return }
            emit(.circle(.standing(circle: circle, standing: standing)), at: at)
        }
    }
}

extension LeaderboardRow {
    /// The row as `circle.standing`'s `rows` field writes it: `rank:member:value:name`.
    public var standingText: String { "\(rank):\(member):\(value):\(CircleCommands.escape(petName))" }
}
