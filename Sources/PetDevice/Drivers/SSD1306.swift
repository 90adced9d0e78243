import PetUI

// SSD1306.swift — a Solomon SSD1306 128 × 64 (or 128 × 32) OLED over I2C. Every message starts
// with a control byte: 0x00 = the rest are commands, 0x40 = the rest are display data (GDDRAM).
// Memory is 8 pages of 8 rows; in horizontal addressing mode a column/page window (0x21/0x22) is
// filled page by page, one byte a column, bit 0 the page's top row. docs/panels.md.

/// The SSD1306 commands the driver sends (datasheet §9, §10).
public enum SSD1306Command {
    public static let controlCommands: UInt8 = 0x00  // control byte: Co=0, D/C#=0
    public static let controlData: UInt8 = 0x40      // control byte: Co=0, D/C#=1
    public static let memoryMode: UInt8 = 0x20       // + 0x00 horizontal, 0x01 vertical, 0x02 page
    public static let columnAddress: UInt8 = 0x21    // + start, end (0...127)
    public static let pageAddress: UInt8 = 0x22      // + start, end (0...7)
    public static let startLine: UInt8 = 0x40        // | line (0...63)
    public static let contrast: UInt8 = 0x81         // + 1...255
    public static let chargePump: UInt8 = 0x8D       // + 0x14 on, 0x10 off
    public static let segmentRemapOff: UInt8 = 0xA0  // column 0 → SEG0
    public static let segmentRemapOn: UInt8 = 0xA1   // column 127 → SEG0
    public static let resumeRAM: UInt8 = 0xA4        // show the RAM (0xA5: all on)
    public static let normal: UInt8 = 0xA6           // 1 = lit (0xA7: inverse)
    public static let multiplex: UInt8 = 0xA8        // + rows - 1
    public static let displayOff: UInt8 = 0xAE
    public static let displayOn: UInt8 = 0xAF
    public static let comScanUp: UInt8 = 0xC0        // COM0 → COM[N-1]
    public static let comScanDown: UInt8 = 0xC8      // COM[N-1] → COM0
    public static let displayOffset: UInt8 = 0xD3    // + 0...63
    public static let clockDivide: UInt8 = 0xD5      // + 0x80 (reset value: ratio 1, oscillator 8)
    public static let precharge: UInt8 = 0xD9        // + 0xF1 with the internal charge pump
    public static let comPins: UInt8 = 0xDA          // + 0x12 alternative (64 rows), 0x02 sequential (32 rows)
    public static let vcomDeselect: UInt8 = 0xDB     // + 0x40
}

/// Driver of an SSD1306 OLED on I2C (address 0x3C, or 0x3D with SA0 high). `rotation` 0 or 180
/// (segment remap and COM scan direction; the panel cannot turn by 90°).
public final class SSD1306: Panel {
    public var format: PixelFormat { .ssd1306Pages }
    public let width: Int
    public let height: Int
    public let rotation: Int
    public var isEPaper: Bool { false }
    public let address: UInt8
    /// Display bytes per I2C message (plus the control byte); also bounded by the bus.
    public let maxDataPerMessage: Int

    let bus: I2CBus
    public private(set) var started = false
    private var displayOn = false
    private var brightness = 100

    public init(bus: I2CBus, address: UInt8 = 0x3C, width: Int = 128, height: Int = 64, rotation: Int = 0,
                maxDataPerMessage: Int = 128) throws(HardwareError) {
        guard rotation == 0 || rotation == 180 else {
            throw HardwareError(.unsupported, device: "ssd1306", operation: "configure", reason: "rotation \(rotation): the SSD1306 turns only by 0 or 180")
        }
        guard width > 0, width <= 128, height == 64 || height == 32 else {
            throw HardwareError(.unsupported, device: "ssd1306", operation: "configure", reason: "size \(width)x\(height): 128x64 or 128x32 only")
        }
        self.bus = bus; self.address = address; self.width = width; self.height = height; self.rotation = rotation
        self.maxDataPerMessage = max(1, maxDataPerMessage)
    }

    /// The init sequence (one command message); the display stays off until the first frame is
    /// in its memory.
    public var initSequence: [UInt8] {
        typealias C = SSD1306Command
        return [C.displayOff,
                C.clockDivide, 0x80,
                C.multiplex, UInt8(height - 1),
                C.displayOffset, 0x00,
                C.startLine | 0,
                C.chargePump, 0x14,
                C.memoryMode, 0x00,
                rotation == 180 ? C.segmentRemapOff : C.segmentRemapOn,
                rotation == 180 ? C.comScanUp : C.comScanDown,
                C.comPins, height == 64 ? 0x12 : 0x02,
                C.contrast, contrastValue,
                C.precharge, 0xF1,
                C.vcomDeselect, 0x40,
                C.resumeRAM,
                C.normal]
    }

    /// Contrast for the brightness: 1...255 (0 % turns the display off instead).
    var contrastValue: UInt8 { UInt8(max(1, min(255, brightness * 255 / 100))) }

    public func start() throws(HardwareError) {
        started = false
        displayOn = false
        try commands(initSequence)
        started = true
    }

    public func flush(_ frame: PanelFrame) throws(HardwareError) {
        do {
            if !started { try start() }
            for r in frame.rects where !r.area.isEmpty { try write(r) }
            if !displayOn && brightness > 0 { try commands([SSD1306Command.displayOn]); displayOn = true }
        } catch {
            started = false
            throw error
        }
    }

    /// One rectangle (whole pages): the column and page window, then its bytes in data messages.
    func write(_ r: PackedRect) throws(HardwareError) {
        let p0 = r.area.y / 8, p1 = (r.area.maxY + 7) / 8 - 1
        try commands([SSD1306Command.columnAddress, UInt8(r.area.x), UInt8(r.area.maxX - 1),
                      SSD1306Command.pageAddress, UInt8(p0), UInt8(p1)])
        let chunk = max(1, min(maxDataPerMessage, bus.maxMessageSize - 1))
        var i = 0
        while i < r.bytes.count {
            let end = min(r.bytes.count, i + chunk)
            try bus.write(address: address, [SSD1306Command.controlData] + r.bytes[i..<end])
            i = end
        }
    }

    public func setBrightness(_ percent: Int) throws(HardwareError) {
        brightness = max(0, min(100, percent))
        guard started else { return }
        if brightness == 0 {
            if displayOn { try commands([SSD1306Command.displayOff]); displayOn = false }
        } else {
            try commands([SSD1306Command.contrast, contrastValue] + (displayOn ? [] : [SSD1306Command.displayOn]))
            displayOn = true
        }
    }

    /// A command message: control byte 0x00, then command bytes with their parameters.
    func commands(_ bytes: [UInt8]) throws(HardwareError) {
        try bus.write(address: address, [SSD1306Command.controlCommands] + bytes)
    }
}
