// HomeScreen.swift — the 240×240 home screen: status bar, pet, speech bubble,
// level progress and the next task.

/// Everything the home screen shows.
public struct HomeModel: Sendable, Equatable {
    public var petName: String
    /// "happy", "content", "sad", "sleepy" or "excited" (anything else → content).
    public var mood: String
    /// Preformatted clock, e.g. "08:30".
    public var clock: String
    public var coins: Int
    public var level: Int
    /// Progress towards the next level, 0...1 (clamped when drawn).
    public var levelProgress: Double
    public var streak: Int
    public var nextTask: String?
    public var nextDue: String?
    public var speech: String?
    public var paused: Bool

    public init(petName: String, mood: String, clock: String, coins: Int, level: Int,
                levelProgress: Double, streak: Int, nextTask: String? = nil,
                nextDue: String? = nil, speech: String? = nil, paused: Bool = false) {
        self.petName = petName; self.mood = mood; self.clock = clock; self.coins = coins
        self.level = level; self.levelProgress = levelProgress; self.streak = streak
        self.nextTask = nextTask; self.nextDue = nextDue; self.speech = speech; self.paused = paused
    }
}

/// Colours for the UI. `accent` is used for the ring around the pet, the bar under the
/// status line and the level progress fill.
public struct Theme: Sendable, Equatable {
    public var background: RGB565
    public var panel: RGB565
    public var text: RGB565
    public var mutedText: RGB565
    public var accent: RGB565
    public var track: RGB565
    public var bubble: RGB565
    public var bubbleBorder: RGB565
    public var petBackdrop: RGB565
    public var coin: RGB565
    public var flame: RGB565
    public var good: RGB565

    public init(background: RGB565, panel: RGB565, text: RGB565, mutedText: RGB565,
                accent: RGB565, track: RGB565, bubble: RGB565, bubbleBorder: RGB565,
                petBackdrop: RGB565, coin: RGB565, flame: RGB565, good: RGB565) {
        self.background = background; self.panel = panel; self.text = text
        self.mutedText = mutedText; self.accent = accent; self.track = track
        self.bubble = bubble; self.bubbleBorder = bubbleBorder; self.petBackdrop = petBackdrop
        self.coin = coin; self.flame = flame; self.good = good
    }

    public static let light = Theme(
        background: RGB565(hex: 0xF7F5EE), panel: RGB565(hex: 0xFFFFFF),
        text: RGB565(hex: 0x2B2B3A), mutedText: RGB565(hex: 0x77778A),
        accent: RGB565(hex: 0xE8DE2A), track: RGB565(hex: 0xE2E0D6),
        bubble: RGB565(hex: 0xFFFFFF), bubbleBorder: RGB565(hex: 0x2B2B3A),
        petBackdrop: RGB565(hex: 0xFFFBD9), coin: RGB565(hex: 0xE0A400),
        flame: RGB565(hex: 0xF0642A), good: RGB565(hex: 0x2E9E5B))

    public static let dark = Theme(
        background: RGB565(hex: 0x15161E), panel: RGB565(hex: 0x23252F),
        text: RGB565(hex: 0xF2F2F5), mutedText: RGB565(hex: 0x9A9CAB),
        accent: RGB565(hex: 0xD5B60A), track: RGB565(hex: 0x3A3C48),
        bubble: RGB565(hex: 0xF2F2F5), bubbleBorder: RGB565(hex: 0xD5B60A),
        petBackdrop: RGB565(hex: 0x343648), coin: RGB565(hex: 0xF5C518),
        flame: RGB565(hex: 0xFF7A33), good: RGB565(hex: 0x5BD68A))
}

public enum HomeScreen {
    // Layout (240×240).
    static let barHeight = 26
    static let petScale = 4
    static let petCenter = (x: 120, y: 108)
    static let ringRadius = 54
    static let bubbleRect = Rect(x: 10, y: 31, w: 220, h: 19)
    static let levelY = 168
    static let progressRect = Rect(x: 10, y: 187, w: 220, h: 8)
    static let taskRect = Rect(x: 6, y: 201, w: 228, h: 34)

    /// Compact number for the status bar: 999, 1.2k, 12k, 1.5M.
    static func compact(_ n: Int) -> String {
        let v = max(0, n)
        if v < 10_000 { return String(v) }
        if v < 1_000_000 { return String(v / 1000) + "k" }
        return String(v / 1_000_000) + "M"
    }

    /// Draws the whole screen (a new frame) for `model`.
    public static func render(_ model: HomeModel, into canvas: inout Canvas, theme: Theme) {
        canvas.clear(theme.background)
        drawStatusBar(model, &canvas, theme)
        drawPet(model, &canvas, theme)
        if let speech = model.speech, !speech.isEmpty { drawBubble(speech, &canvas, theme) }
        drawLevel(model, &canvas, theme)
        drawTask(model, &canvas, theme)
    }

    static func drawStatusBar(_ m: HomeModel, _ c: inout Canvas, _ t: Theme) {
        c.fillRect(x: 0, y: 0, w: c.width, h: barHeight, color: t.panel)
        c.fillRect(x: 0, y: barHeight, w: c.width, h: 2, color: t.accent)
        let ty = 5
        c.drawText(m.clock, x: 8, y: ty, color: t.text, scale: 2, maxWidth: 72)
        // Right-aligned groups: [coin 125] [flame 7]
        let streak = compact(m.streak)
        let coins = compact(m.coins)
        var x = c.width - 8 - Font.textWidth(streak, scale: 2) - 12
        c.drawText(String(Glyph.flame), x: x, y: ty, color: t.flame, scale: 2)
        c.drawText(streak, x: x + 12, y: ty, color: t.text, scale: 2)
        x -= 10 + 12 + Font.textWidth(coins, scale: 2)
        c.drawText(String(Glyph.coin), x: x, y: ty, color: t.coin, scale: 2)
        c.drawText(coins, x: x + 12, y: ty, color: t.text, scale: 2)
    }

    static func drawPet(_ m: HomeModel, _ c: inout Canvas, _ t: Theme) {
        let mood = Mood(rawValue: m.mood.lowercased()) ?? .content
        let (cx, cy) = petCenter
        // Accent ring with a soft backdrop disc.
        c.fillCircle(cx: cx, cy: cy, radius: ringRadius, color: t.accent)
        c.fillCircle(cx: cx, cy: cy, radius: ringRadius - 3, color: t.petBackdrop)
        let sprite = Pet.sprite(for: mood)
        let size = sprite.width * petScale
        c.draw(sprite, x: cx - size / 2, y: cy - size / 2 + 2, scale: petScale)
        switch mood {
        case .sleepy:
            c.drawText("z", x: cx + 46, y: cy - 34, color: t.mutedText, scale: 1)
            c.drawText("Z", x: cx + 52, y: cy - 50, color: t.mutedText, scale: 2)
        case .excited:
            c.drawText("!", x: cx + 44, y: cy - 46, color: t.flame, scale: 2)
        case .happy:
            c.drawText(String(Glyph.heart), x: cx + 42, y: cy - 48, color: t.flame, scale: 2)
        default:
            break
        }
        if m.paused {
            // A pill in the top-left corner of the pet area.
            let label = "PAUSED"
            let w = Font.textWidth(label) + 10
            c.fillRoundedRect(x: 8, y: 58, w: w, h: 14, radius: 7, color: t.text)
            c.drawText(label, x: 13, y: 61, color: t.background)
        }
    }

    static func drawBubble(_ s: String, _ c: inout Canvas, _ t: Theme) {
        let r = bubbleRect
        let pad = 8
        let shown = Font.fit(s, scale: 1, maxWidth: r.w - 2 * pad)
        let tw = Font.textWidth(shown)
        // Shrink the bubble around short text, keeping it centred.
        let w = max(tw + 2 * pad, 40)
        let x = c.width / 2 - w / 2
        c.fillRoundedRect(x: x, y: r.y, w: w, h: r.h, radius: 6, color: t.bubbleBorder)
        c.fillRoundedRect(x: x + 1, y: r.y + 1, w: w - 2, h: r.h - 2, radius: 5, color: t.bubble)
        // Tail pointing down at the pet: outline rows then fill rows.
        let tx = c.width / 2
        for i in 0..<5 {
            let half = 4 - i
            c.hline(x: tx - half - 1, y: r.maxY - 1 + i, w: 2 * half + 3, color: t.bubbleBorder)
            if half > 0 { c.hline(x: tx - half, y: r.maxY - 1 + i, w: 2 * half + 1, color: t.bubble) }
        }
        c.drawText(shown, x: c.width / 2 - tw / 2, y: r.y + (r.h - Font.cellHeight) / 2 + 1,
                   color: RGB565(hex: 0x2B2B3A))
    }

    static func drawLevel(_ m: HomeModel, _ c: inout Canvas, _ t: Theme) {
        let lv = "Lv " + String(m.level)
        let lvWidth = Font.textWidth(lv, scale: 2)
        c.drawText(m.petName, x: 10, y: levelY, color: t.text, scale: 2,
                   maxWidth: c.width - 20 - lvWidth - 8)
        c.drawText(lv, x: c.width - 10 - lvWidth, y: levelY, color: t.text, scale: 2)
        let p = progressRect
        c.fillRoundedRect(x: p.x, y: p.y, w: p.w, h: p.h, radius: p.h / 2, color: t.track)
        let frac = m.levelProgress.isNaN ? 0 : min(max(m.levelProgress, 0), 1)
        let filled = Int((Double(p.w) * frac).rounded())
        if filled > 0 {
            c.fillRoundedRect(x: p.x, y: p.y, w: max(filled, p.h), h: p.h, radius: p.h / 2, color: t.accent)
        }
    }

    static func drawTask(_ m: HomeModel, _ c: inout Canvas, _ t: Theme) {
        let r = taskRect
        c.fillRoundedRect(x: r.x, y: r.y, w: r.w, h: r.h, radius: 8, color: t.panel)
        guard let task = m.nextTask, !task.isEmpty else {
            let msg = "No tasks - enjoy!"
            let w = Font.textWidth(msg, scale: 2)
            c.drawText(msg, x: r.x + (r.w - w) / 2, y: r.y + (r.h - 16) / 2, color: t.good, scale: 2)
            return
        }
        let textX = r.x + 26
        c.drawText(String(Glyph.bell), x: r.x + 8, y: r.y + 5, color: t.accent, scale: 2)
        c.drawText(task, x: textX, y: r.y + 4, color: t.text, scale: 2, maxWidth: r.maxX - 6 - textX)
        if let due = m.nextDue, !due.isEmpty {
            c.drawText(due, x: textX, y: r.y + 23, color: t.mutedText, scale: 1, maxWidth: r.maxX - 6 - textX)
        }
    }
}
