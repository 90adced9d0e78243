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
                    if FrameDiff.rowsEqual(UnsafeBufferPointer(rebasing: a[row..<(row + w)]),
                                           UnsafeBufferPointer(rebasing: b[row..<(row + w)])) { continue }
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

    /// True when two rows hold the same pixels: 64 bits at a time, without branches, so the
    /// compiler can vectorize it.
    @inline(__always)
    static func rowsEqual(_ a: UnsafeBufferPointer<UInt16>, _ b: UnsafeBufferPointer<UInt16>) -> Bool {
        let n = min(a.count, b.count)
        var acc: UInt64 = 0
        let words = n / 4
        if words > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let ra = UnsafeRawPointer(pa), rb = UnsafeRawPointer(pb)
            for i in 0..<words {
                acc |= ra.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self)
                    ^ rb.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self)
            }
        }
        var tail: UInt16 = 0
        for i in (words * 4)..<n { tail |= a[i] ^ b[i] }
        return acc == 0 && tail == 0
    }

    /// Bytes an RGB565 panel receives for these rectangles (2 bytes a pixel).
    public static func bytes(_ rects: [Rect], bytesPerPixel: Int = 2) -> Int {
        rects.reduce(0) { $0 + $1.w * $1.h * bytesPerPixel }
    }
}
