// Canvas.swift — an in-memory RGB565 framebuffer with clipped drawing primitives,
// dirty-rectangle tracking and a record of drawn text (for tests / scenarios). Every pixel write
// goes through `put` (one rectangle of one colour), which a frame being recorded turns into a
// drawing operation instead (Damage.swift: only the areas whose operations changed are drawn).

/// An integer rectangle. Empty when `w <= 0` or `h <= 0`.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var w: Int
    public var h: Int

    public init(x: Int, y: Int, w: Int, h: Int) {
        self.x = x; self.y = y; self.w = w; self.h = h
    }

    public var isEmpty: Bool { w <= 0 || h <= 0 }
    /// Exclusive right edge (saturating, so huge values never trap).
    public var maxX: Int { x.addingSaturating(max(w, 0)) }
    /// Exclusive bottom edge (saturating).
    public var maxY: Int { y.addingSaturating(max(h, 0)) }

    /// Builds a rect from inclusive-exclusive edges; empty if inverted.
    static func edges(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Rect {
        Rect(x: x0, y: y0, w: max(0, x1.subtractingSaturating(x0)), h: max(0, y1.subtractingSaturating(y0)))
    }

    /// Smallest rect containing both; an empty operand is ignored.
    public func union(_ other: Rect) -> Rect {
        if other.isEmpty { return self }
        if isEmpty { return other }
        return .edges(min(x, other.x), min(y, other.y), max(maxX, other.maxX), max(maxY, other.maxY))
    }

    /// Overlap of both rects, or nil if they do not overlap.
    public func intersection(_ other: Rect) -> Rect? {
        let r = Rect.edges(max(x, other.x), max(y, other.y), min(maxX, other.maxX), min(maxY, other.maxY))
        return r.isEmpty ? nil : r
    }

    /// This rect clipped to `bounds` (nil if nothing is left).
    public func clipped(to bounds: Rect) -> Rect? { intersection(bounds) }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && py >= y && px < maxX && py < maxY
    }

    /// True if `other` lies entirely inside this rect.
    public func contains(_ other: Rect) -> Bool {
        !other.isEmpty && other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }
}

extension Int {
    /// Addition that clamps instead of trapping on overflow.
    func addingSaturating(_ o: Int) -> Int {
        let (r, overflow) = addingReportingOverflow(o)
        return overflow ? (o > 0 ? .max : .min) : r
    }
    /// Subtraction that clamps instead of trapping on overflow.
    func subtractingSaturating(_ o: Int) -> Int {
        let (r, overflow) = subtractingReportingOverflow(o)
        return overflow ? (o < 0 ? .max : .min) : r
    }
}

/// A string as it actually appears on screen (after ellipsizing) and where.
public struct TextRun: Hashable, Sendable {
    public var text: String
    public var rect: Rect
    /// Drawn as part of a list's highlighted (cursor) row, so tests and scenarios can tell which
    /// row the screen shows selected.
    public var highlighted: Bool
    public init(text: String, rect: Rect, highlighted: Bool = false) {
        self.text = text; self.rect = rect; self.highlighted = highlighted
    }
}

/// A row-major RGB565 framebuffer. Every operation clips to the canvas; nothing traps
/// on out-of-range coordinates.
public struct Canvas: Sendable {
    public let width: Int
    public let height: Int
    /// Row-major pixels, `width * height` entries.
    public var pixels: [UInt16]
    /// Union of all areas touched since the last `clearDirty()` (nil = nothing changed).
    public var dirty: Rect?
    /// Strings drawn since the last `clear`/`fill`, as visible on screen.
    public var textRuns: [TextRun] = []
    /// Art sprites (the pet scene's layers) drawn since the last `clear`/`fill`: where each one's
    /// whole picture lies and the crop it was drawn in (`PetScene`; tests check items are whole).
    public var spriteRuns: [SpriteRun] = []
    /// The smallest face text may be drawn in on this canvas: the screens' text helpers draw a
    /// smaller request in this face (`DisplayProfile.minimumFace`: text at least about 1.1 mm tall on
    /// the panel). Set by `Screens.render`; `.small` (no floor) otherwise.
    public var minimumFace: FontFace = .small
    /// The frame being recorded and the previous frame's per-tile fingerprints (Damage.swift).
    var recorder = FrameRecorder()
    /// Areas whose pixels changed since the last `takeDamage()` (a new canvas: all of it). The
    /// panel pipeline compares with the panel's picture only inside them.
    public internal(set) var damage: [Rect] = []
    /// Every string drawn since the last `clear`/`fill` with its box and the pixels it left, for
    /// the text check (`TextLog`, `textProblems()`); nil (the default) records nothing.
    public var textLog: TextLog? = nil

    public init(width: Int, height: Int, background: RGB565 = .black) {
        self.width = max(0, width)
        self.height = max(0, height)
        pixels = Array(repeating: background.raw, count: self.width * self.height)
        dirty = nil
        damage = bounds.isEmpty ? [] : [bounds]
    }

    /// The full canvas area.
    public var bounds: Rect { Rect(x: 0, y: 0, w: width, h: height) }

    public mutating func clearDirty() { dirty = nil }

    /// Records that `r` (already clipped or not) was touched. While a frame is recorded the
    /// touched area is what `endFrame` draws, not what the operations asked for.
    public mutating func markDirty(_ r: Rect) {
        guard !recorder.isRecording, let c = r.intersection(bounds) else { return }
        dirty = dirty.map { $0.union(c) } ?? c
        recorder.markStale(c)
        addDamage(c)
    }

    /// The one pixel write: `r` (inside the canvas) in `color` — or, while a frame is recorded,
    /// the operation that will.
    @inline(__always)
    mutating func put(_ r: Rect, _ color: UInt16) {
        if recorder.isRecording {
            recorder.ops.append(DrawOp(r, color))
            return
        }
        let w = width
        pixels.withUnsafeMutableBufferPointer { buf in
            for yy in r.y..<r.maxY {
                let row = yy * w
                UnsafeMutableBufferPointer(rebasing: buf[(row + r.x)..<(row + r.maxX)]).update(repeating: color)
            }
        }
    }

    // MARK: Pixels

    public func pixel(x: Int, y: Int) -> RGB565? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return RGB565(raw: pixels[y * width + x])
    }

    public mutating func setPixel(x: Int, y: Int, color: RGB565) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        put(Rect(x: x, y: y, w: 1, h: 1), color.raw)
        markDirty(Rect(x: x, y: y, w: 1, h: 1))
    }

    // MARK: Fills

    /// Fills the whole canvas. Starts a new frame: recorded text runs are dropped.
    public mutating func fill(_ color: RGB565) {
        put(bounds, color.raw)
        textRuns.removeAll()
        spriteRuns.removeAll()
        recorder.editsBroken = true
        textLog?.entries.removeAll()
        markDirty(bounds)
    }

    /// Same as `fill`: a new frame in `color`.
    public mutating func clear(_ color: RGB565 = .black) { fill(color) }

    /// Fills a clipped rect without touching dirty/text bookkeeping.
    mutating func rawFill(_ r: Rect, _ color: UInt16) {
        guard let c = r.intersection(bounds) else { return }
        put(c, color)
    }

    /// Fills, for each row of `rows` and each run of one colour among `columns` of the row-major
    /// picture `src` (`width` pixels a row), the run scaled by `scale` with the picture's top-left
    /// at (x, y), clipped to `clip` (which lies inside the canvas): the same fills, in the same
    /// order, as `rawFill` of each run's rect, without a rect's checks per run (a sprite blit
    /// makes thousands a frame). No bookkeeping.
    mutating func fillScaledRuns(_ src: UnsafeBufferPointer<UInt16>, width: Int, rows: Range<Int>, columns: Range<Int>,
                                 x: Int, y: Int, scale sc: Int, clip: Rect) {
        guard let area = clip.intersection(bounds), sc > 0, let base = src.baseAddress,
              rows.lowerBound >= 0, columns.lowerBound >= 0, columns.upperBound <= width,
              rows.upperBound * width <= src.count else { return }
        let ax0 = area.x, ax1 = area.maxX, ay0 = area.y, ay1 = area.maxY
        let c1 = columns.upperBound
        for ry in rows {
            let top = y + ry * sc
            let y0 = max(ay0, top), y1 = min(ay1, top + sc)
            guard y0 < y1 else { continue }
            let row = base + ry * width
            var cx = columns.lowerBound
            while cx < c1 {
                let c = row[cx]
                var end = cx + 1
                while end < c1, row[end] == c { end += 1 }
                let x0 = max(ax0, x + cx * sc), x1 = min(ax1, x + end * sc)
                if x0 < x1 { put(Rect(x: x0, y: y0, w: x1 - x0, h: y1 - y0), c) }
                cx = end
            }
        }
    }

    public mutating func fillRect(x: Int, y: Int, w: Int, h: Int, color: RGB565) {
        let r = Rect(x: x, y: y, w: w, h: h)
        guard let c = r.intersection(bounds) else { return }
        rawFill(c, color.raw)
        // Text completely painted over is no longer visible.
        dropText(coveredBy: c)
        markDirty(c)
    }

    public mutating func hline(x: Int, y: Int, w: Int, color: RGB565) {
        fillRect(x: x, y: y, w: w, h: 1, color: color)
    }

    public mutating func vline(x: Int, y: Int, h: Int, color: RGB565) {
        fillRect(x: x, y: y, w: 1, h: h, color: color)
    }

    /// Outline of a rect, `thickness` pixels wide, drawn inside the rect.
    public mutating func strokeRect(x: Int, y: Int, w: Int, h: Int, color: RGB565, thickness: Int = 1) {
        guard w > 0, h > 0, thickness > 0 else { return }
        let t = min(thickness, (min(w, h) + 1) / 2)
        let bottom = Rect(x: x, y: y, w: w, h: h).maxY
        let right = Rect(x: x, y: y, w: w, h: h).maxX
        fillRect(x: x, y: y, w: w, h: t, color: color)
        fillRect(x: x, y: bottom.subtractingSaturating(t), w: w, h: t, color: color)
        fillRect(x: x, y: y.addingSaturating(t), w: t, h: h - 2 * t, color: color)
        fillRect(x: right.subtractingSaturating(t), y: y.addingSaturating(t), w: t, h: h - 2 * t, color: color)
    }

    // MARK: Lines

    /// Bresenham line including both endpoints. Pixels outside the canvas are skipped.
    public mutating func line(x0: Int, y0: Int, x1: Int, y1: Int, color: RGB565) {
        // Keep arithmetic well away from overflow.
        let lim = 1 << 40
        var ax = min(max(x0, -lim), lim), ay = min(max(y0, -lim), lim)
        var bx = min(max(x1, -lim), lim), by = min(max(y1, -lim), lim)
        // Very long lines: pre-clip with Liang–Barsky against a padded box so the
        // pixel loop stays short. Lines that fit the padded box stay pixel-exact.
        let pad = 4096
        let box = (lo: -pad, hiX: width + pad, hiY: height + pad)
        if [ax, bx].contains(where: { $0 < box.lo || $0 > box.hiX }) ||
            [ay, by].contains(where: { $0 < box.lo || $0 > box.hiY }) {
            guard let c = Canvas.clipSegment(ax, ay, bx, by, box.lo, box.lo, box.hiX, box.hiY) else { return }
            (ax, ay, bx, by) = c
        }
        let dx = abs(bx - ax), dy = -abs(by - ay)
        let sx = ax < bx ? 1 : -1, sy = ay < by ? 1 : -1
        var err = dx + dy
        var x = ax, y = ay
        var touched: Rect? = nil
        while true {
            if x >= 0, y >= 0, x < width, y < height {
                let p = Rect(x: x, y: y, w: 1, h: 1)
                put(p, color.raw)
                touched = touched.map { $0.union(p) } ?? p
            }
            if x == bx && y == by { break }
            let e2 = 2 * err
            if e2 >= dy { err += dy; x += sx }
            if e2 <= dx { err += dx; y += sy }
        }
        if let t = touched { markDirty(t) }
    }

    /// Liang–Barsky segment clipping, rounded to integers (used only for huge lines).
    static func clipSegment(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int,
                            _ minX: Int, _ minY: Int, _ maxX: Int, _ maxY: Int) -> (Int, Int, Int, Int)? {
        let fx0 = Double(x0), fy0 = Double(y0)
        let dx = Double(x1 - x0), dy = Double(y1 - y0)
        var t0 = 0.0, t1 = 1.0
        let checks: [(Double, Double)] = [
            (-dx, fx0 - Double(minX)), (dx, Double(maxX) - fx0),
            (-dy, fy0 - Double(minY)), (dy, Double(maxY) - fy0),
        ]
        for (p, q) in checks {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 { if r > t1 { return nil }; t0 = max(t0, r) }
                else { if r < t0 { return nil }; t1 = min(t1, r) }
            }
        }
        return (Int((fx0 + t0 * dx).rounded()), Int((fy0 + t0 * dy).rounded()),
                Int((fx0 + t1 * dx).rounded()), Int((fy0 + t1 * dy).rounded()))
    }

    // MARK: Rounded shapes

    /// Inset of row `i` (0 = outermost) of a quarter circle with radius `r`.
    static func cornerInset(row i: Int, radius r: Int) -> Int {
        let d = Double(r) - Double(i) - 0.5          // vertical distance from the arc centre
        let half = (Double(r) * Double(r) - d * d).squareRoot()
        return max(0, r - Int(half.rounded()))
    }

    /// Fills `full` row by row (only visible rows), insetting rows within `r` of the
    /// top/bottom edge so the corners become quarter circles.
    mutating func fillRounded(_ full: Rect, radius r: Int, color: UInt16) -> Rect? {
        guard let clip = full.intersection(bounds) else { return nil }
        // Each row's span, inset at the corners, clipped to the canvas; the straight middle rows
        // as one rectangle.
        var yy = clip.y
        while yy < clip.maxY {
            let k = min(yy - full.y, full.maxY - 1 - yy)      // distance from nearest edge row
            if k >= r {
                // Straight rows down to the bottom corner's first row.
                let end = min(clip.maxY, full.maxY.subtractingSaturating(r))
                let x0 = max(clip.x, full.x), x1 = min(clip.maxX, full.maxX)
                if x1 > x0, end > yy { put(Rect(x: x0, y: yy, w: x1 - x0, h: end - yy), color) }
                yy = max(end, yy + 1)
                continue
            }
            let inset = Canvas.cornerInset(row: k, radius: r)
            let x0 = max(clip.x, full.x.addingSaturating(inset))
            let x1 = min(clip.maxX, full.maxX.subtractingSaturating(inset))
            if x1 > x0 { put(Rect(x: x0, y: yy, w: x1 - x0, h: 1), color) }
            yy += 1
        }
        return clip
    }

    /// Filled rect with circular corners; `radius` is clamped to half the short side.
    public mutating func fillRoundedRect(x: Int, y: Int, w: Int, h: Int, radius: Int, color: RGB565) {
        guard w > 0, h > 0 else { return }
        let r = max(0, min(radius, min(w, h) / 2))
        let full = Rect(x: x, y: y, w: w, h: h)
        guard let clip = fillRounded(full, radius: r, color: color.raw) else { return }
        // Drop text runs that the (straight-edged) middle part fully covers.
        let core = Rect(x: x, y: y.addingSaturating(r), w: w, h: h - 2 * r)
        dropText(coveredBy: core)
        markDirty(clip)
    }

    /// Filled disc of the given radius whose bounding box is (cx-r, cy-r, 2r, 2r).
    public mutating func fillCircle(cx: Int, cy: Int, radius: Int, color: RGB565) {
        guard radius > 0, radius < 1 << 30 else { return }
        let lim = 1 << 40
        let x = min(max(cx, -lim), lim), y = min(max(cy, -lim), lim)
        let full = Rect(x: x - radius, y: y - radius, w: 2 * radius, h: 2 * radius)
        guard let clip = fillRounded(full, radius: radius, color: color.raw) else { return }
        markDirty(clip)
    }

    // MARK: Text bookkeeping

    /// True if any recorded text run contains `s` as a substring.
    public func showsText(_ s: String) -> Bool {
        textRuns.contains { $0.text.contains(s) }
    }

    /// The texts of the highlighted (cursor) row, in the order drawn.
    public var highlightedText: [String] { textRuns.filter(\.highlighted).map(\.text) }

    /// Marks the runs recorded since `index` (a `textRuns.count` taken before drawing a row) as
    /// the highlighted row's.
    public mutating func markHighlighted(from index: Int) {
        guard index >= 0, index < textRuns.count else { return }
        for i in index..<textRuns.count { textRuns[i].highlighted = true }
        recorder.editsBroken = true   // not replayed by a part
    }

    /// Adds a run if any of it is on screen.
    mutating func recordText(_ text: String, _ r: Rect) {
        guard !text.isEmpty, r.intersection(bounds) != nil else { return }
        textRuns.append(TextRun(text: text, rect: r))
        recorder.edits?.append(.text(TextRun(text: text, rect: r)))
    }
}
