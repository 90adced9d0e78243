import XCTest
import PetCore
@testable import PetUI

/// A pet driven through the engine, as the device does, for navigation tests.
struct NavWorld {
    var engine: Engine
    var now: Instant
    var n = 0
    var state: PetState { engine.state }

    static let t0 = Instant(1_775_462_400)   // Mon 2026-04-06 08:00 UTC

    init() throws {
        now = NavWorld.t0
        engine = try Engine.create(at: now, zoneID: "UTC", zones: { $0 == "UTC" ? ZoneRules.utc : nil }).0
    }

    mutating func send(_ name: String, _ fields: [String: String]) throws {
        n += 1
        try apply(try CommandParser.parse(name: name, fields: fields, id: "w\(n)", at: now, clock: state.clock,
                                          current: state.device))
    }

    mutating func send(_ action: Action) throws {
        n += 1
        try apply(Command(id: "w\(n)", at: now, action: action))
    }

    @discardableResult
    mutating func apply(_ c: Command) throws -> [Event] {
        var next = engine
        var events = next.advance(to: c.at)
        let decided = try next.decide(c)
        next.apply(decided)
        events += decided
        engine = next
        return events
    }

    mutating func pass(_ seconds: Int64) { now = now + seconds; _ = engine.advance(to: now) }
}

final class NavigatorTests: XCTestCase {
    func press(_ i: NavInput) -> NavPress { NavPress(i) }
    func grown(_ i: NavInput) -> NavPress { NavPress(i, extendsTap: true, isPress: false) }

    func twoTasks() throws -> NavWorld {
        var w = try NavWorld()
        try w.send("task.create", ["task": "tea", "title": "Tea", "due": "today 10:00"])
        try w.send("task.create", ["task": "cake", "title": "Cake", "due": "today 12:00"])
        return w
    }

    func testBootEndsWithAnyPressWhichOnlyDismissesIt() throws {
        let w = try twoTasks()
        var nav = Navigator(state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.screen, .boot)
        XCTAssertEqual(nav.handle(press(.select), state: w.state, now: w.now), [])
        XCTAssertEqual(nav.ui.screen, .home)
        XCTAssertNil(nav.ui.menu, "the boot-ending press does nothing else")
        XCTAssertEqual(nav.handle(grown(.holdSelect), state: w.state, now: w.now), [], "nor does its hold")

        var timed = Navigator(state: w.state, now: w.now)
        timed.tick(state: w.state, now: w.now + 2)
        XCTAssertEqual(timed.ui.screen, .boot)
        timed.tick(state: w.state, now: w.now + 3)
        XCTAssertEqual(timed.ui.screen, .home)
    }

    func testCompletingTheNextTaskFromPowerOnOrSleepTakesTwoPresses() throws {
        var w = try twoTasks()
        var nav = Navigator(state: w.state, now: w.now)
        // press 1: end the boot screen; press 2: hold B (a tap, then the long press).
        _ = nav.handle(press(.select), state: w.state, now: w.now)
        _ = nav.handle(press(.select), state: w.state, now: w.now + 1)
        XCTAssertEqual(nav.ui.menu, 0, "the tap opens the menu…")
        let effects = nav.handle(grown(.holdSelect), state: w.state, now: w.now + 1)
        // The first completion by hold also stores that the first-run tip is learned.
        var learned = w.state.device; learned.holdTipDone = true
        XCTAssertEqual(effects, [.send(.setDevice(learned)), .send(.completeTask(id: "tea"))])
        XCTAssertNil(nav.ui.menu, "…and the hold undoes it")

        // From sleep: the wake press, then hold B.
        w.pass(600)
        nav.tick(state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.power, .asleep)
        XCTAssertEqual(nav.handle(press(.back), state: w.state, now: w.now), [])
        XCTAssertEqual(nav.ui.power, .awake)
        _ = nav.handle(press(.select), state: w.state, now: w.now)
        XCTAssertEqual(nav.handle(grown(.holdSelect), state: w.state, now: w.now).last, .send(.completeTask(id: "tea")))
    }

    func testIdleHomeDimAndSleepOnAVirtualClock() throws {
        var w = try twoTasks()
        var nav = Navigator(state: w.state, now: w.now, boot: false)
        let t = w.now
        _ = nav.handle(press(.select), state: w.state, now: t)        // menu
        while nav.ui.menu.map({ NavRows.menu[$0] }) != .today { _ = nav.handle(press(.next), state: w.state, now: t) }
        _ = nav.handle(press(.select), state: w.state, now: t)        // Today
        XCTAssertEqual(nav.ui.screen, .today)
        nav.tick(state: w.state, now: t + 29)
        XCTAssertEqual(nav.ui.screen, .today)
        nav.tick(state: w.state, now: t + 30)
        XCTAssertEqual(nav.ui.screen, .home)
        XCTAssertEqual(nav.ui.backStack, [])
        for (s, p) in [(119, PowerState.awake), (120, .dim), (299, .dim), (300, .asleep), (9999, .asleep)] {
            nav.tick(state: w.state, now: t + Int64(s))
            XCTAssertEqual(nav.ui.power, p, "after \(s) s")
        }
        // Settable: dim after 60 s, sleep after 90 s.
        var d = w.state.device
        d.dimAfter = 60; d.sleepAfter = 90
        try w.send(.setDevice(d))
        var nav2 = Navigator(state: w.state, now: t, boot: false)
        nav2.tick(state: w.state, now: t + 59)
        XCTAssertEqual(nav2.ui.power, .awake)
        nav2.tick(state: w.state, now: t + 60)
        XCTAssertEqual(nav2.ui.power, .dim)
        nav2.tick(state: w.state, now: t + 90)
        XCTAssertEqual(nav2.ui.power, .asleep)
    }

    func testTheFirstPressOnADimOrSleepingScreenOnlyWakesIt() throws {
        let w = try twoTasks()
        for idle: Int64 in [150, 400] {
            var nav = Navigator(state: w.state, now: w.now, boot: false)
            let t = w.now + idle
            XCTAssertEqual(nav.handle(press(.select), state: w.state, now: t), [])
            XCTAssertNil(nav.ui.menu)
            XCTAssertEqual(nav.ui.power, .awake)
            XCTAssertEqual(nav.handle(grown(.holdSelect), state: w.state, now: t), [], "the wake press's hold is ignored")
            XCTAssertEqual(nav.handle(press(.next), state: w.state, now: t + 1), [])
            XCTAssertEqual(nav.ui.cursor, 1, "the next press acts")
        }
    }

    func testLongerGesturesUndoTheirTap() throws {
        let w = try twoTasks()
        var nav = Navigator(state: w.state, now: w.now, boot: false)
        // double tap A on three buttons: previous, then next growing out of it → one down.
        _ = nav.handle(press(.previous), state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.cursor, NavRows.home(w.state).count - 1, "A wraps to the card's last item")
        _ = nav.handle(NavPress(.next, extendsTap: true), state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.cursor, 1, "undo (0), then next (1)")
        // hold A starts the shown task; its tap's move is undone first.
        _ = nav.handle(press(.previous), state: w.state, now: w.now)
        XCTAssertEqual(nav.handle(grown(.holdPrevious), state: w.state, now: w.now), [.send(.startTask(id: "cake"))])
        XCTAssertEqual(nav.ui.cursor, 1)
        // double B pets, and the menu its tap opened is closed again.
        _ = nav.handle(press(.select), state: w.state, now: w.now)
        XCTAssertEqual(nav.handle(NavPress(.doubleSelect, extendsTap: true), state: w.state, now: w.now), [.send(.petThePet)])
        XCTAssertNil(nav.ui.menu)
        // The chord undoes its tap of A and does nothing.
        _ = nav.handle(press(.previous), state: w.state, now: w.now)
        XCTAssertEqual(nav.handle(NavPress(.chord, extendsTap: true), state: w.state, now: w.now), [])
        XCTAssertEqual(nav.ui.cursor, 1)
        XCTAssertEqual(nav.handle(NavPress(.reset, isPress: false), state: w.state, now: w.now), [.factoryReset])
        // C goes back to the first task.
        _ = nav.handle(press(.back), state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.cursor, 0)
    }

    /// docs/navigation.md, "A tap that waits": a tap of select that would open something waits
    /// where the same key's double tap or hold does something, so those never show it first.
    func testASelectThatWouldOpenSomethingWaitsForItsDoubleTapOrHold() throws {
        let w = try twoTasks()
        var nav = Navigator(state: w.state, now: w.now, boot: false)
        let tapB = NavPress(.select, grows: [.doubleSelect, .holdSelect])
        let home = nav.view
        // Tap B on home: nothing changes yet (double B pets, hold B completes here).
        XCTAssertEqual(nav.handle(tapB, state: w.state, now: w.now), [])
        XCTAssertEqual(nav.pendingTap, .select)
        XCTAssertNil(nav.ui.menu)
        XCTAssertEqual(nav.view, home, "the screen is not redrawn for a tap that may grow")
        // It grows into a double tap: the pet is petted, the menu never opened.
        XCTAssertEqual(nav.handle(NavPress(.doubleSelect, extendsTap: true), state: w.state, now: w.now), [.send(.petThePet)])
        XCTAssertNil(nav.pendingTap)
        XCTAssertNil(nav.ui.menu)
        XCTAssertEqual(nav.commitTap(state: w.state, now: w.now), [], "nothing waits any more")
        XCTAssertNil(nav.ui.menu)
        // Into a hold: the shown task is completed, the menu never opened.
        _ = nav.handle(tapB, state: w.state, now: w.now)
        XCTAssertTrue(nav.handle(grown(.holdSelect), state: w.state, now: w.now).contains(.send(.completeTask(id: "tea"))))
        XCTAssertNil(nav.pendingTap)
        XCTAssertNil(nav.ui.menu)
        // It stays a tap: the device commits it and the menu opens, once.
        _ = nav.handle(tapB, state: w.state, now: w.now)
        XCTAssertEqual(nav.commitTap(state: w.state, now: w.now), [])
        XCTAssertEqual(nav.ui.menu, 0)
        XCTAssertNil(nav.pendingTap)
        // Another press before the window ends: the tap acts first, then the press.
        _ = nav.handle(press(.back), state: w.state, now: w.now)
        XCTAssertNil(nav.ui.menu)
        _ = nav.handle(tapB, state: w.state, now: w.now)
        _ = nav.handle(NavPress(.previous, grows: [.next, .holdPrevious]), state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.menu, NavRows.menu.count - 1, "the menu opened, then A moved up (a ring)")
        XCTAssertNil(nav.pendingTap)
        // In the menu, B on Stats (no hold job) opens at once; on Focus (hold B starts) it waits.
        _ = nav.handle(press(.next), state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.menu.map { NavRows.menu[$0] }, .stats)
        _ = nav.handle(tapB, state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.screen, .stats)
        XCTAssertNil(nav.pendingTap)
        // Back never waits (its double tap, home, goes the same way): C acts at once.
        _ = nav.handle(NavPress(.back, grows: [.doubleBack, .holdBack]), state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.screen, .home)
        XCTAssertEqual(nav.ui.menu.map { NavRows.menu[$0] }, .stats)
        _ = nav.handle(press(.next), state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.menu.map { NavRows.menu[$0] }, .focus)
        _ = nav.handle(tapB, state: w.state, now: w.now)
        XCTAssertEqual(nav.pendingTap, .select)
        XCTAssertEqual(nav.handle(grown(.holdSelect), state: w.state, now: w.now).count, 1, "hold B starts a session")
        XCTAssertEqual(nav.ui.screen, .focus, "shown once, by the hold")
        // A tap whose key has no longer gesture (a board without them) acts at once.
        nav = Navigator(state: w.state, now: w.now, boot: false)
        _ = nav.handle(press(.select), state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.menu, 0)
        // A tap left waiting (no device to commit it) is dropped when idle sends the screen home.
        nav = Navigator(state: w.state, now: w.now, boot: false)
        _ = nav.handle(press(.previous), state: w.state, now: w.now)
        _ = nav.handle(tapB, state: w.state, now: w.now)
        nav.tick(state: w.state, now: w.now + 30)
        XCTAssertNil(nav.pendingTap)
        XCTAssertEqual(nav.commitTap(state: w.state, now: w.now + 30), [])
        XCTAssertNil(nav.ui.menu)
        // The first press on a dim screen only wakes it: nothing waits.
        nav = Navigator(state: w.state, now: w.now, boot: false)
        nav.tick(state: w.state, now: w.now + 200)
        XCTAssertEqual(nav.ui.power, .dim)
        _ = nav.handle(tapB, state: w.state, now: w.now + 200)
        XCTAssertNil(nav.pendingTap)
        XCTAssertNil(nav.ui.menu)
    }

    func testUrgeLogInThreePressesFromHome() throws {
        var w = try NavWorld()
        try w.send("quit.start", ["goal-days": "5"])
        var nav = Navigator(state: w.state, now: w.now, boot: false)
        _ = nav.handle(press(.back), state: w.state, now: w.now)
        _ = nav.handle(grown(.holdBack), state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.screen, .urgeLog)
        let first = try XCTUnwrap(nav.ui.urgeTriggers.first)
        _ = nav.handle(press(.select), state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.urgeOutcome, 0)
        let effects = nav.handle(press(.select), state: w.state, now: w.now)
        XCTAssertEqual(effects, [.send(.quit(.log(trigger: first, outcome: .resisted, thoughts: nil)))])
        XCTAssertEqual(nav.ui.screen, .home)
    }

    func testToastsAndTheReminderOverlayComeFromEventsAndExpire() throws {
        var w = try twoTasks()
        var nav = Navigator(state: w.state, now: w.now, boot: false)
        let events = try w.apply(Command(id: "x", at: w.now, action: .completeTask(id: "tea")))
        nav.note(events: events, state: w.state, now: w.now)
        XCTAssertTrue(nav.ui.toasts.contains { $0.kind == .reward && $0.text == "+10 coins" }, "\(nav.ui.toasts)")
        nav.tick(state: w.state, now: w.now + 2)
        XCTAssertFalse(nav.ui.toasts.isEmpty)
        nav.tick(state: w.state, now: w.now + 3)
        XCTAssertTrue(nav.ui.toasts.isEmpty, "toasts show 3 s (in the hint bar's strip)")

        // A reminder lights a sleeping screen and shows until dismissed or 15 minutes pass.
        let due = w.now + 1000
        nav.tick(state: w.state, now: due)
        XCTAssertEqual(nav.ui.power, .asleep)
        nav.note(events: [Event(at: due, kind: .reminderDue(taskID: "cake", index: 0))], state: w.state, now: due)
        XCTAssertEqual(nav.ui.reminder?.ref, "cake")
        XCTAssertEqual(nav.ui.power, .awake)
        var kept = nav
        _ = nav.handle(press(.select), state: w.state, now: due + 5)
        XCTAssertNil(nav.ui.reminder)
        XCTAssertEqual(nav.ui.screen, .taskDetail, "B opens what it is about")
        XCTAssertEqual(nav.ui.detailTaskID, "cake")
        kept.tick(state: w.state, now: due + 899)
        XCTAssertNotNil(kept.ui.reminder)
        kept.tick(state: w.state, now: due + 900)
        XCTAssertNil(kept.ui.reminder)
    }

    /// A phone pairing long after the last button press: the code opens the pairing screen and
    /// keeps it; when the code goes (paired, refused, locked out) the screen stays for the idle
    /// time from then, so the owner can read what happened, and then goes home.
    func testThePairingScreenStaysAfterItsCodeGoesForTheIdleTime() throws {
        let w = try NavWorld()
        var nav = Navigator(state: w.state, now: w.now, boot: false)
        let later = w.now + 600
        nav.tick(state: w.state, now: later)
        nav.setPairingCode("123456", now: later)
        nav.tick(state: w.state, now: later + 120)
        XCTAssertEqual(nav.ui.screen, .pairing, "a code keeps the screen open however long")
        let gone = later + 125
        nav.setPairingCode(nil, now: gone)
        nav.tick(state: w.state, now: gone + nav.config.homeAfter - 1)
        XCTAssertEqual(nav.ui.screen, .pairing, "what happened can be read")
        nav.tick(state: w.state, now: gone + nav.config.homeAfter)
        XCTAssertEqual(nav.ui.screen, .home)
    }

    func testMissedBannerCountsRemindersMissedSinceBootUntilC() throws {
        let w = try NavWorld()
        var before = w.state
        var nav = Navigator(state: before, now: w.now, boot: false)
        before.remindersMissed += 3
        nav.tick(state: before, now: w.now)
        XCTAssertEqual(nav.ui.missedBanner, 3)
        _ = nav.handle(press(.back), state: before, now: w.now)
        XCTAssertEqual(nav.ui.missedBanner, 0)
    }

    func testSettingValuesStepAndWrap() {
        XCTAssertEqual(Navigator.step(.dayStart, 23, up: true), 0)
        XCTAssertEqual(Navigator.step(.dayStart, 0, up: false), 23)
        XCTAssertEqual(Navigator.step(.quietStart, 1410, up: true), 0)
        XCTAssertEqual(Navigator.step(.quietStart, 0, up: false), 1410)
        XCTAssertEqual(Navigator.step(.quietEnd, 425, up: true), 450)
        XCTAssertEqual(Navigator.step(.quietEnd, 425, up: false), 420)
        XCTAssertEqual(Navigator.step(.brightness, 100, up: true), 10)
        XCTAssertEqual(Navigator.step(.brightness, 10, up: false), 100)
        XCTAssertEqual(Navigator.step(.dimAfter, 120, up: true), 300)
        XCTAssertEqual(Navigator.step(.dimAfter, 120, up: false), 60)
        XCTAssertEqual(Navigator.step(.sleepAfter, 7200, up: true), 60)
        XCTAssertEqual(Navigator.step(.sleepAfter, 100, up: false), 60)
    }

    func testEveryListRowMatchesWhatTheScreensDraw() throws {
        var w = try twoTasks()
        try w.send("habit.add", ["habit": "read", "text": "Read"])
        XCTAssertEqual(NavRows.today(w.state), [.task(id: "tea"), .task(id: "cake"), .habit(item: "read"), .habit(item: "movement")])
        XCTAssertEqual(NavRows.shop(tab: 0).first?.id, "apple")
        XCTAssertEqual(NavRows.settings(hasChord: true).count, 9)
        XCTAssertEqual(NavRows.settings(hasChord: false).last, .factoryReset)
        XCTAssertEqual(NavRows.menu.count, ScreenID.allCases.count - 4, "every screen but boot, home, task detail and first run")
    }

    // MARK: - Home's card: open tasks, then today's unchecked habits (docs/navigation.md)

    func testHomesCardStepsThroughTasksThenUncheckedHabitsAndHoldSelectChecksOne() throws {
        var w = try twoTasks()
        try w.send("habit.add", ["habit": "read", "text": "Read"])
        XCTAssertEqual(NavRows.home(w.state), [.task(id: "tea"), .task(id: "cake"), .habit(item: "read"), .habit(item: "movement")])
        var nav = Navigator(state: w.state, now: w.now, boot: false)
        XCTAssertEqual(nav.handle(press(.previous), state: w.state, now: w.now), [])
        XCTAssertEqual(nav.ui.cursor, 3, "A wraps from the first task to the last unchecked habit")
        XCTAssertEqual(nav.handle(press(.previous), state: w.state, now: w.now), [])
        XCTAssertEqual(nav.handle(grown(.holdPrevious), state: w.state, now: w.now), [], "nothing to start on a habit")
        XCTAssertEqual(nav.ui.cursor, 3, "the hold undid its tap")
        _ = nav.handle(press(.previous), state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.cursor, 2)
        _ = nav.handle(press(.select), state: w.state, now: w.now)
        XCTAssertEqual(nav.handle(grown(.holdSelect), state: w.state, now: w.now).last, .send(.habit(.check(item: "read"))))
        try w.send(.habit(.check(item: "read")))
        nav.tick(state: w.state, now: w.now)
        XCTAssertEqual(NavRows.home(w.state), [.task(id: "tea"), .task(id: "cake"), .habit(item: "movement")])
        // No open task: the empty card first (cursor 0 as before), then the habits.
        try w.send(.completeTask(id: "tea"))
        try w.send(.completeTask(id: "cake"))
        XCTAssertEqual(NavRows.home(w.state), [nil, .habit(item: "movement")])
        nav = Navigator(state: w.state, now: w.now, boot: false)
        _ = nav.handle(press(.select), state: w.state, now: w.now)
        XCTAssertEqual(nav.handle(grown(.holdSelect), state: w.state, now: w.now), [], "nothing shown, nothing done")
    }

    // MARK: - Unpairing from the device (docs/protocol.md#pairing)

    func testHoldSelectOnAPairedPhoneUnpairsItAndOnlyWhenNoCodeShows() throws {
        var w = try NavWorld()
        try w.send(.phone(.pair(id: "phone-1", name: "Kitchen tablet", tokenHash: String(repeating: "a", count: 64))))
        try w.send(.phone(.pair(id: "phone-2", name: "Anna's phone", tokenHash: String(repeating: "b", count: 64))))
        var nav = Navigator(state: w.state, now: w.now, boot: false)
        _ = nav.handle(press(.select), state: w.state, now: w.now)                   // the menu
        while nav.ui.menu.map({ NavRows.menu[$0] }) != .pairing {
            _ = nav.handle(press(.next), state: w.state, now: w.now)
        }
        _ = nav.handle(press(.select), state: w.state, now: w.now)
        XCTAssertEqual(nav.ui.screen, .pairing)
        XCTAssertEqual(nav.view.list?.rows.map(\.id), ["phone:phone-1", "phone:phone-2"])
        _ = nav.handle(press(.next), state: w.state, now: w.now)
        XCTAssertEqual(nav.view.list?.selectedRow?.id, "phone:phone-2")
        XCTAssertTrue(nav.view.hintText.contains("unpair"), nav.view.hintText)
        // Holding B: its tap first (select does nothing here), then the hold grows out of it.
        XCTAssertEqual(nav.handle(press(.select), state: w.state, now: w.now), [])
        let effects = nav.handle(grown(.holdSelect), state: w.state, now: w.now)
        XCTAssertEqual(effects, [.send(.phone(.unpair(id: "phone-2")))])
        try w.send(.phone(.unpair(id: "phone-2")))
        nav.tick(state: w.state, now: w.now)
        XCTAssertEqual(nav.view.list?.rows.map(\.id), ["phone:phone-1"])
        // While a pairing code shows, the list (and unpairing) is not there.
        nav.setPairingCode("123456")
        nav.tick(state: w.state, now: w.now)
        _ = nav.handle(press(.select), state: w.state, now: w.now)
        XCTAssertEqual(nav.handle(grown(.holdSelect), state: w.state, now: w.now), [])
    }
}
