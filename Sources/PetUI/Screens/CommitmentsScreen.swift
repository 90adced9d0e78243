import PetCore

/// Commitments: the active ones with their kind, next window and the stake held, plus the charity
/// jar (forfeited stakes, never spendable). Rows: the navigator's view (`NavRows.commitments`).
enum CommitmentsScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        let p = l.pal
        let jar = "jar " + String(Glyph.coin) + "\(s.commitments.charityJar)"
        l.header(&canvas, l.size == .tiny ? "Commit" : "Commitments", right: jar)
        let list = c.view.list
        let count = list?.items.count ?? 0
        let area = l.content
        // Footer: totals.
        let footer = "held " + String(Glyph.coin) + "\(s.commitments.held)" + (l.size == .tiny ? "" : (l.big ? "  " : "   ") + "\(count) active")
        let footerH = l.big ? l.small.height + 2 : 9
        Txt.draw(&canvas, footer, x: l.pad, y: l.bottom - footerH + 1, p.muted, l.small, maxWidth: l.W - 2 * l.pad)
        let listArea = Rect(x: 0, y: area.y, w: l.W, h: l.bottom - footerH - area.y)
        guard let list, !list.rows.isEmpty,
              let frame = ListLayout.frame(.commitments, profile: c.profile, state: s, now: c.now) else {
            l.empty(&canvas, "No commitments. Set one from the phone.", area: listArea)
            return
        }
        if l.big {
            // The charity jar at the bottom, then two-line cards: kind and stake, then the window.
            let jarR = Rect(x: 6, y: listArea.maxY - 40, w: l.W - 12, h: 38)
            l.card(&canvas, jarR)
            Txt.draw(&canvas, String(Glyph.heart), x: jarR.x + 8, y: jarR.y + 11, p.flame, .large)
            Txt.draw(&canvas, "Charity jar " + String(Glyph.coin) + "\(s.commitments.charityJar)", x: jarR.x + 28, y: jarR.y + 2,
                     p.fg, l.small, maxWidth: jarR.w - 36)
            Txt.line(&canvas, "Missed stakes go here, never back.", x: jarR.x + 28, y: jarR.y + 20, width: jarR.w - 36, p.muted,
                     l.small, ms: l.ms)
            let rh = frame.rowHeight
            for k in list.visibleRange {
                let row = list.rows[k]
                let y = frame.area.y + (k - list.first) * rh + 2
                let r = Rect(x: 6, y: y, w: l.W - 12, h: rh - 4)
                let on = k == list.selected
                let runs = canvas.textRuns.count
                if on { canvas.fillRoundedRect(x: r.x, y: r.y, w: r.w, h: r.h, radius: 8, color: p.accent) }
                else { l.card(&canvas, r) }
                let ink = on ? p.onAccent : p.fg
                let muted = on ? p.onAccent : p.muted
                let sx = Txt.drawRight(&canvas, row.value ?? "", right: r.maxX - 8, y: r.y + 4, ink, .large)
                let dy = r.y + r.h - l.small.height - 2
                let hx = Txt.drawRight(&canvas, row.detailValue ?? "", right: r.maxX - 8, y: dy, muted, l.small)
                Txt.line(&canvas, row.label, x: r.x + 8, y: r.y + 3, width: sx - r.x - 16, ink, .large, ms: on ? l.ms : nil)
                Txt.line(&canvas, row.detail ?? "", x: r.x + 8, y: dy, width: hx - r.x - 20, muted, l.small, ms: l.ms)
                if on { canvas.markHighlighted(from: runs) }
            }
        } else {
            l.list(&canvas, list, frame: frame)
        }
    }
}
