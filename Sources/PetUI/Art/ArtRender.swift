// ArtRender.swift — turning art frames into pixels: palettes resolved for a pet's colours (or for
// a 1-bit display), frames composed into a small raster, the raster scaled onto a canvas.

/// How palette entries become colours.
public enum ArtPaint: Sendable, Equatable {
    /// Colour display: fixed colours as written, roles from this map (body, light, shade, outline).
    case colour(roles: [String: RGB565])
    /// 1-bit display: `ink` and `paper` per entry (the theme's text and background colours).
    case mono(ink: RGB565, paper: RGB565)
}

public enum ArtColours {
    /// The role colours for a pet: its colour scheme (`PetProfile.colours`, mint if unknown), or
    /// the worn skin's colour when there is one (`#RRGGBB`).
    public static func roles(colour: String, skin: String?, library: ArtLibrary = .builtIn) -> [String: RGB565] {
        var roles = library.schemes[colour] ?? library.schemes["mint"] ?? [:]
        if let hex = skin, let c = ArtLibrary.parseHex(Substring(hex)) {
            roles["body"] = c
            roles["light"] = c.mixed(with: .white, 0.55)
            roles["shade"] = c.mixed(with: .black, 0.25)
            let lum = (Int(c.r8) * 299 + Int(c.g8) * 587 + Int(c.b8) * 114) / 1000
            // A dark skin would hide the outline and the eyes: draw those light.
            roles["outline"] = lum < 80 ? RGB565(hex: 0xECEAF4) : RGB565(hex: 0x2B2B3A)
        }
        return roles
    }

    /// The dither of a sheet's patterned entries on a 1-bit display (`MonoInk.dots` … `.dark`):
    /// their 4×4 ink masks and the ink colour; nil on colour displays or when the sheet has none.
    /// Their pixels outside the mask are paper (`resolve` gives paper for them).
    public static func dither(_ sheet: ArtSheet, _ paint: ArtPaint) -> ArtDither? {
        guard case .mono(let ink, _) = paint else { return nil }
        let masks = sheet.entries.map(\.mono.mask)
        return masks.contains { $0 != 0 } ? ArtDither(masks: masks, ink: ink.raw) : nil
    }

    /// The sheet's palette as raw colours (nil = transparent).
    public static func resolve(_ sheet: ArtSheet, _ paint: ArtPaint) -> [UInt16?] {
        sheet.entries.map { e in
            switch paint {
            case .colour(let roles):
                switch e.colour {
                case .clear: return nil
                case .rgb(let c): return c.raw
                case .role(let r): return (roles[r] ?? RGB565(hex: 0xFF00FF)).raw
                }
            case .mono(let ink, let paper):
                switch e.mono {
                case .clear: return nil
                case .ink: return ink.raw
                case .paper, .dots, .light, .half, .dark: return paper.raw
                }
            }
        }
    }
}

/// Ordered-dither fills of a sheet's palette entries: per entry a 4×4 mask of ink pixels (0 = none),
/// phased on the frame's own pixel grid so a pattern moves with its sprite.
public struct ArtDither: Sendable, Equatable {
    public var masks: [UInt16]
    public var ink: UInt16
}

/// A small opaque RGB565 picture in art pixels, composed layer by layer, then scaled onto a canvas.
public struct ArtRaster: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt16]

    public init(width: Int, height: Int, fill: RGB565) {
        self.width = max(0, min(width, 4096))
        self.height = max(0, min(height, 4096))
        pixels = Array(repeating: fill.raw, count: self.width * self.height)
    }

    public func pixel(x: Int, y: Int) -> RGB565? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return RGB565(raw: pixels[y * width + x])
    }

    public mutating func fillRect(x: Int, y: Int, w: Int, h: Int, _ c: RGB565) {
        guard let r = Rect(x: x, y: y, w: w, h: h).intersection(Rect(x: 0, y: 0, w: width, h: height)) else { return }
        for yy in r.y..<r.maxY { for xx in r.x..<r.maxX { pixels[yy * width + xx] = c.raw } }
    }

    /// Draws `frame` with its origin at (x, y); transparent cells leave the raster alone. With a
    /// `dither`, a patterned entry's cell is ink where its mask says so (at the frame's own x % 4,
    /// y % 4), paper elsewhere.
    public mutating func draw(_ frame: ArtFrame, palette: [UInt16?], dither: ArtDither? = nil, x: Int, y: Int) {
        let ox = x - frame.origin.x, oy = y - frame.origin.y
        let y0 = max(0, -oy), y1 = min(frame.height, height - oy)
        let x0 = max(0, -ox), x1 = min(frame.width, width - ox)
        guard y0 < y1, x0 < x1 else { return }
        for fy in y0..<y1 {
            let src = fy * frame.width, dst = (oy + fy) * width + ox
            for fx in x0..<x1 {
                let i = frame.cells[src + fx]
                guard i != ArtFrame.transparent, Int(i) < palette.count, let c = palette[Int(i)] else { continue }
                if let d = dither, Int(i) < d.masks.count, (d.masks[Int(i)] >> UInt16((fy & 3) * 4 + (fx & 3))) & 1 == 1 {
                    pixels[dst + fx] = d.ink
                } else {
                    pixels[dst + fx] = c
                }
            }
        }
    }

    /// Copies the raster onto `canvas` with its top-left at (x, y), each art pixel a
    /// `scale`×`scale` block, drawing only inside `clip`. Marks the drawn area dirty.
    public func blit(into canvas: inout Canvas, x: Int, y: Int, scale: Int, clip: Rect) {
        let sc = max(1, min(scale, 256))
        guard let area = clip.intersection(canvas.bounds) else { return }
        // Art rows and columns that reach into the clip area.
        let r0 = max(0, (area.y - y) / sc), r1 = min(height, (area.maxY - y + sc - 1) / sc)
        let c0 = max(0, (area.x - x) / sc), c1 = min(width, (area.maxX - x + sc - 1) / sc)
        guard r0 < r1, c0 < c1 else { return }
        // Each run of one colour in a row, scaled and clipped to `area` (Canvas.fillScaledRuns).
        pixels.withUnsafeBufferPointer { px in
            canvas.fillScaledRuns(px, width: width, rows: r0..<r1, columns: c0..<c1, x: x, y: y, scale: sc, clip: area)
        }
        if let painted = Rect(x: x + c0 * sc, y: y + r0 * sc, w: (c1 - c0) * sc, h: (r1 - r0) * sc).intersection(area) {
            canvas.dropText(coveredBy: painted)
            canvas.markDirty(painted)
        }
    }
}
