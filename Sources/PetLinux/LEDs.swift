import PetDevice

/// An LED on GPIO lines: one line (lit for any colour) or three (red, green, blue). Plays
/// `LightPatternTable`'s patterns on a player thread and goes dark after each
/// (docs/sound-and-light.md).
public final class GPIOIndicator: Indicator {
    final class Output: PatternOutput {
        let red: OutputLine, green: OutputLine?, blue: OutputLine?
        init(red: OutputLine, green: OutputLine?, blue: OutputLine?) { self.red = red; self.green = green; self.blue = blue }
        func milliseconds(_ step: LightStep) -> Int { step.ms }
        func begin(_ step: LightStep) throws(HardwareError) {
            if let green, let blue {
                try red.set(step.color.red); try green.set(step.color.green); try blue.set(step.color.blue)
            } else {
                try red.set(step.color.isLit)
            }
        }
        func halfPeriodNs(_ step: LightStep) -> UInt64? { nil }
        func toggle() throws(HardwareError) {}
        func rest() throws(HardwareError) { try begin(LightStep(.off, 0)) }
    }

    private let player: PatternPlayer<Output>
    private let lines: [GPIOOutputLine]
    public let isRGB: Bool

    /// An LED on any output lines (simulated ones in tests): one line, or red, green and blue.
    public init(red: OutputLine, green: OutputLine? = nil, blue: OutputLine? = nil) throws(HardwareError) {
        let rgb = green != nil && blue != nil
        isRGB = rgb
        lines = [red, green, blue].compactMap { $0 as? GPIOOutputLine }
        player = try PatternPlayer(output: Output(red: red, green: rgb ? green : nil, blue: rgb ? blue : nil))
    }

    /// A one-colour LED on `line`. `activeLow`: wired from 3V3 to the pin (lit when low).
    public init(chip: String?, line: GPIOLineID, activeLow: Bool = false, consumer: String = "deskpet") throws(HardwareError) {
        let l = try GPIOOutputLine(chip: chip, line: line, activeLow: activeLow, consumer: consumer)
        isRGB = false
        lines = [l]
        player = try PatternPlayer(output: Output(red: l, green: nil, blue: nil))
    }

    /// An RGB LED on three lines. `activeLow`: common-anode LEDs (lit when low).
    public init(chip: String?, red: GPIOLineID, green: GPIOLineID, blue: GPIOLineID, activeLow: Bool = false,
                consumer: String = "deskpet") throws(HardwareError) {
        let r = try GPIOOutputLine(chip: chip, line: red, activeLow: activeLow, consumer: consumer)
        let g = try GPIOOutputLine(chip: chip, line: green, activeLow: activeLow, consumer: consumer)
        let b = try GPIOOutputLine(chip: chip, line: blue, activeLow: activeLow, consumer: consumer)
        isRGB = true
        lines = [r, g, b]
        player = try PatternPlayer(output: Output(red: r, green: g, blue: b))
    }

    deinit { close() }

    public func show(_ pattern: LightPattern) throws(HardwareError) { try player.play(LightPatternTable.steps(for: pattern)) }
    public func show(steps: [LightStep]) throws(HardwareError) { try player.play(steps) }
    public var finishedCount: UInt64 { player.finishedCount }
    /// Darkens the LED, stops the thread and releases the lines. Idempotent.
    public func close() {
        player.close()
        for l in lines { l.close() }
    }
}
