import XCTest
import PetCore
@testable import PetUI

/// A finished recurring task does not come back at once on the device (docs/screens.md, "Today"):
/// today lists it done, home's card and the task detail skip its next occurrence until its day.
final class TodayRecurringTests: XCTestCase {
    private func engine(_ steps: [(String, [String: String], String)]) throws -> Engine {
        let zones: ZoneLookup = { $0 == "UTC" ? ZoneRules.utc : nil }
        var e = try Engine.create(at: UIFixture.at("2026-03-02 08:00"), zoneID: "UTC", zones: zones).0
        for (k, (name, fields, at)) in steps.enumerated() {
            _ = e.advance(to: UIFixture.at(at))
            let cmd = try CommandParser.parse(name: name, fields: fields, id: "t-\(k)", at: UIFixture.at(at), clock: e.state.clock)
            e.apply(try e.decide(cmd))
        }
        return e
    }

    func testAFinishedDailyTaskShowsDoneUntilItsNextDay() throws {
        var e = try engine([
            ("task.create", ["task": "walk", "title": "Walk", "due": "2026-03-02 18:00", "repeat": "daily"], "2026-03-02 08:00"),
            ("task.create", ["task": "mail", "title": "Mail", "due": "2026-03-02 12:00"], "2026-03-02 08:00"),
            ("task.complete", ["task": "walk"], "2026-03-02 09:00")
        ])
        let now = UIFixture.at("2026-03-02 09:00")
        let config = Navigator.Config(profile: .square240)
        var ui = UIState(screen: .today, lastInput: now)
        let rows = TodayScreen.rows(ui: ui, state: e.state, now: now, config: config)
        XCTAssertEqual(rows.map(\.id).filter { $0.hasPrefix("task:") || $0.hasPrefix("note:") }, ["task:mail", "note:done-walk"])
        let done = try XCTUnwrap(rows.first { $0.id == "note:done-walk" })
        XCTAssertEqual(done.mark, .box(checked: true))
        XCTAssertFalse(done.isSelectable)
        XCTAssertEqual(NavRows.home(e.state).filter { if case .task? = $0 { true } else { false } }, [.task(id: "mail")],
                       "home's card skips the next occurrence")
        // The task detail's up/down moves over the day's tasks only.
        ui.screen = .taskDetail; ui.detailTaskID = "mail"
        var nav = Navigator(state: e.state, now: now, config: config, boot: false)
        nav.ui = ui
        _ = nav.handle(NavPress(.next), state: e.state, now: now)
        XCTAssertEqual(nav.ui.detailTaskID, "mail")
        // Its day: back on the list, open; the done row goes.
        _ = e.advance(to: UIFixture.at("2026-03-03 03:00"))
        let next = TodayScreen.rows(ui: ui, state: e.state, now: UIFixture.at("2026-03-03 03:00"), config: config)
        XCTAssertTrue(next.contains { $0.id == "task:walk#1" })
        XCTAssertFalse(next.contains { $0.id == "note:done-walk" })
    }
}
