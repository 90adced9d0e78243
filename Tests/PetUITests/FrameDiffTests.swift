import XCTest
@testable import PetUI

final class FrameDiffTests: XCTestCase {
    func testUnchangedFrameSendsNothing() {
        let a = Canvas(width: 40, height: 30, background: .white)
        XCTAssertEqual(FrameDiff.changedRects(from: a, to: a), [])
    }

    func testChangedPixelsAreCoveredExactlyByBands() {
        let a = Canvas(width: 40, height: 30, background: .white)
        var b = a
        b.setPixel(x: 3, y: 2, color: .black)
        b.fillRect(x: 10, y: 3, w: 5, h: 2, color: .red)      // rows 3–4, within the gap of row 2
        b.setPixel(x: 30, y: 20, color: .blue)                // a separate band
        let rects = FrameDiff.changedRects(from: a, to: b)
        // One band for rows 2–4, split at the six unchanged columns between the dot and the fill
        // (36 bytes > another window's 16), each part tightened to its rows.
        XCTAssertEqual(rects, [Rect(x: 3, y: 2, w: 1, h: 1), Rect(x: 10, y: 3, w: 5, h: 2), Rect(x: 30, y: 20, w: 1, h: 1)])
        XCTAssertEqual(FrameDiff.bytes(rects), (1 + 10 + 1) * 2)
        // A gap cheaper than a window stays in one rectangle.
        var c = a
        c.fillRect(x: 5, y: 10, w: 10, h: 4, color: .black)
        c.fillRect(x: 17, y: 10, w: 10, h: 4, color: .black)   // 2 columns × 4 rows: 16 bytes
        XCTAssertEqual(FrameDiff.changedRects(from: a, to: c), [Rect(x: 5, y: 10, w: 22, h: 4)])
        c.fillRect(x: 30, y: 10, w: 10, h: 4, color: .black)   // 3 columns: 24 bytes
        XCTAssertEqual(FrameDiff.changedRects(from: a, to: c), [Rect(x: 5, y: 10, w: 22, h: 4), Rect(x: 30, y: 10, w: 10, h: 4)])
        // Every changed pixel is inside a rectangle.
        for y in 0..<30 { for x in 0..<40 where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
            XCTAssertTrue(rects.contains { $0.contains(x: x, y: y) }, "(\(x),\(y))")
        } }
    }

    func testSizeChangeIsAFullFrame() {
        let a = Canvas(width: 10, height: 10, background: .white)
        let b = Canvas(width: 20, height: 10, background: .white)
        XCTAssertEqual(FrameDiff.changedRects(from: a, to: b), [Rect(x: 0, y: 0, w: 20, h: 10)])
    }
}
