import XCTest
import PetCore
import PetUI
@testable import PetDevice

/// docs/navigation.md: what each everyday job costs in presses from home, per board, found by search.
/// A uniform-cost search over the navigator's states from home: each gesture of the board counts
/// as its presses (tap 1, double 2, hold 1, chord 1) and the search stops when the job's effect
/// appears (or, for stats, when the stats screen shows).
extension InputLayoutTests {
    enum Job: String, CaseIterable {
        case completeTask = "complete the next task"
        case checkHabit = "check a habit"
        case logUrge = "log an urge"
        case feed = "feed"
        case startFocus = "start focus"
        case openStats = "open stats"

        /// The budget on a 3-button board.
        var budget: Int {
            switch self {
            case .completeTask, .openStats: 2
            case .checkHabit, .logUrge, .feed, .startFocus: 3
            }
        }

        func done(_ effects: [NavEffect], _ nav: Navigator) -> Bool {
            switch self {
            case .openStats: return nav.ui.screen == .stats && nav.ui.menu == nil
            default: break
            }
            return effects.contains { e in
                guard case .send(let a) = e else { return false }
                switch (self, a) {
                case (.completeTask, .completeTask), (.checkHabit, .habit(.check)), (.logUrge, .quit(.log)),
                     (.feed, .shop(.feed)), (.startFocus, .commitment(.startFocus)): return true
                default: return false
                }
            }
        }
    }

    func presses(_ g: Gesture) -> Int {
        switch g {
        case .tap, .longPress, .chordAC, .chordHeld: 1
        case .doubleTap: 2
        }
    }

    /// The fewest presses from home to `job` on `layout` (nil: not within 8).
    func cost(_ job: Job, _ layout: InputLayout, state: PetState, now: Instant) -> Int? {
        let t = self
        let start = Navigator(state: state, now: now, config: layout.navigatorConfig(profile: .square240), boot: false)
        let moves = zip(layout.gestures, t.sequences(layout)).filter { g, _ in g != .chordHeld }
        var frontier: [Int: [Navigator]] = [0: [start]]
        var expanded: Set<String> = []
        var best: Int?
        for c in 0...8 {
            if let b = best, b <= c { return b }
            for nav in frontier[c] ?? [] {
                guard expanded.insert(t.key(nav.ui)).inserted else { continue }
                for (g, seq) in moves {
                    var n = nav
                    var effects: [NavEffect] = []
                    effects += n.gesture(seq, layout, state: state, now: now)
                    let k = c + presses(g)
                    if job.done(effects, n) { best = min(best ?? k, k) } else { frontier[k, default: []].append(n) }
                }
            }
        }
        return best
    }

    func testEveryJobIsWithinItsBudget() throws {
        let (state, now) = try fixture()
        // The fixture: open tasks, an unchecked habit (movement), an apple owned, no focus running.
        XCTAssertFalse(state.openTasks().isEmpty)
        XCTAssertGreaterThan(state.shop.count(of: "apple"), 0)
        var table = "| job | 3 buttons | 4 buttons | joystick | budget (3 buttons) |\n|---|---|---|---|---|\n"
        for job in Job.allCases {
            var row: [InputLayout: Int] = [:]
            for layout in InputLayout.allCases {
                row[layout] = cost(job, layout, state: state, now: now)
            }
            let three = try XCTUnwrap(row[.threeButtons], "\(job.rawValue): not doable on 3 buttons")
            XCTAssertLessThanOrEqual(three, job.budget, "\(job.rawValue) on 3 buttons")
            for layout in [InputLayout.fourButtons, .joystick] {
                let n = try XCTUnwrap(row[layout], "\(job.rawValue): not doable on \(layout)")
                XCTAssertLessThanOrEqual(n, three, "\(job.rawValue): \(layout) worse than 3 buttons")
            }
            table += "| \(job.rawValue) | \(three) | \(row[.fourButtons]!) | \(row[.joystick]!) | ≤ \(job.budget) |\n"
        }
        print("Presses from home, by search:\n" + table)
    }
}

extension InputLayoutTests {
    /// The menu's hints come from the navigator's action table with this board's keys, and say
    /// what hold B does on the highlighted entry (nothing on Stats; start on Focus; feed on
    /// Wardrobe while food is owned).
    func testTheMenuHintsSayWhatEachKeyDoesOnEveryBoard() throws {
        let (state, now) = try fixture()
        var got: [String] = []
        for layout in InputLayout.allCases {
            var nav = Navigator(state: state, now: now, config: layout.navigatorConfig(profile: .square240), boot: false)
            _ = nav.handle(NavPress(.select), state: state, now: now)
            for entry in [ScreenID.stats, .focus, .wardrobe] {
                while nav.ui.menu.map({ NavRows.menu[$0] }) != entry { _ = nav.handle(NavPress(.previous), state: state, now: now) }
                got.append("\(layout.rawValue) \(entry.rawValue): \(nav.view.hintText)")
            }
        }
        XCTAssertEqual(got.joined(separator: "\n"), """
        3 stats: A up   hold A down   B open   C close
        3 focus: A up   hold A down   B open   hold B start   C close
        3 wardrobe: A up   hold A down   B open   hold B feed   C close
        4 stats: A up   D down   B open   C close
        4 focus: A up   D down   B open   hold B start   C close
        4 wardrobe: A up   D down   B open   hold B feed   C close
        joystick stats: ^ up   v down   OK open   < close
        joystick focus: ^ up   v down   OK open   hold OK start   < close
        joystick wardrobe: ^ up   v down   OK open   hold OK feed   < close
        """)
        // And each named key does what its hint says: on three buttons hold A moves down, hold B
        // on Focus starts a session and on Wardrobe feeds the first food owned.
        var nav = Navigator(state: state, now: now, config: InputLayout.threeButtons.navigatorConfig(profile: .square240), boot: false)
        func gesture(_ g: Gesture) -> [NavEffect] {
            let seq: [Gesture]
            switch g {
            case .longPress(let b), .doubleTap(let b): seq = [.tap(b), g]
            default: seq = [g]
            }
            return nav.gesture(seq, .threeButtons, state: state, now: now)
        }
        _ = gesture(.tap(.b))
        XCTAssertEqual(nav.ui.menu.map { NavRows.menu[$0] }, .stats)
        _ = gesture(.longPress(.a))
        XCTAssertEqual(nav.ui.menu.map { NavRows.menu[$0] }, .focus, "hold A: down")
        XCTAssertEqual(gesture(.longPress(.b)), [.send(.commitment(.startFocus(minutes: nil, block: [])))])
        XCTAssertEqual(nav.ui.screen, .focus, "the focus screen shows the session")
        _ = gesture(.doubleTap(.c))
        _ = gesture(.tap(.b))
        _ = gesture(.tap(.a))
        XCTAssertEqual(nav.ui.menu.map { NavRows.menu[$0] }, .wardrobe, "A: up, wrapping")
        XCTAssertEqual(gesture(.longPress(.b)), [.send(.shop(.feed(item: "apple")))])
        XCTAssertNil(nav.ui.menu, "fed: back on home, where the pet eats")
        XCTAssertEqual(nav.ui.screen, .home)
    }
}
