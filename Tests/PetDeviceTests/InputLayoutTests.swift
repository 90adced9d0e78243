import XCTest
import PetCore
import PetStore
import PetUI
@testable import PetDevice

final class InputLayoutTests: XCTestCase {
    // MARK: - The maps, byte for byte (docs/navigation.md shows the same tables)

    /// The recognizer keeps each key's state at the key's place in `Button.allCases`: every key has
    /// its own place, and a long press of each is reported on its own, in that order.
    func testTheRecognizerKeepsEveryKeyApart() {
        XCTAssertEqual(Button.allCases.map { GestureRecognizer.ButtonStates.index($0) }, Array(Button.allCases.indices))
        var g = GestureRecognizer()
        for (i, b) in Button.allCases.enumerated() {
            // C while A is held is the A+C chord, not a tap.
            XCTAssertEqual(g.edge(b, pressed: true, ns: UInt64(i) * 1_000_000_000), [b == .c ? .chordAC : .tap(b)])
        }
        XCTAssertEqual(g.buttons.values.filter(\.down).count, Button.allCases.count)
        // Every key but A and C held long enough is a long press, reported once; A and C held 3 s
        // are the held chord.
        let late = UInt64(Button.allCases.count) * 1_000_000_000
        XCTAssertEqual(g.poll(ns: late), [.chordHeld] + Button.allCases.filter { $0 != .a && $0 != .c }.map { .longPress($0) })
        XCTAssertEqual(g.poll(ns: late + 1), [])
        XCTAssertNil(g.nextDeadline(), "nothing is left to report")
        XCTAssertEqual(g.edge(.d, pressed: false, ns: late + 2), [])
        XCTAssertEqual(g.buttons.values.filter(\.down).count, Button.allCases.count - 1)
    }

    func testThreeButtonTable() {
        XCTAssertEqual(InputLayout.threeButtons.table, """
        tap A -> previous
        tap B -> select
        tap C -> back
        double A -> next (undoes the tap)
        double B -> double-select (undoes the tap)
        double C -> double-back (undoes the tap)
        hold A -> hold-previous (undoes the tap) (while held)
        hold B -> hold-select (undoes the tap) (while held)
        hold C -> hold-back (undoes the tap) (while held)
        chord A+C -> chord (undoes the tap)
        hold A+C 3s -> reset (while held)

        """)
    }

    func testFourButtonTable() {
        XCTAssertEqual(InputLayout.fourButtons.table, """
        tap A -> previous
        tap B -> select
        tap C -> back
        tap D -> next
        double A -> previous
        double B -> double-select (undoes the tap)
        double C -> double-back (undoes the tap)
        double D -> next
        hold A -> hold-previous (undoes the tap) (while held)
        hold B -> hold-select (undoes the tap) (while held)
        hold C -> hold-back (undoes the tap) (while held)
        hold D -> nothing
        chord A+C -> chord (undoes the tap)
        hold A+C 3s -> reset (while held)

        """)
    }

    func testJoystickTable() {
        XCTAssertEqual(InputLayout.joystick.table, """
        tap UP -> previous
        tap DOWN -> next
        tap LEFT -> back
        tap RIGHT -> forward
        tap CENTRE -> select
        double UP -> previous
        double DOWN -> next
        double LEFT -> double-back (undoes the tap)
        double RIGHT -> forward
        double CENTRE -> double-select (undoes the tap)
        hold UP -> hold-previous (undoes the tap) (while held)
        hold DOWN -> nothing
        hold LEFT -> hold-back (undoes the tap) (while held)
        hold RIGHT -> nothing
        hold CENTRE -> hold-select (undoes the tap) (while held)

        """)
    }

    func testEveryLayoutReachesTheSameSemanticInputs() {
        let core: Set<NavInput> = [.previous, .next, .select, .back, .holdPrevious, .holdSelect, .holdBack,
                                   .doubleSelect, .doubleBack]
        for layout in InputLayout.allCases {
            let got = Set(layout.gestures.compactMap { layout.input(for: $0)?.input })
            XCTAssertTrue(core.isSubset(of: got), "\(layout): missing \(core.subtracting(got))")
            XCTAssertEqual(got.contains(.reset), layout.hasChord)
        }
        XCTAssertNil(InputLayout.threeButtons.input(for: .tap(.d)), "keys a board lacks do nothing")
        XCTAssertNil(InputLayout.joystick.input(for: .tap(.a)))
        XCTAssertEqual(InputLayout.named("joystick"), .joystick)
        XCTAssertEqual(InputLayout.named("4"), .fourButtons)
        XCTAssertNil(InputLayout.named("7"))
    }

    func testTheRecognizerReportsTheNewKeys() {
        var g = GestureRecognizer()
        let ms: UInt64 = 1_000_000
        XCTAssertEqual(g.edge(.d, pressed: true, ns: 0), [.tap(.d)])
        XCTAssertEqual(g.poll(ns: 700 * ms), [.longPress(.d)])
        _ = g.edge(.d, pressed: false, ns: 800 * ms)
        XCTAssertEqual(g.edge(.centre, pressed: true, ns: 1000 * ms), [.tap(.centre)])
        _ = g.edge(.centre, pressed: false, ns: 1050 * ms)
        XCTAssertEqual(g.edge(.centre, pressed: true, ns: 1200 * ms), [.doubleTap(.centre)])
        _ = g.edge(.centre, pressed: false, ns: 1250 * ms)
        XCTAssertEqual(g.edge(.up, pressed: true, ns: 2000 * ms), [.tap(.up)])
        XCTAssertEqual(g.edge(.left, pressed: true, ns: 2010 * ms), [.tap(.left)], "only A+C chord")
    }

    // MARK: - Every screen reachable, every action doable (breadth-first search from power-on)

    /// A pet with something on every screen: open tasks, a habit, coins, food and a hat owned, a
    /// commitment, the quit log started.
    func fixture() throws -> (PetState, Instant) {
        let t0 = Instant(1_775_462_400)   // Mon 2026-04-06 08:00 UTC
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        var n = 0
        func send(_ name: String, _ fields: [String: String]) throws {
            n += 1
            try app.handle(try CommandParser.parse(name: name, fields: fields, id: "f\(n)", at: t0, clock: app.state.clock,
                                                   current: app.state.device))
        }
        for i in 0..<12 {
            try send("task.create", ["task": "done\(i)", "title": "Done \(i)", "priority": "high"])
            try send("task.complete", ["task": "done\(i)"])
        }
        try send("task.create", ["task": "tea", "title": "Tea", "due": "today 10:00"])
        try send("task.create", ["task": "cake", "title": "Cake", "due": "today 12:00"])
        try send("habit.add", ["habit": "read", "text": "Read"])
        try send("shop.buy", ["item": "apple"])
        try send("shop.buy", ["item": "beanie"])
        try send("shop.buy", ["item": "party-hat"])
        try send("shop.equip", ["item": "party-hat"])
        try send("shop.buy", ["item": "cushion"])
        try send("shop.buy", ["item": "plant-pot"])
        try send("shop.place", ["item": "plant-pot", "slot": "left"])
        try send("habit.check", ["habit": "read"])
        try send("commitment.add", ["commitment": "meet", "kind": "on-time", "at": "2026-04-08 10:00", "stake": "5"])
        try send("quit.start", ["goal-days": "5"])
        // Two circles, so the Circle screen's tab (the next circle) is searched too.
        for circle in ["friends", "work"] {
            try send("circle.join", ["circle": circle, "member": "me01", "share": "all"])
            try send("circle.standing", ["circle": circle, "metric": "coins", "period": "week", "number": "20549", "ranked": "2",
                                         "rows": "1:me01:40:Pip;2:bob2:30:Bob"])
        }
        return (app.state, t0)
    }

    /// What an effect does, by kind (settings by the field they change).
    func kind(_ e: NavEffect, _ s: PetState) -> String {
        switch e {
        case .factoryReset: return "factory-reset"
        case .setClock: return "clock.set"
        case .send(.setDevice(let d)):
            let o = s.device
            if d.theme != o.theme { return "settings.theme" }
            if d.sound != o.sound { return "settings.sound" }
            if d.brightness != o.brightness { return "settings.brightness" }
            if d.dimAfter != o.dimAfter { return "settings.dim" }
            if d.sleepAfter != o.sleepAfter { return "settings.sleep" }
            return "settings.device"
        case .send(.setQuietHours(let a, let b)):
            return a != s.quiet.startMinute ? "settings.quiet-start" : (b != s.quiet.endMinute ? "settings.quiet-end" : "settings.quiet")
        case .send(let a): return a.name
        }
    }

    /// A gesture as the recognizer reports it: a tap first, then what it grows into.
    func sequences(_ layout: InputLayout) -> [[Gesture]] {
        layout.gestures.map { g in
            switch g {
            case .tap: [g]
            case .doubleTap(let b), .longPress(let b): [.tap(b), g]
            case .chordAC: [.tap(.a), .chordAC]
            case .chordHeld: [.tap(.a), .chordAC, .chordHeld]
            }
        }
    }

    /// What a view is, for the search: the screen and what its inputs depend on (fields of other
    /// screens are reset when those open, so they are left out).
    func key(_ u: UIState) -> String {
        var k = "\(u.screen.rawValue)|\(u.backStack.map(\.rawValue))|m\(u.menu ?? -1)|c\(u.cursor)|r\(u.reminder != nil)"
        switch u.screen {
        case .stats: k += "|p\(u.statsPage)"
        case .shop: k += "|t\(u.shopTab)"
        case .circle: k += "|k\(u.circleTab)"
        case .taskDetail: k += "|d\(u.detailTaskID ?? "")"
        case .urgeLog: k += "|u\(u.urgeTrigger),\(u.urgeOutcome ?? -1)"
        case .settings: k += "|e\(u.editingSetting),\(u.editValue)"
        case .focus: k += "|l\(u.focusLength)"
        case .firstRun: k += "|f\(u.firstRunStep),\(u.firstRunChoice)"
        default: break
        }
        return k
    }

    func search(_ layout: InputLayout) throws -> (screens: Set<ScreenID>, actions: Set<String>, states: Int) {
        let (state, now) = try fixture()
        // A new device: the boot screen leads to the first run (which reaches home when skipped or done).
        var config = layout.navigatorConfig(profile: .square240)
        config.firstRun = true
        let start = Navigator(state: state, now: now, config: config)
        var seen: Set<String> = [key(start.ui)]
        var queue = [start]
        var screens: Set<ScreenID> = [start.ui.screen]
        var actions: Set<String> = []
        let seqs = sequences(layout)
        var i = 0
        while i < queue.count {
            let nav = queue[i]
            i += 1
            for seq in seqs {
                var next = nav
                for e in next.gesture(seq, layout, state: state, now: now) { actions.insert(kind(e, state)) }
                screens.insert(next.ui.screen)
                if seen.insert(key(next.ui)).inserted { queue.append(next) }
            }
            if queue.count > 20_000 { XCTFail("state space too large"); break }
        }
        return (screens, actions, queue.count)
    }

    func testEveryScreenReachableAndEveryActionDoableOnEveryBoard() throws {
        let needed: Set<String> = [
            "task.complete", "task.start", "habit.check", "habit.uncheck", "shop.buy", "shop.equip", "shop.unequip",
            "shop.place", "shop.unplace", "care.feed", "quit.log", "focus.start", "commitment.cancel", "pet.pet", "pause",
            "settings.day-start", "settings.quiet-start", "settings.quiet-end", "settings.theme", "settings.sound",
            "settings.brightness", "settings.dim", "settings.sleep", "factory-reset",
        ]
        for layout in InputLayout.allCases {
            let r = try search(layout)
            XCTAssertEqual(r.screens, Set(ScreenID.allCases), "\(layout): unreachable \(Set(ScreenID.allCases).subtracting(r.screens))")
            XCTAssertTrue(needed.isSubset(of: r.actions), "\(layout): not doable \(needed.subtracting(r.actions))")
            XCTAssertLessThan(r.states, 20_000)
        }
    }

    /// The shortest number of presses from power-on to completing the next task, by search.
    func testCompletingATaskFromPowerOnTakesAtMostFourPresses() throws {
        let (state, now) = try fixture()
        for layout in InputLayout.allCases {
            for asleep in [false, true] {
                var start = Navigator(state: state, now: now, config: layout.navigatorConfig(profile: .square240), boot: !asleep)
                let t = asleep ? now + 600 : now
                start.tick(state: state, now: t)
                XCTAssertEqual(start.ui.power, asleep ? .asleep : .awake)
                var frontier = [start]
                var found: Int?
                depth: for presses in 1...4 {
                    var next: [Navigator] = []
                    for nav in frontier {
                        for seq in sequences(layout) {
                            var n = nav
                            if n.gesture(seq, layout, state: state, now: t).contains(.send(.completeTask(id: "tea"))) {
                                found = presses; break depth
                            }
                            next.append(n)
                        }
                    }
                    frontier = next
                }
                XCTAssertEqual(found, 2, "\(layout), \(asleep ? "asleep" : "boot screen"): wake/dismiss + hold select")
            }
        }
    }
}

extension Navigator {
    /// One whole gesture as a board gives it (`InputLayoutTests.sequences`: a hold or double tap
    /// begins with its tap), then time passes: a tap that waited (`pendingTap`) acts once the
    /// gesture is over, as the device commits it when the double-tap window has passed.
    mutating func gesture(_ seq: [Gesture], _ layout: InputLayout, state: PetState, now: Instant) -> [NavEffect] {
        var effects: [NavEffect] = []
        for g in seq { if let p = layout.input(for: g) { effects += handle(p, state: state, now: now) } }
        return effects + commitTap(state: state, now: now)
    }
}
