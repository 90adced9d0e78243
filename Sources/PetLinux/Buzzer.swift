#if canImport(Glibc)
import Glibc
#endif
import PetDevice

/// A buzzer on a GPIO line (libgpiod). An active buzzer has its own oscillator: the line switches
/// it on and off in the tone's rhythm. A passive one needs the square wave: the player's thread
/// toggles the line at the step's frequency (software PWM; fine for a beeper, with some jitter).
/// The patterns are `TonePattern`'s (docs/sound-and-light.md).
public final class GPIOBuzzer: Sounder {
    public enum Kind: String, Sendable, CaseIterable {
        /// Own oscillator: on/off in the rhythm.
        case active
        /// A piezo or speaker: a square wave at each step's frequency.
        case passive
    }

    final class Output: PatternOutput {
        let line: OutputLine
        let kind: Kind
        var level = false
        init(line: OutputLine, kind: Kind) { self.line = line; self.kind = kind }
        func milliseconds(_ step: ToneStep) -> Int { step.ms }
        func begin(_ step: ToneStep) throws(HardwareError) {
            level = step.sounds
            try line.set(level)
        }
        func halfPeriodNs(_ step: ToneStep) -> UInt64? {
            guard kind == .passive, step.hz > 0 else { return nil }
            return 500_000_000 / UInt64(step.hz)
        }
        func toggle() throws(HardwareError) {
            level.toggle()
            try line.set(level)
        }
        func rest() throws(HardwareError) {
            level = false
            try line.set(false)
        }
    }

    private let player: PatternPlayer<Output>
    private let gpioLine: GPIOOutputLine?
    public let kind: Kind
    public let lineName: String

    /// Requests the line as an output (off) and starts the player's thread.
    public convenience init(chip: String?, line: GPIOLineID, kind: Kind = .active, activeLow: Bool = false, consumer: String = "deskpet") throws(HardwareError) {
        let l = try GPIOOutputLine(chip: chip, line: line, activeLow: activeLow, consumer: consumer)
        try self.init(line: l, name: l.name, kind: kind)
        // (the GPIO line is released when the buzzer closes)
    }

    /// A buzzer on any output line (a simulated one in tests): the player's thread drives it.
    public init(line: OutputLine, name: String, kind: Kind = .active) throws(HardwareError) {
        self.kind = kind
        lineName = name
        gpioLine = line as? GPIOOutputLine
        player = try PatternPlayer(output: Output(line: line, kind: kind))
    }

    deinit { close() }

    public func play(_ tone: Tone) throws(HardwareError) { try player.play(TonePattern.steps(for: tone)) }

    /// Plays any steps (the hardware checker uses short custom patterns).
    public func play(steps: [ToneStep]) throws(HardwareError) { try player.play(steps) }

    /// Patterns played out or replaced so far.
    public var finishedCount: UInt64 { player.finishedCount }

    /// Silences the buzzer, stops the thread and releases the line. Idempotent.
    public func close() {
        player.close()
        gpioLine?.close()
    }
}

/// A buzzer on a hardware PWM channel through sysfs (/sys/class/pwm/pwmchipN/pwmM: export, period,
/// duty_cycle, enable), for boards that route the buzzer to a PWM pin (`dtoverlay=pwm` on a
/// Raspberry Pi). The chip is named by its device (the name its `device` link points at, e.g.
/// "1f00098000.pwm" on a Pi 5) or, failing that, by its sysfs name ("pwmchip0"). Each step sets the
/// period of its frequency at 50 % duty; silence disables the channel. Timing comes from the same
/// player thread; the waveform from the hardware.
public final class PWMBuzzer: Sounder {
    final class Output: PatternOutput {
        let channel: PWMOutput
        init(_ channel: PWMOutput) { self.channel = channel }
        func milliseconds(_ step: ToneStep) -> Int { step.ms }
        func begin(_ step: ToneStep) throws(HardwareError) {
            if step.hz > 0 { try channel.set(frequencyHz: step.hz) } else { try channel.disable() }
        }
        func halfPeriodNs(_ step: ToneStep) -> UInt64? { nil }
        func toggle() throws(HardwareError) {}
        func rest() throws(HardwareError) { try channel.disable() }
    }

    private let player: PatternPlayer<Output>
    public let channelPath: String

    public convenience init(chip: String, channel: Int, sysfs: String = "/sys/class/pwm") throws(HardwareError) {
        let c = try PWMChannel(chip: chip, channel: channel, sysfs: sysfs)
        try self.init(channel: c, path: c.path)
    }

    /// A buzzer on any PWM output (a simulated one in tests): the player's thread drives it.
    public init(channel: PWMOutput, path: String) throws(HardwareError) {
        channelPath = path
        player = try PatternPlayer(output: Output(channel))
    }

    deinit { player.close() }

    public func play(_ tone: Tone) throws(HardwareError) { try player.play(TonePattern.steps(for: tone)) }
    public func play(steps: [ToneStep]) throws(HardwareError) { try player.play(steps) }
    public var finishedCount: UInt64 { player.finishedCount }
    public func close() { player.close() }
}

/// A PWM output: a square wave at a frequency, or off. Used by one thread at a time (a pattern
/// player's).
public protocol PWMOutput: AnyObject {
    /// Square wave at `frequencyHz`, 50 % duty, enabled.
    func set(frequencyHz: Int) throws(HardwareError)
    /// Off.
    func disable() throws(HardwareError)
}

/// One PWM channel in sysfs. Used by one thread at a time.
public final class PWMChannel: PWMOutput, @unchecked Sendable {
    /// .../pwmchipN/pwmM
    public let path: String
    private var periodNs: UInt64?
    private var enabled: Bool?

    /// Finds the chip (by device name or sysfs name) and exports the channel if needed.
    public init(chip: String, channel: Int, sysfs: String = "/sys/class/pwm") throws(HardwareError) {
        guard let chipDir = try Self.findChip(chip, sysfs: sysfs) else {
            throw LinuxError.make("PWM chip \(chip) in \(sysfs)", "find the chip", errno: ENOENT, kind: .pwm)
        }
        path = "\(chipDir)/pwm\(channel)"
        if !Self.exists(path) {
            try Self.write("\(channel)", to: "\(chipDir)/export", operation: "export channel \(channel)")
            // The kernel creates the directory at once; udev may take a moment to open its
            // permissions: wait for it, bounded (a deadline, not a fixed sleep).
            let end = EventTime.read(CLOCK_MONOTONIC) &+ 2_000_000_000
            while !Self.exists("\(path)/enable") || access("\(path)/enable", W_OK) != 0 {
                guard EventTime.read(CLOCK_MONOTONIC) < end else { break }
                var ts = timespec(tv_sec: 0, tv_nsec: 10_000_000)
                nanosleep(&ts, nil)
            }
        }
        try disable()
    }

    /// The chip's directory: the pwmchip* whose `device` link ends in `name`, or named `name`.
    static func findChip(_ name: String, sysfs: String) throws(HardwareError) -> String? {
        guard let dir = opendir(sysfs) else { throw LinuxError.make(sysfs, "list PWM chips", errno: errno, kind: .pwm) }
        defer { closedir(dir) }
        var chips: [String] = []
        while let ent = readdir(dir) {
            let n = withUnsafeBytes(of: ent.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if n.hasPrefix("pwmchip") { chips.append(n) }
        }
        for c in chips.sorted() {
            var buf = [CChar](repeating: 0, count: 4096)
            let r = readlink("\(sysfs)/\(c)/device", &buf, buf.count)
            if r > 0, String(decoding: buf.prefix(r).map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: "/").last.map(String.init) == name {
                return "\(sysfs)/\(c)"
            }
        }
        return chips.contains(name) ? "\(sysfs)/\(name)" : nil
    }

    /// Square wave at `frequencyHz`, 50 % duty, enabled.
    public func set(frequencyHz: Int) throws(HardwareError) {
        let period = UInt64(1_000_000_000 / max(1, frequencyHz))
        if period != periodNs {
            // duty_cycle may never exceed period: lower it first.
            try Self.write("0", to: "\(path)/duty_cycle", operation: "set duty_cycle 0")
            try Self.write("\(period)", to: "\(path)/period", operation: "set period \(period) ns")
            try Self.write("\(period / 2)", to: "\(path)/duty_cycle", operation: "set duty_cycle \(period / 2) ns")
            periodNs = period
        }
        if enabled != true {
            try Self.write("1", to: "\(path)/enable", operation: "enable")
            enabled = true
        }
    }

    public func disable() throws(HardwareError) {
        guard enabled != false else { return }
        try Self.write("0", to: "\(path)/enable", operation: "disable")
        enabled = false
    }

    static func exists(_ p: String) -> Bool { access(p, F_OK) == 0 }

    static func write(_ text: String, to file: String, operation: String) throws(HardwareError) {
        let fd = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw LinuxError.make(file, operation, errno: errno, kind: .pwm) }
        defer { close(fd) }
        let bytes = Array((text + "\n").utf8)
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count else { throw LinuxError.make(file, operation, errno: n < 0 ? errno : EIO, kind: .pwm) }
    }
}
