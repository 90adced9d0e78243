import XCTest
@testable import PetUI

/// Latin-1 letters and signs, the large face, ellipsizing with it and the marquee.
final class FontLatin1Tests: XCTestCase {
    /// ASCII, every Latin-1 letter (À–ÿ, with × and ÷), the Latin-1 signs we draw, and the symbols.
    static let required: [UInt32] = Array(0x20...0x7E) + Array(0xC0...0xFF)
        + [0xA0, 0xA1, 0xA2, 0xA3, 0xA5, 0xA7, 0xA9, 0xAB, 0xB0, 0xB1, 0xB7, 0xBB, 0xBF, 0x20AC, 0x2026]
        + [0xE000, 0xE001, 0xE002, 0xE003, 0xE004, 0xE005]

    func testEveryGlyphIsPresentInBothFaces() throws {
        for cp in Self.required {
            let ch = Character(try XCTUnwrap(Unicode.Scalar(cp)))
            for face in FontFace.allCases {
                XCTAssertTrue(face.hasGlyph(ch), "\(face) lacks U+\(String(cp, radix: 16))")
                let rows = face.bitmap(for: ch)
                XCTAssertEqual(rows.count, face.glyphHeight)
                XCTAssertTrue(rows.allSatisfy { $0 < 1 << UInt16(face.glyphWidth) })
            }
        }
        XCTAssertTrue(Font.hasGlyph("é"))
        for g in [Glyph.coin, Glyph.heart, Glyph.flame, Glyph.check, Glyph.bell, Glyph.lock] {
            XCTAssertTrue(FontFace.large.hasGlyph(g))
        }
        XCTAssertFalse(FontFace.large.hasGlyph("中"))
        XCTAssertFalse(FontFace.small.hasGlyph("👍🏽"))
    }

    func testLatin1ArtIsWellFormedAndDistinct() {
        for (cp, art) in Font.latin1Art {
            let widths = art.split(separator: " ").map(\.count)
            XCTAssertTrue(widths == Array(repeating: 5, count: 7) || widths == Array(repeating: 5, count: 8), "U+\(String(cp, radix: 16))")
        }
        // No glyph is a copy of another (the no-break space is blank like the space; in 7 rows
        // the accented capital O's are drawn like the small ones).
        let all = (Font.art + Font.latin1Art).filter { $0.0 != 0xA0 && !(0xD2...0xD6).contains($0.0) }.map(\.1)
        XCTAssertEqual(Set(all).count, all.count)
        // An accented letter differs from its base letter in both faces, and only in the accent rows.
        for face in FontFace.allCases {
            XCTAssertNotEqual(face.bitmap(for: "é"), face.bitmap(for: "e"))
            XCTAssertNotEqual(face.bitmap(for: "Ñ"), face.bitmap(for: "N"))
        }
        let e = Font.rows(for: "e"), eAcute = Font.rows(for: "é")
        XCTAssertEqual(Array(e[2...]), Array(eAcute[2...]))
    }

    func testTheLargeFaceIsScale2xOfTheSmallOne() {
        // "I": the small top row .###. becomes ..######.. and the stem two columns wide.
        let big = FontFace.large.bitmap(for: "I")
        XCTAssertEqual(big[0], 0b0011111100)
        XCTAssertEqual(big[2], 0b0001111000)          // the inner corners are filled
        XCTAssertEqual(big[4], 0b0000110000)
        // A diagonal ("/") gets its corners filled: no isolated staircase steps.
        let slash = FontFace.large.bitmap(for: "/")
        XCTAssertEqual(slash[2], 0b0000000011)
        XCTAssertEqual(slash[3], 0b0000000111)
        // Unknown characters draw a box in both faces.
        XCTAssertEqual(FontFace.large.bitmap(for: "中"), Font.largeBox)
        XCTAssertEqual(FontFace.small.bitmap(for: "中").map { UInt8($0) }, Font.box)
        XCTAssertEqual(Font.largeBox.first, 0b0111111110)   // Scale2x rounds the outer corners
        XCTAssertEqual(Font.largeBox[6], 0b1100000011)
    }

    func testWidthsWithTheLargeFace() {
        XCTAssertEqual(Font.textWidth("abc", face: .large), 36)
        XCTAssertEqual(Font.textWidth("abc", face: .large, scale: 2), 72)
        XCTAssertEqual(Font.textWidth("Zoë"), 18)
        let c = Canvas(width: 1, height: 1)
        XCTAssertEqual(c.textWidth("Lv 3", face: .large), 48)
        XCTAssertEqual(c.textWidth("Lv 3"), 24)
    }

    func testEllipsizingWithTheLargeFace() {
        XCTAssertEqual(Font.fit("Hello world", face: .large, maxWidth: 132), "Hello world")
        XCTAssertEqual(Font.fit("Hello world", face: .large, maxWidth: 131), "Hello w...")
        XCTAssertEqual(Font.fit("Hello world", face: .large, maxWidth: 96), "Hello...")
        XCTAssertEqual(Font.ellipsize("Crème brûlée au café", face: .large, to: 120), "Crème b...")
        XCTAssertEqual(Font.fit("Hello world", face: .large, maxWidth: 30), "..")

        var c = Canvas(width: 240, height: 40)
        let w = c.drawText("Water the plants today", x: 0, y: 0, color: .white, face: .large, maxWidth: 120)
        XCTAssertEqual(w, 120)
        XCTAssertEqual(c.textRuns.last?.text, "Water t...")
        XCTAssertEqual(c.textRuns.last?.rect, Rect(x: 0, y: 0, w: 120, h: 16))
        XCTAssertEqual(c.dirty.map { $0.maxX <= 120 && $0.maxY <= 16 }, true)
    }

    func testLargeTextDrawsTheGlyphBitmap() {
        var c = Canvas(width: 12, height: 16)
        c.drawText("ß", x: 0, y: 0, color: .white, face: .large)
        let rows = FontFace.large.bitmap(for: "ß")
        for y in 0..<16 {
            for x in 0..<12 {
                let ink = y < 14 && x < 10 && rows[y] & (1 << UInt16(9 - x)) != 0
                XCTAssertEqual(c.pixel(x: x, y: y), ink ? .white : .black, "(\(x), \(y))")
            }
        }
    }

    func testMarqueeOffsetIsAPureFunctionOfTime() {
        // 100 px of text in a 40 px box: 60 px to travel at 30 px/s = 2 s, with 1.5 s rests: 5 s cycle.
        let o = { (ms: Int64) in Font.marqueeOffset(textWidth: 100, boxWidth: 40, ms: ms) }
        XCTAssertEqual(o(0), 0)
        XCTAssertEqual(o(1499), 0)
        XCTAssertEqual(o(1500), 0)
        XCTAssertEqual(o(2500), 30)
        XCTAssertEqual(o(3499), 59)
        XCTAssertEqual(o(3500), 60)
        XCTAssertEqual(o(4999), 60)
        XCTAssertEqual(o(5000), 0)
        XCTAssertEqual(o(7500), 30)
        XCTAssertEqual(o(-1), 60)
        XCTAssertEqual(Font.marqueeOffset(textWidth: 40, boxWidth: 40, ms: 2500), 0)
        XCTAssertEqual(Font.marqueeOffset(textWidth: 100, boxWidth: 40, ms: 2500, pxPerSecond: 0), 0)
    }

    func testMarqueeDrawsOnlyInsideItsBox() {
        var c = Canvas(width: 100, height: 20)
        c.drawMarquee("A long title that scrolls", x: 20, y: 4, width: 50, color: .white, face: .small, ms: 3000)
        for y in 0..<20 {
            for x in 0..<100 where !(x >= 20 && x < 70 && y >= 4 && y < 12) {
                XCTAssertEqual(c.pixel(x: x, y: y), .black, "(\(x), \(y)) outside the box")
            }
        }
        XCTAssertTrue(c.showsText("A long title that scrolls"))
        XCTAssertEqual(c.textRuns.last?.rect, Rect(x: 20, y: 4, w: 50, h: 8))
        // At two instants the visible text differs (it moved); while resting it does not.
        var a = Canvas(width: 100, height: 20), b = Canvas(width: 100, height: 20)
        a.drawMarquee("A long title that scrolls", x: 0, y: 0, width: 50, color: .white, ms: 2000)
        b.drawMarquee("A long title that scrolls", x: 0, y: 0, width: 50, color: .white, ms: 3000)
        XCTAssertNotEqual(a.pixels, b.pixels)
        var r1 = Canvas(width: 100, height: 20), r2 = Canvas(width: 100, height: 20)
        r1.drawMarquee("A long title that scrolls", x: 0, y: 0, width: 50, color: .white, ms: 100)
        r2.drawMarquee("A long title that scrolls", x: 0, y: 0, width: 50, color: .white, ms: 1400)
        XCTAssertEqual(r1.pixels, r2.pixels)
    }
}
