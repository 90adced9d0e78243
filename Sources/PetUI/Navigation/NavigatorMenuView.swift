import PetCore

/// The menu opened from home (tap B), Tamagotchi style: a grid of small icons, one per entry of
/// the navigator's menu list (`NavRows.menu`, most used first), the highlighted one inverted, and
/// its name under the grid. A panel between home's status bar (which stays visible) and the hint
/// bar (which says what the keys do here); geometry: `ListLayout.MenuGeometry`.
public enum MenuOverlay {
    public static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        guard c.ui.menu != nil, let list = c.view.list else { return }
        let t = c.theme
        let mono = c.profile.isMonochrome
        let g = ListLayout.MenuGeometry(c.profile, count: list.rows.count, selected: list.selected ?? 0)
        let panel = g.panel
        let ink = t.text, paper = mono ? t.background : t.panel
        let accent = mono ? t.text : t.accent
        // What the panel covers is no longer on screen: its text leaves the frame's record.
        let covered = g.covered
        canvas.textRuns.removeAll { $0.rect.intersection(covered).map { !$0.isEmpty } ?? false }
        canvas.textLog?.entries.removeAll { $0.box.intersection(covered) != nil }
        if g.big {
            // The panel with the accent ring on a clear band between the status bar and the hint
            // bar: no sliver of home's card or pet peeks out around it.
            canvas.fillRect(x: covered.x, y: covered.y, w: covered.w, h: covered.h, color: t.background)
            canvas.fillRoundedRect(x: panel.x - 2, y: panel.y - 2, w: panel.w + 4, h: panel.h + 4, radius: 10, color: accent)
            canvas.fillRoundedRect(x: panel.x, y: panel.y, w: panel.w, h: panel.h, radius: 8, color: paper)
        } else {
            canvas.fillRect(x: panel.x, y: panel.y, w: panel.w, h: panel.h, color: paper)
            canvas.strokeRect(x: panel.x, y: panel.y, w: panel.w, h: panel.h, color: ink)
        }
        let onAccent = mono ? t.background : (t.background.contrastRatio(with: accent) >= t.text.contrastRatio(with: accent)
                                              ? t.background : t.text)
        for (k, row) in list.rows.enumerated() where k < g.cells.count && !g.cells[k].isEmpty {
            let cell = g.cells[k]
            let on = k == list.selected
            if on {
                if g.big { canvas.fillRoundedRect(x: cell.x + 1, y: cell.y + 1, w: cell.w - 2, h: cell.h - 2, radius: 6, color: accent) }
                else { canvas.fillRect(x: cell.x, y: cell.y, w: cell.w, h: cell.h, color: accent) }
            }
            let size = 10 * g.scale
            let screen = ScreenID(rawValue: String(row.id.dropFirst("menu:".count)))
            MenuIcons.draw(screen, &canvas, x: cell.x + (cell.w - size) / 2, y: cell.y + (cell.h - size) / 2, scale: g.scale,
                           color: on ? onAccent : ink)
        }
        // The highlighted entry's name (its text run is the highlighted row the navigator acts on).
        if let row = list.selectedRow {
            let face: FontFace = g.label.h >= 16 ? .large : .small
            let shown = Font.fit(row.label, face: face, maxWidth: g.label.w)
            let w = Font.textWidth(shown, face: face)
            let runs = canvas.textRuns.count
            canvas.drawText(shown, x: g.label.x + (g.label.w - w) / 2, y: g.label.y, color: ink, face: face, maxWidth: g.label.w)
            canvas.markHighlighted(from: runs)
        }
    }
}

/// The menu's icons: 10×10 one-colour bitmaps drawn doubled (20 px) on every display.
enum MenuIcons {
    /// A screen's icon (its definition's; a framed square for none).
    static func bitmap(_ s: ScreenID?) -> [String] {
        s?.definition.icon ?? BootScreen.icon
    }

    static func draw(_ s: ScreenID?, _ c: inout Canvas, x: Int, y: Int, scale: Int, color: RGB565) {
        for (r, line) in bitmap(s).enumerated() {
            for (k, ch) in line.enumerated() where ch == "X" {
                c.fillRect(x: x + k * scale, y: y + r * scale, w: scale, h: scale, color: color)
            }
        }
    }
}
