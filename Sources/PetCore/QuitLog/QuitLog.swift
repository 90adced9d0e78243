/// The quit log: urges, triggers, recommendations, reflections, goal gauge, milestones (docs/quit-log.md).
///
/// Rules and decisions: docs/quit-log.md. In short:
/// - an urge log names a trigger by id (defaults: `time-of-day`, `waking-up`, `boredom`, `smell`,
///   `stress`, `seeing-someone`, `fatigue`, `partying`; custom ones `custom-<n>`) and an outcome;
///   `gave-in` and `finished` (the last of a pod/pack) count as give-ins;
/// - the first urge log or goal starts the quit log if `quit.start` was not sent;
/// - the pet's recommendation is chosen when the log is decided and stored in `quit.logged`;
/// - milestone days are whole closed days after the day of the last give-in (or of the start).

public enum QuitOutcome: String, Codable, Sendable, CaseIterable {
    case resisted
    case gaveIn = "gave-in"
    /// Gave in and finished a pod/pack (a give-in; the next pod/pack starts).
    case finished

    public var isGiveIn: Bool { self != .resisted }
}

public enum QuitAction: Sendable, Equatable {
    case start(goalDays: Int?)
    case log(trigger: String, outcome: QuitOutcome, thoughts: String?)
    case addTrigger(name: String)
    case deleteTrigger(id: String)
    /// Today's reflection; a nil text keeps what was written earlier today ("" clears it).
    case reflect(stressors: String?, feelings: String?)
    case setGoal(days: Int)

    /// The protocol name of the command.
    public var name: String {
        switch self {
        case .start: "quit.start"
        case .log: "quit.log"
        case .addTrigger: "quit.trigger-add"
        case .deleteTrigger: "quit.trigger-delete"
        case .reflect: "quit.reflect"
        case .setGoal: "quit.goal"
        }
    }
}

public enum QuitEvent: SubEvent {
    case started(goalDays: Int?)
    /// An urge was logged; `recommendation` is the key of what the pet recommends (QuitRules).
    case logged(trigger: String, outcome: QuitOutcome, thoughts: String?, recommendation: String)
    case triggerAdded(id: String, name: String)
    case triggerDeleted(id: String)
    /// The whole reflection of `day` after this change.
    case reflected(day: Int, stressors: String, feelings: String)
    case goalSet(days: Int)

    public var type: String {
        switch self {
        case .started: "quit.started"
        case .logged: "quit.logged"
        case .triggerAdded: "quit.trigger-added"
        case .triggerDeleted: "quit.trigger-deleted"
        case .reflected: "quit.reflected"
        case .goalSet: "quit.goal-set"
        }
    }

    public static func owns(_ type: String) -> Bool { type.hasPrefix("quit.") }
    public static let allTypes = ["quit.started", "quit.logged", "quit.trigger-added", "quit.trigger-deleted",
                                  "quit.reflected", "quit.goal-set"]

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(type, forKey: AnyKey("type"))
        switch self {
        case .started(let g): try c.encodeIfPresent(g, forKey: AnyKey("goalDays"))
        case let .logged(trigger, outcome, thoughts, rec):
            try c.encode(trigger, forKey: AnyKey("trigger"))
            try c.encode(outcome, forKey: AnyKey("outcome"))
            try c.encodeIfPresent(thoughts, forKey: AnyKey("thoughts"))
            try c.encode(rec, forKey: AnyKey("recommendation"))
        case let .triggerAdded(id, name):
            try c.encode(id, forKey: AnyKey("id"))
            try c.encode(name, forKey: AnyKey("name"))
        case .triggerDeleted(let id): try c.encode(id, forKey: AnyKey("id"))
        case let .reflected(day, s, f):
            try c.encode(day, forKey: AnyKey("day"))
            try c.encode(s, forKey: AnyKey("stressors"))
            try c.encode(f, forKey: AnyKey("feelings"))
        case .goalSet(let d): try c.encode(d, forKey: AnyKey("days"))
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let type = try c.decode(String.self, forKey: AnyKey("type"))
        switch type {
        case "quit.started": self = .started(goalDays: try c.decodeIfPresent(Int.self, forKey: AnyKey("goalDays")))
        case "quit.logged":
            self = .logged(trigger: try c.decode(String.self, forKey: AnyKey("trigger")),
                           outcome: try c.decode(QuitOutcome.self, forKey: AnyKey("outcome")),
                           thoughts: try c.decodeIfPresent(String.self, forKey: AnyKey("thoughts")),
                           recommendation: try c.decode(String.self, forKey: AnyKey("recommendation")))
        case "quit.trigger-added":
            self = .triggerAdded(id: try c.decode(String.self, forKey: AnyKey("id")),
                                 name: try c.decode(String.self, forKey: AnyKey("name")))
        case "quit.trigger-deleted": self = .triggerDeleted(id: try c.decode(String.self, forKey: AnyKey("id")))
        case "quit.reflected":
            self = .reflected(day: try c.decode(Int.self, forKey: AnyKey("day")),
                              stressors: try c.decode(String.self, forKey: AnyKey("stressors")),
                              feelings: try c.decode(String.self, forKey: AnyKey("feelings")))
        case "quit.goal-set": self = .goalSet(days: try c.decode(Int.self, forKey: AnyKey("days")))
        default: throw unknownSubEvent(decoder, type)
        }
    }
}

/// A trigger of urges: a default one (stable id, cannot be deleted) or one the owner added.
public struct QuitTrigger: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var builtIn: Bool
}

/// One logged urge (the latest ones are kept in the state; the journal keeps all).
public struct UrgeLog: Codable, Sendable, Equatable {
    public var at: Instant
    public var trigger: String
    public var outcome: QuitOutcome
    public var thoughts: String?
    public var recommendation: String
}

/// A day's reflection (from the phone).
public struct QuitReflection: Codable, Sendable, Equatable {
    public var stressors: String
    public var feelings: String
    public init(stressors: String, feelings: String) { self.stressors = stressors; self.feelings = feelings }
}

/// The recommendation the pet showed after the latest log.
public struct QuitShownRecommendation: Codable, Sendable, Equatable {
    public var key: String
    public var trigger: String
    public var at: Instant
    public var text: String { QuitRules.recommendation(key: key)?.text ?? "" }
}

public struct QuitState: Codable, Sendable, Equatable {
    /// When the quit log started (`quit.start`, or implicitly the first log or goal).
    public var startedAt: Instant?
    /// Days one pod/pack should last.
    public var goalDays: Int?
    /// The day the current pod/pack began (the start, then the day of each `finished` log).
    public var podStartDay: Int?
    public var lastGiveIn: Instant?
    /// The day of the last give-in, or of the start: milestone days count closed days after it.
    public var cleanSinceDay: Int?
    /// Active custom triggers, in the order they were added.
    public var custom: [QuitTrigger] = []
    /// Names of deleted custom triggers by id (their logs keep the trigger).
    public var retired: [String: String] = [:]
    /// The number the next custom trigger gets (`custom-<n>`; never reused).
    public var nextCustom = 1
    /// The latest logs, oldest first (at most `QuitRules.recentLimit`).
    public var recent: [UrgeLog] = []
    public var lastRecommendation: QuitShownRecommendation?
    /// Logs per trigger id and local hour (24 counters), for the device's trigger menu.
    public var hourCounts: [String: [Int]] = [:]
    /// Reflections of the last `QuitRules.reflectionDays` days, by day.
    public var reflections: [Int: QuitReflection] = [:]
    /// Lifetime counts.
    public var urges = 0
    public var giveIns = 0
    public init() {}
}

public struct QuitRecommendation: Sendable, Equatable {
    public var key: String
    /// A default trigger id, or "general" (for custom triggers).
    public var trigger: String
    public var text: String
}

/// The gauge of what should be left of the current pod/pack at the end of a day.
public struct QuitGauge: Sendable, Equatable {
    public var goalDays: Int
    /// 1 on the day the pod/pack started.
    public var dayOfPod: Int
    /// 0–100: (goal − dayOfPod) / goal, rounded down, never below 0.
    public var percentLeft: Int
    /// Days past the goal (0 while within it).
    public var overdueDays: Int

    public init(goalDays: Int, dayOfPod: Int, percentLeft: Int, overdueDays: Int) {
        self.goalDays = goalDays; self.dayOfPod = dayOfPod; self.percentLeft = percentLeft; self.overdueDays = overdueDays
    }
}

/// One day of the heat map.
public struct QuitHeatCell: Sendable, Equatable {
    public var date: CivilDate
    public var day: Int
    public var urges: Int
    public var giveIns: Int
}

/// A month of the heat map: rows are Monday–Sunday weeks, nil outside the month.
public struct QuitMonthGrid: Sendable, Equatable {
    public var year: Int
    public var month: Int
    public var weeks: [[QuitHeatCell?]]
}

public enum QuitRules {
    public static let defaultTriggers: [QuitTrigger] = [
        QuitTrigger(id: "time-of-day", name: "Time of day", builtIn: true),
        QuitTrigger(id: "waking-up", name: "Waking up", builtIn: true),
        QuitTrigger(id: "boredom", name: "Boredom", builtIn: true),
        QuitTrigger(id: "smell", name: "Smell", builtIn: true),
        QuitTrigger(id: "stress", name: "Stress", builtIn: true),
        QuitTrigger(id: "seeing-someone", name: "Seeing someone", builtIn: true),
        QuitTrigger(id: "fatigue", name: "Fatigue", builtIn: true),
        QuitTrigger(id: "partying", name: "Partying", builtIn: true),
    ]
    public static let triggerNameLength = 1...24
    public static let maxCustomTriggers = 24
    public static let thoughtsLimit = 500
    public static let reflectionLimit = 500
    public static let goalDays = 1...365
    public static let recentLimit = 50
    public static let reflectionDays = 31
    /// How long the recommendation stays on screen after a log.
    public static let recommendationSeconds: Int64 = 300
    /// The milestone badges (days without a give-in).
    public static let milestones = [1, 3, 7, 14, 30, 90]

    private static func r(_ key: String, _ trigger: String, _ text: String) -> QuitRecommendation {
        QuitRecommendation(key: key, trigger: trigger, text: text)
    }

    /// ≥ 3 per default trigger, and general ones for custom triggers; each ≤ 60 characters.
    public static let recommendations: [QuitRecommendation] = [
        r("time-of-day.1", "time-of-day", "Change the routine: a short walk instead?"),
        r("time-of-day.2", "time-of-day", "Set a 10-minute timer. Urges peak and pass."),
        r("time-of-day.3", "time-of-day", "Have a glass of water and a snack."),
        r("waking-up.1", "waking-up", "Stretch first, then a glass of water."),
        r("waking-up.2", "waking-up", "Start with a shower before anything else."),
        r("waking-up.3", "waking-up", "Open a window and take 5 deep breaths."),
        r("boredom.1", "boredom", "Pick a 5-minute task and start it now."),
        r("boredom.2", "boredom", "Call or text a friend for a chat."),
        r("boredom.3", "boredom", "Doodle, tidy or play a quick game."),
        r("boredom.4", "boredom", "Go outside for a few minutes."),
        r("smell.1", "smell", "Step away and get some fresh air."),
        r("smell.2", "smell", "Chew gum or have a mint."),
        r("smell.3", "smell", "Smell something you like instead."),
        r("stress.1", "stress", "Breathe in 4 s, hold 4 s, out 6 s."),
        r("stress.2", "stress", "Write down what is stressing you."),
        r("stress.3", "stress", "Take a 5-minute walk to reset."),
        r("stress.4", "stress", "Squeeze a stress ball or shake it out."),
        r("seeing-someone.1", "seeing-someone", "Tell them you're quitting: ask for help."),
        r("seeing-someone.2", "seeing-someone", "Keep your hands busy with a drink."),
        r("seeing-someone.3", "seeing-someone", "Change the spot: step inside for a bit."),
        r("fatigue.1", "fatigue", "Rest your eyes for 5 minutes."),
        r("fatigue.2", "fatigue", "Drink water and have a healthy snack."),
        r("fatigue.3", "fatigue", "A short walk wakes you up too."),
        r("partying.1", "partying", "Hold a drink in the hand that vapes."),
        r("partying.2", "partying", "Dance it off! Urges pass in minutes."),
        r("partying.3", "partying", "Stay with friends who don't smoke."),
        r("general.1", "general", "Wait 10 minutes. The urge will pass."),
        r("general.2", "general", "Breathe slowly and count to 20."),
        r("general.3", "general", "Drink a glass of water."),
        r("general.4", "general", "Think of why you started quitting."),
    ]

    private static let byKey: [String: QuitRecommendation] = Dictionary(uniqueKeysWithValues: recommendations.map { ($0.key, $0) })

    public static func recommendation(key: String) -> QuitRecommendation? { byKey[key] }

    /// The candidates for a trigger: its own, or the general ones for a custom trigger.
    public static func candidates(for trigger: String) -> [QuitRecommendation] {
        let own = recommendations.filter { $0.trigger == trigger }
        return own.isEmpty ? recommendations.filter { $0.trigger == "general" } : own
    }

    /// Deterministic choice from `seed`, never equal to `previous` (every list has ≥ 3 entries).
    public static func pickRecommendation(trigger: String, seed: Int, previous: String?) -> String {
        let c = candidates(for: trigger)
        let mixed = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15
        var i = Int((mixed >> 33) % UInt64(c.count))
        if c[i].key == previous { i = (i + 1) % c.count }
        return c[i].key
    }

    /// The default trigger most typical of a local hour (used when the history does not decide).
    public static func typicalTrigger(hour: Int) -> String {
        switch hour {
        case 5..<10: "waking-up"
        case 10..<13: "boredom"
        case 13..<17: "fatigue"
        case 17..<20: "stress"
        case 20..<22: "time-of-day"
        default: "partying"
        }
    }

    /// Percent of a pod/pack that should be left at the end of day `dayOfPod` (1-based).
    public static func percentLeft(goalDays: Int, dayOfPod: Int) -> Int {
        guard goalDays > 0 else { return 0 }
        return max(0, goalDays - dayOfPod) * 100 / goalDays
    }

    static func isDefaultTrigger(_ id: String) -> Bool { defaultTriggers.contains { $0.id == id } }

    /// A trigger reference as it may appear in an error message: triggers are named by id, so
    /// anything that does not look like one (e.g. a custom trigger's name, which may be personal)
    /// is not repeated.
    static func loggable(_ ref: String) -> String {
        let ok = (1...32).contains(ref.count) && ref.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
        return ok ? ref : "(not a trigger id)"
    }
}

extension PetState {
    /// Whole days without a give-in, as of the last closed day (for the milestone badges): closed
    /// days after the day of the last give-in, or after the day the quit log started.
    var badgeQuitDays: Int {
        guard let since = quit.cleanSinceDay else { return 0 }
        return max(0, openDay - 1 - since)
    }

    /// Public form of the milestone count (the home screen / stats).
    public var quitCleanDays: Int { badgeQuitDays }

    /// Active triggers: the defaults, then the custom ones in the order they were added.
    public var quitTriggers: [QuitTrigger] { QuitRules.defaultTriggers + quit.custom }

    /// The name of a trigger id (also of a deleted custom trigger, for old logs).
    public func quitTriggerName(_ id: String) -> String? {
        quitTriggers.first { $0.id == id }?.name ?? quit.retired[id]
    }

    /// Active trigger ids for the device's urge screen, the most likely for the time of day
    /// first, so "open, pick, confirm" logs the usual case: logs in this local hour count double,
    /// the neighbouring hours once; ties go to the hour's typical trigger, then to the most
    /// logged one overall, then to the table order.
    public func urgeTriggerMenu(at t: Instant) -> [String] {
        let hour = clock.local(t).hour
        let typical = QuitRules.typicalTrigger(hour: hour)
        let ids = quitTriggers.map(\.id)
        func score(_ id: String) -> (Int, Int, Int) {
            let c = quit.hourCounts[id] ?? Array(repeating: 0, count: 24)
            let near = 2 * c[hour] + c[(hour + 23) % 24] + c[(hour + 1) % 24]
            return (near, id == typical ? 1 : 0, c.reduce(0, +))
        }
        let scored = ids.enumerated().map { (i, id) in (id: id, s: score(id), i: i) }
        return scored.sorted { a, b in a.s != b.s ? a.s > b.s : a.i < b.i }.map(\.id)
    }

    /// What should be left of the current pod/pack at the end of the day of `t` (nil: no goal).
    public func quitGauge(at t: Instant) -> QuitGauge? {
        guard let goal = quit.goalDays, let start = quit.podStartDay else { return nil }
        let dayOfPod = max(1, clock.day(of: t) - start + 1)
        return QuitGauge(goalDays: goal, dayOfPod: dayOfPod,
                         percentLeft: QuitRules.percentLeft(goalDays: goal, dayOfPod: dayOfPod),
                         overdueDays: max(0, dayOfPod - goal))
    }

    /// Seconds since the last give-in (or since the quit log started; nil before it started).
    public func secondsSinceGiveIn(at t: Instant) -> Int64? {
        guard let ref = quit.lastGiveIn ?? quit.startedAt else { return nil }
        return max(0, t - ref)
    }

    /// The recommendation the pet shows at `t` (for 5 minutes after a log).
    public func quitRecommendation(at t: Instant) -> String? {
        guard let r = quit.lastRecommendation, t - r.at >= 0, t - r.at < QuitRules.recommendationSeconds else { return nil }
        return r.text
    }

    /// The heat map of one calendar month: urges and give-ins per day (nil for an invalid month).
    public func quitMonthGrid(year: Int, month: Int) -> QuitMonthGrid? {
        let count = CivilDate.daysInMonth(year: year, month: month)
        guard count > 0 else { return nil }
        let first = CivilDate(year: year, month: month, day: 1)
        let lead = (first.weekday + 6) % 7          // Monday = 0
        var cells: [QuitHeatCell?] = Array(repeating: nil, count: lead)
        for i in 0..<count {
            let date = first.adding(days: i)
            let s = stats[date.dayNumber]
            cells.append(QuitHeatCell(date: date, day: date.dayNumber, urges: s.urges, giveIns: s.giveIns))
        }
        while cells.count % 7 != 0 { cells.append(nil) }
        let weeks = stride(from: 0, to: cells.count, by: 7).map { Array(cells[$0..<($0 + 7)]) }
        return QuitMonthGrid(year: year, month: month, weeks: weeks)
    }

    /// Today's reflection, if any.
    public var quitReflectionToday: QuitReflection? { quit.reflections[openDay] }
}

/// The quit log as a subsystem.
enum QuitLogSubsystem: EventWrappingSubsystem {
    typealias Commands = QuitCommands
    static func claim(_ action: Action) -> QuitAction? { if case .quit(let a) = action { a } else { nil } }
    static func claim(_ event: EventKind) -> QuitEvent? { if case .quit(let e) = event { e } else { nil } }
    static func wrap(_ event: QuitEvent) -> EventKind { .quit(event) }

    static func run(_ action: QuitAction, in engine: inout Engine, at: Instant, commandID: String) throws(DomainError) {
        try engine.runQuit(action, at: at, commandID: commandID)
    }

    static func apply(_ event: QuitEvent, to engine: inout Engine, at: Instant) { engine.applyQuit(event, at: at) }
}

extension Engine {
    mutating func runQuit(_ a: QuitAction, at: Instant, commandID: String) throws(DomainError) {
        switch a {
        case .start(let goal):
            guard state.quit.startedAt == nil else {
                throw .invalidState(kind: "quit log", id: "quit", reason: "is already started")
            }
            if let goal { try Self.validateGoal(goal, field: "goal-days") }
            emit(.quit(.started(goalDays: goal)), at: at)
        case let .log(trigger, outcome, thoughts):
            guard state.quitTriggers.contains(where: { $0.id == trigger }) else {
                throw .notFound(kind: "trigger", id: QuitRules.loggable(trigger))
            }
            let text = thoughts.flatMap { $0.trimmingSpaces.isEmpty ? nil : $0 }
            if let text, text.count > QuitRules.thoughtsLimit {
                throw .invalidField(field: "thoughts", reason: "must be at most \(QuitRules.thoughtsLimit) characters (got \(text.count))")
            }
            if state.quit.startedAt == nil { emit(.quit(.started(goalDays: nil)), at: at) }
            let rec = QuitRules.pickRecommendation(trigger: trigger, seed: state.eventCount,
                                                   previous: state.quit.lastRecommendation?.key)
            emit(.quit(.logged(trigger: trigger, outcome: outcome, thoughts: text, recommendation: rec)), at: at)
        case .addTrigger(let raw):
            let name = raw.trimmingSpaces
            guard QuitRules.triggerNameLength.contains(name.count) else {
                throw .invalidField(field: "name", reason: "must be \(QuitRules.triggerNameLength.text) characters (got \(name.count))")
            }
            guard !name.contains(where: { $0.isNewline }) else {
                throw .invalidField(field: "name", reason: "must be a single line")
            }
            if let clash = state.quitTriggers.first(where: { $0.name.lowercased() == name.lowercased() }) {
                throw .alreadyExists(kind: "trigger", id: clash.id)
            }
            guard state.quit.custom.count < QuitRules.maxCustomTriggers else {
                throw .limitReached(what: "custom triggers", limit: QuitRules.maxCustomTriggers)
            }
            emit(.quit(.triggerAdded(id: "custom-\(state.quit.nextCustom)", name: name)), at: at)
        case .deleteTrigger(let id):
            if QuitRules.isDefaultTrigger(id) {
                throw .invalidState(kind: "trigger", id: id, reason: "is a default trigger and cannot be deleted")
            }
            guard state.quit.custom.contains(where: { $0.id == id }) else {
                throw .notFound(kind: "trigger", id: QuitRules.loggable(id))
            }
            emit(.quit(.triggerDeleted(id: id)), at: at)
        case let .reflect(stressors, feelings):
            guard stressors != nil || feelings != nil else { throw .missingField(field: "stressors") }
            for (field, v) in [("stressors", stressors), ("feelings", feelings)] {
                if let v, v.count > QuitRules.reflectionLimit {
                    throw .invalidField(field: field, reason: "must be at most \(QuitRules.reflectionLimit) characters (got \(v.count))")
                }
            }
            let day = state.openDay
            let old = state.quit.reflections[day] ?? QuitReflection(stressors: "", feelings: "")
            emit(.quit(.reflected(day: day, stressors: stressors ?? old.stressors, feelings: feelings ?? old.feelings)), at: at)
        case .setGoal(let days):
            try Self.validateGoal(days, field: "days")
            if state.quit.startedAt == nil { emit(.quit(.started(goalDays: nil)), at: at) }
            emit(.quit(.goalSet(days: days)), at: at)
        }
    }

    private static func validateGoal(_ d: Int, field: String) throws(DomainError) {
        guard QuitRules.goalDays.contains(d) else {
            throw .invalidField(field: field, reason: "must be \(QuitRules.goalDays.text) days (got \(d))")
        }
    }

    mutating func applyQuit(_ e: QuitEvent, at: Instant) {
        let day = state.clock.day(of: at)
        switch e {
        case .started(let goal):
            state.quit.startedAt = at
            state.quit.cleanSinceDay = day
            state.quit.podStartDay = day
            if let goal { state.quit.goalDays = goal }
        case let .logged(trigger, outcome, thoughts, rec):
            state.quit.urges += 1
            state.stats.update(day) { $0.urges += 1 }
            if outcome.isGiveIn {
                state.quit.giveIns += 1
                state.quit.lastGiveIn = at
                state.quit.cleanSinceDay = day
                state.stats.update(day) { $0.giveIns += 1 }
            }
            if outcome == .finished { state.quit.podStartDay = day }
            var counts = state.quit.hourCounts[trigger] ?? Array(repeating: 0, count: 24)
            counts[state.clock.local(at).hour] += 1
            state.quit.hourCounts[trigger] = counts
            state.quit.recent.append(UrgeLog(at: at, trigger: trigger, outcome: outcome, thoughts: thoughts, recommendation: rec))
            if state.quit.recent.count > QuitRules.recentLimit {
                state.quit.recent.removeFirst(state.quit.recent.count - QuitRules.recentLimit)
            }
            state.quit.lastRecommendation = QuitShownRecommendation(key: rec, trigger: trigger, at: at)
        case let .triggerAdded(id, name):
            state.quit.custom.append(QuitTrigger(id: id, name: name, builtIn: false))
            if id.hasPrefix("custom-"), let n = Int(id.dropFirst(7)) { state.quit.nextCustom = max(state.quit.nextCustom, n + 1) }
        case .triggerDeleted(let id):
            if let t = state.quit.custom.first(where: { $0.id == id }) { state.quit.retired[id] = t.name }
            state.quit.custom.removeAll { $0.id == id }
        case let .reflected(d, s, f):
            state.quit.reflections[d] = QuitReflection(stressors: s, feelings: f)
            state.quit.reflections = state.quit.reflections.filter { $0.key > d - QuitRules.reflectionDays }
        case .goalSet(let days):
            state.quit.goalDays = days
            if state.quit.podStartDay == nil { state.quit.podStartDay = day }
        }
    }

    /// Milestone badges are awarded by the engine's `awardBadges` right after `day.closed`, when
    /// the closed day counts in `badgeQuitDays`; nothing else happens at a day's close.
}

/// Command names and fields of this subsystem (merged into CommandParser).
enum QuitCommands: CommandTable {
    static let fields: [String: Set<String>] = [
        "quit.start": ["goal-days"],
        "quit.log": ["trigger", "outcome", "thoughts"],
        "quit.trigger-add": ["name"],
        "quit.trigger-delete": ["trigger"],
        "quit.reflect": ["stressors", "feelings"],
        "quit.goal": ["days"],
    ]

    /// The action for `name`, or nil if the name is not this subsystem's.
    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? {
        switch name {
        case "quit.start": return .quit(.start(goalDays: try f.int("goal-days")))
        case "quit.log":
            let trigger = try f.required("trigger")
            let raw = try f.required("outcome")
            guard let outcome = QuitOutcome(rawValue: raw) else {
                throw .invalidField(field: "outcome", reason: "must be resisted, gave-in or finished")
            }
            return .quit(.log(trigger: trigger, outcome: outcome, thoughts: f["thoughts"]))
        case "quit.trigger-add": return .quit(.addTrigger(name: try f.required("name")))
        case "quit.trigger-delete": return .quit(.deleteTrigger(id: try f.required("trigger")))
        case "quit.reflect": return .quit(.reflect(stressors: f["stressors"], feelings: f["feelings"]))
        case "quit.goal":
            guard let d = try f.int("days") else { throw .missingField(field: "days") }
            return .quit(.setGoal(days: d))
        default: return nil
        }
    }
}
