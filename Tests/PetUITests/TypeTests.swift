import XCTest
import PetCore
@testable import PetUI

/// The coin icon next to digits and the descenders (docs/screens.md).
final class TypeTests: XCTestCase {
    /// Ink pixels of `ch` in `face` as (column, row) pairs.
    func ink(_ ch: Character, _ face: FontFace) -> Set<[Int]> {
        var out = Set<[Int]>()
        for (y, bits) in face.bitmap(for: ch).enumerated() {
            for x in 0..<face.glyphWidth where bits & (1 << UInt16(face.glyphWidth - 1 - x)) != 0 { out.insert([x, y]) }
        }
        return out
    }

    func rowsSpan(_ s: Set<[Int]>) -> ClosedRange<Int> { s.map { $0[1] }.min()!...s.map { $0[1] }.max()! }

    func testCoinIsUnmistakableNextToDigits() {
        for face in FontFace.allCases {
            let coin = ink(Glyph.coin, face), zero = ink("0", face)
            // The shapes differ in a large share of their pixels, not in one or two.
            let differing = coin.symmetricDifference(zero).count
            XCTAssertGreaterThanOrEqual(Double(differing) / Double(coin.union(zero).count), 0.5, "\(face): \(differing)")
            // The coin is visibly shorter than a digit: at least 2 rows (small) / 4 rows (large).
            XCTAssertLessThanOrEqual(rowsSpan(coin).count + (face == .small ? 2 : 4), rowsSpan(zero).count, "\(face)")
            // Drawn as "<coin>0" (ink white on black), at least one blank column separates them,
            // and the columns of the digit's own ink start after the coin's end.
            let s = 1
            var c = Canvas(width: 3 * face.cellWidth, height: face.cellHeight)
            c.drawText(String(Glyph.coin) + "0", x: 0, y: 0, color: .white, face: face, scale: s)
            func columnHasInk(_ x: Int) -> Bool { (0..<c.height).contains { c.pixel(x: x, y: $0) == .white } }
            let inkCols = (0..<c.width).filter(columnHasInk)
            let coinEnd = inkCols.filter { $0 < face.cellWidth }.max()!
            let digitStart = inkCols.filter { $0 >= face.cellWidth }.min()!
            XCTAssertGreaterThanOrEqual(digitStart - coinEnd - 1, face == .small ? 1 : 2, "\(face)")
            // Also in 1-bit: the mono conversion of the same frame keeps the blank columns.
            let mono = MonoCanvas(from: c)
            let monoInk = (0..<c.width).filter { x in (0..<c.height).contains { mono.pixel(x: x, y: $0) == .white } }
            XCTAssertEqual(monoInk, inkCols, "\(face)")
        }
    }

    func testDescendersGoBelowTheBaseline() {
        for face in FontFace.allCases {
            let base = face.baselineRow
            for (a, b) in [("g", "9"), ("p", "P"), ("q", "9"), ("y", "Y"), ("j", "i")] as [(Character, Character)] {
                let diff = ink(a, face).symmetricDifference(ink(b, face)).count
                XCTAssertGreaterThanOrEqual(diff, face == .small ? 5 : 20, "\(face): \(a) vs \(b)")
            }
            // g and q share the bowl and stem; they differ in the tail (a hook on g).
            XCTAssertGreaterThanOrEqual(ink("g", face).symmetricDifference(ink("q", face)).count, face == .small ? 3 : 12)
            for ch in "gjpqy,;çýÿþ" {
                XCTAssertTrue(ink(ch, face).contains { $0[1] > base }, "\(face): '\(ch)' has no descender")
            }
            for ch in "aceo9PQY0ABxz." {
                XCTAssertFalse(ink(ch, face).contains { $0[1] > base }, "\(face): '\(ch)' drops below the baseline")
                XCTAssertTrue(ink(ch, face).contains { $0[1] == base }, "\(face): '\(ch)' does not sit on the baseline")
            }
            XCTAssertEqual(face.glyphHeight, face.cellHeight, "descenders stay inside the line height")
        }
    }
}
