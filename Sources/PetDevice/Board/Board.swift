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
    /// Edges of one key closer together than this are bounces (SPEC §14: 30 ms unless the board says).
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
public struct GPIOLine: Sendable, Hashable, CustomStringConvertible {
    public enum Line: Sendable, Hashable {
        case offset(Int)
        case name(String)
    }
    public var chip: String
    public var line: Line
    public init(chip: String, line: Line) { self.chip = chip; self.line = line }
    public var description: String {
        switch line {
        case .offset(let n): "\(chip) line \(n)"
        case .name(let n): "\(chip) \(n)"
        }
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
        /// Where the picture starts in the controller's memory (ST7789 only; e.g. a 240×240 panel
        /// on the 240×320 controller turned 180° starts at row 80).
        public var columnOffset: Int
        public var rowOffset: Int
        public var bus: DisplayBus
        /// Data/command select, reset, backlight, busy (e-paper) and a GPIO chip select.
        public var dc: GPIOLine?
        public var reset: GPIOLine?
        public var backlight: GPIOLine?
        public var busy: GPIOLine?
        public var chipSelect: GPIOLine?
        public init(controller: Controller, width: Int, height: Int, rotation: Int = 0, columnOffset: Int = 0,
                    rowOffset: Int = 0, bus: DisplayBus, dc: GPIOLine? = nil, reset: GPIOLine? = nil,
                    backlight: GPIOLine? = nil, busy: GPIOLine? = nil, chipSelect: GPIOLine? = nil) {
            self.controller = controller; self.width = width; self.height = height; self.rotation = rotation
            self.columnOffset = columnOffset; self.rowOffset = rowOffset; self.bus = bus
            self.dc = dc; self.reset = reset; self.backlight = backlight; self.busy = busy; self.chipSelect = chipSelect
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

    public enum Buzzer: Sendable, Equatable {
        /// A buzzer switched by a GPIO line (the driver makes the tone).
        case line(GPIOLine)
        /// A PWM channel (sysfs `/sys/class/pwm/<chip>/pwm<channel>`).
        case pwm(chip: String, channel: Int)
    }

    public enum LED: Sendable, Equatable {
        case single(GPIOLine, activeLow: Bool)
        case rgb(red: GPIOLine, green: GPIOLine, blue: GPIOLine, activeLow: Bool)
    }
}
