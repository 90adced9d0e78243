import PetUI

// ST7789.swift — a Sitronix ST7789(V) colour TFT over 4-wire SPI: D/C low for a command byte,
// high for its parameters and pixel data; RST for a hardware reset; a backlight enable line.
// The controller has a 240 × 320 frame memory; a smaller glass (240 × 240) shows part of it, so
// the window is offset depending on how MADCTL mirrors the address counters. docs/panels.md.

/// The ST7789 commands the driver sends (datasheet §9.1).
public enum ST7789Command {
    public static let swreset: UInt8 = 0x01   // software reset (wait 5 ms; 120 ms before SLPOUT)
    public static let slpout: UInt8 = 0x11    // sleep out (wait 5 ms before the next command)
    public static let noron: UInt8 = 0x13     // normal display mode on (no partial area)
    public static let invoff: UInt8 = 0x20    // display inversion off
    public static let invon: UInt8 = 0x21     // display inversion on (IPS glass needs it)
    public static let dispoff: UInt8 = 0x28   // display off
    public static let dispon: UInt8 = 0x29    // display on
    public static let caset: UInt8 = 0x2A     // column address set: XS (2 bytes), XE (2 bytes), inclusive
    public static let raset: UInt8 = 0x2B     // row address set: YS, YE
    public static let ramwr: UInt8 = 0x2C     // memory write: pixel data follows
    public static let madctl: UInt8 = 0x36    // memory data access control: MY MX MV ML RGB MH
    public static let colmod: UInt8 = 0x3A    // interface pixel format: 0x55 = 65k colours, 16 bits a pixel

    public static let madctlMY: UInt8 = 0x80  // row address order reversed
    public static let madctlMX: UInt8 = 0x40  // column address order reversed
    public static let madctlMV: UInt8 = 0x20  // row/column exchange
    public static let madctlBGR: UInt8 = 0x08 // BGR colour filter order
}

/// Driver of an ST7789 panel. The UI's frame is `width` × `height`; `rotation` is how far the
/// panel is mounted clockwise, so the controller draws the UI that far counter-clockwise on the
/// glass (MADCTL does it: no pixel is moved in software).
public final class ST7789: Panel {
    public struct Config: Sendable, Equatable {
        /// The UI frame's size (after rotation).
        public var width: Int
        public var height: Int
        /// 0, 90, 180 or 270: degrees the panel is mounted clockwise.
        public var rotation: Int
        /// Where the glass sits in the 240 × 320 frame memory, unmirrored (columns, rows). 0, 0 for
        /// the common 240 × 240 and 240 × 320 modules; the driver derives the window offset of each
        /// rotation from it (a 240 × 240 glass needs 80 rows of offset at 90° and 180°).
        public var glassColumn: Int
        public var glassRow: Int
        /// INVON at start (IPS panels show inverted colours without it).
        public var inverted: Bool
        /// BGR colour filter order (MADCTL bit 3).
        public var bgr: Bool

        public init(width: Int, height: Int, rotation: Int = 0, glassColumn: Int = 0, glassRow: Int = 0,
                    inverted: Bool = true, bgr: Bool = false) {
            self.width = width; self.height = height; self.rotation = rotation
            self.glassColumn = glassColumn; self.glassRow = glassRow; self.inverted = inverted; self.bgr = bgr
        }

        /// The glass's size in the controller's native orientation (columns, rows).
        public var glassWidth: Int { rotation % 180 == 0 ? width : height }
        public var glassHeight: Int { rotation % 180 == 0 ? height : width }

        /// MADCTL for the rotation: the UI drawn `rotation` degrees counter-clockwise.
        public var madctl: UInt8 {
            let m: UInt8
            switch rotation {
            case 90: m = ST7789Command.madctlMV | ST7789Command.madctlMY
            case 180: m = ST7789Command.madctlMX | ST7789Command.madctlMY
            case 270: m = ST7789Command.madctlMV | ST7789Command.madctlMX
            default: m = 0
            }
            return bgr ? m | ST7789Command.madctlBGR : m
        }

        /// The offset added to the UI's x and y in CASET/RASET: where the glass starts in the
        /// address space MADCTL gives the host.
        public var windowOffset: (x: Int, y: Int) {
            let w = glassWidth, h = glassHeight
            switch rotation {
            case 90: return (ST7789.ramRows - glassRow - h, glassColumn)
            case 180: return (ST7789.ramColumns - glassColumn - w, ST7789.ramRows - glassRow - h)
            case 270: return (glassRow, ST7789.ramColumns - glassColumn - w)
            default: return (glassColumn, glassRow)
            }
        }

        /// A problem with the configuration, or nil.
        public var problem: String? {
            guard [0, 90, 180, 270].contains(rotation) else { return "rotation \(rotation) is not 0, 90, 180 or 270" }
            guard width > 0, height > 0 else { return "size \(width)x\(height) is empty" }
            guard glassColumn >= 0, glassRow >= 0, glassColumn + glassWidth <= ST7789.ramColumns,
                  glassRow + glassHeight <= ST7789.ramRows else {
                return "a \(glassWidth)x\(glassHeight) glass at column \(glassColumn), row \(glassRow) does not fit the 240x320 frame memory"
            }
            return nil
        }
    }

    /// The frame memory: 240 columns × 320 rows.
    public static let ramColumns = 240
    public static let ramRows = 320

    public let config: Config
    public var format: PixelFormat { .rgb565 }
    public var width: Int { config.width }
    public var height: Int { config.height }
    public var rotation: Int { config.rotation }
    public var isEPaper: Bool { false }

    let port: SPICommandPort
    let reset: OutputLine?
    let backlight: OutputLine?
    let delay: Delay
    /// Whether the init sequence ran (false again after a failed write: the next frame re-inits).
    public private(set) var started = false
    private var displayOn = false
    private var brightness = 100

    public init(bus: SPIBus, dc: OutputLine, reset: OutputLine?, backlight: OutputLine?, delay: Delay,
                config: Config) throws(HardwareError) {
        if let p = config.problem { throw HardwareError(.unsupported, device: "st7789", operation: "configure", reason: p) }
        self.port = SPICommandPort(bus: bus, dc: dc); self.reset = reset; self.backlight = backlight; self.delay = delay
        self.config = config
    }

    /// Hardware reset (if wired), then the init sequence; the display is on afterwards.
    public func start() throws(HardwareError) {
        started = false
        port.forgetLevel()
        if let reset {
            try reset.set(true); delay.sleep(ms: 5)
            try reset.set(false); delay.sleep(ms: 1)       // ≥ 10 µs low
            try reset.set(true); delay.sleep(ms: 120)      // reset done
        }
        try command(ST7789Command.swreset); delay.sleep(ms: 150)
        try command(ST7789Command.slpout); delay.sleep(ms: 10)
        try command(ST7789Command.colmod, [0x55])
        try command(ST7789Command.madctl, [config.madctl])
        try command(config.inverted ? ST7789Command.invon : ST7789Command.invoff)
        try command(ST7789Command.noron); delay.sleep(ms: 10)
        try command(ST7789Command.dispon); delay.sleep(ms: 10)
        displayOn = true
        started = true
        if backlight == nil && brightness == 0 { try command(ST7789Command.dispoff); displayOn = false }
    }

    public func flush(_ frame: PanelFrame) throws(HardwareError) {
        do {
            if !started { try start() }
            for r in frame.rects where !r.area.isEmpty { try write(r) }
        } catch {
            started = false
            throw error
        }
    }

    /// One rectangle: CASET and RASET to its window, RAMWR, then its pixels (already big-endian
    /// RGB565 in the UI's row order; MADCTL turns them), in transfers the bus can take.
    func write(_ r: PackedRect) throws(HardwareError) {
        let off = config.windowOffset
        let x0 = r.area.x + off.x, x1 = r.area.maxX - 1 + off.x
        let y0 = r.area.y + off.y, y1 = r.area.maxY - 1 + off.y
        try command(ST7789Command.caset, Self.be16(x0) + Self.be16(x1))
        try command(ST7789Command.raset, Self.be16(y0) + Self.be16(y1))
        try command(ST7789Command.ramwr)
        try port.data(r.bytes)
    }

    public func setBrightness(_ percent: Int) throws(HardwareError) {
        brightness = max(0, min(100, percent))
        if let backlight {
            try backlight.set(brightness > 0)
        } else if started {
            // No backlight line: the display itself goes off (ST7789 keeps its memory).
            if brightness == 0 && displayOn { try command(ST7789Command.dispoff); displayOn = false }
            if brightness > 0 && !displayOn { try command(ST7789Command.dispon); displayOn = true }
        }
    }

    // MARK: - Bytes

    static func be16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }

    func command(_ c: UInt8, _ params: [UInt8] = []) throws(HardwareError) { try port.command(c, params) }
}
