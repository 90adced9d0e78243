import PetUI

// The byte formats the three panel controllers take, both ways: packing a rendered surface's
// rectangle into the bytes a driver sends, and decoding those bytes back into pixels (what the
// panel then shows). PetUI hands out canvases (`Canvas`, `MonoCanvas`); each controller's RAM
// layout is its driver's: ST7789RAM.swift (RGB565), SSD1306RAM.swift (pages), SSD1680RAM.swift
// (rows). The headless panel of the simulator and the golden-frame tests decode, so a picture of a
// 1-bit display shows what the 1-bit panel shows.

/// How a panel's RAM takes pixels.
public enum PixelFormat: String, Sendable, Hashable, CaseIterable {
    /// 16-bit colour, two bytes a pixel, most significant byte first (ST7789 `RAMWR` in 65k
    /// colour mode), rows top to bottom, pixels left to right within the rectangle.
    case rgb565
    /// 1-bit, page-major (SSD1306): per page of 8 rows, one byte per column, bit 0 the page's top
    /// row, 1 = lit. A rectangle grows to whole pages.
    case ssd1306Pages = "ssd1306-pages"
    /// 1-bit, row-major (SSD1680): per row, one byte per 8 columns, the leftmost pixel in the most
    /// significant bit, 1 = white. A rectangle grows to whole bytes horizontally.
    case ssd1680Rows = "ssd1680-rows"

    public var isMonochrome: Bool { self != .rgb565 }

    /// The natural format of a display kind (colour: RGB565; OLED: SSD1306; e-paper: SSD1680).
    public static func natural(for kind: DisplayKind) -> PixelFormat {
        switch kind {
        case .colour: .rgb565
        case .mono: .ssd1306Pages
        case .epaper: .ssd1680Rows
        }
    }

    /// Bytes a full frame of `width` × `height` takes.
    public func frameBytes(width: Int, height: Int) -> Int {
        switch self {
        case .rgb565: width * height * 2
        case .ssd1306Pages: width * ((height + 7) / 8)
        case .ssd1680Rows: ((width + 7) / 8) * height
        }
    }
}

/// One rectangle of a frame, packed: the area the bytes cover (grown to the format's alignment,
/// inside the panel) and the bytes in the format's order.
public struct PackedRect: Sendable, Equatable {
    public var area: Rect
    public var bytes: [UInt8]
    public init(area: Rect, bytes: [UInt8]) { self.area = area; self.bytes = bytes }
}

/// What a frame is drawn on before it is packed: a colour canvas, or a 1-bit one for the
/// monochrome panels.
public enum PanelSurface: Sendable {
    case colour(Canvas)
    case mono(MonoCanvas)

    public var width: Int {
        switch self { case .colour(let c): c.width; case .mono(let m): m.width }
    }
    public var height: Int {
        switch self { case .colour(let c): c.height; case .mono(let m): m.height }
    }
    public var bounds: Rect { Rect(x: 0, y: 0, w: width, h: height) }

    /// The surface a panel of `format` shows for a rendered canvas: the canvas itself for
    /// colour, its 1-bit conversion for the monochrome formats.
    public static func of(_ canvas: Canvas, format: PixelFormat) -> PanelSurface {
        format.isMonochrome ? .mono(MonoCanvas(from: canvas)) : .colour(canvas)
    }

    /// The same, from the surface of an earlier frame of `canvas` (`previous`) when the canvas
    /// changed only inside `damage` (nil: anywhere): a 1-bit panel's conversion is redone only there.
    public static func of(_ canvas: Canvas, format: PixelFormat, previous: PanelSurface?, damage: [Rect]?) -> PanelSurface {
        guard format.isMonochrome, let damage, case .mono(let m)? = previous else { return of(canvas, format: format) }
        return .mono(m.updated(from: canvas, in: damage))
    }

    /// The rectangles that differ from `shown` (nil: the panel's content is unknown, so the whole
    /// surface). Colour: a few bands (`FrameDiff`); 1-bit: the one rectangle holding every change.
    public func changedRects(from shown: PanelSurface?) -> [Rect] { changedRects(from: shown, within: nil) }

    /// The same, looking only inside `areas` when given (the canvas's damage since `shown` was
    /// sent: pixels outside them are known to be unchanged; Damage.swift).
    public func changedRects(from shown: PanelSurface?, within areas: [Rect]?) -> [Rect] {
        switch (self, shown) {
        case let (.colour(new), .colour(old)?):
            if let areas { return FrameDiff.changedRects(from: old, to: new, within: areas) }
            return FrameDiff.changedRects(from: old, to: new)
        case let (.mono(new), .mono(old)?): return new.changedRect(from: old).map { [$0] } ?? []
        default: return bounds.isEmpty ? [] : [bounds]
        }
    }

    /// Packs `rect` in `format` (a colour surface packed for a 1-bit format is converted first).
    public func pack(_ rect: Rect, as format: PixelFormat) -> PackedRect {
        switch (self, format) {
        case (.colour(let c), .rgb565): return PanelBytes.rgb565(c, rect)
        case (.mono(let m), .ssd1306Pages): let p = m.ssd1306Bytes(in: rect); return PackedRect(area: p.area, bytes: p.bytes)
        case (.mono(let m), .ssd1680Rows): let p = m.ssd1680Bytes(in: rect); return PackedRect(area: p.area, bytes: p.bytes)
        case (.mono(let m), .rgb565): return PanelBytes.rgb565(m.toCanvas(), rect)
        case (.colour(let c), _): return PanelSurface.mono(MonoCanvas(from: c)).pack(rect, as: format)
        }
    }
}

/// Packing and decoding by format; the controllers' own halves are in ST7789RAM.swift,
/// SSD1306RAM.swift and SSD1680RAM.swift.
public enum PanelBytes {
    /// What a panel of `format` shows for `canvas`: packed whole and decoded again (the golden
    /// frames and the simulator's snapshots are this picture).
    public static func roundTrip(_ canvas: Canvas, format: PixelFormat) -> Canvas {
        let surface = PanelSurface.of(canvas, format: format)
        let packed = surface.pack(surface.bounds, as: format)
        switch format {
        case .rgb565:
            var out = Canvas(width: canvas.width, height: canvas.height, background: .black)
            decodeRGB565(packed, into: &out)
            out.textRuns = canvas.textRuns
            return out
        case .ssd1306Pages, .ssd1680Rows:
            var m = MonoCanvas(width: canvas.width, height: canvas.height, background: .black)
            if format == .ssd1306Pages { decodeSSD1306(packed, into: &m) } else { decodeSSD1680(packed, into: &m) }
            var out = m.toCanvas()
            out.textRuns = canvas.textRuns
            return out
        }
    }
}
