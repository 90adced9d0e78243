import PetUI

/// Reads a board file (docs/boards.md): `key = value` lines in `[sections]`, `#` comments.
/// Checks everything `Board` promises and refuses the file otherwise with a `BoardError` that
/// names the file, the line, the key and the problem. Never traps on any input.
public enum BoardParser {
    /// A board file is a few dozen short lines; anything much bigger is not one.
    public static let maxFileBytes = 65_536
    public static let maxLineBytes = 1_000

    /// The sections and the keys each may hold ("" = the top of the file, before any section).
    public static let keys: [String: [String]] = [
        "": ["name", "description", "chip"],
        "display": ["controller", "size", "diagonal", "rotation", "column-offset", "row-offset", "bus", "device", "clock-hz",
                    "spi-mode", "address", "chip", "dc", "rst", "bl", "busy", "cs", "pwr"],
        "buttons": ["layout", "bus", "device", "chip", "a", "b", "c", "d", "up", "down", "left", "right", "centre",
                    "active-low", "bias", "debounce-ms"],
        "buzzer": ["line", "kind", "chip", "pwm-chip", "pwm-channel"],
        "led": ["line", "red", "green", "blue", "chip", "active-low"],
        "capabilities": ["chord", "battery"],
    ]
    static let sectionOrder = ["display", "buttons", "buzzer", "led", "capabilities"]

    /// Parses board text (`file` names it in errors; a file name ending in `.board` must match
    /// the board's `name`).
    public static func parse(_ text: String, file: String) throws(BoardError) -> Board {
        try parse(bytes: Array(text.utf8), file: file)
    }

    /// Parses the bytes of a board file: refuses non-UTF-8 text, NUL bytes, over-long lines.
    public static func parse(bytes: [UInt8], file: String) throws(BoardError) -> Board {
        var doc = try Document(bytes: bytes, file: file)
        return try doc.board()
    }

    // MARK: - Lines

    struct Entry {
        var value: String
        var line: Int
    }

    /// The file as entries keyed `section.key` (or `key` at the top), with the checks that need
    /// only one line at a time: syntax, known sections and keys, duplicates.
    struct Document {
        let file: String
        var entries: [String: Entry] = [:]
        var sectionLines: [String: Int] = [:]
        var lastLine = 1
        /// GPIO lines (and input key codes) already taken, and by which key on which line.
        var used: [String: (key: String, line: Int)] = [:]

        init(bytes: [UInt8], file: String) throws(BoardError) {
            self.file = file
            guard bytes.count <= BoardParser.maxFileBytes else {
                throw BoardError(file: file, line: 1, key: "", kind: .unreadable,
                                 message: "the file is larger than 64 KiB (a board file is a few dozen lines)")
            }
            var section = ""
            var no = 0
            for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
                no += 1
                var slice = raw
                if slice.last == 0x0D { slice = slice.dropLast() }
                if no == 1, slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }
                func fail(_ kind: BoardError.Kind, key: String = "", _ message: String) -> BoardError {
                    BoardError(file: file, line: no, key: key, kind: kind, message: message)
                }
                guard slice.count <= BoardParser.maxLineBytes else {
                    throw fail(.unreadable, "the line is longer than \(BoardParser.maxLineBytes) bytes")
                }
                guard !slice.contains(0) else { throw fail(.unreadable, "the line contains a NUL byte (is this a text file?)") }
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw fail(.unreadable, "the line is not UTF-8 text")
                }
                var line = trim(Substring(text))
                if line.isEmpty || line.hasPrefix("#") { continue }
                lastLine = no
                if let hash = commentStart(line) { line = trim(line[..<hash]) }
                if line.hasPrefix("[") {
                    guard line.hasSuffix("]"), line.count >= 2 else {
                        throw fail(.syntax, "a section header is a name in brackets, e.g. [display]")
                    }
                    let name = trim(line.dropFirst().dropLast()).lowercased()
                    guard name != "", BoardParser.keys[name] != nil else {
                        throw fail(.unknownSection, key: "[\(show(name))]",
                                   "unknown section (sections: \(BoardParser.sectionOrder.map { "[\($0)]" }.joined(separator: ", ")))")
                    }
                    if let first = sectionLines[name] {
                        throw fail(.duplicateSection, key: "[\(name)]", "the section is given twice (first at line \(first))")
                    }
                    sectionLines[name] = no
                    section = name
                    continue
                }
                guard let eq = line.firstIndex(of: "=") else {
                    throw fail(.syntax, "expected 'key = value' or a [section], got '\(show(String(line)))'")
                }
                let key = trim(line[..<eq]).lowercased()
                let value = String(trim(line[line.index(after: eq)...]))
                guard !key.isEmpty else { throw fail(.syntax, "a key is missing before '='") }
                let full = section.isEmpty ? key : "\(section).\(key)"
                guard let allowed = BoardParser.keys[section], allowed.contains(key) else {
                    let where_ = section.isEmpty ? "at the top of the file (name, description, chip) — is a [section] header missing?"
                        : "in [\(section)] (keys: \(BoardParser.keys[section, default: []].joined(separator: ", ")))"
                    throw fail(.unknownKey, key: show(full), "unknown key \(where_)")
                }
                guard !value.isEmpty else { throw fail(.badValue, key: full, "the value is missing after '='") }
                if let first = entries[full] {
                    throw fail(.duplicateKey, key: full, "the key is given twice (first at line \(first.line))")
                }
                entries[full] = Entry(value: value, line: no)
            }
        }

        // MARK: Values

        func error(_ key: String, _ kind: BoardError.Kind, _ message: String) -> BoardError {
            let line = entries[key]?.line ?? sectionLines[String(key.split(separator: ".").first ?? "")] ?? (key.contains(".") ? lastLine : 1)
            return BoardError(file: file, line: line, key: key, kind: kind, message: message)
        }

        func has(_ key: String) -> Bool { entries[key] != nil }

        func require(_ key: String, _ what: String) throws(BoardError) -> String {
            guard let e = entries[key] else { throw error(key, .missingKey, "missing: \(what)") }
            return e.value
        }

        func number(_ key: String, default d: Int, in range: ClosedRange<Int>, _ what: String) throws(BoardError) -> Int {
            guard let e = entries[key] else { return d }
            guard let n = parseNumber(e.value) else {
                throw error(key, .badNumber, "'\(show(e.value))' is not a number (whole numbers like 30 or 0x3c)")
            }
            guard range.contains(n) else { throw error(key, .outOfRange, "\(n) is out of range: \(what)") }
            return n
        }

        func yesNo(_ key: String, default d: Bool) throws(BoardError) -> Bool {
            guard let e = entries[key] else { return d }
            switch e.value.lowercased() {
            case "yes", "true", "on": return true
            case "no", "false", "off": return false
            default: throw error(key, .badValue, "'\(show(e.value))' is not yes or no")
            }
        }

        func choice(_ key: String, _ options: [String]) throws(BoardError) -> String? {
            guard let e = entries[key] else { return nil }
            let v = e.value.lowercased()
            guard options.contains(v) else {
                throw error(key, .badValue, "'\(show(e.value))' is not one of: \(options.joined(separator: ", "))")
            }
            return v
        }

        /// The chip labels a section's GPIO lines are on: the section's `chip`, else the top's.
        /// One label, or several separated by commas (the first the machine has is used).
        func chip(for section: String, key: String) throws(BoardError) -> [String] {
            let chipKey = has("\(section).chip") ? "\(section).chip" : "chip"
            guard entries[chipKey] != nil else {
                throw error(key, .missingChip, "no GPIO chip to find the line on: add 'chip = LABEL' at the top of the file "
                            + "or in [\(section)] (gpiodetect shows each chip's label in brackets, e.g. pinctrl-bcm2711)")
            }
            return try checkChip(chipKey)
        }

        /// The labels of a `chip` key: one, or up to 8 separated by commas, each once.
        @discardableResult
        func checkChip(_ chipKey: String) throws(BoardError) -> [String] {
            guard let value = entries[chipKey]?.value else { return [] }
            let labels = value.split(separator: ",", omittingEmptySubsequences: false).map { String(trim($0)) }
            guard labels.count <= 8 else {
                throw error(chipKey, .badValue, "at most 8 chip labels, separated by commas")
            }
            var seen: Set<String> = []
            for v in labels {
                guard !v.isEmpty else {
                    throw error(chipKey, .badValue, "'\(show(value))' has an empty label: labels are separated by single commas")
                }
                let digits = v.drop { !$0.isASCIIDigit }
                let numbered = (v.hasPrefix("gpiochip") || v.hasPrefix("/dev/gpiochip") || v.allSatisfy(\.isASCIIDigit))
                    && !digits.isEmpty && digits.allSatisfy(\.isASCIIDigit)
                if numbered {
                    throw error(chipKey, .badValue, "'\(show(v))' is a chip number, which can change between boots: "
                                + "name the chip by its label (gpiodetect shows it in brackets, e.g. pinctrl-bcm2711)")
                }
                guard v.count <= 64, v.allSatisfy({ $0.isASCIILetterOrDigit || "-_.:@+".contains($0) }) else {
                    throw error(chipKey, .badValue, "'\(show(v))' is not a chip label (letters, digits and - _ . : @ +)")
                }
                guard seen.insert(v).inserted else {
                    throw error(chipKey, .badValue, "the label '\(show(v))' is given twice")
                }
            }
            return labels
        }

        /// A GPIO line key (`display.dc`, `buttons.a`, `led.red`): a line name or an offset, on
        /// the section's chip; each line may be used once in the whole board.
        mutating func gpio(_ key: String, section: String) throws(BoardError) -> GPIOLine? {
            guard let e = entries[key] else { return nil }
            let v = e.value
            let line: GPIOLine.Line
            if v.allSatisfy(\.isASCIIDigit) {
                guard v.count <= 6, let n = Int(v), (0...1023).contains(n) else {
                    throw error(key, .outOfRange, "line offset \(show(v)) is out of range: 0–1023")
                }
                line = .offset(n)
            } else {
                guard v.count <= 64, v.first?.isASCIILetterOrDigit == true,
                      v.allSatisfy({ $0.isASCIILetterOrDigit || "-_.:+".contains($0) }) else {
                    throw error(key, .badValue, "'\(show(v))' is not a GPIO line: a line name as gpioinfo shows it "
                                + "(e.g. GPIO6) or an offset on the chip (e.g. 6)")
                }
                line = .name(v)
            }
            let chips = try chip(for: section, key: key)
            let id: String
            switch line {
            case .offset(let n): id = "offset:\(chips.joined(separator: ",")):\(n)"
            case .name(let n): id = "name:\(n)"
            }
            if let first = used[id] {
                throw error(key, .lineUsedTwice, "\(show(v)) is already used by \(first.key) (line \(first.line))")
            }
            used[id] = (key, e.line)
            return GPIOLine(chip: chips[0], line: line, alternatives: Array(chips.dropFirst()))
        }

        /// Refuses `keys` that are present, with `why`.
        func forbid(_ keys: [String], _ why: (String) -> String) throws(BoardError) {
            for k in keys where has(k) { throw error(k, .impossibleCombination, why(k)) }
        }

        func device(_ key: String, prefix: String, example: String) throws(BoardError) -> String {
            let v = try require(key, "the device file, e.g. \(example)")
            guard v.hasPrefix(prefix), v.count > prefix.count, v.count <= 200, !v.contains(" ") else {
                throw error(key, .badValue, "'\(show(v))' is not a \(prefix)… device path (e.g. \(example))")
            }
            return v
        }

        // MARK: - The board

        mutating func board() throws(BoardError) -> Board {
            let name = try require("name", "the board's name, e.g. name = sim-240x240")
            guard (1...64).contains(name.count), name.first?.isASCIILetterOrDigit == true,
                  name.allSatisfy({ ($0.isASCIILetterOrDigit && !$0.isUppercase) || $0 == "-" }) else {
                throw error("name", .badValue, "'\(show(name))' is not a board name (lower-case letters, digits and -)")
            }
            let base = String(file.split(separator: "/").last ?? "")
            if base.hasSuffix(".board"), String(base.dropLast(6)) != name {
                throw error("name", .badValue, "the name '\(name)' differs from the file's name \(base) (rename one of them)")
            }
            let description = entries["description"]?.value ?? ""
            if has("chip") { try checkChip("chip") }

            let (display, profile) = try readDisplay()
            let buttons = try readButtons(simDisplay: display.bus == .sim)
            let buzzer = try readBuzzer(sim: display.bus == .sim)
            let led = try readLED(sim: display.bus == .sim)
            if display.bus == .sim, has("chip") {
                throw error("chip", .impossibleCombination, "a simulator board has no GPIO chip")
            }
            let hasChord = try yesNo("capabilities.chord", default: buttons.layout.hasChord)
            if hasChord, !buttons.layout.hasChord {
                throw error("capabilities.chord", .impossibleCombination,
                            "a joystick has no A+C chord (its factory reset is a settings row)")
            }
            let battery = try yesNo("capabilities.battery", default: false)
            return Board(name: name, description: description, display: display, buttons: buttons, buzzer: buzzer,
                         led: led, hasChord: hasChord, hasBattery: battery, profile: profile)
        }

        // MARK: Display

        mutating func readDisplay() throws(BoardError) -> (Board.Display, DisplayProfile) {
            guard sectionLines["display"] != nil else {
                throw BoardError(file: file, line: lastLine, key: "[display]", kind: .missingKey,
                                 message: "the board has no [display] section")
            }
            let controllerText = try require("display.controller", "the display's controller: st7789, ssd1306, ssd1680 or fbdev")
            guard let controller = Board.Controller(rawValue: controllerText.lowercased()) else {
                throw error("display.controller", .unknownController,
                            "unknown controller '\(show(controllerText))' (st7789, ssd1306, ssd1680 or fbdev)")
            }
            guard has("display.bus") else {
                throw error("display.bus", .missingBus, "missing: how the display is connected: bus = spi, i2c, fb or sim")
            }
            let bus = try choice("display.bus", ["spi", "i2c", "fb", "sim"]) ?? ""
            let buses: [Board.Controller: [String]] = [.st7789: ["spi", "sim"], .ssd1306: ["i2c", "spi", "sim"],
                                                       .ssd1680: ["spi", "sim"], .fbdev: ["fb"]]
            guard buses[controller, default: []].contains(bus) else {
                let ok = buses[controller, default: []].joined(separator: " or ")
                throw error("display.bus", .impossibleCombination, controller == .fbdev
                            ? "an fbdev display is a framebuffer: bus = fb (the simulator decodes st7789, ssd1306 and ssd1680)"
                            : "\(controller.rawValue) is connected over \(ok), not \(bus)")
            }

            // Rotation, size, offsets.
            var rotation = 0
            if let e = entries["display.rotation"] {
                guard let r = parseNumber(e.value), [0, 90, 180, 270].contains(r) else {
                    throw error("display.rotation", .badRotation, "'\(show(e.value))' is not a rotation: 0, 90, 180 or 270 (degrees)")
                }
                rotation = r
            }
            let sizeText = try require("display.size", "the picture's size as WIDTHxHEIGHT, e.g. 240x240")
            let parts = sizeText.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw error("display.size", .badValue, "'\(show(sizeText))' is not a size: WIDTHxHEIGHT, e.g. 240x240")
            }
            guard let w = parseNumber(String(trim(parts[0]))), let h = parseNumber(String(trim(parts[1]))) else {
                throw error("display.size", .badNumber, "'\(show(sizeText))' is not a size: WIDTHxHEIGHT in whole pixels, e.g. 240x240")
            }
            guard w > 0, h > 0 else {
                throw error("display.size", .impossibleSize, "\(w)x\(h): width and height must be at least 1 pixel")
            }
            let turned = rotation == 90 || rotation == 270
            let (nw, nh) = turned ? (h, w) : (w, h)
            let fits: Bool
            let limit: String
            switch controller {
            case .st7789:
                fits = nw <= 240 && nh <= 320
                limit = "st7789 drives at most 240x320 (240x320 at rotation 0 or 180, 320x240 at 90 or 270)"
            case .ssd1306:
                fits = nw == 128 && (nh == 64 || nh == 32)
                limit = "ssd1306 panels are 128x64 or 128x32 (at rotation 90 or 270: 64x128 or 32x128)"
            case .ssd1680:
                fits = nw <= 176 && nh <= 296
                limit = "ssd1680 drives at most 176x296 (at rotation 90 or 270: 296x176); the 2.13\" panel is 122x250, or 250x122 turned"
            case .fbdev:
                fits = nw <= 4096 && nh <= 4096
                limit = "a framebuffer display is at most 4096x4096"
            }
            guard fits else { throw error("display.size", .impossibleSize, "\(w)x\(h) at rotation \(rotation): \(limit)") }

            // Where the glass sits in the 240 × 320 memory at rotation 0 (the driver derives each
            // rotation's window offset from it): the glass is nw × nh, unturned.
            var columnOffset = 0, rowOffset = 0
            if controller == .st7789 {
                columnOffset = try number("display.column-offset", default: 0, in: 0...(240 - nw),
                                          "0–\(240 - nw) (a \(nw)x\(nh) glass in the controller's 240 columns, counted at rotation 0)")
                rowOffset = try number("display.row-offset", default: 0, in: 0...(320 - nh),
                                       "0–\(320 - nh) (a \(nw)x\(nh) glass in the controller's 320 rows, counted at rotation 0)")
            } else {
                try forbid(["display.column-offset", "display.row-offset"]) { "\($0.dropFirst(8)) is for st7789 only" }
            }

            let kind: DisplayKind = switch controller {
            case .st7789, .fbdev: .colour
            case .ssd1306: .mono
            case .ssd1680: .epaper
            }
            guard let profile = DisplayProfile.all.first(where: { $0.width == w && $0.height == h && $0.kind == kind }) else {
                let sizes = DisplayProfile.all.filter { $0.kind == kind }.map(\.id).joined(separator: ", ")
                throw error("display.size", .noLayout, "the screens have no layout for \(w)x\(h) on a \(kind.rawValue) display yet "
                            + "(\(kind.rawValue): \(sizes))")
            }

            // The bus.
            let busBound = ["display.device", "display.clock-hz", "display.spi-mode", "display.address"]
            let displayBus: Board.DisplayBus
            switch bus {
            case "spi":
                try forbid(["display.address"]) { _ in "address is for bus = i2c; this display is on spi" }
                let device = try device("display.device", prefix: "/dev/spidev", example: "/dev/spidev0.0")
                let (maxHz, defaultHz) = switch controller {
                case .st7789: (62_500_000, 32_000_000)
                case .ssd1680: (20_000_000, 4_000_000)
                default: (10_000_000, 8_000_000)
                }
                let clock = try number("display.clock-hz", default: defaultHz, in: 100_000...maxHz,
                                       "100000–\(maxHz) Hz for \(controller.rawValue)")
                let mode = try number("display.spi-mode", default: 0, in: 0...3, "SPI mode 0–3")
                displayBus = .spi(device: device, clockHz: clock, mode: mode)
            case "i2c":
                try forbid(["display.clock-hz", "display.spi-mode"]) { "\($0.dropFirst(8)) is for bus = spi; this display is on i2c" }
                let device = try device("display.device", prefix: "/dev/i2c-", example: "/dev/i2c-1")
                let address = try number("display.address", default: 0x3C, in: 0x3C...0x3D,
                                         "an ssd1306 answers at 0x3c or 0x3d (its SA0 pin)")
                displayBus = .i2c(device: device, address: address)
            case "fb":
                try forbid(["display.clock-hz", "display.spi-mode", "display.address"]) {
                    "\($0.dropFirst(8)) is for spi or i2c; a framebuffer needs only its device"
                }
                displayBus = .framebuffer(device: try device("display.device", prefix: "/dev/fb", example: "/dev/fb0"))
            default:
                try forbid(busBound + ["display.chip"]) { "a simulator display (bus = sim) has no \($0.dropFirst(8))" }
                displayBus = .sim
            }

            // Pins: which the controller on this bus needs, may have, or cannot have.
            let meaning = ["dc": "the data/command line", "rst": "the reset line", "bl": "the backlight line",
                           "busy": "the panel's BUSY output", "cs": "a GPIO chip select", "pwr": "a power-enable line"]
            let (needed, optional): ([String], [String]) = switch (controller, bus) {
            case (.st7789, "spi"): (["dc"], ["rst", "bl", "cs"])
            case (.ssd1306, "spi"): (["dc"], ["rst", "cs"])
            case (.ssd1306, "i2c"): ([], ["rst"])
            case (.ssd1680, "spi"): (["dc", "rst", "busy"], ["cs", "pwr"])
            case (.fbdev, _): ([], ["bl"])
            default: ([], [])
            }
            for pin in ["dc", "rst", "bl", "busy", "cs", "pwr"] where !needed.contains(pin) && !optional.contains(pin) {
                try forbid(["display.\(pin)"]) { _ in
                    bus == "sim" ? "a simulator display (bus = sim) has no pins"
                        : "\(controller.rawValue) over \(bus) has no \(pin) (\(meaning[pin] ?? pin))"
                }
            }
            for pin in needed where !has("display.\(pin)") {
                throw error("display.\(pin)", .missingKey, "missing: \(controller.rawValue) over \(bus) needs \(pin) (\(meaning[pin] ?? pin))")
            }
            let dc = try gpio("display.dc", section: "display")
            let reset = try gpio("display.rst", section: "display")
            let backlight = try gpio("display.bl", section: "display")
            let busy = try gpio("display.busy", section: "display")
            let cs = try gpio("display.cs", section: "display")
            let power = try gpio("display.pwr", section: "display")
            // The glass's diagonal: the screens' smallest face must be at least 1.1 mm tall on it.
            var diagonal = profile.panelDiagonalInches
            if let e = entries["display.diagonal"] {
                let text = e.value.hasSuffix("in") ? String(e.value.dropLast(2)) : e.value
                guard let d = Double(text), d.isFinite else {
                    throw error("display.diagonal", .badNumber, "'\(show(e.value))' is not a size in inches (like 1.3 or 2.0)")
                }
                guard d >= 0.5 && d <= 20 else { throw error("display.diagonal", .outOfRange, "\(d) is out of range: 0.5–20 inches") }
                diagonal = d
            }
            if let d = diagonal, let mm = profile.capHeightMM(profile.minimumFace, diagonalInches: d),
               mm < DisplayProfile.minimumCapHeightMM {
                let shown = (mm * 100).rounded() / 100
                throw error("display.diagonal", .impossibleSize, "the screens' smallest text would be \(shown) mm tall on a \(d)\" "
                            + "\(w)x\(h) panel, under the 1.1 mm minimum (docs/boards.md)")
            }
            let display = Board.Display(controller: controller, width: w, height: h, rotation: rotation,
                                        columnOffset: columnOffset, rowOffset: rowOffset, bus: displayBus,
                                        dc: dc, reset: reset, backlight: backlight, busy: busy, chipSelect: cs, power: power,
                                        diagonalInches: diagonal)
            return (display, profile)
        }

        // MARK: Buttons

        static let keyNames: [Button: String] = [.a: "a", .b: "b", .c: "c", .d: "d", .up: "up", .down: "down",
                                                  .left: "left", .right: "right", .centre: "centre"]

        mutating func readButtons(simDisplay: Bool) throws(BoardError) -> Board.Buttons {
            guard sectionLines["buttons"] != nil else {
                throw BoardError(file: file, line: lastLine, key: "[buttons]", kind: .missingKey,
                                 message: "the board has no [buttons] section")
            }
            let layoutText = try require("buttons.layout", "the keys: layout = 3, 4 or joystick")
            guard let layout = InputLayout.named(layoutText) else {
                throw error("buttons.layout", .badValue, "'\(show(layoutText))' is not a layout: 3, 4 or joystick")
            }
            guard has("buttons.bus") else {
                throw error("buttons.bus", .missingBus, "missing: where presses come from: bus = gpio, evdev or sim")
            }
            let bus = try choice("buttons.bus", ["gpio", "evdev", "sim"]) ?? ""
            if simDisplay != (bus == "sim") {
                throw error("buttons.bus", .impossibleCombination, simDisplay
                            ? "a simulator display (bus = sim) needs simulator buttons (bus = sim)"
                            : "simulator buttons (bus = sim) need a simulator display (bus = sim)")
            }
            let debounce = try number("buttons.debounce-ms", default: 30, in: 0...1000, "0–1000 ms")
            let keys = layout.buttons.map { Document.keyNames[$0] ?? "" }
            for b in Button.allCases where !layout.buttons.contains(b) {
                try forbid(["buttons.\(Document.keyNames[b] ?? "")"]) { k in
                    "layout \(layout.rawValue) has no key \(k.dropFirst(8)) (its keys: \(keys.joined(separator: ", ")))"
                }
            }
            switch bus {
            case "gpio":
                try forbid(["buttons.device"]) { _ in "device is for bus = evdev; GPIO keys name their lines" }
                for k in keys where !has("buttons.\(k)") {
                    throw error("buttons.\(k)", .missingKey, "missing: the GPIO line of key \(k) (a name like GPIO6, or an offset)")
                }
                var lines: [Button: GPIOLine] = [:]
                for b in layout.buttons { lines[b] = try gpio("buttons.\(Document.keyNames[b] ?? "")", section: "buttons") }
                let activeLow = try yesNo("buttons.active-low", default: true)
                let biasText = try choice("buttons.bias", Board.Bias.allCases.map(\.rawValue)) ?? "pull-up"
                let bias = Board.Bias(rawValue: biasText) ?? .pullUp
                if activeLow, bias == .pullDown {
                    throw error("buttons.bias", .impossibleCombination,
                                "active-low keys connect the line to ground when pressed: they need bias = pull-up (or none with resistors on the board)")
                }
                if !activeLow, bias == .pullUp {
                    throw error("buttons.bias", .impossibleCombination,
                                "active-high keys connect the line to 3.3 V when pressed: they need bias = pull-down (or none with resistors on the board)")
                }
                return Board.Buttons(layout: layout, bus: .gpio(lines: lines, activeLow: activeLow, bias: bias), debounceMs: debounce)
            case "evdev":
                try forbid(["buttons.chip", "buttons.active-low", "buttons.bias"]) {
                    "\($0.dropFirst(8)) is for bus = gpio; the kernel's gpio-keys driver handles it for evdev"
                }
                // A path, or the input device's name (EVIOCGNAME, as /proc/bus/input/devices shows it).
                let device: String
                if let v = entries["buttons.device"]?.value, !v.hasPrefix("/") {
                    guard v.count <= 200, !v.contains("/"), v.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                        throw error("buttons.device", .badValue, "'\(show(v))' is not an input device name (no /) or a /dev/input/… path")
                    }
                    device = v
                } else {
                    device = try self.device("buttons.device", prefix: "/dev/input/", example: "/dev/input/by-path/platform-gpio-keys-event")
                }
                var codes: [Button: Int] = [:]
                for b in layout.buttons {
                    let k = "buttons.\(Document.keyNames[b] ?? "")"
                    let v = try require(k, "the key code of key \(k.dropFirst(8)) (e.g. KEY_ENTER or 28)")
                    guard let code = Document.keyCode(v) else {
                        throw error(k, .badValue, "'\(show(v))' is not a key code: a number 1–767 or a name like KEY_UP (docs/boards.md lists them)")
                    }
                    if let first = used["code:\(code)"] {
                        throw error(k, .lineUsedTwice, "key code \(code) is already used by \(first.key) (line \(first.line))")
                    }
                    used["code:\(code)"] = (k, entries[k]?.line ?? 0)
                    codes[b] = code
                }
                return Board.Buttons(layout: layout, bus: .evdev(device: device, codes: codes), debounceMs: debounce)
            default:
                try forbid(keys.map { "buttons.\($0)" } + ["buttons.device", "buttons.chip", "buttons.active-low", "buttons.bias"]) {
                    "simulator keys (bus = sim) have no \($0.dropFirst(8))"
                }
                return Board.Buttons(layout: layout, bus: .sim, debounceMs: debounce)
            }
        }

        /// Linux input key codes (linux/input-event-codes.h) a gpio-keys board is likely to use.
        static let keyCodes: [String: Int] = [
            "KEY_ESC": 1, "KEY_ENTER": 28, "KEY_A": 30, "KEY_D": 32, "KEY_C": 46, "KEY_B": 48, "KEY_SPACE": 57,
            "KEY_UP": 103, "KEY_LEFT": 105, "KEY_RIGHT": 106, "KEY_DOWN": 108, "KEY_BACK": 158,
            "KEY_OK": 0x160, "KEY_SELECT": 0x161, "BTN_0": 0x100, "BTN_1": 0x101, "BTN_2": 0x102, "BTN_3": 0x103,
            "BTN_4": 0x104,
        ]

        static func keyCode(_ v: String) -> Int? {
            if let n = parseNumber(v) { return (1...0x2FF).contains(n) ? n : nil }
            return keyCodes[v.uppercased()]
        }

        // MARK: Buzzer and LED

        mutating func readBuzzer(sim: Bool) throws(BoardError) -> Board.Buzzer? {
            guard let at = sectionLines["buzzer"] else { return nil }
            if sim {
                throw BoardError(file: file, line: at, key: "[buzzer]", kind: .impossibleCombination,
                                 message: "the simulator has no buzzer yet: leave [buzzer] out of a simulator board")
            }
            if has("buzzer.line") {
                try forbid(["buzzer.pwm-chip", "buzzer.pwm-channel"]) { _ in "a buzzer is on a GPIO line or a PWM channel, not both" }
                let kind = Board.BuzzerKind(rawValue: try choice("buzzer.kind", Board.BuzzerKind.allCases.map(\.rawValue)) ?? "active") ?? .active
                return try gpio("buzzer.line", section: "buzzer").map { Board.Buzzer.line($0, kind: kind) }
            }
            guard let e = entries["buzzer.pwm-chip"] else {
                if has("buzzer.pwm-channel") {
                    throw error("buzzer.pwm-chip", .missingKey, "missing: pwm-channel needs pwm-chip (e.g. pwmchip0)")
                }
                throw BoardError(file: file, line: at, key: "[buzzer]", kind: .missingKey,
                                 message: "missing: line = (a GPIO line) or pwm-chip = (e.g. pwmchip0)")
            }
            try forbid(["buzzer.chip"]) { _ in "chip is for a GPIO line; a PWM buzzer names pwm-chip and pwm-channel" }
            try forbid(["buzzer.kind"]) { _ in "kind is for a buzzer on a GPIO line; a PWM channel always plays the pitch" }
            var chip = e.value
            if chip.hasPrefix("/sys/class/pwm/") { chip = String(chip.dropFirst(15)) }
            guard chip.hasPrefix("pwmchip"), chip.count > 7, chip.count < 12, chip.dropFirst(7).allSatisfy(\.isASCIIDigit) else {
                throw error("buzzer.pwm-chip", .badValue, "'\(show(e.value))' is not a PWM chip: pwmchipN as in /sys/class/pwm")
            }
            let channel = try number("buzzer.pwm-channel", default: 0, in: 0...63, "channel 0–63")
            return .pwm(chip: chip, channel: channel)
        }

        mutating func readLED(sim: Bool) throws(BoardError) -> Board.LED? {
            guard let at = sectionLines["led"] else { return nil }
            if sim {
                throw BoardError(file: file, line: at, key: "[led]", kind: .impossibleCombination,
                                 message: "the simulator has no LED yet: leave [led] out of a simulator board")
            }
            let activeLow = try yesNo("led.active-low", default: false)
            let colours = ["led.red", "led.green", "led.blue"]
            if has("led.line") {
                try forbid(colours) { _ in "an LED is one line, or red, green and blue lines, not both" }
                guard let line = try gpio("led.line", section: "led") else { return nil }
                return .single(line, activeLow: activeLow)
            }
            guard colours.contains(where: has) else {
                throw BoardError(file: file, line: at, key: "[led]", kind: .missingKey,
                                 message: "missing: line = (one LED) or red, green and blue (an RGB LED)")
            }
            for k in colours where !has(k) {
                throw error(k, .missingKey, "missing: an RGB LED needs red, green and blue lines")
            }
            guard let r = try gpio("led.red", section: "led"), let g = try gpio("led.green", section: "led"),
                  let b = try gpio("led.blue", section: "led") else { return nil }
            return .rgb(red: r, green: g, blue: b, activeLow: activeLow)
        }
    }
}

// MARK: - Helpers

/// A whole number: decimal or 0x hex, `_` allowed between digits, an optional `-`. nil on
/// anything else or overflow.
func parseNumber(_ s: String) -> Int? {
    var t = Substring(s)
    var negative = false
    if t.hasPrefix("-") { negative = true; t = t.dropFirst() }
    var radix = 10
    if t.hasPrefix("0x") || t.hasPrefix("0X") { radix = 16; t = t.dropFirst(2) }
    guard !t.isEmpty, !t.hasPrefix("_"), !t.hasSuffix("_"), !t.contains("__") else { return nil }
    let digits = t.filter { $0 != "_" }
    guard digits.count <= 20, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }),
          let n = Int(digits, radix: radix) else { return nil }
    return negative ? -n : n
}

func trim(_ s: Substring) -> Substring {
    var t = s
    while let f = t.first, f == " " || f == "\t" { t = t.dropFirst() }
    while let l = t.last, l == " " || l == "\t" { t = t.dropLast() }
    return t
}

/// Where a trailing comment starts: a `#` after a space or tab.
func commentStart(_ s: Substring) -> Substring.Index? {
    var previous: Character = "x"
    for i in s.indices {
        if s[i] == "#", previous == " " || previous == "\t" { return i }
        previous = s[i]
    }
    return nil
}

/// A value as it may appear in an error: at most 40 characters, control characters escaped.
func show(_ s: String) -> String {
    var out = ""
    for ch in s.prefix(40) {
        if ch.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { out += "?" } else { out.append(ch) }
    }
    return s.count > 40 ? out + "…" : out
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
    var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}
