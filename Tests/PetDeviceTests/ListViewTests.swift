import XCTest
import PetCore
import PetStore
import PetUI
@testable import PetDevice

/// docs/navigation.md: the row a screen highlights is the row the navigator acts on, on every board, every
/// list screen and every display — read back from what the screen drew (the canvas's text record,
/// whose runs of the highlighted row are marked), while moving through every row in both
/// directions, scrolling past what fits.
final class ListViewTests: XCTestCase {
    static let t0 = Instant(1_775_462_400)   // Mon 2026-04-06 08:00 UTC

    /// A pet with more rows than fit on every list screen: 14 open tasks, 6 habits, a dozen things
    /// owned, 8 commitments, the quit log started.
    static let world: PetState = {
        do { return try makeWorld() } catch { preconditionFailure("ListViewTests fixture: \(error)") }
    }()

    static func makeWorld() throws -> PetState {
        let app = try PetApp(store: try EventStore.inMemory(), now: t0, zone: "UTC")
        var n = 0
        func send(_ name: String, _ fields: [String: String]) {
            n += 1
            do {
                try app.handle(try CommandParser.parse(name: name, fields: fields, id: "f\(n)", at: t0, clock: app.state.clock,
                                                       current: app.state.device))
            } catch {}
        }
        for i in 0..<60 {
            send("task.create", ["task": "done\(i)", "title": "Done \(i)", "priority": "high"])
            send("task.complete", ["task": "done\(i)"])
        }
        for i in 0..<14 {
            send("task.create", ["task": "t\(i)", "title": "Task number \(i) with a title long enough to be cut", "due": "today 2\(i % 4):00"])
        }
        for i in 0..<6 { send("habit.add", ["habit": "h\(i)", "text": "Habit \(i)"]) }
        var bought = 0
        for tab in [0, 1, 3] {
            for item in NavRows.shop(tab: tab) where item.price <= 60 && item.unlockLevel <= app.state.level && bought < 14 {
                send("shop.buy", ["item": item.id])
                bought += 1
            }
        }
        for i in 0..<8 {
            send("commitment.add", ["commitment": "c\(i)", "kind": "on-time", "at": "2026-04-0\(7 + i % 3) 1\(i):00", "stake": "5"])
        }
        send("quit.start", ["goal-days": "5"])
        return app.state
    }

    /// `run` is what the screen drew of `full` (the same, or cut with "...").
    func shows(_ run: String, _ full: String) -> Bool {
        if run == full { return true }
        guard run.hasSuffix("...") else { return false }
        let stem = String(run.dropLast(3)).trimmingCharacters(in: .whitespaces)
        return !stem.isEmpty && full.hasPrefix(stem)
    }

    /// Renders what `nav` shows and checks that the highlighted row drawn is the navigator's.
    /// Returns the first visible row.
    @discardableResult
    func checkShown(_ nav: Navigator, _ state: PetState, _ what: String, file: StaticString = #filePath, line: UInt = #line) -> Int {
        let profile = nav.config.profile
        let ctx = ScreenContext(navigator: nav, state: state, now: Self.t0, theme: Theme.resolve(.light, for: profile))
        var canvas = Canvas(width: profile.width, height: profile.height)
        Screens.render(ctx, into: &canvas)
        guard let list = nav.view.list, let row = list.selectedRow, let sel = list.selected else {
            XCTFail("\(what): no list or no selected row", file: file, line: line); return 0
        }
        // The visible window is the screen's real list layout on this display.
        let frame = ListLayout.frame(nav.ui.screen, menu: nav.ui.menu != nil, profile: profile, state: state, now: Self.t0)
        XCTAssertEqual(list.visible, frame?.visible, "\(what): visible rows", file: file, line: line)
        XCTAssertTrue(list.visibleRange.contains(sel), "\(what): row \(sel) not in \(list.visibleRange)", file: file, line: line)
        let menu = nav.ui.menu != nil
        let highlighted = canvas.highlightedText.map { menu && $0.hasPrefix("> ") ? String($0.dropFirst(2)) : $0 }
        // A row shows its label, or its short form where the whole label does not fit (`NavRow.short`).
        XCTAssertTrue(highlighted.contains { h in shows(h, row.label) || row.short.map { shows(h, $0) } == true },
                      "\(what): the screen highlights \(highlighted), the navigator is on \(row.id) '\(row.label)'",
                      file: file, line: line)
        var allowed = [row.label, row.value, row.detail, row.detailValue, row.short].compactMap { $0 }
        if case .glyph(let g) = row.mark { allowed.append(String(g)) }
        for text in highlighted where !allowed.contains(where: { shows(text, $0) }) {
            XCTFail("\(what): '\(text)' is highlighted but is not part of \(row.id)", file: file, line: line)
        }
        // Every row in the window is drawn (its label), none outside it. The icon menu draws every
        // entry as an icon and only the highlighted one's name.
        let drawn = canvas.textRuns.map(\.text)
        for i in list.visibleRange where list.rows[i].kind != .section && (!menu || i == sel) {
            let r = list.rows[i]
            XCTAssertTrue(drawn.contains { d in shows(d, r.label) || r.short.map { shows(d, $0) } == true },
                          "\(what): visible row \(list.rows[i].id) not drawn", file: file, line: line)
        }
        return list.first
    }

    func open(_ screen: ScreenID, _ nav: inout Navigator, _ state: PetState) {
        _ = nav.handle(NavPress(.select), state: state, now: Self.t0)          // the menu
        guard let k = NavRows.menu.firstIndex(of: screen) else { return }
        for _ in 0..<k { _ = nav.handle(NavPress(.next), state: state, now: Self.t0) }
        _ = nav.handle(NavPress(.select), state: state, now: Self.t0)
        XCTAssertEqual(nav.ui.screen, screen)
    }

    /// Moves down through every row and round again, then up through every row (wrapping from the
    /// first to the last), checking what is shown at every step; checks the list scrolled when it
    /// is longer than the screen.
    func walk(_ nav: inout Navigator, _ state: PetState, _ what: String) {
        guard let list = nav.view.list else { XCTFail("\(what): no list"); return }
        let count = list.items.count
        XCTAssertGreaterThan(count, 0, what)
        var firsts: Set<Int> = []
        var ids: [String] = []
        for step in 0..<(count + 1) {
            firsts.insert(checkShown(nav, state, "\(what) down \(step)"))
            ids.append(nav.view.list?.selectedRow?.id ?? "")
            _ = nav.handle(NavPress(.next), state: state, now: Self.t0)
        }
        XCTAssertEqual(Set(ids).count, count, "\(what): every row visited")
        XCTAssertEqual(ids.first, ids.last, "\(what): wraps from the last row to the first")
        for step in 0..<(count + 1) {
            _ = nav.handle(NavPress(.previous), state: state, now: Self.t0)
            firsts.insert(checkShown(nav, state, "\(what) up \(step)"))
        }
        if list.rows.count > list.visible {
            XCTAssertGreaterThan(firsts.count, 1, "\(what): \(list.rows.count) rows, \(list.visible) visible: never scrolled")
        }
    }

    func testTheHighlightedRowIsTheNavigatorsOnEveryBoardScreenAndDisplay() {
        let state = Self.world
        let lists: [ScreenID] = [.today, .shop, .wardrobe, .commitments, .settings, .urgeLog]
        for layout in InputLayout.allCases {
            for profile in DisplayProfile.all {
                let config = layout.navigatorConfig(profile: profile)
                let board = "\(layout) \(profile)"
                // The menu over home.
                var menu = Navigator(state: state, now: Self.t0, config: config, boot: false)
                _ = menu.handle(NavPress(.select), state: state, now: Self.t0)
                walk(&menu, state, "\(board) menu")
                for screen in lists {
                    var nav = Navigator(state: state, now: Self.t0, config: config, boot: false)
                    open(screen, &nav, state)
                    switch screen {
                    case .shop:
                        for tab in 0..<NavRows.shopTabs.count {
                            XCTAssertEqual(nav.ui.shopTab, tab)
                            walk(&nav, state, "\(board) shop tab \(tab)")
                            _ = nav.handle(NavPress(.select), state: state, now: Self.t0)
                        }
                    case .urgeLog:
                        walk(&nav, state, "\(board) urge triggers")
                        _ = nav.handle(NavPress(.select), state: state, now: Self.t0)
                        XCTAssertEqual(nav.ui.urgeOutcome, 0)
                        walk(&nav, state, "\(board) urge outcomes")
                    default:
                        walk(&nav, state, "\(board) \(screen)")
                    }
                }
            }
        }
    }

    // MARK: - The report of docs/navigation.md

    /// Joystick: settings, up (wraps to the last row, "Factory reset"): the screen highlights that
    /// row, centre arms it and the row says "Erase all? hold OK", holding centre erases. On
    /// "Pause" the same presses toggle pause and never erase.
    func testJoystickFactoryResetRowIsWhatTheScreenShows() {
        let state = Self.world
        for profile in DisplayProfile.all {
            let config = InputLayout.joystick.navigatorConfig(profile: profile)
            var nav = Navigator(state: state, now: Self.t0, config: config, boot: false)
            open(.settings, &nav, state)
            XCTAssertEqual(nav.view.list?.selectedRow?.id, "setting:day-start")
            _ = nav.handle(NavPress(.previous), state: state, now: Self.t0)
            XCTAssertEqual(nav.view.list?.selectedRow?.id, "setting:factory-reset", "\(profile)")
            checkShown(nav, state, "\(profile) reset row")
            let canvas = draw(nav, state)
            XCTAssertTrue(canvas.highlightedText.contains { shows($0, profile.sizeClass == .tiny ? "Reset" : "Factory reset") },
                          "\(profile): \(canvas.highlightedText)")
            XCTAssertFalse(canvas.highlightedText.contains { $0.contains("Pause") }, "\(profile): \(canvas.highlightedText)")

            // Centre arms it: the screen says which key erases; hold centre (a tap, then the hold) erases.
            var armed = nav
            XCTAssertEqual(armed.handle(NavPress(.select), state: state, now: Self.t0), [])
            XCTAssertTrue(armed.ui.editingSetting)
            let shown = draw(armed, state)
            XCTAssertEqual(shown.highlightedText, ["hold OK", "Erase all?"], "\(profile): the armed row, whole")
            XCTAssertFalse(shown.showsText("< off >"), "\(profile): the screen must not show the pause row as edited")
            if profile.sizeClass == .square || profile.sizeClass == .wide {
                XCTAssertEqual(armed.view.hintText, "hold OK erase   < cancel")
            }
            _ = armed.handle(NavPress(.select), state: state, now: Self.t0)
            XCTAssertEqual(armed.handle(NavPress(.holdSelect, extendsTap: true, isPress: false), state: state, now: Self.t0),
                           [.factoryReset], "\(profile)")

            // Not armed, a hold (its tap arms, the hold undoes the tap) does nothing.
            var unarmed = nav
            _ = unarmed.handle(NavPress(.select), state: state, now: Self.t0)
            XCTAssertEqual(unarmed.handle(NavPress(.holdSelect, extendsTap: true, isPress: false), state: state, now: Self.t0), [])

            // One more up: "Pause". Centre toggles it; holding centre never erases.
            var pause = nav
            _ = pause.handle(NavPress(.previous), state: state, now: Self.t0)
            XCTAssertEqual(pause.view.list?.selectedRow?.id, "setting:pause")
            checkShown(pause, state, "\(profile) pause row")
            XCTAssertEqual(pause.handle(NavPress(.select), state: state, now: Self.t0), [.send(.pause)])
            XCTAssertEqual(pause.handle(NavPress(.holdSelect, extendsTap: true, isPress: false), state: state, now: Self.t0), [])
        }
        // Three buttons: no reset row; up from the first row is "Pause".
        var three = Navigator(state: state, now: Self.t0, config: InputLayout.threeButtons.navigatorConfig(profile: .square240),
                              boot: false)
        open(.settings, &three, state)
        _ = three.handle(NavPress(.previous), state: state, now: Self.t0)
        XCTAssertEqual(three.view.list?.selectedRow?.id, "setting:pause")
        XCTAssertEqual(three.view.list?.items.count, 9)
    }

    func draw(_ nav: Navigator, _ state: PetState) -> Canvas {
        let p = nav.config.profile
        var canvas = Canvas(width: p.width, height: p.height)
        Screens.render(ScreenContext(navigator: nav, state: state, now: Self.t0, theme: Theme.resolve(.light, for: p)), into: &canvas)
        return canvas
    }

    // MARK: - Hints name this board's keys

    func testHintsComeFromTheActionTableAndNameTheBoardsKeys() {
        let state = Self.world
        let expected: [InputLayout: String] = [
            .threeButtons: "A up   AA down   B open   hold B done   hold A start   C back",
            .fourButtons: "A up   D down   B open   hold B done   hold A start   C back",
            .joystick: "^ up   v down   OK open   hold OK done   hold ^ start   < back",
        ]
        for layout in InputLayout.allCases {
            var nav = Navigator(state: state, now: Self.t0, config: layout.navigatorConfig(profile: .square240), boot: false)
            open(.today, &nav, state)
            XCTAssertEqual(nav.view.hintText, expected[layout])
            // At most three hints, as many as fit the strip in the display's smallest legible face
            // (the 12×16 face on 240×240), each drawn whole; on three buttons the down move is one.
            let hints = nav.view.stripHints { hs in hs.map { Font.textWidth($0.text, face: .large) }.reduce(0, +) + 14 * (hs.count - 1) <= 232 }
            XCTAssertLessThanOrEqual(hints.count, 3)
            let drawn = draw(nav, state)
            for h in hints { XCTAssertTrue(drawn.showsText(h.text), "\(layout): \(h.text)") }
            if layout == .threeButtons { XCTAssertTrue(hints.contains { $0.verb == .down }, "\(hints)") }
        }
        XCTAssertEqual(InputLayout.threeButtons.keys, NavKeys.threeButtons, "a Navigator.Config's default board is three buttons")
        // Editing a value: B saves, C cancels.
        var nav = Navigator(state: state, now: Self.t0, config: InputLayout.threeButtons.navigatorConfig(profile: .square240), boot: false)
        open(.settings, &nav, state)
        _ = nav.handle(NavPress(.select), state: state, now: Self.t0)
        XCTAssertEqual(nav.view.hintText, "A up   AA down   B save   C cancel")
    }
}
