import PetCore

/// The circle (docs/circles.md#on-the-device, docs/screens.md, "The screens"): the leaderboard the bridge
/// last handed the device for the first circle joined (`circle.standing`), its own member's row
/// highlighted when the screen opens, and under it the circle's challenge: this member's progress
/// and the stake held while it runs, "settled: +N" once settled. Rows: `rows` below.
enum CircleScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        guard let m = NavRows.shownCircle(s) else {
            l.header(&canvas, "Circle")
            let area = l.content
            let listArea = Rect(x: 0, y: area.y, w: l.W, h: area.h - HintBar.height(c.profile))
            l.empty(&canvas, "No circle yet. Join one with deskpet-bridge circle join", area: listArea)
            return
        }
        let others = s.circles.circles.count - 1
        l.header(&canvas, m.circle, right: others > 0 ? "+\(others)" : nil)
        // The challenge above the hint bar, always in view (the list scrolls): on colour displays
        // "Challenge" and the stake, then the progress; elsewhere both on one line.
        if let line = challengeLine(s, m, now: c.now, tiny: l.size == .tiny) {
            let y = l.content.maxY - HintBar.height(c.profile) - footerHeight(big: l.big) + 1
            if l.big {
                let rx = Txt.drawRight(&canvas, line.stake, right: l.W - l.pad, y: y, l.pal.fg, l.small, maxWidth: l.W / 2)
                Txt.draw(&canvas, "Challenge", x: l.pad, y: y, l.pal.muted, l.small, maxWidth: rx - 2 * l.pad)
                Txt.draw(&canvas, line.text, x: l.pad, y: y + l.small.height + 2, l.pal.fg, l.small, maxWidth: l.W - 2 * l.pad)
            } else {
                let rx = Txt.drawRight(&canvas, line.stake, right: l.W - l.pad, y: y, l.pal.fg, l.small, maxWidth: l.W / 2)
                Txt.draw(&canvas, line.text, x: l.pad, y: y, l.pal.fg, l.small, maxWidth: rx - 2 * l.pad)
            }
        }
        guard let list = c.view.list, !list.rows.isEmpty,
              let frame = ListLayout.frame(.circle, profile: c.profile, state: s, now: c.now) else { return }
        l.list(&canvas, list, frame: frame)
    }

    static func footerHeight(big: Bool) -> Int { big ? 36 : 9 }
}

extension CircleScreen: ScreenDefinition {
    static let title = "Circle"
    static let icon = [
        "..........",
        ".XX....XX.",
        "XXXX..XXXX",
        "XXXX..XXXX",
        ".XX....XX.",
        "..........",
        ".XXX..XXX.",
        "XXXXX.XXXX",
        "XXXXX.XXXX",
        ".........."]

    static func listFrame(_ m: ListLayout.Metrics, profile: DisplayProfile, state: PetState, now: Instant) -> ListFrame? {
        let content = m.content, hints = HintBar.height(profile)
        let footer = NavRows.shownCircle(state).flatMap { challengeLine(state, $0, now: now, tiny: false) } == nil ? 0 : footerHeight(big: m.big)
        return ListFrame(area: Rect(x: 0, y: content.y, w: m.W, h: content.h - hints - footer), rowHeight: m.rowHeight)
    }

    /// A section naming the board (period and metric), then one row per ranked member (rank, pet
    /// name, value). The challenge is drawn under the list (`render`), not in it.
    static func rows(ui: UIState, state s: PetState, now: Instant, config: Navigator.Config) -> [NavRow] {
        guard let m = NavRows.shownCircle(s) else { return [] }
        let tiny = config.profile.sizeClass == .tiny
        var out: [NavRow] = []
        if let board = s.circles.standings[m.circle] {
            let period = board.period == .week ? "Week" : "Month"
            out.append(NavRow(id: "section:0", kind: .section, label: period + ": " + metricName(board.metric),
                              value: "of \(board.ranked)"))
            for r in board.rows {
                let name = r.petName.isEmpty ? r.member : r.petName
                let you = r.member == m.member
                out.append(NavRow(id: "member:" + r.member, label: "\(r.rank) " + name + (you ? " (you)" : ""),
                                  value: metricValue(board.metric, r.value), mark: .none,
                                  short: you ? "\(r.rank) you" : nil))
            }
        } else {
            out.append(NavRow(id: "note:0", kind: .note, label: tiny ? "No board yet" : "No leaderboard yet", muted: true))
        }
        return out
    }

    static func actions(_ t: inout NavActionTable) {
        t.moves()
        t.add(.back, .back)
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        switch input {
        case .previous, .next: nav.move(input)
        case .back: nav.pop()
        default: break
        }
        return []
    }

    /// Opens on this device's own member's row.
    static func opened(_ ui: inout UIState, state: PetState?, now: Instant?) {
        guard let s = state, let m = NavRows.shownCircle(s), let board = s.circles.standings[m.circle],
              let i = board.rows.firstIndex(where: { $0.member == m.member }) else { ui.cursor = 0; return }
        ui.cursor = i
    }

    static func metricName(_ m: LeaderboardMetric) -> String {
        switch m {
        case .coins: "coins"
        case .focus: "focus"
        case .screen: "screen time"
        case .streak: "streak"
        }
    }

    static func metricValue(_ m: LeaderboardMetric, _ v: Int) -> String {
        switch m {
        case .coins: String(Glyph.coin) + Fmt.compact(v)
        case .focus, .screen: v >= 600 ? "\(v / 60)h" : "\(v)m"
        case .streak: "\(v)d"
        }
    }

    /// The circle's challenge: a running (or waiting) one held, else the latest settled.
    static func challengeLine(_ s: PetState, _ m: CircleMembership, now: Instant, tiny: Bool) -> (stake: String, text: String)? {
        if let h = s.circles.challenges.values.filter({ $0.circle == m.circle }).min(by: { $0.terms.id < $1.terms.id }) {
            let t = h.terms
            let stake = String(Glyph.coin) + "\(t.stake)" + (tiny ? "" : " held")
            if now < t.start { return (stake, "starts in " + left(t.start.seconds - now.seconds)) }
            if now >= t.end { return (stake, tiny ? "closed, settling" : "closed: settling") }
            let v = s.judge(t).value
            let days = max(1, Int((t.end.seconds - t.start.seconds + 86_399) / 86_400))
            let goal: String
            switch t.goal {
            case .tasksDone(let n): goal = "tasks \(v)/\(n)"
            case .habitEveryDay: goal = "habit \(v)/\(days)d"
            case .focusPerDay: goal = "focus \(v)/\(days)d"
            case .screenUnder: goal = "screen \(v)/\(days)d"
            }
            return (stake, goal + " " + left(t.end.seconds - now.seconds) + (tiny ? "" : " left"))
        }
        guard let done = s.circles.settled.last(where: { $0.circle == m.circle }) else { return nil }
        return (String(Glyph.coin) + "\(done.stake)", "settled: +\(done.payout)")
    }

    /// "3d", "5h", "40m": the time left, rounded down, at least a minute.
    static func left(_ seconds: Int64) -> String {
        let s = max(60, seconds)
        if s >= 86_400 { return "\(s / 86_400)d" }
        if s >= 3_600 { return "\(s / 3_600)h" }
        return "\(s / 60)m"
    }
}

extension NavRows {
    // MARK: - Circle

    /// The circle the screen shows: the first joined, by id (nil: none joined).
    public static func shownCircle(_ state: PetState) -> CircleMembership? {
        state.circles.circles.values.min { $0.circle < $1.circle }
    }
}
