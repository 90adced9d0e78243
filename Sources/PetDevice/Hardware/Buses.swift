// Buses.swift — the seams the panel controller drivers (PetDevice/Drivers) speak to: an SPI bus,
// an I2C bus, an output line (D/C, RST, backlight), an input line (BUSY) and a delay. On a board
// they are spidev, i2c-dev and libgpiod lines (PetLinux); in tests they are the panel emulators
// of PetSim, which decode the same bytes back into pixels. A driver never sleeps or reads a clock
// itself: it asks its `Delay`, which the tests back with virtual time.

/// An SPI bus with the panel's chip select: each `write` is one transfer (CS held for its bytes).
public protocol SPIBus: AnyObject {
    /// The most bytes one transfer may carry (spidev: its `bufsiz` parameter, 4096 by default).
    var maxTransferSize: Int { get }
    /// One transfer of `bytes` (never more than `maxTransferSize`), MOSI only.
    func write(_ bytes: UnsafeRawBufferPointer) throws(HardwareError)
}

extension SPIBus {
    /// Sends `bytes` as consecutive transfers of at most `maxTransferSize` bytes each.
    public func send(_ bytes: [UInt8]) throws(HardwareError) {
        try send(bytes[...])
    }

    /// Sends a slice as consecutive transfers of at most `maxTransferSize` bytes each.
    public func send(_ bytes: ArraySlice<UInt8>) throws(HardwareError) {
        let chunk = max(1, maxTransferSize)
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = min(bytes.endIndex, start + chunk)
            let result: Result<Void, HardwareError> = bytes[start..<end].withUnsafeBytes { raw in
                do throws(HardwareError) { try write(raw); return .success(()) } catch { return .failure(error) }
            }
            try result.get()
            start = end
        }
    }
}

/// An SPI bus plus the panel's D/C line, as the SPI panel controllers (ST7789, SSD1680) use it:
/// a command byte with D/C low, its parameters and pixel data with D/C high. The D/C level is
/// only written when it changes; after a failure it is unknown and written again.
public final class SPICommandPort {
    public let bus: SPIBus
    public let dc: OutputLine
    private var dcLevel: Bool?

    public init(bus: SPIBus, dc: OutputLine) { self.bus = bus; self.dc = dc }

    /// Forget the D/C level (a reset): the next write sets it.
    public func forgetLevel() { dcLevel = nil }

    func setDC(_ high: Bool) throws(HardwareError) {
        guard dcLevel != high else { return }
        dcLevel = nil
        try dc.set(high)
        dcLevel = high
    }

    /// A command byte with D/C low, then its parameters (if any) with D/C high.
    public func command(_ c: UInt8, _ params: [UInt8] = []) throws(HardwareError) {
        try setDC(false)
        try bus.send([c])
        guard !params.isEmpty else { return }
        try data(params)
    }

    /// Data bytes (parameters, RAM) with D/C high, in transfers the bus allows.
    public func data(_ bytes: [UInt8]) throws(HardwareError) {
        try setDC(true)
        try bus.send(bytes)
    }
}

/// An I2C bus: whole write messages to a 7-bit address (START, address+W, bytes, STOP).
public protocol I2CBus: AnyObject {
    /// The most bytes one message may carry (i2c-dev: 8192).
    var maxMessageSize: Int { get }
    /// Writes one message to `address`. A missing device (no ACK) is an error.
    func write(address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(HardwareError)
}

extension I2CBus {
    public func write(address: UInt8, _ bytes: [UInt8]) throws(HardwareError) {
        let result: Result<Void, HardwareError> = bytes.withUnsafeBytes { raw in
            do throws(HardwareError) { try write(address: address, raw); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }
}

/// A digital output: D/C, RST, a backlight enable, chip select.
public protocol OutputLine: AnyObject {
    /// Drives the line: true = high (1), false = low (0).
    func set(_ high: Bool) throws(HardwareError)
}

/// A digital input read by level (an e-paper controller's BUSY).
public protocol InputLine: AnyObject {
    /// The line's level now: true = high (1).
    func read() throws(HardwareError) -> Bool
}

/// Time for drivers: reset pulses, power-on waits and BUSY polling. The device backs it with
/// CLOCK_MONOTONIC and nanosleep; tests back it with virtual time that moves only when slept.
public protocol Delay: AnyObject {
    /// Monotonic nanoseconds.
    var monotonicNs: UInt64 { get }
    /// Waits `ns` nanoseconds (virtual delays just move their clock on).
    func sleep(ns: UInt64)
}

extension Delay {
    public func sleep(ms: Int) { sleep(ns: UInt64(max(0, ms)) &* 1_000_000) }
}

extension InputLine {
    /// Polls every `pollMs` until the line reads `level == false` (for BUSY: until it goes low), at
    /// most `timeoutMs` on `delay`'s clock; then throws a `HardwareError` naming `device` and
    /// saying what to check.
    public func waitWhileHigh(timeoutMs: Int, pollMs: Int = 5, delay: Delay, device: String,
                              operation: String = "wait for BUSY",
                              hint: String = "check the BUSY wire / HAT seated") throws(HardwareError) {
        let start = delay.monotonicNs
        let limit = UInt64(max(0, timeoutMs)) &* 1_000_000
        while try read() {
            if delay.monotonicNs &- start >= limit {
                throw HardwareError(.timedOut, device: device, operation: operation,
                                    reason: "BUSY stayed high for \(timeoutMs) ms: \(hint)")
            }
            delay.sleep(ms: max(1, pollMs))
        }
    }
}
