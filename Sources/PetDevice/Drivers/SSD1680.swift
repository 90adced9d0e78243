import PetUI

// SSD1680.swift — a Solomon SSD1680 e-paper controller as on Waveshare's 2.13" V4 (250 × 122
// glass, 1-bit) over 4-wire SPI with D/C, RST and BUSY. The controller's RAM is scanned in the
// glass's portrait orientation: 122 source pixels across (X, 8 to a byte, MSB leftmost, 16 bytes
// a row) and 250 gate lines down (Y); the UI's landscape frame is turned into it here. BUSY is
// high while the controller works; every command after a reset or a refresh waits for it to go
// low, for at most `busyTimeoutMs`. docs/panels.md.

/// The SSD1680 commands the driver sends (datasheet §7).
public enum SSD1680Command {
    public static let driverOutput: UInt8 = 0x01     // + MUX-1 low, MUX-1 high, GD/SM/TB
    public static let deepSleep: UInt8 = 0x10        // + 0x01
    public static let dataEntry: UInt8 = 0x11        // + ID[1:0] (bit 0: X increments, bit 1: Y increments), AM (bit 2: Y first)
    public static let swreset: UInt8 = 0x12          // software reset (BUSY high meanwhile)
    public static let temperatureSensor: UInt8 = 0x18 // + 0x80 internal sensor
    public static let masterActivation: UInt8 = 0x20 // run the display update sequence (BUSY high meanwhile)
    public static let updateControl1: UInt8 = 0x21   // + RAM options, source output mode
    public static let updateControl2: UInt8 = 0x22   // + the sequence: 0xF7 full (mode 1), 0xFF partial (mode 2)
    public static let writeBlackWhite: UInt8 = 0x24  // RAM for the new image (1 = white)
    public static let writeRed: UInt8 = 0x26         // RAM for the old image (the base partial refreshes compare with)
    public static let borderWaveform: UInt8 = 0x3C   // + 0x05 follow LUT (white), 0x80 VCOM (unchanged)
    public static let ramXRange: UInt8 = 0x44        // + start, end (in bytes)
    public static let ramYRange: UInt8 = 0x45        // + start low, start high, end low, end high (gate lines)
    public static let ramXCounter: UInt8 = 0x4E      // + x (bytes)
    public static let ramYCounter: UInt8 = 0x4F      // + y low, y high

    public static let sequenceFull: UInt8 = 0xF7
    public static let sequencePartial: UInt8 = 0xFF
}

/// Driver of an SSD1680 e-paper panel. `rotation` is 90 (Waveshare's orientation: the UI is drawn
/// turned 90° counter-clockwise into RAM, the UI's top row on RAM column 0) or 270.
public final class SSD1680: Panel {
    public var format: PixelFormat { .ssd1680Rows }
    public let width: Int
    public let height: Int
    public let rotation: Int
    public var isEPaper: Bool { true }
    /// The RAM's size in the glass's orientation: `height` source pixels × `width` gate lines.
    public var ramWidth: Int { height }
    public var ramHeight: Int { width }
    public var ramBytesPerRow: Int { (ramWidth + 7) / 8 }
    /// Longest wait for BUSY to go low (a full refresh takes 2–4 s).
    public let busyTimeoutMs: Int

    let port: SPICommandPort
    let reset: OutputLine
    let busy: InputLine
    let delay: Delay
    public let device: String
    public private(set) var started = false
    private var border: UInt8?

    public init(bus: SPIBus, dc: OutputLine, reset: OutputLine, busy: InputLine, delay: Delay,
                width: Int = 250, height: Int = 122, rotation: Int = 90, busyTimeoutMs: Int = 5000,
                device: String = "ssd1680") throws(HardwareError) {
        guard rotation == 90 || rotation == 270 else {
            throw HardwareError(.unsupported, device: device, operation: "configure",
                                reason: "rotation \(rotation): the SSD1680 RAM is portrait, a landscape UI is mounted at 90 or 270")
        }
        guard width > 0, width <= 296, height > 0, height <= 176 else {
            throw HardwareError(.unsupported, device: device, operation: "configure", reason: "size \(width)x\(height) does not fit the 176x296 RAM")
        }
        self.port = SPICommandPort(bus: bus, dc: dc); self.reset = reset; self.busy = busy; self.delay = delay
        self.width = width; self.height = height; self.rotation = rotation
        self.busyTimeoutMs = busyTimeoutMs; self.device = device
    }

    /// Hardware reset, software reset, then the panel's setup (Waveshare 2.13" V4 values).
    public func start() throws(HardwareError) {
        started = false
        port.forgetLevel()
        border = nil
        try reset.set(true); delay.sleep(ms: 20)
        try reset.set(false); delay.sleep(ms: 2)
        try reset.set(true); delay.sleep(ms: 20)
        try waitBusy("wait for BUSY after reset")
        try command(SSD1680Command.swreset)
        try waitBusy("wait for BUSY after SWRESET")
        let mux = ramHeight - 1
        try command(SSD1680Command.driverOutput, [UInt8(mux & 0xFF), UInt8(mux >> 8), 0x00])
        try command(SSD1680Command.dataEntry, [0x03])   // X then Y, both incrementing
        try setWindow(bx0: 0, bx1: ramBytesPerRow - 1, y0: 0, y1: ramHeight - 1)
        try setBorder(0x05)
        try command(SSD1680Command.updateControl1, [0x00, 0x80])
        try command(SSD1680Command.temperatureSensor, [0x80])
        try waitBusy("wait for BUSY after setup")
        started = true
    }

    public func flush(_ frame: PanelFrame) throws(HardwareError) {
        guard case .mono(let m) = frame.surface else {
            let picture = PanelSurface.mono(MonoCanvas(from: Self.canvas(of: frame.surface)))
            return try flush(PanelFrame(rects: frame.rects, surface: picture, refresh: frame.refresh))
        }
        do {
            let full = frame.refresh != .partial || !started
            if !started { try start() }
            if full {
                try setBorder(0x05)
                let all = RAMWindow(bx0: 0, bx1: ramBytesPerRow - 1, y0: 0, y1: ramHeight - 1)
                let bytes = ramBytes(m, all)
                try writeRAM(SSD1680Command.writeBlackWhite, all, bytes)
                try writeRAM(SSD1680Command.writeRed, all, bytes)
                try refresh(SSD1680Command.sequenceFull, "full refresh")
            } else {
                let area = frame.rects.reduce(nil as Rect?) { acc, r in acc.map { $0.union(r.area) } ?? r.area }
                guard let area, !area.isEmpty, let w = window(for: area) else { return }
                try setBorder(0x80)
                let bytes = ramBytes(m, w)
                try writeRAM(SSD1680Command.writeBlackWhite, w, bytes)
                try refresh(SSD1680Command.sequencePartial, "partial refresh")
                // The next partial refresh compares with this picture: the old-image RAM follows.
                try writeRAM(SSD1680Command.writeRed, w, bytes)
            }
        } catch {
            started = false
            throw error
        }
    }

    /// E-paper keeps its picture without power: brightness does nothing.
    public func setBrightness(_ percent: Int) throws(HardwareError) {}

    // MARK: - Windows and bytes

    /// A RAM window: bytes `bx0...bx1` across, gate lines `y0...y1` down (inclusive).
    public struct RAMWindow: Equatable, Sendable {
        public var bx0, bx1, y0, y1: Int
    }

    /// The RAM window covering a UI rectangle (its UI rows grown to whole RAM bytes).
    public func window(for r: Rect) -> RAMWindow? {
        guard let c = r.intersection(Rect(x: 0, y: 0, w: width, h: height)) else { return nil }
        let rx0: Int, rx1: Int, ry0: Int, ry1: Int
        if rotation == 90 {
            rx0 = c.y; rx1 = c.maxY - 1
            ry0 = ramHeight - c.maxX; ry1 = ramHeight - 1 - c.x
        } else {
            rx0 = ramWidth - c.maxY; rx1 = ramWidth - 1 - c.y
            ry0 = c.x; ry1 = c.maxX - 1
        }
        return RAMWindow(bx0: rx0 / 8, bx1: rx1 / 8, y0: ry0, y1: ry1)
    }

    /// The UI pixel shown at RAM (rx, ry).
    func uiPoint(rx: Int, ry: Int) -> (x: Int, y: Int) {
        rotation == 90 ? (ramHeight - 1 - ry, rx) : (ry, ramWidth - 1 - rx)
    }

    /// The window's bytes in RAM order (rows of gate lines, bytes across, MSB leftmost; 1 = white;
    /// the padding bits past the glass are white).
    public func ramBytes(_ m: MonoCanvas, _ w: RAMWindow) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((w.bx1 - w.bx0 + 1) * (w.y1 - w.y0 + 1))
        for ry in w.y0...w.y1 {
            for bx in w.bx0...w.bx1 {
                var b: UInt8 = 0xFF
                for k in 0..<8 {
                    let rx = bx * 8 + k
                    guard rx < ramWidth else { break }
                    let p = uiPoint(rx: rx, ry: ry)
                    if m.pixel(x: p.x, y: p.y) == .black { b &= ~(0x80 >> UInt8(k)) }
                }
                out.append(b)
            }
        }
        return out
    }

    static func canvas(of s: PanelSurface) -> Canvas {
        switch s { case .colour(let c): c; case .mono(let m): m.toCanvas() }
    }

    // MARK: - Bus traffic

    func setWindow(bx0: Int, bx1: Int, y0: Int, y1: Int) throws(HardwareError) {
        try command(SSD1680Command.ramXRange, [UInt8(bx0), UInt8(bx1)])
        try command(SSD1680Command.ramYRange, [UInt8(y0 & 0xFF), UInt8(y0 >> 8), UInt8(y1 & 0xFF), UInt8(y1 >> 8)])
        try command(SSD1680Command.ramXCounter, [UInt8(bx0)])
        try command(SSD1680Command.ramYCounter, [UInt8(y0 & 0xFF), UInt8(y0 >> 8)])
    }

    func writeRAM(_ ram: UInt8, _ w: RAMWindow, _ bytes: [UInt8]) throws(HardwareError) {
        try setWindow(bx0: w.bx0, bx1: w.bx1, y0: w.y0, y1: w.y1)
        try command(ram)
        try port.data(bytes)
    }

    func refresh(_ sequence: UInt8, _ what: String) throws(HardwareError) {
        try command(SSD1680Command.updateControl2, [sequence])
        try command(SSD1680Command.masterActivation)
        try waitBusy("wait for BUSY after the \(what)")
    }

    func setBorder(_ value: UInt8) throws(HardwareError) {
        guard border != value else { return }
        try command(SSD1680Command.borderWaveform, [value])
        border = value
    }

    func waitBusy(_ operation: String) throws(HardwareError) {
        try busy.waitWhileHigh(timeoutMs: busyTimeoutMs, pollMs: 5, delay: delay, device: device, operation: operation)
    }

    func command(_ c: UInt8, _ params: [UInt8] = []) throws(HardwareError) { try port.command(c, params) }
}
