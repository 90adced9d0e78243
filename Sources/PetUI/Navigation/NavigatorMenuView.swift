import PetCore

/// The menu opened from home (tap B): the navigator's menu list (`NavRows.menu`, its view while
/// `UIState.menu` is set) with the highlighted entry marked, drawn as a panel over the home screen
/// on every display size (geometry: `ListLayout.MenuGeometry`).
public enum MenuOverlay {
    public static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        guard c.ui.menu != nil, let list = c.view.list else { return }
        let t = c.theme
        let g = ListLayout.MenuGeometry(c.profile)
        let big = g.big, scale = g.scale, small = g.small, margin = g.margin, rowH = g.rowH, headerH = g.headerH
        let panel = g.panel
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
        var y = g.rows.y
        for i in list.visibleRange {
            let on = i == list.selected
            let x = g.rows.x
            let rw = g.rows.w
            let runs = canvas.textRuns.count
            if on {
                canvas.fillRoundedRect(x: x, y: y, w: rw, h: rowH - 1, radius: big ? 5 : 0,
                                       color: c.profile.isMonochrome ? t.text : t.accent)
            }
            let ink = on && c.profile.isMonochrome ? t.background : t.text
            let label = (on ? "> " : "  ") + list.rows[i].label
            _ = canvas.drawText(label, x: x + (big ? 6 : 2), y: y + (rowH - scale * 8) / 2, color: ink,
                                scale: scale, maxWidth: rw - 8)
            if on { canvas.markHighlighted(from: runs) }
            y += rowH
        }
        // More rows above or below: a small marker on the right.
        if list.first > 0 {
            _ = canvas.drawText("^", x: panel.x + panel.w - 8, y: panel.y + 2, color: t.mutedText)
        }
        if list.first + list.visible < list.rows.count {
            _ = canvas.drawText("v", x: panel.x + panel.w - 8, y: panel.y + panel.h - 9, color: t.mutedText)
        }
    }
}
