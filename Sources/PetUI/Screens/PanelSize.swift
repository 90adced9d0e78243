// PanelSize.swift — the physical size of each display's glass, for the minimum text height
// (docs/screens.md: about 1.1 mm). Diagonals from the boards' panels (boards/*.board, whose
// `diagonal` key says it, and docs/boards/); a board file with a smaller glass is refused when
// the screens' smallest face would fall under the minimum on it (BoardParser): Waveshare 1.3inch LCD HAT 240×240, Pimoroni Display HAT Mini 2.0" 320×240,
// SSD1306 0.96" 128×64 OLED, Waveshare 2.13inch e-paper V4 250×122.

extension DisplayProfile {
    /// The visible diagonal in inches of the panel this profile stands for (nil for a size no
    /// board uses).
    public var panelDiagonalInches: Double? {
        switch id {
        case "240x240": 1.3
        case "320x240": 2.0
        case "128x64": 0.96
        case "250x122": 2.13
        default: nil
        }
    }

    /// Millimetres per pixel (square pixels assumed): diagonal / pixel diagonal.
    public var pixelPitchMM: Double? { panelDiagonalInches.flatMap { pixelPitchMM(diagonalInches: $0) } }

    /// Millimetres per pixel on a panel of this size with a glass of `d` inches.
    public func pixelPitchMM(diagonalInches d: Double) -> Double? {
        let px = Double(width * width + height * height).squareRoot()
        guard px > 0, d > 0, d.isFinite else { return nil }
        return d * 25.4 / px
    }

    /// The physical height in millimetres of a capital or digit (7 rows of the 6×8 face, 14 of
    /// the 12×16 one, times the scale) on this panel (or on a glass of `diagonalInches`: a board
    /// file's `diagonal`).
    public func capHeightMM(_ face: FontFace, scale: Int = 1, diagonalInches: Double? = nil) -> Double? {
        guard let pitch = diagonalInches.map({ pixelPitchMM(diagonalInches: $0) }) ?? pixelPitchMM else { return nil }
        return Double((face == .small ? 7 : 14) * max(1, scale)) * pitch
    }

    /// The text height the issue asks for as a minimum on every display.
    public static let minimumCapHeightMM = 1.1

    /// The smallest face whose capitals are at least `minimumCapHeightMM` tall on this panel: the
    /// 6×8 face on the 0.96" OLED (1.19 mm) and the 2.13" e-paper (1.36 mm), the 12×16 one on the
    /// 1.3" 240×240 (0.68 mm at 6×8) and the 2.0" 320×240 (0.89 mm). Unknown sizes: the 6×8 face.
    public var minimumFace: FontFace {
        for face in [FontFace.small, .large] {
            if let mm = capHeightMM(face), mm >= Self.minimumCapHeightMM { return face }
        }
        return pixelPitchMM == nil ? .small : .large
    }
}
