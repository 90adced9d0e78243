import XCTest
import PetCore

/// docs/domain.md#tasks validation: every refused command names the field and changes nothing.
final class TaskValidationTests: XCTestCase {
    private func harness() -> Harness {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "existing", "title": "Existing"])
        return h
    }

    private func create(_ extra: [String: String]) -> [String: String] {
        var f = ["task": "new", "title": "Water the plants"]
        for (k, v) in extra { f[k] = v }
        return f
    }

    func testTitleRules() {
        var h = harness()
        h.refuse("task.create", create(["title": ""]), .field("title"))
        h.refuse("task.create", create(["title": "   "]), .field("title"))
        h.refuse("task.create", create(["title": String(repeating: "x", count: 101)]), .field("title"))
        h.refuse("task.create", create(["title": "two\nlines"]), .field("title"))
        h.refuse("task.create", ["task": "new"], .missing("title"))
        h.ok("task.create", create(["title": String(repeating: "x", count: 100)]))
        XCTAssertEqual(h.task("new")?.title.count, 100)
    }

    func testTitleIsTrimmed() {
        var h = harness()
        h.ok("task.create", create(["title": "  Read  "]))
        XCTAssertEqual(h.task("new")?.title, "Read")
    }

    func testNotesAtMost500() {
        var h = harness()
        h.refuse("task.create", create(["notes": String(repeating: "n", count: 501)]), .field("notes"))
        h.ok("task.create", create(["notes": String(repeating: "n", count: 500)]))
    }

    func testEstimateRange() {
        var h = harness()
        h.refuse("task.create", create(["estimate": "0"]), .field("estimate"))
        h.refuse("task.create", create(["estimate": "1441"]), .field("estimate"))
        h.refuse("task.create", create(["estimate": "ten"]), .field("estimate"))
        h.ok("task.create", create(["estimate": "1440"]))
        h.ok("task.create", create(["task": "other", "estimate": "1"]))
    }

    func testDueMustNotBeBeforeStart() {
        var h = harness()
        h.refuse("task.create", create(["start": "2026-03-02 10:00", "due": "2026-03-02 09:59"]), .field("due"))
        h.refuse("task.create", create(["due": "2026-03-02 07:59"]), .field("due"))   // start defaults to now
        h.refuse("task.create", create(["due": "not a time"]), .field("due"))
        h.ok("task.create", create(["start": "2026-03-02 10:00", "due": "2026-03-02 10:00"]))
        XCTAssertEqual(h.task("new")?.due, h.task("new")?.start)
    }

    func testStartDefaultsToNow() {
        var h = harness()
        h.ok("task.create", create([:]))
        XCTAssertEqual(h.task("new")?.start, h.now)
        XCTAssertEqual(h.task("new")?.priority, .normal)
        XCTAssertEqual(h.task("new")?.category, "Other")
        XCTAssertEqual(h.task("new")?.state, .pending)
    }

    func testRemindersMustBeInTheFutureAndAtMostFive() {
        var h = harness()
        h.refuse("task.create", create(["reminders": "2026-03-02 07:00"]), .field("reminders[0]"))
        h.refuse("task.create", create(["reminders": "+1h,2026-03-02 08:00"]), .field("reminders[1]"))
        h.refuse("task.create", create(["reminders": "+1m,+2m,+3m,+4m,+5m,+6m"]), .field("reminders"))
        h.refuse("task.create", create(["reminders": "+1m,soon"]), .field("reminders[1]"))
        h.ok("task.create", create(["reminders": "+1m,+2m,+3m,+4m,+5m"]))
        XCTAssertEqual(h.task("new")?.reminders.count, 5)
    }

    func testUnknownCategory() {
        var h = harness()
        h.refuse("task.create", create(["category": "Garden"]), .notFound("category", "Garden"))
    }

    func testProjectAtMost40() {
        var h = harness()
        h.refuse("task.create", create(["project": String(repeating: "p", count: 41)]), .field("project"))
        h.refuse("task.create", create(["project": ""]), .field("project"))
        h.ok("task.create", create(["project": String(repeating: "p", count: 40)]))
    }

    func testBadTaskIDs() {
        var h = harness()
        h.refuse("task.create", create(["task": "has space"]), .field("task id"))
        h.refuse("task.create", create(["task": "ünïcode"]), .field("task id"))
        h.refuse("task.create", create(["task": String(repeating: "i", count: 65)]), .field("task id"))
        h.refuse("task.create", create(["task": ""]), .field("task id"))
        h.ok("task.create", create(["task": "ok-1_a.b:c#2"]))
    }

    func testBadCommandID() {
        var h = harness()
        let before = h.state
        XCTAssertEqual(refusal { () throws(DomainError) in _ = try h.send("task.create", ["title": "x"], id: "bad id") }, .field("command id"))
        XCTAssertEqual(h.state, before)
    }

    func testDuplicateTaskID() {
        var h = harness()
        h.refuse("task.create", create(["task": "existing"]), .exists("task", "existing"))
    }

    func testUnknownCommandAndField() {
        var h = harness()
        h.refuse("task.explode", [:], .unknownCommand("task.explode"))
        h.refuse("task.create", create(["colour": "red"]), .field("colour"))
        h.refuse("task.complete", ["task": "existing", "title": "x"], .field("title"))
        h.refuse("task.complete", [:], .missing("task"))
    }

    func testBadPriority() {
        var h = harness()
        h.refuse("task.create", create(["priority": "urgent"]), .field("priority"))
        h.refuse("task.create", create(["priority": "HIGH"]), .field("priority"))
    }

    func testBadRecurrence() {
        var h = harness()
        h.refuse("task.create", create(["repeat": "hourly"]), .field("recurrence"))
        h.refuse("task.create", create(["repeat": "weekdays:mon,funday"]), .field("recurrence"))
        h.refuse("task.create", create(["repeat": "weekdays:"]), .field("recurrence"))
        h.refuse("task.create", create(["repeat": "every:0"]), .field("recurrence"))
        h.refuse("task.create", create(["repeat": "every:366"]), .field("recurrence"))
        h.refuse("task.create", create(["repeat": "daily", "until": "2026-02-30"]), .field("until"))
    }

    func testUntilWithoutRepeat() {
        var h = harness()
        h.refuse("task.create", create(["until": "2026-04-01"]), .field("until"))
    }

    func testUnknownTaskInActions() {
        var h = harness()
        for name in ["task.delete", "task.start", "task.complete", "task.uncomplete"] {
            h.refuse(name, ["task": "ghost"], .notFound("task", "ghost"))
        }
        h.refuse("task.edit", ["task": "ghost", "title": "x"], .notFound("task", "ghost"))
        h.refuse("task.duplicate", ["task": "ghost"], .notFound("task", "ghost"))
        h.refuse("reminder.silence", ["task": "ghost"], .notFound("task", "ghost"))
    }

    func testEditValidation() {
        var h = harness()
        h.refuse("task.edit", ["task": "existing", "title": ""], .field("title"))
        h.refuse("task.edit", ["task": "existing", "notes": String(repeating: "n", count: 501)], .field("notes"))
        h.refuse("task.edit", ["task": "existing", "estimate": "1441"], .field("estimate"))
        h.refuse("task.edit", ["task": "existing", "due": "2026-03-01 12:00"], .field("due"))
        h.refuse("task.edit", ["task": "existing", "reminders": "2026-03-02 07:00"], .field("reminders[0]"))
        h.refuse("task.edit", ["task": "existing", "category": "Nowhere"], .notFound("category", "Nowhere"))
        h.refuse("task.edit", ["task": "existing", "clear": "title"], .field("clear"))
        h.refuse("task.edit", ["task": "existing", "project": String(repeating: "p", count: 41)], .field("project"))
    }
}

/// Runs `body` and returns how it was refused (nil when it was accepted).
func refusal(_ body: () throws(DomainError) -> Void) -> Refusal? {
    do { try body(); return nil } catch { return error.refusal }
}

/// docs/domain.md#tasks actions: create, edit, delete, duplicate, start, complete, un-complete, silence.
final class TaskActionTests: XCTestCase {
    func testCreateStoresEveryField() {
        var h = Harness(at: "2026-03-02 08:00")
        let events = h.ok("task.create", [
            "task": "a", "title": "Essay", "notes": "Chapter 2", "category": "study", "project": "Thesis",
            "priority": "high", "start": "2026-03-02 09:00", "due": "2026-03-03 17:00", "estimate": "90",
            "repeat": "weekdays:mon,wed", "until": "2026-04-01", "reminders": "2026-03-03 16:00",
        ])
        XCTAssertEqual(events.types, ["task.created"])
        XCTAssertEqual(events.first?.commandID, "cmd-1")
        let t = try! XCTUnwrap(h.task("a"))
        XCTAssertEqual(t.title, "Essay")
        XCTAssertEqual(t.notes, "Chapter 2")
        XCTAssertEqual(t.category, "Study", "category matched case-insensitively, stored as named")
        XCTAssertEqual(t.project, "Thesis")
        XCTAssertEqual(t.priority, .high)
        XCTAssertEqual(t.start, h.t("2026-03-02 09:00"))
        XCTAssertEqual(t.due, h.t("2026-03-03 17:00"))
        XCTAssertEqual(t.estimate, 90)
        XCTAssertEqual(t.recurrence, Recurrence(rule: .weekdays([1, 3]), until: CivilDate(year: 2026, month: 4, day: 1)))
        XCTAssertEqual(t.reminders, [h.t("2026-03-03 16:00")])
        XCTAssertEqual(t.createdAt, h.now)
    }

    func testTaskIDDefaultsToCommandID() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["title": "No id"], id: "phone-42")
        XCTAssertEqual(h.task("phone-42")?.title, "No id")
    }

    func testEditChangesFieldsAndClears() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-03 12:00", "project": "P", "estimate": "30"])
        h.ok("task.edit", ["task": "a", "title": "A2", "priority": "low", "category": "Home"])
        XCTAssertEqual(h.task("a")?.title, "A2")
        XCTAssertEqual(h.task("a")?.priority, .low)
        XCTAssertEqual(h.task("a")?.category, "Home")
        h.ok("task.edit", ["task": "a", "clear": "due,project,estimate"])
        XCTAssertNil(h.task("a")?.due)
        XCTAssertNil(h.task("a")?.project)
        XCTAssertNil(h.task("a")?.estimate)
    }

    func testEditKeepsAnAlreadyPassedReminder() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "reminders": "2026-03-02 09:00"])
        h.advance(to: "2026-03-02 09:00")
        XCTAssertEqual(h.task("a")?.remindersDone, [0])
        // Keeping the passed reminder is allowed and keeps its done mark; a new one must be in the future.
        h.ok("task.edit", ["task": "a", "reminders": "2026-03-02 09:00,2026-03-02 11:00"])
        XCTAssertEqual(h.task("a")?.remindersDone, [0])
        h.refuse("task.edit", ["task": "a", "reminders": "2026-03-02 08:30"], .field("reminders[0]"))
    }

    func testOnlyOpenTasksCanBeEdited() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A"])
        h.ok("task.complete", ["task": "a"])
        h.refuse("task.edit", ["task": "a", "title": "B"], .state("task", "a"))
    }

    func testDelete() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A"])
        XCTAssertEqual(h.ok("task.delete", ["task": "a"]).types, ["task.deleted"])
        XCTAssertNil(h.task("a"))
        h.refuse("task.delete", ["task": "a"], .notFound("task", "a"))
    }

    func testDuplicateCopiesFieldsAsANewPendingTask() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "notes": "n", "category": "Work", "project": "P",
                             "priority": "high", "due": "2026-03-03 12:00", "estimate": "45",
                             "reminders": "2026-03-02 09:00,2026-03-03 11:00"])
        h.ok("task.complete", ["task": "a"])
        h.advance(to: "2026-03-02 10:00")
        h.ok("task.duplicate", ["task": "a", "new": "b"])
        let a = h.task("a")!, b = try! XCTUnwrap(h.task("b"))
        XCTAssertEqual(b.state, .pending)
        XCTAssertEqual([b.title, b.notes, b.category], [a.title, a.notes, a.category])
        XCTAssertEqual(b.project, a.project)
        XCTAssertEqual(b.priority, a.priority)
        XCTAssertEqual(b.due, a.due)
        XCTAssertEqual(b.estimate, a.estimate)
        XCTAssertEqual(b.reminders, [h.t("2026-03-03 11:00")], "passed reminders are dropped")
        XCTAssertEqual(b.start, h.now)
        XCTAssertNil(b.reward)
        h.refuse("task.duplicate", ["task": "a", "new": "b"], .exists("task", "b"))
        // Without a new id the command id names the copy.
        h.ok("task.duplicate", ["task": "a"], id: "dup-1")
        XCTAssertNotNil(h.task("dup-1"))
    }

    func testStartOnlyFromPending() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A"])
        XCTAssertEqual(h.ok("task.start", ["task": "a"]).types, ["task.started"])
        XCTAssertEqual(h.task("a")?.state, .inProgress)
        h.refuse("task.start", ["task": "a"], .state("task", "a"))
        h.ok("task.complete", ["task": "a"])
        XCTAssertEqual(h.task("a")?.state, .completed)
        h.refuse("task.start", ["task": "a"], .state("task", "a"))
    }

    func testCompleteOnlyOnce() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A"])
        let events = h.ok("task.complete", ["task": "a"])
        XCTAssertEqual(events.types.prefix(1), ["task.completed"])
        XCTAssertEqual(events.badges, ["task-1"])
        XCTAssertEqual(h.task("a")?.completedAt, h.now)
        let coins = h.state.coins
        h.refuse("task.complete", ["task": "a"], .state("task", "a"))
        XCTAssertEqual(h.state.coins, coins)
    }

    func testUncompleteOnlyTheSameDay() {
        var h = Harness(at: "2026-03-02 20:00")
        h.ok("task.create", ["task": "a", "title": "A"])
        h.ok("task.complete", ["task": "a"])
        h.refuse("task.uncomplete", ["task": "b"], .notFound("task", "b"))
        // 02:59 the next calendar day is still the same day (day start 03:00).
        h.advance(to: "2026-03-03 02:59")
        var copy = h
        copy.ok("task.uncomplete", ["task": "a"])
        XCTAssertEqual(copy.state.coins, 0)
        // From 03:00 on it is another day.
        h.advance(to: "2026-03-03 03:00")
        h.refuse("task.uncomplete", ["task": "a"], .state("task", "a"))
        XCTAssertEqual(h.state.coins, 10)
    }

    func testUncompleteRequiresACompletedTask() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A"])
        h.refuse("task.uncomplete", ["task": "a"], .state("task", "a"))
    }

    /// Coins only leave the balance by un-completing (the store is not built yet), and each
    /// completion's reward is still in the balance, so `insufficientCoins` cannot be reached through
    /// commands. A journal in which the coins were taken out another way (a spend) shows the guard.
    func testUncompleteRefusedWhenTheRewardWasAlreadySpent() throws {
        let start = wall("2026-03-02 08:00")
        let (engine, genesis) = try Engine.create(at: start, zoneID: "UTC", zones: testZones)
        var task = try XCTUnwrap(try engine.decide(Command(id: "c1", at: start, action: .createTask(TaskDraft(id: "a", title: "A"))))
            .created.first)
        task.state = .pending
        let journal = [
            genesis,
            Event(at: start, commandID: "c1", kind: .taskCreated(task)),
            Event(at: start + 60, commandID: "c2", kind: .taskCompleted(id: "a", timing: .onTime, reward: Reward(coins: 10, xp: 20))),
            // Stands for a later spend of 10 coins.
            Event(at: start + 120, commandID: "c3", kind: .taskUncompleted(id: "spent", reward: Reward(coins: 10, xp: 0))),
        ]
        let e = try Engine(journal: journal, zones: testZones)
        XCTAssertEqual(e.state.coins, 0)
        let before = e.state
        XCTAssertEqual(refusal { () throws(DomainError) in _ = try e.decide(Command(id: "c4", at: start + 180, action: .uncompleteTask(id: "a"))) },
                       .coins(needed: 10, balance: 0))
        XCTAssertEqual(e.state, before)
    }

    func testSilenceOneReminderOrAll() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "reminders": "+1h,+2h,+3h"])
        h.refuse("reminder.silence", ["task": "a", "index": "3"], .field("index"))
        XCTAssertEqual(h.ok("reminder.silence", ["task": "a", "index": "1"]).kinds, [.reminderSilenced(taskID: "a", index: 1)])
        h.refuse("reminder.silence", ["task": "a", "index": "1"], .state("reminder", "a/1"))
        XCTAssertEqual(h.ok("reminder.silence", ["task": "a"]).kinds,
                       [.reminderSilenced(taskID: "a", index: 0), .reminderSilenced(taskID: "a", index: 2)])
        h.refuse("reminder.silence", ["task": "a"], .state("task", "a"))
        // Silenced reminders never fire.
        XCTAssertEqual(h.advance(to: "2026-03-02 12:00").remindersDue, [])
        XCTAssertEqual(h.advance(to: "2026-03-02 12:00").remindersMissed, [])
    }

    func testReminderFiresOnceWhenDue() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "reminders": "2026-03-02 09:00"])
        XCTAssertEqual(h.engine.nextWakeup(), h.t("2026-03-02 09:00"))
        XCTAssertEqual(h.advance(to: "2026-03-02 08:59:59"), [])
        let events = h.advance(to: "2026-03-02 09:00")
        XCTAssertEqual(events.remindersDue, ["a/0"])
        XCTAssertEqual(events.first?.at, h.t("2026-03-02 09:00"))
        XCTAssertEqual(Lines.line(key: events.saidKeys.first ?? "")?.kind, .nudge)
        XCTAssertEqual(h.state.lastReminder?.taskID, "a")
        XCTAssertEqual(h.state.lastReminder?.at, h.t("2026-03-02 09:00"))
        XCTAssertEqual(h.state.lastReminder?.missed, false)
        XCTAssertEqual(h.advance(to: "2026-03-02 10:00").remindersDue, [])
    }

    func testCompletedTaskRemindersDoNotFire() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "reminders": "2026-03-02 09:00"])
        h.ok("task.complete", ["task": "a"])
        let events = h.advance(to: "2026-03-02 10:00")
        XCTAssertEqual(events.remindersDue + events.remindersMissed, [])
    }
}

/// docs/domain.md#tasks categories: defaults, add/rename/delete up to 32, delete moves tasks to Other.
final class CategoryTests: XCTestCase {
    func testDefaults() {
        let h = Harness(at: "2026-03-02 08:00")
        XCTAssertEqual(h.state.categories, ["Home", "Study", "Work", "Exercise", "Personal", "Other"])
    }

    func testAddUpTo32() {
        var h = Harness(at: "2026-03-02 08:00")
        for i in 7...32 { h.ok("category.add", ["name": "Cat \(i)"]) }
        XCTAssertEqual(h.state.categories.count, 32)
        h.refuse("category.add", ["name": "One too many"], .limit("categories", 32))
    }

    func testNamesAreUniqueIgnoringCase() {
        var h = Harness(at: "2026-03-02 08:00")
        h.refuse("category.add", ["name": "home"], .exists("category", "home"))
        h.refuse("category.add", ["name": "  WORK "], .exists("category", "WORK"))
        h.ok("category.add", ["name": "Garden"])
        h.refuse("category.rename", ["name": "garden", "to": "HOME"], .exists("category", "Home"))
        // Renaming to a different capitalisation of itself is fine.
        h.ok("category.rename", ["name": "garden", "to": "GARDEN"])
        XCTAssertTrue(h.state.categories.contains("GARDEN"))
    }

    func testNameLength() {
        var h = Harness(at: "2026-03-02 08:00")
        h.refuse("category.add", ["name": ""], .field("category"))
        h.refuse("category.add", ["name": String(repeating: "c", count: 25)], .field("category"))
        h.ok("category.add", ["name": String(repeating: "c", count: 24)])
    }

    func testRenameMovesTasks() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "category": "Home"])
        h.ok("category.rename", ["name": "home", "to": "House"])
        XCTAssertEqual(h.task("a")?.category, "House")
        XCTAssertEqual(h.state.categories.first, "House")
        h.refuse("category.rename", ["name": "Home", "to": "X"], .notFound("category", "Home"))
    }

    func testDeleteMovesTasksToOther() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "category": "Work"])
        h.ok("task.create", ["task": "b", "title": "B", "category": "Home"])
        h.ok("category.delete", ["name": "WORK"])
        XCTAssertEqual(h.task("a")?.category, "Other")
        XCTAssertEqual(h.task("b")?.category, "Home")
        XCTAssertFalse(h.state.categories.contains("Work"))
        h.refuse("category.delete", ["name": "Work"], .notFound("category", "Work"))
        h.refuse("task.create", ["task": "c", "title": "C", "category": "Work"], .notFound("category", "Work"))
    }

    func testOtherCannotBeDeletedOrRenamed() {
        var h = Harness(at: "2026-03-02 08:00")
        h.refuse("category.delete", ["name": "other"], .state("category", "Other"))
        h.refuse("category.rename", ["name": "Other", "to": "Misc"], .state("category", "Other"))
    }
}

/// docs/domain.md#tasks: lists sort by due, then priority, then creation; filter by category/project/state.
final class TaskListTests: XCTestCase {
    func testOrderDueThenPriorityThenCreation() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "undated-low", "title": "x", "priority": "low"])
        h.ok("task.create", ["task": "late-due", "title": "x", "due": "2026-03-05 10:00"])
        h.advance(by: 60)
        h.ok("task.create", ["task": "undated-high", "title": "x", "priority": "high"])
        h.ok("task.create", ["task": "early-normal", "title": "x", "due": "2026-03-03 10:00"])
        h.advance(by: 60)
        h.ok("task.create", ["task": "early-high", "title": "x", "due": "2026-03-03 10:00", "priority": "high"])
        h.ok("task.create", ["task": "early-normal-2", "title": "x", "due": "2026-03-03 10:00"])
        h.ok("task.create", ["task": "undated-high-2", "title": "x", "priority": "high"])
        XCTAssertEqual(h.state.openTasks().map(\.id), [
            "early-high", "early-normal", "early-normal-2", "late-due",
            "undated-high", "undated-high-2", "undated-low",
        ])
        XCTAssertEqual(h.state.nextTask?.id, "early-high")
    }

    func testFilters() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("task.create", ["task": "a", "title": "x", "category": "Work", "project": "P"])
        h.ok("task.create", ["task": "b", "title": "x", "category": "Work"])
        h.ok("task.create", ["task": "c", "title": "x", "category": "Home", "project": "P"])
        h.ok("task.complete", ["task": "c"])
        XCTAssertEqual(h.state.taskList(TaskFilter(category: "Work")).map(\.id), ["a", "b"])
        XCTAssertEqual(h.state.taskList(TaskFilter(project: "P")).map(\.id), ["a", "c"])
        XCTAssertEqual(h.state.taskList(TaskFilter(state: .completed)).map(\.id), ["c"])
        XCTAssertEqual(h.state.openTasks(TaskFilter(project: "P")).map(\.id), ["a"])
        XCTAssertEqual(h.state.taskList(TaskFilter(category: "Work", project: "P", state: .pending)).map(\.id), ["a"])
    }
}
