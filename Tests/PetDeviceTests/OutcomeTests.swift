import Foundation
import XCTest
import TestSupport
import PetCore
import PetStore
@testable import PetDevice

/// `PetApp.handle` returns its outcome: the reply or the refusal, and every event it stored.
extension PetAppTests {
    // MARK: - The outcome of handle (docs/navigation.md)

    func testRefusalStillReportsTheTimeEventsItCommitted() throws {
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        try app.handle(Command(id: "c1", at: t0, action: .createTask(TaskDraft(id: "t1", title: "Tea")))).get()
        // Two days later a refused command: the day closes (missed or not) are stored first and
        // reported, the refusal changes nothing else.
        let later = t0 + 2 * 86_400
        let outcome = try app.handle(Command(id: "c2", at: later, action: .createTask(TaskDraft(title: ""))))
        XCTAssertNotNil(outcome.refusal)
        XCTAssertFalse(outcome.committed.isEmpty, "the days that closed before the refusal are committed")
        XCTAssertTrue(outcome.committed.allSatisfy { $0.at <= later })
        XCTAssertEqual(try app.store.eventCount(), app.state.eventCount, "what is reported is what is stored")
        XCTAssertNil(try app.store.command(id: "c2"))
    }

    func testAnAcceptedCommandReportsTimeEventsThenItsOwn() throws {
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        let outcome = try app.handle(Command(id: "c1", at: t0 + 86_400 * 3, action: .createTask(TaskDraft(id: "t1", title: "Tea"))))
        let kinds = outcome.committed.map(\.kind.type)
        XCTAssertEqual(kinds.last, "task.created")
        XCTAssertTrue(kinds.dropLast().contains("day.closed"), "\(kinds)")
    }

    func testAStoredReplyThatCannotBeReadIsAnErrorNotASecondApply() throws {
        let path = try tempDB()
        let app = try PetApp(store: try EventStore(path: path), now: t0, zone: "UTC")
        try app.handle(Command(id: "c1", at: t0, action: .createTask(TaskDraft(id: "t1", title: "Tea")))).get()
        let count = try app.store.eventCount()
        // Damage the stored reply behind the app's back.
        let r = try runTool("/usr/bin/sqlite3", [path, "UPDATE commands SET reply = 'not json' WHERE id = 'c1'"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertThrowsError(try app.handle(Command(id: "c1", at: t0, action: .createTask(TaskDraft(id: "t1", title: "Tea"))))) { error in
            guard case .journal(_, let detail)? = error as? AppError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("stored reply"), detail)
            XCTAssertFalse(detail.contains("Tea"), "no personal text in errors")
        }
        XCTAssertEqual(try app.store.eventCount(), count, "nothing applied twice")
    }
}
