import PetCore

/// The pet in its home: sprite for the mood and activity, wearables and skin as layers, home items
/// around it, animated by the clock. (Foundation issue fills this in; for now the mood sprite.)
public enum PetScene {
    /// Draws the pet scene into `rect`.
    public static func draw(_ c: ScreenContext, in rect: Rect, _ canvas: inout Canvas) {
        let mood = Mood(rawValue: c.state.mood(at: c.now).rawValue) ?? .content
        let sprite = Pet.sprite(for: mood)
        let scale = max(1, min(rect.w / max(1, sprite.width), rect.h / max(1, sprite.height)))
        canvas.draw(sprite, x: rect.x + (rect.w - sprite.width * scale) / 2, y: rect.y + (rect.h - sprite.height * scale) / 2, scale: scale)
    }
}
