import PetDevice
import PetUI

/// An ST7789 on the other end of the SPI bus: it reads D/C at each transfer (low: command bytes,
/// high: parameters or pixel data), keeps the 240 × 320 frame memory, MADCTL, COLMOD, inversion,
/// the CASET/RASET window and the RAMWR address counter as the datasheet describes them, and
/// shows the part of the memory behind the glass. It checks the timing rules of reset, SWRESET
/// and SLPOUT on the driver's virtual clock and records every breach in `violations`.
public final class ST7789Emulator: SPIBus {
    public let maxTransferSize: Int
    public let dc = EmulatedLine("D/C")
    public let reset = EmulatedLine("RST")
    public let backlight = EmulatedLine("BL")
    let delay: VirtualDelay
    /// Where the glass is in the frame memory (native orientation), its size, how it is mounted.
    public let glassColumn: Int, glassRow: Int, glassWidth: Int, glassHeight: Int, mountRotation: Int
    /// IPS glass: shows true colours only with INVON.
    public let ipsGlass: Bool

    public private(set) var ram: [UInt16]
    public private(set) var madctl: UInt8 = 0
    public private(set) var colmod: UInt8 = 0x66
    public private(set) var inversionOn = false
    public private(set) var sleeping = true
    public private(set) var displayOn = false
    public private(set) var normalMode = true
    public private(set) var xs = 0, xe = 239, ys = 0, ye = 319

    /// Commands with their parameters; RAMWR entries count their pixel bytes.
    public private(set) var log: [CommandLogEntry] = []
    public private(set) var violations: [String] = []
    public private(set) var transfers = 0
    public private(set) var bytes = 0
    public private(set) var largestTransfer = 0
    public private(set) var pixelsWritten = 0

    private var current: UInt8?
    private var params: [UInt8] = []
    private var px = 0, py = 0, pending: UInt8?, overrun = false
    private var resetLowAt: UInt64?
    private var readyAt: UInt64 = 0          // no command before this (reset / SWRESET / SLPOUT)
    private var slpoutAllowedAt: UInt64 = 0   // SLPOUT not before 120 ms after a reset

    public init(delay: VirtualDelay, glassWidth: Int = 240, glassHeight: Int = 240, glassColumn: Int = 0, glassRow: Int = 0,
                mountRotation: Int = 0, ipsGlass: Bool = true, maxTransferSize: Int = 4096) {
        self.delay = delay
        self.glassWidth = glassWidth; self.glassHeight = glassHeight
        self.glassColumn = glassColumn; self.glassRow = glassRow
        self.mountRotation = mountRotation; self.ipsGlass = ipsGlass
        self.maxTransferSize = maxTransferSize
        ram = Self.garbage()
        reset.onChange = { [unowned self] old, new in self.resetLine(old: old, new: new) }
    }

    /// Power-on memory content: a fixed pseudo-random pattern, so unwritten pixels show.
    static func garbage() -> [UInt16] {
        var s: UInt32 = 0x1234_5678
        return (0..<(240 * 320)).map { _ in s = s &* 1_664_525 &+ 1_013_904_223; return UInt16(truncatingIfNeeded: s >> 13) }
    }

    func violation(_ s: String) { if violations.count < 100 { violations.append(s) } }

    func resetLine(old: Bool?, new: Bool) {
        let now = delay.monotonicNs
        if !new { resetLowAt = now; return }
        guard old == false, let low = resetLowAt else { return }
        if now - low < 10_000 { violation("RST low for \(now - low) ns: needs 10 µs") }
        registersToDefault()
        readyAt = now + 5_000_000
        slpoutAllowedAt = now + 120_000_000
    }

    func registersToDefault() {
        madctl = 0; colmod = 0x66; inversionOn = false; sleeping = true; displayOn = false; normalMode = true
        xs = 0; xe = 239; ys = 0; ye = 319; current = nil; params = []; pending = nil
    }

    // MARK: SPIBus

    public func write(_ data: UnsafeRawBufferPointer) throws(HardwareError) {
        transfers += 1
        bytes += data.count
        largestTransfer = max(largestTransfer, data.count)
        if data.count > maxTransferSize { violation("a transfer of \(data.count) bytes: the bus takes \(maxTransferSize)") }
        guard let isData = dc.level else { violation("a transfer before D/C was driven"); return }
        if reset.level == false { violation("a transfer while RST is low"); return }
        if isData { for b in data { dataByte(b) } } else { for b in data { commandByte(b) } }
    }

    func commandByte(_ c: UInt8) {
        let now = delay.monotonicNs
        if now < readyAt { violation("command \(hex(c)) \((readyAt - now) / 1000) µs too early after a reset/SWRESET/SLPOUT") }
        current = c
        params = []
        pending = nil
        log.append(CommandLogEntry(c))
        switch c {
        case ST7789Command.swreset:
            registersToDefault(); current = c
            readyAt = now + 5_000_000; slpoutAllowedAt = now + 120_000_000
        case ST7789Command.slpout:
            if now < slpoutAllowedAt { violation("SLPOUT \((slpoutAllowedAt - now) / 1_000_000) ms too early after a reset") }
            sleeping = false; readyAt = now + 5_000_000
        case 0x10: sleeping = true; readyAt = now + 5_000_000
        case ST7789Command.noron: normalMode = true
        case ST7789Command.invoff: inversionOn = false
        case ST7789Command.invon: inversionOn = true
        case ST7789Command.dispoff: displayOn = false
        case ST7789Command.dispon: displayOn = true
        case ST7789Command.ramwr:
            px = xs; py = ys; overrun = false
            checkWindow()
            if colmod & 0x07 != 0x05 { violation("RAMWR with COLMOD \(hex(colmod)): the driver sends 16-bit pixels (0x55)") }
            if xs > xe || ys > ye { violation("RAMWR into an empty window \(xs)...\(xe) × \(ys)...\(ye)") }
        case 0x00: break
        default: break
        }
    }

    func dataByte(_ b: UInt8) {
        guard let c = current else { violation("data \(hex(b)) with no command"); return }
        if c == ST7789Command.ramwr || c == 0x3C {
            log[log.count - 1].dataBytes += 1
            if let hi = pending { pending = nil; pixel(UInt16(hi) << 8 | UInt16(b)) } else { pending = b }
            return
        }
        params.append(b)
        if log[log.count - 1].params.count < 32 { log[log.count - 1].params.append(b) }
        let p = params
        switch (c, p.count) {
        case (ST7789Command.caset, 4):
            xs = Int(p[0]) << 8 | Int(p[1]); xe = Int(p[2]) << 8 | Int(p[3])
        case (ST7789Command.raset, 4):
            ys = Int(p[0]) << 8 | Int(p[1]); ye = Int(p[2]) << 8 | Int(p[3])
        case (ST7789Command.madctl, 1): madctl = p[0]
        case (ST7789Command.colmod, 1): colmod = p[0]
        default:
            if [ST7789Command.caset, ST7789Command.raset].contains(c) && p.count > 4 { violation("\(hex(c)) with \(p.count) parameters") }
        }
    }

    var mv: Bool { madctl & ST7789Command.madctlMV != 0 }
    /// The host's address limits under the current MADCTL.
    var limits: (x: Int, y: Int) { mv ? (319, 239) : (239, 319) }

    func checkWindow() {
        let l = limits
        if xe > l.x || ye > l.y { violation("window \(xs)...\(xe) × \(ys)...\(ye) beyond the memory (\(l.x), \(l.y)) with MADCTL \(hex(madctl))") }
    }

    /// One pixel at the address counter, then the counter moves (column first, wrapping in the window).
    func pixel(_ v: UInt16) {
        if overrun { violation("more pixels than the window \(xs)...\(xe) × \(ys)...\(ye) holds"); overrun = false; py = ys }
        var c = mv ? py : px, r = mv ? px : py
        if madctl & ST7789Command.madctlMX != 0 { c = 239 - c }
        if madctl & ST7789Command.madctlMY != 0 { r = 319 - r }
        if c >= 0, c < 240, r >= 0, r < 320 { ram[r * 240 + c] = v } else { violation("pixel outside the memory at \(c), \(r)") }
        pixelsWritten += 1
        px += 1
        if px > xe {
            px = xs; py += 1
            if py > ye { py = ys; overrun = true }
        }
    }

    // MARK: Pictures

    /// The glass in the controller's native orientation (colours as shown: an IPS glass without
    /// INVON shows them inverted).
    public var glass: Canvas {
        var out = Canvas(width: glassWidth, height: glassHeight)
        let flip: UInt16 = ipsGlass == inversionOn ? 0 : 0xFFFF
        for y in 0..<glassHeight {
            for x in 0..<glassWidth { out.pixels[y * glassWidth + x] = ram[(glassRow + y) * 240 + glassColumn + x] ^ flip }
        }
        return out
    }

    /// What a viewer of the mounted panel sees: the glass turned by the mounting (the UI's orientation).
    public var picture: Canvas { Turn.clockwise(glass, mountRotation) }

    /// The panel is lit and shows its memory: awake, display on, backlight on.
    public var showing: Bool { !sleeping && displayOn && backlight.level == true }

    /// Forgets the log and counters (not the memory or the registers).
    public func clearLog() { log = []; transfers = 0; bytes = 0; largestTransfer = 0; pixelsWritten = 0 }
}
