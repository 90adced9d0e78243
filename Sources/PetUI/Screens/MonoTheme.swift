// MonoTheme.swift — the black/white themes of the 1-bit displays (SSD1306 OLED, SSD1680 e-paper).
// Every colour is pure black or pure white, so `MonoCanvas(from:)` converts a frame exactly.

extension Theme {
    /// Black on white: text, accents and outlines black; backgrounds, panels, bubbles and the
    /// progress track white (screens outline a track they fill).
    public static let monoLight = Theme.mono(ink: .black, paper: .white)

    /// White on black: the inverse of `monoLight`.
    public static let monoDark = Theme.mono(ink: .white, paper: .black)

    static func mono(ink: RGB565, paper: RGB565) -> Theme {
        Theme(background: paper, panel: paper, text: ink, mutedText: ink, accent: ink, track: paper,
              bubble: paper, bubbleBorder: ink, petBackdrop: paper, coin: ink, flame: ink, good: ink, meter: ink)
    }

    /// True for the two 1-bit themes.
    public var isMono: Bool { self == .monoLight || self == .monoDark }
}
