import PetCore

/// Placeholder until the screen is drawn (device-UI issue).
enum WardrobeScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        canvas.clear(c.theme.background)
        _ = canvas.drawText("wardrobe", x: 4, y: 4, color: c.theme.text)
    }
}
