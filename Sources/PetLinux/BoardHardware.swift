#if canImport(Glibc)
import Glibc
#endif
import PetDevice
import PetUI

// A board file made real: the Linux backends its lines name, wired into the device loop's
// `Hardware`. One function per part, so `deskpet check` can probe them one by one.

extension GPIOOutputLine: OutputLine {}

public enum BoardHardware {
    /// Whether this machine has a GPIO chip with `label` (a chip it may not open counts: opening it
    /// then reports the permission problem).
    public static func chipPresent(_ label: String) -> Bool {
        GPIOChip.present(label: label)
    }

    /// The board with each line on the first of its chip labels this machine has.
    public static func resolve(_ board: Board) -> Board { board.resolvingChips(present: chipPresent) }

    /// A board line as PetLinux's GPIO backend names it.
    static func id(_ l: GPIOLine) -> GPIOLineID {
        switch l.line {
        case .name(let n): .name(n)
        case .offset(let o): .offset(UInt32(max(0, o)))
        }
    }

    /// Everything the board names, opened on this machine's devices (`LinuxParts`; a simulator
    /// board's parts are simulated: it runs headless): the device loop's hardware, made by the one
    /// factory, `BoardWiring`. Throws the first part that cannot be opened, with what to do about it
    /// (enable SPI, join the gpio group, ...).
    public static func open(_ board: Board, clock: DeviceClock = SystemClock(),
                            parts: LinuxParts = LinuxParts()) throws(HardwareError) -> Hardware {
        try BoardWiring.hardware(for: resolve(board), parts: parts, clock: clock)
    }

    /// The key sources: one GPIO line request per chip (lines of one board may sit on two chips),
    /// or the evdev device.
    public static func buttons(_ board: Board) throws(HardwareError) -> [InputSource] {
        try BoardWiring.keys(resolve(board), parts: LinuxParts())
    }

    /// The display: its controller on its bus, with its lines.
    public static func display(_ board: Board) throws(HardwareError) -> Panel {
        try BoardWiring.display(resolve(board), parts: LinuxParts())
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

/// This machine's devices as a board's parts (`BoardWiring`): spidev and i2c-dev buses, GPIO
/// lines (the kernel's uAPI v2), a framebuffer, GPIO or evdev keys, a buzzer and LED on their pattern players; whatever
/// the board puts on the `sim` bus is simulated (`simulated`: a headless panel, keys nobody
/// presses, a buzzer and LED that record).
public final class LinuxParts: BoardParts {
    public let simulated: SimulatedParts
    public let delay: Delay = SystemDelay()

    public init(simulated: SimulatedParts = SimulatedParts()) { self.simulated = simulated }

    public func spiBus(device: String, clockHz: Int, mode: Int) throws(HardwareError) -> SPIBus {
        try SPIDevBus(path: device, mode: UInt8(clamping: mode), speedHz: UInt32(clamping: clockHz))
    }

    public func i2cBus(device: String) throws(HardwareError) -> I2CBus { try I2CDevBus(path: device) }

    public func outputLine(_ line: GPIOLine) throws(HardwareError) -> OutputLine {
        try GPIOOutputLine(chip: line.chip, line: BoardHardware.id(line))
    }

    public func inputLine(_ line: GPIOLine) throws(HardwareError) -> InputLine {
        try GPIOInputLine(chip: line.chip, line: BoardHardware.id(line))
    }

    public func framebuffer(device: String, rotation: Int) throws(HardwareError) -> Panel {
        try FramebufferPanel(path: device, rotation: rotation)
    }

    public func keys(_ buttons: Board.Buttons, board: Board) throws(HardwareError) -> [InputSource] {
        switch buttons.bus {
        case let .gpio(lines, activeLow, bias):
            var byChip: [String: [Button: GPIOLineID]] = [:]
            for (button, line) in lines { byChip[line.chip, default: [:]][button] = BoardHardware.id(line) }
            let gpioBias: GPIOBias
            switch bias {
            case .pullUp: gpioBias = .pullUp
            case .pullDown: gpioBias = .pullDown
            case .none: gpioBias = .disabled
            }
            var sources: [InputSource] = []
            for chip in byChip.keys.sorted() {
                sources.append(try GPIOButtons(chip: chip, buttons: byChip[chip] ?? [:], bias: gpioBias, activeLow: activeLow,
                                               debounceMs: buttons.debounceMs))
            }
            return sources
        case let .evdev(device, codes):
            var keys: [UInt16: Button] = [:]
            for (button, code) in codes { keys[UInt16(clamping: code)] = button }
            if device.hasPrefix("/") { return [try EvdevButtons(path: device, keys: keys)] }
            return [try EvdevButtons(deviceName: device, keys: keys)]
        case .sim:
            return [simulated.keys]
        }
    }

    public func sounder(_ buzzer: Board.Buzzer) throws(HardwareError) -> Sounder { try BoardHardware.buzzer(buzzer) }
    public func indicator(_ led: Board.LED) throws(HardwareError) -> Indicator { try BoardHardware.led(led) }
}
