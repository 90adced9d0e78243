import PetCore

/// Settings: day start, quiet hours, theme, sound, brightness, dim/sleep, pause, and on boards
/// without the A+C chord the factory reset — one row each, as the navigator's view has them
/// (`NavRows.settings(hasChord:)`, values from `NavRows.settingText`), the cursor row highlighted;
/// while `ui.editingSetting` the value shows between arrows. The hint bar says what the keys do.
enum SettingsScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        l.header(&canvas, "Settings")
        l.hints(&canvas, c.view.hintText)
        if let list = c.view.list, let frame = ListLayout.frame(.settings, profile: c.profile, state: c.state, now: c.now) {
            l.list(&canvas, list, frame: frame)
        }
    }
}
