import PetCore

/// The menu opened from home (tap B): the screens of `NavRows.menu`, the highlighted one
/// (`UIState.menu`) marked, drawn as a panel over the home screen on every display size.
public enum MenuOverlay {
    public static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        guard let selected = c.ui.menu else { return }
        let t = c.theme
        let w = c.profile.width, h = c.profile.height
        let big = w >= 200 && h >= 200
        let scale = big ? 2 : 1
        let small = h < 100
        let margin = small ? 0 : (big ? 12 : 4)
        let rowH = scale * 8 + (big ? 4 : (small ? 1 : 3))
        let headerH = small ? 0 : scale * 8 + (big ? 8 : 4)
        let panel = Rect(x: margin, y: margin, w: w - 2 * margin, h: h - 2 * margin)
        // The home screen stays visible around a panel with the accent ring.
        if margin > 0 {
            canvas.fillRoundedRect(x: panel.x - 2, y: panel.y - 2, w: panel.w + 4, h: panel.h + 4,
                                   radius: big ? 10 : 4, color: c.profile.isMonochrome ? t.text : t.accent)
        }
        canvas.fillRoundedRect(x: panel.x, y: panel.y, w: panel.w, h: panel.h, radius: small ? 0 : (big ? 8 : 3),
                               color: c.profile.isMonochrome ? t.background : t.panel)
        if headerH > 0 {
            _ = canvas.drawText("Menu", x: panel.x + (big ? 12 : 4), y: panel.y + (big ? 6 : 2), color: t.mutedText,
                                scale: scale, maxWidth: panel.w - 8)
        }
        let items = NavRows.menu
        let visible = max(1, (panel.h - headerH - (big ? 6 : 2)) / rowH)
        let first = min(max(0, selected - visible + 1), max(0, items.count - visible))
        var y = panel.y + headerH + (big ? 2 : 1)
        for i in first..<min(items.count, first + visible) {
            let on = i == selected
            let x = panel.x + (big ? 6 : 2)
            let rw = panel.w - (big ? 12 : 4)
            if on {
                canvas.fillRoundedRect(x: x, y: y, w: rw, h: rowH - 1, radius: big ? 5 : 0,
                                       color: c.profile.isMonochrome ? t.text : t.accent)
            }
            let ink = on && c.profile.isMonochrome ? t.background : t.text
            let label = (on ? "> " : "  ") + NavRows.title(items[i])
            _ = canvas.drawText(label, x: x + (big ? 6 : 2), y: y + (rowH - scale * 8) / 2, color: ink,
                                scale: scale, maxWidth: rw - 8)
            y += rowH
        }
        // More rows above or below: a small marker on the right.
        if first > 0 {
            _ = canvas.drawText("^", x: panel.x + panel.w - 8, y: panel.y + 2, color: t.mutedText)
        }
        if first + visible < items.count {
            _ = canvas.drawText("v", x: panel.x + panel.w - 8, y: panel.y + panel.h - 9, color: t.mutedText)
        }
    }
}
