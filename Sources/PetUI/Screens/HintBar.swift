import PetCore

/// The hint bar: a strip at the bottom of every screen but boot (docs/navigation.md) saying what the
/// keys do here — the navigator's action table named with this board's keys (`NavView.hints`), in
/// the longest form that fits the display (`NavView.hintLine`). On home, until the owner has
/// learned it, it shows the first-run tip instead ("Tip: hold B = done"). A toast takes the strip
/// while it shows (`Overlays.toasts`), so toasts never cover list rows or the cursor.
public enum HintBar {
    /// The strip's height: one line of the display's smallest legible face (`minimumFace`: the
    /// 12×16 face on the colour panels, 18 px with its margins), 8 on 128×64 (one line of the 6×8
    /// face), 10 on e-paper (a rule and a line).
    public static func height(_ p: DisplayProfile) -> Int {
        switch p.sizeClass {
        case .square, .wide: p.minimumFace.cellHeight + 2
        case .tiny: 8
        case .paper: 10
        }
    }

    /// The face the strip is drawn in.
    static func face(_ p: DisplayProfile) -> TextSize { p.smallestText }

    /// Where the strip is.
    public static func rect(_ p: DisplayProfile) -> Rect {
        let h = height(p)
        return Rect(x: 0, y: p.height - h, w: p.width, h: h)
    }

    /// Whether the screen shown has the strip (not the boot screen).
    public static func shown(_ c: ScreenContext) -> Bool { c.ui.screen != .boot }

    /// The line the strip shows (the tip on home until learned).
    public static func line(_ c: ScreenContext) -> String {
        let room = c.profile.width - 4
        let f = face(c.profile)
        if let tip = c.view.tip {
            let hide = c.view.actions.contains { $0.verb == .dismissTip } ? c.view.keys.name(.back).map { "  " + $0 + " hides" } ?? "" : ""
            return Txt.width(tip + hide, f) <= room ? tip + hide : tip
        }
        return c.view.hintLine { Txt.width($0, f) <= room }
    }

    static func draw(_ c: ScreenContext, _ canvas: inout Canvas) {
        guard shown(c) else { return }
        let t = c.theme
        let mono = c.profile.isMonochrome
        let fg = t.text, bg = t.background
        let r = rect(c.profile)
        let text = line(c)
        let tip = c.view.tip != nil
        // The strip is the bar's own: whatever a screen drew there goes.
        var fill = bg, ink = mono ? fg : t.mutedText, y = r.y + 2
        switch c.profile.sizeClass {
        case .square, .wide:
            y = r.y + 1
            if tip && !mono { fill = t.panel; ink = fg }
        case .tiny:
            y = r.y
            if tip { fill = fg; ink = bg } else { ink = fg }
        case .paper:
            ink = fg
        }
        canvas.fillRect(x: r.x, y: r.y, w: r.w, h: r.h, color: fill)
        if c.profile.sizeClass == .paper { canvas.hline(x: 0, y: r.y, w: r.w, color: fg) }
        // `line` is the longest form that fits: drawn centred in one pass. Only a shortest form still
        // too long (a joystick's words in the 12×16 face on 240 px) scrolls, so every hint can be read.
        let f = face(c.profile)
        let w = Font.textWidth(text, face: f.face)
        if w <= r.w {
            canvas.drawText(text, x: r.x + max(0, (r.w - w) / 2), y: y, color: ink, face: f.face, maxWidth: r.w)
        } else {
            Txt.line(&canvas, text, x: r.x + 2, y: y, width: r.w - 4, ink, f, ms: c.marqueeMs)
        }
    }
}
