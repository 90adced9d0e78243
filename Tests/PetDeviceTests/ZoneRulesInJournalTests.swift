import Foundation
import XCTest
import PetCore
import PetStore
@testable import PetDevice

/// Replay never reads zone files: the journal's zone events and the snapshots carry the rules
/// (docs/storage.md, "Zone rules in the journal"). Older journals still replay with the lookup.
final class ZoneRulesInJournalTests: XCTestCase {
    /// Fri 2026-03-27 08:00 Berlin (CET): two days before the spring-forward.
    let t0 = Instant(1_774_594_800)
    let nowhere = ZoneDatabase(root: "/nonexistent/zoneinfo")
    let knowsNothing: ZoneLookup = { _ in nil }

    func tempDB() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("deskpet-zone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir.appendingPathComponent("pet.db").path
    }

    func send(_ app: PetApp, _ id: String, _ name: String, _ fields: [String: String], at: Instant) throws {
        try app.handle(try CommandParser.parse(name: name, fields: fields, id: id, at: at, clock: app.state.clock))
    }

    /// A Berlin pet living through both 2026 DST changes (day start 2, inside the spring gap), a
    /// trip to New York and back, a daily task with a reminder. Returns the app (still open).
    func livedInBerlin(path: String, snapshotEvery: Int = 2000) throws -> PetApp {
        let app = try PetApp(store: try EventStore(path: path), now: t0, zone: "Europe/Berlin", dayStartHour: 2,
                             snapshotEvery: snapshotEvery)
        try send(app, "c1", "task.create", ["task": "plants", "title": "Water", "due": "today 18:00", "repeat": "daily",
                                            "reminders": "today 17:50"], at: t0)
        try app.advance(to: t0 + 6 * 86_400)                       // through Sun 2026-03-29 (23-hour day)
        try send(app, "c2", "settings.zone", ["zone": "America/New_York"], at: t0 + 6 * 86_400 + 60)
        try app.advance(to: t0 + 8 * 86_400)
        try send(app, "c3", "settings.zone", ["zone": "Europe/Berlin"], at: t0 + 8 * 86_400 + 60)
        try app.advance(to: t0 + 215 * 86_400)                     // through Sun 2026-10-25 (25-hour day)
        return app
    }

    func testABerlinJournalReplaysWithAZoneLookupThatKnowsNothing() throws {
        let path = try tempDB()
        let app = try livedInBerlin(path: path)
        let live = app.state
        XCTAssertEqual(live.zoneID, "Europe/Berlin")
        XCTAssertEqual(live.clock.zone, ZoneDatabase().rules(for: "Europe/Berlin"))
        let rows = try app.store.events()
        XCTAssertEqual(rows.filter { $0.type == "settings.zone" }.count, 2)
        for r in rows where r.type == "device.created" || r.type == "settings.zone" {
            XCTAssertTrue(r.payload.contains(#""rules":{"#), "seq \(r.seq) carries its zone rules")
        }

        // The engine alone, from the decoded rows, with a lookup that returns nil for every zone.
        let decoder = JSONDecoder()
        var replay = try Engine(journal: rows.map { r throws(AppError) in try JournalCodec.event(r, decoder: decoder) },
                                zones: knowsNothing)
        XCTAssertEqual(replay.advance(to: live.now), [])
        XCTAssertEqual(replay.state, live)

        // The app reopened on a machine without zone files (full replay: no snapshot yet).
        app.store.close()
        let reopened = try PetApp(store: try EventStore(path: path), zones: nowhere, now: live.now)
        try reopened.advance(to: live.now)
        XCTAssertEqual(reopened.state, live)
    }

    func testASnapshotResumesWithoutZoneFiles() throws {
        let path = try tempDB()
        let app = try livedInBerlin(path: path, snapshotEvery: 50)
        let live = app.state
        let store = app.store
        XCTAssertNotNil(try store.latestSnapshot(format: PetApp.snapshotFormat))
        let resumed = try XCTUnwrap(PetApp.resume(store: store, zones: nowhere), "the snapshot needs no zone file")
        XCTAssertEqual(resumed.engine.state, live)
        store.close()
        let reopened = try PetApp(store: try EventStore(path: path), zones: nowhere, now: live.now)
        XCTAssertEqual(reopened.state, live)
    }

    func testAnOldJournalWithoutZoneRulesReplaysWithTheLookup() throws {
        let path = try tempDB()
        let app = try livedInBerlin(path: path)
        let live = app.state
        // The same journal as written before zone events carried their rules.
        let old = try app.store.events().map { r throws(AppError) -> EventRow in
            var e = try JournalCodec.event(r)
            switch e.kind {
            case let .genesis(zone, hour, _): e.kind = .genesis(zone: zone, dayStartHour: hour)
            case let .zoneChanged(id, _): e.kind = .zoneChanged(id: id)
            default: return r
            }
            let row = try JournalCodec.row(e, clock: live.clock)
            XCTAssertFalse(row.payload.contains("rules"), row.payload)
            return row
        }
        let events = try old.map { r throws(AppError) in try JournalCodec.event(r) }
        var replay = try Engine(journal: events, zones: ZoneDatabase().lookup)
        _ = replay.advance(to: live.now)
        XCTAssertEqual(replay.state, live, "the system zone database gives the same rules")
        XCTAssertThrowsError(try Engine(journal: events, zones: knowsNothing)) { error in
            XCTAssertEqual(error as? DomainError, .unknownTimeZone(id: "Europe/Berlin"))
        }
    }

    func testAnOldSnapshotClockIsReadWithTheLookup() throws {
        let old = Data(#"{"zone":"Europe/Berlin","dayStartHour":2}"#.utf8)
        let decoder = JSONDecoder()
        XCTAssertThrowsError(try decoder.decode(DayClock.self, from: old), "no lookup, no rules")
        decoder.userInfo[try XCTUnwrap(DayClock.zoneLookupKey)] = ZoneDatabase().lookup
        let clock = try decoder.decode(DayClock.self, from: old)
        XCTAssertEqual(clock.zone, ZoneDatabase().rules(for: "Europe/Berlin"))
        // A clock written now carries its rules and needs no lookup.
        let fresh = try JSONDecoder().decode(DayClock.self, from: try JSONEncoder().encode(clock))
        XCTAssertEqual(fresh, clock)
    }
}
