/// Which parts of a frame changed since the previous one, as a few rectangles: what a panel driver
/// has to send. Screens redraw freely into a canvas; comparing with the frame already on the panel
/// finds the exact changed pixels, grouped into horizontal bands (each band one rectangle spanning
/// its changed columns), so a blinking eye or a new number sends a few hundred bytes, not a frame.
public enum FrameDiff {
    /// Rectangles covering every pixel that differs between `old` and `new` (same size; a size
    /// change is one full-frame rectangle). Bands of changed rows closer than `gap` rows merge.
    public static func changedRects(from old: Canvas, to new: Canvas, gap: Int = 2) -> [Rect] {
        guard old.width == new.width, old.height == new.height else {
            return [Rect(x: 0, y: 0, w: new.width, h: new.height)]
        }
        let w = new.width
        var rects: [Rect] = []
        var band: (top: Int, bottom: Int, minX: Int, maxX: Int)?
        var lastChangedRow = -1_000_000
        old.pixels.withUnsafeBufferPointer { a in
            new.pixels.withUnsafeBufferPointer { b in
                for y in 0..<new.height {
                    let row = y * w
                    // Most rows are unchanged: one branch-free pass (which the compiler vectorizes)
                    // decides, and only a changed row is scanned pixel by pixel.
                    var acc: UInt16 = 0
                    for x in 0..<w { acc |= a[row + x] ^ b[row + x] }
                    if acc == 0 { continue }
                    var minX = -1, maxX = -1
                    for x in 0..<w where a[row + x] != b[row + x] {
                        if minX < 0 { minX = x }
                        maxX = x
                    }
                    guard minX >= 0 else { continue }
                    if var cur = band, y - lastChangedRow <= gap {
                        cur.bottom = y; cur.minX = min(cur.minX, minX); cur.maxX = max(cur.maxX, maxX)
                        band = cur
                    } else {
                        if let cur = band {
                            rects.append(Rect(x: cur.minX, y: cur.top, w: cur.maxX - cur.minX + 1, h: cur.bottom - cur.top + 1))
                        }
                        band = (y, y, minX, maxX)
                    }
                    lastChangedRow = y
                }
            }
        }
        if let cur = band {
            rects.append(Rect(x: cur.minX, y: cur.top, w: cur.maxX - cur.minX + 1, h: cur.bottom - cur.top + 1))
        }
        return rects
    }

    /// Bytes an RGB565 panel receives for these rectangles (2 bytes a pixel).
    public static func bytes(_ rects: [Rect], bytesPerPixel: Int = 2) -> Int {
        rects.reduce(0) { $0 + $1.w * $1.h * bytesPerPixel }
    }
}
