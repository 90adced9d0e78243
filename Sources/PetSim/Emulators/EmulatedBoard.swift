import PetCore
import PetDevice
import PetStore
import PetUI

/// A panel driver wired to its emulator, with the virtual time both share.
public struct EmulatedPanel<Driver: Panel, Emulator> {
    public let driver: Driver
    public let emulator: Emulator
    public let delay: VirtualDelay
}

extension EmulatedPanel where Driver == ST7789, Emulator == ST7789Emulator {
    /// An ST7789 driver for `config` on an emulated ST7789 whose glass sits where `config` says.
    public static func st7789(_ config: ST7789.Config, maxTransferSize: Int = 4096, ipsGlass: Bool = true,
                              backlight: Bool = true) throws(HardwareError) -> Self {
        let delay = VirtualDelay()
        let emu = ST7789Emulator(delay: delay, glassWidth: config.glassWidth, glassHeight: config.glassHeight,
                                 glassColumn: config.glassColumn, glassRow: config.glassRow,
                                 mountRotation: config.rotation, ipsGlass: ipsGlass, maxTransferSize: maxTransferSize)
        let driver = try ST7789(bus: emu, dc: emu.dc, reset: emu.reset, backlight: backlight ? emu.backlight : nil,
                                delay: delay, config: config)
        return Self(driver: driver, emulator: emu, delay: delay)
    }
}

extension EmulatedPanel where Driver == SSD1306, Emulator == SSD1306Emulator {
    public static func ssd1306(rotation: Int = 0, height: Int = 64, maxDataPerMessage: Int = 128) throws(HardwareError) -> Self {
        let emu = SSD1306Emulator(height: height, mountRotation: rotation)
        let driver = try SSD1306(bus: emu, height: height, rotation: rotation, maxDataPerMessage: maxDataPerMessage)
        return Self(driver: driver, emulator: emu, delay: VirtualDelay())
    }
}

extension EmulatedPanel where Driver == SSD1680, Emulator == SSD1680Emulator {
    public static func ssd1680(rotation: Int = 90, maxTransferSize: Int = 4096, busyTimeoutMs: Int = 5000) throws(HardwareError) -> Self {
        let delay = VirtualDelay()
        let emu = SSD1680Emulator(delay: delay, mountRotation: rotation, maxTransferSize: maxTransferSize)
        let driver = try SSD1680(bus: emu, dc: emu.dc, reset: emu.reset, busy: emu.busy, delay: delay,
                                 rotation: rotation, busyTimeoutMs: busyTimeoutMs)
        return Self(driver: driver, emulator: emu, delay: delay)
    }
}

/// A board whose panel is a real driver on an emulated controller: the device loop (app, journal
/// in memory, gestures, navigator, screens, panel pipeline) presents every frame at every wake-up
/// (a driver's panel is `live`), as the daemon does, and the driver turns it into bus traffic. Time is virtual. The wiring is
/// `VirtualBoard`'s, shared with the simulator.
public final class EmulatedBoard: VirtualBoard {
    /// A ready driver (on its emulator) as the panel, with the keys of `layout`.
    public init(panel: Panel, profile: DisplayProfile, start: Instant, zone: String = "UTC",
                layout: InputLayout = .threeButtons) throws(AppError) {
        let store: EventStore
        do { store = try EventStore.inMemory() } catch { throw .store(error) }
        let board = Board.simulator(profile: profile, layout: layout)
        try super.init(board: board, parts: SimulatedParts(), panel: panel, store: store, start: start, zone: zone,
                       boot: false)
    }

    /// A board file on the panel emulators (`EmulatedParts`): the factory builds its driver on the
    /// emulated bus and lines, as the daemon builds it on the real ones.
    public init(board: Board, start: Instant, zone: String = "UTC") throws(AppError) {
        let store: EventStore
        do { store = try EventStore.inMemory() } catch { throw .store(error) }
        try super.init(board: board, parts: EmulatedParts(board: board), store: store, start: start, zone: zone,
                       boot: false)
    }

    /// A command as the phone sends it.
    @discardableResult
    public func send(_ command: Command) throws(AppError) -> Outcome {
        let o = try loop.send(command)
        try loop.step()
        return o
    }

    /// The frame the loop rendered last, as the panel should show it (1-bit panels: its 1-bit
    /// conversion).
    public var expected: Canvas {
        profile.isMonochrome ? MonoCanvas(from: loop.canvas).toCanvas() : loop.canvas
    }
}
