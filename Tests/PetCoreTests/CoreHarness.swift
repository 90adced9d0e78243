import Foundation
import XCTest
import TestSupport
import PetCore

// Shared support for the PetCore domain tests: zone rules from the system database, a harness that
// drives the engine exactly like the app does, event helpers and a seeded random generator.

/// Zones the domain tests use, read once from the system zone database (Debian tzdata).
let coreTestZoneIDs = [
    "UTC", "America/New_York", "Europe/Berlin", "Asia/Tokyo", "Asia/Kolkata",
    "Pacific/Kiritimati", "Pacific/Pago_Pago", "Australia/Lord_Howe",
]

let coreTestZoneTable: [String: ZoneRules] = {
    var table: [String: ZoneRules] = [:]
    for id in coreTestZoneIDs {
        let url = URL(fileURLWithPath: "/usr/share/zoneinfo/" + id)
        guard let data = try? Data(contentsOf: url),
              let rules = try? ZoneRules(identifier: id, tzif: [UInt8](data)) else { continue }
        table[id] = rules
    }
    return table
}()

/// The zone lookup injected into engines under test.
let testZones: ZoneLookup = { coreTestZoneTable[$0] }

/// A wall-clock time in a zone, e.g. `wall("2026-03-08 09:00", in: "America/New_York")`.
func wall(_ text: String, in zone: String = "UTC") -> Instant {
    guard let rules = coreTestZoneTable[zone], let local = LocalDateTime(parsing: text) else {
        fatalError("bad test time '\(text)' in \(zone)")
    }
    return Instant(rules.utc(for: local))
}

/// The day number named by a date ("2026-03-02").
func dayNumber(_ date: String) -> Int {
    guard let d = CivilDate(parsing: date) else { fatalError("bad test date '\(date)'") }
    return d.dayNumber
}

/// Drives an `Engine` the way the app does: advance to the command's instant, decide, apply, and
/// keep the result only when the command is accepted. Every event is kept in `journal`.
struct Harness {
    private(set) var engine: Engine
    private(set) var journal: [Event]
    private var counter = 0

    init(zone: String = "UTC", at text: String, dayStart: Int = 3) {
        self.init(zone: zone, instant: wall(text, in: zone), dayStart: dayStart)
    }

    init(zone: String = "UTC", instant: Instant, dayStart: Int = 3) {
        do {
            let (e, genesis) = try Engine.create(at: instant, zoneID: zone, dayStartHour: dayStart, zones: testZones)
            engine = e
            journal = [genesis]
        } catch {
            fatalError("cannot create engine: \(error)")
        }
    }

    var state: PetState { engine.state }
    var now: Instant { engine.state.now }
    var clock: DayClock { engine.state.clock }

    /// A local wall time in the pet's current zone.
    func t(_ text: String) -> Instant {
        guard let local = LocalDateTime(parsing: text) else { fatalError("bad test time '\(text)'") }
        return clock.instant(local)
    }

    func task(_ id: String) -> TaskItem? { state.tasks[id] }

    @discardableResult
    mutating func advance(to t: Instant) -> [Event] {
        let events = engine.advance(to: t)
        journal += events
        return events
    }

    @discardableResult
    mutating func advance(to text: String) -> [Event] { advance(to: t(text)) }

    @discardableResult
    mutating func advance(by seconds: Int64) -> [Event] { advance(to: now + seconds) }

    mutating func nextCommandID() -> String {
        counter += 1
        return "cmd-\(counter)"
    }

    /// Runs a command like the app: a refused command changes nothing (not even the advance).
    @discardableResult
    mutating func run(_ command: Command) throws(DomainError) -> [Event] {
        try Engine.checkRange(command)   // as PetApp: an instant outside the range moves no time
        var next = engine
        var events = next.advance(to: command.at)
        let decided = try next.decide(command)
        next.apply(decided)
        events += decided
        engine = next
        journal += events
        return events
    }

    @discardableResult
    mutating func run(_ action: Action, at: Instant? = nil, id: String? = nil) throws(DomainError) -> [Event] {
        let cid = id ?? nextCommandID()
        return try run(Command(id: cid, at: at ?? now, action: action))
    }

    /// Parses `name key=value…` fields with `CommandParser` (as the phone and scenarios do) and runs it.
    @discardableResult
    mutating func send(_ name: String, _ fields: [String: String] = [:], at: Instant? = nil,
                       id: String? = nil) throws(DomainError) -> [Event] {
        let cid = id ?? nextCommandID()
        let command = try CommandParser.parse(name: name, fields: fields, id: cid, at: at ?? now, clock: clock)
        return try run(command)
    }

    /// `send` that must succeed (fails the test otherwise).
    @discardableResult
    mutating func ok(_ name: String, _ fields: [String: String] = [:], at: Instant? = nil, id: String? = nil,
                     file: StaticString = #filePath, line: UInt = #line) -> [Event] {
        do {
            return try send(name, fields, at: at, id: id)
        } catch {
            XCTFail("\(name) \(fields) refused: \(error)", file: file, line: line)
            return []
        }
    }

    /// Sends a command that must be refused with `expected`, and checks that nothing changed: no
    /// events, the same state and journal. Also checks `decide` directly (pure: throws, returns nothing).
    mutating func refuse(_ name: String, _ fields: [String: String] = [:], _ expected: Refusal,
                         file: StaticString = #filePath, line: UInt = #line) {
        let before = state
        let count = journal.count
        let cid = nextCommandID()
        do {
            let events = try send(name, fields, id: cid)
            XCTFail("\(name) \(fields): expected \(expected), got \(events.count) events", file: file, line: line)
        } catch {
            XCTAssertEqual(error.refusal, expected, "\(error)", file: file, line: line)
        }
        XCTAssertEqual(state, before, "state changed by a refused \(name)", file: file, line: line)
        XCTAssertEqual(journal.count, count, file: file, line: line)
        if let command = try? CommandParser.parse(name: name, fields: fields, id: cid, at: now, clock: clock) {
            var events: [Event]? = nil
            XCTAssertThrowsError(events = try engine.decide(command), file: file, line: line)
            XCTAssertNil(events, file: file, line: line)
        }
    }

    /// The engine rebuilt from the journal alone.
    func replayed() -> Engine {
        do { return try Engine(journal: journal, zones: testZones) } catch { fatalError("replay failed: \(error)") }
    }

    /// Replays the journal, advances the replay to the live instant and checks it equals the live state
    /// (and that the replay produces nothing new on the way).
    func assertReplayEqualsLive(file: StaticString = #filePath, line: UInt = #line) {
        var replay = replayed()
        let extra = replay.advance(to: now)
        XCTAssertTrue(extra.isEmpty, "replay produced new events: \(extra.types)", file: file, line: line)
        XCTAssertTrue(replay.state == state, "replay differs from the live state in \(stateDiff(replay.state, state))",
                      file: file, line: line)
    }
}

/// Names of the `PetState` properties (and task ids) that differ, for short failure messages.
func stateDiff(_ a: PetState, _ b: PetState) -> [String] {
    var out: [String] = []
    for (x, y) in zip(Mirror(reflecting: a).children, Mirror(reflecting: b).children)
    where String(describing: x.value) != String(describing: y.value) {
        out.append(x.label ?? "?")
    }
    for id in Set(a.tasks.keys).union(b.tasks.keys) where a.tasks[id] != b.tasks[id] { out.append("task \(id)") }
    return out
}

/// A refusal, compared by code and the field/object it names (not by message wording).
enum Refusal: Equatable {
    case field(String)
    case missing(String)
    case notFound(String, String)
    case exists(String, String)
    case state(String, String)
    case coins(needed: Int, balance: Int)
    case limit(String, Int)
    case rate(retryAfter: Int64)
    case unknownCommand(String)
    case unknownZone(String)

}

extension DomainError {
    var refusal: Refusal {
        switch self {
        case let .invalidField(field, _): .field(field)
        case let .missingField(field): .missing(field)
        case let .notFound(kind, id): .notFound(kind, id)
        case let .alreadyExists(kind, id): .exists(kind, id)
        case let .invalidState(kind, id, _): .state(kind, id)
        case let .insufficientCoins(needed, balance): .coins(needed: needed, balance: balance)
        case let .limitReached(what, limit): .limit(what, limit)
        case let .rateLimited(_, after): .rate(retryAfter: after)
        case let .unknownCommand(name): .unknownCommand(name)
        case let .unknownTimeZone(id): .unknownZone(id)
        }
    }
}

// MARK: - Event helpers

extension Array where Element == Event {
    var kinds: [EventKind] { map(\.kind) }
    var types: [String] { map(\.kind.type) }

    var closedDays: [DayResult] {
        compactMap { if case .dayClosed(let r) = $0.kind { return r } else { return nil } }
    }
    var missed: [String] {
        compactMap { if case .taskMissed(let id, _) = $0.kind { return id } else { return nil } }
    }
    var excused: [String] {
        compactMap { if case .taskExcused(let id, _) = $0.kind { return id } else { return nil } }
    }
    var created: [TaskItem] {
        compactMap { if case .taskCreated(let t) = $0.kind { return t } else { return nil } }
    }
    var rewards: [Reward] {
        compactMap { if case let .taskCompleted(_, _, r) = $0.kind { return r } else { return nil } }
    }
    var levels: [Int] {
        compactMap { if case .levelReached(let l) = $0.kind { return l } else { return nil } }
    }
    var badges: [String] {
        compactMap { if case .badgeEarned(let id) = $0.kind { return id } else { return nil } }
    }
    var saidKeys: [String] {
        compactMap { if case .petSaid(let k) = $0.kind { return k } else { return nil } }
    }
    var remindersDue: [String] {
        compactMap { if case let .reminderDue(id, i) = $0.kind { return "\(id)/\(i)" } else { return nil } }
    }
    var remindersMissed: [String] {
        compactMap { if case let .reminderMissed(id, i) = $0.kind { return "\(id)/\(i)" } else { return nil } }
    }
    func first(_ type: String) -> Event? { first { $0.kind.type == type } }
}

// MARK: - Seeded randomness

