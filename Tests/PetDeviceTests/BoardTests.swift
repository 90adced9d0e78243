import Foundation
import XCTest
import TestSupport
import PetDevice
import PetUI

/// Board files (docs/boards.md): the simulator's boards in boards/ parse, equal their built-in
/// copies byte for byte, and every kind of mistake is refused naming file, line, key and problem.
final class BoardTests: XCTestCase {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func boardFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: root.appendingPathComponent("boards"), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "board" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    // MARK: - The simulator's boards

    func testEverySimBoardParsesWithItsDisplayAndKeys() throws {
        let expected: [String: (DisplayProfile, InputLayout, rotation: Int)] = [
            "sim-240x240": (.square240, .threeButtons, 0),
            "sim-240x240-joystick": (.square240, .joystick, 0),
            "sim-320x240-4buttons": (.wide320, .fourButtons, 90),
            "sim-oled-128x64": (.oled128, .threeButtons, 0),
            "sim-epaper-250x122": (.epaper250, .threeButtons, 90),
        ]
        let files = try Self.boardFiles().filter { $0.lastPathComponent.hasPrefix("sim-") }
        XCTAssertEqual(Set(files.map { $0.deletingPathExtension().lastPathComponent }), Set(expected.keys))
        for url in files {
            let bytes = [UInt8](try Data(contentsOf: url))
            let board = try BoardParser.parse(bytes: bytes, file: "boards/\(url.lastPathComponent)")
            let want = try XCTUnwrap(expected[board.name])
            XCTAssertEqual(board.profile, want.0, board.name)
            XCTAssertEqual(board.layout, want.1, board.name)
            XCTAssertEqual(board.rotation, want.rotation, board.name)
            XCTAssertEqual(board.debounceMs, 30, board.name)
            XCTAssertEqual(board.hasChord, want.1 != .joystick, board.name)
            XCTAssertTrue(board.isSimulator, board.name)
            XCTAssertEqual(board.display.bus, .sim)
            XCTAssertEqual(board.buttons.bus, .sim)
            XCTAssertFalse(board.description.isEmpty, board.name)
        }
    }

    // MARK: - The real boards

    /// Every file in boards/ parses, and its name is its file's.
    func testEveryBoardFileParses() throws {
        let files = try Self.boardFiles()
        XCTAssertGreaterThanOrEqual(files.count, 10)
        for url in files {
            let board = try BoardParser.parse(bytes: [UInt8](try Data(contentsOf: url)), file: "boards/\(url.lastPathComponent)")
            XCTAssertEqual(board.name, url.deletingPathExtension().lastPathComponent)
            XCTAssertEqual(board.isSimulator, board.name.hasPrefix("sim-"), board.name)
        }
    }

    /// The boards hobbyists buy (docs/boards/): each maps to the expected screens, keys,
    /// controller, bus and lines.
    func testTheRealBoardsMapToTheirHardware() throws {
        func load(_ name: String) throws -> Board {
            let url = Self.root.appendingPathComponent("boards/\(name).board")
            return try BoardParser.parse(bytes: [UInt8](try Data(contentsOf: url)), file: "boards/\(name).board")
        }
        let pis = ["pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1"]
        func pin(_ n: String, _ chips: [String] = pis) -> GPIOLine {
            GPIOLine(chip: chips[0], line: .name(n), alternatives: Array(chips.dropFirst()))
        }
        let expected: [String: (DisplayProfile, InputLayout, Board.Controller, rotation: Int)] = [
            "pi-waveshare-lcd-hat-1in3": (.square240, .joystick, .st7789, 0),
            "pi-pimoroni-display-hat-mini": (.wide320, .fourButtons, .st7789, 90),
            "pi-ssd1306-i2c-3buttons": (.oled128, .threeButtons, .ssd1306, 0),
            "pi-waveshare-epaper-2in13-v4": (.epaper250, .threeButtons, .ssd1680, 90),
            "linux-fbdev-gpio-keys": (.wide320, .threeButtons, .fbdev, 0),
        ]
        let real = try Self.boardFiles().map { $0.deletingPathExtension().lastPathComponent }.filter { !$0.hasPrefix("sim-") }
        XCTAssertEqual(Set(real), Set(expected.keys))
        for (name, want) in expected {
            let b = try load(name)
            XCTAssertEqual(b.profile, want.0, name)
            XCTAssertEqual(b.layout, want.1, name)
            XCTAssertEqual(b.display.controller, want.2, name)
            XCTAssertEqual(b.rotation, want.rotation, name)
            XCTAssertEqual(b.debounceMs, 30, name)
            XCTAssertEqual(b.hasChord, want.1 != .joystick, name)
            XCTAssertFalse(b.isSimulator, name)
            XCTAssertFalse(b.description.isEmpty, name)
            XCTAssertEqual(b.display.columnOffset, 0, name)
            XCTAssertEqual(b.display.rowOffset, 0, name)
        }

        let lcd = try load("pi-waveshare-lcd-hat-1in3")
        XCTAssertEqual(lcd.display.bus, .spi(device: "/dev/spidev0.0", clockHz: 32_000_000, mode: 0))
        XCTAssertEqual(lcd.display.dc, pin("GPIO25"))
        XCTAssertEqual(lcd.display.reset, pin("GPIO27"))
        XCTAssertEqual(lcd.display.backlight, pin("GPIO24"))
        XCTAssertEqual(lcd.buttons.bus, .gpio(lines: [.up: pin("GPIO6"), .down: pin("GPIO19"), .left: pin("GPIO5"),
                                                      .right: pin("GPIO26"), .centre: pin("GPIO13")],
                                              activeLow: true, bias: .pullUp))
        XCTAssertNil(lcd.buzzer)
        XCTAssertNil(lcd.led)

        let mini = try load("pi-pimoroni-display-hat-mini")
        let miniChips = ["pinctrl-bcm2711", "pinctrl-rp1", "pinctrl-bcm2835"]
        XCTAssertEqual(mini.display.bus, .spi(device: "/dev/spidev0.1", clockHz: 60_000_000, mode: 0))
        XCTAssertEqual(mini.display.dc, GPIOLine(chip: "pinctrl-bcm2711", line: .offset(9), alternatives: ["pinctrl-rp1", "pinctrl-bcm2835"]))
        XCTAssertNil(mini.display.reset)
        XCTAssertEqual(mini.display.backlight, pin("GPIO13", miniChips))
        XCTAssertEqual(mini.buttons.bus, .gpio(lines: [.a: pin("GPIO5", miniChips), .d: pin("GPIO6", miniChips),
                                                       .b: pin("GPIO16", miniChips), .c: pin("GPIO24", miniChips)],
                                               activeLow: true, bias: .pullUp))
        XCTAssertEqual(mini.led, .rgb(red: pin("GPIO17", miniChips), green: pin("GPIO27", miniChips),
                                      blue: pin("GPIO22", miniChips), activeLow: true))
        // The driver gets the glass at 0, 0 of the memory: a 320x240 picture needs no window offset.
        let miniConfig = ST7789.Config(width: 320, height: 240, rotation: mini.rotation,
                                       glassColumn: mini.display.columnOffset, glassRow: mini.display.rowOffset)
        XCTAssertNil(miniConfig.problem)
        XCTAssertTrue(miniConfig.windowOffset == (0, 0))

        let oled = try load("pi-ssd1306-i2c-3buttons")
        XCTAssertEqual(oled.display.bus, .i2c(device: "/dev/i2c-1", address: 0x3C))
        XCTAssertEqual(oled.buttons.bus, .gpio(lines: [.a: pin("GPIO5"), .b: pin("GPIO6"), .c: pin("GPIO13")],
                                               activeLow: true, bias: .pullUp))
        XCTAssertEqual(oled.buzzer, .line(pin("GPIO12"), kind: .passive))

        let epd = try load("pi-waveshare-epaper-2in13-v4")
        XCTAssertEqual(epd.display.bus, .spi(device: "/dev/spidev0.0", clockHz: 4_000_000, mode: 0))
        XCTAssertEqual(epd.display.dc, pin("GPIO25"))
        XCTAssertEqual(epd.display.reset, pin("GPIO17"))
        XCTAssertEqual(epd.display.busy, pin("GPIO24"))
        XCTAssertEqual(epd.display.power, pin("GPIO18"))
        XCTAssertNil(epd.display.chipSelect)
        XCTAssertEqual(epd.buttons.bus, .gpio(lines: [.a: pin("GPIO5"), .b: pin("GPIO6"), .c: pin("GPIO13")],
                                              activeLow: true, bias: .pullUp))

        let fb = try load("linux-fbdev-gpio-keys")
        XCTAssertEqual(fb.display.bus, .framebuffer(device: "/dev/fb0"))
        XCTAssertEqual(fb.buttons.bus, .evdev(device: "deskpet-keys", codes: [.a: 103, .b: 28, .c: 1]))
    }

    /// The simulator carries only sim-* boards; a real board is never built in.
    func testOnlySimBoardsAreBuiltIn() {
        XCTAssertTrue(Board.builtInNames.allSatisfy { $0.hasPrefix("sim-") }, "\(Board.builtInNames)")
        XCTAssertNil(try Board.builtIn(named: "pi-waveshare-lcd-hat-1in3"))
    }

    // MARK: - Chip labels, offsets, buzzer kinds, power lines, input device names

    func testAListOfChipLabelsResolvesToTheFirstPresent() throws {
        let text = Self.real.replacingOccurrences(of: "chip = pinctrl-bcm2711", with: "chip = pinctrl-bcm2835, pinctrl-bcm2711 ,pinctrl-rp1")
        let b = try BoardParser.parse(text, file: "boards/t.board")
        let all = ["pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1"]
        XCTAssertEqual(b.display.dc?.chips, all)
        XCTAssertEqual(b.display.dc?.description, "pinctrl-bcm2835|pinctrl-bcm2711|pinctrl-rp1 GPIO25")
        // A Pi 4: every line moves to pinctrl-bcm2711, with no alternatives left.
        let pi4 = b.resolvingChips { $0 == "pinctrl-bcm2711" }
        XCTAssertEqual(pi4.display.dc, GPIOLine(chip: "pinctrl-bcm2711", line: .name("GPIO25")))
        XCTAssertEqual(pi4.buzzer, .line(GPIOLine(chip: "pinctrl-bcm2711", line: .name("GPIO13")), kind: .active))
        XCTAssertEqual(pi4.led, .single(GPIOLine(chip: "pinctrl-bcm2711", line: .name("GPIO26")), activeLow: false))
        guard case let .gpio(lines, _, _) = pi4.buttons.bus else { return XCTFail("gpio keys") }
        XCTAssertTrue(lines.values.allSatisfy { $0.chip == "pinctrl-bcm2711" && $0.alternatives.isEmpty })
        // A Pi 5 picks the last; a machine with none keeps the list (opening names the first).
        XCTAssertEqual(b.resolvingChips { $0 == "pinctrl-rp1" }.display.reset?.chip, "pinctrl-rp1")
        XCTAssertEqual(b.resolvingChips { _ in false }, b)
        // The same offset under the same list of labels is one line.
        let twice = text.replacingOccurrences(of: "bl = GPIO24", with: "bl = 7").replacingOccurrences(of: "line = GPIO26", with: "line = 7")
        expect(twice, .lineUsedTwice, "boards/t.board:28: led.line: 7 is already used by display.bl (line 14)")
        expect(Self.real.replacingOccurrences(of: "chip = pinctrl-bcm2711", with: "chip = pinctrl-bcm2711, gpiochip4"), .badValue,
               "boards/t.board:2: chip: 'gpiochip4' is a chip number, which can change between boots: name the chip by its label (gpiodetect shows it in brackets, e.g. pinctrl-bcm2711)")
        expect(Self.real.replacingOccurrences(of: "chip = pinctrl-bcm2711", with: "chip = pinctrl-bcm2711,,pinctrl-rp1"), .badValue,
               "boards/t.board:2: chip: 'pinctrl-bcm2711,,pinctrl-rp1' has an empty label: labels are separated by single commas")
        expect(Self.real.replacingOccurrences(of: "chip = pinctrl-bcm2711", with: "chip = pinctrl-rp1, pinctrl-rp1"), .badValue,
               "boards/t.board:2: chip: the label 'pinctrl-rp1' is given twice")
    }

    /// column-offset and row-offset say where the glass sits in the 240x320 memory at rotation 0,
    /// as the driver takes them (ST7789.Config.glassColumn/glassRow), whatever the rotation.
    func testST7789OffsetsAreTheGlassPositionAtRotationZero() throws {
        for rotation in [0, 90, 180, 270] {
            let text = Self.real.replacingOccurrences(of: "rotation = 180", with: "rotation = \(rotation)")
            let b = try BoardParser.parse(text, file: "boards/t.board")
            let config = ST7789.Config(width: 240, height: 240, rotation: rotation, glassColumn: b.display.columnOffset,
                                       glassRow: b.display.rowOffset)
            XCTAssertNil(config.problem)
            // A 240x240 glass at 0, 0 needs 80 of offset at 90 (x) and 180 (y), none at 0 and 270.
            let want: (Int, Int) = switch rotation { case 90: (80, 0); case 180: (0, 80); default: (0, 0) }
            XCTAssertTrue(config.windowOffset == want, "rotation \(rotation): \(config.windowOffset)")
            // The glass may sit lower in memory (rows 0-80) but never to the side (240 columns).
            let low = text.replacingOccurrences(of: "row-offset = 0", with: "row-offset = 80")
            XCTAssertEqual(try BoardParser.parse(low, file: "boards/t.board").display.rowOffset, 80)
            expect(text.replacingOccurrences(of: "row-offset = 0", with: "column-offset = 1"), .outOfRange,
                   "boards/t.board:8: display.column-offset: 1 is out of range: 0–0 (a 240x240 glass in the controller's 240 columns, counted at rotation 0)")
        }
        // A 320x240 picture is the whole 240x320 glass: no offset fits.
        let wide = Self.real.replacingOccurrences(of: "size = 240x240", with: "size = 320x240")
            .replacingOccurrences(of: "rotation = 180", with: "rotation = 90").replacingOccurrences(of: "row-offset = 0", with: "row-offset = 1")
        expect(wide, .outOfRange, "boards/t.board:8: display.row-offset: 1 is out of range: 0–0 (a 240x320 glass in the controller's 320 rows, counted at rotation 0)")
    }

    func testBuzzerKindsPowerLinesAndInputDeviceNames() {
        let passive = Self.real.replacingOccurrences(of: "line = GPIO13", with: "line = GPIO13\nkind = passive")
        XCTAssertEqual(try? BoardParser.parse(passive, file: "boards/t.board").buzzer,
                       .line(GPIOLine(chip: "pinctrl-bcm2711", line: .name("GPIO13")), kind: .passive))
        expect(Self.real.replacingOccurrences(of: "line = GPIO13", with: "line = GPIO13\nkind = loud"), .badValue,
               "boards/t.board:26: buzzer.kind: 'loud' is not one of: active, passive")
        expect(Self.real.replacingOccurrences(of: "line = GPIO13", with: "pwm-chip = pwmchip0\nkind = passive"), .impossibleCombination,
               "boards/t.board:26: buzzer.kind: kind is for a buzzer on a GPIO line; a PWM channel always plays the pitch")
        // pwr: an e-paper HAT's power switch; an st7789 has none.
        expect(edit("bl = GPIO24", "pwr = GPIO18"), .impossibleCombination,
               "boards/t.board:14: display.pwr: st7789 over spi has no pwr (a power-enable line)")
        // evdev keys: a device name or a /dev/input path.
        let evdev = """
        name = t
        [display]
        controller = fbdev
        size = 240x240
        bus = fb
        device = /dev/fb1
        [buttons]
        layout = 3
        bus = evdev
        device = button@5
        a = KEY_UP
        b = KEY_ENTER
        c = KEY_ESC
        """
        XCTAssertEqual(try? BoardParser.parse(evdev, file: "boards/t.board").buttons.bus,
                       .evdev(device: "button@5", codes: [.a: 103, .b: 28, .c: 1]))
        expect(evdev.replacingOccurrences(of: "device = button@5", with: "device = dev/input/event0"), .badValue,
               "boards/t.board:10: buttons.device: 'dev/input/event0' is not an input device name (no /) or a /dev/input/… path")
        expect(evdev.replacingOccurrences(of: "device = button@5", with: "device = /dev/event0"), .badValue,
               "boards/t.board:10: buttons.device: '/dev/event0' is not a /dev/input/… device path (e.g. /dev/input/by-path/platform-gpio-keys-event)")
    }

    /// deskpet-sim carries the boards' text (BoardData.swift, tools/embed-boards.py): each copy
    /// equals its file byte for byte, and every sim board file is built in.
    func testBuiltInBoardsAreByteIdenticalToTheirFiles() throws {
        let files = try Self.boardFiles().filter { $0.lastPathComponent.hasPrefix("sim-") }
        XCTAssertEqual(Board.builtInNames.sorted(), files.map { $0.deletingPathExtension().lastPathComponent }.sorted(),
                       "boards/sim-*.board and BoardData.swift differ: run python3 tools/embed-boards.py")
        for url in files {
            let name = url.deletingPathExtension().lastPathComponent
            let text = try XCTUnwrap(Board.builtInTexts.first { $0.name == name }?.text, name)
            XCTAssertEqual(Array(text.utf8), [UInt8](try Data(contentsOf: url)),
                           "\(name): the built-in copy differs from the file: run python3 tools/embed-boards.py")
            XCTAssertNotNil(try Board.builtIn(named: name))
        }
        XCTAssertEqual(try Board.defaultSimulator.profile, .square240)
        XCTAssertNil(try Board.builtIn(named: "no-such-board"))
    }

    /// The examples in docs/boards.md (```ini blocks) are real board files that parse.
    func testTheDocsExamplesParse() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/boards.md"), encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in doc.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```ini" { current = []; continue }
            if current != nil, line == "```" { blocks.append(current!.joined(separator: "\n") + "\n"); current = nil; continue }
            current?.append(line)
        }
        XCTAssertGreaterThanOrEqual(blocks.count, 2)
        var names: [String] = []
        for block in blocks {
            let board = try BoardParser.parse(block, file: "docs/boards.md example")
            names.append(board.name)
        }
        XCTAssertTrue(names.contains("example-pi-st7789"), "\(names)")
    }

    // MARK: - Errors name file, line, key and problem

    /// A complete real board (illustrative) that the error tests break one line at a time.
    static let real = """
    name = t
    chip = pinctrl-bcm2711

    [display]
    controller = st7789
    size = 240x240
    rotation = 180
    row-offset = 0
    bus = spi
    device = /dev/spidev0.0
    clock-hz = 40_000_000
    dc = GPIO25
    rst = GPIO27
    bl = GPIO24

    [buttons]
    layout = 3
    bus = gpio
    a = GPIO5
    b = GPIO6
    c = GPIO16
    debounce-ms = 30

    [buzzer]
    line = GPIO13

    [led]
    line = GPIO26

    [capabilities]
    battery = yes
    """

    func error(_ text: String, file: String = "boards/t.board",
               sourceFile: StaticString = #filePath, sourceLine: UInt = #line) -> BoardError? {
        do {
            let b = try BoardParser.parse(text, file: file)
            XCTFail("expected an error, got board \(b.name)", file: sourceFile, line: sourceLine)
        } catch {
            return error
        }
        return nil
    }

    /// `real` with `old` (a whole line) replaced by `new` (nil: removed).
    func edit(_ old: String, _ new: String?) -> String {
        var lines = Self.real.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let i = lines.firstIndex(of: old) else { XCTFail("no line '\(old)'"); return Self.real }
        if let new { lines[i] = new } else { lines.remove(at: i) }
        return lines.joined(separator: "\n")
    }

    func expect(_ text: String, _ kind: BoardError.Kind, _ description: String,
                sourceFile: StaticString = #filePath, sourceLine: UInt = #line) {
        guard let e = error(text, sourceFile: sourceFile, sourceLine: sourceLine) else { return }
        XCTAssertEqual(e.kind, kind, e.description, file: sourceFile, line: sourceLine)
        XCTAssertEqual(e.description, description, file: sourceFile, line: sourceLine)
    }

    func testTheRealExampleParses() throws {
        let b = try BoardParser.parse(Self.real, file: "boards/t.board")
        XCTAssertEqual(b.profile, .square240)
        XCTAssertEqual(b.rotation, 180)
        XCTAssertEqual(b.display.rowOffset, 0)
        XCTAssertEqual(b.display.bus, .spi(device: "/dev/spidev0.0", clockHz: 40_000_000, mode: 0))
        XCTAssertEqual(b.display.dc, GPIOLine(chip: "pinctrl-bcm2711", line: .name("GPIO25")))
        guard case let .gpio(lines, activeLow, bias) = b.buttons.bus else { return XCTFail("gpio keys") }
        XCTAssertEqual(lines[.b], GPIOLine(chip: "pinctrl-bcm2711", line: .name("GPIO6")))
        XCTAssertTrue(activeLow)
        XCTAssertEqual(bias, .pullUp)
        XCTAssertEqual(b.buzzer, .line(GPIOLine(chip: "pinctrl-bcm2711", line: .name("GPIO13")), kind: .active))
        XCTAssertEqual(b.led, .single(GPIOLine(chip: "pinctrl-bcm2711", line: .name("GPIO26")), activeLow: false))
        XCTAssertTrue(b.hasChord)
        XCTAssertTrue(b.hasBattery)
        XCTAssertFalse(b.isSimulator)
    }

    func testUnknownKeySectionAndDuplicates() {
        expect(edit("rotation = 180", "rotate = 180"), .unknownKey,
               "boards/t.board:7: display.rotate: unknown key in [display] (keys: controller, size, diagonal, rotation, column-offset, row-offset, bus, device, clock-hz, spi-mode, address, chip, dc, rst, bl, busy, cs, pwr)")
        expect("colour = red\n" + Self.real, .unknownKey,
               "boards/t.board:1: colour: unknown key at the top of the file (name, description, chip) — is a [section] header missing?")
        expect(edit("[led]", "[wifi]"), .unknownSection,
               "boards/t.board:27: [wifi]: unknown section (sections: [display], [buttons], [buzzer], [led], [capabilities])")
        expect(edit("debounce-ms = 30", "layout = 4"), .duplicateKey,
               "boards/t.board:22: buttons.layout: the key is given twice (first at line 17)")
        expect(Self.real + "\n[display]\n", .duplicateSection,
               "boards/t.board:32: [display]: the section is given twice (first at line 4)")
        expect(edit("bus = spi", "bus spi"), .syntax, "boards/t.board:9: expected 'key = value' or a [section], got 'bus spi'")
        expect(edit("[led]", "[led"), .syntax, "boards/t.board:27: a section header is a name in brackets, e.g. [display]")
        expect(edit("bus = spi", "bus ="), .badValue, "boards/t.board:9: display.bus: the value is missing after '='")
    }

    func testALineUsedTwice() {
        // Same name anywhere in the board.
        expect(edit("c = GPIO16", "c = GPIO25"), .lineUsedTwice,
               "boards/t.board:21: buttons.c: GPIO25 is already used by display.dc (line 12)")
        // Same chip and offset.
        expect(edit("bl = GPIO24", "bl = 7").replacingOccurrences(of: "line = GPIO26", with: "line = 7"), .lineUsedTwice,
               "boards/t.board:28: led.line: 7 is already used by display.bl (line 14)")
        // The same offset on another chip is another line.
        let twoChips = edit("bl = GPIO24", "bl = 7").replacingOccurrences(of: "[led]\nline = GPIO26", with: "[led]\nchip = pet-leds\nline = 7")
        XCTAssertNoThrow(try BoardParser.parse(twoChips, file: "boards/t.board"))
        // Two evdev keys with one key code.
        let evdev = edit("bus = gpio", "bus = evdev\ndevice = /dev/input/event0")
            .replacingOccurrences(of: "a = GPIO5\nb = GPIO6\nc = GPIO16", with: "a = KEY_UP\nb = KEY_ENTER\nc = 103")
        expect(evdev, .lineUsedTwice, "boards/t.board:22: buttons.c: key code 103 is already used by buttons.a (line 20)")
    }

    func testMissingChipBusAndKeys() {
        expect(edit("chip = pinctrl-bcm2711", nil), .missingChip,
               "boards/t.board:11: display.dc: no GPIO chip to find the line on: add 'chip = LABEL' at the top of the file or in [display] (gpiodetect shows each chip's label in brackets, e.g. pinctrl-bcm2711)")
        expect(edit("chip = pinctrl-bcm2711", "chip = gpiochip0"), .badValue,
               "boards/t.board:2: chip: 'gpiochip0' is a chip number, which can change between boots: name the chip by its label (gpiodetect shows it in brackets, e.g. pinctrl-bcm2711)")
        expect(edit("bus = spi", nil), .missingBus,
               "boards/t.board:4: display.bus: missing: how the display is connected: bus = spi, i2c, fb or sim")
        expect(edit("bus = gpio", nil), .missingBus,
               "boards/t.board:16: buttons.bus: missing: where presses come from: bus = gpio, evdev or sim")
        expect(edit("size = 240x240", nil), .missingKey,
               "boards/t.board:4: display.size: missing: the picture's size as WIDTHxHEIGHT, e.g. 240x240")
        expect(edit("name = t", nil), .missingKey, "boards/t.board:1: name: missing: the board's name, e.g. name = sim-240x240")
        expect(edit("b = GPIO6", nil), .missingKey,
               "boards/t.board:16: buttons.b: missing: the GPIO line of key b (a name like GPIO6, or an offset)")
        expect(edit("dc = GPIO25", nil), .missingKey,
               "boards/t.board:4: display.dc: missing: st7789 over spi needs dc (the data/command line)")
        expect("name = t\n[buttons]\nlayout = 3\nbus = sim\n", .missingKey, "boards/t.board:4: [display]: the board has no [display] section")
        expect(edit("line = GPIO26", "red = GPIO26"), .missingKey,
               "boards/t.board:27: led.green: missing: an RGB LED needs red, green and blue lines")
        expect(edit("line = GPIO13", nil), .missingKey,
               "boards/t.board:24: [buzzer]: missing: line = (a GPIO line) or pwm-chip = (e.g. pwmchip0)")
        expect(edit("name = t", "name = other"), .badValue,
               "boards/t.board:1: name: the name 'other' differs from the file's name t.board (rename one of them)")
    }

    func testImpossibleSizesControllersAndRotations() {
        expect(edit("size = 240x240", "size = 0x240"), .impossibleSize,
               "boards/t.board:6: display.size: 0x240: width and height must be at least 1 pixel")
        expect(edit("size = 240x240", "size = -240x240"), .impossibleSize,
               "boards/t.board:6: display.size: -240x240: width and height must be at least 1 pixel")
        expect(edit("rotation = 180", "rotation = 0").replacingOccurrences(of: "size = 240x240", with: "size = 320x240"),
               .impossibleSize,
               "boards/t.board:6: display.size: 320x240 at rotation 0: st7789 drives at most 240x320 (240x320 at rotation 0 or 180, 320x240 at 90 or 270)")
        expect(edit("size = 240x240", "size = 240x400"), .impossibleSize,
               "boards/t.board:6: display.size: 240x400 at rotation 180: st7789 drives at most 240x320 (240x320 at rotation 0 or 180, 320x240 at 90 or 270)")
        let oled = "name = t\n[display]\ncontroller = ssd1306\nsize = 128x48\nbus = sim\n[buttons]\nlayout = 3\nbus = sim\n"
        expect(oled, .impossibleSize,
               "boards/t.board:4: display.size: 128x48 at rotation 0: ssd1306 panels are 128x64 or 128x32 (at rotation 90 or 270: 64x128 or 32x128)")
        let epaper = "name = t\n[display]\ncontroller = ssd1680\nsize = 250x122\nbus = sim\n[buttons]\nlayout = 3\nbus = sim\n"
        expect(epaper, .impossibleSize,
               "boards/t.board:4: display.size: 250x122 at rotation 0: ssd1680 drives at most 176x296 (at rotation 90 or 270: 296x176); the 2.13\" panel is 122x250, or 250x122 turned")
        expect(edit("size = 240x240", "size = 200x200"), .noLayout,
               "boards/t.board:6: display.size: the screens have no layout for 200x200 on a colour display yet (colour: 240x240, 320x240)")
        expect(oled.replacingOccurrences(of: "128x48", with: "128x32"), .noLayout,
               "boards/t.board:4: display.size: the screens have no layout for 128x32 on a mono display yet (mono: 128x64)")
        expect(edit("size = 240x240", "size = big"), .badValue,
               "boards/t.board:6: display.size: 'big' is not a size: WIDTHxHEIGHT, e.g. 240x240")
        expect(edit("controller = st7789", "controller = ili9341"), .unknownController,
               "boards/t.board:5: display.controller: unknown controller 'ili9341' (st7789, ssd1306, ssd1680 or fbdev)")
        expect(edit("rotation = 180", "rotation = 45"), .badRotation,
               "boards/t.board:7: display.rotation: '45' is not a rotation: 0, 90, 180 or 270 (degrees)")
        expect(edit("row-offset = 0", "row-offset = 81"), .outOfRange,
               "boards/t.board:8: display.row-offset: 81 is out of range: 0–80 (a 240x240 glass in the controller's 320 rows, counted at rotation 0)")
    }

    func testBadNumbersAndRanges() {
        expect(edit("debounce-ms = 30", "debounce-ms = 3o"), .badNumber,
               "boards/t.board:22: buttons.debounce-ms: '3o' is not a number (whole numbers like 30 or 0x3c)")
        expect(edit("debounce-ms = 30", "debounce-ms = 99999999999999999999999999"), .badNumber,
               "boards/t.board:22: buttons.debounce-ms: '99999999999999999999999999' is not a number (whole numbers like 30 or 0x3c)")
        expect(edit("debounce-ms = 30", "debounce-ms = 1001"), .outOfRange,
               "boards/t.board:22: buttons.debounce-ms: 1001 is out of range: 0–1000 ms")
        expect(edit("debounce-ms = 30", "debounce-ms = -1"), .outOfRange,
               "boards/t.board:22: buttons.debounce-ms: -1 is out of range: 0–1000 ms")
        expect(edit("clock-hz = 40_000_000", "clock-hz = 80000000"), .outOfRange,
               "boards/t.board:11: display.clock-hz: 80000000 is out of range: 100000–62500000 Hz for st7789")
        expect(edit("clock-hz = 40_000_000", "spi-mode = 4"), .outOfRange,
               "boards/t.board:11: display.spi-mode: 4 is out of range: SPI mode 0–3")
        expect(edit("a = GPIO5", "a = 5000"), .outOfRange, "boards/t.board:19: buttons.a: line offset 5000 is out of range: 0–1023")
        expect(edit("a = GPIO5", "a = GPIO 5"), .badValue,
               "boards/t.board:19: buttons.a: 'GPIO 5' is not a GPIO line: a line name as gpioinfo shows it (e.g. GPIO6) or an offset on the chip (e.g. 6)")
        expect(edit("battery = yes", "battery = maybe"), .badValue, "boards/t.board:31: capabilities.battery: 'maybe' is not yes or no")
        let zero = try? BoardParser.parse(edit("debounce-ms = 30", "debounce-ms = 0"), file: "boards/t.board")
        XCTAssertEqual(zero?.debounceMs, 0)
        let hex = try? BoardParser.parse(edit("debounce-ms = 30", "debounce-ms = 0x32"), file: "boards/t.board")
        XCTAssertEqual(hex?.debounceMs, 50)
    }

    /// The glass's diagonal (docs/boards.md, Text height): every board file says it, the screens'
    /// smallest face is at least 1.1 mm tall on it, and a glass too small for that is refused.
    func testDiagonalsAndTheTextHeight() throws {
        for url in try Self.boardFiles() {
            let text = try String(contentsOf: url, encoding: .utf8)
            XCTAssertTrue(text.contains("\ndiagonal = "), url.lastPathComponent)
            let b = try BoardParser.parse(bytes: Array(text.utf8), file: "boards/\(url.lastPathComponent)")
            let d = try XCTUnwrap(b.display.diagonalInches, b.name)
            let mm = try XCTUnwrap(b.profile.capHeightMM(b.profile.minimumFace, diagonalInches: d))
            XCTAssertGreaterThanOrEqual(mm, DisplayProfile.minimumCapHeightMM, b.name)
        }
        // Without the key: the size's usual panel.
        XCTAssertEqual(try BoardParser.parse(Self.real, file: "boards/t.board").display.diagonalInches, 1.3)
        let inches = try BoardParser.parse(edit("size = 240x240", "size = 240x240\ndiagonal = 1.54in"), file: "boards/t.board")
        XCTAssertEqual(inches.display.diagonalInches, 1.54)
        // A 1.0" 240x240 glass: 12x16 capitals of 1.05 mm.
        expect(edit("size = 240x240", "size = 240x240\ndiagonal = 1.0"), .impossibleSize,
               "boards/t.board:7: display.diagonal: the screens' smallest text would be 1.05 mm tall on a 1.0\" 240x240 panel, "
               + "under the 1.1 mm minimum (docs/boards.md)")
        expect(edit("size = 240x240", "size = 240x240\ndiagonal = big"), .badNumber,
               "boards/t.board:7: display.diagonal: 'big' is not a size in inches (like 1.3 or 2.0)")
        expect(edit("size = 240x240", "size = 240x240\ndiagonal = nan"), .badNumber,
               "boards/t.board:7: display.diagonal: 'nan' is not a size in inches (like 1.3 or 2.0)")
        expect(edit("size = 240x240", "size = 240x240\ndiagonal = 30"), .outOfRange,
               "boards/t.board:7: display.diagonal: 30.0 is out of range: 0.5–20 inches")
    }

    func testCombinationsThatCannotWork() {
        expect(edit("bus = spi", "bus = i2c"), .impossibleCombination,
               "boards/t.board:9: display.bus: st7789 is connected over spi or sim, not i2c")
        expect(edit("clock-hz = 40_000_000", "address = 0x3c"), .impossibleCombination,
               "boards/t.board:11: display.address: address is for bus = i2c; this display is on spi")
        expect(edit("layout = 3", "layout = joystick").replacingOccurrences(of: "a = GPIO5\nb = GPIO6\nc = GPIO16",
                                                                            with: "up = 1\ndown = 2\nleft = 3\nright = 4\ncentre = 5")
                .replacingOccurrences(of: "battery = yes", with: "chord = yes"), .impossibleCombination,
               "boards/t.board:33: capabilities.chord: a joystick has no A+C chord (its factory reset is a settings row)")
        expect(edit("c = GPIO16", "c = GPIO16\nd = GPIO17"), .impossibleCombination,
               "boards/t.board:22: buttons.d: layout 3 has no key d (its keys: a, b, c)")
    }

    func testMoreCombinations() {
        // ssd1680 needs busy.
        let epaper = """
        name = t
        chip = pinctrl-bcm2711
        [display]
        controller = ssd1680
        size = 250x122
        rotation = 270
        bus = spi
        device = /dev/spidev0.0
        dc = GPIO25
        rst = GPIO17
        [buttons]
        layout = 3
        bus = gpio
        a = GPIO5
        b = GPIO6
        c = GPIO16
        """
        expect(epaper, .missingKey, "boards/t.board:3: display.busy: missing: ssd1680 over spi needs busy (the panel's BUSY output)")
        let withBusy = epaper.replacingOccurrences(of: "rst = GPIO17", with: "rst = GPIO17\nbusy = GPIO24")
        XCTAssertEqual(try BoardParser.parse(withBusy, file: "boards/t.board").profile, .epaper250)
        expect(withBusy.replacingOccurrences(of: "busy = GPIO24", with: "busy = GPIO24\nbl = GPIO18"), .impossibleCombination,
               "boards/t.board:12: display.bl: ssd1680 over spi has no bl (the backlight line)")
        // ssd1306 on I2C and on SPI both work.
        let oled = """
        name = t
        [display]
        controller = ssd1306
        size = 128x64
        bus = i2c
        device = /dev/i2c-1
        address = 0x3d
        [buttons]
        layout = 3
        bus = evdev
        device = /dev/input/by-path/platform-gpio-keys-event
        a = KEY_UP
        b = KEY_ENTER
        c = KEY_ESC
        """
        let b = try? BoardParser.parse(oled, file: "boards/t.board")
        XCTAssertEqual(b?.display.bus, .i2c(device: "/dev/i2c-1", address: 0x3D))
        XCTAssertEqual(b?.buttons.bus, .evdev(device: "/dev/input/by-path/platform-gpio-keys-event", codes: [.a: 103, .b: 28, .c: 1]))
        expect(oled.replacingOccurrences(of: "0x3d", with: "0x50"), .outOfRange,
               "boards/t.board:7: display.address: 80 is out of range: an ssd1306 answers at 0x3c or 0x3d (its SA0 pin)")
        let oledSPI = oled.replacingOccurrences(of: "bus = i2c\ndevice = /dev/i2c-1\naddress = 0x3d",
                                                with: "bus = spi\ndevice = /dev/spidev0.1\ndc = 25\nchip = pinctrl-bcm2835")
        XCTAssertEqual(try? BoardParser.parse(oledSPI, file: "boards/t.board").display.bus,
                       .spi(device: "/dev/spidev0.1", clockHz: 8_000_000, mode: 0))
        expect(oled.replacingOccurrences(of: "address = 0x3d", with: "address = 0x3d\ndc = 25"), .impossibleCombination,
               "boards/t.board:8: display.dc: ssd1306 over i2c has no dc (the data/command line)")
        expect(oled.replacingOccurrences(of: "c = KEY_ESC", with: "c = KEY_ESC\nbias = pull-up"), .impossibleCombination,
               "boards/t.board:15: buttons.bias: bias is for bus = gpio; the kernel's gpio-keys driver handles it for evdev")
        // A simulator board has no pins, buzzer or GPIO keys.
        let sim = Board.builtInTexts[0].text.replacingOccurrences(of: "name = sim-240x240", with: "name = t")
        expect(sim.replacingOccurrences(of: "bus = sim\n\n[buttons]", with: "bus = sim\ndc = 25\n\n[buttons]"), .impossibleCombination,
               "boards/t.board:11: display.dc: a simulator display (bus = sim) has no pins")
        expect(sim + "[buzzer]\nline = 5\n", .impossibleCombination,
               "boards/t.board:16: [buzzer]: the simulator has no buzzer yet: leave [buzzer] out of a simulator board")
        expect(sim.replacingOccurrences(of: "layout = 3\nbus = sim", with: "layout = 3\nbus = gpio"), .impossibleCombination,
               "boards/t.board:14: buttons.bus: a simulator display (bus = sim) needs simulator buttons (bus = sim)")
        expect(sim.replacingOccurrences(of: "controller = st7789", with: "controller = fbdev"), .impossibleCombination,
               "boards/t.board:10: display.bus: an fbdev display is a framebuffer: bus = fb (the simulator decodes st7789, ssd1306 and ssd1680)")
        // Active-low keys need a pull-up.
        expect(edit("debounce-ms = 30", "bias = pull-down"), .impossibleCombination,
               "boards/t.board:22: buttons.bias: active-low keys connect the line to ground when pressed: they need bias = pull-up (or none with resistors on the board)")
        // A 3-button board may turn the chord off.
        let noChord = try? BoardParser.parse(edit("battery = yes", "chord = no"), file: "boards/t.board")
        XCTAssertEqual(noChord?.hasChord, false)
    }

    func testUnreadableFiles() {
        func bytesError(_ bytes: [UInt8]) -> BoardError? {
            do { _ = try BoardParser.parse(bytes: bytes, file: "boards/t.board"); XCTFail("expected an error") } catch { return error }
            return nil
        }
        var nul = Array("name = t\n[display]\ncontroller = st7789\n".utf8)
        nul.insert(0, at: 12)
        XCTAssertEqual(bytesError(nul)?.description, "boards/t.board:2: the line contains a NUL byte (is this a text file?)")
        let latin1 = Array("name = t\ndescription = caf".utf8) + [0xE9] + Array("\n".utf8)
        XCTAssertEqual(bytesError(latin1)?.description, "boards/t.board:2: the line is not UTF-8 text")
        let long = Array(("name = t\n# " + String(repeating: "x", count: 1200) + "\n").utf8)
        XCTAssertEqual(bytesError(long)?.description, "boards/t.board:2: the line is longer than 1000 bytes")
        let huge = Array(String(repeating: "# padding\n", count: 7000).utf8)
        XCTAssertEqual(bytesError(huge)?.description, "boards/t.board:1: the file is larger than 64 KiB (a board file is a few dozen lines)")
        XCTAssertEqual(bytesError([])?.description, "boards/t.board:1: name: missing: the board's name, e.g. name = sim-240x240")
        // Comments, blank lines, CRLF, a BOM, upper-case keys and trailing comments are fine.
        let friendly = "\u{FEFF}# hello\r\nNAME = t   # the name\r\n\r\n[Display]\r\ncontroller = ST7789\r\nsize = 240x240\r\nbus = sim\r\n[buttons]\r\nlayout = 3\r\nbus = sim\r\n"
        XCTAssertEqual(try? BoardParser.parse(friendly, file: "boards/t.board").profile, .square240)
    }

    // MARK: - Hostile input

    /// Mutated and hostile board texts never trap: each yields a board or an error that names
    /// this file and a line of it.
    func testMutatedBoardsNeverTrapAndAlwaysLocateTheirError() {
        var rng = SplitMix64(seed: 0xB0A7D)
        let seeds = Board.builtInTexts.map { Array($0.text.utf8) } + [Array(Self.real.utf8)]
        let junk: [[UInt8]] = [[0], [0xFF], [0xC3], [0x80], Array("=".utf8), Array("[".utf8), Array("]".utf8),
                               Array("#".utf8), Array("\n".utf8), Array("\r".utf8), Array(" = ".utf8),
                               Array("99999999999999999999999999999".utf8), Array("-9223372036854775808".utf8),
                               Array("0x".utf8), Array("x".utf8), Array("é".utf8), Array("😀".utf8),
                               Array(String(repeating: "A", count: 1500).utf8), Array("[display]\n".utf8),
                               Array("dc = GPIO25\n".utf8), Array("chip = gpiochip0\n".utf8), Array("\u{2028}".utf8)]
        var boards = 0, errors = 0
        for i in 0..<3000 {
            var b = seeds[Int(rng.next() % UInt64(seeds.count))]
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let at = b.isEmpty ? 0 : Int(rng.next() % UInt64(b.count + 1))
                switch rng.next() % 5 {
                case 0: if !b.isEmpty { b.remove(at: min(at, b.count - 1)) }
                case 1: b.insert(contentsOf: junk[Int(rng.next() % UInt64(junk.count))], at: at)
                case 2: b.insert(UInt8(truncatingIfNeeded: rng.next()), at: at)
                case 3: b = Array(b.prefix(at))
                default:
                    let lines = b.split(separator: 0x0A, omittingEmptySubsequences: false)
                    if let line = lines.randomElement(using: &rng) { b += [0x0A] + line }
                }
            }
            let lineCount = b.split(separator: 0x0A, omittingEmptySubsequences: false).count
            do {
                let board = try BoardParser.parse(bytes: b, file: "fuzz")
                boards += 1
                XCTAssertEqual(board.profile.width, board.display.width, "case \(i)")
                XCTAssertEqual(board.profile.height, board.display.height, "case \(i)")
                XCTAssertTrue((0...1000).contains(board.debounceMs))
            } catch {
                errors += 1
                XCTAssertEqual(error.file, "fuzz", "case \(i)")
                XCTAssertTrue((1...max(1, lineCount)).contains(error.line), "case \(i): line \(error.line) of \(lineCount): \(error)")
                XCTAssertTrue(error.description.hasPrefix("fuzz:\(error.line): "), "case \(i): \(error)")
                XCTAssertLessThan(error.description.count, 600, "case \(i): an error message stays short")
            }
        }
        XCTAssertGreaterThan(boards, 50)
        XCTAssertGreaterThan(errors, 500)
    }
}

