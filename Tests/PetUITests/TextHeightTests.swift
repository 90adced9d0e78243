import XCTest
import PetCore
@testable import PetUI

/// The physical height of the smallest text on every display (docs/screens.md): capitals at
/// least `DisplayProfile.minimumCapHeightMM` (1.1 mm) tall on the panel's glass.
///
/// Capital height of the 6×8 face (7 px): 240×240 1.3" 0.68 mm, 320×240 2.0" 0.89 mm, 128×64 0.96"
/// 1.19 mm, 250×122 2.13" 1.36 mm. So the colour panels draw every text in the 12×16 face (14 px:
/// 1.36 mm and 1.78 mm) — `DisplayProfile.minimumFace`, which the screens' text helpers never go under.
final class TextHeightTests: XCTestCase {
    func testPanelPitches() throws {
        let expected = ["240x240": 0.68, "320x240": 0.89, "128x64": 1.19, "250x122": 1.36]
        for p in DisplayProfile.all {
            let mm = try XCTUnwrap(p.capHeightMM(.small), "\(p)")
            XCTAssertEqual(mm, try XCTUnwrap(expected[p.id]), accuracy: 0.01, "\(p)")
            // The 12×16 face meets the minimum everywhere.
            XCTAssertGreaterThanOrEqual(try XCTUnwrap(p.capHeightMM(.large)), DisplayProfile.minimumCapHeightMM, "\(p)")
            // The minimum face is the smallest that meets it.
            let minFace = p.minimumFace
            XCTAssertGreaterThanOrEqual(try XCTUnwrap(p.capHeightMM(minFace)), DisplayProfile.minimumCapHeightMM, "\(p)")
            if minFace == .large { XCTAssertLessThan(mm, DisplayProfile.minimumCapHeightMM, "\(p)") }
        }
        XCTAssertEqual(DisplayProfile.all.filter { $0.minimumFace == .large }.map(\.id).sorted(), ["240x240", "320x240"])
    }

    /// The smallest text run actually drawn on each display, over every screen and variant, both
    /// themes and a pet with hostile long text: never under the minimum on any display.
    func testSmallestRenderedTextPerDisplay() throws {
        var report: [String] = []
        for p in DisplayProfile.all {
            let pitch = try XCTUnwrap(p.pixelPitchMM)
            var smallest = Int.max, where_ = ""
            for t in ScreenTests.themes {
                for (name, st, ui) in ScreenTests.frames() + TextClipTests.hostileFrames() {
                    let c = ContrastTests.render(p, t, st, ui)
                    // A run's rect is its line: 8 px per 6×8 line (cap height 7), 16 per 12×16 line.
                    for r in c.textRuns where r.text.contains(where: { !$0.isWhitespace }) {
                        let cap = r.rect.h * 7 / 8
                        if cap < smallest { smallest = cap; where_ = "\(name) '\(r.text)'" }
                    }
                }
            }
            let mm = Double(smallest) * pitch
            if mm < DisplayProfile.minimumCapHeightMM {
                report.append("\(p.id): \((mm * 100).rounded() / 100) mm (\(where_))")
            }
        }
        XCTAssertEqual(report, [])
    }

    /// A smaller face asked for on a canvas with a floor is drawn in the floor's face.
    func testTheFloorLiftsSmallText() {
        var c = Canvas(width: 100, height: 40)
        c.minimumFace = .large
        Txt.draw(&c, "Due 9:00", x: 0, y: 10, .white, .small)
        XCTAssertEqual(c.textRuns.first?.rect.h, 16)
        // Kept inside the canvas at the bottom edge.
        Txt.draw(&c, "hint", x: 0, y: 32, .white, .small)
        XCTAssertEqual(c.textRuns.last?.rect.maxY, 40)
        var plain = Canvas(width: 100, height: 40)
        Txt.draw(&plain, "Due 9:00", x: 0, y: 10, .white, .small)
        XCTAssertEqual(plain.textRuns.first?.rect.h, 8)
    }
}
