import PetUI

// The SSD1680's RAM layout (the black/white RAM): rows top to bottom, one byte per 8 columns, the
// leftmost pixel in the most significant bit, 1 = white. A window grows to whole bytes
// horizontally. It is also how `MonoCanvas` stores its pixels, so packing copies rows. Packing is
// what the driver sends; decoding is what the panel then shows.

extension MonoCanvas {
    /// SSD1680 (row-major): rows top to bottom, `stride` bytes each, leftmost pixel in the most
    /// significant bit; 1 = white; the unused low bits of a row's last byte are 1.
    public func ssd1680Bytes() -> [UInt8] { bytes }

    /// The rows and whole bytes covering `rect` (x grown to multiples of 8 and clipped), row by
    /// row: the RAM window to send for a partial refresh.
    public func ssd1680Bytes(in rect: Rect) -> (area: Rect, bytes: [UInt8]) {
        guard let r = rect.intersection(bounds) else { return (Rect(x: 0, y: 0, w: 0, h: 0), []) }
        let b0 = r.x / 8, b1 = (r.maxX + 7) / 8
        var out: [UInt8] = []
        out.reserveCapacity((b1 - b0) * r.h)
        for y in r.y..<r.maxY { out.append(contentsOf: bytes[(y * stride + b0)..<(y * stride + b1)]) }
        return (Rect(x: b0 * 8, y: r.y, w: min(width, b1 * 8) - b0 * 8, h: r.h), out)
    }
}

extension PanelBytes {
    /// Decodes SSD1680 rows into a 1-bit picture (`area.x` a multiple of 8).
    @discardableResult
    public static func decodeSSD1680(_ p: PackedRect, into m: inout MonoCanvas) -> Bool {
        let r = p.area
        guard r.x % 8 == 0, r.w > 0, r.h > 0 else { return r.w == 0 && p.bytes.isEmpty }
        let perRow = (r.w + 7) / 8
        guard p.bytes.count == perRow * r.h else { return false }
        for row in 0..<r.h {
            for bx in 0..<perRow {
                let b = p.bytes[row * perRow + bx]
                for k in 0..<8 {
                    let x = r.x + bx * 8 + k
                    guard x < r.maxX else { break }
                    m.setPixel(x: x, y: r.y + row, b & (0x80 >> UInt8(k)) != 0 ? .white : .black)
                }
            }
        }
        return true
    }
}
