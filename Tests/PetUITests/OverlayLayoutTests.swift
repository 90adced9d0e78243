import XCTest
import PetCore
@testable import PetUI

/// docs/screens.md: overlays do not collide. Rectangles from the layouts themselves and pixels
/// from the rendered frames: the menu leaves home's status bar and the hint bar alone, toasts take
/// the hint bar's strip (never list rows or the cursor), the tallest stats bar reaches its
/// gridline and no value label crosses it; counts read in the right number.
final class OverlayLayoutTests: XCTestCase {
    func render(_ p: DisplayProfile, _ st: PetState, _ ui: UIState, theme: DeviceSettings.ThemeName = .light) -> Canvas {
        ContrastTests.render(p, theme, st, ui)
    }

    func testTheMenuLeavesTheStatusBarAndTheHintBarAlone() {
        let st = UIFixture.state()
        for p in DisplayProfile.all {
            for t in ScreenTests.themes {
                let g = ListLayout.MenuGeometry(p)
                XCTAssertGreaterThanOrEqual(g.covered.y, ListLayout.MenuGeometry.statusBottom(p), "\(p): the menu starts in the status bar")
                XCTAssertNil(g.covered.intersection(HintBar.rect(p)).flatMap { $0.isEmpty ? nil : $0 }, "\(p): the menu covers the hint bar")
                // Every icon cell and the label inside the panel, no two cells overlapping.
                for (k, c) in g.cells.enumerated() where !c.isEmpty {
                    XCTAssertTrue(g.panel.contains(c), "\(p): cell \(k) \(c) outside \(g.panel)")
                    for d in g.cells[(k + 1)...] where !d.isEmpty { XCTAssertNil(c.intersection(d).flatMap { $0.isEmpty ? nil : $0 }, "\(p): cells overlap") }
                    XCTAssertNil(c.intersection(g.label).flatMap { $0.isEmpty ? nil : $0 }, "\(p): a cell under the label")
                }
                XCTAssertTrue(g.panel.contains(g.label), "\(p): label outside")
                // Pixels: the status bar rows are the same with the menu open as without.
                var home = UIFixture.ui(for: .home)
                let closed = render(p, st, home, theme: t)
                home.menu = 3
                let open = render(p, st, home, theme: t)
                let rows = ListLayout.MenuGeometry.statusBottom(p)
                XCTAssertEqual(Array(closed.pixels[0..<(rows * p.width)]), Array(open.pixels[0..<(rows * p.width)]),
                               "\(p) \(t): the menu changed the status bar")
                // The highlighted entry's name is drawn (and marked as the highlighted row).
                XCTAssertTrue(open.highlightedText.contains { NavRows.title(NavRows.menu[3]).hasPrefix($0.replacingOccurrences(of: "...", with: "")) },
                              "\(p): \(open.highlightedText)")
            }
        }
    }

    func testToastsTakeTheHintBarNotTheRowsOrTheCursor() {
        let st = UIFixture.state()
        for p in DisplayProfile.all {
            let toast = Overlays.toastRect(p)
            XCTAssertEqual(toast, HintBar.rect(p))
            for screen in ScreenID.allCases {
                let ui = UIFixture.ui(for: screen)
                if let f = ListLayout.frame(screen, profile: p, state: st, now: UIFixture.now) {
                    XCTAssertNil(f.area.intersection(toast).flatMap { $0.isEmpty ? nil : $0 }, "\(p) \(screen): rows under the toast")
                }
                var with = ui
                with.toasts = [Toast(text: "+12 coins", kind: .reward, until: UIFixture.now + 3)]
                let a = render(p, st, ui), b = render(p, st, with)
                if screen == .home && ui.menu == nil && ui.reminder == nil {
                    // On home a reward stands beside the coins in the status line: "+12" left of
                    // the coin, right of the clock; nothing else changes, the strip included.
                    let l = Look(ScreenContext(state: st, ui: ui, now: UIFixture.now, config: Navigator.Config(profile: p),
                                               theme: Theme.resolve(.light, for: p)))
                    let spot = HomeView.coinSpot(l)
                    let run = b.textRuns.first { $0.text == "+12" }
                    XCTAssertNotNil(run, "\(p) home: the reward is not beside the coins")
                    if let r = run?.rect {
                        XCTAssertGreaterThan(r.x, spot.clockRight, "\(p) home: the reward over the clock")
                        XCTAssertLessThan(r.maxX, spot.coinsLeft, "\(p) home: the reward over the coins")
                    }
                    for y in 0..<p.height {
                        let row = y * p.width
                        let inLine = y >= spot.y && y < spot.y + Txt.legible(spot.face, on: b).height
                        for x in 0..<p.width where a.pixels[row + x] != b.pixels[row + x] {
                            if !(inLine && x > spot.clockRight && x < spot.coinsLeft) {
                                XCTFail("\(p) home: the reward changed \(x),\(y) outside its place"); break
                            }
                        }
                    }
                    XCTAssertFalse(b.textRuns.contains { $0.text.hasPrefix("+12 coins") }, "\(p) home: the reward took the strip too")
                    continue
                }
                // Only the strip changes; the highlighted row is drawn the same.
                for y in 0..<toast.y {
                    let row = y * p.width
                    if a.pixels[row..<(row + p.width)] != b.pixels[row..<(row + p.width)] {
                        XCTFail("\(p) \(screen): the toast changed row \(y) above the strip"); break
                    }
                }
                XCTAssertEqual(a.highlightedText, b.highlightedText, "\(p) \(screen)")
                XCTAssertTrue(b.textRuns.contains { $0.text.hasPrefix("+12 coins") }, "\(p) \(screen): toast not drawn")
            }
        }
        // Toasts are short: 3 s.
        XCTAssertEqual(Navigator.Config().toastSeconds, 3)
    }

    /// No screen draws into the hint bar's strip but the bar itself (text runs above it).
    func testScreensKeepTheHintStripFree() {
        for p in DisplayProfile.all {
            let strip = HintBar.rect(p)
            for (name, st, ui) in ScreenTests.frames() where ui.screen != .boot && ui.reminder == nil && ui.toasts.isEmpty {
                let c = render(p, st, ui)
                let line = HintBar.line(ScreenContext(state: st, ui: ui, now: UIFixture.now, config: Navigator.Config(profile: p),
                                                      theme: Theme.resolve(.light, for: p)))
                for r in c.textRuns where r.rect.intersection(strip).map({ !$0.isEmpty }) == true {
                    // The strip draws each hint as its own run.
                    XCTAssertTrue(line.contains(r.text) || r.text == line,
                                  "\(p) \(name): '\(r.text)' at \(r.rect) is in the hint strip \(strip)")
                }
            }
        }
    }

    func testTheTallestBarReachesItsGridlineAndLabelsStayClear() {
        for values in [[0, 1, 2, 3, 4, 2, 4], [4, 4, 4, 4, 4, 4, 4], [0, 0, 0, 0, 0, 0, 1], [9, 1, 0, 8, 9, 3, 2], [0, 0, 0, 0, 0, 0, 0]] {
            for plot in [Rect(x: 20, y: 50, w: 200, h: 120), Rect(x: 9, y: 15, w: 118, h: 27), Rect(x: 12, y: 36, w: 160, h: 60)] {
                let l = StatsScreen.barLayout(values, plot: plot, labels: true)
                let top = values.max() ?? 0
                for (i, v) in values.enumerated() {
                    let b = l.bars[i]
                    XCTAssertEqual(b.maxY, plot.maxY, "bars stand on the axis")
                    if v == top && v > 0 { XCTAssertEqual(b.y, l.gridY, "\(values) \(plot): the tallest bar reaches the gridline") }
                    XCTAssertGreaterThanOrEqual(b.y, l.gridY)
                    if let r = l.labels[i] {
                        XCTAssertGreaterThan(r.y, l.gridY, "\(values) \(plot): label \(i) crosses the gridline")
                        XCTAssertLessThanOrEqual(r.maxY, b.y, "label \(i) on its bar")
                        for (j, o) in l.labels.enumerated() where j != i {
                            if let o { XCTAssertNil(r.intersection(o).flatMap { $0.isEmpty ? nil : $0 }, "labels \(i) \(j) overlap") }
                        }
                    }
                }
            }
        }
    }

    func testCountsReadInTheRightNumber() {
        XCTAssertEqual(Fmt.count(1, "active day"), "1 active day")
        XCTAssertEqual(Fmt.count(0, "active day"), "0 active days")
        XCTAssertEqual(Fmt.count(2, "coin"), "2 coins")
        XCTAssertEqual(Fmt.count(1, "coin"), "1 coin")
        XCTAssertEqual(Fmt.count(3, "box", plural: "boxes"), "3 boxes")
        // Nothing drawn on any frame says "1 <plural>".
        for p in DisplayProfile.all {
            for (name, st, ui) in ScreenTests.frames() {
                for r in render(p, st, ui).textRuns {
                    let words = r.text.split(separator: " ")
                    for (k, w) in words.enumerated() where w == "1" && k + 1 < words.count {
                        let next = words[k + 1]
                        XCTAssertFalse(["days", "coins", "tasks", "habits", "urges", "minutes"].contains(String(next)),
                                       "\(p) \(name): '\(r.text)'")
                    }
                }
            }
        }
    }

    /// The pet does not ask to wear food.
    func testFoodGetsFoodLines() {
        let food = Lines.all.filter { $0.kind == .purchaseFood }
        XCTAssertGreaterThanOrEqual(food.count, 4)
        for l in food + Lines.all.filter({ $0.kind == .purchase }) {
            XCTAssertFalse(l.text.lowercased().contains("wear"), l.text)
        }
    }

    /// The started mark is an empty box with a triangle, not a filled box (which reads as done).
    func testTheStartedMarkIsNotACheck() {
        var c = Canvas(width: 20, height: 20, background: .white)
        Look.playMark(&c, box: Rect(x: 0, y: 0, w: 14, h: 14), .black)
        // The triangle: widest in its middle row, one pixel at its tip rows.
        func inked(_ y: Int) -> Int { (0..<14).filter { c.pixel(x: $0, y: y) == .black }.count }
        XCTAssertEqual(inked(4), 1)
        XCTAssertEqual(inked(8), 1)
        XCTAssertGreaterThan(inked(6), 2)
        XCTAssertEqual(inked(0), 0, "the box's inside is not filled")
    }
}
