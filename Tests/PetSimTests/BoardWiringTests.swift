import XCTest
import PetCore
import PetDevice
import PetUI
import TestSupport
@testable import PetSim

/// The one factory (`BoardWiring`) turns board files into hardware for the simulator
/// (`SimulatedParts`), the emulated boards (`EmulatedParts`) and, in the daemon, the Linux devices:
/// the real boards' files run here with their real drivers on the panel emulators, every frame
/// decoding back to what the loop rendered.
final class BoardWiringTests: XCTestCase {
    let t0 = Instant(1_772_434_800) // Mon 2026-03-02 07:00 UTC

    func board(_ name: String) throws -> Board {
        try BoardLookup.load(Repository.folder("boards").appendingPathComponent(name + ".board").path)
    }

    func interactions(_ b: EmulatedBoard, check: (String) throws -> Void) throws {
        try check("first frame")
        try b.send(try CommandParser.parse(name: "task.create", fields: ["task": "t1", "title": "Tea", "due": "today 17:00"],
                                           id: "c1", at: b.now, clock: b.loop.app.state.clock))
        try check("task created")
        let keys: [Button] = b.board.layout == .joystick ? [.down, .centre, .up, .left] : [.a, .b, .c, .a]
        for (i, k) in keys.enumerated() {
            try b.press(k)
            try check("press \(i) \(k)")
        }
        try b.run(forMs: 61_000)
        try check("a minute later")
    }

    func testTheST7789BoardsRunTheirDriverOnTheEmulatorFromTheirBoardFile() throws {
        for name in ["pi-waveshare-lcd-hat-1in3", "pi-pimoroni-display-hat-mini"] {
            let file = try board(name)
            let b = try EmulatedBoard(board: file, start: t0)
            let parts = try XCTUnwrap(b.parts as? EmulatedParts)
            let emu = try XCTUnwrap(parts.st7789, name)
            XCTAssertTrue(b.loop.hardware.panel is ST7789, name)
            try interactions(b) { step in
                XCTAssertTrue(emu.picture.pixels == b.expected.pixels, "\(name) after \(step)")
            }
            XCTAssertEqual(emu.violations, [], name)
            XCTAssertEqual(b.profile, file.profile)
            // The backlight line the board names is the emulator's, driven by the driver.
            if file.display.backlight != nil { XCTAssertEqual(emu.backlight.level, true, name) }
        }
    }

    func testTheOLEDBoardRunsItsDriverOnTheEmulatorAtItsAddress() throws {
        let file = try board("pi-ssd1306-i2c-3buttons")
        let b = try EmulatedBoard(board: file, start: t0)
        let emu = try XCTUnwrap((b.parts as? EmulatedParts)?.ssd1306)
        try interactions(b) { step in
            if b.loop.ui.power == .asleep { return }
            XCTAssertTrue(emu.picture.toCanvas().pixels == b.expected.pixels, "after \(step)")
        }
        XCTAssertEqual(emu.violations, [])
        // Its buzzer and LED, on lines the emulated board does not have, are recorders.
        if file.buzzer != nil { XCTAssertTrue(b.loop.hardware.sounder === b.sounder) }
    }

    func testTheEPaperBoardPowersThePanelFirstAndRefreshesAsThePolicySays() throws {
        let file = try board("pi-waveshare-epaper-2in13-v4")
        let b = try EmulatedBoard(board: file, start: t0)
        let parts = try XCTUnwrap(b.parts as? EmulatedParts)
        let emu = try XCTUnwrap(parts.ssd1680)
        try interactions(b) { step in
            XCTAssertTrue(emu.picture.toCanvas().pixels == b.expected.pixels, "after \(step)")
        }
        XCTAssertEqual(emu.violations, [])
        if let pwr = file.display.power {
            XCTAssertTrue(b.loop.hardware.panel is PoweredPanel)
            XCTAssertEqual(parts.lines[pwr]?.history.first, true, "the panel's power is switched on (and never off while open)")
            XCTAssertEqual(parts.lines[pwr]?.history.contains(false), false)
        }
        XCTAssertGreaterThan(emu.partialRefreshes, 0)
    }

    func testASimulatorBoardGetsTheSimulatedPartsAndHandsThemOut() throws {
        for name in Board.builtInNames {
            let file = try XCTUnwrap(try Board.builtIn(named: name))
            let parts = SimulatedParts()
            let hw = try BoardWiring.hardware(for: file, parts: parts, clock: VirtualClock(wallMs: 0))
            let panel = try XCTUnwrap(parts.panel, name)
            XCTAssertTrue(hw.panel === panel, name)
            XCTAssertEqual(panel.width, file.profile.width)
            XCTAssertEqual(panel.format, PixelFormat.natural(for: file.profile.kind))
            XCTAssertEqual(hw.inputs.count, 1)
            XCTAssertTrue(hw.inputs[0] === parts.keys)
            XCTAssertTrue(hw.sounder === parts.sounder)
            XCTAssertTrue(hw.indicator === parts.indicator)
            XCTAssertNil(hw.link)
        }
    }

    func testPartsThatLackWhatABoardNamesRefuseItNamingThePart() throws {
        // A real board on nothing but simulated parts: its keys are the first part asked for.
        XCTAssertThrowsError(try BoardWiring.hardware(for: try board("pi-waveshare-lcd-hat-1in3"), parts: SimulatedParts(),
                                                      clock: VirtualClock(wallMs: 0))) { e in
            XCTAssertTrue("\(e)".contains("key device"), "\(e)")
        }
        XCTAssertThrowsError(try BoardWiring.display(try board("pi-waveshare-lcd-hat-1in3"), parts: SimulatedParts())) { e in
            XCTAssertTrue("\(e)".contains("SPI bus /dev/spidev0.0"), "\(e)")
        }
        // The emulators have no framebuffer.
        let fb = try board("linux-fbdev-gpio-keys")
        XCTAssertThrowsError(try EmulatedBoard(board: fb, start: t0)) { e in
            XCTAssertTrue("\(e)".contains("framebuffer"), "\(e)")
        }
    }

    /// SimDevice is a virtual board on a simulator board of its display and keys.
    func testSimDeviceIsAVirtualBoardWithAHeadlessPanel() throws {
        let d = try SimDevice(dbPath: nil, start: t0, zone: "UTC", profile: .oled128, layout: .fourButtons, debounceMs: 50, boot: false)
        XCTAssertTrue(d.board.isSimulator)
        XCTAssertEqual(d.board.profile, .oled128)
        XCTAssertEqual(d.board.layout, .fourButtons)
        XCTAssertEqual(d.debounceMs, 50)
        XCTAssertTrue(d.loop.hardware.panel === d.panel)
        XCTAssertTrue(d.loop.hardware.inputs.first === d.input)
        try d.press(.d)
        let expected = PanelBytes.roundTrip(d.canvas, format: d.panel.format)   // renders, and the panel gets the frame
        XCTAssertTrue(d.panel.picture.pixels == expected.pixels, "the headless panel shows the frame")
    }
}
