import PetCore

/// The hint bar: a strip at the bottom of every screen but boot (docs/navigation.md) saying what the
/// keys do here — the navigator's action table named with this board's keys (`NavView.hints`), at
/// most three of them in one vocabulary (`NavView.stripHints`, docs/design.md "The hint
/// vocabulary"). On home, until the owner has learned it, it shows the first-run tip instead ("Tip:
/// hold B = done"). A toast takes the strip while it shows (`Overlays.toasts`), so toasts never cover
/// list rows or the cursor.
///
/// The strip: a 1 px rule on its top row, a blank row, one line of the display's smallest legible
/// face, and at least one blank row under the text — so it never touches the row above it nor the
/// panel's last row (descenders included).
public enum HintBar {
    /// The strip's height: rule, gap, one line of the display's smallest legible face
    /// (`minimumFace`: the 12×16 face on the colour panels, 6×8 on the 1-bit ones), blank rows under it.
    public static func height(_ p: DisplayProfile) -> Int {
        switch p.sizeClass {
        case .square, .wide: p.minimumFace.cellHeight + 4
        case .tiny: 11
        case .paper: 12
        }
    }

    /// The face the strip is drawn in.
    static func face(_ p: DisplayProfile) -> TextSize { p.smallestText }

    /// Where the strip is.
    public static func rect(_ p: DisplayProfile) -> Rect {
        let h = height(p)
        return Rect(x: 0, y: p.height - h, w: p.width, h: h)
    }

    /// The top of the strip's text line (under the rule and a blank row).
    public static func textY(_ p: DisplayProfile) -> Int { rect(p).y + 2 }

    /// Whether the screen shown has the strip (not the boot screen).
    public static func shown(_ c: ScreenContext) -> Bool { c.ui.screen != .boot }

    /// Space between two hints: a cell and a half (9 px in 6×8, 14 px in 12×16), so hints read as
    /// groups, not one sentence.
    static func gap(_ p: DisplayProfile) -> Int { p.minimumFace == .large ? 14 : 9 }

    /// The hints the strip shows (at most three, all fitting the strip's width).
    public static func hints(_ c: ScreenContext) -> [NavHint] {
        let room = c.profile.width - 8
        let f = face(c.profile), g = gap(c.profile)
        return c.view.stripHints { hs in hs.map { Txt.width($0.text, f) }.reduce(0, +) + g * max(0, hs.count - 1) <= room }
    }

    /// The strip's text as one line (the tip on home until learned, else the hints).
    public static func line(_ c: ScreenContext) -> String {
        if let tip = tipLine(c) { return tip }
        return hints(c).map(\.text).joined(separator: "  ")
    }

    /// The first-run tip ("Tip: hold B = done  C hides" when that fits), nil once learned.
    static func tipLine(_ c: ScreenContext) -> String? {
        guard let tip = c.view.tip else { return nil }
        let room = c.profile.width - 8
        let f = face(c.profile)
        let hide = c.view.actions.contains { $0.verb == .dismissTip } ? c.view.keys.name(.back).map { "  " + $0 + " hides" } ?? "" : ""
        return Txt.width(tip + hide, f) <= room ? tip + hide : tip
    }

    static func draw(_ c: ScreenContext, _ canvas: inout Canvas) {
        guard shown(c) else { return }
        // A part (`Canvas.part`): drawn again only when its words (or a scrolling tip's clock) change.
        let tip = tipLine(c)
        let hs = tip == nil ? hints(c) : []
        let scrolls = tip.map { Txt.width($0, face(c.profile)) > rect(c.profile).w - 4 } ?? false
        canvas.part("hint-bar", StripKey(tip: tip, hints: hs.map(\.text), ms: scrolls ? c.marqueeMs : nil)) { canvas in
            strip(c, tip: tip, hints: hs, &canvas)
        }
    }

    /// What the strip's drawing reads besides the theme and the display.
    struct StripKey: Hashable, Sendable { var tip: String?; var hints: [String]; var ms: Int64? }

    static func strip(_ c: ScreenContext, tip: String?, hints hs: [NavHint], _ canvas: inout Canvas) {
        let t = c.theme
        let mono = c.profile.isMonochrome
        let r = rect(c.profile)
        let f = face(c.profile)
        let y = textY(c.profile)
        // The strip is the bar's own: whatever a screen drew there goes.
        canvas.fillRect(x: r.x, y: r.y, w: r.w, h: r.h, color: t.background)
        canvas.hline(x: 0, y: r.y, w: r.w, color: mono ? t.text : t.track)
        let ink = mono ? t.text : t.mutedText
        if let tip {
            // The tip: the text colour, centred (scrolls only if a board's words cannot fit).
            let w = Txt.width(tip, f)
            if w <= r.w - 4 { canvas.drawText(tip, x: r.x + (r.w - w) / 2, y: y, color: t.text, face: f.face) }
            else { Txt.line(&canvas, tip, x: r.x + 2, y: y, width: r.w - 4, t.text, f, ms: c.marqueeMs) }
            return
        }
        // The hints, centred as a group, one run each ("hold B done").
        let g = gap(c.profile)
        let total = hs.map { Txt.width($0.text, f) }.reduce(0, +) + g * max(0, hs.count - 1)
        var x = r.x + max(2, (r.w - total) / 2)
        // Hints apart by `gap`, a small dot in the middle of each gap so they read as groups.
        let dot = mono ? 1 : 2
        for (k, h) in hs.enumerated() {
            if k > 0 {
                canvas.fillRect(x: x - (g + dot) / 2, y: y + (f.face.baselineRow + 1) / 2, w: dot, h: dot, color: ink)
            }
            x += canvas.drawText(h.text, x: x, y: y, color: ink, face: f.face) + g
        }
    }
}
