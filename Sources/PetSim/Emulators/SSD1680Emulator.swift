import PetDevice
import PetUI

/// An SSD1680 e-paper controller (Waveshare 2.13" V4: 122 × 250 glass) on the other end of the SPI
/// bus, with D/C and RST lines and a BUSY output. It keeps both RAMs (0x24 new image, 0x26 old
/// image, 176 × 296 bits each), the RAM windows and address counters moved by the data entry mode,
/// and the glass: a full refresh (0x22 0xF7, then 0x20) shows the new RAM everywhere; a partial
/// one (0x22 0xFF) drives only the pixels where the new RAM differs from the old, as display mode
/// 2 does, so a driver that lets the old RAM fall behind gets a wrong picture. BUSY is high for a
/// simulated time after a reset, SWRESET and an activation (or for ever with `stuckBusy`), and
/// any command sent while it is high is a violation.
public final class SSD1680Emulator: SPIBus {
    public let maxTransferSize: Int
    public let dc = EmulatedLine("D/C")
    public let reset = EmulatedLine("RST")
    public private(set) lazy var busy: EmulatedInput = EmulatedInput { [unowned self] in self.isBusy }
    let delay: VirtualDelay
    public let glassWidth: Int, glassHeight: Int, mountRotation: Int
    public let fullRefreshMs: Int, partialRefreshMs: Int
    /// BUSY never goes low (an unplugged HAT reads high through the pull-up).
    public var stuckBusy = false

    public static let ramBytesPerRow = 22, ramRows = 296
    public private(set) var bw: [UInt8]
    public private(set) var red: [UInt8]
    public private(set) var dataEntry: UInt8 = 0x03
    public private(set) var xStart = 0, xEnd = 21, yStart = 0, yEnd = 295
    public private(set) var x = 0, y = 0
    public private(set) var gates = 296
    public private(set) var border: UInt8 = 0xC0
    public private(set) var updateSequence: UInt8 = 0xFF
    /// The glass, 122 × 250 in the RAM's orientation; 1 = white.
    public private(set) var glass: MonoCanvas
    public private(set) var fullRefreshes = 0
    public private(set) var partialRefreshes = 0

    public private(set) var log: [CommandLogEntry] = []
    public private(set) var violations: [String] = []
    public private(set) var transfers = 0
    public private(set) var bytes = 0
    public private(set) var largestTransfer = 0

    private var busyUntil: UInt64 = 0
    private var current: UInt8?
    private var params: [UInt8] = []
    private var resetLowAt: UInt64?

    public init(delay: VirtualDelay, glassWidth: Int = 122, glassHeight: Int = 250, mountRotation: Int = 90,
                fullRefreshMs: Int = 2000, partialRefreshMs: Int = 400, maxTransferSize: Int = 4096) {
        self.delay = delay
        self.glassWidth = glassWidth; self.glassHeight = glassHeight; self.mountRotation = mountRotation
        self.fullRefreshMs = fullRefreshMs; self.partialRefreshMs = partialRefreshMs
        self.maxTransferSize = maxTransferSize
        var s: UInt32 = 0xE9A9E5
        bw = (0..<(Self.ramBytesPerRow * Self.ramRows)).map { _ in s = s &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: s >> 19) }
        red = bw.reversed()
        // An old picture left on the glass: stripes.
        glass = MonoCanvas(width: glassWidth, height: glassHeight)
        for gy in stride(from: 0, to: glassHeight, by: 4) { glass.fillRect(x: 0, y: gy, w: glassWidth, h: 2, .black) }
        glass.clearDirty()
        reset.onChange = { [unowned self] old, new in self.resetLine(old: old, new: new) }
    }

    public var isBusy: Bool { stuckBusy || delay.monotonicNs < busyUntil }

    func violation(_ s: String) { if violations.count < 100 { violations.append(s) } }

    func busyFor(ms: Int) { busyUntil = delay.monotonicNs + UInt64(ms) * 1_000_000 }

    func resetLine(old: Bool?, new: Bool) {
        if !new { resetLowAt = delay.monotonicNs; return }
        guard old == false, let low = resetLowAt else { return }
        if delay.monotonicNs - low < 1_000_000 { violation("RST low for less than 1 ms") }
        registersToDefault()
        busyFor(ms: 10)
    }

    func registersToDefault() {
        dataEntry = 0x03; xStart = 0; xEnd = 21; yStart = 0; yEnd = 295; x = 0; y = 0
        gates = 296; border = 0xC0; updateSequence = 0xFF; current = nil; params = []
    }

    // MARK: SPIBus

    public func write(_ data: UnsafeRawBufferPointer) throws(HardwareError) {
        transfers += 1
        bytes += data.count
        largestTransfer = max(largestTransfer, data.count)
        if data.count > maxTransferSize { violation("a transfer of \(data.count) bytes: the bus takes \(maxTransferSize)") }
        guard let isData = dc.level else { violation("a transfer before D/C was driven"); return }
        if reset.level == false { violation("a transfer while RST is low"); return }
        if isBusy { violation("\(isData ? "data" : "command \(hex(data.first ?? 0))") sent while BUSY was high") }
        if isData { for b in data { dataByte(b) } } else { for b in data { commandByte(b) } }
    }

    func commandByte(_ c: UInt8) {
        current = c
        params = []
        log.append(CommandLogEntry(c))
        switch c {
        case SSD1680Command.swreset: registersToDefault(); busyFor(ms: 10)
        case SSD1680Command.masterActivation: activate()
        case SSD1680Command.writeBlackWhite, SSD1680Command.writeRed: break
        default: break
        }
    }

    func dataByte(_ b: UInt8) {
        guard let c = current else { violation("data \(hex(b)) with no command"); return }
        if c == SSD1680Command.writeBlackWhite || c == SSD1680Command.writeRed {
            log[log.count - 1].dataBytes += 1
            ramByte(b, red: c == SSD1680Command.writeRed)
            return
        }
        params.append(b)
        if log[log.count - 1].params.count < 32 { log[log.count - 1].params.append(b) }
        let p = params
        switch (c, p.count) {
        case (SSD1680Command.driverOutput, 3):
            gates = (Int(p[0]) | Int(p[1] & 1) << 8) + 1
            if gates != glassHeight { violation("\(gates) gate lines set; the glass has \(glassHeight)") }
            if p[2] != 0 { violation("driver output control scanning bits \(hex(p[2])): the emulator models 0x00 only") }
        case (SSD1680Command.dataEntry, 1): dataEntry = p[0] & 0x07
        case (SSD1680Command.ramXRange, 2): xStart = Int(p[0] & 0x3F); xEnd = Int(p[1] & 0x3F)
        case (SSD1680Command.ramYRange, 4):
            yStart = Int(p[0]) | Int(p[1] & 1) << 8; yEnd = Int(p[2]) | Int(p[3] & 1) << 8
        case (SSD1680Command.ramXCounter, 1): x = Int(p[0] & 0x3F)
        case (SSD1680Command.ramYCounter, 2): y = Int(p[0]) | Int(p[1] & 1) << 8
        case (SSD1680Command.borderWaveform, 1): border = p[0]
        case (SSD1680Command.updateControl2, 1): updateSequence = p[0]
        default: break
        }
    }

    /// One byte at the address counter, then the counter moves as the data entry mode says,
    /// wrapping inside the window.
    func ramByte(_ b: UInt8, red toRed: Bool) {
        if x >= 0, x < Self.ramBytesPerRow, y >= 0, y < Self.ramRows {
            if toRed { red[y * Self.ramBytesPerRow + x] = b } else { bw[y * Self.ramBytesPerRow + x] = b }
        } else {
            violation("RAM write outside the memory at byte \(x), line \(y)")
        }
        let xInc = dataEntry & 1 != 0, yInc = dataEntry & 2 != 0, yFirst = dataEntry & 4 != 0
        let (x0, x1) = (min(xStart, xEnd), max(xStart, xEnd)), (y0, y1) = (min(yStart, yEnd), max(yStart, yEnd))
        func stepX() -> Bool { x += xInc ? 1 : -1; if x > x1 || x < x0 { x = xInc ? x0 : x1; return true }; return false }
        func stepY() -> Bool { y += yInc ? 1 : -1; if y > y1 || y < y0 { y = yInc ? y0 : y1; return true }; return false }
        if yFirst { if stepY() { _ = stepX() } } else { if stepX() { _ = stepY() } }
    }

    func ramPixel(_ ram: [UInt8], _ gx: Int, _ gy: Int) -> Bool {
        ram[gy * Self.ramBytesPerRow + gx / 8] & (0x80 >> UInt8(gx % 8)) != 0
    }

    /// Master activation: runs the update sequence of 0x22.
    func activate() {
        let s = updateSequence
        guard s & 0x04 != 0 else { busyFor(ms: 50); return }   // no "display" bit: nothing on the glass
        let mode2 = s & 0x08 != 0
        for gy in 0..<glassHeight {
            for gx in 0..<glassWidth {
                let new = ramPixel(bw, gx, gy)
                if mode2 && new == ramPixel(red, gx, gy) { continue }  // old == new: not driven
                glass.setPixel(x: gx, y: gy, new ? .white : .black)
            }
        }
        glass.clearDirty()
        if mode2 { partialRefreshes += 1; busyFor(ms: partialRefreshMs) } else { fullRefreshes += 1; busyFor(ms: fullRefreshMs) }
    }

    /// What a viewer of the mounted panel sees (the UI's orientation).
    public var picture: MonoCanvas { Turn.clockwise(glass, mountRotation) }

    public func clearLog() { log = []; transfers = 0; bytes = 0; largestTransfer = 0 }
}
