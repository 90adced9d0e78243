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
