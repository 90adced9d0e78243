import PetDevice
import PetUI

/// An SSD1306 on the other end of the I2C bus: it answers at its address only, splits each
/// message by its control bytes (Co and D/C#: 0x00 commands, 0x40 data, 0x80/0xC0 one byte then
/// another control byte), runs the commands (addressing modes, column/page windows, remap, COM
/// scan, multiplex, charge pump, contrast, display on/off) and stores data in its 128 × 8-page
/// memory as the addressing mode moves the pointer. Configurations that would show a wrong
/// picture on a real module (rows interleaved, display lit without its charge pump) are recorded
/// in `violations`.
public final class SSD1306Emulator: I2CBus {
    public let address: UInt8
    public let maxMessageSize: Int
    public let width: Int
    public let height: Int
    /// How the module is mounted (0 or 180): the picture is the glass turned back by it.
    public let mountRotation: Int

    /// Display memory: 8 pages × 128 columns, one byte a column, bit 0 the page's top row.
    public private(set) var gddram: [UInt8]
    public private(set) var addressingMode: UInt8 = 0x02
    public private(set) var columnStart = 0, columnEnd = 127, pageStart = 0, pageEnd = 7
    public private(set) var column = 0, page = 0
    public private(set) var segmentRemap = false
    public private(set) var comScanDown = false
    public private(set) var multiplex = 63
    public private(set) var displayOffset = 0
    public private(set) var startLine = 0
    public private(set) var chargePump = false
    public private(set) var contrast: UInt8 = 0x7F
    public private(set) var displayOn = false
    public private(set) var inverse = false
    public private(set) var entireOn = false
    public private(set) var comPins: UInt8 = 0x12

    public private(set) var log: [CommandLogEntry] = []
    public private(set) var violations: [String] = []
    public private(set) var messages = 0
    public private(set) var bytes = 0
    public private(set) var largestMessage = 0
    public private(set) var dataBytes = 0

    private var pendingCommand: UInt8?
    private var pendingParams: [UInt8] = []

    public init(address: UInt8 = 0x3C, width: Int = 128, height: Int = 64, mountRotation: Int = 0, maxMessageSize: Int = 8192) {
        self.address = address; self.width = width; self.height = height
        self.mountRotation = mountRotation; self.maxMessageSize = maxMessageSize
        var s: UInt32 = 0xC0FFEE
        gddram = (0..<(128 * 8)).map { _ in s = s &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: s >> 17) }
    }

    func violation(_ s: String) { if violations.count < 100 { violations.append(s) } }

    // MARK: I2CBus

    public func write(address a: UInt8, _ data: UnsafeRawBufferPointer) throws(HardwareError) {
        guard a == address else {
            throw HardwareError(.notFound, device: "i2c emulator", operation: "write \(data.count) bytes to 0x\(hex(a))",
                                reason: "no ACK: nothing answers at 0x\(hex(a)) (the SSD1306 is at 0x\(hex(address)))")
        }
        messages += 1
        bytes += data.count
        largestMessage = max(largestMessage, data.count)
        if data.count > maxMessageSize { violation("a message of \(data.count) bytes: the bus takes \(maxMessageSize)") }
        var i = 0
        let b = Array(data)
        while i < b.count {
            let control = b[i]; i += 1
            let isData = control & 0x40 != 0
            if control & 0x3F != 0 { violation("control byte \(hex(control)): its low six bits must be 0") }
            if control & 0x80 != 0 {
                // Co = 1: one byte, then another control byte.
                guard i < b.count else { violation("control byte \(hex(control)) ends the message"); break }
                if isData { dataByte(b[i]) } else { commandByte(b[i]) }
                i += 1
            } else {
                // Co = 0: the rest of the message.
                for x in b[i...] { if isData { dataByte(x) } else { commandByte(x) } }
                i = b.count
            }
        }
        if b.count == 1 { violation("a message with a control byte and nothing after it") }
    }

    // MARK: Commands

    static func parameterCount(_ c: UInt8) -> Int {
        switch c {
        case 0x20, 0x81, 0x8D, 0xA8, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB: 1
        case 0x21, 0x22, 0xA3: 2
        case 0x29, 0x2A: 5
        case 0x26, 0x27: 6
        default: 0
        }
    }

    func commandByte(_ x: UInt8) {
        if let c = pendingCommand {
            pendingParams.append(x)
            log[log.count - 1].params.append(x)
            if pendingParams.count == Self.parameterCount(c) { run(c, pendingParams); pendingCommand = nil }
            return
        }
        log.append(CommandLogEntry(x))
        if Self.parameterCount(x) > 0 { pendingCommand = x; pendingParams = []; return }
        run(x, [])
    }

    func run(_ c: UInt8, _ p: [UInt8]) {
        switch c {
        case 0x00...0x0F: column = (column & 0xF0) | Int(c & 0x0F)
        case 0x10...0x1F: column = (column & 0x0F) | Int(c & 0x0F) << 4
        case 0x20:
            addressingMode = p[0] & 0x03
            if addressingMode == 0x03 { violation("memory addressing mode 3 is invalid") }
        case 0x21:
            columnStart = Int(p[0] & 0x7F); columnEnd = Int(p[1] & 0x7F); column = columnStart
            if columnStart > columnEnd { violation("column window \(columnStart)...\(columnEnd) is inverted") }
        case 0x22:
            pageStart = Int(p[0] & 0x07); pageEnd = Int(p[1] & 0x07); page = pageStart
            if pageStart > pageEnd { violation("page window \(pageStart)...\(pageEnd) is inverted") }
        case 0x2E, 0x2F, 0x26, 0x27, 0x29, 0x2A, 0xA3: break
        case 0x40...0x7F: startLine = Int(c & 0x3F)
        case 0x81: contrast = p[0]
        case 0x8D: chargePump = p[0] & 0x04 != 0
        case 0xA0: segmentRemap = false
        case 0xA1: segmentRemap = true
        case 0xA4: entireOn = false
        case 0xA5: entireOn = true
        case 0xA6: inverse = false
        case 0xA7: inverse = true
        case 0xA8:
            multiplex = Int(p[0] & 0x3F)
            if multiplex != height - 1 { violation("multiplex ratio \(multiplex + 1) on a \(height)-row panel") }
        case 0xAE: displayOn = false
        case 0xAF:
            displayOn = true
            if !chargePump { violation("display on without the charge pump (0x8D 0x14): the panel stays dark") }
            if height == 64 && comPins & 0x10 == 0 { violation("sequential COM pins (0xDA 0x02) on a 64-row panel: rows interleave") }
            if height == 32 && comPins & 0x10 != 0 { violation("alternative COM pins (0xDA 0x12) on a 32-row panel: every other row is blank") }
        case 0xB0...0xB7: page = Int(c & 0x07)
        case 0xC0: comScanDown = false
        case 0xC8: comScanDown = true
        case 0xD3: displayOffset = Int(p[0] & 0x3F)
        case 0xD5, 0xD9, 0xDB: break
        case 0xDA: comPins = p[0]
        case 0xE3: break
        default: violation("unknown command \(hex(c))")
        }
    }

    func dataByte(_ x: UInt8) {
        dataBytes += 1
        if !log.isEmpty { log[log.count - 1].dataBytes += 1 }
        gddram[page * 128 + column] = x
        switch addressingMode {
        case 0x00:  // horizontal: column, then page, wrapping in the window
            column += 1
            if column > columnEnd { column = columnStart; page += 1; if page > pageEnd { page = pageStart } }
        case 0x01:  // vertical: page, then column
            page += 1
            if page > pageEnd { page = pageStart; column += 1; if column > columnEnd { column = columnStart } }
        default:    // page mode: column only
            column += 1
            if column > 127 { column = 0 }
        }
    }

    // MARK: Pictures

    /// The memory's pixel at (column, row).
    public func ramPixel(column c: Int, row r: Int) -> Bool {
        gddram[(r / 8) * 128 + c] & (1 << UInt8(r % 8)) != 0
    }

    /// The glass as the module is usually held (SEG127 on the left, COM63 on top: the way
    /// segment remap 0xA1 and COM scan 0xC8 show the memory unturned); lit = white. Dark when
    /// the display is off or has no charge pump.
    public var glass: MonoCanvas {
        var m = MonoCanvas(width: width, height: height, background: .black)
        guard displayOn, chargePump else { return m }
        for y in 0..<height {
            let scan = comScanDown ? y : height - 1 - y
            let row = (scan + startLine + displayOffset) % 64
            for x in 0..<width {
                let col = segmentRemap ? x : 127 - x
                let lit = entireOn || (ramPixel(column: col, row: row) != inverse)
                if lit { m.setPixel(x: x, y: y, .white) }
            }
        }
        m.clearDirty()
        return m
    }

    /// What a viewer of the mounted module sees (the UI's orientation).
    public var picture: MonoCanvas { Turn.clockwise(glass, mountRotation) }

    public func clearLog() { log = []; messages = 0; bytes = 0; largestMessage = 0; dataBytes = 0 }
}
