// Sprite.swift — palette-indexed sprites defined from text art, plus the pet.

/// A small image defined from rows of characters; each character is looked up in a
/// palette where `nil` means transparent. Characters missing from the palette are
/// transparent as well, so malformed art never traps.
public struct Sprite: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Row-major colours; nil = transparent.
    public let pixels: [RGB565?]

    public init(rows: [String], palette: [Character: RGB565?]) {
        let w = rows.map(\.count).max() ?? 0
        var px: [RGB565?] = []
        px.reserveCapacity(w * rows.count)
        for row in rows {
            var n = 0
            for ch in row {
                px.append(palette[ch] ?? nil)   // unknown → transparent
                n += 1
            }
            px.append(contentsOf: repeatElement(nil, count: w - n))   // pad short rows
        }
        width = w
        height = rows.count
        pixels = px
    }

    public func color(x: Int, y: Int) -> RGB565? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return pixels[y * width + x]
    }
}

extension Canvas {
    /// Draws `sprite` with its top-left at (x, y), each sprite pixel becoming a
    /// `scale`×`scale` block. Transparent pixels leave the canvas untouched.
    public mutating func draw(_ sprite: Sprite, x: Int, y: Int, scale: Int = 1) {
        let sc = min(max(1, scale), 256)
        let lim = 1 << 40
        let ox = min(max(x, -lim), lim), oy = min(max(y, -lim), lim)
        var touched: Rect? = nil
        for sy in 0..<sprite.height {
            var sx = 0
            while sx < sprite.width {
                // Draw horizontal runs of one colour as a single block.
                guard let c = sprite.pixels[sy * sprite.width + sx] else { sx += 1; continue }
                var end = sx + 1
                while end < sprite.width, sprite.pixels[sy * sprite.width + end] == c { end += 1 }
                let r = Rect(x: ox + sx * sc, y: oy + sy * sc, w: (end - sx) * sc, h: sc)
                if let clip = r.intersection(bounds) {
                    rawFill(clip, c.raw)
                    touched = touched.map { $0.union(clip) } ?? clip
                }
                sx = end
            }
        }
        if let t = touched { markDirty(t) }
    }
}
