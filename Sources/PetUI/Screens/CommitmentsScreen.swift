import PetCore

/// Commitments: the active ones with their kind, next window and the stake held, plus the charity
/// jar (forfeited stakes, never spendable). Rows: `NavRows.commitments`.
enum CommitmentsScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        let p = l.pal
        let jar = "jar " + String(Glyph.coin) + "\(s.commitments.charityJar)"
        l.header(&canvas, l.size == .tiny ? "Commit" : "Commitments", right: jar)
        let items = NavRows.commitments(s)
        let area = l.content
        // Footer: totals.
        let footer = "held " + String(Glyph.coin) + "\(s.commitments.held)" + (l.size == .tiny ? "" : "   \(items.count) active")
        let footerH = l.big ? 14 : 9
        Txt.draw(&canvas, footer, x: l.pad, y: l.H - footerH + (l.big ? 2 : 1), p.muted, .small, maxWidth: l.W - 2 * l.pad)
        let listArea = Rect(x: 0, y: area.y, w: l.W, h: area.h - footerH)
        guard !items.isEmpty else {
            l.empty(&canvas, "No commitments. Set one from the phone.", area: listArea)
            return
        }
        if l.big {
            // The charity jar at the bottom, then two-line cards: kind and stake, then the window.
            let jarR = Rect(x: 6, y: listArea.maxY - 40, w: l.W - 12, h: 38)
            l.card(&canvas, jarR)
            Txt.draw(&canvas, String(Glyph.heart), x: jarR.x + 8, y: jarR.y + 11, p.flame, .large)
            Txt.draw(&canvas, "Charity jar " + String(Glyph.coin) + "\(s.commitments.charityJar)", x: jarR.x + 28, y: jarR.y + 5,
                     p.fg, .small, maxWidth: jarR.w - 36)
            Txt.draw(&canvas, "Missed stakes go here, never back.", x: jarR.x + 28, y: jarR.y + 19, p.muted, .small,
                     maxWidth: jarR.w - 36)
            let rh = 44
            let fits = max(1, (listArea.h - 44) / rh)
            let sel = min(max(0, c.ui.cursor), items.count - 1)
            let first = sel < fits ? 0 : sel - fits + 1
            for (k, cm) in items.enumerated().dropFirst(first).prefix(fits) {
                let y = listArea.y + (k - first) * rh + 2
                let r = Rect(x: 6, y: y, w: l.W - 12, h: rh - 4)
                let on = k == sel
                if on { canvas.fillRoundedRect(x: r.x, y: r.y, w: r.w, h: r.h, radius: 8, color: p.accent) }
                else { l.card(&canvas, r) }
                let ink = on ? p.onAccent : p.fg
                let muted = on ? p.onAccent : p.muted
                let stake = String(Glyph.coin) + "\(cm.plan.stake)"
                let sx = Txt.drawRight(&canvas, stake, right: r.maxX - 8, y: r.y + 4, ink, .large)
                let hx = Txt.drawRight(&canvas, cm.held > 0 ? "held" : "not held", right: r.maxX - 8, y: r.y + 25, muted, .small)
                Txt.draw(&canvas, Fmt.commitmentKind(cm.kind) + extra(cm), x: r.x + 8, y: r.y + 4, ink, .large, maxWidth: sx - r.x - 16)
                Txt.draw(&canvas, window(cm, s, c.now), x: r.x + 8, y: r.y + 25, muted, .small, maxWidth: hx - r.x - 14)
            }
        } else {
            let rows = items.map { cm in
                ListRow((l.size == .tiny ? tinyKind(cm.kind) : Fmt.commitmentKind(cm.kind)) + " " + window(cm, s, c.now, terse: true),
                        right: String(Glyph.coin) + "\(cm.plan.stake)")
            }
            l.list(&canvas, rows, selected: min(max(0, c.ui.cursor), rows.count - 1), area: listArea)
        }
    }

    static func extra(_ cm: Commitment) -> String {
        switch cm.kind {
        case .focus: cm.plan.focusMinutes.map { " \($0) min" } ?? ""
        case .place: cm.plan.radius.map { " \($0) m" } ?? ""
        default: ""
        }
    }

    /// "weekdays", "daily", "weekends" or "Mo We Fr".
    static func days(_ d: [Int]) -> String {
        switch d {
        case [1, 2, 3, 4, 5]: return "weekdays"
        case [0, 1, 2, 3, 4, 5, 6]: return "daily"
        case [0, 6]: return "weekends"
        default: return d.map { String(Fmt.weekdays[max(0, min(6, $0))].prefix(2)) }.joined(separator: " ")
        }
    }

    static func tinyKind(_ k: CommitmentKind) -> String {
        switch k { case .wakeUp: "Wake"; case .onTime: "Be on"; case .focus: "Focus"; case .place: "Place" }
    }

    /// "now, until 07:10" / "Tue 06:50-07:10" / "no more windows".
    static func window(_ cm: Commitment, _ s: PetState, _ now: Instant, terse: Bool = false) -> String {
        guard let o = cm.current else { return terse ? "-" : "no more windows" }
        if o.contains(now) { return (terse ? "now-" : "open now, until ") + Fmt.clock(s.clock.local(o.closes)) }
        if terse {
            let days = s.clock.day(of: o.opens) - s.clock.day(of: now)
            let l = s.clock.local(o.opens)
            return (days == 0 ? "" : Fmt.weekdays[l.date.weekday] + " ") + Fmt.clock(l)
        }
        let start = Fmt.when(o.opens, state: s, now: now)
        let repeats = cm.plan.schedule.isRecurring ? ", " + days(cm.plan.schedule.weekdays) : ""
        return start + "-" + Fmt.clock(s.clock.local(o.closes)) + repeats
    }
}
