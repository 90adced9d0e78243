import PetUI

// BoardWiring.swift — the one factory that turns a board file into the device loop's `Hardware`.
// The board says what is wired where; a `BoardParts` says what the wires are made of: Linux
// devices (PetLinux's `LinuxParts`: spidev, i2c-dev, libgpiod lines, fbdev, evdev), the panel
// emulators (PetSim's `EmulatedParts`), or nothing but simulated parts (`SimulatedParts`: a
// headless panel, scripted keys, a buzzer and LED that record). The panel drivers are built here,
// on whatever buses and lines the parts hand out, so the simulator, the emulated boards and the
// daemon run the same wiring. docs/architecture.md#hardware-layer.

/// What a board's buses, lines and devices are made of. `BoardWiring.hardware` asks for each
/// part the board names, in the order the daemon opens them (keys, display, buzzer, LED).
public protocol BoardParts: AnyObject {
    /// The parts of whatever the board puts on the `sim` bus (a simulator board's display and
    /// keys; its buzzer and LED): a headless panel, scripted keys, recorders.
    var simulated: SimulatedParts { get }
    /// The drivers' waits (reset pulses, power-on, BUSY polling).
    var delay: Delay { get }
    /// The SPI bus (`display.device`) a display controller is on.
    func spiBus(device: String, clockHz: Int, mode: Int) throws(HardwareError) -> SPIBus
    /// The I2C bus (`display.device`) a display controller is on.
    func i2cBus(device: String) throws(HardwareError) -> I2CBus
    /// A display line driven by the driver (D/C, RST, backlight, the panel's power).
    func outputLine(_ line: GPIOLine) throws(HardwareError) -> OutputLine
    /// A display line read by the driver (an e-paper controller's BUSY).
    func inputLine(_ line: GPIOLine) throws(HardwareError) -> InputLine
    /// A kernel framebuffer (`bus = fb`), whose driver talks to the panel itself.
    func framebuffer(device: String, rotation: Int) throws(HardwareError) -> Panel
    /// The keys on GPIO lines or an input device (`buttons.bus = gpio` or `evdev`).
    func keys(_ buttons: Board.Buttons, board: Board) throws(HardwareError) -> [InputSource]
    /// The buzzer the board names.
    func sounder(_ buzzer: Board.Buzzer) throws(HardwareError) -> Sounder
    /// The LED the board names.
    func indicator(_ led: Board.LED) throws(HardwareError) -> Indicator
}

public enum BoardWiring {
    /// Everything `board` names, made of `parts`: the device loop's hardware on `clock`. Throws the
    /// first part that cannot be had, with what to do about it (enable SPI, join the gpio group, …).
    /// A simulator board (display and keys on the `sim` bus) gets `parts.simulated`'s headless
    /// panel, scripted keys and a buzzer and LED that record.
    public static func hardware(for board: Board, parts: BoardParts, clock: DeviceClock,
                                link: PhoneLink? = nil) throws(HardwareError) -> Hardware {
        let inputs = try keys(board, parts: parts)
        let panel = try display(board, parts: parts)
        let sounder: Sounder?, indicator: Indicator?
        if let b = board.buzzer { sounder = try parts.sounder(b) } else { sounder = board.isSimulator ? parts.simulated.sounder : nil }
        if let l = board.led { indicator = try parts.indicator(l) } else { indicator = board.isSimulator ? parts.simulated.indicator : nil }
        return Hardware(clock: clock, inputs: inputs, panel: panel, sounder: sounder, indicator: indicator, link: link,
                        linkStandIn: board.isSimulator ? parts.simulated.linkStandIn : nil)
    }

    /// The key sources the board names.
    public static func keys(_ board: Board, parts: BoardParts) throws(HardwareError) -> [InputSource] {
        if case .sim = board.buttons.bus { return [parts.simulated.keys] }
        return try parts.keys(board.buttons, board: board)
    }

    /// The display: its controller's driver on its bus, with its lines (a headless panel on the
    /// `sim` bus).
    public static func display(_ board: Board, parts: BoardParts) throws(HardwareError) -> Panel {
        let d = board.display
        func required(_ l: GPIOLine?, _ what: String) throws(HardwareError) -> GPIOLine {
            guard let l else { throw HardwareError(.invalidArgument, device: "board \(board.name)", operation: "open the display", reason: "no \(what) line") }
            return l
        }
        func output(_ l: GPIOLine?) throws(HardwareError) -> OutputLine? {
            guard let l else { return nil }
            return try parts.outputLine(l)
        }
        switch (d.controller, d.bus) {
        case (_, .sim):
            return parts.simulated.headlessPanel(for: board.profile)
        case let (.st7789, .spi(device, clockHz, mode)):
            let bus = try parts.spiBus(device: device, clockHz: clockHz, mode: mode)
            let dc = try parts.outputLine(try required(d.dc, "dc"))
            let config = ST7789.Config(width: d.width, height: d.height, rotation: d.rotation,
                                       glassColumn: d.columnOffset, glassRow: d.rowOffset)
            return try ST7789(bus: bus, dc: dc, reset: try output(d.reset), backlight: try output(d.backlight),
                              delay: parts.delay, config: config)
        case let (.ssd1306, .i2c(device, address)):
            return try SSD1306(bus: try parts.i2cBus(device: device), address: UInt8(clamping: address),
                               width: d.width, height: d.height, rotation: d.rotation)
        case let (.ssd1680, .spi(device, clockHz, mode)):
            let bus = try parts.spiBus(device: device, clockHz: clockHz, mode: mode)
            let dcLine = try required(d.dc, "dc"), rst = try required(d.reset, "rst"), busy = try required(d.busy, "busy")
            // The panel's power first: the controller answers only once it is on.
            let power = try output(d.power)
            try power?.set(true)
            if power != nil { parts.delay.sleep(ns: 10_000_000) }
            let panel = try SSD1680(bus: bus, dc: try parts.outputLine(dcLine), reset: try parts.outputLine(rst),
                                    busy: try parts.inputLine(busy), delay: parts.delay,
                                    width: d.width, height: d.height, rotation: d.rotation)
            return power.map { PoweredPanel(panel, power: $0) } ?? panel
        case let (.fbdev, .framebuffer(device)):
            return try parts.framebuffer(device: device, rotation: d.rotation)
        default:
            throw HardwareError(.unsupported, device: "board \(board.name)", operation: "open the display",
                                reason: "\(d.controller) on this bus is not supported (docs/boards.md lists the combinations)")
        }
    }
}

/// A panel whose power is switched by a line (Waveshare's e-paper HATs: PWR): the line is held
/// high while the panel is in use (a GPIO line is released, low, when its owner closes it).
public final class PoweredPanel: Panel {
    public let inner: Panel
    public let power: OutputLine
    public init(_ inner: Panel, power: OutputLine) { self.inner = inner; self.power = power }
    public var format: PixelFormat { inner.format }
    public var width: Int { inner.width }
    public var height: Int { inner.height }
    public var rotation: Int { inner.rotation }
    public var isEPaper: Bool { inner.isEPaper }
    public var presentation: PanelPresentation { inner.presentation }
    public func flush(_ frame: PanelFrame) throws(HardwareError) { try inner.flush(frame) }
    public func setBrightness(_ percent: Int) throws(HardwareError) { try inner.setBrightness(percent) }
}

/// The simulated parts (PetDevice/Hardware/SimulatedParts.swift) as a board's parts: everything
/// on the `sim` bus is theirs; a bus, line or device a real board names is refused (use
/// PetLinux's `LinuxParts`, or PetSim's panel emulators). Made once, they keep what they handed
/// out, so the program driving a simulator board reaches its panel, keys, buzzer and LED.
public final class SimulatedParts: BoardParts {
    /// The keys: button edges a script, a terminal or a test pushes.
    public let keys = ScriptedInput()
    /// The buzzer and the LED: they record what they were asked to play.
    public let sounder = RecordingSounder()
    public let indicator = RecordingIndicator()
    /// The headless panel, once a display on the `sim` bus asked for it.
    public private(set) var panel: HeadlessPanel?
    /// The status strip's stand-in for a connected phone (`Hardware.linkStandIn`).
    public let linkStandIn = LinkStandIn()
    public let delay: Delay

    /// `delay`: the drivers' waits (none on the `sim` bus; a virtual one by default).
    public init(delay: Delay = VirtualDelay()) { self.delay = delay }

    public var simulated: SimulatedParts { self }

    /// The headless panel for `profile` (made once; `presentation` counts the first time).
    public func headlessPanel(for profile: DisplayProfile, presentation: PanelPresentation = .live) -> HeadlessPanel {
        if let panel { return panel }
        let p = HeadlessPanel(profile: profile, presentation: presentation)
        panel = p
        return p
    }

    func refuse(_ what: String) -> HardwareError {
        HardwareError(.unsupported, device: what, operation: "open", reason: "simulated parts have no \(what): a board that names one runs on "
                      + "its devices (deskpet run) or on the panel emulators")
    }

    public func spiBus(device: String, clockHz: Int, mode: Int) throws(HardwareError) -> SPIBus { throw refuse("SPI bus \(device)") }
    public func i2cBus(device: String) throws(HardwareError) -> I2CBus { throw refuse("I2C bus \(device)") }
    public func outputLine(_ line: GPIOLine) throws(HardwareError) -> OutputLine { throw refuse("GPIO line \(line)") }
    public func inputLine(_ line: GPIOLine) throws(HardwareError) -> InputLine { throw refuse("GPIO line \(line)") }
    public func framebuffer(device: String, rotation: Int) throws(HardwareError) -> Panel { throw refuse("framebuffer \(device)") }
    public func keys(_ buttons: Board.Buttons, board: Board) throws(HardwareError) -> [InputSource] {
        throw refuse("key device (buttons.bus) of board \(board.name)")
    }
    public func sounder(_ buzzer: Board.Buzzer) throws(HardwareError) -> Sounder { sounder }
    public func indicator(_ led: Board.LED) throws(HardwareError) -> Indicator { indicator }
}

extension Board {
    /// A simulator board for a display and a key layout (what `deskpet-sim --display … --buttons …`
    /// runs when no board file is named): everything on the `sim` bus.
    public static func simulator(profile: DisplayProfile, layout: InputLayout, debounceMs: Int = 30) -> Board {
        let controller: Controller = switch profile.kind {
        case .colour: .st7789
        case .epaper: .ssd1680
        case .mono: .ssd1306
        }
        return Board(name: "sim-\(profile.id)", description: "Simulator: \(profile.id)",
                     display: Display(controller: controller, width: profile.width, height: profile.height, bus: .sim),
                     buttons: Buttons(layout: layout, bus: .sim, debounceMs: debounceMs), buzzer: nil, led: nil,
                     hasChord: layout.hasChord, hasBattery: false, profile: profile)
    }
}
