#if canImport(Glibc)
import Glibc
#endif
import CGPIOD
import PetDevice
import PetUI

// A board file made real: the Linux backends its lines name, wired into the device loop's
// `Hardware`. One function per part, so `deskpet check` can probe them one by one.

extension GPIOOutputLine: OutputLine {}

/// One GPIO input read by level (an e-paper controller's BUSY), requested until closed.
public final class GPIOInputLine: InputLine, @unchecked Sendable {
    public let name: String
    private let chips = GPIOChipSet()
    private var line: OpaquePointer?

    public init(chip: String?, line id: GPIOLineID, consumer: String = "deskpet") throws(HardwareError) {
        name = GPIOChipSet.describe(chip: chip, id)
        let l = try chips.line(chip: chip, id)
        guard gpiod_line_request_input(l, consumer) == 0 else {
            throw LinuxError.make(name, "request as input", errno: errno, kind: .gpio)
        }
        line = l
    }

    deinit { close() }

    public func read() throws(HardwareError) -> Bool {
        guard let line else { throw HardwareError(.closed, device: name, operation: "read", reason: "the line was closed") }
        let v = gpiod_line_get_value(line)
        guard v >= 0 else { throw LinuxError.make(name, "read", errno: errno, kind: .gpio) }
        return v == 1
    }

    public func close() {
        line = nil
        chips.closeAll()
    }
}

/// A panel whose power is switched by a GPIO line (Waveshare's e-paper HATs: PWR): the line is
/// held high while the panel is open and released (low) when it is closed.
final class PoweredPanel: Panel {
    let inner: Panel
    let power: GPIOOutputLine
    init(_ inner: Panel, power: GPIOOutputLine) { self.inner = inner; self.power = power }
    var format: PixelFormat { inner.format }
    var width: Int { inner.width }
    var height: Int { inner.height }
    var rotation: Int { inner.rotation }
    var isEPaper: Bool { inner.isEPaper }
    func flush(_ frame: PanelFrame) throws(HardwareError) { try inner.flush(frame) }
    func setBrightness(_ percent: Int) throws(HardwareError) { try inner.setBrightness(percent) }
}

public enum BoardHardware {
    /// Whether this machine has a GPIO chip with `label` (a chip it may not open counts: opening it
    /// then reports the permission problem).
    public static func chipPresent(_ label: String) -> Bool {
        errno = 0
        if let c = gpiod_chip_open_by_label(label) { gpiod_chip_close(c); return true }
        return errno == EACCES || errno == EPERM
    }

    /// The board with each line on the first of its chip labels this machine has.
    public static func resolve(_ board: Board) -> Board { board.resolvingChips(present: chipPresent) }

    /// A board line as libgpiod names it.
    static func id(_ l: GPIOLine) -> GPIOLineID {
        switch l.line {
        case .name(let n): .name(n)
        case .offset(let o): .offset(UInt32(max(0, o)))
        }
    }

    /// Everything the board names, opened: the device loop's hardware. Throws the first part that
    /// cannot be opened, with what to do about it (enable SPI, join the gpio group, ...).
    public static func open(_ board: Board, clock: DeviceClock = SystemClock()) throws(HardwareError) -> Hardware {
        let board = resolve(board)
        guard !board.isSimulator else {
            throw HardwareError(.unsupported, device: "board \(board.name)", operation: "open",
                                reason: "a simulator board has no hardware: run it with deskpet-sim --board \(board.name)")
        }
        let inputs = try buttons(board)
        let panel = try display(board)
        let sounder = try board.buzzer.map { b throws(HardwareError) in try buzzer(b) }
        let indicator = try board.led.map { l throws(HardwareError) in try led(l) }
        return Hardware(clock: clock, inputs: inputs, panel: panel, sounder: sounder, indicator: indicator)
    }

    /// The key sources: one libgpiod request per chip (lines of one board may sit on two chips),
    /// or the evdev device.
    public static func buttons(_ board: Board) throws(HardwareError) -> [InputSource] {
        let board = resolve(board)
        switch board.buttons.bus {
        case let .gpio(lines, activeLow, bias):
            var byChip: [String: [Button: GPIOLineID]] = [:]
            for (button, line) in lines { byChip[line.chip, default: [:]][button] = id(line) }
            let gpioBias: GPIOBias
            switch bias {
            case .pullUp: gpioBias = .pullUp
            case .pullDown: gpioBias = .pullDown
            case .none: gpioBias = .disabled
            }
            var sources: [InputSource] = []
            for chip in byChip.keys.sorted() {
                sources.append(try GPIOButtons(chip: chip, buttons: byChip[chip] ?? [:], bias: gpioBias, activeLow: activeLow))
            }
            return sources
        case let .evdev(device, codes):
            var keys: [UInt16: Button] = [:]
            for (button, code) in codes { keys[UInt16(clamping: code)] = button }
            if device.hasPrefix("/") { return [try EvdevButtons(path: device, keys: keys)] }
            return [try EvdevButtons(deviceName: device, keys: keys)]
        case .sim:
            throw HardwareError(.unsupported, device: "board \(board.name)", operation: "open buttons", reason: "simulated keys need deskpet-sim")
        }
    }

    static func output(_ l: GPIOLine?) throws(HardwareError) -> GPIOOutputLine? {
        guard let l else { return nil }
        return try GPIOOutputLine(chip: l.chip, line: id(l))
    }

    static func required(_ l: GPIOLine?, _ what: String, _ board: Board) throws(HardwareError) -> GPIOLine {
        guard let l else { throw HardwareError(.invalidArgument, device: "board \(board.name)", operation: "open the display", reason: "no \(what) line") }
        return l
    }

    /// The display: its controller on its bus, with its lines.
    public static func display(_ board: Board) throws(HardwareError) -> Panel {
        let board = resolve(board)
        let d = board.display
        let delay = SystemDelay()
        switch (d.controller, d.bus) {
        case let (.st7789, .spi(device, clockHz, mode)):
            let bus = try SPIDevBus(path: device, mode: UInt8(clamping: mode), speedHz: UInt32(clamping: clockHz))
            let dc = try GPIOOutputLine(chip: try required(d.dc, "dc", board).chip, line: id(try required(d.dc, "dc", board)))
            let config = ST7789.Config(width: d.width, height: d.height, rotation: d.rotation,
                                       glassColumn: d.columnOffset, glassRow: d.rowOffset)
            return try ST7789(bus: bus, dc: dc, reset: try output(d.reset), backlight: try output(d.backlight), delay: delay, config: config)
        case let (.ssd1306, .i2c(device, address)):
            let bus = try I2CDevBus(path: device)
            return try SSD1306(bus: bus, address: UInt8(clamping: address), width: d.width, height: d.height, rotation: d.rotation)
        case let (.ssd1680, .spi(device, clockHz, mode)):
            let bus = try SPIDevBus(path: device, mode: UInt8(clamping: mode), speedHz: UInt32(clamping: clockHz))
            let dcLine = try required(d.dc, "dc", board), rst = try required(d.reset, "rst", board)
            let busy = try required(d.busy, "busy", board)
            // The panel's power first: the controller answers only once it is on.
            let power = try output(d.power)
            try power?.set(true)
            if power != nil { SystemDelay().sleep(ns: 10_000_000) }
            let panel = try SSD1680(bus: bus, dc: try GPIOOutputLine(chip: dcLine.chip, line: id(dcLine)),
                               reset: try GPIOOutputLine(chip: rst.chip, line: id(rst)),
                               busy: try GPIOInputLine(chip: busy.chip, line: id(busy)), delay: delay,
                               width: d.width, height: d.height, rotation: d.rotation)
            return power.map { PoweredPanel(panel, power: $0) } ?? panel
        case let (.fbdev, .framebuffer(device)):
            return try FramebufferPanel(path: device, rotation: d.rotation)
        default:
            throw HardwareError(.unsupported, device: "board \(board.name)", operation: "open the display",
                                reason: "\(d.controller) on this bus is not supported (docs/boards.md lists the combinations)")
        }
    }

    public static func buzzer(_ b: Board.Buzzer) throws(HardwareError) -> Sounder {
        switch b {
        case let .line(l, kind): return try GPIOBuzzer(chip: l.chip, line: id(l), kind: kind == .passive ? .passive : .active)
        case let .pwm(chip, channel): return try PWMBuzzer(chip: chip, channel: channel)
        }
    }

    public static func led(_ l: Board.LED) throws(HardwareError) -> Indicator {
        switch l {
        case let .single(line, activeLow): return try GPIOIndicator(chip: line.chip, line: id(line), activeLow: activeLow)
        case let .rgb(r, g, b, activeLow):
            guard r.chip == g.chip, g.chip == b.chip else {
                throw HardwareError(.invalidArgument, device: "led", operation: "open", reason: "the red, green and blue lines must be on one chip")
            }
            return try GPIOIndicator(chip: r.chip, red: id(r), green: id(g), blue: id(b), activeLow: activeLow)
        }
    }
}
