import PetCore
import PetDevice
import PetStore
import PetUI

/// A board on virtual time — the one wiring the simulator (`SimDevice`) and the emulated boards
/// (`EmulatedBoard`) share: journal → app → virtual clock → hardware (made from a board file by
/// `BoardWiring`, on the given parts) → device loop, with the keys a script presses and the time
/// that passes (`VirtualTimeWait`, the run loop's wait on virtual time).
public class VirtualBoard {
    public let clock: VirtualClock
    /// The board this is (a simulator board: its display is a headless panel).
    public let board: Board
    /// What its buses, lines and devices are made of.
    public let parts: BoardParts
    /// The keys: edges a script or the terminal pushes.
    public let input: ScriptedInput
    /// The buzzer and LED of a simulator board (they record).
    public let sounder: RecordingSounder
    public let indicator: RecordingIndicator
    /// The device loop this board drives.
    public let loop: DeviceLoop
    /// The display this board has.
    public let profile: DisplayProfile

    /// Wires `board` on `parts` (or, `panel`, a ready panel instead of the board's display) around
    /// the journal `store`. Its panel says when frames are drawn (`PanelPresentation`): at every
    /// wake-up as the daemon does (the drivers on their emulators), or when looked at (the
    /// simulator's headless panel).
    init(board: Board, parts: BoardParts, panel: Panel? = nil, store: EventStore, start: Instant, zone: String,
         dayStart: Int = 3, boot: Bool, frameIntervalMs: Int64? = nil,
         link: PhoneLink? = nil, linkService: LinkServing? = nil) throws(AppError) {
        self.board = board
        self.parts = parts
        profile = board.profile
        input = parts.simulated.keys
        sounder = parts.simulated.sounder
        indicator = parts.simulated.indicator
        let app = try PetApp(store: store, now: start, zone: zone, dayStartHour: dayStart)
        clock = VirtualClock(wallMs: TimeRange.milliseconds(max(start, app.state.now)))
        var hardware: Hardware
        do { hardware = try BoardWiring.hardware(for: board, parts: parts, clock: clock, link: link) } catch { throw .hardware(error) }
        if let panel { hardware.panel = panel; hardware.sounder = nil; hardware.indicator = nil }
        hardware.settableClock = clock   // a phone's Current Time write or `time.set` moves the virtual clock
        loop = DeviceLoop(app: app, hardware: hardware, profile: board.profile, layout: board.layout,
                          debounceMs: board.debounceMs, boot: boot, frameIntervalMs: frameIntervalMs)
        loop.link = linkService
        try loop.step()
    }

    /// Virtual wall clock in milliseconds since the epoch (UTC).
    public var nowMs: Int64 { clock.wallMs }
    public var now: Instant { loop.now }
    public var app: PetApp { loop.app }

    /// Runs the device until wall time `target` (ms): it wakes at every deadline on the way (day
    /// boundaries, reminders, the screen dimming, long presses...), each at its own instant, as a
    /// device that stays on does.
    func run(untilMs target: Int64) throws(AppError) {
        try loop.run(waiting: VirtualTimeWait(clock: clock, untilMs: target))
    }

    /// Runs through every deadline up to `ms` from now.
    public func run(forMs ms: Int64) throws(AppError) {
        try run(untilMs: nowMs.addingReportingOverflow(max(0, ms)).partialValue)
    }

    /// Feeds one button edge at the current virtual time (the loop wakes for it, as for a
    /// readable GPIO descriptor). Keys this board does not have do nothing.
    public func edge(_ b: Button, pressed: Bool) throws(AppError) {
        input.push(InputEdge(b, pressed: pressed, ns: clock.monotonicNs))
        try loop.step()
    }

    /// Lets `ms` pass with buttons as they are (long presses become due).
    public func wait(ms: Int64) throws(AppError) {
        try run(forMs: ms)
    }

    public func press(_ b: Button) throws(AppError) {
        try edge(b, pressed: true); try wait(ms: 100); try edge(b, pressed: false); try wait(ms: 400)
    }

    public func hold(_ b: Button) throws(AppError) {
        try edge(b, pressed: true); try wait(ms: 800); try edge(b, pressed: false); try wait(ms: 400)
    }

    public func doubleTap(_ b: Button) throws(AppError) {
        try edge(b, pressed: true); try wait(ms: 80); try edge(b, pressed: false); try wait(ms: 120)
        try edge(b, pressed: true); try wait(ms: 80); try edge(b, pressed: false); try wait(ms: 400)
    }

    public func chord() throws(AppError) {
        try edge(.a, pressed: true); try wait(ms: 20); try edge(.c, pressed: true); try wait(ms: 150)
        try edge(.a, pressed: false); try edge(.c, pressed: false); try wait(ms: 400)
    }

    /// A and C held together for 3.2 s (the factory-reset confirmation).
    public func chordHold() throws(AppError) {
        try edge(.a, pressed: true); try wait(ms: 20); try edge(.c, pressed: true)
        try wait(ms: 3200)
        try edge(.a, pressed: false); try edge(.c, pressed: false); try wait(ms: 400)
    }
}

/// The panel emulators as a board's parts (`BoardWiring`): the SPI or I2C bus a board's display
/// names is its controller's emulator, and the display's lines (D/C, RST, backlight, BUSY) are the
/// emulator's; the drivers wait on the emulators' virtual delay. Keys, buzzer and LED are the
/// simulated ones. So a real board file (boards/pi-*.board) runs in `swift test` with its real
/// driver, down to the bytes on its bus.
public final class EmulatedParts: BoardParts {
    public let simulated: SimulatedParts
    public let virtualDelay: VirtualDelay
    public var delay: Delay { virtualDelay }
    public private(set) var st7789: ST7789Emulator?
    public private(set) var ssd1306: SSD1306Emulator?
    public private(set) var ssd1680: SSD1680Emulator?
    /// The board's display lines, wired to the emulator's.
    var lines: [GPIOLine: EmulatedLine] = [:]
    var busy: [GPIOLine: EmulatedInput] = [:]

    /// The emulator of `board`'s display controller, its lines wired where the board says.
    public init(board: Board) {
        let delay = VirtualDelay()
        virtualDelay = delay
        simulated = SimulatedParts(delay: delay)
        let d = board.display
        switch (d.controller, d.bus) {
        case let (.st7789, .spi(_, _, _)):
            let config = ST7789.Config(width: d.width, height: d.height, rotation: d.rotation,
                                       glassColumn: d.columnOffset, glassRow: d.rowOffset)
            let emu = ST7789Emulator(delay: delay, glassWidth: config.glassWidth, glassHeight: config.glassHeight,
                                     glassColumn: config.glassColumn, glassRow: config.glassRow, mountRotation: config.rotation)
            st7789 = emu
            if let l = d.dc { lines[l] = emu.dc }
            if let l = d.reset { lines[l] = emu.reset }
            if let l = d.backlight { lines[l] = emu.backlight }
        case let (.ssd1306, .i2c(_, address)):
            ssd1306 = SSD1306Emulator(address: UInt8(clamping: address), height: d.height, mountRotation: d.rotation)
        case let (.ssd1680, .spi(_, _, _)):
            let emu = SSD1680Emulator(delay: delay, mountRotation: d.rotation)
            ssd1680 = emu
            if let l = d.dc { lines[l] = emu.dc }
            if let l = d.reset { lines[l] = emu.reset }
            if let l = d.busy { busy[l] = emu.busy }
        default:
            break
        }
    }

    func missing(_ what: String) -> HardwareError {
        HardwareError(.unsupported, device: what, operation: "open", reason: "not wired to an emulator (the emulators are ST7789 and SSD1680 on SPI, SSD1306 on I2C)")
    }

    public func spiBus(device: String, clockHz: Int, mode: Int) throws(HardwareError) -> SPIBus {
        if let st7789 { return st7789 }
        if let ssd1680 { return ssd1680 }
        throw missing("SPI bus \(device)")
    }

    public func i2cBus(device: String) throws(HardwareError) -> I2CBus {
        guard let ssd1306 else { throw missing("I2C bus \(device)") }
        return ssd1306
    }

    public func outputLine(_ line: GPIOLine) throws(HardwareError) -> OutputLine {
        // A line the emulator does not have (the e-paper HAT's PWR) still works: it remembers its level.
        if let l = lines[line] { return l }
        let l = EmulatedLine("\(line)")
        lines[line] = l
        return l
    }

    public func inputLine(_ line: GPIOLine) throws(HardwareError) -> InputLine {
        guard let b = busy[line] else { throw missing("input line \(line)") }
        return b
    }

    public func framebuffer(device: String, rotation: Int) throws(HardwareError) -> Panel { throw missing("framebuffer \(device)") }

    public func keys(_ buttons: Board.Buttons, board: Board) throws(HardwareError) -> [InputSource] { [simulated.keys] }
    public func sounder(_ buzzer: Board.Buzzer) throws(HardwareError) -> Sounder { simulated.sounder }
    public func indicator(_ led: Board.LED) throws(HardwareError) -> Indicator { simulated.indicator }
}
