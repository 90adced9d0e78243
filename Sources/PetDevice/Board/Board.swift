import PetUI

/// One board: what a DeskPet is built from — its display and how it is wired, its keys, an
/// optional buzzer and LED, and what it can do. Read from a board file (docs/boards.md) by
/// `BoardParser`, which checks everything here, so a `Board` value is always consistent: the
/// display fits its controller, every GPIO line is used once, the keys match the layout.
///
/// The simulator is just another board: its display and keys use the `sim` bus and need no pins.
public struct Board: Sendable, Equatable {
    /// The board's name (lower-case letters, digits and `-`; equal to the file's name without
    /// `.board`).
    public var name: String
    /// One line for people: what the board is.
    public var description: String
    public var display: Display
    public var buttons: Buttons
    public var buzzer: Buzzer?
    public var led: LED?
    /// Whether the A+C chord (and its 3-second factory reset) exists: the layout's, or `no` when
    /// the board file turns it off.
    public var hasChord: Bool
    public var hasBattery: Bool
    /// The screen layouts the UI draws for this display.
    public var profile: DisplayProfile

    /// The keys and what their gestures mean.
    public var layout: InputLayout { buttons.layout }
    /// Edges of one key closer together than this are bounces (docs/boards.md: 30 ms unless the board says).
    public var debounceMs: Int { buttons.debounceMs }
    /// How the panel is turned: 0, 90, 180 or 270 degrees.
    public var rotation: Int { display.rotation }
    /// A simulator board (display and keys on the `sim` bus).
    public var isSimulator: Bool { display.bus == .sim }

    public init(name: String, description: String, display: Display, buttons: Buttons, buzzer: Buzzer?, led: LED?,
                hasChord: Bool, hasBattery: Bool, profile: DisplayProfile) {
        self.name = name; self.description = description; self.display = display; self.buttons = buttons
        self.buzzer = buzzer; self.led = led; self.hasChord = hasChord; self.hasBattery = hasBattery
        self.profile = profile
    }
}

/// One GPIO line: the chip found by its label (`gpiodetect` shows it in brackets, e.g.
/// `pinctrl-bcm2711`; never a chip number, which can change between boots) and the line on it,
/// by name (`GPIO6`, as `gpioinfo` shows) or by offset.
///
/// A board that fits several machines (one HAT on a Pi 3, 4 or 5) lists more than one label:
/// `chip` is the first, `alternatives` the others, and `resolved(present:)` picks the first label
/// the running machine has.
public struct GPIOLine: Sendable, Hashable, CustomStringConvertible {
    public enum Line: Sendable, Hashable {
        case offset(Int)
        case name(String)
    }
    public var chip: String
    public var line: Line
    /// Other labels the chip may have on other machines, tried in order after `chip`.
    public var alternatives: [String]
    public init(chip: String, line: Line, alternatives: [String] = []) {
        self.chip = chip; self.line = line; self.alternatives = alternatives
    }
    /// Every label the line's chip may have, in the board file's order.
    public var chips: [String] { [chip] + alternatives }
    public var description: String {
        let chips = chips.joined(separator: "|")
        return switch line {
        case .offset(let n): "\(chips) line \(n)"
        case .name(let n): "\(chips) \(n)"
        }
    }
    /// The line on the first of its chips that `present` says this machine has (no alternatives
    /// left), or the line unchanged when none is present (opening it then names the first label).
    public func resolved(present: (String) -> Bool) -> GPIOLine {
        guard !alternatives.isEmpty else { return self }
        guard let label = chips.first(where: present) else { return self }
        return GPIOLine(chip: label, line: line)
    }
}

extension Board {
    /// The display controllers a board may name.
    public enum Controller: String, Sendable, CaseIterable {
        /// Colour TFT, RGB565 over SPI (up to 240×320).
        case st7789
        /// 1-bit OLED, 128×64 or 128×32, over I2C (or 4-wire SPI).
        case ssd1306
        /// 1-bit e-paper over SPI (up to 176×296), e.g. Waveshare 2.13" V4 (122×250).
        case ssd1680
        /// A Linux framebuffer (`/dev/fbN`): the kernel's driver talks to the panel.
        case fbdev
    }

    /// How the display is connected.
    public enum DisplayBus: Sendable, Equatable {
        case spi(device: String, clockHz: Int, mode: Int)
        case i2c(device: String, address: Int)
        case framebuffer(device: String)
        /// The simulator's headless panel (it decodes the controller's own bytes).
        case sim
    }

    public struct Display: Sendable, Equatable {
        public var controller: Controller
        /// The picture as the pet sees it, after rotation.
        public var width: Int
        public var height: Int
        public var rotation: Int
        /// Where the glass sits in the controller's 240 × 320 memory at rotation 0, unmirrored
        /// (ST7789 only; 0, 0 for the common 240 × 240 and 240 × 320 modules). The driver derives
        /// each rotation's window offset from it (`ST7789.Config.glassColumn`, `glassRow`).
        public var columnOffset: Int
        public var rowOffset: Int
        public var bus: DisplayBus
        /// Data/command select, reset, backlight, busy (e-paper) and a GPIO chip select.
        public var dc: GPIOLine?
        public var reset: GPIOLine?
        public var backlight: GPIOLine?
        public var busy: GPIOLine?
        public var chipSelect: GPIOLine?
        /// A line that switches the panel's power on (driven high while the display is open), as
        /// on Waveshare's e-paper HATs (their PWR pin).
        public var power: GPIOLine?
        /// The visible diagonal of the glass in inches (`diagonal = 1.3`; the size's usual panel
        /// when the file does not say, `DisplayProfile.panelDiagonalInches`): the physical text
        /// height follows from it (docs/boards.md, at least 1.1 mm).
        public var diagonalInches: Double?
        public init(controller: Controller, width: Int, height: Int, rotation: Int = 0, columnOffset: Int = 0,
                    rowOffset: Int = 0, bus: DisplayBus, dc: GPIOLine? = nil, reset: GPIOLine? = nil,
                    backlight: GPIOLine? = nil, busy: GPIOLine? = nil, chipSelect: GPIOLine? = nil,
                    power: GPIOLine? = nil, diagonalInches: Double? = nil) {
            self.diagonalInches = diagonalInches
            self.controller = controller; self.width = width; self.height = height; self.rotation = rotation
            self.columnOffset = columnOffset; self.rowOffset = rowOffset; self.bus = bus
            self.dc = dc; self.reset = reset; self.backlight = backlight; self.busy = busy; self.chipSelect = chipSelect
            self.power = power
        }
    }

    /// How a key's line is pulled when nothing presses it.
    public enum Bias: String, Sendable, CaseIterable {
        case pullUp = "pull-up", pullDown = "pull-down", none
    }

    /// Where key presses come from.
    public enum ButtonBus: Sendable, Equatable {
        /// GPIO lines read with libgpiod (edges with kernel timestamps).
        case gpio(lines: [Button: GPIOLine], activeLow: Bool, bias: Bias)
        /// An input device (`gpio-keys` in the device tree): key codes per button.
        case evdev(device: String, codes: [Button: Int])
        /// The simulator: scripted presses and the terminal's keys.
        case sim
    }

    public struct Buttons: Sendable, Equatable {
        public var layout: InputLayout
        public var bus: ButtonBus
        public var debounceMs: Int
        public init(layout: InputLayout, bus: ButtonBus, debounceMs: Int = 30) {
            self.layout = layout; self.bus = bus; self.debounceMs = debounceMs
        }
    }

    /// What kind of buzzer a GPIO line drives (docs/sound-and-light.md).
    public enum BuzzerKind: String, Sendable, CaseIterable {
        /// Has its own oscillator: the line switches it on and off in the tone's rhythm.
        case active
        /// A bare piezo or speaker: the line is toggled at each step's frequency.
        case passive
    }

    public enum Buzzer: Sendable, Equatable {
        /// A buzzer switched by a GPIO line (the driver makes the tone).
        case line(GPIOLine, kind: BuzzerKind)
        /// A PWM channel (sysfs `/sys/class/pwm/<chip>/pwm<channel>`).
        case pwm(chip: String, channel: Int)
    }

    public enum LED: Sendable, Equatable {
        case single(GPIOLine, activeLow: Bool)
        case rgb(red: GPIOLine, green: GPIOLine, blue: GPIOLine, activeLow: Bool)
    }
}

extension Board {
    /// The board with every GPIO line on the first of its chip labels that `present` says this
    /// machine has (see `GPIOLine.resolved`). The Linux backends call it before opening lines, so
    /// one board file serves a Pi 3 (`pinctrl-bcm2835`), a Pi 4 (`pinctrl-bcm2711`) and a Pi 5
    /// (`pinctrl-rp1`).
    public func resolvingChips(present: (String) -> Bool) -> Board {
        func r(_ l: GPIOLine?) -> GPIOLine? { l?.resolved(present: present) }
        var b = self
        b.display.dc = r(display.dc); b.display.reset = r(display.reset); b.display.backlight = r(display.backlight)
        b.display.busy = r(display.busy); b.display.chipSelect = r(display.chipSelect); b.display.power = r(display.power)
        if case let .gpio(lines, activeLow, bias) = buttons.bus {
            b.buttons.bus = .gpio(lines: lines.mapValues { $0.resolved(present: present) }, activeLow: activeLow, bias: bias)
        }
        if case let .line(l, kind)? = buzzer { b.buzzer = .line(l.resolved(present: present), kind: kind) }
        switch led {
        case let .single(l, activeLow)?: b.led = .single(l.resolved(present: present), activeLow: activeLow)
        case let .rgb(red, green, blue, activeLow)?:
            b.led = .rgb(red: red.resolved(present: present), green: green.resolved(present: present),
                         blue: blue.resolved(present: present), activeLow: activeLow)
        case nil: break
        }
        return b
    }
}
