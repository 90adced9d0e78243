import Foundation
import XCTest
import TestSupport
@testable import PetCore

/// The one valid range of instants and durations (docs/reliability.md): enforced where input enters, and
/// arithmetic that cannot trap even outside it.
final class TimeRangeTests: XCTestCase {
    let edges: [Int64] = [.min, .min + 1, -1 << 62, TimeRange.earliest.seconds - 1, TimeRange.earliest.seconds,
                          -1, 0, 1, TimeRange.latest.seconds, TimeRange.latest.seconds + 1, 1 << 62, .max - 1, .max]

    func testTheRangeIsTheDocumentedOne() {
        XCTAssertEqual(CivilDate(dayNumber: Int(TimeRange.earliest.seconds / 86_400)).description, "1900-01-01")
        XCTAssertEqual(ZoneRules.utc.localDateTime(at: TimeRange.latest.seconds).descriptionWithSeconds, "9999-12-31 23:59:59")
        XCTAssertEqual(TimeRange.longestDuration, TimeRange.latest.seconds - TimeRange.earliest.seconds)
        XCTAssertTrue(TimeRange.days.contains(DayClock(zone: .utc).day(of: TimeRange.earliest)))
        XCTAssertTrue(TimeRange.days.contains(DayClock(zone: .utc).day(of: TimeRange.latest)))
    }

    func testCheckAcceptsTheEdgesAndRefusesOneBeyondNamingTheField() throws {
        XCTAssertNoThrow(try TimeRange.check(TimeRange.earliest, field: "due"))
        XCTAssertNoThrow(try TimeRange.check(TimeRange.latest, field: "due"))
        for s in [TimeRange.earliest.seconds - 1, TimeRange.latest.seconds + 1, .min, .max] {
            XCTAssertThrowsError(try TimeRange.check(Instant(s), field: "due")) { e in
                guard case let .invalidField(field, reason)? = e as? DomainError else { return XCTFail("\(e)") }
                XCTAssertEqual(field, "due")
                XCTAssertTrue(reason.contains("outside the valid range"), reason)
            }
        }
        XCTAssertNoThrow(try TimeRange.check(duration: TimeRange.longestDuration, field: "advance"))
        XCTAssertThrowsError(try TimeRange.check(duration: TimeRange.longestDuration + 1, field: "advance"))
        XCTAssertThrowsError(try TimeRange.check(duration: -1, field: "advance"))
    }

    func testInstantArithmeticSaturatesInsteadOfTrapping() {
        XCTAssertEqual((Instant(.max) + 1).seconds, .max)
        XCTAssertEqual((Instant(.min) - 1).seconds, .min)
        XCTAssertEqual((Instant(.min) + .min).seconds, .min)
        XCTAssertEqual(Instant(.max) - Instant(.min), .max)
        XCTAssertEqual(Instant(.min) - Instant(.max), .min)
        XCTAssertEqual(Instant(5) - Instant(3), 2)
        XCTAssertEqual(Int64.max.saturatingMultiplied(by: 1000), .max)
        XCTAssertEqual(Int64.min.saturatingMultiplied(by: 1000), .min)
        XCTAssertEqual((-5 as Int64).saturatingMultiplied(by: -3), 15)
        XCTAssertEqual(Int.max.saturatingAdded(1), .max)
        XCTAssertEqual(Int.min.saturatingSubtracted(1), .min)
        XCTAssertEqual(Int.max.saturatingSubtracted(-1), .max)
        XCTAssertEqual(TimeRange.milliseconds(TimeRange.latest), 253_402_300_799_000)
    }

    func testDaysAndLocalTimesNeverTrapAtTheEndsOfInt64() {
        for zone in ["UTC", "Europe/Berlin", "America/New_York", "Pacific/Kiritimati"] {
            guard let rules = testZones(zone) else { return XCTFail("no zone \(zone)") }
            for hour in [0, 3, 23] {
                let clock = DayClock(zone: rules, dayStartHour: hour)
                for s in edges {
                    let d = clock.day(of: Instant(s))
                    _ = clock.local(Instant(s)).description
                    if TimeRange.contains(Instant(s)) {
                        XCTAssertTrue(TimeRange.days.contains(d), "\(zone) \(s) → day \(d)")
                        // The day's start is at or before the instant and the next day's after it.
                        XCTAssertLessThanOrEqual(clock.start(ofDay: d), Instant(s))
                        XCTAssertGreaterThan(clock.start(ofDay: d + 1), Instant(s))
                    }
                }
            }
        }
    }

    func testAJournalInstantOutsideTheRangeIsNotDecoded() throws {
        let decoder = JSONDecoder()
        XCTAssertEqual(try decoder.decode([Instant].self, from: Data("[\(TimeRange.latest.seconds)]".utf8)), [TimeRange.latest])
        for s in [TimeRange.latest.seconds + 1, TimeRange.earliest.seconds - 1, Int64.max, Int64.min] {
            XCTAssertThrowsError(try decoder.decode([Instant].self, from: Data("[\(s)]".utf8)))
        }
    }

    // MARK: - Commands

    func testCommandsWithInstantsOutsideTheRangeAreRefusedNamingTheField() {
        var h = Harness(zone: "Europe/Berlin", at: "2026-03-02 08:00")
        // docs/reliability.md: each is a clear error naming the field, and nothing changes.
        h.refuse("task.create", ["task": "t", "title": "T", "due": "@9223372036854775807"], .field("due"))
        h.refuse("task.create", ["task": "t", "title": "T", "due": "@-9223372036854775808"], .field("due"))
        h.refuse("task.create", ["task": "t", "title": "T", "reminders": "today 09:00,@253402300800"], .field("reminders[1]"))
        h.refuse("task.create", ["task": "t", "title": "T", "due": "+999999999d"], .field("due"))
        h.refuse("screen.session", ["app": "x", "start": "@-9223372036854775808", "end": "@0"], .field("start"))
        h.refuse("commitment.add", ["commitment": "c", "kind": "on-time", "at": "@9223372036854775807", "window": "5", "stake": "5"],
                 .field("at"))
        h.refuse("commitment.add", ["commitment": "c", "kind": "on-time", "at": "@-9223372036854775808", "window": "5", "stake": "5"],
                 .field("at"))
        // The edges themselves are accepted.
        h.ok("task.create", ["task": "late", "title": "T", "due": "@\(TimeRange.latest.seconds)"])
        // A command whose own time is outside the range is refused by decide (naming `at`) and
        // changes nothing; its instants are checked too, as the core lists them (a field the parser never saw).
        for s in [Int64.max, Int64.min, TimeRange.latest.seconds + 1] {
            let c = Command(id: "far-\(s)", at: Instant(s), action: .petThePet)
            XCTAssertThrowsError(try h.engine.decide(c)) { e in XCTAssertEqual((e as? DomainError)?.refusal, .field("at")) }
        }
        var draft = TaskDraft(id: "x", title: "X")
        draft.reminders = [h.now, Instant(.max)]
        XCTAssertThrowsError(try h.engine.decide(Command(id: "r", at: h.now, action: .createTask(draft)))) { e in
            XCTAssertEqual((e as? DomainError)?.refusal, .field("reminders[1]"))
        }
        h.assertReplayEqualsLive()
    }

    func testATaskDueAtTheLatestInstantSurvivesDayClosesInEveryZone() {
        for zone in ["Europe/Berlin", "Pacific/Kiritimati", "America/New_York"] {
            var h = Harness(zone: zone, at: "2026-03-02 08:00")
            h.ok("task.create", ["task": "t", "title": "T", "due": "@\(TimeRange.latest.seconds)", "repeat": "daily"])
            _ = h.advance(by: 3 * Seconds.day)
            XCTAssertEqual(h.state.tasks["t"]?.state, .pending)
            h.assertReplayEqualsLive()
        }
    }

    // MARK: - Catch-up

    func testCatchUpIsPreciseForTenYearsAndSummarisedBeyond() {
        var h = Harness(zone: "Europe/Berlin", at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "meds", "title": "Meds", "due": "today 21:00", "repeat": "daily"])
        let startDay = h.state.openDay
        // Ten years: every day closed on its own (precise).
        var copy = h.engine
        let tenYears = copy.advance(to: h.now + 3_650 * Seconds.day)
        let closes = tenYears.filter { if case .dayClosed = $0.kind { true } else { false } }
        XCTAssertEqual(closes.count, 3_650)
        XCTAssertEqual(copy.state.openDay, startDay + 3_650)
        // Far beyond: the days older than the horizon are closed as one, so the number of events
        // is bounded whatever the distance, and the days on the way stay right.
        for years: Int64 in [20, 1000, 7000] {
            var far = h.engine
            let target = h.now + years * 365 * Seconds.day
            let events = far.advance(to: target)
            let dayCloses = events.filter { if case .dayClosed = $0.kind { true } else { false } }.count
            XCTAssertLessThanOrEqual(dayCloses, Engine.preciseCatchUpDays + 2, "\(years) years")
            XCTAssertEqual(far.state.openDay, far.state.clock.day(of: target))
            XCTAssertEqual(far.state.now, target)
            // The journal replays to the same state.
            var replay = h.replayed()
            replay.apply(events)
            XCTAssertEqual(replay.advance(to: target), [], "the replay has nothing left to do")
            XCTAssertTrue(replay.state == far.state, "\(years) years: \(stateDiff(replay.state, far.state))")
        }
    }

    func testCatchUpInBatchesGivesTheSameEventsAsInOne() {
        var h = Harness(zone: "UTC", at: "2026-06-01 08:00")
        h.ok("task.create", ["task": "meds", "title": "Meds", "due": "today 21:00", "repeat": "daily", "reminders": "today 20:00"])
        h.ok("habit.add", ["habit": "water", "text": "Water", "reminder": "09:00"])
        var whole = h.engine
        let all = whole.advance(to: h.now + 400 * Seconds.day)
        var batched = h.engine
        var pieces: [Event] = []
        var rounds = 0
        while true {
            let (events, done) = batched.advance(to: h.now + 400 * Seconds.day, eventLimit: 100)
            pieces += events
            rounds += 1
            XCTAssertLessThan(events.count, 100 + 50, "a batch stops soon after its limit")
            if done { break }
        }
        XCTAssertGreaterThan(rounds, 5)
        XCTAssertEqual(pieces, all)
        XCTAssertTrue(batched.state == whole.state)
    }

    func testAdvancingBeyondTheLatestInstantStopsThere() {
        var h = Harness(zone: "UTC", at: "2026-06-01 08:00")
        var e = h.engine
        _ = e.advance(to: Instant(.max))
        XCTAssertEqual(e.state.now, TimeRange.latest)
        _ = h.advance(by: 1)
    }

    // MARK: - Property: random instants and durations from the whole Int64 range

    /// For every command and every field, values drawn from the whole Int64 range, its edges and
    /// the range's edges (as `@N` instants and `+N…` durations): nothing traps; a command is either
    /// accepted with every instant inside the range, or refused (an instant outside names its field).
    func testRandomInstantsAndDurationsNeverTrap() {
        var rng = SplitMix64(seed: 0x11_2026)
        var h = Harness(zone: "Europe/Berlin", at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "base", "title": "Base", "due": "today 21:00"])
        func draw() -> Int64 {
            switch rng.next() % 4 {
            case 0: return edges[Int(rng.next() % UInt64(edges.count))]
            case 1: return Int64(bitPattern: rng.next())
            case 2: return TimeRange.earliest.seconds + Int64(rng.next() % UInt64(TimeRange.longestDuration + 1))
            default: return h.now.seconds + Int64(bitPattern: rng.next()) % (400 * Seconds.day)
            }
        }
        func text(_ v: Int64) -> String {
            switch rng.next() % 3 {
            case 0: return "@\(v)"
            case 1: return "+\(v.magnitude % 1_000_000_000)\(["d", "h", "m", "s"][Int(rng.next() % 4)])"
            default: return "\(v)"
            }
        }
        // Edges for the command's own time that do not move the pet's clock far ahead.
        let pastOrOutside = edges.filter { !TimeRange.contains(Instant($0)) || $0 <= h.now.seconds }
        var accepted = 0, outOfRange = 0
        for round in 0..<1_500 {
            let names = CommandParser.fieldsByCommand.keys.sorted()
            let name = names[Int(rng.next() % UInt64(names.count))]
            let allowed = CommandParser.fieldsByCommand[name, default: []].sorted()
            var fields: [String: String] = [:]
            for f in allowed where rng.next() % 2 == 0 { fields[f] = text(draw()) }
            // Plausible ids for the fields that name things, so commands get past lookups.
            for f in ["task", "habit", "commitment", "challenge", "item"] where allowed.contains(f) && rng.next() % 2 == 0 {
                fields[f] = "base"
            }
            // The command's own time: an edge (Int64's or the range's) now and then, else soon after
            // now (an in-range far future would make every later round a ten-year catch-up).
            let at = rng.next() % 4 == 0 ? Instant(pastOrOutside[Int(rng.next() % UInt64(pastOrOutside.count))])
                : h.now + Int64(rng.next() % 3_600)
            let command: Command
            do {
                command = try CommandParser.parse(name: name, fields: fields, id: "p\(round)", at: at, clock: h.clock)
            } catch {
                if case let .invalidField(field, reason) = error, reason.contains("outside the valid range") {
                    XCTAssertNotNil(fields[field.split(separator: "[").first.map(String.init) ?? field], "\(name): \(field)")
                    outOfRange += 1
                }
                continue
            }
            do {
                _ = try h.run(command)
                accepted += 1
                XCTAssertTrue(TimeRange.contains(command.at))
            } catch {
                if case let .invalidField(field, reason) = error, reason.contains("outside the valid range") {
                    XCTAssertFalse(field.isEmpty)
                    outOfRange += 1
                }
            }
            // Time passing to a random instant never traps either (and never beyond the range).
            if rng.next() % 50 == 0 {
                var copy = h.engine
                _ = copy.advance(to: Instant(draw()), eventLimit: 500)
                XCTAssertTrue(TimeRange.contains(copy.state.now))
            }
        }
        XCTAssertGreaterThan(accepted, 50)
        XCTAssertGreaterThan(outOfRange, 100)
        h.assertReplayEqualsLive()
    }

    // MARK: - The device's own instants near the end of time

    /// Every event of the journal as the device stores and replays it: JSON, and reading an
    /// `Instant` back refuses one outside the range. Fails naming the first event replay refuses.
    func assertStoredJournalReplays(_ h: Harness, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for e in h.journal {
            do {
                _ = try JSONDecoder().decode(EventKind.self, from: try JSONEncoder().encode(e.kind))
            } catch {
                XCTFail("\(what): a stored '\(e.kind.type)' event cannot be replayed: \(error)", file: file, line: line)
                return
            }
        }
        h.assertReplayEqualsLive(file: file, line: line)
    }

    func testAHabitAddedDaysBeforeTheEndBecomesEditableAtTheLatestInstant() {
        var h = Harness(zone: "UTC", at: "9999-12-20 08:00")
        h.ok("habit.add", ["habit": "h", "text": "Water"])
        XCTAssertEqual(h.state.habits.habits["h"]?.editableFrom, TimeRange.latest)
        h.refuse("habit.edit", ["habit": "h", "text": "Tea"], .state("habit", "h"))
        assertStoredJournalReplays(h, "habit.add on 9999-12-20")
        // 14 days earlier nothing is clamped.
        var early = Harness(zone: "UTC", at: "9999-12-17 08:00")
        early.ok("habit.add", ["habit": "h", "text": "Water"])
        XCTAssertEqual(early.state.habits.habits["h"]?.editableFrom, early.t("9999-12-31 08:00"))
    }

    func testARecurringTaskWhoseNextOccurrenceWouldPassTheEndEndsItsSeries() {
        // Completed on the last day east of UTC: the next occurrence (10000-01-01) is not created.
        var h = Harness(zone: "Asia/Tokyo", at: "9999-12-31 08:00")
        h.ok("task.create", ["task": "t", "title": "T", "due": "today 21:00", "repeat": "daily"])
        h.ok("task.complete", ["task": "t"])
        XCTAssertEqual(h.state.tasks.count, 1, "no occurrence after the latest instant")
        assertStoredJournalReplays(h, "daily task completed on 9999-12-31 in Tokyo")

        // Missed: the day close of 9999-12-31 in Tokyo (9999-12-31 18:00 UTC) spawns nothing.
        var missed = Harness(zone: "Asia/Tokyo", at: "9999-12-31 08:00")
        missed.ok("task.create", ["task": "t", "title": "T", "due": "today 09:00", "repeat": "daily",
                                  "reminders": "today 08:30"])
        missed.advance(to: TimeRange.latest)
        XCTAssertEqual(missed.state.tasks["t"]?.state, .missed)
        XCTAssertNil(missed.state.tasks["t"]?.spawnedID)
        assertStoredJournalReplays(missed, "daily task missed at the last day close in Tokyo")

        // Weekly: the close of 9999-12-28 would spawn 10000-01-04.
        for zone in ["Asia/Tokyo", "Pacific/Kiritimati", "UTC", "America/New_York"] {
            var weekly = Harness(zone: zone, at: "9999-12-27 08:00")
            let weekday = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][weekly.clock.local(weekly.now).date.weekday]
            weekly.ok("task.create", ["task": "w", "title": "W", "due": "today 21:00", "repeat": "weekly:\(weekday)"])
            weekly.advance(to: TimeRange.latest)
            XCTAssertEqual(weekly.state.tasks.count, 1, zone)
            assertStoredJournalReplays(weekly, "weekly task in \(zone)")
        }
        // An occurrence that still fits is created as before.
        var fits = Harness(zone: "Asia/Tokyo", at: "9999-12-30 08:00")
        fits.ok("task.create", ["task": "t", "title": "T", "due": "today 09:00", "repeat": "daily"])
        fits.ok("task.complete", ["task": "t"])
        XCTAssertEqual(fits.state.tasks.count, 2)
        assertStoredJournalReplays(fits, "daily task completed on 9999-12-30")
    }

    func testAFocusSessionThatWouldEndAfterTheLatestInstantIsRefused() {
        var h = Harness(zone: "UTC", at: "9999-12-31 23:30")
        h.refuse("focus.start", ["minutes": "45"], .field("minutes"))
        h.ok("focus.start", ["minutes": "25"])
        assertStoredJournalReplays(h, "focus.start 30 min before the end")
    }
}
