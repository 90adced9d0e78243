import XCTest
import PetCore
@testable import PetUI

/// Important text is never cut off (docs/screens.md): over every screen × display × theme, with
/// hostile task titles (one long word, the 100-character maximum, Latin-1), the whole text can be
/// read — drawn whole, wrapped over several lines, or scrolled by the marquee over time — except
/// on e-paper, where nothing moves and only the task detail must show it all. And no text is drawn
/// outside the canvas or over other text on the screens that lay it out.
final class TextClipTests: XCTestCase {
    /// One word longer than any line, then more words.
    static let longWord = "Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen abholen und zurückbringen"
    /// The maximum title length (100), ordinary words.
    static let maxLength = String("Call the dentist about moving next week's appointment to a later afternoon slot on Friday please ok".prefix(100))
    /// Latin-1 letters throughout.
    static let latin1 = "Ærøskøbing: ça coûte, façade, naïve, smörgåsbord, ñandú, þorp, ÿ - Größe prüfen"

    static func hostileState() -> PetState {
        var s = UIFixture.state()
        s.tasks["rent"]?.title = longWord       // the next task: the home card
        s.tasks["dentist"]?.title = maxLength
        s.tasks["essay"]?.title = latin1
        return s
    }

    /// The hostile frames: home, today with the cursor on every task, the detail of each hostile
    /// task, the urge log's two steps, settings while editing.
    static func hostileFrames() -> [(String, PetState, UIState)] {
        let st = hostileState(), now = UIFixture.now
        var out: [(String, PetState, UIState)] = [("hostile-home", st, UIFixture.ui(for: .home, now: now))]
        for k in 0..<6 {
            var ui = UIFixture.ui(for: .today, now: now); ui.cursor = k
            out.append(("hostile-today\(k)", st, ui))
        }
        for id in ["rent", "dentist", "essay"] {
            var ui = UIFixture.ui(for: .taskDetail, now: now); ui.detailTaskID = id
            out.append(("hostile-detail-\(id)", st, ui))
        }
        var urge = UIFixture.ui(for: .urgeLog, now: now); urge.urgeOutcome = 1
        out.append(("hostile-urge", st, UIFixture.ui(for: .urgeLog, now: now)))
        out.append(("hostile-urge-outcome", st, urge))
        for row in 0..<8 {
            var set = UIFixture.ui(for: .settings, now: now); set.cursor = row; set.editingSetting = true; set.editValue = 60
            out.append(("hostile-settings\(row)", st, set))
        }
        return out
    }

    static func render(_ p: DisplayProfile, _ t: DeviceSettings.ThemeName, _ st: PetState, _ ui: UIState, ms: Int64) -> Canvas {
        let ctx = ScreenContext(state: st, ui: ui, now: UIFixture.now, nowMs: ms, config: Navigator.Config(profile: p),
                                theme: Theme.resolve(t, for: p))
        var c = Canvas(width: p.width, height: p.height)
        Screens.render(ctx, into: &c)
        return c
    }

    static func squeeze(_ s: String) -> String { String(s.filter { !$0.isWhitespace }) }

    /// Every run's text in drawing order, without spaces: text wrapped over lines reads on.
    static func reading(_ c: Canvas) -> String { squeeze(c.textRuns.map(\.text).joined()) }

    func testHostileTitlesAreReachable() {
        let st = Self.hostileState()
        var missing: [String] = []
        for p in DisplayProfile.all {
            for t in ScreenTests.themes {
                for (name, fst, ui) in Self.hostileFrames() {
                    let c = Self.render(p, t, fst, ui, ms: UIFixture.now.seconds * 1000)
                    let text = Self.reading(c)
                    var wanted: [String] = []
                    switch ui.screen {
                    case .home where p.animates:
                        wanted = [Self.longWord]
                    case .taskDetail:
                        wanted = [st.tasks[ui.detailTaskID ?? ""]?.title ?? "?"]
                    case .today where p.animates:
                        // The cursor row's label, whole (it scrolls when too long).
                        if let row = ScreenContext(state: fst, ui: ui, now: UIFixture.now, config: Navigator.Config(profile: p),
                                                   theme: .light).view.list?.selectedRow {
                            wanted = [row.label]
                        }
                    case .settings where p.animates:
                        if let row = ScreenContext(state: fst, ui: ui, now: UIFixture.now, config: Navigator.Config(profile: p),
                                                   theme: .light).view.list?.selectedRow {
                            wanted = [row.label]
                        }
                    default: break
                    }
                    for w in wanted where !text.contains(Self.squeeze(w)) {
                        missing.append("\(name) \(p.id) \(t): '\(w)' not reachable in \(c.textRuns.map(\.text))")
                    }
                }
            }
        }
        XCTAssertEqual(missing, [], missing.prefix(20).joined(separator: "\n"))
    }

    /// The urge-log prompts and the OLED's speech line can be read whole on every display that
    /// animates (the fixture's frames).
    func testPromptsAndSpeechAreReachable() {
        var missing: [String] = []
        for p in DisplayProfile.all where p.animates {
            for (name, st, ui) in ScreenTests.frames() where ui.screen == .urgeLog || (ui.screen == .home && ui.reminder == nil && ui.menu == nil) {
                let c = Self.render(p, .light, st, ui, ms: UIFixture.now.seconds * 1000)
                let text = Self.reading(c)
                var wanted: [String] = []
                if ui.screen == .home { wanted = [HomeView.speechLine(st, now: UIFixture.now)] }
                else if ui.urgeOutcome != nil { wanted = ["what happened?", "and?"] }
                else { wanted = ["What set it off?", "Trigger?"] }
                if !wanted.contains(where: { text.contains(Self.squeeze($0)) }) {
                    missing.append("\(name) \(p.id): none of \(wanted) in \(c.textRuns.map(\.text))")
                }
            }
        }
        XCTAssertEqual(missing, [])
    }

    /// No run outside the canvas; whole lines only (a multiple of the 8 px cell); on the screens this layout
    /// owns, no text run over another, at several moments of the marquee.
    func testNoTextOutsideItsBoxOrOverOtherText() {
        let laidOut: Set<ScreenID> = [.home, .today, .taskDetail, .urgeLog, .settings]
        var problems: [String] = []
        for p in DisplayProfile.all {
            for t in ScreenTests.themes {
                for (name, st, ui) in ScreenTests.frames() + Self.hostileFrames() {
                    for ms: Int64 in [0, 1_700, 4_100, 9_000] {
                        let c = Self.render(p, t, st, ui, ms: UIFixture.now.seconds * 1000 + ms)
                        for r in c.textRuns {
                            if !c.bounds.contains(r.rect) { problems.append("\(name) \(p.id): '\(r.text)' outside the canvas \(r.rect)") }
                            if r.rect.h % 8 != 0 { problems.append("\(name) \(p.id): '\(r.text)' is \(r.rect.h) px tall") }
                        }
                        guard laidOut.contains(ui.screen), ui.toasts.isEmpty, ui.reminder == nil, ui.menu == nil,
                              ui.missedBanner == 0 else { continue }
                        let runs = c.textRuns.filter { $0.text.contains { !$0.isWhitespace } }
                        for i in runs.indices {
                            for j in runs.indices where j > i {
                                if let o = runs[i].rect.intersection(runs[j].rect), o.w > 1, o.h > 1 {
                                    problems.append("\(name) \(p.id) \(t): '\(runs[i].text)' \(runs[i].rect) over '\(runs[j].text)' \(runs[j].rect)")
                                }
                            }
                        }
                    }
                }
            }
        }
        XCTAssertEqual(problems, [], problems.prefix(30).joined(separator: "\n"))
    }

    /// The marquee draws no pixel outside its box, whatever the offset, and its end shows.
    func testMarqueeInkStaysInItsBox() {
        let box = Rect(x: 13, y: 5, w: 50, h: 8)
        let text = "A long title that scrolls past the end of its box"
        let travel = Font.textWidth(text) - box.w
        var sawEnd = false
        for ms in stride(from: Int64(0), to: 12_000, by: 100) {
            var c = Canvas(width: 90, height: 20, background: .black)
            c.drawMarquee(text, x: box.x, y: box.y, width: box.w, color: .white, ms: ms)
            for y in 0..<c.height {
                for x in 0..<c.width where c.pixels[y * c.width + x] != RGB565.black.raw {
                    XCTAssertTrue(box.contains(x: x, y: y), "ink at \(x),\(y) at \(ms) ms")
                }
            }
            if Font.marqueeOffset(textWidth: Font.textWidth(text), boxWidth: box.w, ms: ms) == travel { sawEnd = true }
        }
        XCTAssertTrue(sawEnd)
    }

    /// The ink rectangles the text is drawn with cover exactly the glyph bitmaps' pixels, for every
    /// character of both faces (and the box for unknown ones), without overlapping.
    func testInkRectanglesAreExactlyTheBitmaps() throws {
        for face in FontFace.allCases {
            for cp in Font.codePoints + [0x4E2D] {
                let ch = Character(try XCTUnwrap(Unicode.Scalar(cp)))
                let rows = face.bitmap(for: ch)
                var painted = Array(repeating: UInt16(0), count: rows.count)
                for r in Font.ink(ch, face) {
                    for y in Int(r.y)..<Int(r.y + r.h) {
                        for x in Int(r.x)..<Int(r.x + r.w) {
                            let bit = UInt16(1) << UInt16(face.glyphWidth - 1 - x)
                            XCTAssertEqual(painted[y] & bit, 0, "overlap in U+\(String(cp, radix: 16)) \(face)")
                            painted[y] |= bit
                        }
                    }
                }
                XCTAssertEqual(painted, rows, "U+\(String(cp, radix: 16)) \(face)")
            }
        }
    }

    /// Word wrap keeps every character: long words break at the line's end without a hyphen, the
    /// rest of the text flows on, and `flow` puts what does not fit on its last line.
    func testBreakLinesKeepsEveryCharacter() {
        for s in [Self.longWord, Self.maxLength, Self.latin1, "a", "", "   spaced    out   "] {
            for w in [6, 30, 60, 100, 228] {
                let lines = Txt.breakLines(s, .small, width: w)
                XCTAssertEqual(Self.squeeze(lines.map(\.text).joined()), Self.squeeze(s), "\(s) at \(w)")
                for l in lines { XCTAssertLessThanOrEqual(Txt.width(l.text, .small), max(6, w), "\(l) at \(w)") }
                XCTAssertFalse(lines.contains { $0.text.hasSuffix("-") && !s.contains("-") })
                // The rest from any line reads on to the end.
                for k in lines.indices { XCTAssertTrue(Self.squeeze(s).hasSuffix(Self.squeeze(Txt.rest(lines, from: k)))) }
            }
        }
        var c = Canvas(width: 120, height: 40)
        Txt.flow(&c, Self.maxLength, x: 0, y: 0, width: 120, maxLines: 2, .white, .small, ms: 0)
        XCTAssertEqual(c.textRuns.count, 2)
        XCTAssertEqual(Self.reading(c), Self.squeeze(Self.maxLength))
        // Without a clock (e-paper) the last line ends in "..." instead.
        var paper = Canvas(width: 120, height: 40)
        Txt.flow(&paper, Self.maxLength, x: 0, y: 0, width: 120, maxLines: 2, .white, .small, ms: nil)
        XCTAssertTrue(paper.textRuns.last?.text.hasSuffix("...") ?? false)
    }
}
