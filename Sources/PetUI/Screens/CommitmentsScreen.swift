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
            // The longest form of the jar's line that fits (never cut).
            let jarLine = ["Missed stakes go here, never back.", "Missed stakes go here", "Missed stakes"]
                .first { Txt.width($0, l.small) <= jarR.w - 36 } ?? "Missed stakes"
            Txt.draw(&canvas, jarLine, x: jarR.x + 28, y: jarR.y + 20, p.muted, l.small, maxWidth: jarR.w - 36)
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
                // Line 1: the kind, then the stake and whether it is held in a gutter on the right;
                // line 2: the window across the whole card.
                let hx = Txt.drawRight(&canvas, row.detailValue ?? "", right: r.maxX - 8, y: r.y + 3, muted, l.small)
                let sx = Txt.drawRight(&canvas, row.value ?? "", right: hx - 8, y: r.y + 3, ink, .large)
                let dy = r.y + r.h - l.small.height - 2
                Txt.line(&canvas, row.label, x: r.x + 8, y: r.y + 3, width: sx - r.x - 16, ink, .large, ms: on ? l.ms : nil)
                Txt.draw(&canvas, row.detail ?? "", x: r.x + 8, y: dy, muted, l.small, maxWidth: r.w - 16)
                if on { canvas.markHighlighted(from: runs) }
            }
        } else {
            l.list(&canvas, list, frame: frame)
        }
    }
}

extension CommitmentsScreen: ScreenDefinition {
    static let title = "Commitments"
    static let icon = [
        "X.........",
        "XXXXXXX...",
        "XXXXXXXX..",
        "XXXXXXX...",
        "XXXXXX....",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
        "XX........"]

    static func listFrame(_ m: ListLayout.Metrics, profile: DisplayProfile, state: PetState, now: Instant) -> ListFrame? {
        let content = m.content, hints = HintBar.height(profile)
        let footerH = m.big ? 14 : 9
        let list = Rect(x: 0, y: content.y, w: m.W, h: content.h - footerH - hints)
        // Colour: two-line cards of 44 px above the charity jar's card (44 px).
        if m.big { return ListFrame(area: Rect(x: list.x, y: list.y, w: list.w, h: list.h - 44), rowHeight: 44) }
        return ListFrame(area: list, rowHeight: m.rowHeight)
    }

    /// The active commitments: two-line cards on colour displays, one line elsewhere.
    static func rows(ui: UIState, state s: PetState, now: Instant, config: Navigator.Config) -> [NavRow] {
        let tiny = config.profile.sizeClass == .tiny
        let big = config.profile.sizeClass == .square || config.profile.sizeClass == .wide
        return NavRows.commitments(s).map { cm in
            let stake = String(Glyph.coin) + "\(cm.plan.stake)"
            if big {
                // The card's second line holds the window whole: its days ("weekdays") only when
                // the line has room for them (docs/design.md: copy fits its box).
                let room = (config.profile.width - 28) / 12
                let full = Fmt.window(cm, s, now, terse: false, weekday: true)
                let window = full.count <= room ? full : Fmt.window(cm, s, now, terse: false, weekday: true, repeats: false)
                return NavRow(id: "commitment:" + cm.id, label: Fmt.commitmentKind(cm.kind) + Fmt.commitmentExtra(cm), value: stake,
                              detail: window, detailValue: cm.held > 0 ? "held" : "not held")
            }
            return NavRow(id: "commitment:" + cm.id,
                          label: (tiny ? Fmt.tinyKind(cm.kind) : Fmt.commitmentKind(cm.kind)) + " " + Fmt.window(cm, s, now, terse: true),
                          value: stake)
        }
    }

    static func actions(_ t: inout NavActionTable) {
        let (state, now) = (t.state, t.now)
        t.moves()
        if let shown = t.sel("commitment"),
           let c = NavRows.commitments(state).first(where: { $0.id == shown }) {
            if let o = c.current, o.contains(now), c.kind == .wakeUp || c.kind == .onTime {
                t.add(.select, .command(.confirm), rank: 0)
                t.add(.forward, .command(.confirm), hinted: false)
            }
            t.add(.holdPrevious, .command(.dropCommitment))
        }
        t.add(.back, .back)
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        let shown = nav.selected("commitment")
        let c = NavRows.commitments(state).first { $0.id == shown }
        switch input {
        case .previous, .next: nav.move(input)
        case .select, .forward:
            if let c, let o = c.current, o.contains(now), c.kind == .wakeUp || c.kind == .onTime {
                return [.send(.commitment(.verify(id: c.id, source: .button)))]
            }
        case .holdPrevious:
            if let c { return [.send(.commitment(.cancel(id: c.id)))] }
        case .back: nav.pop()
        default: break
        }
        return []
    }
}

/// The commitments' rows (the navigator moves its cursor over them; `rows` labels them).
extension NavRows {
    // MARK: - Commitments

    /// The active commitments, by id (`state.commitments.active`).
    public static func commitments(_ state: PetState) -> [Commitment] { state.commitments.active }
}
