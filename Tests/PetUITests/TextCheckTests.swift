import Foundation
import XCTest
import PetCore
@testable import PetUI

/// Nothing cut off, nothing over other text (docs/design.md, "Text that is never cut"), checked
/// from what each string left on the finished frame (`Canvas.textLog`, `textProblems()`).
///
/// Why `TextClipTests` passed over cut text: it checks `textRuns`, which record a string's whole
/// text and rectangle as it was asked for — a marquee records its whole text over its box although
/// at rest it shows "left toda" cut mid-word (and mid-glyph when the box is not a whole number of
/// cells); a fill drawn later over part of a string (a card's edge, the hint strip) drops only the
/// runs it covers entirely, so a half-covered one stays recorded whole; and its overlap test ran
/// on five screens only, never with a toast, reminder or menu. This check looks at the pixels:
/// every glyph must lie inside its box and the panel, still show exactly as drawn (or the whole
/// string be covered), and share no pixels with another string's glyphs — except a marquee while
/// it moves (cut at its box's ends by design) and a deliberate ellipsis.
final class TextCheckTests: XCTestCase {
    /// (frame, display) pairs that fail today and must keep failing until fixed: a case that
    /// passes must be taken off this list (so the list only shrinks), a new failure is an error.
    static let knownFailing: Set<String> = []

    /// Moments (ms after the last input) the frames are drawn at: at rest, scrolling, at the end.
    static let moments: [Int64] = [0, 1_700, 4_100, 9_000]

    /// Every frame checked: the screens' fixture frames and variants, the status frame (every
    /// status icon) and the hostile titles; with a device status for the status frame.
    static func frames() -> [(name: String, state: PetState, ui: UIState, device: DeviceStatus?)] {
        var out = ScreenTests.frames().map { (name: $0.0, state: $0.1, ui: $0.2, device: DeviceStatus?.none) }
        out.append((name: "home-status", state: UIFixture.statusState(), ui: UIFixture.ui(for: .home), device: UIFixture.statusDevice))
        out += TextClipTests.hostileFrames().map { (name: $0.0, state: $0.1, ui: $0.2, device: DeviceStatus?.none) }
        return out
    }

    static func render(_ p: DisplayProfile, _ t: DeviceSettings.ThemeName, _ st: PetState, _ ui: UIState,
                       device: DeviceStatus?, ms: Int64) -> Canvas {
        var ctx = ScreenContext(state: st, ui: ui, now: UIFixture.now, nowMs: UIFixture.now.seconds * 1000 + ms,
                                config: Navigator.Config(profile: p), theme: Theme.resolve(t, for: p))
        if let device { ctx.device = device }
        var c = Canvas(width: p.width, height: p.height)
        c.textLog = TextLog()
        Screens.render(ctx, into: &c)
        return c
    }

    /// What the owner wrote (task titles, habits, the pet's name, the self-image goal) or a circle's
    /// members chose (the circle's id, their member ids and pets' names): the only text a screen
    /// may shorten ("...") or scroll. The device's own copy must fit its box.
    static func ownerTexts(_ s: PetState) -> [String] {
        var out = s.tasks.values.map(\.title) + s.habits.habits.values.map(\.text) + [s.pet.name]
        if let g = s.habits.selfImage { out.append(g) }
        out += s.circles.circles.keys
        out += s.circles.standings.values.flatMap { $0.flatMap { $0.rows.flatMap { [$0.member, $0.petName] } } }
        return out.filter { !$0.isEmpty }
    }

    /// Whether `text` is (a piece of) something the owner wrote.
    static func isOwnerText(_ text: String, _ owner: [String]) -> Bool {
        let t = TextClipTests.squeeze(text)
        guard !t.isEmpty else { return false }
        return owner.contains { o in
            let w = TextClipTests.squeeze(o)
            return w.contains(t) || t.contains(w) || (t.count >= 8 && w.contains(t.prefix(8)))
        }
    }

    /// The frame's problems: `textProblems()`, and any of the device's own copy shortened or scrolled.
    static func problems(_ c: Canvas, owner: [String]) -> [String] {
        var out = c.textProblems().map(\.description)
        for e in c.textLog?.entries ?? [] where e.fit != .whole && !isOwnerText(e.text, owner) {
            out.append("'\(e.text)' is the device's copy and does not fit its box (shown '\(e.shown)')")
        }
        return out
    }

    /// Each failing (frame, display) with its problems (the first theme and moment that shows any).
    static func failures() -> [String: [String]] {
        var out: [String: [String]] = [:]
        for p in DisplayProfile.all {
            for (name, st, ui, device) in frames() {
                let key = "\(name)@\(p.id)"
                search: for t in ScreenTests.themes {
                    for ms in moments {
                        let problems = Self.problems(render(p, t, st, ui, device: device, ms: ms), owner: ownerTexts(st))
                        if !problems.isEmpty {
                            out[key] = problems.map { "\(t) +\(ms)ms: \($0)" }
                            break search
                        }
                    }
                }
            }
        }
        return out
    }

    func testNoTextIsCutOrOverOtherText() throws {
        // DESKPET_TEXT_CHECK_PNG=<folder> writes each frame (light, at rest) there to look at.
        if let dir = ProcessInfo.processInfo.environment["DESKPET_TEXT_CHECK_PNG"] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for p in DisplayProfile.all {
                for (name, st, ui, device) in Self.frames() {
                    let c = Self.render(p, .light, st, ui, device: device, ms: 0)
                    try Data(PNG.encode(rgb565: c)).write(to: URL(fileURLWithPath: "\(dir)/\(name)@\(p.id).png"))
                }
            }
        }
        let failing = Self.failures()
        // DESKPET_TEXT_CHECK=list prints every failing case with its problems.
        if ProcessInfo.processInfo.environment["DESKPET_TEXT_CHECK"] == "list" {
            for k in failing.keys.sorted() { print("FAILING \(k):\n  " + (failing[k] ?? []).joined(separator: "\n  ")) }
        }
        let new = failing.keys.filter { !Self.knownFailing.contains($0) }.sorted()
        let fixed = Self.knownFailing.filter { failing[$0] == nil }.sorted()
        let report = new.map { "\($0):\n  " + (failing[$0] ?? []).prefix(4).joined(separator: "\n  ") }
        XCTAssertEqual(new, [], "text cut or overlapping:\n" + report.joined(separator: "\n"))
        XCTAssertEqual(fixed, [], "these pass now: take them off TextCheckTests.knownFailing")
    }

    /// The OLED home: the pet with its line first; 6 s after the last input the second page shows
    /// the level, the meters and the name; the status and task lines stay.
    func testTheOLEDHomeHasASecondPageWithTheMeters() {
        let st = UIFixture.state()
        let first = Self.render(.oled128, .light, st, UIFixture.ui(for: .home), device: nil, ms: 0)
        let second = Self.render(.oled128, .light, st, UIFixture.ui(for: .home), device: nil, ms: 7_000)
        XCTAssertTrue(first.showsText("Drink some"), "\(first.textRuns.map(\.text))")
        XCTAssertFalse(first.showsText("Lv "))
        XCTAssertTrue(second.showsText("Lv \(st.level)") && second.showsText(st.pet.name), "\(second.textRuns.map(\.text))")
        for c in [first, second] { XCTAssertTrue(c.showsText("09:40") && c.showsText("Pay rent")) }
        XCTAssertEqual(Self.problems(second, owner: Self.ownerTexts(st)), [])
    }

    /// A zero streak shows no flame (a "0" beside a flame reads as a loss); a streak shows it.
    func testAZeroStreakShowsNoFlame() {
        var st = UIFixture.state()
        for p in DisplayProfile.all {
            st.streak = 0
            let zero = Self.render(p, .light, st, UIFixture.ui(for: .home), device: nil, ms: 7_000)
            XCTAssertFalse(zero.textRuns.contains { $0.text.contains(Glyph.flame) }, "\(p.id): \(zero.textRuns.map(\.text))")
            st.streak = 4
            let some = Self.render(p, .light, st, UIFixture.ui(for: .home), device: nil, ms: 7_000)
            XCTAssertTrue(some.textRuns.contains { $0.text.contains(Glyph.flame) } && some.showsText("4"), "\(p.id)")
        }
    }

    /// The strip speaks one vocabulary on every frame and display: at most three hints, each
    /// "KEY word", "hold KEY word" or "KEYKEY word" — never a short form — and on three buttons
    /// the down move whenever the screen has one; its text clear of the strip's rule and of the
    /// panel's last row.
    func testHintsSpeakOneVocabulary() {
        for p in DisplayProfile.all {
            let strip = HintBar.rect(p)
            for (name, st, ui, _) in Self.frames() where ui.screen != .boot && ui.toasts.isEmpty {
                let ctx = ScreenContext(state: st, ui: ui, now: UIFixture.now, config: Navigator.Config(profile: p),
                                        theme: Theme.resolve(.light, for: p))
                let hints = HintBar.hints(ctx)
                XCTAssertLessThanOrEqual(hints.count, 3, "\(name)@\(p.id)")
                for h in hints {
                    XCTAssertNotNil(h.text.range(of: "^(hold )?(A|B|C|AA|BB|CC) [a-z ]+$", options: .regularExpression),
                                    "\(name)@\(p.id): '\(h.text)'")
                }
                if ctx.view.actions.contains(where: { $0.verb == .down && $0.hinted }) || ctx.view.actions.contains(where: { $0.input == .holdPrevious && $0.verb == .down }) {
                    XCTAssertTrue(hints.contains { $0.verb == .down }, "\(name)@\(p.id): no down in \(hints.map(\.text))")
                }
                let c = Self.render(p, .light, st, ui, device: nil, ms: 0)
                for r in c.textRuns where r.rect.intersection(strip) != nil && ctx.view.tip == nil {
                    XCTAssertGreaterThanOrEqual(r.rect.y, strip.y + 2, "\(name)@\(p.id): '\(r.text)' on the strip's rule")
                    XCTAssertLessThan(r.rect.maxY, p.height, "\(name)@\(p.id): '\(r.text)' on the panel's last row")
                }
            }
        }
    }

    // MARK: The check itself, on frames made to break it

    func logged(_ w: Int = 60, _ h: Int = 20) -> Canvas {
        var c = Canvas(width: w, height: h)
        c.textLog = TextLog()
        return c
    }

    func testTextRunningOffThePanelIsCut() {
        var c = logged()
        c.drawText("Hello", x: 40, y: 2, color: .white)     // 30 px wide from 40 on a 60 px canvas
        XCTAssertEqual(c.textProblems().map(\.kind), [.panelEdge])
        var below = logged()
        below.drawText("Hi", x: 0, y: 16, color: .white)    // 8 rows from 16 on a 20 px canvas
        XCTAssertEqual(below.textProblems().map(\.kind), [.panelEdge])
    }

    func testTextHalfCoveredByLaterDrawingIsCut() {
        var c = logged()
        c.drawText("Hello", x: 0, y: 2, color: .white)
        c.fillRect(x: 14, y: 0, w: 46, h: 20, color: .black)   // covers "llo" and half of "e"... the background colour
        XCTAssertEqual(c.textProblems().map(\.kind), [.covered])
        var bottom = logged()
        bottom.drawText("Hello", x: 0, y: 2, color: .white)
        bottom.fillRect(x: 0, y: 7, w: 60, h: 13, color: .blue)  // the strip under it takes the last rows
        XCTAssertEqual(bottom.textProblems().map(\.kind), [.covered])
    }

    func testTextWhollyCoveredIsNotAProblem() {
        var c = logged()
        c.drawText("Hello", x: 0, y: 2, color: .white)
        c.fillRect(x: 0, y: 0, w: 60, h: 20, color: .blue)
        XCTAssertEqual(c.textProblems(), [])
    }

    func testTextOverTextOverlaps() {
        var c = logged(120, 20)
        c.drawText("Tidy the desk", x: 0, y: 2, color: .white)
        c.drawText("18:00", x: 30, y: 2, color: .white)
        XCTAssertTrue(c.textProblems().contains { $0.kind == .overlap || $0.kind == .covered })
        // Side by side with a gap is fine; so is one line right under another.
        var ok = logged(120, 30)
        ok.drawText("Tidy", x: 0, y: 2, color: .white)
        ok.drawText("18:00", x: 30, y: 2, color: .white)
        ok.drawText("desk", x: 0, y: 10, color: .white)
        XCTAssertEqual(ok.textProblems(), [])
    }

    func testMarqueeAtRestIsAnEllipsisAndMovingIsNotCut() {
        let text = "A long title that scrolls past the end of its box"
        var rest = logged(90, 20)
        rest.drawMarquee(text, x: 3, y: 2, width: 50, color: .white, ms: 0)
        var moving = logged(90, 20)
        moving.drawMarquee(text, x: 3, y: 2, width: 50, color: .white, ms: 3_000)
        XCTAssertEqual(moving.textProblems(), [])
        // A text that fits its marquee box is drawn whole.
        var fits = logged(90, 20)
        fits.drawMarquee("Short", x: 3, y: 2, width: 50, color: .white, ms: 0)
        XCTAssertEqual(fits.textProblems(), [])
        // At rest it is a deliberate ellipsis in whole glyphs, at both ends.
        XCTAssertEqual(rest.textProblems(), [])
        XCTAssertEqual(rest.textLog?.entries.first?.shown, "A lon...")
        var end = logged(90, 20)
        end.drawMarquee(text, x: 3, y: 2, width: 50, color: .white, ms: 10_000)
        XCTAssertEqual(end.textProblems(), [])
        XCTAssertEqual(end.textLog?.entries.first?.shown, "...s box")
    }

    func testEllipsisIsDeliberate() {
        var c = logged()
        c.drawText("A long title here", x: 0, y: 2, color: .white, maxWidth: 50)
        XCTAssertEqual(c.textLog?.entries.first?.fit, .ellipsized)
        XCTAssertEqual(c.textProblems(), [])
    }

    func testTheLogStartsAfreshWithEachFrameAndIsOffByDefault() {
        var c = logged()
        c.drawText("Old", x: 0, y: 0, color: .white)
        c.clear()
        c.drawText("New", x: 0, y: 0, color: .white)
        XCTAssertEqual(c.textLog?.entries.map(\.text), ["New"])
        var off = Canvas(width: 20, height: 10)
        off.drawText("x", x: 0, y: 0, color: .white)
        XCTAssertNil(off.textLog)
    }
}
