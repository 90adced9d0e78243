import PetCore

/// Settings: day start, quiet hours, theme, sound, brightness, dim/sleep, pause — one row each
/// (`NavRows.settings()`, values from `NavRows.settingText`), the cursor row highlighted; while `ui.editingSetting` the value shows
/// between arrows (A/B change it, C leaves).
enum SettingsScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        l.header(&canvas, "Settings")
        let p = l.pal
        let settings = NavRows.settings()
        let sel = min(max(0, c.ui.cursor), settings.count - 1)
        var rows: [ListRow] = []
        for (k, st) in settings.enumerated() {
            let editing = c.ui.editingSetting && k == sel
            var v = NavRows.settingText(st, state: c.state, editing: editing && st.isValue ? c.ui.editValue : nil)
            if editing { v = "< " + v + " >" }
            var row = ListRow(l.size == .tiny ? terse(st) : st.title, right: v)
            row.rightLarge = true
            rows.append(row)
        }
        var area = l.content
        if l.big {
            area.h -= 14
            let hint = c.ui.editingSetting ? "A/B change   C done" : Look.defaultHints
            Txt.drawCentred(&canvas, hint, x: 0, w: l.W, y: l.H - 10, p.muted, .small)
            l.list(&canvas, rows, selected: sel, area: Rect(x: 0, y: area.y + 4, w: l.W, h: area.h - 4), rowHeight: 28)
        } else {
            l.list(&canvas, rows, selected: sel, area: area, rowHeight: l.size == .paper ? 16 : 9)
        }
    }

    /// Short labels for 128×64.
    static func terse(_ s: NavRows.SettingRow) -> String {
        switch s {
        case .dayStart: "Day start"
        case .quietStart: "Quiet from"
        case .quietEnd: "Quiet to"
        case .brightness: "Bright"
        case .dimAfter: "Dim"
        case .sleepAfter: "Sleep"
        case .factoryReset: "Reset"
        default: s.title
        }
    }
}
