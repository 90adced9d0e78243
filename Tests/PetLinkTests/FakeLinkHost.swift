import PetCore
import PetDevice
import PetStore

/// A `LinkHost` without a loop, a screen or a transport: a journal in memory, a clock the test
/// sets, and a record of what the service asked for, in order.
final class FakeLinkHost: LinkHost {
    enum Request: Equatable {
        /// `commit` was called: the effects it was handed (applied first), then the command ids.
        case commit(after: [LinkEffect], ids: [String])
        case setClock(ms: Int64)
    }

    let app: PetApp
    var nowMs: Int64
    var wakeups = 0
    var settable = true
    /// The next `setWallClock` fails with this (the system refusing, e.g. no CAP_SYS_TIME).
    var clockRefusal: HardwareError?
    /// Every `commit` fails as a broken journal does (nothing stored).
    var journalBroken = false
    private(set) var requests: [Request] = []
    /// Bytes each client has unread in the (pretend) transport.
    var queued: [Int: Int] = [:]
    /// Exports started (`startExport` calls) so far.
    private(set) var exportsBuilt = 0
    /// The exports started, in order (their `rowsRead` counts the journal work done).
    private(set) var producers: [Export.Producer] = []

    init(start: Instant = Instant(1_772_434_800)) throws {
        app = try PetApp(store: try EventStore.inMemory(), now: start, zone: "UTC")
        nowMs = start.seconds * 1000
    }

    var now: Instant { Instant(floorDiv(nowMs, 1000)) }
    var state: PetState { app.state }
    var clockIsSettable: Bool { settable }

    func storedEvents(after seq: Int64, limit: Int) throws(AppError) -> [EventRow] { try app.events(after: seq, limit: limit) }
    func startExport() -> Export.Producer {
        exportsBuilt += 1
        let p = Export.Producer(app, now: now)
        producers.append(p)
        return p
    }
    func queuedBytes(client: Int) -> Int { queued[client] ?? 0 }

    func setWallClock(ms: Int64) throws(HardwareError) {
        if let clockRefusal { throw clockRefusal }
        guard settable else { throw HardwareError(device: "fake clock", operation: "set the time", reason: "not settable") }
        requests.append(.setClock(ms: ms))
        nowMs = ms
    }

    func commit(_ commands: [Command], after effects: [LinkEffect]) throws(AppError) -> [Outcome] {
        requests.append(.commit(after: effects, ids: commands.map(\.id)))
        if journalBroken { throw .journal(seq: nil, detail: "the fake journal is broken") }
        return try app.handleBatch(commands)
    }
}
