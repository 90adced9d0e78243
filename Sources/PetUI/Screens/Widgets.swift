import PetCore

// Widgets.swift — the building blocks every screen is drawn with: the size class of a display,
// the colours a screen may use (two on 1-bit displays), text faces with ellipsizing and word
// wrapping, the title bar, list rows with a cursor and scrolling, progress bars, check boxes.
// Layout rules: docs/screens.md.

/// How a display is laid out. Every screen has one layout per class.
public enum SizeClass: String, Sendable {
    /// 240×240 colour: stacked layout, large text.
    case square
    /// 320×240 colour: pet or chart on the left, information on the right.
    case wide
    /// 128×64 1-bit OLED: terse, small text only.
    case tiny
    /// 250×122 1-bit e-paper: high contrast, no animation, small text with large headings.
    case paper
}

extension DisplayProfile {
    /// The layout class (from the size, so an unknown profile still gets a sensible layout).
    public var sizeClass: SizeClass {
        if height < 110 || width < 200 { return .tiny }
        if height < 180 { return .paper }
        return width * 10 >= height * 12 ? .wide : .square
    }
}

/// The colours a screen draws with. On 1-bit displays everything is the theme's text or
/// background colour, so a frame never holds a third colour whatever the theme says.
struct ScreenColors {
    var bg: RGB565
    var fg: RGB565
    var muted: RGB565
    var accent: RGB565
    /// Text drawn on an `accent` fill.
    var onAccent: RGB565
    var panel: RGB565
    var track: RGB565
    /// The pet's ring, bar fills and chart bars (`Theme.meter`).
    var meter: RGB565
    var coin: RGB565
    var flame: RGB565
    var good: RGB565
    var backdrop: RGB565
    var bubble: RGB565
    var bubbleBorder: RGB565
    var bubbleText: RGB565
    var mono: Bool

    init(_ t: Theme, mono: Bool) {
        self.mono = mono
        bg = t.background
        fg = t.text
        if mono {
            muted = t.text; accent = t.text; onAccent = t.background; panel = t.background
            track = t.background; meter = t.text; coin = t.text; flame = t.text; good = t.text
            backdrop = t.background; bubble = t.background; bubbleBorder = t.text; bubbleText = t.text
        } else {
            muted = t.mutedText; accent = t.accent; panel = t.panel; track = t.track; meter = t.meter
            coin = t.coin; flame = t.flame; good = t.good
            // The accent is a bright yellow in both themes: dark text on it.
            onAccent = ScreenColors.luma(t.background) > ScreenColors.luma(t.text) ? t.text : t.background
            backdrop = t.petBackdrop; bubble = t.bubble; bubbleBorder = t.bubbleBorder
            // Whichever of the theme's text and background reads better on the bubble.
            let b = ScreenColors.luma(t.bubble)
            bubbleText = abs(b - ScreenColors.luma(t.text)) >= abs(b - ScreenColors.luma(t.background)) ? t.text : t.background
        }
    }

    static func luma(_ c: RGB565) -> Int { 3 * Int(c.r8) + 6 * Int(c.g8) + Int(c.b8) }
}

/// A text face: the 6×8 font or the 12×16 one (`FontFace`).
enum TextSize {
    case small, large

    var face: FontFace { self == .large ? .large : .small }
    var advance: Int { face.cellWidth }
    var height: Int { face.cellHeight }
}

enum Txt {
    static func width(_ s: String, _ f: TextSize) -> Int { Font.textWidth(s, face: f.face) }

    /// `s` shortened with "..." to fit `maxWidth`.
    static func fit(_ s: String, _ f: TextSize, _ maxWidth: Int) -> String { Font.fit(s, face: f.face, maxWidth: maxWidth) }

    /// The face `f` is drawn in on `c`: never smaller than the canvas's `minimumFace` (the 12×16
    /// face on the colour panels, where 6×8 text is under 1.1 mm).
    static func legible(_ f: TextSize, on c: Canvas) -> TextSize {
        f == .small && c.minimumFace == .large ? .large : f
    }

    /// Draws `s` ellipsized to `maxWidth` (never past the right edge of the canvas either). A
    /// face under the canvas's minimum is drawn in the minimum face, centred on the same line.
    @discardableResult
    static func draw(_ c: inout Canvas, _ s: String, x: Int, y: Int, _ color: RGB565, _ f: TextSize = .small,
                     maxWidth: Int? = nil) -> Int {
        var y = y
        let g = legible(f, on: c)
        if g != f { y = min(max(0, y - (g.height - f.height) / 2), c.height - g.height) }
        let f = g
        // Text that would not fit vertically is left out rather than cut (odd display sizes).
        guard !s.isEmpty, y >= 0, y + f.height <= c.height else { return 0 }
        let room = max(0, c.width - x)
        let w = min(maxWidth ?? room, room)
        guard w >= f.advance else { return 0 }
        return c.drawText(s, x: x, y: y, color: color, face: f.face, maxWidth: w)
    }

    /// Draws `s` right-aligned so it ends at `right`; returns its left edge.
    @discardableResult
    static func drawRight(_ c: inout Canvas, _ s: String, right: Int, y: Int, _ color: RGB565, _ f: TextSize = .small,
                          maxWidth: Int? = nil) -> Int {
        let f2 = legible(f, on: c)
        let shown = maxWidth.map { fit(s, f2, $0) } ?? s
        let x = right - width(shown, f2)
        draw(&c, shown, x: max(0, x), y: y, color, f, maxWidth: right - max(0, x))
        return x
    }

    /// Draws `s` centred in [x, x+w).
    static func drawCentred(_ c: inout Canvas, _ s: String, x: Int, w: Int, y: Int, _ color: RGB565, _ f: TextSize = .small) {
        let f2 = legible(f, on: c)
        let shown = fit(s, f2, w)
        draw(&c, shown, x: x + (w - width(shown, f2)) / 2, y: y, color, f, maxWidth: w)
    }

    /// Draws `s` on one line of `width` pixels: whole when it fits; otherwise, with `ms` (a
    /// display that animates), scrolled as a marquee (`Font.marqueeOffset`: rests at both ends),
    /// else ellipsized (e-paper). Returns the width used.
    @discardableResult
    static func line(_ c: inout Canvas, _ s: String, x: Int, y: Int, width w: Int, _ color: RGB565, _ f: TextSize = .small,
                     ms: Int64?) -> Int {
        let f2 = legible(f, on: c)
        var y = y
        if f2 != f { y = min(max(0, y - (f2.height - f.height) / 2), c.height - f2.height) }
        guard !s.isEmpty, w >= f2.advance, y >= 0, y + f2.height <= c.height else { return 0 }
        if width(s, f2) <= w || ms == nil { return draw(&c, s, x: x, y: y, color, f2, maxWidth: w) }
        c.drawMarquee(s, x: x, y: y, width: min(w, max(0, c.width - x)), color: color, face: f2.face, ms: ms ?? 0)
        return w
    }

    /// `line`, centred in [x, x+w) when it fits.
    @discardableResult
    static func lineCentred(_ c: inout Canvas, _ s: String, x: Int, w: Int, y: Int, _ color: RGB565, _ f: TextSize = .small,
                            ms: Int64?) -> Int {
        if width(s, legible(f, on: c)) <= w { drawCentred(&c, s, x: x, w: w, y: y, color, f); return w }
        return line(&c, s, x: x, y: y, width: w, color, f, ms: ms)
    }

    /// The lines `s` breaks into at `width` pixels, every word kept: words break at spaces, a word
    /// longer than a line is cut at the line's end (no hyphen). `hard` marks a line that ends
    /// inside a word.
    static func breakLines(_ s: String, _ f: TextSize, width: Int) -> [(text: String, hard: Bool)] {
        let cap = max(1, width / f.advance)
        var out: [(text: String, hard: Bool)] = []
        var cur = ""
        for word in s.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            var w = Substring(word)
            if !cur.isEmpty {
                if cur.count + 1 + w.count <= cap { cur += " " + w; continue }
                out.append((cur, false)); cur = ""
            }
            while w.count > cap {
                out.append((String(w.prefix(cap)), true))
                w = w.dropFirst(cap)
            }
            cur = String(w)
        }
        if !cur.isEmpty { out.append((cur, false)) }
        return out
    }

    /// Word-wraps `s` into at most `maxLines` lines of `width` pixels; words longer than a line are
    /// broken; when text is left over the last line ends in "...".
    static func wrap(_ s: String, _ f: TextSize, width: Int, maxLines: Int) -> [String] {
        guard maxLines > 0 else { return [] }
        let all = breakLines(s, f, width: width)
        if all.count <= maxLines { return all.map(\.text) }
        var lines = all.prefix(maxLines - 1).map(\.text)
        lines.append(Font.fit(rest(all, from: maxLines - 1), face: f.face, maxWidth: max(1, width / f.advance) * f.advance))
        return lines
    }

    /// The text of `lines` from `index` on, joined as it was written.
    static func rest(_ lines: [(text: String, hard: Bool)], from index: Int) -> String {
        var s = ""
        for k in index..<lines.count {
            s += lines[k].text
            if k < lines.count - 1 && !lines[k].hard { s += " " }
        }
        return s
    }

    /// Draws wrapped text; returns the height used.
    @discardableResult
    static func drawWrapped(_ c: inout Canvas, _ s: String, x: Int, y: Int, width: Int, maxLines: Int,
                            _ color: RGB565, _ f: TextSize = .small, lineGap: Int = 2, centred: Bool = false) -> Int {
        let f = legible(f, on: c)
        let lines = wrap(s, f, width: width, maxLines: maxLines)
        for (k, line) in lines.enumerated() {
            let ly = y + k * (f.height + lineGap)
            if centred { drawCentred(&c, line, x: x, w: width, y: ly, color, f) }
            else { draw(&c, line, x: x, y: ly, color, f, maxWidth: width) }
        }
        return lines.count * (f.height + lineGap) - (lines.isEmpty ? 0 : lineGap)
    }

    /// Draws `s` in up to `maxLines` lines so that all of it can be read: word-wrapped when it
    /// fits; otherwise the last line carries the rest as a marquee (with `ms`), or ends in "..."
    /// (e-paper: `ms` nil). Returns the height used.
    @discardableResult
    static func flow(_ c: inout Canvas, _ s: String, x: Int, y: Int, width: Int, maxLines: Int, _ color: RGB565,
                     _ f: TextSize = .small, lineGap: Int = 2, ms: Int64?) -> Int {
        let f = legible(f, on: c)
        guard maxLines > 0 else { return 0 }
        let all = breakLines(s, f, width: width)
        guard !all.isEmpty else { return 0 }
        let n = min(all.count, maxLines)
        for k in 0..<n {
            let ly = y + k * (f.height + lineGap)
            if k == n - 1 && all.count > maxLines {
                line(&c, rest(all, from: k), x: x, y: ly, width: width, color, f, ms: ms)
            } else {
                draw(&c, all[k].text, x: x, y: ly, color, f, maxWidth: width)
            }
        }
        return n * (f.height + lineGap) - lineGap
    }

    /// How many lines `s` takes at `width` (every word kept).
    static func lineCount(_ s: String, _ f: TextSize, width: Int) -> Int { breakLines(s, f, width: width).count }
}

/// One screen being drawn: the context, its colours and the metrics of its size class.
struct Look {
    let ctx: ScreenContext
    let pal: ScreenColors
    let size: SizeClass
    let W: Int
    let H: Int

    init(_ c: ScreenContext) {
        ctx = c
        size = c.profile.sizeClass
        pal = ScreenColors(c.theme, mono: c.profile.isMonochrome)
        W = c.profile.width
        H = c.profile.height
    }

    var state: PetState { ctx.state }
    var ui: UIState { ctx.ui }
    var now: Instant { ctx.now }
    var big: Bool { size == .square || size == .wide }

    /// The smallest face that is legible here (`DisplayProfile.minimumFace`): 6×8 on the 1-bit
    /// panels, 12×16 on the colour ones.
    var small: TextSize { ctx.profile.smallestText }
    /// The clock marquees and blinks run on: milliseconds since the last input, so a row the
    /// cursor just reached starts scrolling from its beginning (a pure function of the clock:
    /// every frame at the same instant agrees); nil on e-paper, where nothing moves.
    var ms: Int64? { ctx.marqueeMs }

    /// TextSize of titles and list rows.
    var titleFace: TextSize { size == .tiny ? .small : .large }
    var rowFace: TextSize { big ? .large : .small }
    var pad: Int { big ? 8 : (size == .paper ? 4 : 2) }
    var headerHeight: Int {
        switch size { case .square, .wide: 28; case .paper: 20; case .tiny: 10 }
    }
    var rowHeight: Int {
        switch size { case .square, .wide: 23; case .paper: 12; case .tiny: 9 }
    }
    /// The area below the title bar.
    var content: Rect { Rect(x: 0, y: headerHeight + (big ? 2 : 1), w: W, h: H - headerHeight - (big ? 2 : 1)) }

    /// A new frame.
    func begin(_ c: inout Canvas) { c.clear(pal.bg) }

    // MARK: Title bar

    /// The title bar: title on the left, `right` (e.g. the coin balance) on the right.
    func header(_ c: inout Canvas, _ title: String, right: String? = nil) {
        let h = headerHeight
        let f = titleFace
        switch size {
        case .tiny:
            c.fillRect(x: 0, y: 0, w: W, h: h - 1, color: pal.fg)
            var rx = W - 1
            if let right { rx = Txt.drawRight(&c, right, right: W - 2, y: 1, pal.bg, .small, maxWidth: W / 2) - 4 }
            Txt.draw(&c, title, x: 2, y: 1, pal.bg, .small, maxWidth: rx - 2)
        case .paper:
            var rx = W
            if let right { rx = Txt.drawRight(&c, right, right: W - pad, y: 2, pal.fg, .large, maxWidth: W / 2) - 8 }
            Txt.draw(&c, title, x: pad, y: 2, pal.fg, f, maxWidth: rx - pad)
            c.fillRect(x: 0, y: h - 1, w: W, h: 2, color: pal.fg)
        case .square, .wide:
            c.fillRect(x: 0, y: 0, w: W, h: h, color: pal.panel)
            c.fillRect(x: 0, y: h, w: W, h: 2, color: pal.accent)
            var rx = W
            if let right { rx = Txt.drawRight(&c, right, right: W - pad, y: 6, pal.fg, .large, maxWidth: W / 2) - 10 }
            Txt.draw(&c, title, x: pad, y: 6, pal.fg, f, maxWidth: rx - pad)
        }
    }

    /// "⊙ 125" — the coin balance as shown in title bars.
    func coinText(_ n: Int) -> String { String(Glyph.coin) + Fmt.compact(n) }

    // MARK: Lists

    /// Draws the navigator's list in the screen's list frame: the rows from `list.first` (as many
    /// as `list.visible`), the selected one highlighted (its text runs marked `highlighted`), and a
    /// scroll bar when not every row fits.
    func list(_ c: inout Canvas, _ list: ListView, frame: ListFrame) {
        let rows = list.rows
        let area = frame.area, rh = frame.rowHeight
        let fits = list.visible
        let maxFirst = max(0, rows.count - fits)
        let first = min(max(0, list.first), maxFirst)
        let scrolls = rows.count > fits
        let barW = scrolls ? (big ? 5 : 3) : 0
        let rowW = area.w - barW - (scrolls ? 1 : 0)
        for i in first..<min(rows.count, first + fits) {
            let y = area.y + (i - first) * rh
            drawRow(&c, rows[i], Rect(x: area.x, y: y, w: rowW, h: rh), highlighted: i == list.selected)
        }
        if scrolls {
            let tx = area.maxX - barW
            if pal.mono {
                c.vline(x: tx + barW / 2, y: area.y, h: fits * rh, color: pal.fg)
            } else {
                c.fillRoundedRect(x: tx, y: area.y, w: barW, h: fits * rh, radius: barW / 2, color: pal.track)
            }
            let th = max(barW + 2, fits * rh * fits / rows.count)
            let ty = area.y + (fits * rh - th) * first / max(1, maxFirst)
            c.fillRoundedRect(x: tx, y: ty, w: barW, h: th, radius: barW / 2, color: pal.mono ? pal.fg : pal.muted)
        }
    }

    func drawRow(_ c: inout Canvas, _ row: NavRow, _ r: Rect, highlighted: Bool) {
        let runs = c.textRuns.count
        defer { if highlighted { c.markHighlighted(from: runs) } }
        if row.kind == .section {
            let f = small
            let ty = r.maxY - f.height - (big ? 3 : 1)
            var rightEdge = r.maxX - pad
            if let right = row.value { rightEdge = Txt.drawRight(&c, right, right: r.maxX - pad, y: ty, pal.muted, f) - 4 }
            let w = Txt.draw(&c, row.label, x: r.x + pad, y: ty, pal.muted, f, maxWidth: rightEdge - r.x - pad)
            let lx = r.x + pad + w + 4
            if rightEdge - lx > 4 { c.hline(x: lx, y: ty + f.height / 2 - 1, w: rightEdge - lx, color: pal.mono ? pal.fg : pal.track) }
            return
        }
        let f = rowFace
        var ink = row.muted ? pal.muted : pal.fg
        if highlighted {
            if big { c.fillRoundedRect(x: r.x + 2, y: r.y + 1, w: r.w - 4, h: r.h - 2, radius: 5, color: pal.accent) }
            else { c.fillRect(x: r.x, y: r.y, w: r.w, h: r.h, color: pal.fg) }
            ink = big ? pal.onAccent : pal.bg
        }
        let ty = r.y + (r.h - f.height) / 2 + (big ? 1 : 0)
        var x = r.x + pad
        switch row.mark {
        case .none: break
        case .box(let checked):
            let s = big ? 14 : 7
            let by = r.y + (r.h - s) / 2
            checkBox(&c, x: x, y: by, size: s, checked: checked, ink: ink, highlighted: highlighted)
            x += s + (big ? 8 : 3)
        case .started:
            let s = big ? 14 : 7
            let by = r.y + (r.h - s) / 2
            // Started, not done: an empty box with a "play" triangle in it (a filled square
            // in the box read as a check, docs/screens.md).
            checkBox(&c, x: x, y: by, size: s, checked: false, ink: ink, highlighted: highlighted)
            Look.playMark(&c, box: Rect(x: x, y: by, w: s, h: s), ink)
            x += s + (big ? 8 : 3)
        case .glyph(let g):
            Txt.draw(&c, String(g), x: x, y: ty, ink, f)
            x += f.advance + (big ? 4 : 1)
        case .picture(let item, let badge):
            // Wider than high: wide pictures (a crown, glasses, a rug) get a whole scale more.
            let s = big ? 20 : (size == .paper ? 10 : 8), w = size == .wide ? 32 : (big ? 24 : (size == .paper ? 16 : 8))
            ItemPicture.draw(item, ctx, &c, in: Rect(x: x, y: r.y + (r.h - s) / 2, w: w, h: s), ink: ink,
                             paper: highlighted ? (big ? pal.accent : pal.fg) : pal.bg)
            x += w + (big ? 6 : 2)
            if let g = badge {
                Txt.draw(&c, String(g), x: x, y: ty, ink, f)
                x += f.advance + (big ? 4 : 1)
            }
        }
        var right = r.maxX - pad
        if let rt = row.value, !rt.isEmpty {
            // The value on the right (a due time, a price, a setting) keeps its whole width while
            // the label keeps at least four characters; the label gets the rest.
            let rf = Txt.legible(f, on: c)
            let rInk = highlighted || row.muted ? ink : (big && !row.valueLarge ? pal.muted : ink)
            let room = max(rf.advance * 3, r.maxX - pad - x - 4 * rf.advance - (big ? 6 : rf.advance / 2))
            right = Txt.drawRight(&c, rt, right: r.maxX - pad, y: ty, rInk, rf, maxWidth: room) - (big ? 6 : f.advance / 2)
        }
        // A label too long for its room takes its short form when it has one; else the cursor
        // row's label scrolls (marquee), so all of it can be read, and the others are ellipsized.
        var label = row.label
        if let s = row.short, Txt.width(label, Txt.legible(f, on: c)) > right - x { label = s }
        if highlighted { Txt.line(&c, label, x: x, y: ty, width: right - x, ink, f, ms: ms) }
        else { Txt.draw(&c, label, x: x, y: ty, ink, f, maxWidth: right - x) }
    }

    /// A right-pointing triangle inside a box of `box` (the started mark).
    static func playMark(_ c: inout Canvas, box: Rect, _ ink: RGB565) {
        let inset = box.w >= 12 ? 4 : 2
        let room = box.h - 2 * inset
        let h = room % 2 == 0 ? room - 1 : room
        guard h > 0 else { return }
        let half = (h - 1) / 2
        for k in 0..<h {
            let len = half - abs(k - half) + 1
            c.hline(x: box.x + inset, y: box.y + inset + k, w: min(len, box.w - 2 * inset), color: ink)
        }
    }

    func checkBox(_ c: inout Canvas, x: Int, y: Int, size s: Int, checked: Bool, ink: RGB565, highlighted: Bool) {
        let t = s >= 12 ? 2 : 1
        if checked {
            let fill = (pal.mono || highlighted) ? ink : pal.good
            let mark = (pal.mono || highlighted) ? (highlighted ? (big ? pal.accent : pal.fg) : pal.bg) : pal.bg
            c.fillRoundedRect(x: x, y: y, w: s, h: s, radius: s >= 12 ? 3 : 0, color: fill)
            // A tick: short stroke down-right, long stroke up-right.
            let k = max(1, s / 7)
            let x0 = x + s / 5, y0 = y + s / 2
            let x1 = x + s * 2 / 5, y1 = y + s * 3 / 4 - 1
            let x2 = x + s * 4 / 5, y2 = y + s / 4
            for d in 0..<k {
                c.line(x0: x0, y0: y0 + d, x1: x1, y1: y1 + d, color: mark)
                c.line(x0: x1, y0: y1 + d, x1: x2, y1: y2 + d, color: mark)
            }
        } else {
            c.strokeRect(x: x, y: y, w: s, h: s, color: ink, thickness: t)
        }
    }

    // MARK: Bars and panels

    /// A progress bar filled to `frac` (0...1). `outlined`: a 1 px muted rim around the track on
    /// colour displays, so an empty bar (a need at 0) still shows where it is.
    func bar(_ c: inout Canvas, _ r: Rect, _ frac: Double, fill: RGB565? = nil, outlined: Bool = false) {
        let f = frac.isNaN ? 0 : min(max(frac, 0), 1)
        let radius = big ? r.h / 2 : 0
        if pal.mono {
            c.strokeRect(x: r.x, y: r.y, w: r.w, h: r.h, color: pal.fg)
            let w = Int((Double(r.w - 4) * f).rounded())
            if w > 0 { c.fillRect(x: r.x + 2, y: r.y + 2, w: w, h: r.h - 4, color: pal.fg) }
            return
        }
        if outlined {
            c.fillRoundedRect(x: r.x, y: r.y, w: r.w, h: r.h, radius: radius, color: pal.muted)
            c.fillRoundedRect(x: r.x + 1, y: r.y + 1, w: r.w - 2, h: r.h - 2, radius: max(0, radius - 1), color: pal.track)
        } else {
            c.fillRoundedRect(x: r.x, y: r.y, w: r.w, h: r.h, radius: radius, color: pal.track)
        }
        let w = Int((Double(r.w) * f).rounded())
        if w > 0 { c.fillRoundedRect(x: r.x, y: r.y, w: max(w, r.h), h: r.h, radius: radius, color: fill ?? pal.meter) }
    }

    /// A card: a panel fill on colour displays, an outline on 1-bit ones.
    func card(_ c: inout Canvas, _ r: Rect, radius: Int = 8) {
        if pal.mono {
            c.fillRect(x: r.x, y: r.y, w: r.w, h: r.h, color: pal.bg)
            c.strokeRect(x: r.x, y: r.y, w: r.w, h: r.h, color: pal.fg)
        } else {
            c.fillRoundedRect(x: r.x, y: r.y, w: r.w, h: r.h, radius: radius, color: pal.panel)
        }
    }

    /// The height of the hint bar at the bottom (`HintBar`, drawn by `Screens.render` over every
    /// screen but boot): what a screen leaves free at its bottom. `_` is not drawn here (kept so
    /// screens still say which text the bar shows).
    @discardableResult
    func hints(_ c: inout Canvas, _ s: String) -> Int { HintBar.height(ctx.profile) }

    /// The bottom of the area a screen may draw in (the hint bar's top).
    var bottom: Int { H - HintBar.height(ctx.profile) }

    /// A message centred in `area` (empty lists).
    func empty(_ c: inout Canvas, _ s: String, area: Rect) {
        let f: TextSize = big ? .large : .small
        let lines = Txt.wrap(s, f, width: area.w - 2 * pad, maxLines: max(1, area.h / (f.height + 2)))
        let h = lines.count * (f.height + 2)
        Txt.drawWrapped(&c, s, x: area.x + pad, y: area.y + max(0, (area.h - h) / 2), width: area.w - 2 * pad,
                         maxLines: lines.count, pal.muted, f, centred: true)
    }
}


extension ScreenContext {
    /// The clock scrolling text (marquees) runs on: milliseconds since the last input, so a line
    /// starts from its beginning when it comes into focus; nil where nothing moves (e-paper).
    var marqueeMs: Int64? { profile.animates ? nowMs &- ui.lastInput.seconds &* 1000 : nil }
}

extension DisplayProfile {
    /// `minimumFace` as the screens' text size: the smallest text legible on this panel.
    var smallestText: TextSize { minimumFace == .large ? .large : .small }
}
