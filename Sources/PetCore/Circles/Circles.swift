/// Circles: friends, group challenges and course leaders over an MQTT broker (docs/circles.md).
///
/// A circle has no server of its own: every member's device publishes a report (filtered numbers
/// only, never titles, thoughts, apps or triggers) on its own retained topic, and every device
/// computes the leaderboards and the challenge settlements from the reports it holds. The
/// functions here are pure, so two devices holding the same reports compute the same ranks and the
/// same settlement, whatever order the reports arrived in and however often one was delivered.

/// A member's identity inside a circle: short, printable, chosen by its device at join.
public enum CircleRules {
    /// Member ids: 4–32 characters of `a-z 0-9 -` (what topic names and CSV cells take as they are).
    public static let memberIDLength = 4...32
    /// Members in one circle at most (what one device holds and ranks; docs/circles.md for more).
    public static let maxMembers = 5000
    /// A pet's name as shared: the title rules, at most this many characters.
    public static let nameLength = 1...24
    /// Challenges a report may carry progress for.
    public static let maxChallenges = 16
    /// Stake per member, in coins.
    public static let stakeRange = 1...1000
    /// A challenge window, in days.
    public static let windowDays = 1...92
    /// How long after a challenge's end a member's final report is waited for. A member without a
    /// final report published by then counts as failed; see `ChallengeSettlement`.
    public static let finalGrace: Int64 = 48 * Seconds.hour
    /// How much longer a device waits before it counts a member without a final as missing: the
    /// members' clocks may differ (docs/circles.md#clock-skew). A final stamped before the deadline
    /// by a member whose clock is `b` behind is on the broker at most `b` after the true deadline;
    /// a device whose clock is `a` ahead counts the missing at `clockAllowance − a` after it. So
    /// every device settles the same as long as `a + b` stays under this (one clock a day ahead and
    /// another a day behind, just).
    public static let clockAllowance: Int64 = 48 * Seconds.hour
    /// How long a device repeats a final progress in its reports after the deadline, so a member
    /// offline at the close settles from the same finals when it comes back.
    public static let keepFinals: Int64 = 30 * Seconds.day

    public static func isMemberID(_ s: String) -> Bool {
        guard memberIDLength.contains(s.utf8.count) else { return false }
        return s.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2d }
    }
}

/// One challenge's progress as its member's device judges it.
public struct ChallengeProgress: Codable, Sendable, Equatable, Hashable {
    public var challenge: String
    /// Whether the goal is met so far (for the final report: met over the whole window).
    public var met: Bool
    /// The member's own figure toward the goal (tasks done, days kept, minutes), for display.
    public var value: Int
    /// When the device first sent its final judgement (the window closed and judged, or the member
    /// left); nil while the challenge runs. A device repeats a final progress, with this same
    /// instant, in every report for `CircleRules.keepFinals` after the deadline.
    public var finalAt: Instant?
    /// The member left the challenge before its end: a forfeit.
    public var left: Bool

    public init(challenge: String, met: Bool, value: Int, finalAt: Instant? = nil, left: Bool = false) {
        self.challenge = challenge; self.met = met; self.value = value; self.finalAt = finalAt; self.left = left
    }

    public var isFinal: Bool { finalAt != nil }

    /// Of two final progresses of one member (a device that judged twice), the one every device
    /// keeps: the earlier, then the less favourable.
    static func keeps(_ a: ChallengeProgress, over b: ChallengeProgress) -> Bool {
        let ka: [Int64] = [a.finalAt?.seconds ?? .max, a.left ? 0 : 1, a.met ? 1 : 0, Int64(a.value)]
        let kb: [Int64] = [b.finalAt?.seconds ?? .max, b.left ? 0 : 1, b.met ? 1 : 0, Int64(b.value)]
        return ka.lexicographicallyPrecedes(kb)
    }
}

/// What a member shares with a circle, retained on its own topic. Numbers only.
public struct MemberReport: Codable, Sendable, Equatable, Hashable {
    public var member: String
    /// The member's report counter: a later report has a higher `seq`.
    public var seq: Int
    /// When the device handed the report to the broker (its own clock).
    public var sentAt: Instant
    public var petName: String
    public var level: Int
    /// The week and month the figures are for: the member's own local calendar (the Monday's day
    /// number since 1970, and year × 12 + month − 1). Ranks compare reports of the same period.
    public var week: Int
    public var month: Int
    public var coinsWeek: Int
    public var coinsMonth: Int
    public var tasksWeek: Int
    public var focusWeek: Int
    public var focusMonth: Int
    /// Phone screen time (minutes) in the period and the daily goal (0: none set).
    public var screenWeek: Int
    public var screenMonth: Int
    public var screenGoal: Int
    public var streak: Int
    /// Course circles: the 66-day course's day and posts read (nil when not on the course).
    public var courseDay: Int?
    public var postsRead: Int?
    /// The week's habit score (the daily checklist's points summed over the week's days,
    /// docs/habits.md) and the days of the week with a score (nil when not shared).
    public var habitWeek: Int?
    public var habitDays: Int?
    /// Each habit's week: the days of the week it was checked (0–7), by its position in the
    /// member's checklist (#1 first) — never its text or id (nil when `habits` is not shared).
    public var habitEach: [Int]?
    public var challenges: [ChallengeProgress]

    public init(member: String, seq: Int, sentAt: Instant, petName: String, level: Int, week: Int, month: Int,
                coinsWeek: Int = 0, coinsMonth: Int = 0, tasksWeek: Int = 0, focusWeek: Int = 0, focusMonth: Int = 0,
                screenWeek: Int = 0, screenMonth: Int = 0, screenGoal: Int = 0, streak: Int = 0,
                courseDay: Int? = nil, postsRead: Int? = nil, challenges: [ChallengeProgress] = []) {
        self.member = member; self.seq = seq; self.sentAt = sentAt; self.petName = petName; self.level = level
        self.week = week; self.month = month; self.coinsWeek = coinsWeek; self.coinsMonth = coinsMonth
        self.tasksWeek = tasksWeek; self.focusWeek = focusWeek; self.focusMonth = focusMonth
        self.screenWeek = screenWeek; self.screenMonth = screenMonth; self.screenGoal = screenGoal
        self.streak = streak; self.courseDay = courseDay; self.postsRead = postsRead; self.challenges = challenges
    }

    /// Why a report is refused, or nil. A report from the wire is checked before it is held.
    public func problem() -> String? {
        if !CircleRules.isMemberID(member) { return "member id" }
        if seq < 0 { return "seq" }
        if !CircleRules.nameLength.contains(petName.count) || petName.utf8.count > 96 { return "pet name" }
        if petName.unicodeScalars.contains(where: { TextRules.refused($0, multiLine: false) }) { return "pet name" }
        if !(1...100).contains(level) { return "level" }
        let counts = [coinsWeek, coinsMonth, tasksWeek, focusWeek, focusMonth, screenWeek, screenMonth, screenGoal, streak]
        if counts.contains(where: { $0 < 0 || $0 > 10_000_000 }) { return "a figure" }
        if let d = courseDay, !(0...66).contains(d) { return "course day" }
        if let p = postsRead, !(0...66).contains(p) { return "posts read" }
        if let h = habitWeek, !(0...10_000_000).contains(h) { return "habit score" }
        if let d = habitDays, !(0...7).contains(d) { return "habit days" }
        if let e = habitEach, e.count > HabitRules.maxActive || e.contains(where: { !(0...7).contains($0) }) { return "habit each" }
        if challenges.count > CircleRules.maxChallenges { return "challenges" }
        if Set(challenges.map(\.challenge)).count != challenges.count { return "challenges" }
        return nil
    }

    /// The order that decides which of two reports of one member is kept: the higher `seq`, then
    /// (two different reports with one `seq`: a device that lost its counter) a total order on the
    /// content, so every device keeps the same one.
    static func supersedes(_ a: MemberReport, _ b: MemberReport) -> Bool {
        if a.seq != b.seq { return a.seq > b.seq }
        return a.orderKey.lexicographicallyPrecedes(b.orderKey) == false && a.orderKey != b.orderKey
    }

    private var orderKey: [Int64] {
        var k: [Int64] = [sentAt.seconds, Int64(level), Int64(week), Int64(month), Int64(coinsWeek), Int64(coinsMonth),
                          Int64(tasksWeek), Int64(focusWeek), Int64(focusMonth), Int64(screenWeek), Int64(screenMonth),
                          Int64(screenGoal), Int64(streak), Int64(courseDay ?? -1), Int64(postsRead ?? -1),
                          Int64(habitWeek ?? -1), Int64(habitDays ?? -1)]
        k += (habitEach ?? []).map(Int64.init)
        k.append(-3)
        k += petName.unicodeScalars.map { Int64($0.value) }
        k.append(-1)
        for c in challenges.sorted(by: { $0.challenge < $1.challenge }) {
            k += c.challenge.unicodeScalars.map { Int64($0.value) }
            k += [-2, c.met ? 1 : 0, Int64(c.value), c.finalAt?.seconds ?? -1, c.left ? 1 : 0]
        }
        return k
    }
}

/// The reports a device holds for one circle: one per member, the one every device would keep.
public struct CircleBoard: Sendable, Equatable {
    public private(set) var reports: [String: MemberReport] = [:]
    /// Final challenge progress, kept from every report received (even one superseded later):
    /// challenge id → member → progress. Once a member's final is held it stays (the earlier and
    /// less favourable of two), so a later weekly report cannot undo a settlement's input.
    public private(set) var finals: [String: [String: ChallengeProgress]] = [:]

    public init() {}

    public enum Refusal: Error, Equatable, Sendable {
        /// The report breaks a rule (its field named).
        case invalid(String)
        /// The circle is full.
        case full
    }

    /// Takes a report in. Returns whether it changed what is held (false: a duplicate or an older
    /// report). Order and repetition do not matter: any sequence of the same reports ends in the
    /// same board.
    @discardableResult
    public mutating func receive(_ r: MemberReport) throws(Refusal) -> Bool {
        if let p = r.problem() { throw .invalid(p) }
        var changed = false
        for c in r.challenges where c.isFinal {
            if let held = finals[c.challenge]?[r.member], !ChallengeProgress.keeps(c, over: held) { continue }
            finals[c.challenge, default: [:]][r.member] = c
            changed = true
        }
        if let old = reports[r.member] {
            guard MemberReport.supersedes(r, old) else { return changed }
        } else if reports.count >= CircleRules.maxMembers {
            throw .full
        }
        reports[r.member] = r
        return true
    }

    /// A member left the circle: its report goes (leaving clears its retained topic). Its finals
    /// stay: a challenge it was in still settles with it as a forfeit or a success.
    public mutating func remove(member: String) { reports[member] = nil }

    /// Puts finals held elsewhere (a device's ledger: `HeldChallenge.finals`) into the board, to
    /// settle from; they were taken in by the same rule as `receive`'s.
    mutating func holdFinals(_ challenge: String, _ held: [String: ChallengeProgress]) {
        for (m, p) in held { finals[challenge, default: [:]][m] = p }
    }

    /// Forgets the finals of a settled challenge.
    public mutating func forget(challenge: String) { finals[challenge] = nil }
}

// MARK: - Leaderboards

public enum LeaderboardMetric: String, Codable, Sendable, CaseIterable {
    /// Coins earned in the period (most first).
    case coins
    /// Focus minutes in the period (most first).
    case focus
    /// Screen time in the period (least first; members without a goal set are not ranked).
    case screen
    /// The current streak (most first; the same for week and month).
    case streak
}

public enum LeaderboardPeriod: String, Codable, Sendable, CaseIterable { case week, month }

public struct LeaderboardRow: Codable, Sendable, Equatable {
    /// 1-based; members with equal values share a rank (1, 2, 2, 4).
    public var rank: Int
    public var member: String
    public var petName: String
    public var value: Int

    public init(rank: Int, member: String, petName: String, value: Int) {
        self.rank = rank; self.member = member; self.petName = petName; self.value = value
    }
}

public enum Leaderboard {
    /// The week and the month a circle's leaderboards are for (docs/circles.md#clock-skew): the
    /// week most members' reports are for (a tie: the later), the month likewise — chosen from the
    /// reports held, not from this device's clock, so every device holding the same reports ranks
    /// the same period even when the members' clocks differ (a member whose clock is a day ahead
    /// on Sunday night reports next week; it does not move the others' boards). nil: no report.
    public static func period(_ board: CircleBoard) -> (week: Int, month: Int)? {
        guard !board.reports.isEmpty else { return nil }
        func most(_ values: [Int]) -> Int {
            var count: [Int: Int] = [:]
            for v in values { count[v, default: 0] += 1 }
            return count.max { a, b in a.value != b.value ? a.value < b.value : a.key < b.key }!.key
        }
        let reports = Array(board.reports.values)
        return (most(reports.map(\.week)), most(reports.map(\.month)))
    }

    /// The ranking of `board`'s members for `period` (the week or month given: reports of another
    /// period are left out, so a member who has not reported this week is not ranked with last
    /// week's figures). Equal values share a rank and are listed by member id, so the list is the
    /// same on every device that holds the same reports.
    public static func rank(_ board: CircleBoard, metric: LeaderboardMetric, period: LeaderboardPeriod,
                            week: Int, month: Int) -> [LeaderboardRow] {
        var rows: [(member: String, name: String, value: Int)] = []
        for r in board.reports.values {
            switch period {
            case .week: guard r.week == week else { continue }
            case .month: guard r.month == month else { continue }
            }
            let v: Int
            switch (metric, period) {
            case (.coins, .week): v = r.coinsWeek
            case (.coins, .month): v = r.coinsMonth
            case (.focus, .week): v = r.focusWeek
            case (.focus, .month): v = r.focusMonth
            case (.screen, .week): guard r.screenGoal > 0 else { continue }; v = r.screenWeek
            case (.screen, .month): guard r.screenGoal > 0 else { continue }; v = r.screenMonth
            case (.streak, _): v = r.streak
            }
            rows.append((r.member, r.petName, v))
        }
        let leastFirst = metric == .screen
        rows.sort { a, b in
            if a.value != b.value { return leastFirst ? a.value < b.value : a.value > b.value }
            return a.member < b.member
        }
        var out: [LeaderboardRow] = []
        out.reserveCapacity(rows.count)
        for (i, r) in rows.enumerated() {
            let rank = (i > 0 && rows[i - 1].value == r.value) ? out[i - 1].rank : i + 1
            out.append(LeaderboardRow(rank: rank, member: r.member, petName: r.name, value: r.value))
        }
        return out
    }
}

// MARK: - Group challenges

/// What counts in a group challenge. Each device judges its own member (friends trust each
/// other's devices: docs/circles.md, "Trust").
public enum ChallengeGoal: Codable, Sendable, Equatable, Hashable {
    /// At least this many tasks done in the window.
    case tasksDone(Int)
    /// A habit checked on every day of the window.
    case habitEveryDay
    /// At least this many focus minutes on every day of the window.
    case focusPerDay(Int)
    /// Phone screen time under this many minutes on every day of the window.
    case screenUnder(Int)

    /// The goal as text, in commands and the journal: `tasks:N`, `habit`, `focus:M`, `screen:M`.
    public var text: String {
        switch self {
        case .tasksDone(let n): "tasks:\(n)"
        case .habitEveryDay: "habit"
        case .focusPerDay(let m): "focus:\(m)"
        case .screenUnder(let m): "screen:\(m)"
        }
    }

    /// Reads `text`'s forms (nil: not one of them; the range of the number is `ChallengeTerms`'s).
    public init?(text: String) {
        if text == "habit" { self = .habitEveryDay; return }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let n = Int(parts[1]), parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        switch parts[0] {
        case "tasks": self = .tasksDone(n)
        case "focus": self = .focusPerDay(n)
        case "screen": self = .screenUnder(n)
        default: return nil
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let t = try c.decode(String.self)
        guard let g = ChallengeGoal(text: t) else { throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a challenge goal") }
        self = g
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(text)
    }
}

/// A challenge as proposed. Its id is the proposer's member id and a counter, so two proposals
/// never collide.
public struct ChallengeTerms: Codable, Sendable, Equatable, Hashable {
    public var id: String
    public var proposer: String
    public var goal: ChallengeGoal
    public var start: Instant
    public var end: Instant
    public var stake: Int

    public init(id: String, proposer: String, goal: ChallengeGoal, start: Instant, end: Instant, stake: Int) {
        self.id = id; self.proposer = proposer; self.goal = goal; self.start = start; self.end = end; self.stake = stake
    }

    /// After this instant a missing final report counts as failed.
    public var finalDeadline: Instant { end + CircleRules.finalGrace }
    /// When a device stops waiting for missing finals: the deadline and the clocks' allowance.
    public var missingAfter: Instant { finalDeadline + CircleRules.clockAllowance }

    public func problem() -> String? {
        guard CircleRules.isMemberID(proposer), id.hasPrefix(proposer + "-"), id.utf8.count <= 48 else { return "id" }
        guard CircleRules.stakeRange.contains(stake) else { return "stake" }
        guard end > start else { return "window" }
        let days = (end - start) / Seconds.day
        guard CircleRules.windowDays.contains(Int(days)), (end - start) % Seconds.day == 0 else { return "window" }
        switch goal {
        case .tasksDone(let n): if !(1...10_000).contains(n) { return "goal" }
        case .focusPerDay(let m): if !(1...1440).contains(m) { return "goal" }
        case .screenUnder(let m): if !(1...1440).contains(m) { return "goal" }
        case .habitEveryDay: break
        }
        return nil
    }
}

/// How one member came out of a challenge.
public enum ChallengeOutcome: String, Codable, Sendable, Equatable {
    case succeeded
    case failed
    /// Left before the end. No longer given by `settle` (a member that leaves clears its report, so
    /// only some devices ever see its forfeit: they gave `left` where the others gave `missing`);
    /// kept so that settlements journaled before still decode.
    case left
    /// No final that counts: none published before the deadline, or the member left (a forfeit).
    /// Counted as failed.
    case missing
}

/// Where every staked coin goes when a challenge closes. The members' stakes were held on each
/// device's ledger since the start; the settlement releases them.
public struct ChallengeSettlement: Codable, Sendable, Equatable {
    public var challenge: String
    public var outcomes: [String: ChallengeOutcome]
    /// Coins each member gets back (its stake and its share of the failed members' stakes; 0 for a
    /// member who failed).
    public var payouts: [String: Int]
    /// What goes to the charity jar: the remainder of an uneven split, or every stake when nobody
    /// succeeded.
    public var charity: Int

    /// The total staked: always `payouts` summed plus `charity` (coins are conserved).
    public var pot: Int { payouts.values.reduce(0, +) + charity }

    /// The settlement of `terms` among `members` (those who accepted before the start), from the
    /// reports held, at `now`. nil while it cannot be decided yet: before the end, or while a
    /// member's final report may still come (before `missingAfter`: the deadline and the clocks'
    /// allowance; a final counts only if stamped before `finalDeadline`).
    ///
    /// A member's final progress counts only if it was first sent before the deadline
    /// (`finalAt`); a device hands a report to the broker only while connected and stamps it then,
    /// so a final stamped before the deadline was on the broker before it, and every device that
    /// settles after the deadline (and after taking in the circle's retained reports) holds it.
    /// Reports arriving in any order, repeated, or late give the same settlement everywhere.
    public static func settle(_ terms: ChallengeTerms, members: [String], board: CircleBoard, now: Instant) -> ChallengeSettlement? {
        guard now >= terms.end else { return nil }
        let held = board.finals[terms.id] ?? [:]
        var outcomes: [String: ChallengeOutcome] = [:]
        var waiting = false
        for m in Set(members) {
            switch held[m] {
            case let p? where p.finalAt.map({ $0 <= terms.finalDeadline }) == true:
                // A success judged before the end cannot be one (a device judges after the end).
                let early = p.finalAt.map { $0 < terms.end } ?? true
                // Left: `missing`, as on the devices that never saw the forfeit (docs/circles.md#group-challenges-and-their-settlement).
                outcomes[m] = p.left ? .missing : (p.met && !early ? .succeeded : .failed)
            default:
                waiting = true
                outcomes[m] = .missing
            }
        }
        // Not every final is in: wait for them until the deadline, then the missing ones fail.
        if waiting && now < terms.missingAfter { return nil }
        return split(terms, outcomes: outcomes)
    }

    /// The split itself: every loser's stake shared equally among the winners (who also get their
    /// own back), the remainder of the division to the charity jar; nobody succeeded → the whole
    /// pot to the charity jar.
    public static func split(_ terms: ChallengeTerms, outcomes: [String: ChallengeOutcome]) -> ChallengeSettlement {
        let winners = outcomes.filter { $0.value == .succeeded }.keys.sorted()
        let losers = outcomes.count - winners.count
        var payouts: [String: Int] = [:]
        for m in outcomes.keys { payouts[m] = 0 }
        let lost = losers * terms.stake
        var charity = 0
        if winners.isEmpty {
            charity = lost
        } else {
            let share = lost / winners.count
            charity = lost - share * winners.count
            for w in winners { payouts[w] = terms.stake + share }
        }
        return ChallengeSettlement(challenge: terms.id, outcomes: outcomes, payouts: payouts, charity: charity)
    }
}
