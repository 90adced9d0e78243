/// Screen time: usage sessions, per-app totals, challenges, private apps (docs/screen-time.md).
///
/// Rules and decisions: docs/screen-time.md. In short:
/// - the phone reports sessions (app id, start, end); a session is split at the owner's day
///   boundaries (DST-correct); a day's per-app total is its seconds rounded to the nearest minute
///   (30 s up); weeks (Monday–Sunday) and months sum the days;
/// - sessions may arrive up to 7 days late; one overlapping an already reported session of the same
///   app is refused; nothing but the app id and the two instants is stored;
/// - a challenge starts at the next day start and runs for its length in (non-paused) days; each
///   day is judged at its close; completing pays `ChallengeRules.reward`; exceeding the limit or
///   giving up costs the stake, at most the balance.

public enum ChallengeSound: String, Codable, Sendable {
    case celebration
    case strongBuzz = "strong-buzz"
}

public enum ChallengeEndReason: String, Codable, Sendable {
    /// A judged day's total exceeded the limit.
    case exceeded
    /// The owner gave up (`challenge.forfeit`).
    case givenUp = "given-up"
}

/// A challenge kind: a built-in one, or "custom" (app, limit, length and stake chosen by the owner).
public struct ChallengeKind: Sendable, Equatable {
    public var id: String
    public var title: String
    public var app: String
    public var limitMinutes: Int
    public var days: Int
    public var stake: Int
}

public struct Challenge: Codable, Sendable, Equatable {
    /// The id of the command that started it.
    public var id: String
    /// A built-in kind id or "custom".
    public var kind: String
    public var app: String
    /// Daily limit in minutes (0 = not at all).
    public var limitMinutes: Int
    /// Length in judged days.
    public var days: Int
    public var stake: Int
    /// The first day judged (the day after it was started).
    public var startDay: Int
    /// Days judged under the limit so far.
    public var passedDays: Int = 0

    public init(id: String, kind: String, app: String, limitMinutes: Int, days: Int, stake: Int, startDay: Int,
                passedDays: Int = 0) {
        self.id = id; self.kind = kind; self.app = app; self.limitMinutes = limitMinutes; self.days = days
        self.stake = stake; self.startDay = startDay; self.passedDays = passedDays
    }
}

public struct ChallengeResult: Codable, Sendable, Equatable {
    public var challenge: Challenge
    public var completed: Bool
    /// Coins paid (completed) or taken (forfeited).
    public var coins: Int
    public var at: Instant
}

public enum AppTimeAction: Sendable, Equatable {
    case session(app: String, start: Instant, end: Instant)
    case setPrivate(app: String, on: Bool)
    case startBuiltIn(kind: String)
    case startCustom(app: String, limitMinutes: Int, days: Int, stake: Int)
    case forfeit(app: String)

    /// The protocol name of the command.
    public var name: String {
        switch self {
        case .session: "screen.session"
        case .setPrivate: "screen.private"
        case .startBuiltIn, .startCustom: "challenge.start"
        case .forfeit: "challenge.forfeit"
        }
    }
}

public enum AppTimeEvent: SubEvent {
    case session(app: String, start: Instant, end: Instant)
    case privacy(app: String, on: Bool)
    case challengeStarted(Challenge)
    case dayPassed(app: String, day: Int, minutes: Int)
    case completed(app: String, kind: String, coins: Int, sound: ChallengeSound)
    case forfeited(app: String, kind: String, cost: Int, reason: ChallengeEndReason, day: Int?, minutes: Int?, sound: ChallengeSound)

    public var type: String {
        switch self {
        case .session: "screen.session"
        case .privacy: "screen.private"
        case .challengeStarted: "challenge.started"
        case .dayPassed: "challenge.day-passed"
        case .completed: "challenge.completed"
        case .forfeited: "challenge.forfeited"
        }
    }

    public var coinsDelta: Int {
        switch self {
        case .completed(_, _, let coins, _): coins
        case .forfeited(_, _, let cost, _, _, _, _): -cost
        default: 0
        }
    }

    public static func owns(_ type: String) -> Bool { type.hasPrefix("screen.") || type.hasPrefix("challenge.") }
    public static let allTypes = ["screen.session", "screen.private", "challenge.started", "challenge.day-passed",
                                  "challenge.completed", "challenge.forfeited"]

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(type, forKey: AnyKey("type"))
        switch self {
        case let .session(app, start, end):
            try c.encode(app, forKey: AnyKey("app"))
            try c.encode(start, forKey: AnyKey("start"))
            try c.encode(end, forKey: AnyKey("end"))
        case let .privacy(app, on):
            try c.encode(app, forKey: AnyKey("app"))
            try c.encode(on, forKey: AnyKey("on"))
        case .challengeStarted(let ch): try c.encode(ch, forKey: AnyKey("challenge"))
        case let .dayPassed(app, day, minutes):
            try c.encode(app, forKey: AnyKey("app"))
            try c.encode(day, forKey: AnyKey("day"))
            try c.encode(minutes, forKey: AnyKey("minutes"))
        case let .completed(app, kind, coins, sound):
            try c.encode(app, forKey: AnyKey("app"))
            try c.encode(kind, forKey: AnyKey("kind"))
            try c.encode(coins, forKey: AnyKey("coins"))
            try c.encode(sound, forKey: AnyKey("sound"))
        case let .forfeited(app, kind, cost, reason, day, minutes, sound):
            try c.encode(app, forKey: AnyKey("app"))
            try c.encode(kind, forKey: AnyKey("kind"))
            try c.encode(cost, forKey: AnyKey("cost"))
            try c.encode(reason, forKey: AnyKey("reason"))
            try c.encodeIfPresent(day, forKey: AnyKey("day"))
            try c.encodeIfPresent(minutes, forKey: AnyKey("minutes"))
            try c.encode(sound, forKey: AnyKey("sound"))
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let type = try c.decode(String.self, forKey: AnyKey("type"))
        let s = c.string, i = c.int
        switch type {
        case "screen.session":
            self = .session(app: try s("app"), start: try c.decode(Instant.self, forKey: AnyKey("start")),
                            end: try c.decode(Instant.self, forKey: AnyKey("end")))
        case "screen.private": self = .privacy(app: try s("app"), on: try c.decode(Bool.self, forKey: AnyKey("on")))
        case "challenge.started": self = .challengeStarted(try c.decode(Challenge.self, forKey: AnyKey("challenge")))
        case "challenge.day-passed": self = .dayPassed(app: try s("app"), day: try i("day"), minutes: try i("minutes"))
        case "challenge.completed":
            self = .completed(app: try s("app"), kind: try s("kind"), coins: try i("coins"),
                              sound: try c.decode(ChallengeSound.self, forKey: AnyKey("sound")))
        case "challenge.forfeited":
            self = .forfeited(app: try s("app"), kind: try s("kind"), cost: try i("cost"),
                              reason: try c.decode(ChallengeEndReason.self, forKey: AnyKey("reason")),
                              day: try c.decodeIfPresent(Int.self, forKey: AnyKey("day")),
                              minutes: try c.decodeIfPresent(Int.self, forKey: AnyKey("minutes")),
                              sound: try c.decode(ChallengeSound.self, forKey: AnyKey("sound")))
        default: throw unknownSubEvent(decoder, type)
        }
    }
}

/// A reported usage session (app id and times only: never any content).
public struct AppSession: Codable, Sendable, Equatable {
    public var app: String
    public var start: Instant
    public var end: Instant
}

/// The latest challenge sound, for the device to play.
public struct ChallengeSoundCue: Codable, Sendable, Equatable {
    public var sound: ChallengeSound
    public var at: Instant
}

public struct AppTimeState: Codable, Sendable, Equatable {
    /// Sessions of the last days (for refusing overlaps), oldest first.
    public var recent: [AppSession] = []
    /// Exact seconds per day and app for the last days (late sessions round exactly); older
    /// days keep only their minutes in `stats`.
    public var daySeconds: [Int: [String: Int64]] = [:]
    public var privateApps: Set<String> = []
    /// Every app id ever reported, challenged or marked.
    public var knownApps: Set<String> = []
    /// Active (or waiting to begin) challenges by app: one per app.
    public var active: [String: Challenge] = [:]
    /// The latest finished challenges, oldest first.
    public var history: [ChallengeResult] = []
    /// Kinds completed at least once (their badges).
    public var completedKinds: Set<String> = []
    public var completed = 0
    public var forfeited = 0
    public var lastSound: ChallengeSoundCue?
    public init() {}
}

public enum AppTimeRules {
    /// Sessions may be reported this many days after their day (older ones are refused).
    public static let lateDays = 7
    /// Days of exact seconds and sessions kept in the state (one more than `lateDays`).
    public static let keepDays = 8
    public static let maxSessionSeconds: Int64 = 86_400
    public static let appIDLength = 1...64

    /// A day's minutes from its seconds: nearest minute, 30 s rounds up.
    public static func minutes(seconds: Int64) -> Int { Int((seconds + 30) / 60) }

    /// App ids are lower-cased; 1–64 of `a-z 0-9 . _ -`.
    static func normalizedApp(_ raw: String) throws(DomainError) -> String {
        let app = raw.trimmingSpaces.lowercased()
        guard appIDLength.contains(app.count),
              app.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") }) else {
            throw .invalidField(field: "app", reason: "must be \(appIDLength.text) of a-z, 0-9, '.', '_', '-'")
        }
        return app
    }
}

public enum ChallengeRules {
    public static let builtIn: [ChallengeKind] = [
        ChallengeKind(id: "youtube-2h-fast", title: "YouTube 2-hour fast", app: "youtube", limitMinutes: 120, days: 7, stake: 15),
        ChallengeKind(id: "whatsapp-1-minute", title: "WhatsApp 1-minute limit", app: "whatsapp", limitMinutes: 1, days: 3, stake: 10),
        ChallengeKind(id: "instagram-detox-day", title: "Instagram detox day", app: "instagram", limitMinutes: 0, days: 1, stake: 5),
    ]
    public static let customKind = "custom"
    public static let limitRange = 0...1440
    public static let daysRange = 1...90
    public static let stakeRange = 0...1000
    public static let historyLimit = 20

    public static func kind(id: String) -> ChallengeKind? { builtIn.first { $0.id == id } }

    /// Coins per judged day: ⌈240 / (limit + 12)⌉ — 20 for 0 minutes, 19 for 1, 2 for 120, 1 from 228.
    public static func perDay(limitMinutes: Int) -> Int { (240 + limitMinutes + 11) / (limitMinutes + 12) }

    /// Coins for completing: per-day × days, plus 2 × per-day for every full week.
    public static func reward(limitMinutes: Int, days: Int) -> Int {
        let p = perDay(limitMinutes: limitMinutes)
        return p * days + 2 * p * (days / 7)
    }
}

extension PetState {
    /// Challenge kinds completed at least once (for their badges).
    var badgeChallengeKinds: Set<String> { appTime.completedKinds }

    /// Minutes per app on a day.
    public func appMinutes(day: Int) -> [String: Int] { stats[day].appMinutes }

    /// Minutes per app in the Monday–Sunday week containing `day`.
    public func appMinutes(weekOf day: Int) -> [String: Int] {
        let monday = day - (CivilDate(dayNumber: day).weekday + 6) % 7
        return sumAppTime(days: monday..<(monday + 7))
    }

    /// Minutes per app in a calendar month (days named by their dates).
    public func appMinutes(year: Int, month: Int) -> [String: Int] {
        let n = CivilDate.daysInMonth(year: year, month: month)
        guard n > 0 else { return [:] }
        let first = CivilDate(year: year, month: month, day: 1).dayNumber
        return sumAppTime(days: first..<(first + n))
    }

    private func sumAppTime(days: Range<Int>) -> [String: Int] {
        var out: [String: Int] = [:]
        for d in days { for (app, m) in stats[d].appMinutes { out[app, default: 0] += m } }
        return out
    }

    /// Apps that may appear in anything shared (exports, phone charts): every known app but the
    /// private ones, sorted. Private apps still count in the totals.
    public func shareableApps() -> [String] { appTime.knownApps.subtracting(appTime.privateApps).sorted() }

    /// Per-app minutes of a day without the private apps.
    public func shareableAppMinutes(day: Int) -> [String: Int] {
        appMinutes(day: day).filter { !appTime.privateApps.contains($0.key) }
    }
}

/// Screen time and challenges as a subsystem.
enum AppTimeSubsystem: EventWrappingSubsystem {
    typealias Commands = AppTimeCommands
    static func claim(_ action: Action) -> AppTimeAction? { if case .appTime(let a) = action { a } else { nil } }
    static func claim(_ event: EventKind) -> AppTimeEvent? { if case .appTime(let e) = event { e } else { nil } }
    static func wrap(_ event: AppTimeEvent) -> EventKind { .appTime(event) }

    static func run(_ action: AppTimeAction, in engine: inout Engine, at: Instant, commandID: String) throws(DomainError) {
        try engine.runAppTime(action, at: at, commandID: commandID)
    }

    static func apply(_ event: AppTimeEvent, to engine: inout Engine, at: Instant) { engine.applyAppTime(event, at: at) }

    static func closeDay(_ day: Int, boundary: Instant, in engine: inout Engine) {
        engine.closeDayAppTime(day: day, boundary: boundary)
    }
}

extension Engine {
    mutating func runAppTime(_ a: AppTimeAction, at: Instant, commandID: String) throws(DomainError) {
        switch a {
        case let .session(raw, start, end):
            let app = try AppTimeRules.normalizedApp(raw)
            guard end > start else { throw .invalidField(field: "end", reason: "must be after start") }
            guard end <= at else { throw .invalidField(field: "end", reason: "is in the future") }
            guard end - start <= AppTimeRules.maxSessionSeconds else {
                throw .invalidField(field: "end", reason: "a session lasts at most \(AppTimeRules.maxSessionSeconds / Seconds.hour) hours")
            }
            guard start >= state.clock.start(ofDay: state.openDay - AppTimeRules.lateDays) else {
                throw .invalidField(field: "start", reason: "is more than \(AppTimeRules.lateDays) days ago")
            }
            if state.appTime.recent.contains(where: { $0.app == app && $0.start < end && start < $0.end }) {
                throw .alreadyExists(kind: "session", id: "\(app)@\(start.seconds)")
            }
            emit(.appTime(.session(app: app, start: start, end: end)), at: at)
        case let .setPrivate(raw, on):
            let app = try AppTimeRules.normalizedApp(raw)
            guard state.appTime.privateApps.contains(app) != on else {
                throw .invalidState(kind: "app", id: app, reason: on ? "is already private" : "is not private")
            }
            emit(.appTime(.privacy(app: app, on: on)), at: at)
        case .startBuiltIn(let kindID):
            guard let k = ChallengeRules.kind(id: kindID) else { throw .notFound(kind: "challenge kind", id: kindID) }
            try startChallenge(Challenge(id: commandID, kind: k.id, app: k.app, limitMinutes: k.limitMinutes,
                                         days: k.days, stake: k.stake, startDay: state.openDay + 1), at: at)
        case let .startCustom(raw, limit, days, stake):
            let app = try AppTimeRules.normalizedApp(raw)
            guard ChallengeRules.limitRange.contains(limit) else {
                throw .invalidField(field: "limit", reason: "must be \(ChallengeRules.limitRange.text) minutes a day (got \(limit))")
            }
            guard ChallengeRules.daysRange.contains(days) else {
                throw .invalidField(field: "days", reason: "must be \(ChallengeRules.daysRange.text) (got \(days))")
            }
            guard ChallengeRules.stakeRange.contains(stake) else {
                throw .invalidField(field: "stake", reason: "must be \(ChallengeRules.stakeRange.text) coins (got \(stake))")
            }
            try startChallenge(Challenge(id: commandID, kind: ChallengeRules.customKind, app: app, limitMinutes: limit,
                                         days: days, stake: stake, startDay: state.openDay + 1), at: at)
        case .forfeit(let raw):
            let app = try AppTimeRules.normalizedApp(raw)
            guard let ch = state.appTime.active[app] else { throw .notFound(kind: "challenge", id: app) }
            emit(.appTime(.forfeited(app: app, kind: ch.kind, cost: min(ch.stake, state.coins), reason: .givenUp,
                                    day: nil, minutes: nil, sound: .strongBuzz)), at: at)
            say(.missed, at: at)
        }
    }

    private mutating func startChallenge(_ ch: Challenge, at: Instant) throws(DomainError) {
        guard state.appTime.active[ch.app] == nil else { throw .alreadyExists(kind: "challenge", id: ch.app) }
        emit(.appTime(.challengeStarted(ch)), at: at)
    }

    mutating func applyAppTime(_ e: AppTimeEvent, at: Instant) {
        switch e {
        case let .session(app, start, end):
            state.appTime.knownApps.insert(app)
            var cursor = start
            // A session lasts at most a day (`maxSessionSeconds`: the command refuses longer ones),
            // so it touches at most three days; the bound keeps a hostile stored row from walking
            // centuries day by day.
            var pieces = 0
            while cursor < end, pieces < 3 {
                pieces += 1
                let d = state.clock.day(of: cursor)
                let pieceEnd = min(end, state.clock.start(ofDay: d + 1))
                guard pieceEnd > cursor else { break }
                var day = state.appTime.daySeconds[d] ?? [:]
                day[app, default: 0] += pieceEnd - cursor
                state.appTime.daySeconds[d] = day
                let minutes = AppTimeRules.minutes(seconds: day[app] ?? 0)
                state.stats.update(d) { $0.appMinutes[app] = minutes }
                cursor = pieceEnd
            }
            state.appTime.recent.append(AppSession(app: app, start: start, end: end))
            // Keep what a late session may still touch (ordered by the event's own day: replay-safe).
            let today = state.clock.day(of: at)
            let horizon = state.clock.start(ofDay: today - AppTimeRules.keepDays)
            state.appTime.recent.removeAll { $0.end <= horizon }
            state.appTime.daySeconds = state.appTime.daySeconds.filter { $0.key >= today - AppTimeRules.keepDays }
        case let .privacy(app, on):
            state.appTime.knownApps.insert(app)
            if on { state.appTime.privateApps.insert(app) } else { state.appTime.privateApps.remove(app) }
        case .challengeStarted(let ch):
            state.appTime.knownApps.insert(ch.app)
            state.appTime.active[ch.app] = ch
        case .dayPassed(let app, _, _):
            state.appTime.active[app]?.passedDays += 1
        case let .completed(app, kind, coins, sound):
            if let ch = state.appTime.active[app] { record(ChallengeResult(challenge: ch, completed: true, coins: coins, at: at)) }
            state.appTime.active[app] = nil
            state.appTime.completedKinds.insert(kind)
            state.appTime.completed += 1
            state.appTime.lastSound = ChallengeSoundCue(sound: sound, at: at)
            state.lastCelebration = at
        case let .forfeited(app, _, cost, _, _, _, sound):
            if let ch = state.appTime.active[app] { record(ChallengeResult(challenge: ch, completed: false, coins: cost, at: at)) }
            state.appTime.active[app] = nil
            state.appTime.forfeited += 1
            state.appTime.lastSound = ChallengeSoundCue(sound: sound, at: at)
        }
    }

    private mutating func record(_ r: ChallengeResult) {
        state.appTime.history.append(r)
        if state.appTime.history.count > ChallengeRules.historyLimit {
            state.appTime.history.removeFirst(state.appTime.history.count - ChallengeRules.historyLimit)
        }
    }

    /// Judges every running challenge on the closing day against that day's total: over the limit
    /// forfeits the stake (at most the balance); otherwise the day passes, and the last day
    /// completes it. A paused day is not judged (the challenge runs one day longer).
    mutating func closeDayAppTime(day: Int, boundary: Instant) {
        guard !state.paused else { return }
        for app in state.appTime.active.keys.sorted() {
            guard let ch = state.appTime.active[app], ch.startDay <= day else { continue }
            let minutes = state.stats[day].appMinutes[app] ?? 0
            if minutes > ch.limitMinutes {
                emit(.appTime(.forfeited(app: app, kind: ch.kind, cost: min(ch.stake, state.coins), reason: .exceeded,
                                        day: day, minutes: minutes, sound: .strongBuzz)), at: boundary)
                say(.missed, at: boundary)
                continue
            }
            emit(.appTime(.dayPassed(app: app, day: day, minutes: minutes)), at: boundary)
            if ch.passedDays + 1 >= ch.days {
                emit(.appTime(.completed(app: app, kind: ch.kind,
                                        coins: ChallengeRules.reward(limitMinutes: ch.limitMinutes, days: ch.days),
                                        sound: .celebration)), at: boundary)
                awardBadges(at: boundary)
                say(.taskDone, at: boundary)
            }
        }
    }

}

/// Command names and fields of this subsystem (merged into CommandParser).
enum AppTimeCommands: CommandTable {
    static let fields: [String: Set<String>] = [
        "screen.session": ["app", "start", "end"],
        "screen.private": ["app", "on"],
        "challenge.start": ["kind", "app", "limit", "days", "stake"],
        "challenge.forfeit": ["app"],
    ]

    /// The action for `name`, or nil if the name is not this subsystem's.
    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? {
        switch name {
        case "screen.session":
            _ = try f.required("start"); _ = try f.required("end")
            guard let start = try f.time("start"), let end = try f.time("end") else { throw .missingField(field: "start") }
            return .appTime(.session(app: try f.required("app"), start: start, end: end))
        case "screen.private":
            let on: Bool
            switch try f.required("on") {
            case "yes": on = true
            case "no": on = false
            default: throw .invalidField(field: "on", reason: "must be yes or no")
            }
            return .appTime(.setPrivate(app: try f.required("app"), on: on))
        case "challenge.start":
            if let kind = f["kind"] {
                for k in ["app", "limit", "days", "stake"] where f[k] != nil {
                    throw .invalidField(field: k, reason: "a built-in challenge (kind) takes no \(k)")
                }
                return .appTime(.startBuiltIn(kind: kind))
            }
            guard f["app"] != nil else { throw .missingField(field: "kind") }
            guard let limit = try f.int("limit") else { throw .missingField(field: "limit") }
            guard let days = try f.int("days") else { throw .missingField(field: "days") }
            return .appTime(.startCustom(app: try f.required("app"), limitMinutes: limit, days: days,
                                        stake: try f.int("stake") ?? 0))
        case "challenge.forfeit": return .appTime(.forfeit(app: try f.required("app")))
        default: return nil
        }
    }
}
