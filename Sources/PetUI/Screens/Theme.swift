/// Colours for the UI. `accent` fills the cursor pill, tabs and buttons (dark text on it) and
/// the rule under the status line; `meter` is the ring around the pet's home, the level and
/// progress bar fill and the chart bars — marks that must stand out at 3:1 against the page, the
/// backdrop and the bar track (WCAG AA non-text contrast). Text (`text`, `mutedText`) is ≥ 4.5:1
/// on the background, panels and bubbles (Tests/PetUITests/ContrastTests).
public struct Theme: Sendable, Hashable {
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
    public var meter: RGB565

    public init(background: RGB565, panel: RGB565, text: RGB565, mutedText: RGB565,
                accent: RGB565, track: RGB565, bubble: RGB565, bubbleBorder: RGB565,
                petBackdrop: RGB565, coin: RGB565, flame: RGB565, good: RGB565, meter: RGB565? = nil) {
        self.background = background; self.panel = panel; self.text = text
        self.mutedText = mutedText; self.accent = accent; self.track = track
        self.bubble = bubble; self.bubbleBorder = bubbleBorder; self.petBackdrop = petBackdrop
        self.coin = coin; self.flame = flame; self.good = good; self.meter = meter ?? accent
    }

    public static let light = Theme(
        background: RGB565(hex: 0xF7F5EE), panel: RGB565(hex: 0xFFFFFF),
        text: RGB565(hex: 0x2B2B3A), mutedText: RGB565(hex: 0x5F6173),
        accent: RGB565(hex: 0xE8DE2A), track: RGB565(hex: 0xE2E0D6),
        bubble: RGB565(hex: 0xFFFFFF), bubbleBorder: RGB565(hex: 0x2B2B3A),
        petBackdrop: RGB565(hex: 0xFFFBD9), coin: RGB565(hex: 0xB06F00),
        flame: RGB565(hex: 0xC05A1A), good: RGB565(hex: 0x217A43), meter: RGB565(hex: 0x9A7800))

    public static let dark = Theme(
        background: RGB565(hex: 0x15161E), panel: RGB565(hex: 0x23252F),
        text: RGB565(hex: 0xF2F2F5), mutedText: RGB565(hex: 0x9A9CAB),
        accent: RGB565(hex: 0xD5B60A), track: RGB565(hex: 0x3A3C48),
        bubble: RGB565(hex: 0xF2F2F5), bubbleBorder: RGB565(hex: 0xD5B60A),
        petBackdrop: RGB565(hex: 0x343648), coin: RGB565(hex: 0xF5C518),
        flame: RGB565(hex: 0xFF7A33), good: RGB565(hex: 0x5BD68A))
}
