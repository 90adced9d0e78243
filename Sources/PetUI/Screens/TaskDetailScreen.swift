import PetCore

/// One task (`ui.detailTaskID`): the title wrapped on every free line (its last line scrolling
/// when still too long; ellipsized on e-paper), due, priority,
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
        let late = t.due.map({ $0 < c.now }) == true && t.isOpen
        switch l.size {
        case .square, .wide:
            // Everything in the 12×16 face. The fields take one line each, or two when the value is
            // too long and there is room; the title takes the lines left (all of it when it can),
            // its last line scrolling when even those are too few.
            let f: TextSize = .large
            let hintH = l.hints(&canvas, c.view.hintText)
            let lineH = f.height + 2
            let labelW = (fields.map { Txt.width($0.0, f) }.max() ?? 0) + 8
            let valueW = l.W - 2 * l.pad - labelW
            let top = area.y + 4
            let avail = (l.H - hintH - top - 6) / lineH
            let titleW = l.W - 2 * l.pad
            let titleNeed = Txt.lineCount(t.title, f, width: titleW)
            var fieldLines = fields.map { Txt.lineCount($0.1, f, width: valueW) > 1 ? 2 : 1 }
            // Give up second lines (from the bottom) until the title has at least one line.
            var k = fieldLines.count - 1
            while fieldLines.reduce(0, +) + 1 > avail, k >= 0 { fieldLines[k] = 1; k -= 1 }
            let titleLines = max(1, min(titleNeed, avail - fieldLines.reduce(0, +)))
            var y = top
            y += Txt.flow(&canvas, t.title, x: l.pad, y: y, width: titleW, maxLines: titleLines, p.fg, f, ms: l.ms) + 6
            canvas.hline(x: l.pad, y: y - 4, w: l.W - 2 * l.pad, color: p.mono ? p.fg : p.track)
            for (i, field) in fields.enumerated() where y + f.height <= l.H - hintH {
                Txt.draw(&canvas, field.0, x: l.pad, y: y, p.muted, f, maxWidth: labelW - 4)
                let ink = field.0 == "Due" && late ? p.flame : p.fg
                let lines = min(fieldLines[i], (l.H - hintH - y + 2) / lineH)
                y += Txt.flow(&canvas, field.1, x: l.pad + labelW, y: y, width: valueW, maxLines: max(1, lines), ink, f, ms: l.ms) + 2
            }
        case .paper:
            // The title in the 12×16 face when three lines hold it, else in the 6×8 face (up to
            // six lines); under it the due time on its own line, the other fields in two columns.
            let top = area.y + 2
            let fieldsTop = l.H - 4 * 10 - 1
            let titleW = l.W - 2 * l.pad
            let big = Txt.lineCount(t.title, .large, width: titleW) <= 3
            let tf: TextSize = big ? .large : .small
            let maxLines = max(1, (fieldsTop - top - 2) / (tf.height + 2))
            let used = Txt.flow(&canvas, t.title, x: l.pad, y: top, width: titleW, maxLines: maxLines, p.fg, tf, ms: nil)
            var y = min(fieldsTop, top + used + 5)
            let dw = Txt.draw(&canvas, "Due:", x: l.pad, y: y, p.fg, .small)
            Txt.draw(&canvas, due, x: l.pad + dw + 4, y: y, p.fg, .small, maxWidth: titleW - dw - 4)
            y += 10
            let colW = titleW / 2
            for (k, f) in fields.dropFirst().enumerated() {
                let col = k < 3 ? 0 : 1
                let fy = y + (k % 3) * 10
                guard fy + 8 <= l.bottom else { continue }
                let x = l.pad + col * colW
                let lw = Txt.draw(&canvas, f.0 + ":", x: x, y: fy, p.fg, .small, maxWidth: colW)
                Txt.draw(&canvas, f.1, x: x + lw + 3, y: fy, p.fg, .small, maxWidth: colW - lw - 6)
            }
        case .tiny:
            // Two lines of title (the rest scrolling), then one line per group of fields, each
            // scrolling when too long.
            var y = area.y
            y += Txt.flow(&canvas, t.title, x: 1, y: y, width: l.W - 2, maxLines: 2, p.fg, .small, lineGap: 1, ms: l.ms) + 1
            let terse = [
                "due " + due,
                Fmt.priority(t.priority) + (t.estimate.map { " " + Fmt.minutes($0) } ?? "") + " " + Fmt.recurrence(t.recurrence),
                Fmt.taskState(t.state) + " " + t.category,
                rewardText,
            ]
            for line in terse where y + 8 <= l.bottom {
                Txt.line(&canvas, line, x: 1, y: y, width: l.W - 2, p.fg, .small, ms: l.ms)
                y += 9
            }
        }
    }
}

extension TaskDetailScreen: ScreenDefinition {
    static let title = "Task"

    static func actions(_ t: inout NavActionTable) {
        let (ui, state) = (t.ui, t.state)
        if let id = ui.detailTaskID, let task = state.tasks[id] {
            // Another open task to move to (no sort: this runs at every view).
            if state.tasks.values.contains(where: { $0.isOpen && $0.id != id }) {
                t.add(.previous, .up, rank: 2); t.add(.next, .down, rank: 2)
            }
            if task.isOpen { t.add(.holdSelect, .command(.complete), rank: 0) }
            if task.state == .pending { t.add(.holdPrevious, .command(.startTask)) }
        }
        t.add(.back, .back)
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        let tasks = state.openTasks()
        guard let id = nav.ui.detailTaskID, let t = state.tasks[id] else { nav.pop(); return [] }
        switch input {
        case .previous, .next:
            guard !tasks.isEmpty else { break }
            let i = tasks.firstIndex { $0.id == id } ?? 0
            let j = input == .next ? (i + 1) % tasks.count : (i + tasks.count - 1) % tasks.count
            nav.ui.detailTaskID = tasks[j].id
        case .holdSelect:
            if t.isOpen { nav.pop(); return [.send(.completeTask(id: id))] }
        case .holdPrevious:
            if t.state == .pending { return [.send(.startTask(id: id))] }
        case .back: nav.pop()
        default: break
        }
        return []
    }
}
