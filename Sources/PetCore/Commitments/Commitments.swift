/// Commitments (wake-up, on-time, focus, place) with coin stakes, and focus sessions (docs/commitments.md).
///
/// A commitment promises something at a set time, verified inside a window around it; its stake
/// is reserved (taken out of the spendable balance) while it is pending, released when verified
/// and given to the pet's charity jar when not. Rules and the decisions where the spec is silent:
/// docs/commitments.md. Events: CommitmentEvents.swift; commands: CommitmentCommands.swift; focus
/// sessions: FocusSessions.swift.

public enum CommitmentKind: String, Codable, Sendable, CaseIterable {
    /// Press any device button inside the window.
    case wakeUp = "wake-up"
    /// Confirm on the device or the phone inside the window.
    case onTime = "on-time"
    /// A focus session of the set length started inside the window and completed.
    case focus
    /// The phone's verdict: arrived and stayed ≥ 5 minutes inside the radius.
    case place
}

/// Who verified a commitment.
public enum VerifySource: String, Codable, Sendable, CaseIterable {
    /// A device button pressed while a wake-up window was open (sent by the device).
    case button
    /// A confirmation on the device's screen.
    case device
    /// A confirmation on the phone.
    case phone
    /// A completed focus session (focus commitments; not a command source).
    case focus
    /// The phone's place verdict (place commitments; not a command source).
    case place
}

public enum CommitmentRules {
    /// Stake in coins.
    public static let stakeRange = 1...1000
    /// Verification window: ± this many minutes around the set time.
    public static let windowRange = 1...120
    public static let defaultWindow = 10
    /// Focus session length in minutes (commitments and sessions).
    public static let focusRange = 15...240
    public static let defaultFocus = 25
    /// Place radius in metres.
    public static let radiusRange = 50...500
    public static let defaultRadius = 50
    /// Active commitments at most.
    public static let maxActive = 20
    /// Apps on one session's block list at most.
    public static let maxBlockedApps = 32
    /// Finished and cancelled commitments leave the live state this long after they ended.
    public static let keepEnded: Int64 = 7 * Seconds.day
}

/// When a commitment's occurrences fall.
public struct CommitmentSchedule: Codable, Sendable, Equatable {
    /// A one-off commitment: its set time (from a local date and time). nil for a weekly one.
    public var once: Instant?
    /// Weekly: the weekdays (0 = Sunday … 6 = Saturday), sorted; empty for a one-off.
    public var weekdays: [Int]
    /// Weekly: the local time of day, in seconds.
    public var secondOfDay: Int
    /// Weekly: the last date an occurrence may fall on.
    public var until: CivilDate?

    public static func once(_ t: Instant) -> CommitmentSchedule {
        CommitmentSchedule(once: t, weekdays: [], secondOfDay: 0, until: nil)
    }

    public static func weekly(_ days: [Int], secondOfDay: Int, until: CivilDate) -> CommitmentSchedule {
        CommitmentSchedule(once: nil, weekdays: days.sorted(), secondOfDay: secondOfDay, until: until)
    }

    public var isRecurring: Bool { once == nil }
}

/// A commitment's definition, as set (the `commitment.added` event).
public struct CommitmentPlan: Codable, Sendable, Equatable {
    public var id: String
    public var kind: CommitmentKind
    public var schedule: CommitmentSchedule
    /// ± minutes around the set time.
    public var windowMinutes: Int
    /// Coins reserved per occurrence.
    public var stake: Int
    /// Place commitments: metres.
    public var radius: Int?
    /// Focus commitments: the session length needed.
    public var focusMinutes: Int?

    public init(id: String, kind: CommitmentKind, schedule: CommitmentSchedule, windowMinutes: Int, stake: Int,
                radius: Int?, focusMinutes: Int?) {
        self.id = id; self.kind = kind; self.schedule = schedule; self.windowMinutes = windowMinutes
        self.stake = stake; self.radius = radius; self.focusMinutes = focusMinutes
    }
}

public enum CommitmentStatus: String, Codable, Sendable {
    case active, finished, cancelled
}

/// The pending occurrence of a commitment.
public struct CommitmentOccurrence: Codable, Sendable, Equatable {
    /// 0 for the first occurrence.
    public var n: Int
    /// The set time (the window's centre).
    public var target: Instant
    /// The window: verifications at `opens`…`closes` (both included) count.
    public var opens: Instant
    public var closes: Instant
    /// Its stake is reserved. False: the balance could not cover it; tried again when the window opens.
    public var funded: Bool
    /// The window has opened (the opening was handled).
    public var opened: Bool
    /// A running focus session, started inside the window, that verifies it when it completes.
    public var session: String?

    /// Whether `t` is inside the window.
    public func contains(_ t: Instant) -> Bool { opens <= t && t <= closes }
}

public struct Commitment: Codable, Sendable, Equatable, Identifiable {
    public var plan: CommitmentPlan
    public var createdAt: Instant
    public var status: CommitmentStatus
    /// The next occurrence to settle (nil once ended).
    public var current: CommitmentOccurrence?
    public var endedAt: Instant?
    /// Occurrences verified, forfeited, excused (paused) and skipped (stake not covered).
    public var kept: Int
    public var failed: Int
    public var excused: Int
    public var skipped: Int

    public var id: String { plan.id }
    public var kind: CommitmentKind { plan.kind }

    init(plan: CommitmentPlan, createdAt: Instant) {
        self.plan = plan; self.createdAt = createdAt; status = .active; current = nil; endedAt = nil
        kept = 0; failed = 0; excused = 0; skipped = 0
    }

    /// Occurrences settled so far (the next one's number).
    public var settled: Int { kept + failed + excused + skipped }

    /// Coins currently reserved for it.
    public var held: Int { current?.funded == true ? plan.stake : 0 }
}

/// A focus session (one at a time). The device shows a countdown from `start` to `end`.
public struct FocusSession: Codable, Sendable, Equatable {
    /// The id of the command that started it.
    public var id: String
    public var start: Instant
    /// start + minutes (absolute: a session through a DST change lasts its real minutes).
    public var end: Instant
    public var minutes: Int
    /// App ids whose use (reported by the phone) fails the session.
    public var blocked: [String]
    /// Focus commitments it verifies when it completes (their windows were open when it started).
    public var commitments: [String]

    public init(id: String, start: Instant, end: Instant, minutes: Int, blocked: [String], commitments: [String]) {
        self.id = id; self.start = start; self.end = end; self.minutes = minutes; self.blocked = blocked
        self.commitments = commitments
    }
}

public struct CommitmentState: Codable, Sendable, Equatable {
    public var items: [String: Commitment] = [:]
    /// Forfeited stakes, lifetime: visible, never spendable.
    public var charityJar = 0
    /// The running focus session.
    public var focus: FocusSession?
    public var focusCompleted = 0
    public var focusFailed = 0
    /// Minutes of completed focus sessions, lifetime (per day: `DayStats.focusMinutes`).
    public var focusMinutes = 0
    public init() {}

    /// Coins reserved by pending occurrences (not spendable until released or forfeited).
    public var held: Int { items.values.reduce(0) { $0 + $1.held } }
    public var active: [Commitment] { items.values.filter { $0.status == .active }.sorted { $0.id < $1.id } }
}

extension PetState {
    /// Ids of wake-up commitments whose window is open at `t` (a device button press verifies
    /// them: send `commitment.verify commitment=<id> source=button` for each).
    public func awaitingButtonPress(at t: Instant) -> [String] {
        commitments.items.values.filter { c in
            guard c.status == .active, c.kind == .wakeUp, let o = c.current else { return false }
            return o.funded && o.contains(t)
        }.map(\.id).sorted()
    }
}

/// Commitments with stakes and focus sessions as a subsystem.
enum CommitmentsSubsystem: EventWrappingSubsystem {
    typealias Commands = CommitmentCommands
    static func claim(_ action: Action) -> CommitmentAction? { if case .commitment(let a) = action { a } else { nil } }
    static func claim(_ event: EventKind) -> CommitmentEvent? { if case .commitment(let e) = event { e } else { nil } }
    static func wrap(_ event: CommitmentEvent) -> EventKind { .commitment(event) }

    static func run(_ action: CommitmentAction, in engine: inout Engine, at: Instant, commandID: String) throws(DomainError) {
        try engine.runCommitment(action, at: at, commandID: commandID)
    }

    static func apply(_ event: CommitmentEvent, to engine: inout Engine, at: Instant) { engine.applyCommitment(event, at: at) }

    static func nextWakeup(of engine: Engine) -> Instant? { engine.nextCommitmentWakeup() }

    static func fire(due: Instant, at: Instant, upTo: Instant, in engine: inout Engine) {
        engine.fireCommitment(at: at, due: due, upTo: upTo)
    }
}

extension Engine {
    /// Ids of wake-up commitments whose window is open at `t` (see `PetState.awaitingButtonPress`).
    public func awaitingButtonPress(at t: Instant) -> [String] { state.awaitingButtonPress(at: t) }

    // MARK: Commands

    mutating func runCommitment(_ a: CommitmentAction, at: Instant, commandID: String) throws(DomainError) {
        switch a {
        case .add(let d): try addCommitment(d, at: at, commandID: commandID)
        case .cancel(let id):
            let c = try activeCommitment(id)
            if let o = c.current, at >= o.opens {
                throw .invalidState(kind: "commitment", id: id,
                                    reason: "has its window open since \(state.clock.local(o.opens)); it can only be cancelled before")
            }
            emit(.commitment(.cancelled(id: id, stake: c.held)), at: at)
        case let .verify(id, source):
            guard [.button, .device, .phone].contains(source) else {
                throw .invalidField(field: "source", reason: "must be button, device or phone")
            }
            let c = try activeCommitment(id)
            switch c.kind {
            case .focus:
                throw .invalidState(kind: "commitment", id: id, reason: "is a focus commitment: a completed focus session verifies it")
            case .place:
                throw .invalidState(kind: "commitment", id: id, reason: "is a place commitment: the phone's commitment.place-verdict verifies it")
            case .wakeUp where source == .phone:
                throw .invalidField(field: "source", reason: "a wake-up is verified on the device (button or device), not the phone")
            default: break
            }
            let o = try openOccurrence(c, at: at)
            emit(.commitment(.verified(id: id, n: o.n, source: source, stake: c.plan.stake)), at: at)
            scheduleNext(id, after: at)
            say(.taskDone, at: at)
        case let .placeVerdict(id, ok):
            let c = try activeCommitment(id)
            guard c.kind == .place else {
                throw .invalidState(kind: "commitment", id: id, reason: "is not a place commitment")
            }
            let o = try openOccurrence(c, at: at)
            if ok {
                emit(.commitment(.verified(id: id, n: o.n, source: .place, stake: c.plan.stake)), at: at)
                scheduleNext(id, after: at)
                say(.taskDone, at: at)
            } else {
                emit(.commitment(.forfeited(id: id, n: o.n, stake: c.plan.stake, reason: .place)), at: at)
                scheduleNext(id, after: at)
                say(.missed, at: at)
            }
        case let .startFocus(minutes, block): try startFocus(minutes: minutes, block: block, at: at, commandID: commandID)
        case .cancelFocus: try failFocus(.cancelled, app: nil, at: at)
        case .appUsed(let app): try failFocus(.app, app: app, at: at)
        }
    }

    private func activeCommitment(_ id: String) throws(DomainError) -> Commitment {
        guard let c = state.commitments.items[id] else { throw .notFound(kind: "commitment", id: id) }
        guard c.status == .active else { throw .invalidState(kind: "commitment", id: id, reason: "is \(c.status.rawValue)") }
        return c
    }

    /// The occurrence whose window is open at `at` (with its stake held), or why there is none.
    private func openOccurrence(_ c: Commitment, at: Instant) throws(DomainError) -> CommitmentOccurrence {
        guard let o = c.current, o.funded else {
            throw .invalidState(kind: "commitment", id: c.id, reason: "has no staked occurrence waiting")
        }
        guard o.contains(at) else {
            throw .invalidState(kind: "commitment", id: c.id,
                                reason: "is outside its window (\(state.clock.local(o.opens))–\(state.clock.local(o.closes)))")
        }
        if o.session != nil {
            throw .invalidState(kind: "commitment", id: c.id, reason: "waits for its focus session to end")
        }
        return o
    }

    private mutating func addCommitment(_ d: CommitmentDraft, at: Instant, commandID: String) throws(DomainError) {
        let id = d.id ?? commandID
        try TaskRules.validateID(id, field: "commitment")
        guard state.commitments.items[id] == nil else { throw .alreadyExists(kind: "commitment", id: id) }
        guard state.commitments.active.count < CommitmentRules.maxActive else {
            throw .limitReached(what: "active commitments", limit: CommitmentRules.maxActive)
        }
        let window = d.window ?? CommitmentRules.defaultWindow
        guard CommitmentRules.windowRange.contains(window) else {
            throw .invalidField(field: "window", reason: "must be \(CommitmentRules.windowRange.text) minutes (got \(window))")
        }
        guard CommitmentRules.stakeRange.contains(d.stake) else {
            throw .invalidField(field: "stake", reason: "must be \(CommitmentRules.stakeRange.text) coins (got \(d.stake))")
        }
        var radius: Int?
        if d.kind == .place {
            let r = d.radius ?? CommitmentRules.defaultRadius
            guard CommitmentRules.radiusRange.contains(r) else {
                throw .invalidField(field: "radius", reason: "must be \(CommitmentRules.radiusRange.text) metres (got \(r))")
            }
            radius = r
        } else if d.radius != nil {
            throw .invalidField(field: "radius", reason: "is only for place commitments")
        }
        var minutes: Int?
        if d.kind == .focus {
            let m = d.minutes ?? CommitmentRules.defaultFocus
            guard CommitmentRules.focusRange.contains(m) else {
                throw .invalidField(field: "minutes", reason: "a focus session must be \(CommitmentRules.focusRange.text) minutes (got \(m))")
            }
            minutes = m
        } else if d.minutes != nil {
            throw .invalidField(field: "minutes", reason: "is only for focus commitments")
        }
        let s = d.schedule
        if s.isRecurring {
            guard !s.weekdays.isEmpty, s.weekdays.allSatisfy({ (0...6).contains($0) }) else {
                throw .invalidField(field: "days", reason: "choose at least one weekday")
            }
            guard (0..<86_400).contains(s.secondOfDay) else { throw .invalidField(field: "at", reason: "must be HH:MM") }
            guard s.until != nil else { throw .missingField(field: "until") }
        }
        let plan = CommitmentPlan(id: id, kind: d.kind, schedule: s, windowMinutes: window, stake: d.stake,
                                  radius: radius, focusMinutes: minutes)
        guard let first = nextTarget(plan, after: at, first: true) else {
            if s.isRecurring {
                throw .invalidField(field: "until", reason: "leaves no occurrence whose window opens after now")
            }
            throw .invalidField(field: "at", reason: "the window (± \(window) min) must open after now")
        }
        guard state.coins >= d.stake else { throw .insufficientCoins(needed: d.stake, balance: state.coins) }
        emit(.commitment(.added(plan)), at: at)
        emit(.commitment(.reserved(id: id, n: 0, target: first, stake: d.stake)), at: at)
    }

    /// The set time of the next occurrence whose window opens after `at` (nil: none left).
    func nextTarget(_ p: CommitmentPlan, after at: Instant, first: Bool) -> Instant? {
        let w = Int64(p.windowMinutes).saturatingMultiplied(by: Seconds.minute)
        if let once = p.schedule.once {
            return first && once - w > at ? once : nil
        }
        guard let until = p.schedule.until else { return nil }
        // Start on the day before (a window past midnight may open on the previous date).
        var date = state.clock.local(at).date.adding(days: -1)
        var steps = 0
        while date <= until && steps < 400 {
            if p.schedule.weekdays.contains(date.weekday) {
                let target = state.clock.instant(LocalDateTime(date: date, secondOfDay: p.schedule.secondOfDay))
                if target - w > at { return target }
            }
            date = date.adding(days: 1)
            steps += 1
        }
        return nil
    }

    /// Schedules the occurrence after the one just settled: reserved if the balance covers the
    /// stake, unfunded (tried again when its window opens) if not; or the commitment finishes.
    mutating func scheduleNext(_ id: String, after at: Instant) {
        guard let c = state.commitments.items[id], c.status == .active else { return }
        let n = c.settled
        guard let target = nextTarget(c.plan, after: at, first: false) else {
            emit(.commitment(.finished(id: id)), at: at)
            return
        }
        if state.coins >= c.plan.stake {
            emit(.commitment(.reserved(id: id, n: n, target: target, stake: c.plan.stake)), at: at)
        } else {
            emit(.commitment(.unfunded(id: id, n: n, target: target)), at: at)
        }
    }

    // MARK: Fold

    mutating func applyCommitment(_ e: CommitmentEvent, at: Instant) {
        let day = state.clock.day(of: at)
        // Ended commitments leave the live state a week later (the journal keeps them).
        if state.commitments.items.values.contains(where: { ($0.endedAt ?? at) + CommitmentRules.keepEnded < at }) {
            state.commitments.items = state.commitments.items.filter { ($0.value.endedAt ?? at) + CommitmentRules.keepEnded >= at }
        }
        // The ledger fold counts −stake as spent and +stake as earned; a reserved stake is neither
        // until it is forfeited (then it counts as spent, on the day it was forfeited).
        func unspend(_ coins: Int) { state.coinsSpent -= coins; state.stats.update(day) { $0.coinsSpent -= coins } }
        func unearn(_ coins: Int) { state.coinsEarned -= coins; state.stats.update(day) { $0.coinsEarned -= coins } }
        func settle(_ id: String, _ change: (inout Commitment) -> Void) {
            guard var c = state.commitments.items[id] else { return }
            c.current = nil
            change(&c)
            state.commitments.items[id] = c
        }
        func occurrence(_ id: String, _ n: Int, _ target: Instant, funded: Bool) -> CommitmentOccurrence {
            let w = Int64(state.commitments.items[id]?.plan.windowMinutes ?? 0).saturatingMultiplied(by: Seconds.minute)
            return CommitmentOccurrence(n: n, target: target, opens: target - w, closes: target + w, funded: funded,
                                        opened: false, session: nil)
        }
        switch e {
        case .added(let p):
            state.commitments.items[p.id] = Commitment(plan: p, createdAt: at)
        case let .reserved(id, n, target, stake):
            let o = occurrence(id, n, target, funded: true)
            state.commitments.items[id]?.current = o
            unspend(stake)
        case let .unfunded(id, n, target):
            let o = occurrence(id, n, target, funded: false)
            state.commitments.items[id]?.current = o
        case .windowOpened(let id, _):
            state.commitments.items[id]?.current?.opened = true
        case let .verified(id, _, _, stake):
            settle(id) { $0.kept += 1 }
            unearn(stake)
        case let .forfeited(id, _, stake, _):
            settle(id) { $0.failed += 1 }
            state.commitments.charityJar = state.commitments.charityJar.saturatingAdded(stake)
            state.coinsSpent = state.coinsSpent.saturatingAdded(stake)
            state.stats.update(day) { $0.coinsSpent += stake }
        case let .excused(id, _, stake):
            settle(id) { $0.excused += 1 }
            unearn(stake)
        case .skipped(let id, _):
            settle(id) { $0.skipped += 1 }
        case let .cancelled(id, stake):
            settle(id) { $0.status = .cancelled; $0.endedAt = at }
            unearn(stake)
        case .finished(let id):
            settle(id) { $0.status = .finished; $0.endedAt = at }
        case .focusStarted(let s):
            state.commitments.focus = s
            for id in s.commitments { state.commitments.items[id]?.current?.session = s.id }
        case let .focusCompleted(_, minutes, _):
            state.commitments.focus = nil
            state.commitments.focusCompleted += 1
            state.commitments.focusMinutes += minutes
            state.stats.update(day) { $0.focusMinutes += minutes }
            state.lastCelebration = at
        case .focusFailed:
            state.commitments.focus = nil
            state.commitments.focusFailed += 1
        }
    }

    // MARK: Time


    /// The next window opening, window close (failure is decided 1 s after the last second of the
    /// window) or focus-session end.
    func nextCommitmentWakeup() -> Instant? {
        var best = state.commitments.focus?.end
        for c in state.commitments.items.values where c.status == .active {
            guard let o = c.current, let w = Self.wakeup(o) else { continue }
            if best.map({ w < $0 }) ?? true { best = w }
        }
        return best
    }

    private static func wakeup(_ o: CommitmentOccurrence) -> Instant? {
        if !o.opened { return o.opens }
        if o.session == nil { return o.closes + 1 }
        return nil // settled by its focus session
    }

    mutating func fireCommitment(at: Instant, due: Instant, upTo t: Instant) {
        if let s = state.commitments.focus, s.end <= due { completeFocus(s, at: at, upTo: t) }
        for id in state.commitments.items.keys.sorted() {
            guard let c = state.commitments.items[id], c.status == .active, let o = c.current,
                  let w = Self.wakeup(o), w <= due else { continue }
            if !o.opened { openWindow(c, o, at: at, upTo: t) } else { closeWindow(c, o, at: at) }
        }
    }

    private mutating func openWindow(_ c: Commitment, _ o: CommitmentOccurrence, at: Instant, upTo t: Instant) {
        if !o.funded {
            guard state.coins >= c.plan.stake else {
                emit(.commitment(.skipped(id: c.id, n: o.n)), at: at)
                scheduleNext(c.id, after: at)
                return
            }
            emit(.commitment(.reserved(id: c.id, n: o.n, target: o.target, stake: c.plan.stake)), at: at)
        }
        emit(.commitment(.windowOpened(id: c.id, n: o.n)), at: at)
        if !state.paused {
            notify(Reminder(id: "commitment:\(c.id):\(o.target.seconds)", source: .commitment, ref: c.id, due: o.opens,
                         solicited: true), at: at, upTo: t)
        }
    }

    /// The window closed without a verification: failed, or excused while paused. No grace.
    private mutating func closeWindow(_ c: Commitment, _ o: CommitmentOccurrence, at: Instant) {
        if state.paused {
            emit(.commitment(.excused(id: c.id, n: o.n, stake: c.plan.stake)), at: at)
            scheduleNext(c.id, after: at)
        } else {
            emit(.commitment(.forfeited(id: c.id, n: o.n, stake: c.plan.stake, reason: .missed)), at: at)
            scheduleNext(c.id, after: at)
            say(.missed, at: at)
        }
    }
}
