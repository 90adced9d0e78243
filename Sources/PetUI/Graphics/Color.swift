// Color.swift — 16-bit RGB565 colour as used by the 240×240 display.

/// A colour packed as RGB565: 5 bits red, 6 bits green, 5 bits blue (red in the high bits).
public struct RGB565: Hashable, Sendable {
    public var raw: UInt16

    /// Wraps an already-packed RGB565 value.
    public init(raw: UInt16) { self.raw = raw }

    /// Packs 8-bit channels, keeping the high bits of each channel.
    public init(r: UInt8, g: UInt8, b: UInt8) {
        raw = (UInt16(r >> 3) << 11) | (UInt16(g >> 2) << 5) | UInt16(b >> 3)
    }

    /// From a 24-bit hex literal such as `0xE8DE2A` (bits above 24 are ignored).
    public init(hex: UInt32) {
        self.init(r: UInt8((hex >> 16) & 0xFF), g: UInt8((hex >> 8) & 0xFF), b: UInt8(hex & 0xFF))
    }

    /// 5-bit red channel (0...31).
    public var r5: UInt8 { UInt8((raw >> 11) & 0x1F) }
    /// 6-bit green channel (0...63).
    public var g6: UInt8 { UInt8((raw >> 5) & 0x3F) }
    /// 5-bit blue channel (0...31).
    public var b5: UInt8 { UInt8(raw & 0x1F) }

    /// Red expanded to 8 bits by replicating the high bits into the low bits (31 → 255).
    public var r8: UInt8 { let v = r5; return (v << 3) | (v >> 2) }
    /// Green expanded to 8 bits (63 → 255).
    public var g8: UInt8 { let v = g6; return (v << 2) | (v >> 4) }
    /// Blue expanded to 8 bits (31 → 255).
    public var b8: UInt8 { let v = b5; return (v << 3) | (v >> 2) }

    /// The colour expanded to 8-bit channels.
    public var rgb8: (r: UInt8, g: UInt8, b: UInt8) { (r8, g8, b8) }

    /// Linear blend towards `other`; `t` is clamped to 0...1 (0 = self, 1 = other).
    public func mixed(with other: RGB565, _ t: Double) -> RGB565 {
        let k = min(max(t, 0), 1)
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8((Double(a) * (1 - k) + Double(b) * k).rounded())
        }
        return RGB565(r: mix(r8, other.r8), g: mix(g8, other.g8), b: mix(b8, other.b8))
    }

    public static let black = RGB565(raw: 0x0000)
    public static let white = RGB565(raw: 0xFFFF)
    public static let red = RGB565(hex: 0xFF0000)
    public static let green = RGB565(hex: 0x00FF00)
    public static let blue = RGB565(hex: 0x0000FF)
}
