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
/// in memory, gestures, navigator, screens, panel pipeline) presents every frame at every wake-up,
/// as the daemon does, and the driver turns it into bus traffic. Time is virtual.
public final class EmulatedBoard {
    public let clock: VirtualClock
    public let input = ScriptedInput()
    public let loop: DeviceLoop
    public let profile: DisplayProfile

    public init(panel: Panel, profile: DisplayProfile, start: Instant, zone: String = "UTC",
                layout: InputLayout = .threeButtons) throws(AppError) {
        let store: EventStore
        do { store = try EventStore.inMemory() } catch { throw .store(error) }
        let app = try PetApp(store: store, now: start, zone: zone)
        clock = VirtualClock(wallMs: start.seconds &* 1000)
        self.profile = profile
        loop = DeviceLoop(app: app, hardware: Hardware(clock: clock, inputs: [input], panel: panel), profile: profile,
                          layout: layout, boot: false, presentsEagerly: true)
        try loop.step()
    }

    public var now: Instant { loop.now }

    /// One button edge now; the loop wakes for it.
    public func edge(_ b: Button, pressed: Bool) throws(AppError) {
        input.push(InputEdge(b, pressed: pressed, ns: clock.monotonicNs))
        try loop.step()
    }

    /// Runs through every deadline up to `ms` from now.
    public func run(forMs ms: Int64) throws(AppError) {
        try loop.run(on: clock, untilMs: clock.wallMs + max(0, ms))
    }

    public func press(_ b: Button) throws(AppError) {
        try edge(b, pressed: true); try run(forMs: 100); try edge(b, pressed: false); try run(forMs: 400)
    }

    public func hold(_ b: Button) throws(AppError) {
        try edge(b, pressed: true); try run(forMs: 800); try edge(b, pressed: false); try run(forMs: 400)
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
