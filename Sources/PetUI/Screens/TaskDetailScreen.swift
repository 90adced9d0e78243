import PetCore

/// One task (`ui.detailTaskID`): the title wrapped (ellipsized after its lines), due, priority,
/// estimate, category, recurrence, state, and the reward completing it now would earn (or the one
/// it earned).
enum TaskDetailScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        guard let id = c.ui.detailTaskID, let t = c.state.tasks[id] else {
            l.header(&canvas, "Task")
            l.empty(&canvas, "Task not found", area: l.content)
            return
        }
        let s = c.state
        let reward: Reward
        if let r = t.reward { reward = r } else {
            reward = RewardRules.taskReward(priority: t.priority, timing: RewardRules.timing(done: c.now, due: t.due),
                                            recurring: t.recurrence != nil, estimateMinutes: t.estimate)
        }
        let rewardText = String(Glyph.coin) + "\(reward.coins) +\(reward.xp)xp"
        let due = t.due.map { Fmt.when($0, state: s, now: c.now) + ($0 < c.now && t.isOpen ? " (late)" : "") } ?? "none"
        // The reward it would earn now (or earned) sits in the title bar.
        l.header(&canvas, l.size == .tiny ? "Task" : (t.state == .completed ? "Earned" : "Task"),
                 right: l.size == .tiny ? nil : String(Glyph.coin) + "\(reward.coins) +\(reward.xp)xp")
        let fields: [(String, String)] = [
            ("Due", due),
            ("Priority", Fmt.priority(t.priority)),
            ("Estimate", t.estimate.map { Fmt.minutes($0) } ?? "-"),
            ("Category", t.category),
            ("Repeats", Fmt.recurrence(t.recurrence)),
            ("State", Fmt.taskState(t.state)),
        ]
        let p = l.pal
        let area = l.content
        switch l.size {
        case .square, .wide:
            let hintH = l.hints(&canvas, c.view.hintText)
            var y = area.y + 6
            y += Txt.drawWrapped(&canvas, t.title, x: l.pad, y: y, width: l.W - 2 * l.pad, maxLines: l.size == .wide ? 2 : 3,
                                 p.fg, .large) + 8
            canvas.hline(x: l.pad, y: y - 4, w: l.W - 2 * l.pad, color: p.mono ? p.fg : p.track)
            let labelW = 84
            let rows = max(1, (l.H - hintH - y) / 19)
            for (k, f) in fields.prefix(rows).enumerated() {
                let fy = y + k * 19
                Txt.draw(&canvas, f.0, x: l.pad, y: fy + 4, p.muted, .small, maxWidth: labelW - 4)
                let ink = f.0 == "Due" && t.due.map({ $0 < c.now }) == true && t.isOpen ? p.flame : p.fg
                Txt.draw(&canvas, f.1, x: l.pad + labelW, y: fy, ink, .large, maxWidth: l.W - 2 * l.pad - labelW)
            }
        case .paper:
            var y = area.y + 2
            y += Txt.drawWrapped(&canvas, t.title, x: l.pad, y: y, width: l.W - 2 * l.pad, maxLines: 2, p.fg, .large) + 4
            // Two columns of small fields.
            let colW = (l.W - 2 * l.pad) / 2
            for (k, f) in fields.enumerated() {
                let col = k < 3 ? 0 : 1
                let fy = y + (k % 3) * 10
                guard fy + 8 <= l.bottom else { continue }
                let x = l.pad + col * colW
                let lw = Txt.draw(&canvas, f.0 + ":", x: x, y: fy, p.fg, .small, maxWidth: colW)
                Txt.draw(&canvas, f.1, x: x + lw + 3, y: fy, p.fg, .small, maxWidth: colW - lw - 6)
            }
        case .tiny:
            var y = area.y
            Txt.draw(&canvas, t.title, x: 1, y: y, p.fg, .small, maxWidth: l.W - 2)
            y += 9
            let terse = [
                "due " + due,
                Fmt.priority(t.priority) + (t.estimate.map { " " + Fmt.minutes($0) } ?? "") + " " + Fmt.recurrence(t.recurrence),
                Fmt.taskState(t.state) + " " + t.category,
                rewardText,
            ]
            for line in terse where y + 8 <= l.bottom {
                Txt.draw(&canvas, line, x: 1, y: y, p.fg, .small, maxWidth: l.W - 2)
                y += 9
            }
        }
    }
}
