import Foundation
import XCTest
import PetCore

/// DESIGN "event-sourced core": the same command id never applies twice; state = fold(events);
/// events survive the journal's JSON encoding unchanged.
final class IdempotencyTests: XCTestCase {
    func testSameCommandIDTwiceChangesNothing() throws {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A"], id: "phone-1")
        h.ok("task.complete", ["task": "a"], id: "phone-2")
        let before = h.state
        let count = h.journal.count
        // The very same commands again, and a different action under a used id.
        for (name, fields, id) in [("task.create", ["task": "a", "title": "A"], "phone-1"),
                                   ("task.complete", ["task": "a"], "phone-2"),
                                   ("task.create", ["task": "z", "title": "Z"], "phone-1")] {
            let command = try CommandParser.parse(name: name, fields: fields, id: id, at: h.now, clock: h.clock)
            XCTAssertTrue(h.engine.isDuplicate(id))
            XCTAssertEqual(try h.engine.decide(command), [])
            XCTAssertEqual(try h.send(name, fields, id: id), [])
        }
        XCTAssertEqual(h.state, before)
        XCTAssertEqual(h.journal.count, count)
        XCTAssertEqual(h.state.coins, 10)
    }

    func testARefusedCommandIDCanBeRetried() {
        var h = Harness(at: "2026-03-02 08:00")
        XCTAssertNotNil(refusal { () throws(DomainError) in _ = try h.send("task.create", ["title": ""], id: "x1") })
        XCTAssertFalse(h.engine.isDuplicate("x1"))
        h.ok("task.create", ["title": "Fixed"], id: "x1")
        XCTAssertEqual(h.task("x1")?.title, "Fixed")
    }

    func testEveryEventOfACommandCarriesItsID() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "repeat": "daily", "due": "2026-03-02 18:00"], id: "c-create")
        let events = h.ok("task.complete", ["task": "a"], id: "c-done")
        XCTAssertGreaterThan(events.count, 2)
        XCTAssertTrue(events.allSatisfy { $0.commandID == "c-done" })
        XCTAssertTrue(h.advance(to: "2026-03-04 12:00").allSatisfy { $0.commandID == nil }, "time's events have no command")
    }

    func testDecideIsPure() throws {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A"])
        let before = h.state
        let command = Command(id: "c", at: h.now, action: .completeTask(id: "a"))
        let first = try h.engine.decide(command)
        let second = try h.engine.decide(command)
        XCTAssertEqual(first, second)
        XCTAssertEqual(h.state, before)
    }
}

final class ReplayTests: XCTestCase {
    func testReplayOfTheJournalEqualsTheLiveState() {
        var h = Harness(zone: "America/New_York", at: "2026-03-05 08:00")
        h.ok("category.add", ["name": "Garden"])
        h.ok("task.create", ["task": "a", "title": "A", "category": "Garden", "due": "2026-03-05 18:00",
                             "reminders": "2026-03-05 17:00", "estimate": "45"])
        h.ok("task.create", ["task": "r", "title": "R", "due": "2026-03-06 09:00", "repeat": "weekdays:mon,fri"])
        h.ok("task.create", ["task": "b", "title": "B", "due": "2026-03-07 09:00"])
        h.ok("pet.name", ["name": "Mochi"])
        h.ok("pet.pet")
        h.advance(to: "2026-03-05 17:00")
        h.ok("task.complete", ["task": "a"])
        h.ok("task.uncomplete", ["task": "a"])
        h.ok("task.complete", ["task": "a"])
        h.ok("task.complete", ["task": "r"], at: wall("2026-03-06 08:00", in: "America/New_York"))
        h.ok("category.rename", ["name": "Garden", "to": "Yard"])
        h.ok("settings.zone", ["zone": "Europe/Berlin"])
        h.ok("settings.quiet-hours", ["from": "23:00", "to": "06:30"])
        h.ok("pause", at: h.now + 6 * Seconds.hour)
        h.ok("resume", at: h.now + 30 * Seconds.hour)
        h.ok("settings.day-start", ["hour": "5"])
        h.ok("task.duplicate", ["task": "b", "new": "b2"])
        h.advance(by: 5 * Seconds.day + 7)
        h.assertReplayEqualsLive()

        // Replaying into a fresh engine at the end of every prefix: each prefix is a valid journal.
        for n in stride(from: 1, through: h.journal.count, by: 7) {
            XCTAssertNoThrow(try Engine(journal: Array(h.journal.prefix(n)), zones: testZones))
        }
    }

    func testReplayNeedsAGenesis() {
        XCTAssertThrowsError(try Engine(journal: [], zones: testZones))
        XCTAssertThrowsError(try Engine(journal: [Event(at: Instant(0), kind: .paused)], zones: testZones))
    }
}

final class EventCodingTests: XCTestCase {
    /// One example of every event kind. The switch in `index` is exhaustive: adding an event kind
    /// fails to compile until it gets an example here.
    static func examples() -> [EventKind] {
        // Task and day values as the engine makes them, then every optional field filled in.
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "Tïtle ✓", "notes": "n\nm", "category": "Home", "project": "P",
                             "priority": "high", "due": "2026-03-03 08:00", "estimate": "45",
                             "repeat": "weekdays:mon,wed", "until": "2026-04-01", "reminders": "+1h,+2h"])
        var task = h.task("a")!
        task.state = .inProgress
        task.remindersDone = [1]
        task.completedAt = task.start + 100
        task.reward = Reward(coins: 3, xp: 6)
        task.missedDay = 20514
        task.occurrence = 2
        task.spawnedID = "a#3"
        task.spawnedFrom = "a#1"
        task.excusedDay = 20513
        h.advance(by: 2 * Seconds.day)
        var day = h.journal.closedDays[0]
        day.due = 3; day.done = 2; day.missed = 1; day.streak = 4; day.paused = true
        var plain = task
        plain.project = nil; plain.due = nil; plain.estimate = nil; plain.recurrence = nil; plain.reminders = []
        plain.completedAt = nil; plain.reward = nil; plain.missedDay = nil; plain.spawnedID = nil
        plain.spawnedFrom = nil; plain.excusedDay = nil; plain.plannedSecondOfDay = nil
        var every = task
        every.recurrence = Recurrence(rule: .everyNDays(3))
        return [
            .genesis(zone: "Europe/Berlin", dayStartHour: 3),
            .taskCreated(task), .taskCreated(plain), .taskEdited(every),
            .taskDeleted(id: "a"), .taskStarted(id: "a"),
            .taskCompleted(id: "a", timing: .early, reward: Reward(coins: 13, xp: 26)),
            .taskCompleted(id: "a", timing: .onTime, reward: Reward(coins: 10, xp: 20)),
            .taskCompleted(id: "a", timing: .late, reward: Reward(coins: 3, xp: 6)),
            .taskUncompleted(id: "a", reward: Reward(coins: 3, xp: 6)),
            .taskMissed(id: "a", day: 20514), .taskExcused(id: "a", day: 20515),
            .reminderDue(taskID: "a", index: 0), .reminderMissed(taskID: "a", index: 1),
            .reminderSilenced(taskID: "a", index: 2),
            .categoryAdded(name: "Garden"), .categoryRenamed(name: "Garden", to: "Yard"), .categoryDeleted(name: "Yard"),
            .zoneChanged(id: "Asia/Tokyo"), .dayStartChanged(hour: 0), .quietHoursChanged(startMinute: 1380, endMinute: 390),
            .paused, .resumed, .petRenamed(name: "O'Malley"),
            .petTraitsChanged(species: "owl", colour: "lilac", personality: .curious), .petPetted,
            .petSaid(key: "done.3"), .levelReached(level: 7), .badgeEarned(id: "streak-3"),
            .dayClosed(day), .deviceSettingsChanged({ var d = DeviceSettings(); d.theme = .dark; d.sound = false; return d }()),
            // As written since zone events carry their rules (the two above are the older form).
            .genesis(zone: "Europe/Berlin", dayStartHour: 3, rules: coreTestZoneTable["Europe/Berlin"]),
            .zoneChanged(id: "Asia/Tokyo", rules: coreTestZoneTable["Asia/Tokyo"]),
        ] + subsystemExamples()
    }

    /// One example of every subsystem event type (each subsystem's `allTypes`).
    static func subsystemExamples() -> [EventKind] {
        let nudge = Reminder(id: "habit:h1:20514", source: .habit, ref: "h1", due: Instant(1_772_434_800), solicited: true)
        return [
            .reminder(.shown(nudge)), .reminder(.missed(nudge)), .reminder(.suppressed(nudge)),
            .reminder(.delivered(ids: ["habit:h1:20514", "task:a:0"])),
            .reminder(.silenced(until: Instant(1_772_442_000))), .reminder(.silenced(until: nil)),
            .phone(.paired(id: "phone-1", name: "Pixel", tokenHash: String(repeating: "ab", count: 32))),
            .phone(.unpaired(id: "phone-1")), .phone(.pairingLocked(until: Instant(1_772_442_600))),
        ] + habitExamples() + shopExamples() + quitExamples() + screenExamples() + commitmentExamples() + circleExamples()
    }

    /// One example of every circle event type.
    static func circleExamples() -> [EventKind] {
        let terms = ChallengeTerms(id: "ana1-1", proposer: "ana1", goal: .focusPerDay(30), start: Instant(1_772_496_000),
                                   end: Instant(1_772_496_000 + 7 * Seconds.day), stake: 20)
        let settlement = ChallengeSettlement.split(terms, outcomes: ["ana1": .succeeded, "bob2": .failed, "cid3": .missing])
        return [
            .circle(.joined(CircleMembership(circle: "friends", member: "ana1", share: [.coins, .challenges], screenGoal: 90,
                                             joinedAt: Instant(1_772_434_800)))),
            .circle(.staked(circle: "friends", terms: terms)),
            .circle(.finalHeld(circle: "friends", member: "bob2",
                               progress: ChallengeProgress(challenge: "ana1-1", met: true, value: 7, finalAt: Instant(1_773_100_900)))),
            .circle(.settled(SettledChallenge(circle: "friends", settlement: settlement, member: "ana1", payout: 60, stake: 20,
                                              at: Instant(1_773_101_000),
                                              final: ChallengeProgress(challenge: "ana1-1", met: true, value: 7, finalAt: Instant(1_773_100_000)),
                                              deadline: terms.finalDeadline))),
            .circle(.standing(circle: "friends", standing: CircleStanding(
                metric: .coins, period: .week, number: 20513, ranked: 3,
                rows: [LeaderboardRow(rank: 1, member: "ana1", petName: "Pip", value: 40)], at: Instant(1_773_101_100)))),
            .circle(.forfeited(circle: "friends", challenge: "ana1-2", stake: 5)),
            .circle(.left(circle: "old-circle")),
        ]
    }

    /// One example of every habit/course/check-in event type, optional fields both set and absent.
    static func habitExamples() -> [EventKind] {
        let habit = Habit(id: "h1", text: "Read 2 pages ✓", createdAt: Instant(1_772_434_800),
                          editableFrom: Instant(1_773_644_400), reminderMinute: 480, reminderOn: true)
        var plain = habit
        plain.reminderMinute = nil; plain.reminderOn = false; plain.unlockAnnounced = true
        let score = HabitDayScore(day: 20514, boxes: 2, checked: 2, movement: true, paused: false, complete: true,
                                  base: 38, bonus: 3, counter: 3, points: 41, xp: 21)
        let empty = HabitDayScore(day: 20515, boxes: 0, checked: 0, movement: true, paused: true, complete: nil,
                                  base: 5, bonus: 0, counter: 3, points: 5, xp: 3)
        let outline = CourseOutline(pack: "course-66", version: 2, lessons: [
            CourseLesson(id: "w0-a", week: 0), CourseLesson(id: "w1-a", week: 1, prompt: .habit),
            CourseLesson(id: "w2-a", week: 2, prompt: .selfImage),
        ])
        return [
            .habit(.added(habit, answers: "w1-a")), .habit(.added(plain, answers: nil)),
            .habit(.edited(id: "h1", text: "Read 5 pages")),
            .habit(.reminderSet(id: "h1", minute: 1230, on: false)), .habit(.reminderSet(id: "h1", minute: nil, on: false)),
            .habit(.removed(id: "h1")), .habit(.checked(item: "movement", day: 20514)),
            .habit(.unchecked(item: "h1", day: 20514)), .habit(.dayScored(score)), .habit(.dayScored(empty)),
            .habit(.editUnlocked(id: "h1")), .habit(.checkinSet(minute: 1260)), .habit(.checkinSet(minute: nil)),
            .habit(.courseStarted(outline, day: 20514)), .habit(.lessonUnlocked(lesson: "w0-a")),
            .habit(.lessonRead(lesson: "w1-a", prompt: .habit)), .habit(.lessonRead(lesson: "w0-a", prompt: nil)),
            .habit(.selfImageSet(text: "I am someone who moves every day", answers: "w2-a")),
            .habit(.selfImageSet(text: "", answers: nil)), .habit(.courseStopped(pack: "course-66")),
        ]
    }

    static var subsystemTypes: [String] {
        HabitEvent.allTypes + ShopEvent.allTypes + CommitmentEvent.allTypes + QuitEvent.allTypes
            + AppTimeEvent.allTypes + ReminderEvent.allTypes + PhoneEvent.allTypes + CircleEvent.allTypes
    }

    func testEverySubsystemEventTypeHasAnExample() {
        let covered = Set(Self.subsystemExamples().map(\.type))
        for t in Self.subsystemTypes { XCTAssertTrue(covered.contains(t), "no example of \(t)") }
    }

    static func index(_ k: EventKind) -> Int {
        switch k {
        case .genesis: 0
        case .taskCreated: 1
        case .taskEdited: 2
        case .taskDeleted: 3
        case .taskStarted: 4
        case .taskCompleted: 5
        case .taskUncompleted: 6
        case .taskMissed: 7
        case .taskExcused: 8
        case .reminderDue: 9
        case .reminderMissed: 10
        case .reminderSilenced: 11
        case .categoryAdded: 12
        case .categoryRenamed: 13
        case .categoryDeleted: 14
        case .zoneChanged: 15
        case .dayStartChanged: 16
        case .quietHoursChanged: 17
        case .paused: 18
        case .resumed: 19
        case .petRenamed: 20
        case .petTraitsChanged: 21
        case .petPetted: 22
        case .petSaid: 23
        case .levelReached: 24
        case .badgeEarned: 25
        case .dayClosed: 26
        case .habit, .shop, .commitment, .quit, .appTime, .reminder, .phone, .circle: 27
        case .deviceSettingsChanged: 28
        }
    }

    func testExamplesCoverEveryKind() {
        XCTAssertEqual(Set(Self.examples().map(Self.index)), Set(0...28))
        XCTAssertEqual(Set(Self.examples().map(\.type)).count, 28 + Self.subsystemTypes.count, "type names are distinct")
    }

    func testEveryKindRoundTripsThroughJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for kind in Self.examples() {
            let data = try encoder.encode(kind)
            let back = try JSONDecoder().decode(EventKind.self, from: data)
            XCTAssertEqual(back, kind, String(decoding: data, as: UTF8.self))
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
            XCTAssertEqual(object["type"] as? String, kind.type)
        }
    }

    func testAWholeJournalRoundTripsAndReplaysToTheSameState() throws {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 18:00", "repeat": "daily", "reminders": "+1h"])
        h.ok("task.complete", ["task": "a"])
        h.advance(to: "2026-03-06 12:00")
        struct Stored: Codable { var at: Instant; var command: String?; var body: EventKind }
        let data = try JSONEncoder().encode(h.journal.map { Stored(at: $0.at, command: $0.commandID, body: $0.kind) })
        let back = try JSONDecoder().decode([Stored].self, from: data).map { Event(at: $0.at, commandID: $0.command, kind: $0.body) }
        XCTAssertEqual(back, h.journal)
        var replay = try Engine(journal: back, zones: testZones)
        _ = replay.advance(to: h.now)
        XCTAssertEqual(replay.state, h.state)
    }

    /// PetState lists its coding keys by hand (to keep `notices`): every stored property must be in
    /// the snapshot, and the reminders keep their wire name.
    func testSnapshotEncodingHasEveryStateProperty() throws {
        var h = Harness(zone: "Europe/Berlin", at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-02 18:00", "reminders": "+1h"])
        h.advance(to: "2026-03-04 12:00")
        let data = try JSONEncoder().encode(h.state)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertNotNil(json["notices"])
        XCTAssertNil(json["reminders"])
        for child in Mirror(reflecting: h.state).children {
            guard let label = child.label else { continue }
            let mirror = Mirror(reflecting: child.value)
            if mirror.displayStyle == .optional && mirror.children.isEmpty { continue }
            XCTAssertNotNil(json[label == "reminders" ? "notices" : label], "PetState.\(label) is not in the snapshot")
        }
        let decoder = JSONDecoder()
        decoder.userInfo[try XCTUnwrap(DayClock.zoneLookupKey)] = testZones
        XCTAssertEqual(try decoder.decode(PetState.self, from: data), h.state)
    }

    func testUnknownTypeIsRefused() {
        let data = Data(#"{"type":"task.exploded","id":"a"}"#.utf8)
        XCTAssertThrowsError(try JSONDecoder().decode(EventKind.self, from: data))
    }
}
