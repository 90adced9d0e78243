// MonoCanvas.swift — a 1-bit surface for the monochrome panels (SSD1306 OLED, SSD1680 e-paper):
// packed one bit per pixel, clipping, dirty rectangles, the same drawing operations as `Canvas`,
// an exact conversion from an RGB565 canvas drawn with a black/white theme, and the byte layouts
// both panel controllers take.

/// A 1-bit pixel value.
public enum MonoColor: UInt8, Sendable, Hashable {
    case black = 0
    case white = 1

    public var inverted: MonoColor { self == .black ? .white : .black }

    /// Black or white for an RGB565 colour: white when its luminance (0–255, Rec. 601 weights)
    /// is at least `threshold`. Pure black and pure white map exactly for any threshold in 1...255.
    public static func from(_ c: RGB565, threshold: Int = 128) -> MonoColor {
        let lum = (Int(c.r8) * 299 + Int(c.g8) * 587 + Int(c.b8) * 114) / 1000
        return lum >= threshold ? .white : .black
    }

    public var rgb565: RGB565 { self == .white ? .white : .black }
}

/// A row-major 1-bit framebuffer: `stride = (width + 7) / 8` bytes per row, the leftmost pixel in
/// the most significant bit, 1 = white (lit on an OLED, white on e-paper). The unused low bits of
/// each row's last byte are always 1. Every operation clips; nothing traps on any coordinate.
public struct MonoCanvas: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Bytes per row.
    public let stride: Int
    /// Packed pixels, `stride * height` bytes, row-major as described above (the SSD1680 driver
    /// sends these rows as they are: PetDevice/Drivers/SSD1680RAM.swift).
    public private(set) var bytes: [UInt8]
    /// Union of all areas touched since the last `clearDirty()` (nil = nothing drawn).
    public var dirty: Rect?
    /// Strings drawn since the last `fill`, as visible on screen.
    public var textRuns: [TextRun] = []

    public init(width: Int, height: Int, background: MonoColor = .white) {
        self.width = max(0, min(width, 1 << 16))
        self.height = max(0, min(height, 1 << 16))
        stride = (self.width + 7) / 8
        bytes = Array(repeating: 0xFF, count: stride * self.height)
        dirty = nil
        if background == .black { rawFill(bounds, .black) }
    }

    /// Converts a colour canvas: each pixel becomes white when its luminance ≥ `threshold`.
    /// Exact for canvases drawn only in black and white (the mono themes). Dirty rect and text
    /// runs are carried over.
    public init(from canvas: Canvas, threshold: Int = 128) {
        self.init(width: canvas.width, height: canvas.height, background: .white)
        convert(canvas, in: bounds, threshold: threshold)
        dirty = canvas.dirty
        textRuns = canvas.textRuns
    }

    /// This surface (the conversion of an earlier frame of `canvas`) with the pixels inside
    /// `areas` converted again: the whole conversion when the canvas changed only there (its
    /// damage, Damage.swift). Text runs and the dirty rect are the canvas's.
    public func updated(from canvas: Canvas, in areas: [Rect], threshold: Int = 128) -> MonoCanvas {
        guard canvas.width == width, canvas.height == height else { return MonoCanvas(from: canvas, threshold: threshold) }
        var out = self
        for a in areas { if let c = a.intersection(bounds) { out.convert(canvas, in: c, threshold: threshold) } }
        out.dirty = canvas.dirty
        out.textRuns = canvas.textRuns
        return out
    }

    /// Converts `area` (inside both) of a canvas of the same size.
    mutating func convert(_ canvas: Canvas, in area: Rect, threshold: Int) {
        var lastRaw: UInt16 = 0
        var last = MonoColor.from(RGB565(raw: 0), threshold: threshold)
        let w = canvas.width
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                let raw = canvas.pixels[y * w + x]
                if raw != lastRaw { lastRaw = raw; last = MonoColor.from(RGB565(raw: raw), threshold: threshold) }
                let mask: UInt8 = 0x80 >> UInt8(x & 7)
                if last == .black { bytes[y * stride + x >> 3] &= ~mask } else { bytes[y * stride + x >> 3] |= mask }
            }
        }
    }

    public var bounds: Rect { Rect(x: 0, y: 0, w: width, h: height) }

    public mutating func clearDirty() { dirty = nil }

    mutating func markDirty(_ r: Rect) {
        guard let c = r.intersection(bounds) else { return }
        dirty = dirty.map { $0.union(c) } ?? c
    }

    // MARK: Pixels

    public func pixel(x: Int, y: Int) -> MonoColor? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return bytes[y * stride + x >> 3] & (0x80 >> UInt8(x & 7)) != 0 ? .white : .black
    }

    public mutating func setPixel(x: Int, y: Int, _ color: MonoColor) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let mask: UInt8 = 0x80 >> UInt8(x & 7)
        if color == .white { bytes[y * stride + x >> 3] |= mask } else { bytes[y * stride + x >> 3] &= ~mask }
        markDirty(Rect(x: x, y: y, w: 1, h: 1))
    }

    /// Fills a rect (already clipped or not) without bookkeeping; whole bytes at a time.
    mutating func rawFill(_ r: Rect, _ color: MonoColor) {
        guard let c = r.intersection(bounds) else { return }
        let set = color == .white
        for yy in c.y..<c.maxY {
            let row = yy * stride
            var x = c.x
            while x < c.maxX {
                let byte = x >> 3
                let first = x & 7
                let last = min(8, first + (c.maxX - x))            // exclusive bit index
                let mask = UInt8(truncatingIfNeeded: (0xFF >> first) & ~(0xFF >> last))
                if set { bytes[row + byte] |= mask } else { bytes[row + byte] &= ~mask }
                x += last - first
            }
        }
    }

    // MARK: Drawing (the same operations as Canvas)

    /// Fills the whole surface. Starts a new frame: recorded text runs are dropped.
    public mutating func fill(_ color: MonoColor) {
        rawFill(bounds, color)
        textRuns.removeAll()
        markDirty(bounds)
    }

    public mutating func fillRect(x: Int, y: Int, w: Int, h: Int, _ color: MonoColor) {
        guard let c = Rect(x: x, y: y, w: w, h: h).intersection(bounds) else { return }
        rawFill(c, color)
        textRuns.removeAll { c.contains($0.rect) }
        markDirty(c)
    }

    public mutating func hline(x: Int, y: Int, w: Int, _ color: MonoColor) { fillRect(x: x, y: y, w: w, h: 1, color) }
    public mutating func vline(x: Int, y: Int, h: Int, _ color: MonoColor) { fillRect(x: x, y: y, w: 1, h: h, color) }

    /// Outline of a rect, `thickness` pixels wide, inside the rect.
    public mutating func strokeRect(x: Int, y: Int, w: Int, h: Int, _ color: MonoColor, thickness: Int = 1) {
        guard w > 0, h > 0, thickness > 0 else { return }
        let t = min(thickness, (min(w, h) + 1) / 2)
        let r = Rect(x: x, y: y, w: w, h: h)
        fillRect(x: x, y: y, w: w, h: t, color)
        fillRect(x: x, y: r.maxY.subtractingSaturating(t), w: w, h: t, color)
        fillRect(x: x, y: y.addingSaturating(t), w: t, h: h - 2 * t, color)
        fillRect(x: r.maxX.subtractingSaturating(t), y: y.addingSaturating(t), w: t, h: h - 2 * t, color)
    }

    /// Bresenham line including both endpoints (clipped per pixel; far endpoints are clamped).
    public mutating func line(x0: Int, y0: Int, x1: Int, y1: Int, _ color: MonoColor) {
        let lim = 1 << 20
        var x = min(max(x0, -lim), lim), y = min(max(y0, -lim), lim)
        let bx = min(max(x1, -lim), lim), by = min(max(y1, -lim), lim)
        let dx = abs(bx - x), dy = -abs(by - y)
        let sx = x < bx ? 1 : -1, sy = y < by ? 1 : -1
        var err = dx + dy
        var touched: Rect? = nil
        while true {
            if x >= 0, y >= 0, x < width, y < height {
                rawFill(Rect(x: x, y: y, w: 1, h: 1), color)
                let p = Rect(x: x, y: y, w: 1, h: 1)
                touched = touched.map { $0.union(p) } ?? p
            }
            if x == bx && y == by { break }
            let e2 = 2 * err
            if e2 >= dy { err += dy; x += sx }
            if e2 <= dx { err += dx; y += sy }
        }
        if let t = touched { markDirty(t) }
    }

    /// Draws text like `Canvas.drawText` (same fonts, ellipsizing and text runs).
    @discardableResult
    public mutating func drawText(_ s: String, x: Int, y: Int, _ color: MonoColor, face: FontFace = .small,
                                  scale: Int = 1, maxWidth: Int? = nil) -> Int {
        let sc = min(max(1, scale), 64)
        let text = Font.fit(s, face: face, scale: sc, maxWidth: maxWidth)
        let lim = 1 << 40
        let ox = min(max(x, -lim), lim), oy = min(max(y, -lim), lim)
        var touched: Rect? = nil
        Font.forEachInkRun(text, face: face, scale: sc, x: ox, y: oy, clip: bounds) { r in
            rawFill(r, color)
            touched = touched.map { $0.union(r) } ?? r
        }
        if let t = touched { markDirty(t) }
        let w = text.count * face.cellWidth * sc
        let run = Rect(x: ox, y: oy, w: w, h: face.cellHeight * sc)
        if !text.isEmpty, run.intersection(bounds) != nil { textRuns.append(TextRun(text: text, rect: run)) }
        return w
    }

    /// Draws a sprite: each opaque pixel becomes black or white by luminance (`MonoColor.from`).
    public mutating func draw(_ sprite: Sprite, x: Int, y: Int, scale: Int = 1, threshold: Int = 128) {
        let sc = min(max(1, scale), 256)
        var touched: Rect? = nil
        for sy in 0..<sprite.height {
            for sx in 0..<sprite.width {
                guard let c = sprite.pixels[sy * sprite.width + sx] else { continue }
                let r = Rect(x: x.addingSaturating(sx * sc), y: y.addingSaturating(sy * sc), w: sc, h: sc)
                guard let clip = r.intersection(bounds) else { continue }
                rawFill(clip, MonoColor.from(c, threshold: threshold))
                touched = touched.map { $0.union(clip) } ?? clip
            }
        }
        if let t = touched { markDirty(t) }
    }

    // MARK: Comparing and converting

    /// The smallest rect holding every pixel that differs from `other` (nil: identical, or the
    /// sizes differ — then compare nothing and redraw everything).
    public func changedRect(from other: MonoCanvas) -> Rect? {
        guard other.width == width, other.height == height else { return bounds.isEmpty ? nil : bounds }
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<height {
            let row = y * stride
            for b in 0..<stride where bytes[row + b] != other.bytes[row + b] {
                let diff = bytes[row + b] ^ other.bytes[row + b]
                let lo = b * 8 + diff.leadingZeroBitCount
                let hi = b * 8 + 7 - diff.trailingZeroBitCount
                x0 = min(x0, lo); x1 = max(x1, hi); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        return x1 < 0 ? nil : Rect.edges(x0, y0, x1 + 1, y1 + 1)
    }

    /// The surface as colour pixels (for PNG snapshots): white → `white`, black → `black`.
    public func toCanvas(black: RGB565 = .black, white: RGB565 = .white) -> Canvas {
        var c = Canvas(width: width, height: height, background: white)
        for y in 0..<height {
            for x in 0..<width where pixel(x: x, y: y) == .black { c.pixels[y * width + x] = black.raw }
        }
        c.textRuns = textRuns
        return c
    }

    /// The surface turned 90° clockwise (the SSD1680 on a 250×122 panel scans 122-pixel lines).
    public func rotatedClockwise() -> MonoCanvas {
        var out = MonoCanvas(width: height, height: width)
        for y in 0..<height {
            for x in 0..<width where pixel(x: x, y: y) == .black {
                out.bytes[x * out.stride + (height - 1 - y) >> 3] &= ~(0x80 >> UInt8((height - 1 - y) & 7))
            }
        }
        return out
    }
}

extension Canvas {
    /// The smallest rect holding every pixel that differs from `other` (nil: identical; the
    /// whole canvas when the sizes differ).
    public func changedRect(from other: Canvas) -> Rect? {
        guard other.width == width, other.height == height else { return bounds.isEmpty ? nil : bounds }
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<height {
            let row = y * width
            var first = -1, last = -1
            for x in 0..<width where pixels[row + x] != other.pixels[row + x] {
                if first < 0 { first = x }
                last = x
            }
            if first >= 0 { x0 = min(x0, first); x1 = max(x1, last); y0 = min(y0, y); y1 = max(y1, y) }
        }
        return x1 < 0 ? nil : Rect.edges(x0, y0, x1 + 1, y1 + 1)
    }
}
