import XCTest
@testable import PetUI

final class ColorTests: XCTestCase {
    func testPackingAndExpansion() {
        XCTAssertEqual(RGB565(r: 255, g: 255, b: 255).raw, 0xFFFF)
        XCTAssertEqual(RGB565(hex: 0xFF0000).raw, 0xF800)
        XCTAssertEqual(RGB565(hex: 0x00FF00).raw, 0x07E0)
        XCTAssertEqual(RGB565(hex: 0x0000FF).raw, 0x001F)
        let w = RGB565.white.rgb8
        XCTAssertEqual([w.r, w.g, w.b], [255, 255, 255])
        let k = RGB565.black.rgb8
        XCTAssertEqual([k.r, k.g, k.b], [0, 0, 0])
        // Round trip through 8 bits is stable for every 5/6-bit value.
        for raw in stride(from: 0, through: 0xFFFF, by: 97) {
            let c = RGB565(raw: UInt16(raw))
            XCTAssertEqual(RGB565(r: c.r8, g: c.g8, b: c.b8), c)
        }
        XCTAssertEqual(RGB565(hex: 0xE8DE2A), RGB565(r: 0xE8, g: 0xDE, b: 0x2A))
    }
}

final class RectTests: XCTestCase {
    func testUnionIntersection() {
        let a = Rect(x: 0, y: 0, w: 10, h: 10), b = Rect(x: 5, y: 5, w: 10, h: 10)
        XCTAssertEqual(a.union(b), Rect(x: 0, y: 0, w: 15, h: 15))
        XCTAssertEqual(a.intersection(b), Rect(x: 5, y: 5, w: 5, h: 5))
        XCTAssertNil(a.intersection(Rect(x: 10, y: 0, w: 5, h: 5)))   // touching edges only
        XCTAssertEqual(a.union(Rect(x: 100, y: 100, w: 0, h: 5)), a)   // empty ignored
        XCTAssertEqual(Rect(x: -5, y: 3, w: 20, h: 2).clipped(to: a), Rect(x: 0, y: 3, w: 10, h: 2))
        XCTAssertNil(Rect(x: Int.max, y: Int.max, w: Int.max, h: 1).clipped(to: a))
        XCTAssertNotNil(Rect(x: Int.min, y: Int.min, w: Int.max, h: Int.max).union(a))
    }
}

final class CanvasTests: XCTestCase {
    let red = RGB565.red

    /// Set of (x, y) pixels that are not black.
    func inked(_ c: Canvas) -> Set<[Int]> {
        var s = Set<[Int]>()
        for y in 0..<c.height { for x in 0..<c.width where c.pixels[y * c.width + x] != 0 { s.insert([x, y]) } }
        return s
    }

    func testFillRectClipsExactly() {
        var c = Canvas(width: 20, height: 10)
        c.fillRect(x: -5, y: -3, w: 10, h: 6, color: red)
        XCTAssertEqual(inked(c).count, 5 * 3)
        XCTAssertEqual(c.pixel(x: 4, y: 2), red)
        XCTAssertEqual(c.pixel(x: 5, y: 2), .black)
        XCTAssertEqual(c.pixel(x: 4, y: 3), .black)
        c.fillRect(x: 18, y: 8, w: 100, h: 100, color: red)
        XCTAssertEqual(inked(c).count, 15 + 4)
        XCTAssertNil(c.pixel(x: 20, y: 0))
        XCTAssertNil(c.pixel(x: -1, y: 0))
    }

    func testFullyOffCanvasAndExtremeValuesDoNothing() {
        var c = Canvas(width: 16, height: 16)
        c.clearDirty()
        let extremes = [Int.min, Int.min / 2, -1000, 1000, Int.max / 2, Int.max]
        for v in extremes {
            c.fillRect(x: v, y: 3, w: 5, h: 5, color: red)
            c.fillRect(x: 3, y: v, w: Int.max, h: 5, color: red)
            c.setPixel(x: v, y: v, color: red)
            c.fillRoundedRect(x: v, y: v, w: 20, h: 20, radius: 5, color: red)
            c.fillCircle(cx: v, cy: v, radius: 5, color: red)
            c.line(x0: v, y0: -3, x1: v, y1: 40, color: red)
            c.drawText("Hi", x: v, y: v, color: red, scale: 3)
            c.draw(testSprite, x: v, y: v, scale: 2)
        }
        // Every call above is fully off-canvas.
        XCTAssertTrue(inked(c).isEmpty)
        XCTAssertNil(c.dirty)
        XCTAssertTrue(c.textRuns.isEmpty)
        // Degenerate sizes.
        c.fillRect(x: 2, y: 2, w: -5, h: 3, color: red)
        c.fillRoundedRect(x: 2, y: 2, w: 0, h: 3, radius: 9, color: red)
        c.strokeRect(x: 2, y: 2, w: 3, h: -1, color: red)
        c.fillCircle(cx: 5, cy: 5, radius: -2, color: red)
        XCTAssertTrue(inked(c).isEmpty)
        // Huge-but-overlapping shapes clip to the full canvas without trapping.
        c.fillRect(x: Int.min, y: Int.min, w: Int.max, h: Int.max, color: red)   // ends at -1: nothing
        XCTAssertTrue(inked(c).isEmpty)
        c.fillRoundedRect(x: -1_000_000, y: -1_000_000, w: 3_000_000, h: 3_000_000, radius: 50, color: red)
        XCTAssertEqual(inked(c).count, 256)
        let zero = Canvas(width: -3, height: 0)
        XCTAssertEqual(zero.pixels.count, 0)
    }

    /// Drawing partly off-canvas must equal drawing on a larger canvas and cropping.
    func testPartialShapesMatchCroppedReference() {
        func crop(_ big: Canvas, _ ox: Int, _ oy: Int, _ w: Int, _ h: Int) -> [UInt16] {
            var out: [UInt16] = []
            for y in 0..<h { for x in 0..<w { out.append(big.pixels[(y + oy) * big.width + x + ox]) } }
            return out
        }
        let off = 50
        let ops: [(inout Canvas, Int) -> Void] = [
            { c, o in c.line(x0: -20 + o, y0: 5 + o, x1: 45 + o, y1: 27 + o, color: .red) },
            { c, o in c.line(x0: 10 + o, y0: -30 + o, x1: 3 + o, y1: 60 + o, color: .red) },
            { c, o in c.fillRoundedRect(x: -7 + o, y: 20 + o, w: 30, h: 25, radius: 9, color: .red) },
            { c, o in c.fillCircle(cx: 28 + o, cy: -2 + o, radius: 11, color: .red) },
            { c, o in c.strokeRect(x: -3 + o, y: -3 + o, w: 20, h: 40, color: .red, thickness: 2) },
            { c, o in c.drawText("Clip", x: 22 + o, y: -5 + o, color: .red, scale: 2) },
            { c, o in c.draw(testSprite, x: -3 + o, y: 15 + o, scale: 2) },
        ]
        for (i, op) in ops.enumerated() {
            var small = Canvas(width: 32, height: 32)
            var big = Canvas(width: 32 + 2 * off, height: 32 + 2 * off)
            op(&small, 0)
            op(&big, off)
            XCTAssertEqual(small.pixels, crop(big, off, off, 32, 32), "op \(i)")
            XCTAssertFalse(inked(small).isEmpty, "op \(i) should touch the canvas")
        }
    }

    func testVeryLongLineIsClippedAndFast() {
        var c = Canvas(width: 10, height: 10)
        c.line(x0: -1_000_000_000, y0: 5, x1: 1_000_000_000, y1: 5, color: red)
        XCTAssertEqual(inked(c), Set((0..<10).map { [$0, 5] }))
        c.line(x0: Int.min, y0: Int.min, x1: Int.max, y1: Int.max, color: red)   // must not trap
    }

    func testLineEndpointsAndShape() {
        var c = Canvas(width: 8, height: 8)
        c.line(x0: 0, y0: 0, x1: 7, y1: 3, color: red)
        XCTAssertEqual(c.pixel(x: 0, y: 0), red)
        XCTAssertEqual(c.pixel(x: 7, y: 3), red)
        XCTAssertEqual(inked(c).count, 8)   // one pixel per column for a shallow line
    }

    func testDirtyTracking() {
        var c = Canvas(width: 100, height: 50)
        XCTAssertNil(c.dirty)
        c.setPixel(x: 3, y: 4, color: red)
        XCTAssertEqual(c.dirty, Rect(x: 3, y: 4, w: 1, h: 1))
        c.fillRect(x: 10, y: 10, w: 5, h: 5, color: red)
        XCTAssertEqual(c.dirty, Rect(x: 3, y: 4, w: 12, h: 11))
        c.clearDirty()
        XCTAssertNil(c.dirty)
        c.fillRect(x: 95, y: -10, w: 20, h: 12, color: red)      // clipped to (95,0,5,2)
        XCTAssertEqual(c.dirty, Rect(x: 95, y: 0, w: 5, h: 2))
        c.clearDirty()
        c.fillRect(x: 200, y: 0, w: 5, h: 5, color: red)
        XCTAssertNil(c.dirty)
        c.line(x0: 2, y0: 40, x1: 6, y1: 30, color: red)
        XCTAssertEqual(c.dirty, Rect(x: 2, y: 30, w: 5, h: 11))
        c.clearDirty()
        let w = c.drawText("AB", x: 10, y: 10, color: red)
        XCTAssertEqual(w, 12)
        // Dirty covers the ink only (5×7 glyph ink inside the 12×8 advance).
        if let d = c.dirty {
            XCTAssertTrue(Rect(x: 10, y: 10, w: 12, h: 8).contains(d))
            XCTAssertEqual(d.x, 10); XCTAssertEqual(d.y, 10)
        } else { XCTFail("text should mark dirty") }
        c.clearDirty()
        c.draw(testSprite, x: 0, y: 0, scale: 2)
        XCTAssertEqual(c.dirty, Rect(x: 2, y: 0, w: 10, h: 10))   // sprite ink bbox ×2 (no transparent column)
        c.fill(.black)
        XCTAssertEqual(c.dirty, c.bounds)
    }
}

/// A 6×5 sprite with two colours, a transparent left column and holes, for the clipping tests.
let testSprite = Sprite(rows: ["..RRBB", ".RRRBB", ".RRRBB", ".R..BB", ".RRRRR"],
                        palette: ["R": .red, "B": .blue, ".": nil])
