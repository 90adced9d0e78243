/// Which parts of a frame changed since the previous one, as a few rectangles: what a panel driver
/// has to send. Screens redraw freely into a canvas; comparing with the frame already on the panel
/// finds the exact changed pixels, grouped into horizontal bands, each split where a run of
/// unchanged columns costs more than another window (`windowCost`), so a blinking eye or a new
/// number sends a few hundred bytes, not a frame.
public enum FrameDiff {
    /// Rectangles covering every pixel that differs between `old` and `new` (same size; a size
    /// change is one full-frame rectangle). Bands of changed rows closer than `gap` rows merge.
    public static func changedRects(from old: Canvas, to new: Canvas, gap: Int = 2) -> [Rect] {
        changedRects(from: old, to: new, within: [new.bounds], gap: gap)
    }

    /// The same, looking only inside `areas` (the canvas's damage since `old` was shown,
    /// Damage.swift): pixels outside them are known to be equal.
    public static func changedRects(from old: Canvas, to new: Canvas, within areas: [Rect], gap: Int = 2) -> [Rect] {
        guard old.width == new.width, old.height == new.height else {
            return [Rect(x: 0, y: 0, w: new.width, h: new.height)]
        }
        let w = new.width, h = new.height
        let clipped = areas.compactMap { $0.intersection(new.bounds) }
        guard !clipped.isEmpty else { return [] }
        let top = clipped.map(\.y).min() ?? 0, bottom = clipped.map(\.maxY).max() ?? 0
        // Per row: the first and last changed column (-1: none).
        var rowMin = [Int](repeating: -1, count: h), rowMax = [Int](repeating: -1, count: h)
        old.pixels.withUnsafeBufferPointer { a in
            new.pixels.withUnsafeBufferPointer { b in
                for area in clipped {
                    for y in area.y..<area.maxY {
                        let s = y * w + area.x, e = y * w + area.maxX
                        // Most rows are unchanged: one branch-free pass (which the compiler
                        // vectorizes) decides, and only a changed row is scanned pixel by pixel.
                        if FrameDiff.rowsEqual(UnsafeBufferPointer(rebasing: a[s..<e]),
                                               UnsafeBufferPointer(rebasing: b[s..<e])) { continue }
                        var lo = s
                        while a[lo] == b[lo] { lo += 1 }
                        var hi = e - 1
                        while a[hi] == b[hi] { hi -= 1 }
                        let x0 = lo - y * w, x1 = hi - y * w
                        if rowMax[y] < 0 { rowMin[y] = x0; rowMax[y] = x1 } else {
                            rowMin[y] = min(rowMin[y], x0); rowMax[y] = max(rowMax[y], x1)
                        }
                    }
                }
            }
        }
        var bands: [Rect] = []
        var band: (top: Int, bottom: Int, minX: Int, maxX: Int)?
        var lastChangedRow = -1_000_000
        for y in top..<bottom where rowMax[y] >= 0 {
            let minX = rowMin[y], maxX = rowMax[y]
            if var cur = band, y - lastChangedRow <= gap {
                cur.bottom = y; cur.minX = min(cur.minX, minX); cur.maxX = max(cur.maxX, maxX)
                band = cur
            } else {
                if let cur = band {
                    bands.append(Rect(x: cur.minX, y: cur.top, w: cur.maxX - cur.minX + 1, h: cur.bottom - cur.top + 1))
                }
                band = (y, y, minX, maxX)
            }
            lastChangedRow = y
        }
        if let cur = band {
            bands.append(Rect(x: cur.minX, y: cur.top, w: cur.maxX - cur.minX + 1, h: cur.bottom - cur.top + 1))
        }
        var rects: [Rect] = []
        for b in bands { split(b, old: old, new: new, into: &rects) }
        return rects
    }

    /// What a separate window costs a panel beyond its pixels, in bytes (the ST7789's CASET,
    /// RASET and RAMWR with their arguments): a run of unchanged columns costing more than this
    /// splits a band in two windows.
    public static let windowCost = 16

    /// Splits `band` at runs of unchanged columns that cost more to send than another window (a
    /// new word in a line of text changes a few glyphs, not the whole line), each part's rows
    /// tightened to its changed ones, and appends the parts to `rects`.
    static func split(_ band: Rect, old: Canvas, new: Canvas, into rects: inout [Rect]) {
        // A run of `gap` unchanged columns in this band costs gap × height × 2 bytes: the
        // shortest run that costs more than a window.
        let minGap = windowCost / (2 * band.h) + 1
        guard band.w > minGap else { rects.append(band); return }
        let w = new.width
        // Per column, whether any of the band's rows changed there (branch-free, vectorizable).
        var flags = [UInt16](repeating: 0, count: band.w)
        old.pixels.withUnsafeBufferPointer { a in
            new.pixels.withUnsafeBufferPointer { b in
                flags.withUnsafeMutableBufferPointer { f in
                    let fp = f.baseAddress!, n = band.w
                    for y in band.y..<band.maxY {
                        let pa = a.baseAddress! + (y * w + band.x), pb = b.baseAddress! + (y * w + band.x)
                        for i in 0..<n { fp[i] |= pa[i] ^ pb[i] }
                    }
                }
            }
        }
        let changed = flags.map { $0 != 0 }
        // Spans of changed columns, merged across gaps cheaper than a window.
        var spans: [(Int, Int)] = []
        var i = 0
        while i < band.w {
            guard changed[i] else { i += 1; continue }
            var e = i + 1
            while e < band.w && changed[e] { e += 1 }
            if let last = spans.last, i - last.1 < minGap { spans[spans.count - 1].1 = e } else { spans.append((i, e)) }
            i = e
        }
        if spans.count == 1 && spans[0] == (0, band.w) { rects.append(band); return }
        old.pixels.withUnsafeBufferPointer { a in
            new.pixels.withUnsafeBufferPointer { b in
                for (s, e) in spans {
                    let x0 = band.x + s, n = e - s
                    func rowChanged(_ y: Int) -> Bool {
                        let row = y * w + x0
                        return !rowsEqual(UnsafeBufferPointer(rebasing: a[row..<(row + n)]), UnsafeBufferPointer(rebasing: b[row..<(row + n)]))
                    }
                    var top = band.y
                    while top < band.maxY - 1 && !rowChanged(top) { top += 1 }
                    var bottom = band.maxY - 1
                    while bottom > top && !rowChanged(bottom) { bottom -= 1 }
                    rects.append(Rect(x: x0, y: top, w: n, h: bottom - top + 1))
                }
            }
        }
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
