import PetCore

/// Today: the open tasks due today or overdue, then the habit checklist (habits, the movement box,
/// the observation box in a course's training week) with check marks; the cursor row highlighted;
/// scrolls when longer than the screen. Rows, cursor and scroll: the navigator's view
/// (`NavRows.today`, with a section label before the tasks and before the checklist).
enum TodayScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let date = c.state.clock.local(c.now).date
        l.header(&canvas, "Today", right: Fmt.date(date))
        l.hints(&canvas, c.view.hintText)
        if let list = c.view.list, let frame = ListLayout.frame(.today, profile: c.profile, state: c.state, now: c.now) {
            l.list(&canvas, list, frame: frame)
        }
    }
}

extension TodayScreen: ScreenDefinition {
    static let title = "Today"
    static let icon = [
        "XXXXXXXXX.",
        "X.......X.",
        "X......XX.",
        "X.....XX..",
        "X.X..XX.X.",
        "X.XXXX..X.",
        "X..XX...X.",
        "X.......X.",
        "XXXXXXXXX.",
        ".........."]

    static func listFrame(_ m: ListLayout.Metrics, profile: DisplayProfile, state: PetState, now: Instant) -> ListFrame? {
        ListFrame(area: Rect(x: 0, y: m.content.y, w: m.W, h: m.content.h - HintBar.height(profile)), rowHeight: m.rowHeight)
    }

    /// The open tasks under "Tasks", then the habit checklist under "Habits n/m".
    static func rows(ui: UIState, state s: PetState, now: Instant, config: Navigator.Config) -> [NavRow] {
        let items = NavRows.today(s)
        let tasks = items.compactMap { item -> TaskItem? in if case .task(let id) = item { s.tasks[id] } else { nil } }
        let boxes = items.compactMap { item -> String? in if case .habit(let b) = item { b } else { nil } }
        let checked = s.checkedToday
        let score = s.habitScoreToday
        var rows = [NavRow(id: "section:tasks", kind: .section, label: "Tasks", value: tasks.isEmpty ? nil : "\(tasks.count) open")]
        if tasks.isEmpty && s.recurringDoneToday().isEmpty { rows.append(NavRow(id: "note:no-tasks", kind: .note, label: "Nothing due today", muted: true)) }
        for t in tasks {
            rows.append(NavRow(id: "task:" + t.id, label: t.title, value: Fmt.dueShort(t, state: s, now: now),
                               mark: t.state == .inProgress ? .started : .box(checked: false)))
        }
        // A recurring task finished today stays on the list, done, while its next occurrence waits
        // for its day (not selectable: un-completing is the phone's).
        for t in s.recurringDoneToday() {
            rows.append(NavRow(id: "note:done-" + t.id, kind: .note, label: t.title, value: "done", mark: .box(checked: true), muted: true))
        }
        let done = boxes.filter { checked.contains($0) }.count
        rows.append(NavRow(id: "section:habits", kind: .section, label: "Habits \(done)/\(boxes.count)",
                           value: score > 0 ? "+\(score) pts" : nil))
        for b in boxes {
            rows.append(NavRow(id: "habit:" + b, label: NavRows.habitText(b, s), mark: .box(checked: checked.contains(b))))
        }
        return rows
    }

    static func actions(_ t: inout NavActionTable) {
        let state = t.state
        t.moves()
        let row: NavRows.TodayRow? = t.sel("task").map { .task(id: $0) } ?? t.sel("habit").map { .habit(item: $0) }
        switch row {
        case .task(let id)?:
            t.add(.select, .open(.taskDetail), rank: 1)
            t.add(.forward, .open(.taskDetail), hinted: false)
            t.add(.holdSelect, .command(.complete), rank: 0)
            if state.tasks[id]?.state == .pending { t.add(.holdPrevious, .command(.startTask)) }
        case .habit(let item)?:
            let v: NavVerb = .command(state.checkedToday.contains(item) ? .uncheck : .check)
            t.add(.select, v, rank: 0)
            t.add(.forward, v, hinted: false)
        case nil: break
        }
        t.add(.back, .back)
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        // The row the screen highlights.
        let row: NavRows.TodayRow? = nav.selected("task").map { .task(id: $0) } ?? nav.selected("habit").map { .habit(item: $0) }
        switch input {
        case .previous, .next: nav.move(input)
        case .select, .forward:
            switch row {
            case .task(let id)?: nav.open(.taskDetail); nav.ui.detailTaskID = id
            case .habit(let item)?:
                return [.send(.habit(state.checkedToday.contains(item) ? .uncheck(item: item) : .check(item: item)))]
            case nil: break
            }
        case .holdSelect: if case .task(let id)? = row { return [.send(.completeTask(id: id))] }
        case .holdPrevious:
            if case .task(let id)? = row, state.tasks[id]?.state == .pending { return [.send(.startTask(id: id))] }
        case .back: nav.pop()
        default: break
        }
        return []
    }
}

/// Today's rows (the navigator moves its cursor over them; `rows` labels them).
extension NavRows {
    // MARK: - Today

    /// What a checklist box says.
    static func habitText(_ id: String, _ s: PetState) -> String {
        switch id {
        case HabitRules.movement: "Daily movement"
        case HabitRules.observation: "Observe (training week)"
        default: s.habits.habits[id]?.text ?? id
        }
    }


    public enum TodayRow: Sendable, Equatable {
        /// An open task (due today, overdue, or with no due date), in list order.
        case task(id: String)
        /// A checklist box: a habit id, `movement` or `observation`.
        case habit(item: String)
    }

    /// Today's rows: the day's open tasks (`state.todayTasks()`), then the habit checklist
    /// (`state.checklist`, `movement` last).
    public static func today(_ state: PetState) -> [TodayRow] {
        state.todayTasks().map { .task(id: $0.id) } + state.checklist.map { .habit(item: $0) }
    }
}
