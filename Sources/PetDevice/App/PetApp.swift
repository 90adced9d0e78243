import FoundationEssentials
import PetCore
import PetStore

/// The reply to a command: what the phone (or scenario) is told once the command is durable.
public struct Reply: Codable, Sendable, Equatable {
    public var ok: Bool
    public var command: String
    public var events: Int
    public var coins: Int
    public var xp: Int
    public var level: Int
    public var reward: Int?
    /// True when this is the repeated reply to a command id seen before.
    public var duplicate: Bool?
}

/// What handling one command did: the reply or the domain's refusal, and every event stored.
public struct Outcome: Sendable {
    /// The reply (also for a repeated id: `duplicate` is then true), or why the command was
    /// refused (it then changed nothing but the time events in `committed`).
    public var result: Result<Reply, DomainError>
    /// Every event this call stored, in order: time events first, then the command's own.
    public var committed: [Event]

    public init(result: Result<Reply, DomainError>, committed: [Event]) {
        self.result = result; self.committed = committed
    }

    public var reply: Reply? { if case .success(let r) = result { r } else { nil } }
    public var refusal: DomainError? { if case .failure(let e) = result { e } else { nil } }

    /// The reply, or the refusal as `AppError.domain`.
    @discardableResult
    public func get() throws(AppError) -> Reply {
        switch result {
        case .success(let r): return r
        case .failure(let e): throw .domain(e)
        }
    }
}

/// Wires the domain engine to the journal: every command and every tick is validated by the core,
/// stored in one transaction, and only then applied to the live state (durable before
/// acknowledged). The UI reads `engine.state`.
public final class PetApp {
    public private(set) var engine: Engine
    public let store: EventStore
    public let zones: ZoneDatabase
    /// A snapshot of the state is saved every this many events, so opening replays only the tail.
    public let snapshotEvery: Int
    private var lastSnapshotSeq: Int64 = 0

    /// Opens (or creates) the journal in `store`. A new journal starts a pet at `now` in
    /// `zone` with the given day-start hour; an existing one is replayed.
    public init(store: EventStore, zones: ZoneDatabase = ZoneDatabase(), now: Instant,
                zone: String = "UTC", dayStartHour: Int = 3, snapshotEvery: Int = 2000) throws(AppError) {
        self.store = store
        self.zones = zones
        self.snapshotEvery = snapshotEvery
        if let resumed = Self.resume(store: store, zones: zones) {
            self.engine = resumed.engine
            // Events since the newest snapshot count from that snapshot, not from this opening:
            // a journal written in many short sessions still gets a snapshot every
            // `snapshotEvery` events (and one at once when the tail already is that long).
            lastSnapshotSeq = resumed.seq
            if Int64(engine.state.eventCount) - lastSnapshotSeq >= Int64(snapshotEvery) { saveSnapshot() }
            return
        }
        let first: [EventRow]
        do { first = try store.events(limit: 1) } catch { throw .store(error) }
        if first.isEmpty {
            let (engine, genesis) = try Self.wrap { () throws(DomainError) in
                try Engine.create(at: now, zoneID: zone, dayStartHour: dayStartHour, zones: zones.lookup)
            }
            let row = try JournalCodec.row(genesis, clock: engine.state.clock)
            do { try store.append(command: nil, events: [row]) } catch { throw .store(error) }
            self.engine = engine
        } else {
            self.engine = try Self.replay(store: store, zones: zones)
            if Int64(engine.state.eventCount) >= Int64(snapshotEvery) { saveSnapshot() }
        }
    }

    /// Events are read from the journal in pages of this many rows while replaying, so opening a
    /// journal of any length holds one page, never the whole history (docs/storage.md).
    public static let replayPage = 512

    /// Calls `body` with every stored event after `seq`, oldest first, reading `replayPage` rows
    /// at a time.
    static func forEachEvent(in store: EventStore, after seq: Int64, decoder: JSONDecoder,
                             _ body: (Event) throws(AppError) -> Void) throws(AppError) {
        var last = seq
        while true {
            let page: [EventRow]
            do { page = try store.events(after: last, limit: replayPage) } catch { throw .store(error) }
            for r in page { try body(try JournalCodec.event(r, decoder: decoder)) }
            guard let end = page.last, page.count == replayPage else { return }
            last = end.seq
        }
    }

    /// The engine of the whole journal, folded page by page from its genesis.
    static func replay(store: EventStore, zones: ZoneDatabase) throws(AppError) -> Engine {
        var engine: Engine?
        try forEachEvent(in: store, after: 0, decoder: JSONDecoder()) { (e: Event) throws(AppError) in
            if engine == nil {
                engine = try wrap { () throws(DomainError) in try Engine(genesis: e, zones: zones.lookup) }
            } else {
                engine!.apply(e)
            }
        }
        guard let engine else { throw .journal(seq: nil, detail: "the journal has no events") }
        return engine
    }

    private static func wrap<T>(_ body: () throws(DomainError) -> T) throws(AppError) -> T {
        do { return try body() } catch { throw .domain(error) }
    }

    public var state: PetState { engine.state }

    /// Stored events after `seq`, oldest first, at most `limit` (the phone link's replay).
    public func events(after seq: Int64, limit: Int) throws(AppError) -> [EventRow] {
        do { return try store.events(after: seq, limit: limit) } catch { throw .store(error) }
    }

    /// Handles a command: settles time up to its instant, validates, stores, applies, replies.
    ///
    /// The outcome says everything that happened: the reply (or the domain's refusal) and every
    /// event this call stored — the time events before the command's instant (days closing,
    /// reminders) are stored even when the command itself is refused, so they are in
    /// `committed` either way. A command id seen before returns its stored reply (marked
    /// `duplicate`) and stores nothing. Throws only when the journal fails (nothing is then
    /// acknowledged) or a stored reply cannot be read back.
    @discardableResult
    public func handle(_ command: Command) throws(AppError) -> Outcome {
        let outcomes = try handleBatch([command])
        guard let only = outcomes.first else { throw .journal(seq: nil, detail: "a command produced no outcome") }
        return only
    }

    /// Handles several commands as one group commit: each is decided in order against the state
    /// the ones before it left (exactly as `handle` one after another would: a refusal changes
    /// nothing and does not stop the others; an id seen before — in the journal or earlier in this
    /// batch — gets its reply marked `duplicate` and stores nothing), then every accepted command
    /// and every event is stored in ONE journal transaction, and only then is the live state
    /// replaced. The outcomes are in the commands' order; nothing may be acknowledged before this
    /// returns. If the journal fails, nothing of the batch is stored or applied and this throws.
    public func handleBatch(_ commands: [Command]) throws(AppError) -> [Outcome] {
        var next = engine
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(commands.count)
        var groups: [(command: CommandRow?, events: [EventRow])] = []
        groups.reserveCapacity(commands.count)
        var decidedHere: [String: Reply] = [:]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for command in commands {
            if let r = decidedHere[command.id] {
                var reply = r
                reply.duplicate = true
                outcomes.append(Outcome(result: .success(reply), committed: []))
                continue
            }
            // Remembered by the state (the latest ids), or only by the journal (older ones).
            var seen = next.isDuplicate(command.id)
            if !seen { seen = try storedCommand(command.id) != nil }
            if seen {
                outcomes.append(Outcome(result: .success(try storedReply(command.id)), committed: []))
                continue
            }
            // An instant outside the valid range (its own time or a field's) is refused before
            // time is moved to it: nothing is stored.
            do { try Engine.checkRange(command) } catch {
                outcomes.append(Outcome(result: .failure(error), committed: []))
                continue
            }
            // Kept only when time moves (holding a copy makes the next mutation copy the whole
            // state: once per command would be quadratic in a batch at one instant).
            let beforeCommand: Engine? = command.at > next.state.now ? next : nil
            let timeEvents = next.advance(to: command.at)
            let decided: [Event]
            do {
                decided = try next.decide(command, rangeChecked: true)   // checked above
            } catch {
                // A refusal keeps only the time events it stored (none: the state as it was).
                if timeEvents.isEmpty { if let b = beforeCommand { next = b } } else { groups.append((nil, try Self.rows(timeEvents, next))) }
                outcomes.append(Outcome(result: .failure(error), committed: timeEvents))
                continue
            }
            next.apply(decided)
            let reward = decided.lazy.compactMap { e -> Int? in
                if case let .taskCompleted(_, _, r) = e.kind { return r.coins }
                return nil
            }.first
            let s = next.state
            let reply = Reply(ok: true, command: command.action.name, events: decided.count, coins: s.coins, xp: s.xp,
                              level: s.level, reward: reward, duplicate: nil)
            let replyText: String
            do { replyText = String(decoding: try encoder.encode(reply), as: UTF8.self) } catch {
                throw .journal(seq: nil, detail: "command \(command.action.name): the reply cannot be encoded")
            }
            let row = CommandRow(id: command.id, at: command.at.seconds, kind: command.action.name, reply: replyText)
            groups.append((row, try Self.rows(timeEvents + decided, next)))
            decidedHere[command.id] = reply
            outcomes.append(Outcome(result: .success(reply), committed: timeEvents + decided))
        }
        if groups.isEmpty {
            engine = next
        } else {
            do { try store.appendBatch(groups) } catch { throw .store(error) }
            engine = next
            if Int64(engine.state.eventCount) - lastSnapshotSeq >= Int64(snapshotEvery) { saveSnapshot() }
        }
        return outcomes
    }

    /// Journal rows for events, with the day as `engine`'s clock reckons it now.
    private static func rows(_ events: [Event], _ engine: Engine) throws(AppError) -> [EventRow] {
        var rows: [EventRow] = []
        rows.reserveCapacity(events.count)
        for e in events { rows.append(try JournalCodec.row(e, clock: engine.state.clock)) }
        return rows
    }

    /// True when a command with this id was stored: among the latest the state remembers, or
    /// older (looked up in the journal's commands table). A journal that cannot be read counts
    /// as seen, so the caller's command goes to `handleBatch`, which reports the failure.
    public func commandSeen(_ id: String) -> Bool {
        if engine.isDuplicate(id) { return true }
        do { return try storedCommand(id) != nil } catch { return true }
    }

    private func storedCommand(_ id: String) throws(AppError) -> CommandRow? {
        do { return try store.command(id: id) } catch { throw .store(error) }
    }

    /// The reply stored for a command id seen before. Its absence or an unreadable reply is an
    /// error (the journal is damaged), never a reason to apply the command again.
    private func storedReply(_ id: String) throws(AppError) -> Reply {
        let stored: CommandRow?
        do { stored = try store.command(id: id) } catch { throw .store(error) }
        guard let stored else {
            throw .journal(seq: nil, detail: "a command seen before has no stored reply (id of \(id.utf8.count) bytes)")
        }
        var reply: Reply
        do { reply = try JSONDecoder().decode(Reply.self, from: Data(stored.reply.utf8)) } catch {
            throw .journal(seq: nil, detail: "the stored reply of a \(stored.kind) command cannot be read")
        }
        reply.duplicate = true
        return reply
    }

    /// Advances the clock to `t`, storing what time produced (closed days, reminders). A long
    /// catch-up is stored in batches of about `catchUpBatch` events, each its own transaction;
    /// `batches` limits how many this call stores (the device loop takes one per wake-up, so the
    /// home screen is drawn at once and the catch-up goes on behind it): `catchingUp` then says
    /// there is more to do. A snapshot is saved only once the catch-up is complete.
    @discardableResult
    public func advance(to t: Instant, batches: Int = .max) throws(AppError) -> [Event] {
        var all: [Event] = []
        var left = batches
        while true {
            var next = engine
            let (events, done) = next.advance(to: t, eventLimit: Self.catchUpBatch)
            if !events.isEmpty { try commit(next, events: events, command: nil, snapshot: false) } else { engine = next }
            all += events
            left -= 1
            if done || left <= 0 { catchingUp = !done; break }
        }
        if !catchingUp, Int64(engine.state.eventCount) - lastSnapshotSeq >= Int64(snapshotEvery) { saveSnapshot() }
        return all
    }

    /// True while a catch-up stopped by `advance(to:batches:)` has more to store.
    public private(set) var catchingUp = false

    /// A long catch-up (the device was off for days or years) is stored in transactions of about
    /// this many events, so memory stays bounded and every batch is durable on its own.
    public static let catchUpBatch = 2_000

    private func commit(_ next: Engine, events: [Event], command: CommandRow?, snapshot: Bool = true) throws(AppError) {
        var rows: [EventRow] = []
        rows.reserveCapacity(events.count)
        for e in events { rows.append(try JournalCodec.row(e, clock: next.state.clock)) }
        do { try store.append(command: command, events: rows) } catch { throw .store(error) }
        engine = next
        if snapshot, Int64(engine.state.eventCount) - lastSnapshotSeq >= Int64(snapshotEvery) { saveSnapshot() }
    }

    // MARK: - Factory reset (docs/export.md)

    /// Erases every event, command, snapshot and setting from the journal (securely: the freed
    /// pages are zeroed and the WAL truncated) and starts a new pet at `now`. The device keeps
    /// only its time zone (a clock setting, not owner data). Pairings and keys live in the
    /// journal too, so they go with it. Call only after the on-device confirmation (A+C held 3 s).
    /// Returns the events stored (the new pet's genesis).
    @discardableResult
    public func wipe(now: Instant) throws(AppError) -> [Event] {
        let zone = engine.state.zoneID
        do { try store.wipe() } catch { throw .store(error) }
        let (fresh, genesis) = try Self.wrap { () throws(DomainError) in
            try Engine.create(at: now, zoneID: zone, zones: zones.lookup)
        }
        let row = try JournalCodec.row(genesis, clock: fresh.state.clock)
        do { try store.append(command: nil, events: [row]) } catch { throw .store(error) }
        engine = fresh
        lastSnapshotSeq = 0
        return [genesis]
    }

    // MARK: - Snapshots (a cache: the journal stays the truth)

    /// The snapshot encoding's version (`PetState.snapshotFormat`, bumped there): older snapshots
    /// are ignored and the journal is replayed in full.
    public static let snapshotFormat = PetState.snapshotFormat

    /// Saves the current state as a snapshot at the journal's last event. Failures are ignored:
    /// a snapshot is only a speed-up.
    public func saveSnapshot() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let body = try? encoder.encode(engine.state) else { return }
        let seq = Int64(engine.state.eventCount)
        if (try? store.saveSnapshot(seq: seq, format: Self.snapshotFormat, body: Array(body))) != nil {
            lastSnapshotSeq = seq
        }
    }

    /// The engine from the latest usable snapshot plus the events after it, or nil (replay all).
    static func resume(store: EventStore, zones: ZoneDatabase) -> (engine: Engine, seq: Int64)? {
        guard let (seq, body) = try? store.latestSnapshot(format: snapshotFormat) else { return nil }
        let decoder = JSONDecoder()
        if let key = DayClock.zoneLookupKey { decoder.userInfo[key] = zones.lookup }
        guard let state = try? decoder.decode(PetState.self, from: Data(body)),
              Int64(state.eventCount) == seq else { return nil }
        var engine = Engine(snapshot: state, zones: zones.lookup)
        do {
            try forEachEvent(in: store, after: seq, decoder: decoder) { (e: Event) throws(AppError) in engine.apply(e) }
        } catch { return nil }
        return (engine, seq)
    }
}
