import Foundation
import XCTest
import PetCore
import PetStore
@testable import PetDevice

/// Group commit (`PetApp.handleBatch`): commands decided in order against the evolving state,
/// stored in one transaction, each outcome exactly what `handle` one by one gives.
final class BatchTests: XCTestCase {
    let t0 = Instant(1_772_434_800) // Mon 2026-03-02 07:00 UTC

    func tempDB() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("deskpet-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir.appendingPathComponent("pet.db").path
    }

    func create(_ id: String, _ task: String, at: Instant) -> Command {
        var d = TaskDraft(id: task, title: "Task \(task)")
        d.due = at + 7200
        return Command(id: id, at: at, action: .createTask(d))
    }

    func complete(_ id: String, _ task: String, at: Instant) -> Command {
        Command(id: id, at: at, action: .completeTask(id: task))
    }

    /// The same commands through `handle` one at a time, on a fresh app.
    func oneByOne(_ commands: [Command]) throws -> (PetApp, [Outcome]) {
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        var outcomes: [Outcome] = []
        for c in commands { outcomes.append(try app.handle(c)) }
        return (app, outcomes)
    }

    func testARefusalInTheMiddleChangesNothingAndTheOthersApply() throws {
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        let commands = [create("c1", "t1", at: t0), complete("c2", "nope", at: t0),
                        Command(id: "c3", at: t0, action: .createTask(TaskDraft(title: ""))),
                        complete("c4", "t1", at: t0 + 60), create("c5", "t2", at: t0 + 60)]
        let outcomes = try app.handleBatch(commands)
        XCTAssertEqual(outcomes.map { $0.reply != nil }, [true, false, false, true, true])
        XCTAssertEqual(outcomes[1].refusal?.code, "not_found")
        XCTAssertEqual(outcomes[2].refusal?.code, "invalid_field")
        XCTAssertGreaterThan(outcomes[3].reply?.reward ?? 0, 0)
        XCTAssertNil(try app.store.command(id: "c2"), "a refused id is not remembered")
        XCTAssertNil(try app.store.command(id: "c3"))
        XCTAssertEqual(try app.store.events().filter { $0.type == "task.created" }.count, 2)

        let (single, singleOutcomes) = try oneByOne(commands)
        XCTAssertEqual(app.state, single.state, "a batch decides exactly as one command after another")
        XCTAssertEqual(outcomes.map(\.result), singleOutcomes.map(\.result))
        XCTAssertEqual(outcomes.map(\.committed), singleOutcomes.map(\.committed))
        XCTAssertEqual(try app.store.events().map(\.payload), try single.store.events().map(\.payload))
    }

    func testADuplicateIdInsideTheBatchAndAgainstTheJournalAppliesOnce() throws {
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        try app.handle(create("c0", "t0", at: t0))
        let commands = [create("c1", "t1", at: t0), complete("c2", "t1", at: t0 + 1),
                        complete("c2", "t1", at: t0 + 2),            // inside the batch
                        Command(id: "c1", at: t0 + 3, action: .petThePet), // another action, same id
                        create("c0", "t0", at: t0 + 4)]              // in the journal already
        let outcomes = try app.handleBatch(commands)
        let replies = try outcomes.map { try $0.get() }
        XCTAssertEqual(replies.map { $0.duplicate ?? false }, [false, false, true, true, true])
        XCTAssertEqual(replies[2].coins, replies[1].coins)
        XCTAssertEqual(replies[2].reward, replies[1].reward)
        XCTAssertEqual(replies[3].command, "task.create", "a repeat answers with the first command's reply")
        XCTAssertEqual(outcomes[2].committed, [])
        XCTAssertEqual(outcomes[3].committed, [])
        XCTAssertEqual(try app.store.events().filter { $0.type == "task.completed" }.count, 1, "the reward was paid once")
        let (single, singleOutcomes) = try oneByOne([create("c0", "t0", at: t0)] + commands)
        XCTAssertEqual(app.state, single.state)
        XCTAssertEqual(outcomes.map(\.result), Array(singleOutcomes.dropFirst()).map(\.result))
    }

    func testAfterTheCommitEveryAcceptedCommandIsDurableAndReplayEqualsLive() throws {
        let path = try tempDB()
        var app: PetApp? = try PetApp(store: try EventStore(path: path), now: t0, zone: "UTC", snapshotEvery: 50)
        var t = t0
        var commands: [Command] = []
        for i in 0..<40 {
            commands.append(create("c\(i)", "t\(i)", at: t))
            if i % 3 == 0 { commands.append(complete("d\(i)", "t\(i)", at: t)) }
            if i % 7 == 0 { commands.append(complete("x\(i)", "missing", at: t)) }
            if i % 10 == 9 { t = t + 86_400 }   // days close inside the batch
        }
        let outcomes = try app!.handleBatch(commands)
        // Once handleBatch returns (the one transaction committed), a second connection sees every
        // accepted command's row and none of the refused ones.
        let other = try EventStore(path: path)
        for (c, o) in zip(commands, outcomes) {
            if o.reply != nil { XCTAssertNotNil(try other.command(id: c.id), c.id) } else { XCTAssertNil(try other.command(id: c.id), c.id) }
        }
        XCTAssertEqual(try other.eventCount(), try app!.store.eventCount())
        other.close()
        let live = app!.state
        app!.store.close()
        app = nil
        let reopened = try PetApp(store: try EventStore(path: path), now: t)
        try reopened.advance(to: live.now)
        XCTAssertEqual(reopened.state, live, "replaying the journal gives the live state")
        let (single, _) = try oneByOne(commands)
        XCTAssertEqual(single.state, live)
    }

    func testAJournalFailureStoresAndAppliesNothingOfTheBatch() throws {
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        let before = app.state
        app.store.close()
        XCTAssertThrowsError(try app.handleBatch([create("c1", "t1", at: t0), create("c2", "t2", at: t0)]))
        XCTAssertEqual(app.state, before, "the live state moves only after the commit")
    }

    func testAnEmptyBatchAndABatchOfOnlyRepeatsStoreNothing() throws {
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        XCTAssertEqual(try app.handleBatch([]).count, 0)
        try app.handle(create("c1", "t1", at: t0))
        let count = try app.store.eventCount()
        let outcomes = try app.handleBatch([create("c1", "t1", at: t0), create("c1", "t1", at: t0)])
        XCTAssertEqual(outcomes.compactMap { $0.reply?.duplicate }, [true, true])
        XCTAssertEqual(try app.store.eventCount(), count)
    }
}
