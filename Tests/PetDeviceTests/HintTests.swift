import XCTest
import PetCore
import PetStore
import TestSupport
import Foundation
import PetUI
@testable import PetDevice

/// docs/navigation.md: the hint bar is honest. Over every view the navigator can reach from home on
/// every board (a search over its states with the board's own gestures), each hint names a key
/// that, pressed, does what the hint says — checked on the navigator's effects and view — and the
/// line drawn for the hints fits every display.
extension InputLayoutTests {
    /// The gesture sequence that gives `input` on `layout` with the fewest presses (a hold or
    /// double tap begins with its tap).
    func gestureSequence(for input: NavInput, _ layout: InputLayout) -> [Gesture]? {
        zip(layout.gestures, sequences(layout))
            .filter { g, _ in g != .chordHeld && layout.input(for: g)?.input == input }
            .min { presses($0.0) < presses($1.0) }?.1
    }

    /// Whether what happened is what `verb` says.
    func does(_ verb: NavVerb, before: Navigator, after: Navigator, effects: [NavEffect]) -> String? {
        let b = before.ui, a = after.ui
        func sent(_ c: NavCommand) -> Bool { effects.contains { if case .send(let x) = $0 { c.matches(x) } else { false } } }
        let ok: Bool
        switch verb {
        case .up, .down: ok = key(a) != key(b) || a.detailTaskID != b.detailTaskID
        case .pagePrevious, .pageNext: ok = a.statsPage != b.statsPage
        case .tab: ok = a.shopTab != b.shopTab || a.circleTab != b.circleTab
        case .open(let s): ok = a.screen == s && a.menu == nil
        case .menu: ok = a.menu != nil && b.menu == nil
        case .close: ok = a.menu == nil && a.screen == b.screen
        case .back: ok = a.screen == (b.backStack.last ?? .home) && a.screen != b.screen
        case .home: ok = a.screen == .home
        case .edit: ok = a.editingSetting && !b.editingSetting
        case .save: ok = !a.editingSetting && effects.contains { if case .send = $0 { true } else { false } }
        case .cancel: ok = effects.isEmpty && ((b.editingSetting && !a.editingSetting) || (b.urgeOutcome != nil && a.urgeOutcome == nil))
        case .nextStep:
            ok = (a.urgeOutcome != nil && b.urgeOutcome == nil) || (b.screen == .firstRun && a.firstRunStep == b.firstRunStep + 1)
        case .skip:
            ok = a.screen == .home && effects.contains { if case .send(.setDevice(let d)) = $0 { d.welcomeDone } else { false } }
        case .first: ok = a.cursor == 0 && a.screen == .home
        case .dismissTip:
            ok = effects.contains { if case .send(.setDevice(let d)) = $0 { d.holdTipDone } else { false } }
        case .dismiss: ok = a.reminder == nil && b.reminder != nil
        case .command(let c): ok = sent(c)
        case .erase: ok = effects.contains(.factoryReset)
        }
        return ok ? nil : "effects \(effects), \(key(b)) -> \(key(a))"
    }

    /// Every navigator state reachable from home with the board's gestures (at most `limit`).
    func reachable(_ layout: InputLayout, state: PetState, now: Instant, limit: Int = 600) -> [Navigator] {
        var start = Navigator(state: state, now: now, config: layout.navigatorConfig(profile: .square240), boot: false)
        // A reminder on screen too, so its overlay's hints are checked.
        var withReminder = start
        withReminder.note(events: [Event(at: now, commandID: nil, kind: .reminderDue(taskID: "tea", index: 0))], state: state, now: now)
        start.tick(state: state, now: now)
        var seen: Set<String> = []
        var queue = [start, withReminder]
        var out: [Navigator] = []
        let seqs = sequences(layout).enumerated().filter { layout.gestures[$0.offset] != .chordHeld }.map(\.element)
        var i = 0
        while i < queue.count && out.count < limit {
            let nav = queue[i]; i += 1
            guard seen.insert(key(nav.ui) + "|\(nav.ui.reminder != nil)|\(nav.ui.detailTaskID ?? "")").inserted else { continue }
            out.append(nav)
            for seq in seqs {
                var n = nav
                _ = n.gesture(seq, layout, state: state, now: now)
                queue.append(n)
            }
        }
        return out
    }

    func testEveryHintDoesWhatItSaysOnEveryBoardAndScreen() throws {
        let (state, now) = try fixture()
        var screens: [InputLayout: Set<String>] = [:]
        var checked = 0
        for layout in InputLayout.allCases {
            for nav in reachable(layout, state: state, now: now) {
                let hints = nav.view.hints
                let place = nav.ui.reminder != nil ? "reminder" : (nav.ui.menu != nil ? "menu" : nav.ui.screen.rawValue)
                screens[layout, default: []].insert(place)
                // Every screen but boot says something (the tip on home until it is learned).
                if nav.ui.screen != .boot {
                    XCTAssertFalse(hints.isEmpty, "\(layout) \(place): no hints")
                }
                for h in hints {
                    let seq = try XCTUnwrap(gestureSequence(for: h.input, layout), "\(layout) \(place): no key for '\(h.text)'")
                    // The key named is the gesture's: "hold X" a long press, "XX" (the key twice) a
                    // double tap (docs/design.md, "The hint vocabulary").
                    let twice = h.key.count % 2 == 0 && h.key.prefix(h.key.count / 2) == h.key.suffix(h.key.count / 2)
                    switch seq.last {
                    case .longPress?: XCTAssertTrue(h.key.hasPrefix("hold "), "\(layout) \(place) \(h.text)")
                    case .doubleTap?: XCTAssertTrue(twice, "\(layout) \(place) \(h.text)")
                    default: XCTAssertFalse(h.key.hasPrefix("hold ") || twice, "\(layout) \(place) \(h.text)")
                    }
                    var n = nav
                    var effects: [NavEffect] = []
                    effects += n.gesture(seq, layout, state: state, now: now)
                    if let why = does(h.verb, before: nav, after: n, effects: effects) {
                        XCTFail("\(layout) \(place): '\(h.text)' does not: \(why)")
                    }
                    checked += 1
                }
                // An input the table does not list does nothing at all.
                let table = nav.actionTable(state: state, now: now)
                for input in NavInput.allCases where !table.contains(where: { $0.input == input })
                    && input != .chord && input != .reset && nav.ui.screen != .boot {
                    var n = nav
                    let effects = n.handle(NavPress(input, isPress: false), state: state, now: now)
                    XCTAssertTrue(effects.isEmpty && key(n.ui) == key(nav.ui), "\(layout) \(place): \(input) is not in the table but acts")
                }
            }
        }
        XCTAssertGreaterThan(checked, 300)
        for layout in InputLayout.allCases {
            let seen = screens[layout] ?? []
            for s in ["home", "menu", "reminder", "today", "task-detail", "shop", "wardrobe", "stats", "focus", "urge-log",
                      "commitments", "settings", "pairing"] {
                XCTAssertTrue(seen.contains(s), "\(layout): \(s) not reached")
            }
        }
    }

    /// The wrong hints of the issue, fixed: the store's B switches tabs (joystick: right), the
    /// task detail names no B, settings editing says C cancels (and C does not save), long
    /// presses and three buttons' double A are named, joystick boards use joystick keys.
    func testTheHintsTheIssueFoundWrong() throws {
        let (state, now) = try fixture()
        func nav(_ layout: InputLayout, _ screen: ScreenID, _ edit: ((inout UIState) -> Void)? = nil) -> Navigator {
            var n = Navigator(state: state, now: now, config: layout.navigatorConfig(profile: .square240), boot: false)
            _ = n.handle(NavPress(.select), state: state, now: now)
            while n.ui.menu.map({ NavRows.menu[$0] }) != screen { _ = n.handle(NavPress(.previous), state: state, now: now) }
            _ = n.handle(NavPress(.select), state: state, now: now)
            return n
        }
        XCTAssertEqual(nav(.threeButtons, .shop).view.hintText, "A up   AA down   B tab   hold B buy   C back")
        XCTAssertEqual(nav(.joystick, .shop).view.hintText, "^ up   v down   > tab   hold OK buy   < back")
        XCTAssertEqual(nav(.fourButtons, .stats).view.hintText, "A prev   D next   C back")
        XCTAssertEqual(nav(.threeButtons, .stats).view.hintText, "A prev   B next   C back")
        // Focus without a session: choose a length (up/down), then start.
        XCTAssertEqual(nav(.threeButtons, .focus).view.hintText, "A up   AA down   B start   C back")
        var s = nav(.threeButtons, .settings)
        _ = s.handle(NavPress(.next), state: state, now: now)
        XCTAssertEqual(s.view.hintText, "A up   AA down   B edit   C back")
        _ = s.handle(NavPress(.select), state: state, now: now)
        XCTAssertEqual(s.view.hintText, "A up   AA down   B save   C cancel")
        XCTAssertEqual(s.handle(NavPress(.back), state: state, now: now), [], "C cancels: nothing saved")
        // Home: the first-run tip while not learned; then what the keys do, hold B first.
        let home = Navigator(state: state, now: now, config: InputLayout.threeButtons.navigatorConfig(profile: .square240), boot: false)
        XCTAssertEqual(home.view.tip, "Tip: hold B = done")
        XCTAssertTrue(home.view.hintText.contains("hold B done"), home.view.hintText)
        XCTAssertTrue(home.view.hintText.contains("hold C urge"), home.view.hintText)
        XCTAssertTrue(home.view.hintText.contains("AA down"), home.view.hintText)
        let joy = Navigator(state: state, now: now, config: InputLayout.joystick.navigatorConfig(profile: .square240), boot: false)
        XCTAssertEqual(joy.view.tip, "Tip: hold OK = done")
        XCTAssertFalse(joy.view.hintText.contains("B "), joy.view.hintText)
        // Task detail: B does nothing, so no hint names it.
        var d = nav(.threeButtons, .today)
        _ = d.handle(NavPress(.select), state: state, now: now)
        XCTAssertEqual(d.ui.screen, .taskDetail)
        XCTAssertFalse(d.view.hints.contains { $0.input == .select }, d.view.hintText)
        XCTAssertTrue(d.view.hintText.contains("hold B done"), d.view.hintText)
    }

    /// The hint line fits every display, each hint in its one form and drawn whole; it keeps the
    /// screen's first key action and, on three buttons, the down move (docs/design.md, "The hint
    /// vocabulary"); the tip is drawn on home until learned.
    func testTheHintLineFitsEveryDisplay() throws {
        let (state, now) = try fixture()
        for layout in InputLayout.allCases {
            for profile in DisplayProfile.all {
                var nav = Navigator(state: state, now: now, config: layout.navigatorConfig(profile: profile), boot: false)
                _ = nav.handle(NavPress(.select), state: state, now: now)
                _ = nav.handle(NavPress(.next), state: state, now: now)
                XCTAssertEqual(nav.ui.menu.map { NavRows.menu[$0] }, .focus)
                let ctx = ScreenContext(navigator: nav, state: state, now: now, theme: Theme.resolve(.light, for: profile))
                let line = HintBar.line(ctx)
                let hs = HintBar.hints(ctx)
                let total = hs.map { Font.textWidth($0.text, face: profile.minimumFace) }.reduce(0, +) + (hs.count - 1) * (profile.minimumFace == .large ? 14 : 9)
                XCTAssertLessThanOrEqual(total, profile.width - 8, "\(layout) \(profile): \(line)")
                let hold = try XCTUnwrap(layout.keys.name(.holdSelect))
                let open = try XCTUnwrap(layout.keys.name(.select) ?? layout.keys.name(.forward))
                XCTAssertTrue(line.hasPrefix(open + " open"), "\(layout) \(profile) menu: '\(line)' lacks select")
                if !layout.keys.hasOnePressDown { XCTAssertTrue(line.contains(" down"), "\(layout) \(profile) menu: '\(line)' lacks down") }
                var canvas = Canvas(width: profile.width, height: profile.height)
                Screens.render(ctx, into: &canvas)
                for h in HintBar.hints(ctx) {
                    XCTAssertTrue(canvas.textRuns.contains { $0.text == h.text }, "\(layout) \(profile): '\(h.text)' is not drawn")
                }
                let home = Navigator(state: state, now: now, config: layout.navigatorConfig(profile: profile), boot: false)
                let hctx = ScreenContext(navigator: home, state: state, now: now, theme: Theme.resolve(.light, for: profile))
                Screens.render(hctx, into: &canvas)
                XCTAssertTrue(canvas.textRuns.contains { $0.text.hasPrefix("Tip: " + hold + " = done") }, "\(layout) \(profile): no tip")
            }
        }
    }

    /// The first-run tip goes once something is completed with a long press (stored with the
    /// settings in the journal, so it stays gone after a restart), or when dismissed.
    func testTheFirstRunTipIsLearnedByHoldAndSurvivesARestart() throws {
        let dir = try makeTemporaryDirectory("hint-tip")
        defer { removeTemporaryDirectory(dir) }
        let path = dir.appendingPathComponent("pet.db").path
        let t0 = Instant(1_775_462_400)
        do {
            let app = try PetApp(store: try EventStore(path: path), now: t0, zone: "UTC")
            try app.handle(try CommandParser.parse(name: "task.create", fields: ["task": "tea", "title": "Tea"], id: "c1", at: t0,
                                                   clock: app.state.clock))
            var nav = Navigator(state: app.state, now: t0, config: InputLayout.threeButtons.navigatorConfig(profile: .oled128), boot: false)
            XCTAssertEqual(nav.view.tip, "Tip: hold B = done")
            // Hold B on home: the tap first (B opens the menu), then the hold undoes it and completes.
            _ = nav.handle(NavPress(.select), state: app.state, now: t0)
            let effects = nav.handle(NavPress(.holdSelect, extendsTap: true, isPress: false), state: app.state, now: t0)
            XCTAssertTrue(effects.contains(.send(.completeTask(id: "tea"))), "\(effects)")
            var n = 1
            for case .send(let a) in effects {
                n += 1
                try app.handle(Command(id: "dev-\(n)", at: t0, action: a))
            }
            XCTAssertTrue(app.state.device.holdTipDone)
            nav.tick(state: app.state, now: t0)
            XCTAssertNil(nav.view.tip)
            app.store.close()
        }
        // A restart: the journal says it was learned.
        let again = try PetApp(store: try EventStore(path: path), now: t0 + 60, zone: "UTC")
        XCTAssertTrue(again.state.device.holdTipDone)
        let nav = Navigator(state: again.state, now: t0 + 60, config: InputLayout.threeButtons.navigatorConfig(profile: .oled128),
                            boot: false)
        XCTAssertNil(nav.view.tip)
        XCTAssertFalse(nav.view.hints.contains { $0.verb == .dismissTip })
        // Completing from the phone does not teach it; C on home dismisses it.
        let (state, now) = try fixture()
        var home = Navigator(state: state, now: now, config: InputLayout.fourButtons.navigatorConfig(profile: .square240), boot: false)
        XCTAssertNotNil(home.view.tip)
        let dismissed = home.handle(NavPress(.back), state: state, now: now)
        var learned = state.device; learned.holdTipDone = true
        XCTAssertEqual(dismissed, [.send(.setDevice(learned))])
    }
}
