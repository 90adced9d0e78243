// Contrast.swift — WCAG 2.x relative luminance and contrast ratio of RGB565 colours, for the
// palette checks (text ≥ 4.5:1, bars, rings and icons ≥ 3:1; Tests/PetUITests/ContrastTests).

extension RGB565 {
    /// WCAG relative luminance (0 black ... 1 white) of the colour as the panel shows it (the
    /// 5/6/5-bit channels widened to 8 bits).
    public var relativeLuminance: Double {
        let t = RGB565.linear
        return 0.2126 * t[Int(r8)] + 0.7152 * t[Int(g8)] + 0.0722 * t[Int(b8)]
    }

    /// sRGB 8-bit channel → linear light, for all 256 values (x^2.4 as x² · (x²)^(1/5), the fifth
    /// root by Newton's method: PetUI does not import Foundation).
    static let linear: [Double] = (0..<256).map { v in
        let c = Double(v) / 255
        if c <= 0.03928 { return c / 12.92 }
        let x = (c + 0.055) / 1.055, a = x * x
        var y = 1.0
        for _ in 0..<40 { y = (4 * y + a / (y * y * y * y)) / 5 }
        return a * y
    }

    /// WCAG contrast ratio with `other`, 1 (same) ... 21 (black on white).
    public func contrastRatio(with other: RGB565) -> Double {
        let a = relativeLuminance, b = other.relativeLuminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}
