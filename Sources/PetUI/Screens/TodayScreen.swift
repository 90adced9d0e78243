import PetCore

/// Placeholder until the screen is drawn (device-UI issue).
enum TodayScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        canvas.clear(c.theme.background)
        _ = canvas.drawText("today", x: 4, y: 4, color: c.theme.text)
    }
}
