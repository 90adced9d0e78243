import PetUI

/// Draws a canvas in a terminal with 24-bit colour half blocks: each character cell is "▀" with
/// the upper pixel as foreground and the lower pixel as background, so one row of cells shows two
/// rows of pixels. With `scale` > 1 each cell shows the average of a scale×scale block per half.
/// Remembers what the terminal shows and emits escape sequences only for the cells that changed.
public struct TerminalScreen: Sendable {
    /// Pixels per cell column (and per half cell row).
    public let scale: Int
    /// Where the picture's top-left cell is (1-based terminal row and column).
    public var row = 1, column = 1
    public private(set) var columns = 0, rows = 0
    /// What each cell shows now: 0xRRGGBB upper, lower; -1 = unknown (draw it next time).
    var shown: [(Int32, Int32)] = []

    public init(scale: Int = 1) { self.scale = max(1, scale) }

    /// The smallest scale at which a `width`×`height` display fits in `cols`×`lines` cells,
    /// leaving `reserved` lines (status) below.
    public static func fittingScale(width: Int, height: Int, cols: Int, lines: Int, reserved: Int = 3) -> Int {
        for s in 1...16 {
            let c = (width + s - 1) / s
            let r = (height + 2 * s - 1) / (2 * s)
            if c <= cols && r + reserved <= lines { return s }
        }
        return 16
    }

    /// Forgets what the terminal shows: the next `update` redraws every cell.
    public mutating func invalidate() {
        for i in shown.indices { shown[i] = (-1, -1) }
    }

    /// Escape sequences that bring the terminal up to date with `canvas`, looking only at cells
    /// that overlap `region` (nil: the whole canvas). Returns "" when nothing changed.
    public mutating func update(_ canvas: Canvas, region: Rect? = nil) -> String {
        let cols = (canvas.width + scale - 1) / scale
        let lines = (canvas.height + 2 * scale - 1) / (2 * scale)
        if cols != columns || lines != rows || shown.count != cols * lines {
            columns = cols; rows = lines
            shown = Array(repeating: (-1, -1), count: cols * lines)
        }
        guard let area = (region ?? canvas.bounds).intersection(canvas.bounds) else { return "" }
        let c0 = area.x / scale, c1 = min(cols, (area.maxX + scale - 1) / scale)
        let r0 = area.y / (2 * scale), r1 = min(lines, (area.maxY + 2 * scale - 1) / (2 * scale))
        var out = ""
        var fg: Int32 = -1, bg: Int32 = -1
        var cursorRow = -1, cursorColumn = -1
        for r in r0..<r1 {
            for c in c0..<c1 {
                let top = average(canvas, x: c * scale, y: r * 2 * scale)
                let bottom = average(canvas, x: c * scale, y: r * 2 * scale + scale)
                let i = r * cols + c
                if shown[i] == (top, bottom) { continue }
                shown[i] = (top, bottom)
                let atRow = row + r, atColumn = column + c
                if atRow != cursorRow || atColumn != cursorColumn { out += "\u{1B}[\(atRow);\(atColumn)H" }
                if top != fg { out += "\u{1B}[38;2;\(rgb(top))m"; fg = top }
                if bottom != bg { out += "\u{1B}[48;2;\(rgb(bottom))m"; bg = bottom }
                out += "▀"
                cursorRow = atRow; cursorColumn = atColumn + 1
            }
        }
        if !out.isEmpty { out += "\u{1B}[0m" }
        return out
    }

    /// The mean colour of the scale×scale block at (x, y) as 0xRRGGBB (black outside the canvas).
    func average(_ canvas: Canvas, x: Int, y: Int) -> Int32 {
        if scale == 1 {
            guard let p = canvas.pixel(x: x, y: y) else { return 0 }
            return Int32(p.r8) << 16 | Int32(p.g8) << 8 | Int32(p.b8)
        }
        var r = 0, g = 0, b = 0, n = 0
        for yy in y..<(y + scale) {
            for xx in x..<(x + scale) {
                guard let p = canvas.pixel(x: xx, y: yy) else { continue }
                r += Int(p.r8); g += Int(p.g8); b += Int(p.b8); n += 1
            }
        }
        guard n > 0 else { return 0 }
        return Int32((r + n / 2) / n) << 16 | Int32((g + n / 2) / n) << 8 | Int32((b + n / 2) / n)
    }

    func rgb(_ v: Int32) -> String { "\((v >> 16) & 0xFF);\((v >> 8) & 0xFF);\(v & 0xFF)" }
}
