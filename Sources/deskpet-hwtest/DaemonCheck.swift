#if canImport(Glibc)
import Glibc
#endif
import CLinux
import PetCore
import PetDevice
import PetSim
import PetStore
import PetUI
import PetLinux

// The checks of the daemon in the kernel-loop VM (tools/kernel-loop/guest-daemon.sh):
//   notify-listen PATH    the service manager's side of sd_notify: binds an AF_UNIX datagram socket
//                         at PATH and prints every line it receives (READY=1, STATUS=..., STOPPING=1)
//   guest-frame ...       what reached the panel (/dev/fb0's memory, or the SPI/I2C bytes the kloop
//                         buses recorded, decoded by the PetSim emulators) against what the daemon
//                         says it shows (its SIGUSR1 frame dump), pixel for pixel

/// `notify-listen PATH`: runs until killed.
func notifyListen(_ path: String) throws {
    let fd = socket(AF_UNIX, deskpet_sock_dgram(), 0)
    guard fd >= 0 else { throw UsageError(description: "socket: \(errnoText())") }
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { throw UsageError(description: "\(path): too long for a socket") }
    withUnsafeMutableBytes(of: &addr.sun_path) { p in for (i, b) in bytes.enumerated() { p[i] = b } }
    unlink(path)
    let r = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard r == 0 else { throw UsageError(description: "bind \(path): \(errnoText())") }
    printLine("listening on \(path)")
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = recv(fd, &buf, buf.count, 0)
        if n < 0 { if errno == EINTR { continue }; throw UsageError(description: "recv: \(errnoText())") }
        for line in String(decoding: buf[0..<n], as: UTF8.self).split(separator: "\n") { printLine(String(line)) }
    }
}

func sleepMs(_ ms: Int) {
    var ts = timespec(tv_sec: ms / 1000, tv_nsec: (ms % 1000) * 1_000_000)
    nanosleep(&ts, nil)
}

func monotonicMs() -> Double { Double(SystemClock().monotonicNs) / 1e6 }

/// A picture as a list of RGB565 values (mono: black 0x0000, white 0xFFFF), UI orientation.
struct Picture: Equatable {
    var width: Int, height: Int, pixels: [UInt16]
    init(width: Int, height: Int, pixels: [UInt16]) { self.width = width; self.height = height; self.pixels = pixels }
    init(_ c: Canvas) { self.init(width: c.width, height: c.height, pixels: c.pixels) }
    init(_ m: MonoCanvas) { self.init(m.toCanvas()) }

    /// How `self` (what the panel got) differs from `expected`: nil if equal.
    func difference(from expected: Picture) -> String? {
        guard width == expected.width, height == expected.height else {
            return "size \(width)x\(height), expected \(expected.width)x\(expected.height)"
        }
        var wrong = 0, first: [String] = []
        for i in 0..<pixels.count where pixels[i] != expected.pixels[i] {
            wrong += 1
            if first.count < 5 { first.append("(\(i % width),\(i / width)) \(hex16(pixels[i])) not \(hex16(expected.pixels[i]))") }
        }
        return wrong == 0 ? nil : "\(wrong) of \(pixels.count) pixels differ: \(first.joined(separator: ", "))"
    }

    var isUniform: UInt16? { pixels.allSatisfy { $0 == pixels.first } ? pixels.first : nil }
}

func hex16(_ v: UInt16) -> String {
    let s = String(v, radix: 16)
    return "0x" + String(repeating: "0", count: 4 - s.count) + s
}

struct DaemonFrameCheck {
    let board: Board
    /// /dev/fbN, or the kloop bus's debugfs log.
    let source: String
    var notes: [String] = []

    // MARK: What the daemon says it shows

    /// Asks the daemon for a dump and waits for a newer one than `after`.
    static func requestDump(pid: pid_t, data: String, after: Int, limitMs: Int = 20_000) throws -> FrameDump {
        guard kill(pid, SIGUSR1) == 0 else { throw UsageError(description: "kill -USR1 \(pid): \(errnoText())") }
        let end = monotonicMs() + Double(limitMs)
        while monotonicMs() < end {
            if let b = readFile(data + "/frame.dump", limit: 64 << 20), let d = FrameDump.parse(b), d.dump > after { return d }
            sleepMs(20)
        }
        throw UsageError(description: "no frame dump from pid \(pid) within \(limitMs) ms")
    }

    static func lastDump(data: String) -> Int {
        readFile(data + "/frame.dump", limit: 64 << 20).flatMap(FrameDump.parse)?.dump ?? 0
    }

    // MARK: What reached the panel

    mutating func observed() throws -> Picture {
        switch board.display.controller {
        case .fbdev: return try framebuffer()
        case .st7789: return try st7789()
        case .ssd1306: return try ssd1306()
        case .ssd1680: return try ssd1680()
        }
    }

    /// The framebuffer's memory, read with read(2), converted back with the bitfields the driver
    /// reports (FBIOGET_VSCREENINFO, read here from the raw 160-byte struct, not through PetLinux)
    /// and the stride sysfs reports. Only 5/6/5-bit fields (vfb's 16 bpp) are taken: each
    /// channel must come back exactly.
    mutating func framebuffer() throws -> Picture {
        let fd = open(source, O_RDONLY)
        guard fd >= 0 else { throw UsageError(description: "\(source): \(errnoText())") }
        defer { close(fd) }
        var v = [UInt8](repeating: 0, count: 160)
        guard ioctl(fd, 0x4600, &v) == 0 else { throw UsageError(description: "FBIOGET_VSCREENINFO: \(errnoText())") }
        func u32(_ o: Int) -> Int { Int(v[o]) | Int(v[o + 1]) << 8 | Int(v[o + 2]) << 16 | Int(v[o + 3]) << 24 }
        let w = u32(0), h = u32(4), bpp = u32(24)
        let red = (u32(32), u32(36)), green = (u32(44), u32(48)), blue = (u32(56), u32(60))
        let name = source.split(separator: "/").last.map(String.init) ?? "fb0"
        guard let strideText = readFile("/sys/class/graphics/\(name)/stride"),
              let stride = Int(String(decoding: strideText, as: UTF8.self).filter { $0.isNumber }) else {
            throw UsageError(description: "no /sys/class/graphics/\(name)/stride")
        }
        guard bpp == 16, red.1 == 5, green.1 == 6, blue.1 == 5 else {
            throw UsageError(description: "\(source): \(bpp) bpp, red \(red) green \(green) blue \(blue): this check reads 16-bit 5/6/5 only")
        }
        let note = "fb \(w)x\(h) \(bpp) bpp stride \(stride), red at bit \(red.0), green \(green.0), blue \(blue.0)"
        if !notes.contains(note) { notes.append(note) }
        var mem = [UInt8](repeating: 0, count: stride * h)
        var got = 0
        let total = mem.count
        while got < total {
            let n = mem.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, total - got, off_t(got)) }
            guard n > 0 else { throw UsageError(description: "\(source): read \(got) of \(total) bytes") }
            got += n
        }
        var px = [UInt16](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let o = y * stride + x * 2
                let value = Int(mem[o]) | Int(mem[o + 1]) << 8
                let r = (value >> red.0) & 0x1F, g = (value >> green.0) & 0x3F, b = (value >> blue.0) & 0x1F
                px[y * w + x] = UInt16(r << 11 | g << 5 | b)
            }
        }
        // The board's rotation turns the framebuffer back into the UI's orientation.
        let turned = Picture(width: w, height: h, pixels: px)
        return board.display.rotation == 0 ? turned : Picture(turn(turned.canvas, by: (360 - board.display.rotation) % 360))
    }

    /// One recorded transfer: its bytes and the levels of the watched lines (D/C, RST, BL).
    struct Transfer { var levels: [Bool?]; var bytes: [UInt8] }

    /// kloop-spi's log: `<msg> len=<n> speed=<hz> bpw=<b> gpio=<levels>: <hex>`; kloop-i2c's:
    /// `<xfer> addr=0x3c w len=<n>: <hex>` (levels empty).
    static func transfers(_ path: String) throws -> [Transfer] {
        guard let text = readFile(path, limit: 256 << 20) else {
            throw UsageError(description: "\(path): cannot read (\(errnoText())) — EOVERFLOW: the capture buffer is full")
        }
        var out: [Transfer] = []
        var i = 0
        let n = text.count
        func hexValue(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 97...102: c - 87
            default: nil
            }
        }
        while i < n {
            var end = i
            while end < n && text[end] != 10 { end += 1 }
            var colon = i
            while colon < end && text[colon] != 58 { colon += 1 }   // ':'
            var levels: [Bool?] = []
            if let g = findWord(text, "gpio=", from: i, to: colon) {
                var k = g
                while k < colon && text[k] != 32 { levels.append(text[k] == 49 ? true : text[k] == 48 ? false : nil); k += 1 }
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity((end - colon) / 3)
            var k = colon + 1
            while k + 2 < end + 1 {
                if text[k] == 32, k + 2 < end + 1, let hi = hexValue(text[k + 1]), let lo = hexValue(text[k + 2]) { bytes.append(hi << 4 | lo); k += 3 } else { k += 1 }
            }
            if colon < end { out.append(Transfer(levels: levels, bytes: bytes)) }
            i = end + 1
        }
        return out
    }

    static func findWord(_ t: [UInt8], _ w: String, from: Int, to: Int) -> Int? {
        let p = Array(w.utf8)
        var i = from
        while i + p.count <= to {
            if t[i] == p[0] && Array(t[i..<(i + p.count)]) == p { return i + p.count }
            i += 1
        }
        return nil
    }

    /// Feeds recorded SPI transfers with their D/C and RST levels (and BL) into an emulator's bus.
    /// The record has no times: the virtual clock moves `gapMs` between transfers, so the
    /// emulator's timing rules (reset, SLPOUT, BUSY) are not judged here (the driver tests do).
    func replaySPI(_ bus: SPIBus, dc: EmulatedLine, reset: EmulatedLine, backlight: EmulatedLine?, delay: VirtualDelay, gapMs: UInt64) throws -> Int {
        let list = try Self.transfers(source)
        for t in list {
            delay.sleep(ns: gapMs * 1_000_000)
            if t.levels.count > 0, let v = t.levels[0] { try dc.set(v) }
            if t.levels.count > 1, let v = t.levels[1] { try reset.set(v) }
            if t.levels.count > 2, let v = t.levels[2], let backlight { try backlight.set(v) }
            try withBytes(t.bytes) { b throws(HardwareError) in try bus.write(b) }
        }
        return list.count
    }

    mutating func st7789() throws -> Picture {
        let d = board.display
        let config = ST7789.Config(width: d.width, height: d.height, rotation: d.rotation, glassColumn: d.columnOffset, glassRow: d.rowOffset)
        let delay = VirtualDelay()
        let emu = ST7789Emulator(delay: delay, glassWidth: config.glassWidth, glassHeight: config.glassHeight,
                                 glassColumn: config.glassColumn, glassRow: config.glassRow, mountRotation: d.rotation,
                                 maxTransferSize: 1 << 20)
        let n = try replaySPI(emu, dc: emu.dc, reset: emu.reset, backlight: emu.backlight, delay: delay, gapMs: 200)
        notes.append("st7789: \(n) transfers, \(emu.bytes) bytes, \(emu.pixelsWritten) pixels written, display \(emu.displayOn ? "on" : "off"), \(emu.sleeping ? "asleep" : "awake"), backlight \(emu.backlight.level.map { $0 ? "on" : "off" } ?? "?") at the last transfer")
        try violations(emu.violations)
        return Picture(emu.picture)
    }

    mutating func ssd1680() throws -> Picture {
        let d = board.display
        let delay = VirtualDelay()
        let emu = SSD1680Emulator(delay: delay, mountRotation: d.rotation, maxTransferSize: 1 << 20)
        let n = try replaySPI(emu, dc: emu.dc, reset: emu.reset, backlight: nil, delay: delay, gapMs: 10_000)
        notes.append("ssd1680: \(n) transfers, \(emu.bytes) bytes, \(emu.fullRefreshes) full and \(emu.partialRefreshes) partial refreshes")
        try violations(emu.violations)
        return Picture(emu.picture)
    }

    mutating func ssd1306() throws -> Picture {
        let d = board.display
        guard case let .i2c(_, address) = d.bus else { throw UsageError(description: "ssd1306 not on i2c") }
        let emu = SSD1306Emulator(address: UInt8(address), height: d.height, mountRotation: d.rotation)
        let list = try Self.transfers(source)
        for t in list { try withBytes(t.bytes) { b throws(HardwareError) in try emu.write(address: UInt8(address), b) } }
        notes.append("ssd1306: \(list.count) messages, \(emu.bytes) bytes, display \(emu.displayOn ? "on" : "off"), charge pump \(emu.chargePump ? "on" : "off")")
        try violations(emu.violations)
        // The memory as the glass maps it, lit or not: after a stop the display is off and the
        // memory must hold the blank frame.
        if !emu.displayOn {
            var m = MonoCanvas(width: emu.width, height: emu.height, background: .black)
            for y in 0..<emu.height {
                let row = ((emu.comScanDown ? y : emu.height - 1 - y) + emu.startLine + emu.displayOffset) % 64
                for x in 0..<emu.width where emu.ramPixel(column: emu.segmentRemap ? x : 127 - x, row: row) != emu.inverse {
                    m.setPixel(x: x, y: y, .white)
                }
            }
            notes.append("ssd1306: display off: comparing its memory")
            var turned = m
            for _ in 0..<((d.rotation / 90) % 4) { turned = turned.rotatedClockwise() }
            return Picture(turned)
        }
        return Picture(emu.picture)
    }

    func violations(_ v: [String]) throws {
        guard v.isEmpty else { throw UsageError(description: "the emulator saw \(v.count) protocol violations: \(v.prefix(5).joined(separator: "; "))") }
    }
}

/// `bytes` as a raw buffer for a bus write (a copy: withUnsafeBytes with a typed-throws closure
/// crashes swift-frontend 6.3.1 in IRGen).
func withBytes(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(HardwareError) -> Void) throws(HardwareError) {
    let p = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
    defer { p.deallocate() }
    p.copyBytes(from: bytes)
    try body(UnsafeRawBufferPointer(rebasing: p[0..<bytes.count]))
}

func turn(_ c: Canvas, by degrees: Int) -> Canvas {
    var out = c
    for _ in 0..<((degrees / 90) % 4) {
        var r = Canvas(width: out.height, height: out.width)
        for y in 0..<out.height { for x in 0..<out.width { r.pixels[x * r.width + (out.height - 1 - y)] = out.pixels[y * out.width + x] } }
        out = r
    }
    return out
}

extension Picture {
    var canvas: Canvas { var c = Canvas(width: width, height: height); c.pixels = pixels; return c }
}

/// `guest-frame --board BOARD --source PATH (--pid PID --data DIR [--screen S[,S]] | --blank)`: with a running
/// daemon, dump → read the panel → dump; the two dumps must agree (else the daemon drew in
/// between: again, up to 8 times) and the panel must equal them. With `--blank` (the daemon has
/// stopped): the panel must be black (white on e-paper).
func guestFrame(_ args: inout [String]) throws -> Int32 {
    guard let boardPath = option("--board", &args), let source = option("--source", &args) else {
        throw UsageError(description: "guest-frame --board FILE --source /dev/fb0|DEBUGFS-LOG (--pid PID --data DIR | --blank)")
    }
    // The board as the daemon finds it (a path or a name: BoardLookup).
    let board: Board
    do { board = try BoardLookup.load(boardPath) } catch { throw UsageError(description: "\(error)") }
    var check = DaemonFrameCheck(board: board, source: source)
    let start = monotonicMs()
    if flag("--blank", &args) {
        let got = try check.observed()
        for n in check.notes { printLine(n) }
        let want: UInt16 = board.display.controller == .ssd1680 ? 0xFFFF : 0x0000
        guard got.isUniform == want else {
            let wrong = got.pixels.filter { $0 != want }.count
            printLine("FAIL the panel is not blank after the stop: \(wrong) of \(got.pixels.count) pixels are not \(hex16(want))")
            return 1
        }
        printLine("blank: all \(got.pixels.count) pixels \(hex16(want)) (\(Int(monotonicMs() - start)) ms)")
        return 0
    }
    guard let pidText = option("--pid", &args), let pid = pid_t(pidText), let data = option("--data", &args) else {
        throw UsageError(description: "guest-frame needs --pid PID --data DIR (or --blank)")
    }
    let expectScreen = option("--screen", &args)
    var last = DaemonFrameCheck.lastDump(data: data)
    for attempt in 1...8 {
        let before = try DaemonFrameCheck.requestDump(pid: pid, data: data, after: last)
        check.notes = []
        let got = try check.observed()
        let after = try DaemonFrameCheck.requestDump(pid: pid, data: data, after: before.dump)
        last = after.dump
        guard before.frames == after.frames, before.pixels == after.pixels else {
            printLine("note: the daemon drew between dumps \(before.dump) and \(after.dump) (frames \(before.frames) → \(after.frames)): again")
            continue
        }
        guard before.frames > 0 else { printLine("FAIL the daemon has sent no frame"); return 1 }
        if let screen = expectScreen, !screen.split(separator: ",").contains(Substring(before.screen)) {
            printLine("FAIL the daemon is on screen \(before.screen), expected \(screen)")
            return 1
        }
        for n in check.notes { printLine(n) }
        let expected = before.kind == .mono ? Picture(before.mono) : Picture(before.canvas)
        if let diff = got.difference(from: expected) {
            printLine("FAIL the panel differs from the daemon's frame \(before.frames): \(diff)")
            if let dir = option("--save", &args) {
                _ = try? writeFile(dir + "/panel.dump", FrameDump(kind: .colour, width: got.width, height: got.height, frames: 0, dump: 0, pixels: got.pixels).bytes)
            }
            return 1
        }
        let distinct = Set(expected.pixels).count
        printLine("frame \(before.frames) (\(before.screen)) on the panel = the daemon's (\(expected.width)x\(expected.height), \(distinct) colours; dumps \(before.dump)-\(after.dump), try \(attempt), \(Int(monotonicMs() - start)) ms)")
        return 0
    }
    printLine("FAIL the daemon kept drawing: no two dumps agreed in 8 tries")
    return 1
}

/// `seed-journal DIR TITLE`: a journal at DIR/deskpet.db with one task called TITLE (as the phone
/// would create it), so the daemon starts with personal text: it shows on the home screen and must
/// never reach the log.
func seedJournal(_ args: [String]) throws {
    guard args.count == 2 else { throw UsageError(description: "seed-journal DIR TITLE") }
    try makeDirectories(args[0], mode: 0o700)
    let store = try EventStore(path: args[0] + "/deskpet.db")
    let now = Instant(floorDiv(SystemClock().wallMs, 1000))
    let app = try PetApp(store: store, now: now, zone: "UTC")
    try app.handle(Command(id: "seed-1", at: now, action: .createTask(TaskDraft(title: args[1])))).get()
    store.close()
    printLine("journal \(args[0])/deskpet.db: \(app.state.eventCount) events, one task")
}
