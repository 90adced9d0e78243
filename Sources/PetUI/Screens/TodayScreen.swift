import PetCore

/// Today: the open tasks due today or overdue, then the habit checklist (habits, the movement box,
/// the observation box in a course's training week) with check marks; the cursor row highlighted;
/// scrolls when longer than the screen. Rows: `NavRows.today` (the navigator's, so the cursor and
/// the screen agree), with a section label before the tasks and before the checklist.
enum TodayScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        let date = s.clock.local(c.now).date
        let score = s.habitScoreToday
        l.header(&canvas, "Today", right: Fmt.date(date))

        let items = NavRows.today(s)
        let tasks = items.compactMap { item -> TaskItem? in if case .task(let id) = item { s.tasks[id] } else { nil } }
        let boxes = items.compactMap { item -> String? in if case .habit(let b) = item { b } else { nil } }
        let checked = s.checkedToday
        var rows: [ListRow] = []
        var selectable: [Int] = []      // row index of each item
        rows.append(.sectionLabel("Tasks", right: tasks.isEmpty ? nil : "\(tasks.count) open"))
        if tasks.isEmpty { rows.append(ListRow("Nothing due today", muted: true)) }
        for t in tasks {
            selectable.append(rows.count)
            rows.append(ListRow(t.title, right: Fmt.dueShort(t, state: s, now: c.now),
                                mark: t.state == .inProgress ? .started : .box(checked: false)))
        }
        let done = boxes.filter { checked.contains($0) }.count
        rows.append(.sectionLabel("Habits \(done)/\(boxes.count)", right: score > 0 ? "+\(score) pts" : nil))
        for b in boxes {
            selectable.append(rows.count)
            rows.append(ListRow(habitText(b, s), mark: .box(checked: checked.contains(b))))
        }
        let cursor = selectable.isEmpty ? nil : selectable[min(max(0, c.ui.cursor), selectable.count - 1)]
        var area = l.content
        area.h -= l.hints(&canvas, Look.defaultHints)
        l.list(&canvas, rows, selected: cursor, area: area)
    }

    /// What a checklist box says.
    static func habitText(_ id: String, _ s: PetState) -> String {
        switch id {
        case HabitRules.movement: "Daily movement"
        case HabitRules.observation: "Observe (training week)"
        default: s.habits.habits[id]?.text ?? id
        }
    }
}
