/// How the domain's parts (tasks, habits, shop, commitments, quit log, screen time, reminders,
/// phones) plug into the engine. The engine itself keeps only what every part shares: days and the
/// streak, the ledger, the pet, settings, levels and badges. Everything else is a `Subsystem`:
/// one type, listed once in `Engine.subsystems`.
///
/// Adding a subsystem (docs/architecture.md, "Adding a subsystem"):
/// 1. a folder with its Action and Event types (events conform to `SubEvent` and encode as flat
///    JSON objects whose `type` starts with the subsystem's prefix), its State, its command table
///    (a `CommandTable`: command names, their fields, the parser) and one type conforming to
///    `EventWrappingSubsystem` that names them and implements the hooks it needs (the others
///    default to doing nothing);
/// 2. the vocabulary the rest of the program matches on: an `Action` case, an `EventKind` case and
///    a `PetState` field (the compiler then asks for their lines in `Action.name`,
///    `EventKind.subEvent`, `EventKind.type`/`encode` and `PetState.CodingKeys` is checked by
///    the snapshot tests);
/// 3. its line in `Engine.subsystems`.
/// The engine then parses and runs its commands, folds and decodes its events, counts their coins
/// and XP in the ledger, and lets it act at day closes and at instants of its own. What the
/// compiler cannot see (a type written twice, a name two subsystems claim, a missing line in
/// `Engine.subsystems`, a state shape changed without a snapshot format bump) is caught by
/// Tests/PetCoreTests/SubsystemRegistryTests.swift, which walks every subsystem.

/// The commands of one subsystem: their protocol names with the fields each accepts, and the
/// parser from flat fields (docs/scenarios.md#commands). `CommandParser` merges every registered
/// subsystem's table; a name must belong to one table only.
protocol CommandTable {
    /// Command name → the fields it accepts.
    static var fields: [String: Set<String>] { get }
    /// The action for `name`, or nil if the name is not in this table.
    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action?
}

/// The table of a subsystem without text commands (its actions come from the link or the engine).
enum NoCommands: CommandTable {
    static var fields: [String: Set<String>] { [:] }
    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? { nil }
}

#if !compiler(>=6.2)
// Swift 6.0/6.1 (Debian 13's swiftlang builds the arm64 package) have no SendableMetatype; there every
// metatype is usable across isolation, so requiring nothing is the same constraint.
typealias SendableMetatype = Any
#endif

/// One part of the domain, as seen by the engine. All hooks are static and work on the engine
/// passed in (its `state`, `emit`, `say`, `notify`…); every hook but the two `claim`s has a
/// default that does nothing.
protocol Subsystem: SendableMetatype {
    /// Its commands and its events (for tasks, which predate subsystems, the top-level enums).
    associatedtype OwnAction
    associatedtype OwnEvent
    /// Its text commands (`NoCommands` if it has none; the tasks' commands are the parser's own).
    associatedtype Commands: CommandTable = NoCommands

    /// Its part of a command (nil: the engine's own or another subsystem's).
    static func claim(_ action: Action) -> OwnAction?
    /// Its part of an event (nil: the engine's own or another subsystem's).
    static func claim(_ event: EventKind) -> OwnEvent?

    /// Validates a command and `emit`s the events it causes, or throws and emits nothing.
    static func run(_ action: OwnAction, in engine: inout Engine, at: Instant, commandID: String) throws(DomainError)
    /// Folds one of its events into the state. Never fails: events are facts.
    static func apply(_ event: OwnEvent, to engine: inout Engine, at: Instant)
    /// What the close of `day` causes, emitted at `boundary`, before the day's streak is judged.
    static func closeDay(_ day: Int, boundary: Instant, in engine: inout Engine)
    /// The earliest instant at which it has something to do by itself (nil: nothing).
    static func nextWakeup(of engine: Engine) -> Instant?
    /// Does what is due at `due` (its `nextWakeup`), emitting at `at` (≥ `due` when the engine
    /// was behind); `upTo` is the advance target, to tell on-time from late.
    static func fire(due: Instant, at: Instant, upTo: Instant, in engine: inout Engine)
    /// Reads one of its events from the journal (nil: not one of its types). Subsystems whose
    /// events are `SubEvent`s get this from `wrap`.
    static func decodeEvent(type: String, from decoder: Decoder) throws -> EventKind?
    /// Applies `event` if it is this subsystem's (false if not): counts its coins and XP in the
    /// ledger, then `apply`. Provided; not meant to be implemented by a subsystem.
    static func applyIfOwned(_ event: EventKind, to engine: inout Engine, at: Instant) -> Bool
    /// The journal type names of its events (for the registry tests; [] for tasks, whose events
    /// are the engine's top-level cases).
    static var eventTypes: [String] { get }
    /// Whether a journal type name is one of its events.
    static func ownsEventType(_ type: String) -> Bool
}

extension Subsystem {
    static func run(_ action: OwnAction, in engine: inout Engine, at: Instant, commandID: String) throws(DomainError) {}
    static func apply(_ event: OwnEvent, to engine: inout Engine, at: Instant) {}
    static func closeDay(_ day: Int, boundary: Instant, in engine: inout Engine) {}
    static func nextWakeup(of engine: Engine) -> Instant? { nil }
    static func fire(due: Instant, at: Instant, upTo: Instant, in engine: inout Engine) {}
    static func decodeEvent(type: String, from decoder: Decoder) throws -> EventKind? { nil }
    static var eventTypes: [String] { [] }
    static func ownsEventType(_ type: String) -> Bool { false }

    /// Its command names and their fields.
    static var commandFields: [String: Set<String>] { Commands.fields }
    /// Parses one of its commands (nil: not one of its names).
    static func parseCommand(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? {
        try Commands.parse(name: name, f)
    }
    /// Whether `action` is one of its commands.
    static func owns(_ action: Action) -> Bool { claim(action) != nil }
    /// Whether `event` is one of its events.
    static func owns(_ event: EventKind) -> Bool { claim(event) != nil }

    /// Runs `action` if it is this subsystem's; false if not.
    static func runIfOwned(_ action: Action, in engine: inout Engine, at: Instant, commandID: String) throws(DomainError) -> Bool {
        guard let own = claim(action) else { return false }
        try run(own, in: &engine, at: at, commandID: commandID)
        return true
    }

    static func applyIfOwned(_ event: EventKind, to engine: inout Engine, at: Instant) -> Bool {
        guard let own = claim(event) else { return false }
        apply(own, to: &engine, at: at)
        return true
    }
}

/// A subsystem whose events are one `SubEvent` enum wrapped in one `EventKind` case.
protocol EventWrappingSubsystem: Subsystem where OwnEvent: SubEvent {
    /// The `EventKind` case that carries its events.
    static func wrap(_ event: OwnEvent) -> EventKind
}

extension EventWrappingSubsystem {
    static var eventTypes: [String] { OwnEvent.allTypes }
    static func ownsEventType(_ type: String) -> Bool { OwnEvent.owns(type) }

    static func decodeEvent(type: String, from decoder: Decoder) throws -> EventKind? {
        guard OwnEvent.owns(type) else { return nil }
        return wrap(try OwnEvent(from: decoder))
    }

    static func applyIfOwned(_ event: EventKind, to engine: inout Engine, at: Instant) -> Bool {
        guard let own = claim(event) else { return false }
        engine.countInLedger(coins: own.coinsDelta, xp: own.xpDelta, at: at)
        apply(own, to: &engine, at: at)
        return true
    }
}

extension Engine {
    /// Every subsystem, in the order the engine lets them act: at a day's close, and when several
    /// have something due at the same instant. Adding a subsystem means adding it here (its
    /// commands, events and hooks are then wired; SubsystemRegistryTests fails if it is missing).
    static let subsystems: [any Subsystem.Type] = [
        TasksSubsystem.self,
        HabitsSubsystem.self,
        ShopSubsystem.self,
        CommitmentsSubsystem.self,
        QuitLogSubsystem.self,
        AppTimeSubsystem.self,
        RemindersSubsystem.self,
        PhonesSubsystem.self,
        CirclesSubsystem.self,
    ]

    /// Each subsystem's next wake-up, in list order.
    func subsystemWakeups() -> [Instant?] { Engine.subsystems.map { $0.nextWakeup(of: self) } }

    /// The earliest instant a subsystem needs the engine to wake up for.
    func nextSubsystemWakeup() -> Instant? { subsystemWakeups().lazy.compactMap { $0 }.min() }

    /// Lets every subsystem with something due at `due` act, in list order. `known` are the
    /// wake-ups computed before (`subsystemWakeups()`); once one subsystem has acted, the later
    /// ones are asked again, since what it did may have changed theirs.
    mutating func fireSubsystems(at: Instant, due: Instant, upTo t: Instant, known: [Instant?]) {
        var acted = false
        for (i, s) in Engine.subsystems.enumerated() {
            let w = acted ? s.nextWakeup(of: self) : known[i]
            guard w == due else { continue }
            s.fire(due: due, at: at, upTo: t, in: &self)
            acted = true
        }
    }

    /// Every subsystem's end-of-day work, before the day's streak is judged.
    mutating func closeDaySubsystems(day: Int, boundary: Instant) {
        for s in Engine.subsystems { s.closeDay(day, boundary: boundary, in: &self) }
    }

    /// Runs a command that belongs to a subsystem; false if none claims it.
    mutating func runSubsystemAction(_ action: Action, at: Instant, commandID: String) throws(DomainError) -> Bool {
        for s in Engine.subsystems where try s.runIfOwned(action, in: &self, at: at, commandID: commandID) { return true }
        return false
    }

    /// Applies an event that belongs to a subsystem; false if none claims it.
    mutating func applySubsystemEvent(_ event: EventKind, at: Instant) -> Bool {
        for s in Engine.subsystems where s.applyIfOwned(event, to: &self, at: at) { return true }
        return false
    }
}

// MARK: - Sub-events

/// An event of one subsystem.
public protocol SubEvent: Codable, Sendable, Equatable {
    /// Stable type name stored in the journal, e.g. "habit.checked".
    var type: String { get }
    /// Coin ledger change (0 if none).
    var coinsDelta: Int { get }
    /// XP change (0 if none).
    var xpDelta: Int { get }
    /// Whether a journal type name belongs to this subsystem.
    static func owns(_ type: String) -> Bool
    /// Every type name this subsystem writes (tests check each has an example that round-trips).
    static var allTypes: [String] { get }
}

extension SubEvent {
    public var coinsDelta: Int { 0 }
    public var xpDelta: Int { 0 }
}

/// Keys shared by all sub-event payloads ("type" plus whatever fields a subsystem uses).
public struct AnyKey: CodingKey, Hashable {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(_ s: String) { stringValue = s }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

/// Decoding helper for sub-events: an error naming the unknown type.
func unknownSubEvent(_ decoder: Decoder, _ type: String) -> DecodingError {
    DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown event type '\(type)'"))
}

extension KeyedDecodingContainer where Key == AnyKey {
    /// The string field `key` of a sub-event payload.
    func string(_ key: String) throws -> String { try decode(String.self, forKey: AnyKey(key)) }
    /// The integer field `key` of a sub-event payload.
    func int(_ key: String) throws -> Int { try decode(Int.self, forKey: AnyKey(key)) }
}
