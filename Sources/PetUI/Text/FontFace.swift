// FontFace.swift — the two faces of the font (small 6×8, large 12×16), the glyph bitmaps both
// draw from, and the helpers for long text (ink runs for any surface, marquee scrolling).
//
// The large face is derived from the small one with Scale2x (EPX): every pixel becomes 2×2 and a
// corner of the block takes its neighbours' colour where two neighbours agree, so diagonals stay
// smooth instead of becoming staircases. A few glyphs are hand-tuned (`Font.largeOverrides`).

/// Which size of the font to draw with. Both cover the same characters.
public enum FontFace: String, CaseIterable, Sendable, Hashable {
    /// 5×7 glyphs in a 6×8 cell, descenders in the eighth row.
    case small
    /// 10×14 glyphs in a 12×16 cell, descenders in the last two rows.
    case large

    /// Advance per character at scale 1.
    public var cellWidth: Int { self == .small ? 6 : 12 }
    /// Line height at scale 1.
    public var cellHeight: Int { self == .small ? 8 : 16 }
    /// Inked width of a glyph (bit `glyphWidth - 1` of a row is the leftmost column).
    public var glyphWidth: Int { self == .small ? 5 : 10 }
    /// Rows of a glyph bitmap, the descender rows included (the whole cell height).
    public var glyphHeight: Int { self == .small ? 8 : 16 }
    /// Row index of the baseline: ink below it is a descender.
    public var baselineRow: Int { self == .small ? 6 : 13 }

    /// Row bitmasks of a character (leftmost column in bit `glyphWidth - 1`); unknown
    /// characters and multi-scalar clusters get a box.
    public func bitmap(for ch: Character) -> [UInt16] {
        let scalars = ch.unicodeScalars
        switch self {
        case .small:
            guard scalars.count == 1, let s = scalars.first, let g = Font.glyphs16[s.value] else { return Font.box16 }
            return g
        case .large:
            guard scalars.count == 1, let s = scalars.first, let g = Font.largeGlyphs[s.value] else { return Font.largeBox }
            return g
        }
    }

    /// True if the character has its own glyph in this face (otherwise it renders as a box).
    public func hasGlyph(_ ch: Character) -> Bool {
        let scalars = ch.unicodeScalars
        guard scalars.count == 1, let s = scalars.first else { return false }
        switch self {
        case .small: return Font.glyphs16[s.value] != nil
        case .large: return Font.largeGlyphs[s.value] != nil
        }
    }
}

extension Font {
    /// Every code point the font draws (ASCII, Latin-1, symbols), ascending.
    public static var codePoints: [UInt32] { glyphs.keys.sorted() }

    static let glyphs16: [UInt32: [UInt16]] = glyphs.mapValues { $0.map(UInt16.init) }
    static let box16: [UInt16] = box.map(UInt16.init)

    /// Hand-tuned large glyphs (10 columns × 14 rows, rows separated by spaces; two more rows of
    /// descender are added blank), replacing the Scale2x result where it looked lumpy.
    static let largeOverrides: [(UInt32, String)] = [
        // The coin: a 10×10 disc (shorter than the 14-row digits) with a rim and a centre mark, so
        // "1064" next to it never reads "01064".
        (0xE000, ".......... .......... ...####... .########. .##....##. ##..##..## ##.####.## "
            + "##.####.## ##..##..## .##....##. .########. ...####... .......... .........."),
        // The heart: two rounded lobes.
        (0xE001, ".......... .......... .###..###. ########## ########## ########## ########## "
            + ".########. ..######.. ...####... ....##.... .......... .......... .........."),
        // The check mark: a clean 2-pixel stroke.
        (0xE003, ".......... .........# ........## .......### ......###. #....###.. ##..###... "
            + "#######... .#####.... ..###..... ...#...... .......... .......... .........."),
    ]

    /// Scale2x of a glyph of `w` columns: twice the width and height.
    static func scale2x(_ rows: [UInt16], width w: Int) -> [UInt16] {
        let h = rows.count
        func px(_ x: Int, _ y: Int) -> Bool {
            guard x >= 0, y >= 0, x < w, y < h else { return false }
            return rows[y] & (1 << UInt16(w - 1 - x)) != 0
        }
        var out = Array(repeating: UInt16(0), count: 2 * h)
        let w2 = 2 * w
        func set(_ x: Int, _ y: Int) { out[y] |= 1 << UInt16(w2 - 1 - x) }
        for y in 0..<h {
            for x in 0..<w {
                let e = px(x, y)
                let b = px(x, y - 1), d = px(x - 1, y), f = px(x + 1, y), hh = px(x, y + 1)
                let e0 = (d == b && b != f && d != hh) ? d : e
                let e1 = (b == f && b != d && f != hh) ? f : e
                let e2 = (d == hh && d != b && hh != f) ? d : e
                let e3 = (hh == f && d != hh && b != f) ? f : e
                if e0 { set(2 * x, 2 * y) }
                if e1 { set(2 * x + 1, 2 * y) }
                if e2 { set(2 * x, 2 * y + 1) }
                if e3 { set(2 * x + 1, 2 * y + 1) }
            }
        }
        return out
    }

    static func parseLarge(_ s: String) -> [UInt16] {
        s.split(separator: " ").map { row in row.reduce(UInt16(0)) { ($0 << 1) | ($1 == "#" ? 1 : 0) } }
    }

    /// Large glyphs for every code point of the small face, built once.
    static let largeGlyphs: [UInt32: [UInt16]] = {
        var d: [UInt32: [UInt16]] = [:]
        for (cp, rows) in glyphs16 { d[cp] = scale2x(rows, width: 5) }
        for (cp, art) in largeOverrides {
            let rows = parseLarge(art)
            if rows.count == 14 { d[cp] = rows + [0, 0] }
        }
        return d
    }()

    static let largeBox: [UInt16] = scale2x(box16, width: 5)

    /// One rectangle of a glyph's ink in cell pixels (at scale 1): a run of a row, merged with the
    /// identical runs of the rows under it (the large face's rows mostly come in equal pairs).
    struct InkRect { var x: Int16, y: Int16, w: Int16, h: Int16 }

    /// A glyph's ink as rectangles, from its row bitmasks.
    static func inkRects(_ rows: [UInt16], width gw: Int) -> [InkRect] {
        let top = UInt16(1) << UInt16(gw - 1)
        var out: [InkRect] = []
        var open: [Int] = []          // indices in `out` of the previous row's runs
        for (ry, bits) in rows.enumerated() {
            var now: [Int] = []
            var col = 0
            while col < gw {
                if bits & (top >> UInt16(col)) == 0 { col += 1; continue }
                var end = col + 1
                while end < gw, bits & (top >> UInt16(end)) != 0 { end += 1 }
                if let k = open.first(where: { out[$0].x == col && out[$0].w == end - col }) {
                    out[k].h += 1
                    now.append(k)
                } else {
                    out.append(InkRect(x: Int16(col), y: Int16(ry), w: Int16(end - col), h: 1))
                    now.append(out.count - 1)
                }
                col = end
            }
            open = now
        }
        return out
    }

    /// Ink rectangles of every glyph of each face, built once; unknown characters use the box.
    static let smallInk: [UInt32: [InkRect]] = glyphs16.mapValues { inkRects($0, width: 5) }
    static let largeInk: [UInt32: [InkRect]] = largeGlyphs.mapValues { inkRects($0, width: 10) }
    static let smallBoxInk = inkRects(box16, width: 5)
    static let largeBoxInk = inkRects(largeBox, width: 10)

    /// ASCII (the most drawn text) by index, without hashing.
    static let smallAsciiInk: [[InkRect]] = (0..<128).map { smallInk[UInt32($0)] ?? smallBoxInk }
    static let largeAsciiInk: [[InkRect]] = (0..<128).map { largeInk[UInt32($0)] ?? largeBoxInk }

    static func ink(_ ch: Character, _ face: FontFace) -> [InkRect] {
        let small = face == .small
        if let a = ch.asciiValue, ch != "\r\n" { return small ? smallAsciiInk[Int(a)] : largeAsciiInk[Int(a)] }
        let scalars = ch.unicodeScalars
        guard scalars.count == 1, let sc = scalars.first, let r = (small ? smallInk : largeInk)[sc.value] else {
            return small ? smallBoxInk : largeBoxInk
        }
        return r
    }

    /// Calls `body` with every rectangle of ink of `text` drawn at (x, y), clipped to `clip`
    /// (rectangles outside are skipped). Shared by `Canvas` and `MonoCanvas`.
    static func forEachInkRun(_ text: String, face: FontFace, scale sc: Int, x ox: Int, y oy: Int, clip: Rect,
                              _ body: (Rect) -> Void) {
        let adv = face.cellWidth * sc
        guard oy + face.cellHeight * sc > clip.y, oy < clip.maxY else { return }
        // Whole lines inside the clip vertically need only the horizontal test per rectangle.
        let rowsInside = oy >= clip.y && oy + face.cellHeight * sc <= clip.maxY
        var cx = ox
        for ch in text {
            if cx >= clip.maxX { break }
            if cx + adv > clip.x {
                let whole = rowsInside && cx >= clip.x && cx + adv <= clip.maxX
                for g in ink(ch, face) {
                    let r = Rect(x: cx + Int(g.x) * sc, y: oy + Int(g.y) * sc, w: Int(g.w) * sc, h: Int(g.h) * sc)
                    if whole { body(r) } else if let c = r.intersection(clip) { body(c) }
                }
            }
            cx += adv
        }
    }

    /// How far (pixels, ≥ 0) a too-long line is scrolled left at `ms`: it rests at the start for
    /// `pauseMs`, scrolls at `pxPerSecond` until its end shows, rests there for `pauseMs`, then
    /// starts again. 0 when the text fits. A pure function of the clock, so every frame agrees.
    public static func marqueeOffset(textWidth: Int, boxWidth: Int, ms: Int64,
                                     pxPerSecond: Int = 30, pauseMs: Int64 = 1500) -> Int {
        let travel = textWidth - boxWidth
        guard travel > 0, pxPerSecond > 0 else { return 0 }
        let pause = max(0, pauseMs)
        let scrollMs = (Int64(travel) * 1000 + Int64(pxPerSecond) - 1) / Int64(pxPerSecond)
        let cycle = 2 * pause + scrollMs
        var phase = ms % cycle
        if phase < 0 { phase += cycle }
        if phase < pause { return 0 }
        if phase < pause + scrollMs { return min(travel, Int((phase - pause) * Int64(pxPerSecond) / 1000)) }
        return travel
    }

    /// `s` ellipsized to `maxWidth` in `face` (the same as `fit`, named for the screens).
    public static func ellipsize(_ s: String, face: FontFace = .small, scale: Int = 1, to maxWidth: Int) -> String {
        fit(s, face: face, scale: scale, maxWidth: maxWidth)
    }
}
