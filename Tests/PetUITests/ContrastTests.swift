import XCTest
import PetCore
@testable import PetUI

/// WCAG AA contrast measured on the rendered frames of every screen × display × theme (docs/screens.md,
/// item 3): text ≥ 4.5:1, bars, rings and icons ≥ 3:1 against what they sit on.
///
/// How the text measurement works: every text run the canvas records has a rect (its cells, or
/// the marquee box). In that rect the two most frequent colours are taken as the background (the
/// most frequent) and the ink (the second); their ratio must be ≥ 4.5. Limits: a run drawn over a
/// boundary between two fills (a pill edge, the pet) can make the second colour a fill rather than
/// the ink, which can only make the check stricter (or, rarely, pass a pair of fills); glyphs drawn in two colours (a coloured icon before text) are measured on the
/// dominant ink only — the icon colours are checked separately below (3:1). Runs with no ink (all
/// spaces) are skipped; a run whose rect holds one colour only is invisible text and fails. Runs
/// of icon glyphs only are graphics and need 3:1. The screen's runs are measured on the frame
/// drawn without its overlays (toasts, reminder, missed banner), the overlays' runs on the full
/// frame, so text an overlay covers on purpose is not counted against it.
final class ContrastTests: XCTestCase {
    static func dominantPair(_ c: Canvas, _ r: Rect) -> (bg: RGB565, ink: RGB565)? {
        guard let rr = r.intersection(c.bounds) else { return nil }
        var counts: [UInt16: Int] = [:]
        for y in rr.y..<rr.maxY { for x in rr.x..<rr.maxX { counts[c.pixels[y * c.width + x], default: 0] += 1 } }
        let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        guard sorted.count >= 2 else { return nil }
        return (RGB565(raw: sorted[0].key), RGB565(raw: sorted[1].key))
    }

    static let icons: Set<Character> = [Glyph.coin, Glyph.heart, Glyph.flame, Glyph.check, Glyph.bell, Glyph.lock,
                                        Glyph.phone, Glyph.moon, Glyph.pause, Glyph.food, Glyph.energy]

    static func render(_ p: DisplayProfile, _ t: DeviceSettings.ThemeName, _ st: PetState, _ ui: UIState) -> Canvas {
        let ctx = ScreenContext(state: st, ui: ui, now: UIFixture.now, config: Navigator.Config(profile: p),
                                theme: Theme.resolve(t, for: p))
        var c = Canvas(width: p.width, height: p.height)
        Screens.render(ctx, into: &c)
        return c
    }

    func testRenderedTextMeetsAA() {
        var worst: [String] = []
        var measured = 0
        for p in DisplayProfile.all {
            for t in ScreenTests.themes {
                for (name, st, ui) in ScreenTests.frames() {
                    // A run the frame without overlays draws the same (text and rect) is measured
                    // there: a toast or reminder covering it is not its background. The overlays'
                    // runs, and runs an overlay moved, are measured on the full frame.
                    var bare = ui
                    bare.toasts = []; bare.reminder = nil; bare.missedBanner = 0
                    let base = Self.render(p, t, st, bare), full = Self.render(p, t, st, ui)
                    let baseRuns = Set(base.textRuns)
                    let runs: [(TextRun, Canvas)] = full.textRuns.map { (run: TextRun) -> (TextRun, Canvas) in (run, baseRuns.contains(run) ? base : full) }
                    for (run, c) in runs where run.text.contains(where: { !$0.isWhitespace }) {
                        guard let pair = Self.dominantPair(c, run.rect) else {
                            worst.append("\(name) \(p.width)x\(p.height) \(t) '\(run.text)': one colour only")
                            continue
                        }
                        measured += 1
                        // Runs of icons only (coin, heart, ...) are graphics: 3:1.
                        let iconOnly = run.text.allSatisfy { $0.isWhitespace || Self.icons.contains($0) }
                        let need = iconOnly ? 3.0 : 4.5
                        let ratio = pair.bg.contrastRatio(with: pair.ink)
                        if ratio < need {
                            worst.append("\(name) \(p.width)x\(p.height) \(t) '\(run.text)': "
                                         + "\(String(pair.ink.raw, radix: 16)) on \(String(pair.bg.raw, radix: 16)) = \((ratio * 100).rounded() / 100) < \(need)")
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(measured, 500)
        XCTAssertTrue(worst.isEmpty, "\(worst.count) text runs under AA:\n" + worst.prefix(80).joined(separator: "\n"))
    }

    /// Text colours against every surface text is drawn on, from the palette itself.
    func testPaletteTextPairs() {
        for theme in [Theme.light, .dark, .monoLight, .monoDark] {
            for surface in [theme.background, theme.panel] {
                XCTAssertGreaterThanOrEqual(theme.text.contrastRatio(with: surface), 4.5)
                XCTAssertGreaterThanOrEqual(theme.mutedText.contrastRatio(with: surface), 4.5, "muted \(theme)")
            }
            let pal = ScreenColors(theme, mono: theme.isMono)
            XCTAssertGreaterThanOrEqual(pal.onAccent.contrastRatio(with: pal.accent), 4.5, "text on the cursor pill")
            XCTAssertGreaterThanOrEqual(pal.bubbleText.contrastRatio(with: pal.bubble), 4.5)
        }
    }

    /// Bars, rings and icons ≥ 3:1 against what they sit on.
    func testBarsRingsAndIcons() {
        for theme in [Theme.light, .dark, .monoLight, .monoDark] {
            let pal = ScreenColors(theme, mono: theme.isMono)
            let name = theme.isMono ? "mono" : (theme == .light ? "light" : "dark")
            if !pal.mono {
                // The level bar: its fill against its track.
                XCTAssertGreaterThanOrEqual(pal.meter.contrastRatio(with: pal.track), 3, "\(name) level bar fill on track")
                // The ring around the pet's home against the page and against the backdrop inside it.
                XCTAssertGreaterThanOrEqual(pal.meter.contrastRatio(with: pal.bg), 3, "\(name) ring on background")
                XCTAssertGreaterThanOrEqual(pal.meter.contrastRatio(with: pal.backdrop), 3, "\(name) ring on backdrop")
                // Chart bars against the page.
                XCTAssertGreaterThanOrEqual(pal.meter.contrastRatio(with: pal.bg), 3, "\(name) chart bars on background")
            }
            // Coloured icons (coin, flame, check) on the page and on panels.
            for (icon, c) in [("coin", pal.coin), ("flame", pal.flame), ("good", pal.good)] {
                for surface in [pal.bg, pal.panel] {
                    XCTAssertGreaterThanOrEqual(c.contrastRatio(with: surface), 3, "\(name) \(icon)")
                }
            }
        }
    }

    /// The measurement sees the muted grey: text in #77778A on #F7F5EE is caught.
    func testMeasurementCatchesTheOldMutedText() throws {
        var c = Canvas(width: 60, height: 8, background: RGB565(hex: 0xF7F5EE))
        c.drawText("Due 9:00", x: 0, y: 0, color: RGB565(hex: 0x77778A))
        let pair = try XCTUnwrap(Self.dominantPair(c, try XCTUnwrap(c.textRuns.first).rect))
        XCTAssertEqual(pair.bg, RGB565(hex: 0xF7F5EE))
        XCTAssertEqual(pair.ink, RGB565(hex: 0x77778A))
        XCTAssertLessThan(pair.bg.contrastRatio(with: pair.ink), 4.5)
    }

    func testContrastMath() {
        XCTAssertEqual(RGB565.black.contrastRatio(with: .white), 21, accuracy: 0.01)
        XCTAssertEqual(RGB565.white.contrastRatio(with: .white), 1, accuracy: 0.0001)
        // The numbers: #77778A on #F7F5EE ≈ 4.2, yellow on the old track ≈ 1.07.
        XCTAssertEqual(RGB565(hex: 0x77778A).contrastRatio(with: RGB565(hex: 0xF7F5EE)), 4.19, accuracy: 0.05)
        XCTAssertEqual(RGB565(hex: 0xE8DE2A).contrastRatio(with: RGB565(hex: 0xE2E0D6)), 1.07, accuracy: 0.05)
    }
}
