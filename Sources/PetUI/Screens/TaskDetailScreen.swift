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
            // A title with chips, not a form: the title in the 12×16 face on every line the chips
            // leave (all of it when it can; its last line scrolls when even those are too few),
            // then one chip per fact that says something — when, how important, how long, where,
            // how often, how far along — flowing left to right.
            let f: TextSize = .large
            var chips: [Chip] = []
            if let d = t.due {
                chips.append(Chip(glyph: Glyph.bell, text: Fmt.when(d, state: s, now: c.now), strong: late))
                if late { chips.append(Chip(glyph: nil, text: "late", strong: true)) }
            }
            chips.append(Chip(glyph: nil, text: Fmt.priority(t.priority) + " priority", strong: false))
            if let e = t.estimate { chips.append(Chip(glyph: nil, text: Fmt.minutes(e), strong: false)) }
            if !t.category.isEmpty { chips.append(Chip(glyph: nil, text: t.category, strong: false)) }
            if t.recurrence != nil { chips.append(Chip(glyph: nil, text: Fmt.recurrence(t.recurrence), strong: false)) }
            if t.state != .pending { chips.append(Chip(glyph: t.state == .completed ? Glyph.check : nil, text: Fmt.taskState(t.state), strong: false)) }
            let width = l.W - 2 * l.pad
            let placed = Chip.layout(chips, f, width: width)
            let chipRows = (placed.map(\.row).max() ?? -1) + 1
            let chipsH = chipRows * (Chip.height(f) + 4)
            let top = area.y + 6
            let lineH = f.height + 2
            let titleLines = max(1, min(Txt.lineCount(t.title, f, width: width), (l.bottom - 6 - chipsH - 6 - top + 2) / lineH))
            let used = Txt.flow(&canvas, t.title, x: l.pad, y: top, width: width, maxLines: titleLines, p.fg, f, ms: l.ms)
            let cy = min(top + used + 10, l.bottom - 4 - chipsH)
            for (chip, row, x) in placed {
                chip.draw(l, &canvas, f, x: l.pad + x, y: cy + row * (Chip.height(f) + 4), maxWidth: width)
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

/// One fact about a task as a pill: an optional glyph and a few words ("16:00", "high priority").
struct Chip {
    var glyph: Character?
    var text: String
    /// Drawn in the accent (colour) or inverse (1-bit): what needs attention (late).
    var strong: Bool

    static func height(_ f: TextSize) -> Int { f.height + 4 }

    func width(_ f: TextSize) -> Int { Txt.width(text, f) + (glyph == nil ? 0 : f.advance + 4) + 2 * (f.advance / 2) }

    /// Each chip's row and x, flowing left to right with a 6 px gap; a chip wider than the line
    /// takes a row of its own (its text shortened).
    static func layout(_ chips: [Chip], _ f: TextSize, width: Int) -> [(chip: Chip, row: Int, x: Int)] {
        var out: [(Chip, Int, Int)] = []
        var row = 0, x = 0
        for c in chips {
            let w = min(width, c.width(f))
            if x > 0 && x + w > width { row += 1; x = 0 }
            out.append((c, row, x))
            x += w + 6
        }
        return out
    }

    func draw(_ l: Look, _ c: inout Canvas, _ f: TextSize, x: Int, y: Int, maxWidth: Int) {
        let p = l.pal
        let w = min(maxWidth, width(f)), h = Chip.height(f)
        let ink: RGB565
        if p.mono {
            if strong { c.fillRect(x: x, y: y, w: w, h: h, color: p.fg); ink = p.bg }
            else { c.strokeRect(x: x, y: y, w: w, h: h, color: p.fg); ink = p.fg }
        } else {
            c.fillRoundedRect(x: x, y: y, w: w, h: h, radius: h / 2, color: strong ? p.accent : p.panel)
            ink = strong ? p.onAccent : p.fg
        }
        var tx = x + f.advance / 2
        if let g = glyph {
            Txt.draw(&c, String(g), x: tx, y: y + 2, strong ? ink : p.muted, f)
            tx += f.advance + 4
        }
        Txt.draw(&c, text, x: tx, y: y + 2, ink, f, maxWidth: x + w - f.advance / 2 - tx)
    }
}

extension TaskDetailScreen: ScreenDefinition {
    static let title = "Task"

    static func actions(_ t: inout NavActionTable) {
        let (ui, state) = (t.ui, t.state)
        if let id = ui.detailTaskID, let task = state.tasks[id] {
            // Another open task to move to (no sort: this runs at every view).
            if state.tasks.values.contains(where: { $0.isOpen && $0.id != id && !state.isUpcomingOccurrence($0) }) {
                t.add(.previous, .up, rank: 2); t.add(.next, .down, rank: 2)
            }
            if task.isOpen { t.add(.holdSelect, .command(.complete), rank: 0) }
            if task.state == .pending { t.add(.holdPrevious, .command(.startTask)) }
        }
        t.add(.back, .back)
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        let tasks = state.todayTasks()
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
