#if canImport(Glibc)
import Glibc
#endif
import CGPIOD
import PetDevice

/// Which GPIO line: by its name (`gpioinfo` shows them; Raspberry Pi boards name lines "GPIO17",
/// gpio-sim banks get names from configfs) or by its offset on a chip found by label. Never by
/// chip number: those change between boards and boots.
public enum GPIOLineID: Sendable, Equatable, Hashable, CustomStringConvertible {
    case name(String)
    case offset(UInt32)

    public var description: String {
        switch self {
        case .name(let n): "line \(n)"
        case .offset(let o): "line \(o)"
        }
    }
}

/// A bias (pull resistor) for input lines (libgpiod 1.6 flags; the kernel needs 5.5 or later).
public enum GPIOBias: String, Sendable, CaseIterable {
    /// Leave the line's bias as the board configured it.
    case asIs = "as-is"
    case disabled
    case pullUp = "pull-up"
    case pullDown = "pull-down"

    var flag: Int32 {
        switch self {
        case .asIs: 0
        case .disabled: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE)
        case .pullUp: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        case .pullDown: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
        }
    }
}

/// Open chips and the lines found on them, closed together. A chip is found by its label
/// (`gpiod_chip_open_by_label`: "pinctrl-bcm2711" on a Pi 4, "pinctrl-rp1" on a Pi 5, "pet-buttons"
/// for the VM's gpio-sim bank); without a label a line is looked up by name on every chip
/// (`gpiod_line_find`). Not thread-safe: one owner at a time.
final class GPIOChipSet {
    private var chips: [OpaquePointer] = []
    private var byLabel: [String: OpaquePointer] = [:]

    deinit { closeAll() }

    /// Closes every chip (which releases their lines).
    func closeAll() {
        for c in chips { gpiod_chip_close(c) }
        chips.removeAll(); byLabel.removeAll()
    }

    /// "gpiochip pet-buttons line BTN_A": how errors name a line.
    static func describe(chip: String?, _ id: GPIOLineID) -> String {
        "gpiochip \(chip ?? "(any)") \(id)"
    }

    /// Finds a line. Throws an error naming the chip and line, with what to do.
    func line(chip label: String?, _ id: GPIOLineID) throws(HardwareError) -> OpaquePointer {
        let what = Self.describe(chip: label, id)
        if let label {
            let chip: OpaquePointer
            if let c = byLabel[label] {
                chip = c
            } else {
                errno = 0
                guard let c = gpiod_chip_open_by_label(label) else {
                    throw LinuxError.make(what, "open the chip by label", errno: errno == 0 ? ENOENT : errno, kind: .gpio)
                }
                chips.append(c); byLabel[label] = c; chip = c
            }
            switch id {
            case .name(let n):
                errno = 0
                guard let l = gpiod_chip_find_line(chip, n) else {
                    throw LinuxError.make(what, "find the line by name", errno: errno == 0 ? ENOENT : errno, kind: .gpio)
                }
                return l
            case .offset(let o):
                let count = gpiod_chip_num_lines(chip)
                guard o < count else {
                    throw HardwareError(.invalidArgument, device: what, operation: "get the line", reason: "the chip has \(count) lines (offsets 0 to \(Int(count) - 1)); check the board file")
                }
                errno = 0
                guard let l = gpiod_chip_get_line(chip, o) else {
                    throw LinuxError.make(what, "get the line", errno: errno == 0 ? EINVAL : errno, kind: .gpio)
                }
                return l
            }
        }
        guard case .name(let n) = id else {
            throw HardwareError(.invalidArgument, device: what, operation: "find the line", reason: "a line given by offset needs the chip's label")
        }
        errno = 0
        guard let l = gpiod_line_find(n) else {
            throw LinuxError.make(what, "find the line by name on every chip", errno: errno == 0 ? ENOENT : errno, kind: .gpio)
        }
        // gpiod_line_find opened a handle of the line's chip for it: close it with the others.
        if let c = gpiod_line_get_chip(l) { chips.append(c) }
        return l
    }
}

/// One GPIO output line (a buzzer, an LED), requested from the kernel until closed. Used by one
/// thread at a time (the pattern player's, once playing).
public final class GPIOOutputLine: @unchecked Sendable {
    public let name: String
    private let chips = GPIOChipSet()
    private var line: OpaquePointer?
    public let activeLow: Bool

    /// Requests the line as an output, initially inactive (off). `activeLow`: the line is driven
    /// low for "on" (an LED wired to 3V3, a low-side transistor with inverted logic).
    public init(chip: String?, line id: GPIOLineID, activeLow: Bool = false, consumer: String = "deskpet") throws(HardwareError) {
        name = GPIOChipSet.describe(chip: chip, id)
        self.activeLow = activeLow
        let l = try chips.line(chip: chip, id)
        let flags: Int32 = activeLow ? Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) : 0
        guard gpiod_line_request_output_flags(l, consumer, flags, 0) == 0 else {
            throw LinuxError.make(name, "request as output", errno: errno, kind: .gpio)
        }
        line = l
    }

    deinit { close() }

    /// Sets the line: true = on (active).
    public func set(_ on: Bool) throws(HardwareError) {
        guard let line else { throw HardwareError(.closed, device: name, operation: "set \(on ? 1 : 0)", reason: "the line was closed") }
        guard gpiod_line_set_value(line, on ? 1 : 0) == 0 else {
            throw LinuxError.make(name, "set \(on ? 1 : 0)", errno: errno, kind: .gpio)
        }
    }

    /// Releases the line (it returns to the board's default) and closes its chip.
    public func close() {
        line = nil
        chips.closeAll()
    }
}
