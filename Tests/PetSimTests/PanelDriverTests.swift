// PanelDriverTests.swift — the panel controller drivers (PetDevice/Drivers) tested down to the
// byte: their init sequences equal the datasheet sequence spelled out here, and the emulators
// (PetSim/Emulators) decode what the drivers send — whole frames and dirty updates rendered by the
// real device loop — back into a picture that equals the canvas (or its 1-bit conversion) after
// every frame, at every rotation, with every transfer within the bus's limit.

import XCTest
import PetCore
import PetDevice
import PetUI
@testable import PetSim

/// An SPI bus that records each transfer with the D/C level it was sent at.
final class RecordingSPI: SPIBus {
    let maxTransferSize: Int
    let dc = EmulatedLine("D/C")
    var transfers: [(data: Bool, bytes: [UInt8])] = []
    init(max: Int = 4096) { maxTransferSize = max }
    func write(_ bytes: UnsafeRawBufferPointer) throws(HardwareError) { transfers.append((dc.level ?? false, Array(bytes))) }

    /// The traffic as (command, parameters) pairs: each D/C-low byte starts a command, D/C-high
    /// bytes follow it.
    var commands: [(UInt8, [UInt8])] {
        var out: [(UInt8, [UInt8])] = []
        for t in transfers {
            if t.data { if !out.isEmpty { out[out.count - 1].1 += t.bytes } } else { for b in t.bytes { out.append((b, [])) } }
        }
        return out
    }
}

/// An I2C bus that records each message.
final class RecordingI2C: I2CBus {
    let maxMessageSize = 8192
    var messages: [(address: UInt8, bytes: [UInt8])] = []
    func write(address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(HardwareError) { messages.append((address, Array(bytes))) }
}

final class PanelDriverTests: XCTestCase {
    let t0 = Instant(1_772_434_800) // Mon 2026-03-02 07:00 UTC

    func assertCommands(_ got: [(UInt8, [UInt8])], _ want: [(UInt8, [UInt8])], file: StaticString = #filePath, line: UInt = #line) {
        let g = got.map { CommandLogEntry($0.0, $0.1).description }, w = want.map { CommandLogEntry($0.0, $0.1).description }
        XCTAssertEqual(g, w, file: file, line: line)
    }

    /// A day's worth of interactions on a board: the test checks the panel after each one.
    func interactions(_ board: EmulatedBoard, check: (String) throws -> Void) throws {
        try check("first frame")
        let create = try CommandParser.parse(name: "task.create", fields: ["task": "t1", "title": "Tea", "due": "today 17:00"],
                                             id: "c1", at: board.now, clock: board.loop.app.state.clock)
        try board.send(create)
        try check("task created")
        for (i, b) in [Button.a, .a, .b, .c, .a, .b, .c, .c].enumerated() {
            try board.press(b)
            try check("press \(i) \(b)")
        }
        try board.run(forMs: 61_000)
        try check("a minute later")
        try board.hold(.b)
        try check("hold")
        try board.run(forMs: 6 * 60_000)
        try check("asleep")
        try board.press(.a)
        try check("woken")
    }

    /// A rendered screen of `profile` from the app (home with a task).
    func renderedCanvas(_ profile: DisplayProfile) throws -> Canvas {
        let board = try EmulatedBoard(panel: HeadlessPanel(profile: profile), profile: profile, start: t0)
        try board.send(try CommandParser.parse(name: "task.create", fields: ["task": "t1", "title": "Walk", "due": "today 18:00"],
                                               id: "c1", at: board.now, clock: board.loop.app.state.clock))
        return board.loop.canvas
    }

    /// The first frame a pipeline gives for `c` (the whole surface).
    func firstFrame(_ c: Canvas, _ format: PixelFormat) -> PanelFrame {
        var pipeline = PanelPipeline(format: format, isEPaper: false)
        return pipeline.frame(for: c, nowMs: 0)!
    }

    // MARK: - ST7789

    func testST7789InitSequenceIsTheDatasheetSequence() throws {
        let bus = RecordingSPI()
        let rst = EmulatedLine("RST"), bl = EmulatedLine("BL")
        let delay = VirtualDelay()
        let panel = try ST7789(bus: bus, dc: bus.dc, reset: rst, backlight: bl, delay: delay,
                               config: .init(width: 240, height: 240))
        var c = Canvas(width: 240, height: 240, background: .white)
        c.fillRect(x: 0, y: 0, w: 1, h: 1, color: RGB565(raw: 0xF800))
        var pipeline = PanelPipeline(format: .rgb565, isEPaper: false)
        let frame = try XCTUnwrap(pipeline.frame(for: c, nowMs: 0))
        try panel.flush(frame)
        XCTAssertEqual(rst.history, [true, false, true], "hardware reset: high, low pulse, high")
        assertCommands(bus.commands, [
            (0x01, []),                        // SWRESET
            (0x11, []),                        // SLPOUT
            (0x3A, [0x55]),                    // COLMOD: 65k colours, 16 bits a pixel
            (0x36, [0x00]),                    // MADCTL: rotation 0, RGB order
            (0x21, []),                        // INVON (IPS glass)
            (0x13, []),                        // NORON
            (0x29, []),                        // DISPON
            (0x2A, [0x00, 0x00, 0x00, 0xEF]),  // CASET 0...239
            (0x2B, [0x00, 0x00, 0x00, 0xEF]),  // RASET 0...239
            (0x2C, frame.rects[0].bytes),      // RAMWR + the frame, big-endian RGB565
        ])
        XCTAssertEqual(Array(bus.commands.last!.1.prefix(4)), [0xF8, 0x00, 0xFF, 0xFF], "red first pixel, then white, MSB first")
        XCTAssertTrue(bus.transfers.allSatisfy { $0.bytes.count <= 4096 })
        XCTAssertGreaterThanOrEqual(delay.sleptNs, 120_000_000 + 150_000_000, "waits after reset and SWRESET (virtual time)")
    }

    func testST7789EveryFrameOfTheLoopDecodesToTheCanvas() throws {
        let p = try EmulatedPanel.st7789(.init(width: 240, height: 240))
        let board = try EmulatedBoard(panel: p.driver, profile: .square240, start: t0)
        var frames = 0
        try interactions(board) { step in
            XCTAssertEqual(p.emulator.picture.pixels, board.expected.pixels, "ST7789 after \(step)")
            frames += 1
        }
        XCTAssertEqual(p.emulator.violations, [])
        XCTAssertLessThanOrEqual(p.emulator.largestTransfer, 4096)
        XCTAssertGreaterThan(board.loop.pipeline.framesSent, 10)
        // Dirty updates: after the first whole frame, far fewer pixels than whole frames were sent.
        XCTAssertLessThan(p.emulator.pixelsWritten, board.loop.pipeline.framesSent * 240 * 240 / 2)
        XCTAssertEqual(p.emulator.log.filter { $0.command == 0x01 }.count, 1, "initialised once")
    }

    func testST7789RotationsRoundTripOnSquareAndWidePanels() throws {
        for (profile, rotations) in [(DisplayProfile.square240, [0, 90, 180, 270]), (.wide320, [90, 270])] {
            let canvas = try renderedCanvas(profile)
            var second = canvas
            second.fillRect(x: 10, y: 20, w: 30, h: 7, color: RGB565(raw: 0x07E0))
            for r in rotations {
                let p = try EmulatedPanel.st7789(.init(width: profile.width, height: profile.height, rotation: r))
                var pipeline = PanelPipeline(format: .rgb565, isEPaper: false)
                for (i, c) in [canvas, second].enumerated() {
                    let frame = try XCTUnwrap(pipeline.frame(for: c, nowMs: Int64(i)))
                    try p.driver.flush(frame)
                    pipeline.flushed(frame)
                    XCTAssertEqual(p.emulator.picture.pixels, c.pixels, "\(profile) rotation \(r) frame \(i)")
                    // Independently: the glass holds the UI turned counter-clockwise by the mounting.
                    XCTAssertEqual(p.emulator.glass.pixels, Turn.clockwise(c, (360 - r) % 360).pixels, "\(profile) rotation \(r) glass")
                }
                XCTAssertEqual(p.emulator.violations, [], "\(profile) rotation \(r)")
            }
        }
    }

    func testST7789SquareGlassNeedsTheRowOffsetAtSomeRotations() throws {
        // A 240×240 glass at the top of the 240×320 memory: with the row or column order reversed
        // the window starts 80 lines in.
        let offsets = [0, 90, 180, 270].map { r in ST7789.Config(width: 240, height: 240, rotation: r).windowOffset }
        XCTAssertEqual(offsets.map(\.x), [0, 80, 0, 0])
        XCTAssertEqual(offsets.map(\.y), [0, 0, 80, 0])
        XCTAssertEqual([0, 90, 180, 270].map { ST7789.Config(width: 240, height: 240, rotation: $0).madctl }, [0x00, 0xA0, 0xC0, 0x60])
        // A glass elsewhere in memory is configurable, and one that does not fit is refused.
        let p = try EmulatedPanel.st7789(.init(width: 240, height: 240, rotation: 180, glassRow: 80))
        let c = try renderedCanvas(.square240)
        var pipeline = PanelPipeline(format: .rgb565, isEPaper: false)
        try p.driver.flush(try XCTUnwrap(pipeline.frame(for: c, nowMs: 0)))
        XCTAssertEqual(p.emulator.picture.pixels, c.pixels)
        XCTAssertThrowsError(try ST7789(bus: RecordingSPI(), dc: EmulatedLine("dc"), reset: nil, backlight: nil, delay: VirtualDelay(),
                                        config: .init(width: 240, height: 240, glassRow: 100))) { e in
            XCTAssertTrue("\(e)".contains("does not fit the 240x320 frame memory"), "\(e)")
        }
    }

    func testST7789TransfersNeverExceedTheBusMaximum() throws {
        for max in [4096, 1000, 999, 64] {
            let p = try EmulatedPanel.st7789(.init(width: 240, height: 240), maxTransferSize: max)
            let c = try renderedCanvas(.square240)
            var pipeline = PanelPipeline(format: .rgb565, isEPaper: false)
            try p.driver.flush(try XCTUnwrap(pipeline.frame(for: c, nowMs: 0)))
            XCTAssertLessThanOrEqual(p.emulator.largestTransfer, max)
            XCTAssertEqual(p.emulator.picture.pixels, c.pixels, "max \(max): pixels split across transfers still land")
            XCTAssertEqual(p.emulator.violations, [])
        }
    }

    func testST7789BacklightFollowsBrightness() throws {
        let p = try EmulatedPanel.st7789(.init(width: 240, height: 240))
        try p.driver.setBrightness(0)
        XCTAssertEqual(p.emulator.backlight.level, false)
        try p.driver.setBrightness(30)
        XCTAssertEqual(p.emulator.backlight.level, true)
        // Without a backlight line the display itself goes off and on.
        let q = try EmulatedPanel.st7789(.init(width: 240, height: 240), backlight: false)
        try q.driver.flush(firstFrame(try renderedCanvas(.square240), .rgb565))
        XCTAssertTrue(q.emulator.displayOn)
        try q.driver.setBrightness(0)
        XCTAssertFalse(q.emulator.displayOn)
        try q.driver.setBrightness(50)
        XCTAssertTrue(q.emulator.displayOn)
    }

    func testAnIPSGlassWithoutINVONShowsInvertedColours() throws {
        // The emulator checks the inversion setting: the driver's INVON is what makes colours right.
        let p = try EmulatedPanel.st7789(.init(width: 240, height: 240, inverted: false))
        let c = try renderedCanvas(.square240)
        try p.driver.flush(firstFrame(c, .rgb565))
        XCTAssertEqual(p.emulator.picture.pixels, c.pixels.map { ~$0 })
    }

    // MARK: - SSD1306

    func testSSD1306InitSequenceIsTheDatasheetSequence() throws {
        let bus = RecordingI2C()
        let panel = try SSD1306(bus: bus)
        let m = MonoCanvas(width: 128, height: 64, background: .black)
        try panel.flush(PanelFrame(rects: [PanelSurface.mono(m).pack(m.bounds, as: .ssd1306Pages)], surface: .mono(m), refresh: .immediate))
        XCTAssertTrue(bus.messages.allSatisfy { $0.address == 0x3C })
        XCTAssertEqual(bus.messages[0].bytes, [
            0x00,        // control byte: commands follow
            0xAE,        // display off
            0xD5, 0x80,  // clock divide ratio / oscillator frequency (reset value)
            0xA8, 0x3F,  // multiplex ratio: 64 rows
            0xD3, 0x00,  // display offset 0
            0x40,        // display start line 0
            0x8D, 0x14,  // charge pump on (internal VCC)
            0x20, 0x00,  // memory addressing mode: horizontal
            0xA1,        // segment remap: column 127 → SEG0
            0xC8,        // COM scan direction: COM[N-1] → COM0
            0xDA, 0x12,  // COM pins: alternative configuration (64 rows)
            0x81, 0xFF,  // contrast (brightness 100 %)
            0xD9, 0xF1,  // pre-charge period
            0xDB, 0x40,  // VCOMH deselect level
            0xA4,        // resume to RAM content
            0xA6,        // normal (not inverted) display
        ])
        XCTAssertEqual(bus.messages[1].bytes, [0x00, 0x21, 0x00, 0x7F, 0x22, 0x00, 0x07], "column window 0...127, pages 0...7")
        let data = bus.messages[2..<(bus.messages.count - 1)]
        XCTAssertEqual(data.count, 8, "one data message per 128 bytes")
        XCTAssertTrue(data.allSatisfy { $0.bytes.first == 0x40 && $0.bytes.count == 129 }, "control byte 0x40, then 128 data bytes")
        XCTAssertEqual(bus.messages.last?.bytes, [0x00, 0xAF], "display on once the first frame is in memory")
    }

    func testSSD1306EveryFrameOfTheLoopDecodesToTheOneBitCanvas() throws {
        for rotation in [0, 180] {
            let p = try EmulatedPanel.ssd1306(rotation: rotation)
            let board = try EmulatedBoard(panel: p.driver, profile: .oled128, start: t0)
            try interactions(board) { step in
                if board.loop.ui.power == .asleep { return }
                XCTAssertEqual(p.emulator.picture.toCanvas().pixels, board.expected.pixels, "SSD1306 rotation \(rotation) after \(step)")
            }
            XCTAssertEqual(p.emulator.violations, [])
            XCTAssertLessThanOrEqual(p.emulator.largestMessage, 129)
            XCTAssertEqual(p.emulator.addressingMode, 0x00)
        }
    }

    func testSSD1306DirtyUpdatesUseAPageWindow() throws {
        let p = try EmulatedPanel.ssd1306(maxDataPerMessage: 16)
        var pipeline = PanelPipeline(format: .ssd1306Pages, isEPaper: false)
        var c = try renderedCanvas(.oled128)
        var changed: Rect?
        for i in 0..<2 {
            if i == 1 {
                let before = MonoCanvas(from: c)
                c.fillRect(x: 40, y: 19, w: 10, h: 3, color: .black); c.fillRect(x: 41, y: 20, w: 3, h: 1, color: .white)
                changed = MonoCanvas(from: c).changedRect(from: before)
            }
            let frame = try XCTUnwrap(pipeline.frame(for: c, nowMs: Int64(i)))
            p.emulator.clearLog()
            try p.driver.flush(frame)
            pipeline.flushed(frame)
            XCTAssertEqual(p.emulator.picture.toCanvas().pixels, MonoCanvas(from: c).toCanvas().pixels)
        }
        // The second frame: the changed columns, and the pages holding the changed rows, only.
        let r = try XCTUnwrap(changed)
        XCTAssertEqual(r.y / 8, 2, "rows 19...21 lie in page 2")
        XCTAssertEqual(p.emulator.log.first { $0.command == 0x21 }?.params, [UInt8(r.x), UInt8(r.maxX - 1)])
        XCTAssertEqual(p.emulator.log.first { $0.command == 0x22 }?.params, [2, 2])
        XCTAssertEqual(p.emulator.dataBytes, r.w)
        XCTAssertLessThanOrEqual(p.emulator.largestMessage, 17, "16 data bytes + the control byte")
        XCTAssertEqual(p.emulator.violations, [])
    }

    func testSSD1306BrightnessIsContrastAndZeroTurnsItOff() throws {
        let p = try EmulatedPanel.ssd1306()
        try p.driver.flush(firstFrame(try renderedCanvas(.oled128), .ssd1306Pages))
        try p.driver.setBrightness(40)
        XCTAssertEqual(p.emulator.contrast, 102)
        XCTAssertTrue(p.emulator.displayOn)
        try p.driver.setBrightness(0)
        XCTAssertFalse(p.emulator.displayOn)
        XCTAssertEqual(p.emulator.glass.bytes, MonoCanvas(width: 128, height: 64, background: .black).bytes, "dark")
        try p.driver.setBrightness(100)
        XCTAssertTrue(p.emulator.displayOn)
        XCTAssertEqual(p.emulator.contrast, 255)
    }

    func testSSD1306AtAnAddressNobodyAnswersIsAClearError() throws {
        let emu = SSD1306Emulator()
        let panel = try SSD1306(bus: emu, address: 0x3D)
        let m = MonoCanvas(width: 128, height: 64)
        XCTAssertThrowsError(try panel.flush(PanelFrame(rects: [PanelSurface.mono(m).pack(m.bounds, as: .ssd1306Pages)],
                                                        surface: .mono(m), refresh: .immediate))) { e in
            XCTAssertTrue("\(e)".contains("no ACK"), "\(e)")
        }
        XCTAssertThrowsError(try SSD1306(bus: emu, rotation: 90))
    }

    // MARK: - SSD1680

    func testSSD1680InitSequenceIsTheDatasheetSequence() throws {
        let bus = RecordingSPI()
        let rst = EmulatedLine("RST")
        let panel = try SSD1680(bus: bus, dc: bus.dc, reset: rst, busy: EmulatedInput { false }, delay: VirtualDelay())
        let m = MonoCanvas(width: 250, height: 122)
        try panel.flush(PanelFrame(rects: [PanelSurface.mono(m).pack(m.bounds, as: .ssd1680Rows)], surface: .mono(m), refresh: .full))
        XCTAssertEqual(rst.history, [true, false, true], "hardware reset")
        let white = [UInt8](repeating: 0xFF, count: 16 * 250)
        assertCommands(bus.commands, [
            (0x12, []),                        // SWRESET (then wait for BUSY)
            (0x01, [0xF9, 0x00, 0x00]),        // driver output control: 250 gate lines, default scan
            (0x11, [0x03]),                    // data entry mode: X then Y, both incrementing
            (0x44, [0x00, 0x0F]),              // RAM X window: bytes 0...15 (122 pixels)
            (0x45, [0x00, 0x00, 0xF9, 0x00]),  // RAM Y window: lines 0...249
            (0x4E, [0x00]),                    // RAM X counter
            (0x4F, [0x00, 0x00]),              // RAM Y counter
            (0x3C, [0x05]),                    // border waveform: follow LUT (white)
            (0x21, [0x00, 0x80]),              // display update control 1: normal RAMs, source S8...S167
            (0x18, [0x80]),                    // temperature sensor: internal
            (0x44, [0x00, 0x0F]), (0x45, [0x00, 0x00, 0xF9, 0x00]), (0x4E, [0x00]), (0x4F, [0x00, 0x00]),
            (0x24, white),                     // write RAM (new image): the whole frame
            (0x44, [0x00, 0x0F]), (0x45, [0x00, 0x00, 0xF9, 0x00]), (0x4E, [0x00]), (0x4F, [0x00, 0x00]),
            (0x26, white),                     // write RAM (old image): the base for partial refreshes
            (0x22, [0xF7]),                    // display update control 2: full refresh (mode 1)
            (0x20, []),                        // master activation (then wait for BUSY)
        ])
    }

    func testSSD1680EveryFrameOfTheLoopDecodesToTheOneBitCanvas() throws {
        for rotation in [90, 270] {
            let p = try EmulatedPanel.ssd1680(rotation: rotation)
            let board = try EmulatedBoard(panel: p.driver, profile: .epaper250, start: t0)
            try interactions(board) { step in
                XCTAssertEqual(p.emulator.picture.toCanvas().pixels, board.expected.pixels, "SSD1680 rotation \(rotation) after \(step)")
            }
            XCTAssertEqual(p.emulator.violations, [], "no command while BUSY, windows inside the RAM")
            XCTAssertLessThanOrEqual(p.emulator.largestTransfer, 4096)
            let refresher = board.loop.pipeline.refresher
            XCTAssertGreaterThan(p.emulator.partialRefreshes, 0)
            XCTAssertEqual(p.emulator.partialRefreshes, refresher.partialsSinceFull + (p.emulator.fullRefreshes - 1) * EPaperRefresher.partialsPerFull,
                           "the panel refreshed as the policy decided")
        }
    }

    func testSSD1680GlassHoldsTheUITurnedIntoTheRAMOrientation() throws {
        let c = try renderedCanvas(.epaper250)
        let mono = MonoCanvas(from: c)
        for rotation in [90, 270] {
            let p = try EmulatedPanel.ssd1680(rotation: rotation)
            var pipeline = PanelPipeline(format: .ssd1680Rows, isEPaper: true)
            try p.driver.flush(try XCTUnwrap(pipeline.frame(for: c, nowMs: 0)))
            // Independently of the driver's mapping: MonoCanvas's own clockwise turn.
            let cw = mono.rotatedClockwise()
            let expected = rotation == 270 ? cw : cw.rotatedClockwise().rotatedClockwise()
            XCTAssertEqual(p.emulator.glass.bytes, expected.bytes, "rotation \(rotation)")
        }
    }

    func testSSD1680PartialRefreshWritesOnlyTheWindow() throws {
        let p = try EmulatedPanel.ssd1680()
        var pipeline = PanelPipeline(format: .ssd1680Rows, isEPaper: true)
        var c = try renderedCanvas(.epaper250)
        let f0 = try XCTUnwrap(pipeline.frame(for: c, nowMs: 0))
        try p.driver.flush(f0); pipeline.flushed(f0)
        c.fillRect(x: 100, y: 50, w: 20, h: 5, color: .black)
        let f1 = try XCTUnwrap(pipeline.frame(for: c, nowMs: 1000))
        XCTAssertEqual(f1.refresh, .partial)
        p.emulator.clearLog()
        try p.driver.flush(f1); pipeline.flushed(f1)
        XCTAssertEqual(p.emulator.picture.toCanvas().pixels, MonoCanvas(from: c).toCanvas().pixels)
        // The pipeline's rect: UI x 96...119 (grown to whole bytes of its UI rows), y 50...54 →
        // RAM lines 249-119...249-96 = 130...153, RAM byte 50/8 = 54/8 = 6: 24 bytes.
        XCTAssertEqual(f1.rects.map(\.area), [Rect(x: 96, y: 50, w: 24, h: 5)])
        XCTAssertEqual(p.emulator.log.first { $0.command == 0x44 }?.params, [6, 6])
        XCTAssertEqual(p.emulator.log.first { $0.command == 0x45 }?.params, [130, 0, 153, 0])
        XCTAssertEqual(p.emulator.log.first { $0.command == 0x24 }?.dataBytes, 24)
        XCTAssertEqual(p.emulator.log.first { $0.command == 0x22 }?.params, [0xFF], "partial update sequence")
        XCTAssertEqual(p.emulator.log.first { $0.command == 0x26 }?.dataBytes, 24, "the old-image RAM follows, same window")
        XCTAssertEqual(p.emulator.partialRefreshes, 1)
        XCTAssertEqual(p.emulator.violations, [])
    }

    func testSSD1680StuckBusyIsAClearErrorWithoutWaiting() throws {
        let p = try EmulatedPanel.ssd1680()
        p.emulator.stuckBusy = true
        let c = try renderedCanvas(.epaper250)
        var pipeline = PanelPipeline(format: .ssd1680Rows, isEPaper: true)
        let frame = try XCTUnwrap(pipeline.frame(for: c, nowMs: 0))
        let before = p.delay.monotonicNs
        XCTAssertThrowsError(try p.driver.flush(frame)) { e in
            let err = e as? HardwareError
            XCTAssertEqual(err?.reason, "BUSY stayed high for 5000 ms: check the BUSY wire / HAT seated")
            XCTAssertEqual(err?.device, "ssd1680")
            XCTAssertEqual(err?.operation, "wait for BUSY after reset")
        }
        // The wait ran on virtual time: five seconds passed there, none here.
        XCTAssertGreaterThanOrEqual(p.delay.monotonicNs - before, 5_000_000_000)
        XCTAssertLessThan(p.delay.monotonicNs - before, 5_100_000_000)
        // Once BUSY works again, the next frame starts the panel over and shows.
        p.emulator.stuckBusy = false
        try p.driver.flush(frame)
        XCTAssertEqual(p.emulator.picture.toCanvas().pixels, MonoCanvas(from: c).toCanvas().pixels)
        XCTAssertEqual(p.emulator.violations.filter { !$0.contains("BUSY") }, [])
    }

    func testSSD1680AStaleOldImageRAMWouldShowAWrongPicture() throws {
        // The emulator's partial refresh drives only pixels where new ≠ old RAM: writing the new
        // image alone after a change back would leave the glass wrong. The driver keeps 0x26 in step.
        let p = try EmulatedPanel.ssd1680()
        var pipeline = PanelPipeline(format: .ssd1680Rows, isEPaper: true)
        let a = try renderedCanvas(.epaper250)
        var b = a
        b.fillRect(x: 0, y: 0, w: 40, h: 40, color: .black)
        for (i, c) in [a, b, a, b, a].enumerated() {
            let f = try XCTUnwrap(pipeline.frame(for: c, nowMs: Int64(i) * 1000))
            try p.driver.flush(f); pipeline.flushed(f)
            XCTAssertEqual(p.emulator.picture.toCanvas().pixels, MonoCanvas(from: c).toCanvas().pixels, "frame \(i)")
        }
        XCTAssertEqual(p.emulator.partialRefreshes, 4)
    }
}
