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
