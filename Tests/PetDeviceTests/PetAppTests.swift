import Foundation
import XCTest
import PetCore
import PetStore
import PetUI
@testable import PetDevice

/// The app wiring: durable before acknowledged, replay on reopen, refusals change nothing.
final class PetAppTests: XCTestCase {
    let t0 = Instant(1_772_434_800) // Mon 2026-03-02 07:00 UTC = 08:00 Berlin

    func tempDB() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("deskpet-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir.appendingPathComponent("pet.db").path
    }

    func command(_ app: PetApp, _ id: String, _ name: String, _ fields: [String: String], at: Instant) throws -> Command {
        try CommandParser.parse(name: name, fields: fields, id: id, at: at, clock: app.state.clock)
    }

    func testAcknowledgedCommandIsInTheDatabaseAndSurvivesReopen() throws {
        let path = try tempDB()
        var app: PetApp? = try PetApp(store: try EventStore(path: path), now: t0, zone: "Europe/Berlin")
        let reply = try app!.handle(try command(app!, "c1", "task.create",
                                                ["task": "t1", "title": "Read", "priority": "high", "due": "today 17:00"], at: t0)).get()
        XCTAssertTrue(reply.ok)
        // A second connection sees the command as soon as handle returned (durable before ack).
        let other = try EventStore(path: path)
        XCTAssertNotNil(try other.command(id: "c1"))
        XCTAssertEqual(try other.events().map(\.type), ["device.created", "task.created"])
        other.close()

        let done = try app!.handle(try command(app!, "c2", "task.complete", ["task": "t1"], at: t0 + 3600)).get()
        XCTAssertEqual(done.reward, 20)
        let live = app!.state
        app!.store.close()
        app = nil
        let reopened = try PetApp(store: try EventStore(path: path), now: t0 + 3600)
        try reopened.advance(to: t0 + 3600)
        XCTAssertEqual(reopened.state, live)
        XCTAssertEqual(reopened.state.coins, 20)
    }

    func testReopenFromASnapshotEqualsAFullReplay() throws {
        let path = try tempDB()
        var app: PetApp? = try PetApp(store: try EventStore(path: path), now: t0, zone: "Europe/Berlin", snapshotEvery: 40)
        var t = t0
        for day in 0..<20 {
            for k in 0..<3 {
                let id = "d\(day)k\(k)"
                try app!.handle(try command(app!, "c-\(id)", "task.create", ["task": id, "title": "T", "due": "today 18:00"], at: t))
                if k < 2 { try app!.handle(try command(app!, "x-\(id)", "task.complete", ["task": id], at: t + 60)) }
            }
            t = t + 86_400
            try app!.advance(to: t)
        }
        let store = app!.store
        let snapshot = try XCTUnwrap(try store.latestSnapshot(format: PetApp.snapshotFormat))
        XCTAssertGreaterThan(snapshot.seq, 40)
        XCTAssertLessThan(snapshot.seq, try store.lastSeq(), "there is a tail after the snapshot")
        let live = app!.state
        store.close()
        app = nil

        let reopened = try PetApp(store: try EventStore(path: path), now: t)
        try reopened.advance(to: t)
        XCTAssertEqual(reopened.state, live)
        // The same state as folding the whole journal from the first event.
        let events = try reopened.store.events().map { try JournalCodec.event($0) }
        var full = try Engine(journal: events, zones: ZoneDatabase().lookup)
        _ = full.advance(to: t)
        XCTAssertEqual(full.state, live)
    }

    func testAnUnreadableSnapshotIsIgnored() throws {
        let store = try EventStore.inMemory()
        let app = try PetApp(store: store, now: t0, zone: "UTC")
        try app.handle(Command(id: "c1", at: t0, action: .createTask(TaskDraft(id: "t1", title: "Tea"))))
        try store.saveSnapshot(seq: try store.lastSeq(), format: PetApp.snapshotFormat, body: Array("{not json".utf8))
        let reopened = try PetApp(store: store, now: t0)
        XCTAssertEqual(reopened.state, app.state)
    }

    func testDuplicateCommandRepeatsTheReplyAndStoresNothing() throws {
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        let create = try command(app, "c1", "task.create", ["task": "t1", "title": "Stretch"], at: t0)
        try app.handle(create)
        let complete = try command(app, "c2", "task.complete", ["task": "t1"], at: t0 + 60)
        let first = try app.handle(complete).get()
        let count = try app.store.eventCount()
        let repeated = try app.handle(complete)
        XCTAssertEqual(repeated.committed, [], "a repeated id stores nothing")
        let second = try repeated.get()
        XCTAssertEqual(second.duplicate, true)
        XCTAssertEqual(second.coins, first.coins)
        XCTAssertEqual(second.reward, first.reward)
        XCTAssertEqual(try app.store.eventCount(), count)
    }

    func testRefusedCommandChangesNeitherStateNorJournal() throws {
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        let before = app.state
        let count = try app.store.eventCount()
        let bad = Command(id: "c1", at: t0, action: .createTask(TaskDraft(title: "")))
        let outcome = try app.handle(bad)
        XCTAssertEqual(outcome.refusal, .invalidField(field: "title", reason: "must be 1–100 characters (got 0)"))
        XCTAssertNil(outcome.reply)
        XCTAssertEqual(outcome.committed, [])
        XCTAssertThrowsError(try outcome.get()) { error in
            XCTAssertEqual(error as? AppError, .domain(.invalidField(field: "title", reason: "must be 1–100 characters (got 0)")))
        }
        XCTAssertEqual(app.state, before)
        XCTAssertEqual(try app.store.eventCount(), count)
        XCTAssertNil(try app.store.command(id: "c1"), "a refused id is not remembered, so it can be retried")
    }

    func testTimeEventsAreStoredWithoutACommand() throws {
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        try app.handle(Command(id: "c1", at: t0, action: .createTask({
            var d = TaskDraft(id: "t1", title: "Due today"); d.due = t0 + 3600; return d
        }())))
        try app.advance(to: t0 + 2 * 86_400)
        let rows = try app.store.events()
        let missed = rows.filter { $0.type == "task.missed" }
        XCTAssertEqual(missed.count, 1)
        XCTAssertNil(missed[0].commandID)
        XCTAssertEqual(rows.filter { $0.type == "day.closed" }.count, 2)
    }

    func testLedgerViewMatchesTheBalance() throws {
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        for i in 0..<5 {
            try app.handle(Command(id: "c\(i)", at: t0 + Int64(i), action: .createTask(TaskDraft(id: "t\(i)", title: "T\(i)"))))
            try app.handle(Command(id: "d\(i)", at: t0 + Int64(i), action: .completeTask(id: "t\(i)")))
        }
        try app.handle(Command(id: "u", at: t0 + 10, action: .uncompleteTask(id: "t0")))
        let rows = try app.store.events().filter { $0.coinsDelta != 0 }
        XCTAssertEqual(rows.map(\.coinsDelta).reduce(0, +), app.state.coins)
        XCTAssertEqual(app.state.coins, 40)
    }

    func testCorruptDatabaseGivesAClearErrorAndIsNotTouched() throws {
        let path = try tempDB()
        let garbage = Data("this is not a database, it is a shopping list".utf8)
        try garbage.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try EventStore(path: path)) { error in
            XCTAssertTrue("\(error)".contains(path), "the error names the file: \(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), garbage)
    }

    func testUnreadableJournalEventNamesItsSequenceNumber() throws {
        let store = try EventStore.inMemory()
        try store.append(command: nil, events: [
            EventRow(at: t0.seconds, day: 0, type: "device.created", payload: #"{"type":"device.created","name":"UTC","hour":3}"#),
            EventRow(at: t0.seconds, day: 0, type: "from.the.future", payload: #"{"type":"from.the.future"}"#),
        ])
        XCTAssertThrowsError(try PetApp(store: store, now: t0)) { error in
            guard case let .journal(seq, _)? = error as? AppError else { return XCTFail("\(error)") }
            XCTAssertEqual(seq, 2)
        }
    }
}

final class ZoneDatabaseTests: XCTestCase {
    func testReadsSystemZonesAndRejectsPaths() {
        let db = ZoneDatabase()
        XCTAssertEqual(db.rules(for: "Europe/Berlin")?.offset(at: 1_772_434_800), 3600)
        XCTAssertNotNil(db.rules(for: "UTC"))
        XCTAssertNil(db.rules(for: "../../etc/passwd"))
        XCTAssertNil(db.rules(for: "/etc/localtime"))
        XCTAssertNil(db.rules(for: "Mars/Olympus_Mons"))
        XCTAssertNil(db.rules(for: "zone.tab"), "a file that is not TZif is not a zone")
    }
}

final class GestureTests: XCTestCase {
    let ms: UInt64 = 1_000_000

    func testTapIsReportedOnThePressEdge() {
        var g = GestureRecognizer()
        XCTAssertEqual(g.edge(.a, pressed: true, ns: 1000 * ms), [.tap(.a)])
        XCTAssertEqual(g.edge(.a, pressed: false, ns: 1080 * ms), [])
    }

    func testBouncesWithin30msAreIgnored() {
        var g = GestureRecognizer()
        XCTAssertEqual(g.edge(.b, pressed: true, ns: 1000 * ms), [.tap(.b)])
        XCTAssertEqual(g.edge(.b, pressed: false, ns: 1005 * ms), [])
        XCTAssertEqual(g.edge(.b, pressed: true, ns: 1010 * ms), [])
        XCTAssertEqual(g.edge(.b, pressed: false, ns: 1100 * ms), [])
        XCTAssertEqual(g.edge(.b, pressed: true, ns: 2000 * ms), [.tap(.b)])
    }

    /// A release stamped within the window of its press (a kernel's debounce stamps edges when its
    /// timer runs, late on a busy machine) is held back, not lost: the key is up once the window has
    /// passed, so no long press comes and the next press is a press.
    func testAReleaseInsideTheWindowStillReleasesTheKey() {
        var g = GestureRecognizer()
        XCTAssertEqual(g.edge(.c, pressed: true, ns: 1000 * ms), [.tap(.c)])
        XCTAssertEqual(g.edge(.c, pressed: false, ns: 1020 * ms), [])
        XCTAssertNil(g.tapSettles(.c), "unsettled while the release waits out the window")
        XCTAssertEqual(g.nextDeadline(), 1030 * ms, "woken when the window ends")
        XCTAssertEqual(g.poll(ns: 1030 * ms), [])
        XCTAssertEqual(g.tapSettles(.c), (1020 + 300) * ms + 1, "released at the bounce's own time")
        XCTAssertNil(g.nextDeadline(), "no long press to wait for")
        XCTAssertEqual(g.poll(ns: 1800 * ms), [], "no long press: the key is up")
        XCTAssertEqual(g.edge(.c, pressed: true, ns: 2000 * ms), [.tap(.c)])
    }

    /// Judged as of a moment before the press's own stamp (the loop read the clock, then the kernel
    /// stamped the press, then the loop read it): the key is not held yet, no long press; a real hold
    /// is still one. Its control: the same poll 700 ms after the stamp reports the long press.
    func testAPollEarlierThanThePressStampIsNoLongPress() {
        var g = GestureRecognizer()
        XCTAssertEqual(g.edge(.c, pressed: true, ns: 1000 * ms), [.tap(.c)])
        XCTAssertEqual(g.poll(ns: 990 * ms), [], "10 ms before the press: held for no time")
        XCTAssertEqual(g.poll(ns: 1699 * ms), [])
        XCTAssertEqual(g.poll(ns: 1700 * ms), [.longPress(.c)])
        var h = GestureRecognizer()
        _ = h.edge(.c, pressed: true, ns: 1000 * ms)
        XCTAssertEqual(h.edge(.c, pressed: false, ns: 1120 * ms), [])
        XCTAssertEqual(h.poll(ns: 2000 * ms), [], "a tap")
    }

    /// The same for the chord and a held-back bounce: a poll before the later stamp changes nothing.
    func testAPollEarlierThanTheStampsChangesNothing() {
        var g = GestureRecognizer()
        _ = g.edge(.a, pressed: true, ns: 1000 * ms)
        XCTAssertEqual(g.edge(.c, pressed: true, ns: 1100 * ms), [.chordAC])
        XCTAssertEqual(g.poll(ns: 1050 * ms), [], "no 3-second chord before the chord began")
        XCTAssertEqual(g.poll(ns: 4100 * ms), [.chordHeld])
        var h = GestureRecognizer()
        _ = h.edge(.b, pressed: true, ns: 1000 * ms)
        _ = h.edge(.b, pressed: false, ns: 1020 * ms)
        XCTAssertEqual(h.poll(ns: 990 * ms), [])
        XCTAssertNil(h.tapSettles(.b), "the bounce's level is still held back")
    }

    /// The same when the loop wakes late: a long press's deadline passed and the release is still
    /// held back: it is applied first.
    func testAHeldBackReleaseIsAppliedBeforeTheLongPressDeadline() {
        var g = GestureRecognizer()
        _ = g.edge(.b, pressed: true, ns: 0)
        XCTAssertEqual(g.edge(.b, pressed: false, ns: 25 * ms), [])
        XCTAssertEqual(g.poll(ns: 900 * ms), [])
        XCTAssertEqual(g.edge(.b, pressed: true, ns: 1000 * ms), [.tap(.b)])
    }

    /// An edge that comes after the window applies the held-back level first, at its own time: a
    /// second press within 300 ms of that release is a double tap.
    func testTheNextEdgeAppliesAHeldBackLevelFirst() {
        var g = GestureRecognizer()
        _ = g.edge(.a, pressed: true, ns: 1000 * ms)
        _ = g.edge(.a, pressed: false, ns: 1010 * ms)
        XCTAssertEqual(g.edge(.a, pressed: true, ns: 1200 * ms), [.doubleTap(.a)])
        XCTAssertEqual(g.edge(.a, pressed: false, ns: 1300 * ms), [])
        XCTAssertEqual(g.poll(ns: 3000 * ms), [])
    }

    func testDebounceIsBoardSettable() {
        var g = GestureRecognizer(debounceMs: 5)
        _ = g.edge(.b, pressed: true, ns: 1000 * ms)
        XCTAssertEqual(g.edge(.b, pressed: false, ns: 1010 * ms), [])
        XCTAssertEqual(g.edge(.b, pressed: true, ns: 1500 * ms), [.tap(.b)])
    }

    func testLongPressAfter700ms() {
        var g = GestureRecognizer()
        _ = g.edge(.b, pressed: true, ns: 0)
        XCTAssertEqual(g.nextDeadline(), 700 * ms)
        XCTAssertEqual(g.poll(ns: 699 * ms), [])
        XCTAssertEqual(g.poll(ns: 700 * ms), [.longPress(.b)])
        XCTAssertEqual(g.poll(ns: 900 * ms), [], "reported once")
        XCTAssertEqual(g.edge(.b, pressed: false, ns: 950 * ms), [])
        XCTAssertEqual(g.edge(.b, pressed: true, ns: 1100 * ms), [.tap(.b)], "a release after a long press starts no double tap")
    }

    func testDoubleTapWithin300ms() {
        var g = GestureRecognizer()
        _ = g.edge(.c, pressed: true, ns: 0)
        _ = g.edge(.c, pressed: false, ns: 80 * ms)
        XCTAssertEqual(g.edge(.c, pressed: true, ns: 300 * ms), [.doubleTap(.c)])
        _ = g.edge(.c, pressed: false, ns: 380 * ms)
        XCTAssertEqual(g.edge(.c, pressed: true, ns: 1000 * ms), [.tap(.c)])
    }

    func testChordAC() {
        var g = GestureRecognizer()
        XCTAssertEqual(g.edge(.a, pressed: true, ns: 0), [.tap(.a)])
        XCTAssertEqual(g.edge(.c, pressed: true, ns: 40 * ms), [.chordAC])
        XCTAssertEqual(g.poll(ns: 2000 * ms), [], "no long press during a chord")
        _ = g.edge(.a, pressed: false, ns: 2100 * ms)
        _ = g.edge(.c, pressed: false, ns: 2100 * ms)
        XCTAssertEqual(g.edge(.c, pressed: true, ns: 2200 * ms), [.tap(.c)])
    }
}

/// The home screen's buttons (three buttons), through the board's layout and the navigator.
final class HomeUITests: XCTestCase {
    func testCompletingTheNextTaskTakesOneLongPress() throws {
        let t0 = Instant(1_772_434_800)
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        try app.handle(Command(id: "c1", at: t0, action: .createTask(TaskDraft(id: "t1", title: "Tea"))))
        try app.handle(Command(id: "c2", at: t0, action: .createTask(TaskDraft(id: "t2", title: "Cake"))))
        var nav = Navigator(state: app.state, now: t0, boot: false)
        let layout = InputLayout.threeButtons
        func handle(_ g: Gesture) -> [NavEffect] {
            guard let p = layout.input(for: g) else { return [] }
            return nav.handle(p, state: app.state, now: t0)
        }
        func shown() -> String? {
            let open = app.state.openTasks()
            return open.indices.contains(nav.ui.cursor) ? open[nav.ui.cursor].title : nil
        }
        XCTAssertEqual(shown(), "Tea")
        // Down (double A: its tap moved up, to today's last unchecked habit; undone) shows Cake.
        XCTAssertEqual(handle(.tap(.a)), [])
        XCTAssertEqual(handle(.doubleTap(.a)), [])
        XCTAssertEqual(shown(), "Cake")
        XCTAssertEqual(handle(.tap(.b)), [], "taps never store anything")
        // The first completion by hold also stores that the first-run tip is learned.
        XCTAssertEqual(handle(.longPress(.b)).last, .send(.completeTask(id: "t2")))
        XCTAssertEqual(handle(.tap(.b)), [])
        XCTAssertEqual(handle(.doubleTap(.b)), [.send(.petThePet)])
        // hold A begins with a tap A (another task), which the long press undoes before starting.
        XCTAssertEqual(handle(.tap(.a)), [])
        XCTAssertEqual(shown(), "Tea")
        XCTAssertEqual(handle(.longPress(.a)), [.send(.startTask(id: "t2"))])
        XCTAssertEqual(shown(), "Cake")
        // C: back to the next task (and away with the first-run tip, stored with the settings).
        XCTAssertEqual(handle(.tap(.c)).count, 1)
        XCTAssertEqual(shown(), "Tea")
    }
}

final class ExportAndWipeTests: XCTestCase {
    func testExportIsOneJSONDocumentWithEverything() throws {
        let t0 = Instant(1_772_434_800)
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "Europe/Berlin")
        try app.handle(Command(id: "c1", at: t0, action: .createTask(TaskDraft(id: "t1", title: "Quote \" and \\ and é"))))
        try app.handle(Command(id: "c2", at: t0 + 60, action: .completeTask(id: "t1")))
        let bytes = try Export.document(app, now: t0 + 120)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        XCTAssertEqual(json["format"] as? String, "deskpet-export")
        XCTAssertEqual(json["version"] as? Int, 1)
        XCTAssertEqual(json["zone"] as? String, "Europe/Berlin")
        let summary = try XCTUnwrap(json["summary"] as? [String: Any])
        XCTAssertEqual(summary["coins"] as? Int, app.state.coins)
        let journal = try XCTUnwrap(json["journal"] as? [[String: Any]])
        XCTAssertEqual(journal.count, try app.store.eventCount())
        let created = try XCTUnwrap(journal.first { $0["type"] as? String == "task.created" })
        let task = try XCTUnwrap((created["event"] as? [String: Any])?["task"] as? [String: Any])
        XCTAssertEqual(task["title"] as? String, "Quote \" and \\ and é")
        XCTAssertNotNil(json["state"] as? [String: Any])
    }

    func testPrivateAppsNeverLeaveTheDevice() throws {
        let t0 = Instant(1_772_434_800)
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        func send(_ id: String, _ name: String, _ fields: [String: String], at: Instant) throws {
            try app.handle(try CommandParser.parse(name: name, fields: fields, id: id, at: at, clock: app.state.clock))
        }
        try send("c1", "screen.session", ["app": "secret.diary", "start": "@\(t0.seconds - 3600)", "end": "@\(t0.seconds - 600)"], at: t0)
        try send("c2", "screen.session", ["app": "youtube", "start": "@\(t0.seconds - 600)", "end": "@\(t0.seconds - 60)"], at: t0)
        try send("c3", "screen.private", ["app": "secret.diary", "on": "yes"], at: t0)
        XCTAssertEqual(app.state.privateApps, ["secret.diary"])
        let text = String(decoding: try Export.document(app, now: t0 + 60), as: UTF8.self)
        XCTAssertFalse(text.contains("secret.diary"), "a private app is excluded from the export")
        XCTAssertTrue(text.contains("youtube"))
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(text.utf8)))
        // …but still counted on the device.
        let today = app.state.openDay
        XCTAssertEqual(app.state.stats[today].appMinutes["secret.diary"], 50)
    }

    func testFactoryResetNeedsAAndCHeldThreeSeconds() throws {
        var g = GestureRecognizer()
        let ms: UInt64 = 1_000_000
        _ = g.edge(.a, pressed: true, ns: 0)
        XCTAssertEqual(g.edge(.c, pressed: true, ns: 50 * ms), [.chordAC])
        XCTAssertEqual(g.nextDeadline(), 3050 * ms)
        XCTAssertEqual(g.poll(ns: 3049 * ms), [])
        XCTAssertEqual(g.poll(ns: 3050 * ms), [.chordHeld])
        XCTAssertEqual(g.poll(ns: 5000 * ms), [], "once per hold")
        let t0 = Instant(1_772_434_800)
        let state = PetState(createdAt: t0, zoneID: "UTC", zone: .utc)
        var nav = Navigator(state: state, now: t0, boot: false)
        let layout = InputLayout.threeButtons
        XCTAssertEqual(nav.handle(try XCTUnwrap(layout.input(for: .tap(.a))), state: state, now: t0), [])
        XCTAssertEqual(nav.handle(try XCTUnwrap(layout.input(for: .chordAC)), state: state, now: t0), [],
                       "a short chord erases nothing")
        XCTAssertEqual(nav.handle(try XCTUnwrap(layout.input(for: .chordHeld)), state: state, now: t0), [.factoryReset])
    }

    func testWipeStartsANewPetAndKeepsTheZone() throws {
        let t0 = Instant(1_772_434_800)
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "Asia/Tokyo")
        try app.handle(Command(id: "c1", at: t0, action: .createTask(TaskDraft(id: "t1", title: "Tea"))))
        try app.handle(Command(id: "c2", at: t0, action: .completeTask(id: "t1")))
        try app.wipe(now: t0 + 10)
        XCTAssertEqual(app.state.coins, 0)
        XCTAssertEqual(app.state.tasks.count, 0)
        XCTAssertEqual(app.state.zoneID, "Asia/Tokyo")
        XCTAssertEqual(try app.store.eventCount(), 1)
        XCTAssertFalse(app.engine.isDuplicate("c1"), "command ids are forgotten too")
    }
}
