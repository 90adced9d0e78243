import XCTest
import PetCore

/// docs/domain.md#streak-and-badges: the daily streak and badges (each once, with the instant it was earned).
///
/// Chosen streak rule (documented here): a day with at least one task due grows the streak when
/// every due task was done, breaks it to 0 when one was missed; a day with nothing due leaves it as
/// it is (completing undated tasks does not grow it); a paused day leaves it as it is.
final class StreakTests: XCTestCase {
    private func march(_ d: Int) -> String { d < 10 ? "2026-03-0\(d)" : "2026-03-\(d)" }

    /// Creates a task due at 18:00 on `date` and completes it at 12:00 that day.
    private func doDay(_ h: inout Harness, _ date: String, file: StaticString = #filePath, line: UInt = #line) {
        let id = "t-" + date
        h.ok("task.create", ["task": id, "title": "Daily work", "due": date + " 18:00"], at: h.t(date + " 09:00"),
             file: file, line: line)
        h.ok("task.complete", ["task": id], at: h.t(date + " 12:00"), file: file, line: line)
    }

    func testStreakGrowsOnDaysWithEveryDueTaskDone() {
        var h = Harness(at: "2026-03-02 08:00")
        doDay(&h, "2026-03-02")
        doDay(&h, "2026-03-03")
        doDay(&h, "2026-03-04")
        h.advance(to: "2026-03-05 03:00")
        XCTAssertEqual(h.journal.closedDays.map(\.streak), [1, 2, 3])
        XCTAssertEqual(h.state.streak, 3)
        XCTAssertEqual(h.state.bestStreak, 3)
    }

    func testDayWithNothingDueLeavesTheStreak() {
        var h = Harness(at: "2026-03-02 08:00")
        doDay(&h, "2026-03-02")
        h.ok("task.create", ["task": "undated", "title": "Whenever"], at: h.t("2026-03-03 09:00"))
        h.ok("task.complete", ["task": "undated"])
        h.ok("task.create", ["task": "later", "title": "Later", "due": "2026-03-20 09:00"])
        h.ok("task.complete", ["task": "later"])
        doDay(&h, "2026-03-04")
        h.advance(to: "2026-03-05 03:00")
        XCTAssertEqual(h.journal.closedDays.map(\.due), [1, 0, 1])
        XCTAssertEqual(h.journal.closedDays.map(\.streak), [1, 1, 2])
    }

    func testAMissedDayBreaksTheStreakToZero() {
        var h = Harness(at: "2026-03-02 08:00")
        doDay(&h, "2026-03-02")
        doDay(&h, "2026-03-03")
        doDay(&h, "2026-03-04")
        h.ok("task.create", ["task": "x", "title": "Done", "due": "2026-03-05 18:00"], at: h.t("2026-03-05 09:00"))
        h.ok("task.create", ["task": "y", "title": "Forgotten", "due": "2026-03-05 18:00"])
        h.ok("task.complete", ["task": "x"])
        h.advance(to: "2026-03-06 03:00")
        XCTAssertEqual(h.journal.closedDays.map(\.streak), [1, 2, 3, 0])
        XCTAssertEqual(h.state.bestStreak, 3)
    }

    func testBadgesAreAwardedOnceWithTheirInstant() {
        var h = Harness(at: "2026-03-02 08:00")   // Monday
        for d in 2...8 { doDay(&h, march(d)) }
        h.advance(to: "2026-03-09 03:00")
        XCTAssertEqual(h.state.streak, 7)
        let earned = h.journal.filter { if case .badgeEarned = $0.kind { true } else { false } }
        XCTAssertEqual(earned.badges, ["task-1", "streak-3", "streak-7", "perfect-week"])
        XCTAssertEqual(h.state.badges["task-1"], h.t("2026-03-02 12:00"), "at the first completion")
        XCTAssertEqual(h.state.badges["streak-3"], h.t("2026-03-05 03:00"), "at the close of the third day")
        XCTAssertEqual(h.state.badges["streak-7"], h.t("2026-03-09 03:00"))
        XCTAssertEqual(h.state.badges["perfect-week"], h.t("2026-03-09 03:00"), "Monday to Sunday")
        for e in earned { if case .badgeEarned(let id) = e.kind { XCTAssertEqual(h.state.badges[id], e.at) } }

        // Break the streak and build it again: no badge twice.
        h.ok("task.create", ["task": "miss", "title": "Miss", "due": "2026-03-09 18:00"], at: h.t("2026-03-09 09:00"))
        for d in 10...22 { doDay(&h, march(d)) }
        h.advance(to: "2026-03-23 03:00")
        XCTAssertEqual(h.state.streak, 13)
        XCTAssertEqual(h.journal.badges.filter { $0.hasPrefix("streak") }, ["streak-3", "streak-7"])
        XCTAssertEqual(h.state.perfectWeeks, 2, "9–15 March had a miss; 16–22 March was perfect")
        XCTAssertEqual(h.journal.badges.filter { $0 == "perfect-week" }.count, 1, "the badge stays single")
    }

    func testAWeekWithAMissIsNotPerfect() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "miss", "title": "Miss", "due": "2026-03-04 18:00"])
        for d in 2...8 { doDay(&h, march(d)) }
        h.advance(to: "2026-03-09 03:00")
        XCTAssertNil(h.state.badges["perfect-week"])
        XCTAssertEqual(h.state.perfectWeeks, 0)
    }

    func testAWeekStartedMidweekIsNotPerfect() {
        var h = Harness(at: "2026-03-03 08:00")   // Tuesday
        for d in 3...8 { doDay(&h, march(d)) }
        h.advance(to: "2026-03-09 03:00")
        XCTAssertNil(h.state.badges["perfect-week"])
    }

    func testTaskCountBadges() {
        var h = Harness(at: "2026-03-02 08:00")
        var earned: [String] = []
        for i in 1...10 {
            h.ok("task.create", ["task": "t\(i)", "title": "T"])
            let events = h.ok("task.complete", ["task": "t\(i)"])
            earned += events.badges
            if i == 1 { XCTAssertEqual(events.badges, ["task-1"]) }
            if i == 10 { XCTAssertEqual(events.badges, ["task-10"]); XCTAssertEqual(h.state.badges["task-10"], h.now) }
        }
        // Un-complete and complete again: the badge is not earned twice.
        h.ok("task.uncomplete", ["task": "t10"])
        XCTAssertNotNil(h.state.badges["task-10"], "a badge once earned stays")
        XCTAssertEqual(h.ok("task.complete", ["task": "t10"]).badges, [])
        XCTAssertEqual(earned, ["task-1", "task-10"])
    }

    func testLevel5Badge() {
        var h = Harness(at: "2026-03-02 08:00")
        var events: [Event] = []
        for i in 1...8 {
            h.ok("task.create", ["task": "t\(i)", "title": "Big", "priority": "high", "estimate": "240"])
            let e = h.ok("task.complete", ["task": "t\(i)"])
            if i == 7 {
                XCTAssertEqual(h.state.xp, 504)
                XCTAssertEqual(e.levels, [5])
                XCTAssertEqual(e.badges, ["level-5"])
                XCTAssertEqual(h.state.badges["level-5"], h.now)
            }
            events += e
        }
        XCTAssertEqual(events.levels, [2, 3, 4, 5])
        XCTAssertEqual(events.badges.filter { $0 == "level-5" }.count, 1)
    }

    func testBadgeTableHasUniqueIDs() {
        XCTAssertEqual(Set(Badges.all.map(\.id)).count, Badges.all.count)
        for id in ["task-1", "task-10", "task-100", "task-1000", "streak-3", "streak-7", "streak-21", "streak-66",
                   "streak-100", "perfect-week", "level-5", "level-10", "level-25", "level-50", "level-100", "first-purchase"] {
            XCTAssertNotNil(Badges.kind(id: id), id)
        }
    }
}
