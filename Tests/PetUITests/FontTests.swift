import XCTest
@testable import PetUI

final class FontTests: XCTestCase {
    func testGlyphTableIsComplete() {
        for cp in 0x20...0x7E {
            let ch = Character(Unicode.Scalar(UInt8(cp)))
            XCTAssertTrue(Font.hasGlyph(ch), "missing \(cp)")
            let rows = Font.rows(for: ch)
            XCTAssertEqual(rows.count, 8)
            XCTAssertTrue(rows.allSatisfy { $0 < 32 })
        }
        for (_, art) in Font.art {
            let widths = art.split(separator: " ").map(\.count)
            XCTAssertTrue(widths == Array(repeating: 5, count: 7) || widths == Array(repeating: 5, count: 8), art)
        }
        // Every glyph is distinct (no copy/paste slips), apart from space being empty.
        let all = Font.art.map { $0.1 }
        XCTAssertEqual(Set(all).count, all.count)
        for g in [Glyph.coin, Glyph.heart, Glyph.flame, Glyph.check, Glyph.bell, Glyph.lock] {
            XCTAssertTrue(Font.hasGlyph(g))
        }
        XCTAssertFalse(Font.hasGlyph("中"))
        XCTAssertFalse(Font.hasGlyph("👍🏽"))
    }

    func testWidths() {
        XCTAssertEqual(Font.textWidth(""), 0)
        XCTAssertEqual(Font.textWidth("abc"), 18)
        XCTAssertEqual(Font.textWidth("abc", scale: 2), 36)
        XCTAssertEqual(Font.textWidth("\(Glyph.coin)12"), 18)
        let c = Canvas(width: 1, height: 1)
        XCTAssertEqual(c.textWidth("Lv 3", scale: 2), 48)
    }

    func testEllipsizing() {
        XCTAssertEqual(Font.fit("Hello world", maxWidth: 66), "Hello world")
        XCTAssertEqual(Font.fit("Hello world", maxWidth: 65), "Hello w...")  // 10 cells → 7 + "..."
        XCTAssertEqual(Font.fit("Hello world", maxWidth: 48), "Hello...")
        XCTAssertEqual(Font.fit("Hello world", maxWidth: 42), "Hell...")
        XCTAssertEqual(Font.fit("Hello world", scale: 2, maxWidth: 96), "Hello...")
        XCTAssertEqual(Font.fit("Hello world", maxWidth: 18), "...")
        XCTAssertEqual(Font.fit("Hello world", maxWidth: 12), "..")
        XCTAssertEqual(Font.fit("Hello world", maxWidth: -5), "")
        XCTAssertEqual(Font.fit("Hello", maxWidth: nil), "Hello")

        var c = Canvas(width: 240, height: 40)
        let w = c.drawText("Water the plants today", x: 0, y: 0, color: .white, maxWidth: 60)
        XCTAssertEqual(w, 60)
        XCTAssertEqual(c.textRuns.last?.text, "Water t...")
        XCTAssertLessThanOrEqual(w, 60)
        // Ink never passes maxWidth.
        for y in 0..<40 { for x in 60..<240 { XCTAssertEqual(c.pixels[y * 240 + x], 0) } }
    }

    func testGlyphPixelsAndUnknownBox() {
        var c = Canvas(width: 12, height: 8)
        c.drawText("中", x: 0, y: 0, color: .white)
        // Box outline: full top row, hollow inside.
        for x in 0..<5 { XCTAssertEqual(c.pixel(x: x, y: 0), .white) }
        XCTAssertEqual(c.pixel(x: 0, y: 3), .white)
        XCTAssertEqual(c.pixel(x: 2, y: 3), .black)
        XCTAssertEqual(c.pixel(x: 5, y: 0), .black)   // spacing column
        var s = Canvas(width: 12, height: 16)
        s.drawText("I", x: 0, y: 0, color: .white, scale: 2)
        // "I" top row is .###. → pixels x 2..7 at scale 2.
        XCTAssertEqual(s.pixel(x: 1, y: 0), .black)
        XCTAssertEqual(s.pixel(x: 2, y: 1), .white)
        XCTAssertEqual(s.pixel(x: 7, y: 0), .white)
        XCTAssertEqual(s.pixel(x: 8, y: 0), .black)
    }

    func testTextRuns() {
        var c = Canvas(width: 100, height: 100)
        c.drawText("Hello", x: 5, y: 5, color: .white)
        c.drawText("A very long line of text", x: 5, y: 20, color: .white, maxWidth: 60)
        c.drawText("invisible", x: 500, y: 5, color: .white)
        XCTAssertEqual(c.textRuns.map(\.text), ["Hello", "A very..."])  // trailing space trimmed
        XCTAssertEqual(c.textRuns.first?.rect, Rect(x: 5, y: 5, w: 30, h: 8))
        XCTAssertTrue(c.showsText("ell"))
        XCTAssertTrue(c.showsText("A very"))
        XCTAssertFalse(c.showsText("long line"))
        XCTAssertFalse(c.showsText("invisible"))
        // Painting over text hides it.
        c.fillRect(x: 0, y: 0, w: 100, h: 15, color: .black)
        XCTAssertFalse(c.showsText("Hello"))
        XCTAssertTrue(c.showsText("A very"))
        c.clear(.black)
        XCTAssertTrue(c.textRuns.isEmpty)
    }
}

final class SpriteTests: XCTestCase {
    func testSpriteFromArt() {
        let s = Sprite(rows: ["ab.", "b", "xyz?"], palette: ["a": .red, "b": .blue, ".": nil])
        XCTAssertEqual(s.width, 4); XCTAssertEqual(s.height, 3)
        XCTAssertEqual(s.color(x: 0, y: 0), .red)
        XCTAssertNil(s.color(x: 2, y: 0))
        XCTAssertNil(s.color(x: 3, y: 1))          // padded
        XCTAssertNil(s.color(x: 0, y: 2))          // unknown character → transparent
        var c = Canvas(width: 8, height: 6, background: .white)
        c.draw(s, x: 1, y: 1, scale: 2)
        XCTAssertEqual(c.pixel(x: 1, y: 1), .red)
        XCTAssertEqual(c.pixel(x: 2, y: 2), .red)
        XCTAssertEqual(c.pixel(x: 3, y: 1), .blue)
        XCTAssertEqual(c.pixel(x: 5, y: 1), .white)  // transparent keeps background
    }
}
