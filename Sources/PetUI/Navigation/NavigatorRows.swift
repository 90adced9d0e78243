import PetCore

/// The rows the navigator moves `UIState.cursor` over, in display order: the menu's (its order is
/// in Screens.swift) and home's card here, each list screen's own in its file under Screens/
/// (`extension NavRows`, labelled by its definition's `rows`). The navigator makes its view from
/// them (NavigatorView.swift); the screens draw that view, so both agree on what row N is.
public enum NavRows {
    // MARK: - Menu (over the home screen)

    /// What hold B on a menu entry does at once, without opening it (nil: nothing now): start a
    /// focus session (25 min, or what a focus commitment needs) on Focus, feed the first food in
    /// the inventory on Wardrobe. The hint bar names it ("hold B start", "hold B feed").
    public static func menuJob(_ s: ScreenID, state: PetState) -> (command: NavCommand, action: Action)? {
        s.definition.menuJob(state: state)
    }

    // MARK: - Home

    /// What home's card steps through (A up, down): the day's open tasks (`PetState.todayTasks`:
    /// a finished recurring task's next occurrence waits for its day; the empty card when there are none), then today's unchecked habits. Hold B completes the task shown or checks the habit
    /// shown, so a habit is two presses from home (A wraps to the last one).
    public static func home(_ state: PetState) -> [TodayRow?] {
        let tasks: [TodayRow?] = state.todayTasks().map { .task(id: $0.id) }
        let checked = state.checkedToday
        let habits: [TodayRow?] = state.checklist.filter { !checked.contains($0) }.map { .habit(item: $0) }
        return (tasks.isEmpty ? [nil] : tasks) + habits
    }

    /// The menu label of a screen.
    public static func title(_ s: ScreenID) -> String { s.definition.title }
}
