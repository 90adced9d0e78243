import PetCore

/// The circle (docs/circles.md#on-the-device, docs/screens.md, "The screens"): the leaderboards the
/// bridge last handed the device for one circle joined (`circle.standing`: week, then month), its
/// own member's row highlighted when the screen opens, and under them the circle's challenge: this
/// member's progress and the stake held while it runs, "settled: +N" once settled. With several
/// circles B (or the joystick's right) goes to the next one ("tab", `ui.circleTab`), the title bar
/// saying which ("2/3"). Rows: `rows` below.
enum CircleScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        guard let m = NavRows.shownCircle(s, tab: c.ui.circleTab) else {
            l.header(&canvas, "Circle")
            let area = l.content
            let listArea = Rect(x: 0, y: area.y, w: l.W, h: area.h - HintBar.height(c.profile))
            l.empty(&canvas, "No circle yet. Join one with deskpet-bridge circle join", area: listArea)
            return
        }
        let count = s.circles.circles.count
        l.header(&canvas, m.circle, right: count > 1 ? "\(NavRows.circleTab(s, c.ui.circleTab) + 1)/\(count)" : nil)
        // The challenge above the hint bar, always in view (the list scrolls): on colour displays
        // "Challenge" and the stake, then the progress; elsewhere both on one line.
        if let line = challengeLine(s, m, now: c.now, tiny: l.size == .tiny) ?? (anyChallenge(s, now: c.now) ? noChallenge : nil) {
            let y = l.content.maxY - HintBar.height(c.profile) - footerHeight(big: l.big) + 1
            if l.big {
                let rx = Txt.drawRight(&canvas, line.stake, right: l.W - l.pad, y: y, l.pal.fg, l.small, maxWidth: l.W / 2)
                Txt.draw(&canvas, "Challenge", x: l.pad, y: y, l.pal.muted, l.small, maxWidth: rx - 2 * l.pad)
                let text = line.stake.isEmpty ? "none" : line.text
                Txt.draw(&canvas, text, x: l.pad, y: y + l.small.height + 2, line.stake.isEmpty ? l.pal.muted : l.pal.fg, l.small,
                         maxWidth: l.W - 2 * l.pad)
            } else {
                let rx = Txt.drawRight(&canvas, line.stake, right: l.W - l.pad, y: y, l.pal.fg, l.small, maxWidth: l.W / 2)
                Txt.draw(&canvas, line.text, x: l.pad, y: y, line.stake.isEmpty ? l.pal.muted : l.pal.fg, l.small, maxWidth: rx - 2 * l.pad)
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
        // The list has the same height on every circle's page: the footer is kept when any circle
        // has a challenge to show ("no challenge" on the others).
        let footer = anyChallenge(state, now: now) ? footerHeight(big: m.big) : 0
        return ListFrame(area: Rect(x: 0, y: content.y, w: m.W, h: content.h - hints - footer), rowHeight: m.rowHeight)
    }

    /// Whether any circle joined has a challenge line (the footer is kept on every circle's page).
    static func anyChallenge(_ s: PetState, now: Instant) -> Bool {
        s.circles.circles.values.contains { challengeLine(s, $0, now: now, tiny: false) != nil }
    }

    static let noChallenge = (stake: "", text: "no challenge")

    /// For each board held (week before month; coins, focus, screen, streak) a section naming it
    /// (period and metric, "of N" ranked), then one row per ranked member (rank, pet name, value).
    /// The challenge is drawn under the list (`render`), not in it.
    static func rows(ui: UIState, state s: PetState, now: Instant, config: Navigator.Config) -> [NavRow] {
        guard let m = NavRows.shownCircle(s, tab: ui.circleTab) else { return [] }
        let tiny = config.profile.sizeClass == .tiny
        var out: [NavRow] = []
        let boards = s.circles.standings[m.circle] ?? []
        for (i, board) in boards.enumerated() {
            let period = board.period == .week ? "Week" : "Month"
            out.append(NavRow(id: "section:\(i)", kind: .section, label: period + ": " + metricName(board.metric),
                              value: "of \(board.ranked)"))
            for r in board.rows {
                let name = r.petName.isEmpty ? r.member : r.petName
                let you = r.member == m.member
                // A member appears on several boards: the row's id names the board too.
                out.append(NavRow(id: "member:\(i):" + r.member, label: "\(r.rank) " + name + (you ? " (you)" : ""),
                                  value: metricValue(board.metric, r.value), mark: .none,
                                  short: you ? "\(r.rank) you" : nil))
            }
        }
        if boards.isEmpty {
            out.append(NavRow(id: "note:0", kind: .note, label: tiny ? "No board yet" : "No leaderboard yet", muted: true))
        }
        return out
    }

    static func actions(_ t: inout NavActionTable) {
        t.moves()
        if t.state.circles.circles.count > 1 {
            // The next circle: B where the joystick has no right (as the shop's tabs).
            t.add(.select, .tab, hinted: !t.config.keys.names.keys.contains(.forward), rank: 1)
            t.add(.forward, .tab)
        }
        t.add(.back, .back)
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        switch input {
        case .previous, .next: nav.move(input)
        case .select, .forward:
            let count = state.circles.circles.count
            guard count > 1 else { break }
            nav.ui.circleTab = (NavRows.circleTab(state, nav.ui.circleTab) + 1) % count
            nav.ui.cursor = ownRow(state, tab: nav.ui.circleTab); nav.ui.scroll = 0
        case .back: nav.pop()
        default: break
        }
        return []
    }

    /// Opens on the first circle, on this device's own member's row.
    static func opened(_ ui: inout UIState, state: PetState?, now: Instant?) {
        ui.circleTab = 0
        ui.cursor = state.map { ownRow($0, tab: 0) } ?? 0
    }

    /// The own member's row in the first board of the circle shown (an index into the selectable
    /// rows, sections left out); 0 without one.
    static func ownRow(_ s: PetState, tab: Int) -> Int {
        guard let m = NavRows.shownCircle(s, tab: tab), let board = s.circles.standings[m.circle]?.first,
              let i = board.rows.firstIndex(where: { $0.member == m.member }) else { return 0 }
        return i
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

    /// The circle the screen shows: the `tab`th joined, by id (nil: none joined).
    public static func shownCircle(_ state: PetState, tab: Int = 0) -> CircleMembership? {
        let all = state.circles.circles.values.sorted { $0.circle < $1.circle }
        return all.isEmpty ? nil : all[circleTab(state, tab)]
    }

    /// `tab` within the circles joined (0 when none or out of range).
    public static func circleTab(_ state: PetState, _ tab: Int) -> Int {
        let n = state.circles.circles.count
        return n > 0 && (0..<n).contains(tab) ? tab : 0
    }
}
