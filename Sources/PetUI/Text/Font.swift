// Font.swift — a hand-made 6×8 bitmap font: 5×7 glyphs in a 6×8 cell (one blank column on the
// right). Row 6 is the baseline; the eighth row (7) is blank except for descenders (g j p q y , ;
// ç ý ÿ þ), which reach one row below the baseline, so the line height stays 8. Covers printable ASCII, Latin-1 letters and signs
// (FontLatin1.swift) plus a few named symbols mapped to private-use code points. The large 12×16
// face is derived from it (FontFace.swift).

/// Named symbols available in the font (private-use code points).
public enum Glyph {
    public static let coin: Character = "\u{E000}"
    public static let heart: Character = "\u{E001}"
    public static let flame: Character = "\u{E002}"
    public static let check: Character = "\u{E003}"
    public static let bell: Character = "\u{E004}"
    public static let lock: Character = "\u{E005}"
    /// Status strip: a phone (the phone link is connected).
    public static let phone: Character = "\u{E006}"
    /// Status strip: a crescent moon (quiet hours).
    public static let moon: Character = "\u{E007}"
    /// Status strip: two bars (paused).
    public static let pause: Character = "\u{E008}"
    /// Need meters: an apple (fullness).
    public static let food: Character = "\u{E009}"
    /// Need meters: a lightning bolt (energy).
    public static let energy: Character = "\u{E00A}"
}

public enum Font {
    /// Cell size at scale 1 (advance and line height).
    public static let cellWidth = 6
    public static let cellHeight = 8
    public static let glyphWidth = 5
    /// Rows of a glyph bitmap: 7 above and on the baseline, plus the descender row.
    public static let glyphHeight = 8
    /// Row index of the baseline (the bottom row of capitals, digits and x-height letters).
    public static let baselineRow = 6

    /// Glyph art: 7 rows of 5 pixels separated by spaces (8 for glyphs with a descender);
    /// `#` = ink, `.` = blank.
    static let art: [(UInt32, String)] = [
        (0x20, "..... ..... ..... ..... ..... ..... ....."), // space
        (0x21, "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#.."), // !
        (0x22, ".#.#. .#.#. .#.#. ..... ..... ..... ....."), // "
        (0x23, ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#."), // #
        (0x24, "..#.. .#### #.#.. .###. ..#.# ####. ..#.."), // $
        (0x25, "##... ##..# ...#. ..#.. .#... #..## ...##"), // %
        (0x26, ".##.. #..#. #.#.. .#... #.#.# #..#. .##.#"), // &
        (0x27, "..#.. ..#.. .#... ..... ..... ..... ....."), // '
        (0x28, "...#. ..#.. .#... .#... .#... ..#.. ...#."), // (
        (0x29, ".#... ..#.. ...#. ...#. ...#. ..#.. .#..."), // )
        (0x2A, "..... ..#.. #.#.# .###. #.#.# ..#.. ....."), // *
        (0x2B, "..... ..#.. ..#.. ##### ..#.. ..#.. ....."), // +
        (0x2C, "..... ..... ..... ..... ..... .##.. .##.. .#..."), // ,
        (0x2D, "..... ..... ..... .###. ..... ..... ....."), // -
        (0x2E, "..... ..... ..... ..... ..... .##.. .##.."), // .
        (0x2F, "..... ....# ...#. ..#.. .#... #.... ....."), // /
        (0x30, ".###. #...# #..## #.#.# ##..# #...# .###."), // 0
        (0x31, "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###."), // 1
        (0x32, ".###. #...# ....# ...#. ..#.. .#... #####"), // 2
        (0x33, "####. ....# ....# .###. ....# ....# ####."), // 3
        (0x34, "...#. ..##. .#.#. #..#. ##### ...#. ...#."), // 4
        (0x35, "##### #.... ####. ....# ....# #...# .###."), // 5
        (0x36, "..##. .#... #.... ####. #...# #...# .###."), // 6
        (0x37, "##### ....# ...#. ..#.. .#... .#... .#..."), // 7
        (0x38, ".###. #...# #...# .###. #...# #...# .###."), // 8
        (0x39, ".###. #...# #...# .#### ....# ...#. .##.."), // 9
        (0x3A, "..... .##.. .##.. ..... .##.. .##.. ....."), // :
        (0x3B, "..... .##.. .##.. ..... ..... .##.. .##.. .#..."), // ;
        (0x3C, "...#. ..#.. .#... #.... .#... ..#.. ...#."), // <
        (0x3D, "..... ..... ##### ..... ##### ..... ....."), // =
        (0x3E, ".#... ..#.. ...#. ....# ...#. ..#.. .#..."), // >
        (0x3F, ".###. #...# ....# ...#. ..#.. ..... ..#.."), // ?
        (0x40, ".###. #...# ....# .##.# #.#.# #.#.# .###."), // @
        (0x41, ".###. #...# #...# ##### #...# #...# #...#"), // A
        (0x42, "####. #...# #...# ####. #...# #...# ####."), // B
        (0x43, ".###. #...# #.... #.... #.... #...# .###."), // C
        (0x44, "###.. #..#. #...# #...# #...# #..#. ###.."), // D
        (0x45, "##### #.... #.... ####. #.... #.... #####"), // E
        (0x46, "##### #.... #.... ####. #.... #.... #...."), // F
        (0x47, ".###. #...# #.... #.### #...# #...# .####"), // G
        (0x48, "#...# #...# #...# ##### #...# #...# #...#"), // H
        (0x49, ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###."), // I
        (0x4A, "..### ...#. ...#. ...#. ...#. #..#. .##.."), // J
        (0x4B, "#...# #..#. #.#.. ##... #.#.. #..#. #...#"), // K
        (0x4C, "#.... #.... #.... #.... #.... #.... #####"), // L
        (0x4D, "#...# ##.## #.#.# #.#.# #...# #...# #...#"), // M
        (0x4E, "#...# #...# ##..# #.#.# #..## #...# #...#"), // N
        (0x4F, ".###. #...# #...# #...# #...# #...# .###."), // O
        (0x50, "####. #...# #...# ####. #.... #.... #...."), // P
        (0x51, ".###. #...# #...# #...# #.#.# #..#. .##.#"), // Q
        (0x52, "####. #...# #...# ####. #.#.. #..#. #...#"), // R
        (0x53, ".#### #.... #.... .###. ....# ....# ####."), // S
        (0x54, "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#.."), // T
        (0x55, "#...# #...# #...# #...# #...# #...# .###."), // U
        (0x56, "#...# #...# #...# #...# #...# .#.#. ..#.."), // V
        (0x57, "#...# #...# #...# #.#.# #.#.# #.#.# .#.#."), // W
        (0x58, "#...# #...# .#.#. ..#.. .#.#. #...# #...#"), // X
        (0x59, "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#.."), // Y
        (0x5A, "##### ....# ...#. ..#.. .#... #.... #####"), // Z
        (0x5B, ".###. .#... .#... .#... .#... .#... .###."), // [
        (0x5C, "..... #.... .#... ..#.. ...#. ....# ....."), // backslash
        (0x5D, ".###. ...#. ...#. ...#. ...#. ...#. .###."), // ]
        (0x5E, "..#.. .#.#. #...# ..... ..... ..... ....."), // ^
        (0x5F, "..... ..... ..... ..... ..... ..... #####"), // _
        (0x60, ".#... ..#.. ...#. ..... ..... ..... ....."), // `
        (0x61, "..... ..... .###. ....# .#### #...# .####"), // a
        (0x62, "#.... #.... #.##. ##..# #...# #...# ####."), // b
        (0x63, "..... ..... .###. #.... #.... #...# .###."), // c
        (0x64, "....# ....# .##.# #..## #...# #...# .####"), // d
        (0x65, "..... ..... .###. #...# ##### #.... .###."), // e
        (0x66, "..##. .#..# .#... ###.. .#... .#... .#..."), // f
        (0x67, "..... ..... .#### #...# #...# .#### ....# .###."), // g
        (0x68, "#.... #.... #.##. ##..# #...# #...# #...#"), // h
        (0x69, "..#.. ..... .##.. ..#.. ..#.. ..#.. .###."), // i
        (0x6A, "...#. ..... ..##. ...#. ...#. ...#. #..#. .##.."), // j
        (0x6B, "#.... #.... #..#. #.#.. ##... #.#.. #..#."), // k
        (0x6C, ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###."), // l
        (0x6D, "..... ..... ##.#. #.#.# #.#.# #.#.# #.#.#"), // m
        (0x6E, "..... ..... #.##. ##..# #...# #...# #...#"), // n
        (0x6F, "..... ..... .###. #...# #...# #...# .###."), // o
        (0x70, "..... ..... ####. #...# #...# ####. #.... #...."), // p
        (0x71, "..... ..... .#### #...# #...# .#### ....# ....#"), // q
        (0x72, "..... ..... #.##. ##..# #.... #.... #...."), // r
        (0x73, "..... ..... .###. #.... .###. ....# ####."), // s
        (0x74, ".#... .#... ###.. .#... .#... .#..# ..##."), // t
        (0x75, "..... ..... #...# #...# #...# #..## .##.#"), // u
        (0x76, "..... ..... #...# #...# #...# .#.#. ..#.."), // v
        (0x77, "..... ..... #...# #...# #.#.# #.#.# .#.#."), // w
        (0x78, "..... ..... #...# .#.#. ..#.. .#.#. #...#"), // x
        (0x79, "..... ..... #...# #...# #...# .#### ....# .###."), // y
        (0x7A, "..... ..... ##### ...#. ..#.. .#... #####"), // z
        (0x7B, "...#. ..#.. ..#.. .#... ..#.. ..#.. ...#."), // {
        (0x7C, "..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#.."), // |
        (0x7D, ".#... ..#.. ..#.. ...#. ..#.. ..#.. .#..."), // }
        (0x7E, "..... ..... .#... #.#.# ...#. ..... ....."), // ~
        // Named symbols
        (0xE000, "..... .###. ##### ##.## ##### .###. ....."), // coin: a small solid disc with a centre mark
        (0xE001, "..... ##.## ##### ##### .###. ..#.. ....."), // heart
        (0xE002, "..#.. .##.. .###. ##.## #..## #...# .###."), // flame
        (0xE003, "..... ....# ...## #.##. ###.. .#... ....."), // check
        (0xE004, "..#.. .###. .###. .###. ##### ..... ..#.."), // bell
        (0xE005, ".###. #...# #...# ##### ##.## ##.## #####"), // lock
        (0xE006, "##### #...# #...# #...# #...# ##### ##.##"), // phone: a handset with its button
        (0xE007, "..### .##.. ##... ##... ##... .##.. ..###"), // moon: a crescent
        (0xE008, "##.## ##.## ##.## ##.## ##.## ##.## ##.##"), // pause: two bars
        (0xE009, "...#. ..#.. ##.## ##### ##### ##### .###."), // food: an apple with its stem
        (0xE00A, "...## ..##. .##.. ##### ..##. .##.. ##..."), // energy: a lightning bolt
    ]

    /// Drawn for characters the font does not know.
    static let boxArt = "##### #...# #...# #...# #...# #...# #####"

    /// Parses "row row ..." art into 8 row bitmasks (bit 4 = leftmost column); 7-row art gets a
    /// blank descender row.
    static func parse(_ s: String) -> [UInt8] {
        var rows = s.split(separator: " ").map { row in
            row.reduce(UInt8(0)) { acc, ch in (acc << 1) | (ch == "#" ? 1 : 0) }
        }
        while rows.count < glyphHeight { rows.append(0) }
        return rows
    }

    /// Code point → row bitmasks, built once.
    static let glyphs: [UInt32: [UInt8]] = {
        var d: [UInt32: [UInt8]] = [:]
        for (cp, a) in art + latin1Art { d[cp] = parse(a) }
        return d
    }()

    static let box: [UInt8] = parse(boxArt)

    /// Row bitmasks for a character; unknown characters (and multi-scalar clusters) get a box.
    public static func rows(for ch: Character) -> [UInt8] {
        let scalars = ch.unicodeScalars
        guard scalars.count == 1, let s = scalars.first, let g = glyphs[s.value] else { return box }
        return g
    }

    /// True if the character has its own glyph (otherwise it renders as a box).
    public static func hasGlyph(_ ch: Character) -> Bool {
        let scalars = ch.unicodeScalars
        guard scalars.count == 1, let s = scalars.first else { return false }
        return glyphs[s.value] != nil
    }

    /// Width in pixels of `s` in `face` at `scale`: every character advances one cell.
    public static func textWidth(_ s: String, face: FontFace = .small, scale: Int = 1) -> Int {
        s.count * face.cellWidth * max(1, scale)
    }

    /// The text that fits in `maxWidth`, shortened with "..." if needed.
    public static func fit(_ s: String, face: FontFace = .small, scale: Int = 1, maxWidth: Int?) -> String {
        guard let maxWidth else { return s }
        let adv = face.cellWidth * max(1, scale)
        let capacity = max(0, maxWidth) / adv          // characters that fit
        if s.count <= capacity { return s }
        if capacity <= 3 { return String(repeating: ".", count: capacity) }
        var head = String(s.prefix(capacity - 3))
        while head.last == " " { head.removeLast() }   // "abc ..." reads worse than "abc..."
        return head + "..."
    }

    /// The end of `s` that fits in `maxWidth`, after "..." if shortened ("...afternoon slot").
    public static func fitTail(_ s: String, face: FontFace = .small, scale: Int = 1, maxWidth: Int) -> String {
        let capacity = max(0, maxWidth) / (face.cellWidth * max(1, scale))
        if s.count <= capacity { return s }
        if capacity <= 3 { return String(repeating: ".", count: capacity) }
        var tail = String(s.suffix(capacity - 3))
        while tail.first == " " { tail.removeFirst() }
        return "..." + tail
    }
}

extension Canvas {
    /// Width in pixels of `s` in `face` at `scale`.
    public func textWidth(_ s: String, face: FontFace = .small, scale: Int = 1) -> Int {
        Font.textWidth(s, face: face, scale: scale)
    }

    /// Draws `s` in `face` with its top-left at (x, y). With `maxWidth`, over-long text is
    /// ellipsized with "...". Returns the drawn width in pixels. The visible text is
    /// recorded in `textRuns`.
    @discardableResult
    public mutating func drawText(_ s: String, x: Int, y: Int, color: RGB565, face: FontFace = .small,
                                  scale: Int = 1, maxWidth: Int? = nil) -> Int {
        let sc = min(max(1, scale), 64)
        let text = Font.fit(s, face: face, scale: sc, maxWidth: maxWidth)
        let lim = 1 << 40
        let ox = min(max(x, -lim), lim), oy = min(max(y, -lim), lim)
        let drawnWidth = text.count * face.cellWidth * sc
        let box = Rect(x: ox, y: oy, w: drawnWidth, h: face.cellHeight * sc)
        if let clip = box.intersection(bounds), inkText(text, face: face, scale: sc, x: ox, y: oy, clip: clip, color: color.raw) {
            markDirty(clip)
        }
        recordText(text, box)
        if textLog != nil {
            logText(s, shown: text, box: box, x: ox, y: oy, face: face, scale: sc, color: color.raw,
                    fit: text == s ? .whole : .ellipsized)
        }
        return drawnWidth
    }

    /// Draws `s` inside the box (x, y, width × one line), scrolled left by the marquee offset for
    /// `ms` when it is too long (`Font.marqueeOffset`); text outside the box is not drawn. At rest
    /// (the start and the end) it shows whole glyphs ending or starting with "...". The whole
    /// string is recorded as one text run covering the box.
    public mutating func drawMarquee(_ s: String, x: Int, y: Int, width: Int, color: RGB565,
                                     face: FontFace = .small, scale: Int = 1, ms: Int64) {
        let sc = min(max(1, scale), 64)
        guard width > 0 else { return }
        let box = Rect(x: x, y: y, w: width, h: face.cellHeight * sc)
        guard let clip = box.intersection(bounds) else { return }
        let textW = Font.textWidth(s, face: face, scale: sc)
        let off = Font.marqueeOffset(textWidth: textW, boxWidth: width, ms: ms)
        let travel = textW - width
        // At rest (before it starts and once its end shows) the line reads as a deliberate
        // ellipsis, whole glyphs only: "Call the dent..." then "...afternoon slot". Moving, it is
        // cut at the box's ends.
        // At rest (before it starts and once its end shows) the line reads as a deliberate
        // ellipsis in whole glyphs — "Call the dent..." then "...afternoon slot" — not a word cut
        // mid-letter at the box's edge; moving, it is cut at the box's ends.
        var shown = s, sx = x - off, fit = TextLog.Entry.Fit.marquee(offset: off, travel: travel)
        if travel > 0 && (off <= 0 || off >= travel) {
            shown = off <= 0 ? Font.fit(s, face: face, scale: sc, maxWidth: width) : Font.fitTail(s, face: face, scale: sc, maxWidth: width)
            sx = x
            fit = .ellipsized
        }
        if inkText(shown, face: face, scale: sc, x: sx, y: y, clip: clip, color: color.raw) { markDirty(clip) }
        recordText(s, box)
        if textLog != nil {
            logText(s, shown: shown, box: box, x: sx, y: y, face: face, scale: sc, color: color.raw, fit: fit)
        }
    }

    /// Fills the ink of `text` at (x, y) inside `clip` (which lies inside the canvas) in one pass
    /// over the pixels; true when any ink was drawn. The dirty area is the caller's box.
    mutating func inkText(_ text: String, face: FontFace, scale sc: Int, x: Int, y: Int, clip: Rect, color: UInt16) -> Bool {
        var any = false
        Font.forEachInkRun(text, face: face, scale: sc, x: x, y: y, clip: clip) { r in
            any = true
            put(r, color)
        }
        return any
    }
}
