import PetUI

// The SSD1306's RAM layout (page addressing): for each page of 8 rows, one byte per column, bit 0
// the page's top row, 1 = lit. A window grows to whole pages. Packing is what the driver sends;
// decoding is what the panel then shows (the simulator's headless panel, the golden frames).

extension MonoCanvas {
    /// SSD1306 (page-major): for each page of 8 rows, top to bottom, one byte per column, left to
    /// right; bit 0 is the page's top row; 1 = lit. Rows past the bottom edge read as 0 (dark).
    public func ssd1306Bytes() -> [UInt8] {
        ssd1306Bytes(in: bounds).bytes
    }

    /// The pages and columns covering `rect` (the rect grown to whole pages and clipped), with
    /// their bytes in the same order: the window to send for a partial update.
    public func ssd1306Bytes(in rect: Rect) -> (area: Rect, bytes: [UInt8]) {
        guard let r = rect.intersection(bounds) else { return (Rect(x: 0, y: 0, w: 0, h: 0), []) }
        let p0 = r.y / 8, p1 = (r.maxY + 7) / 8
        var out: [UInt8] = []
        out.reserveCapacity((p1 - p0) * r.w)
        for page in p0..<p1 {
            for x in r.x..<r.maxX {
                var b: UInt8 = 0
                for k in 0..<8 where pixel(x: x, y: page * 8 + k) == .white { b |= 1 << UInt8(k) }
                out.append(b)
            }
        }
        return (Rect(x: r.x, y: p0 * 8, w: r.w, h: min(height, p1 * 8) - p0 * 8), out)
    }
}

extension PanelBytes {
    /// Decodes SSD1306 pages into a 1-bit picture (`area.y` and `area.h` multiples of 8 or the
    /// panel's bottom edge).
    @discardableResult
    public static func decodeSSD1306(_ p: PackedRect, into m: inout MonoCanvas) -> Bool {
        let r = p.area
        guard r.y % 8 == 0, r.w > 0, r.h > 0 else { return r.w == 0 && p.bytes.isEmpty }
        let pages = (r.h + 7) / 8
        guard p.bytes.count == pages * r.w else { return false }
        var i = 0
        for page in 0..<pages {
            for x in r.x..<r.maxX {
                let b = p.bytes[i]; i += 1
                for k in 0..<8 {
                    let y = r.y + page * 8 + k
                    guard y < r.maxY else { break }
                    m.setPixel(x: x, y: y, b & (1 << UInt8(k)) != 0 ? .white : .black)
                }
            }
        }
        return true
    }
}
