// DeviceLoopTests.swift — the device loop (PetDevice) driven by the simulated backends: it wakes
// only at deadlines (never a fixed tick), its panel pipeline sends the bytes a panel needs and the
// headless panel decodes them back into the picture, the buzzer and LED follow the events, hardware
// failures do not stop it, and the real poll(2) loop wakes for a readable input descriptor.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import XCTest
import PetCore
import PetDevice
import PetStore
import PetUI
@testable import PetSim
import PetLinux

final class DeviceLoopTests: XCTestCase {
    let t0 = Instant(1_772_434_800) // Mon 2026-03-02 07:00 UTC

    func device(_ profile: DisplayProfile = .square240, layout: InputLayout = .threeButtons,
                frameIntervalMs: Int64? = nil) throws -> SimDevice {
        try SimDevice(dbPath: nil, start: t0, zone: "UTC", profile: profile, layout: layout, boot: false,
                      frameIntervalMs: frameIntervalMs)
    }

    func command(_ d: SimDevice, _ id: String, _ name: String, _ fields: [String: String]) throws -> Command {
        try CommandParser.parse(name: name, fields: fields, id: id, at: d.now, clock: d.app.state.clock)
    }

    // MARK: - Deadlines, not ticks

    func testAsleepTheLoopWakesOnlyForTheCoresOwnWakeups() throws {
        let d = try device()
        try d.run(forMs: 10 * 60_000)
        XCTAssertEqual(d.ui.power, .asleep)
        // With the screen asleep the next deadline is the core's next wake-up, nothing sooner.
        let core = try XCTUnwrap(d.app.engine.nextWakeup())
        XCTAssertEqual(d.loop.nextDeadlineMs(), core.seconds * 1000)
        // An idle day: the loop wakes exactly as often as the core has something to do (+1 for the
        // final step of `run`), never on a tick.
        var coreWakeups = 0
        var probe = d.app.engine
        var t = d.app.state.now
        let end = d.now + 86_400
        while let w = probe.nextWakeup(), w <= end, w > t { _ = probe.advance(to: w); t = w; coreWakeups += 1 }
        let before = d.loop.wakeups
        try d.run(until: end)
        XCTAssertEqual(d.ui.power, .asleep)
        XCTAssertEqual(d.loop.wakeups - before, coreWakeups + 1)
    }

    func testAwakeWithoutAnimationItWakesAtTheMinuteAndThePowerSteps() throws {
        let d = try device()
        // C on home with nothing to dismiss: awake, the view unchanged (A would show a habit on
        // the card, and going back from it after 30 s comes before the minute).
        try d.press(.c)
        let now = d.nowMs
        let deadline = try XCTUnwrap(d.loop.nextDeadlineMs())
        XCTAssertEqual(deadline, (now / 60_000 + 1) * 60_000, "the clock on the screen shows the next minute")
        let before = d.loop.wakeups
        try d.run(forMs: 10 * 60_000)
        // dim at 2 min, sleep at 5, home-after at 30 s, minutes while on: about a dozen, not thousands.
        XCTAssertLessThan(d.loop.wakeups - before, 15)
        XCTAssertGreaterThanOrEqual(d.loop.wakeups - before, 5)
    }

    func testAnimationFramesOnlyWhileTheScreenIsOnAndNeverOnEPaper() throws {
        let colour = try device(frameIntervalMs: 100)
        try colour.press(.a)
        let next = try XCTUnwrap(colour.loop.nextDeadlineMs())
        XCTAssertLessThanOrEqual(next - colour.nowMs, 100)
        try colour.run(forMs: 10 * 60_000)
        XCTAssertEqual(colour.ui.power, .asleep)
        XCTAssertEqual(colour.loop.nextDeadlineMs(), colour.app.engine.nextWakeup().map { $0.seconds * 1000 },
                       "no frames while asleep")

        let paper = try device(.epaper250, frameIntervalMs: 100)
        try paper.press(.a)
        let p = try XCTUnwrap(paper.loop.nextDeadlineMs())
        XCTAssertGreaterThan(p - paper.nowMs, 100, "e-paper never animates")
    }

    func testALongPressIsAWakeupOfItsOwn() throws {
        let d = try device()
        try d.edge(.b, pressed: true)
        XCTAssertEqual(d.loop.nextDeadlineMs(), d.nowMs + 700, "the gesture recognizer's deadline")
        try d.run(forMs: 700)
        XCTAssertNil(d.loop.gestures.nextDeadline(), "the long press was reported at its deadline")
        try d.edge(.b, pressed: false)
    }

    // MARK: - The panel pipeline

    func testTheHeadlessPanelShowsExactlyTheCanvasOnEveryDisplay() throws {
        for profile in DisplayProfile.all {
            let d = try device(profile)
            try d.send(try command(d, "c1", "task.create", ["task": "t1", "title": "Tea", "due": "today 17:00"]))
            for step in 0..<6 {
                switch step % 3 {
                case 0: try d.press(.a)
                case 1: try d.press(.b)
                default: try d.run(forMs: 61_000)
                }
                let canvas = d.canvas
                let expected = profile.isMonochrome ? MonoCanvas(from: canvas).toCanvas() : canvas
                XCTAssertEqual(d.panel.picture.pixels, expected.pixels, "\(profile) step \(step)")
                XCTAssertEqual(PanelBytes.roundTrip(canvas, format: d.panel.format).pixels, expected.pixels)
            }
        }
    }

    func testOnlyChangedRectanglesReachThePanel() throws {
        let d = try device()
        _ = d.canvas
        let full = PixelFormat.rgb565.frameBytes(width: 240, height: 240)
        XCTAssertEqual(d.panel.lastFrameBytes, full, "the first frame is whole: the panel's content is unknown")
        try d.run(forMs: 60_000)
        _ = d.canvas
        XCTAssertGreaterThan(d.panel.lastFrameBytes, 0)
        XCTAssertLessThan(d.panel.lastFrameBytes, full / 4, "a new minute sends the clock, not the frame")
        let frames = d.panel.frames
        _ = d.canvas
        XCTAssertEqual(d.panel.frames, frames, "nothing changed: nothing sent")
    }

    func testEPaperRefreshesPartiallyThenFullyEveryTwentyOneUpdates() throws {
        let d = try device(.epaper250)
        _ = d.canvas
        XCTAssertEqual(d.panel.fullRefreshes, 1)
        var partials = 0
        for _ in 0..<25 {
            try d.run(forMs: 60_000)   // the clock shows a new minute
            _ = d.canvas
            partials = d.panel.partialRefreshes
        }
        XCTAssertEqual(d.panel.fullRefreshes + partials, d.panel.frames)
        XCTAssertEqual(d.panel.frames, 26)
        XCTAssertEqual(d.panel.fullRefreshes, 2, "the first frame, then one after 20 partials")
        XCTAssertEqual(partials, 24)
    }

    func testSSD1306AndSSD1680BytesDecodeToTheSamePixels() {
        var canvas = Canvas(width: 128, height: 64, background: .white)
        canvas.fillRect(x: 3, y: 5, w: 40, h: 13, color: .black)
        canvas.drawText("Hi", x: 60, y: 30, color: .black)
        let mono = MonoCanvas(from: canvas)
        for format in [PixelFormat.ssd1306Pages, .ssd1680Rows] {
            for rect in [Rect(x: 0, y: 0, w: 128, h: 64), Rect(x: 5, y: 9, w: 30, h: 11), Rect(x: 127, y: 63, w: 1, h: 1)] {
                let packed = PanelSurface.mono(mono).pack(rect, as: format)
                XCTAssertTrue(packed.area.contains(rect), "\(format) \(rect) grew to \(packed.area)")
                var target = MonoCanvas(width: 128, height: 64, background: .white)
                let ok = format == .ssd1306Pages ? PanelBytes.decodeSSD1306(packed, into: &target)
                                                 : PanelBytes.decodeSSD1680(packed, into: &target)
                XCTAssertTrue(ok)
                for y in packed.area.y..<packed.area.maxY {
                    for x in packed.area.x..<packed.area.maxX {
                        XCTAssertEqual(target.pixel(x: x, y: y), mono.pixel(x: x, y: y), "\(format) (\(x),\(y))")
                    }
                }
            }
            // A wrong byte count is refused, never read past.
            var junk = MonoCanvas(width: 128, height: 64)
            let bad = PackedRect(area: Rect(x: 0, y: 0, w: 128, h: 64), bytes: [0xFF, 0x00])
            XCTAssertFalse(format == .ssd1306Pages ? PanelBytes.decodeSSD1306(bad, into: &junk) : PanelBytes.decodeSSD1680(bad, into: &junk))
        }
        // RGB565 goes most significant byte first (the ST7789's order).
        var c = Canvas(width: 2, height: 1)
        c.setPixel(x: 0, y: 0, color: RGB565(raw: 0xF800))
        c.setPixel(x: 1, y: 0, color: RGB565(raw: 0x001F))
        XCTAssertEqual(PanelBytes.rgb565(c, c.bounds).bytes, [0xF8, 0x00, 0x00, 0x1F])
    }

    func testAPanelThatFailsIsRecordedAndTheNextFrameGoesWhole() throws {
        final class FlakyPanel: Panel {
            let format = PixelFormat.rgb565, width = 240, height = 240, rotation = 0, isEPaper = false
            var fail = true
            var frames: [PanelFrame] = []
            func flush(_ frame: PanelFrame) throws(HardwareError) {
                if fail { throw HardwareError(device: "test panel", operation: "write", reason: "unplugged") }
                frames.append(frame)
            }
            func setBrightness(_ percent: Int) throws(HardwareError) {}
        }
        let clock = VirtualClock(wallMs: t0.seconds * 1000)
        let panel = FlakyPanel()
        let app = try PetApp(store: try EventStore.inMemory(), now: t0)
        let loop = DeviceLoop(app: app, hardware: Hardware(clock: clock, inputs: [], panel: panel), profile: .square240,
                              layout: .threeButtons, boot: false)
        try loop.step()
        XCTAssertEqual(loop.hardwareErrors.map { $0.device + ": " + $0.reason }, ["test panel: unplugged"])
        XCTAssertEqual(loop.hardwareErrorCount, 1)
        panel.fail = false
        clock.advance(ms: 60_000)
        try loop.step()
        XCTAssertEqual(panel.frames.count, 1)
        XCTAssertEqual(panel.frames[0].rects.map { $0.area }, [Rect(x: 0, y: 0, w: 240, h: 240)], "whole after a failure")
    }

    func testAWakeupThatChangesNothingDrawsNothing() throws {
        let clock = VirtualClock(wallMs: t0.seconds * 1000 + 5_000)
        let panel = HeadlessPanel(profile: .square240)
        let app = try PetApp(store: try EventStore.inMemory(), now: t0)
        let loop = DeviceLoop(app: app, hardware: Hardware(clock: clock, inputs: [], panel: panel), profile: .square240,
                              layout: .threeButtons, boot: false)
        try loop.step()
        XCTAssertEqual(loop.renders, 1)
        XCTAssertEqual(panel.frames, 1)
        clock.advance(ms: 10_000)          // same minute, nothing happened
        try loop.step()
        XCTAssertEqual(loop.renders, 1, "no render")
        clock.advance(ms: 60_000)          // the clock on screen shows a new minute
        try loop.step()
        XCTAssertEqual(loop.renders, 2)
        XCTAssertEqual(panel.frames, 2)
    }

    // MARK: - The status strip's device state

    /// The battery is read once a minute while the screen is on (never while it sleeps, and never
    /// a wake-up of its own); the link's clients and the battery reach the home screen.
    func testBatteryAndLinkReachTheStatusStrip() throws {
        let clock = VirtualClock(wallMs: t0.seconds * 1000 + 5_000)
        let panel = HeadlessPanel(profile: .square240)
        let app = try PetApp(store: try EventStore.inMemory(), now: t0)
        let loop = DeviceLoop(app: app, hardware: Hardware(clock: clock, inputs: [], panel: panel), profile: .square240,
                              layout: .threeButtons, boot: false)
        var reads = 0, charge = 80
        loop.batteryReader = { reads += 1; return charge }
        let idle = loop.nextDeadlineMs()
        try loop.step()
        XCTAssertEqual(reads, 1)
        XCTAssertEqual(loop.deviceStatus, DeviceStatus(linkConnected: false, batteryPercent: 80))
        XCTAssertEqual(loop.nextDeadlineMs(), idle, "the battery adds no deadline")
        let withBattery = loop.canvas.pixels
        clock.advance(ms: 10_000)
        try loop.step()
        XCTAssertEqual(reads, 1, "same minute: not read again")
        charge = 20
        clock.advance(ms: 60_000)
        try loop.step()
        XCTAssertEqual(reads, 2)
        XCTAssertEqual(loop.batteryPercent, 20)
        XCTAssertNotEqual(loop.canvas.pixels, withBattery, "the fill follows the charge")
        // A phone connects: the phone icon shows; it goes: the icon goes.
        // (Status icons are bitmaps, recorded in the canvas's sprite record: "status/link".)
        func phone() -> Bool { loop.canvas.spriteRuns.contains { $0.name == "status/link" } }
        XCTAssertFalse(phone())
        loop.noteLink(.connected(client: 7))
        try loop.step()
        XCTAssertTrue(phone())
        loop.noteLink(.disconnected(client: 7))
        try loop.step()
        // The icon goes; a banner says the link was lost, for 10 s (a deadline of its own).
        XCTAssertTrue(loop.canvas.showsText("Phone link lost"))
        XCTAssertLessThanOrEqual(loop.nextDeadlineMs() ?? .max, clock.wallMs + 10_000)
        clock.advance(ms: 10_000)
        try loop.step()
        XCTAssertFalse(phone())
        // Asleep: no reads however long.
        clock.advance(ms: 3_600_000)
        try loop.step()
        XCTAssertEqual(loop.ui.power, .asleep)
        let asleep = reads
        clock.advance(ms: 3_600_000)
        try loop.step()
        XCTAssertEqual(reads, asleep)
        // Out-of-range readings are clamped.
        loop.batteryPercent = nil
        charge = 250
        loop.batteryReader = { charge }
        try loop.perform(.tap(.c))
        clock.advance(ms: 60_000)
        try loop.step()
        XCTAssertEqual(loop.batteryPercent, 100)
    }

    // MARK: - Buzzer and LED

    func testRewardsCelebrateRemindersNudgeAndDeclinedActionsBuzzSoftly() throws {
        let d = try device()
        try d.send(try command(d, "c1", "task.create", ["task": "t1", "title": "Tea", "due": "today 17:00",
                                                      "reminders": "today 09:00"]))
        try d.send(try command(d, "c2", "task.complete", ["task": "t1"]))
        XCTAssertEqual(d.sounder.played.last, .celebration)
        XCTAssertEqual(d.indicator.shown.last, .celebration)
        try d.send(try command(d, "c3", "task.create", ["task": "t2", "title": "Cake", "due": "today 17:00",
                                                      "reminders": "today 10:00"]))
        try d.run(until: Instant(t0.seconds + 3 * 3600 + 1))
        XCTAssertEqual(d.sounder.played.last, .nudge)
        XCTAssertEqual(d.indicator.shown.last, .nudge)
        // Buying with no coins is declined: a soft buzz, nothing stored.
        let count = d.app.state.eventCount
        XCTAssertEqual(Feedback.output(for: [], soundOn: true, timeSoundAllowed: true, byOwner: true, declined: true).tone, .softBuzz)
        XCTAssertEqual(d.app.state.eventCount, count)
    }

    func testNoSoundWhenMutedAndNoTimeSoundInQuietHours() {
        let reminder = Event(at: t0, kind: .reminderDue(taskID: "t1", index: 0))
        XCTAssertNil(Feedback.output(for: [reminder], soundOn: false, timeSoundAllowed: true, byOwner: false).tone)
        let quiet = Feedback.output(for: [reminder], soundOn: true, timeSoundAllowed: false, byOwner: false)
        XCTAssertNil(quiet.tone, "quiet hours: visual only")
        XCTAssertEqual(quiet.light, .nudge)
        XCTAssertEqual(Feedback.output(for: [reminder], soundOn: true, timeSoundAllowed: true, byOwner: false).tone, .nudge)
    }

    // MARK: - A busy loop: edges that arrive while it works

    /// Edges with their own (kernel) timestamps that become readable at a given monotonic time, and
    /// a read that takes `busyMs` of the clock (the work the edges cause: a slow flush or journal
    /// write, as on an emulated board), during which later edges arrive unread.
    final class LateInput: InputSource {
        let clock: VirtualClock
        var edges: [(readableAt: UInt64, edge: InputEdge)] = []
        var busyMs: Int64 = 0
        init(clock: VirtualClock) { self.clock = clock }
        var fileDescriptor: Int32? { nil }
        func readEdges() throws(HardwareError) -> [InputEdge] {
            let now = clock.monotonicNs
            let ready = edges.filter { $0.readableAt <= now }.map(\.edge)
            edges.removeAll { $0.readableAt <= now }
            if !ready.isEmpty { clock.advance(ms: busyMs) }
            return ready
        }
    }

    /// A 100 ms tap of C on home read at once, then the loop busy for 800 ms: the release came
    /// during that work, unread when the long press's deadline passed. It must stay a tap (a long
    /// press of C on home opens the urge log). The control: a release that really comes after
    /// 700 ms is a long press.
    func testAReleaseThatArrivesWhileTheLoopIsBusyIsNoLongPress() throws {
        for (releaseAfterMs, longPress) in [(100, false), (900, true)] {
            let clock = VirtualClock(wallMs: t0.seconds * 1000 + 5_000)
            let input = LateInput(clock: clock)
            let app = try PetApp(store: try EventStore.inMemory(), now: t0)
            let loop = DeviceLoop(app: app, hardware: Hardware(clock: clock, inputs: [input], panel: HeadlessPanel(profile: .square240)),
                                  profile: .square240, layout: .threeButtons, boot: false)
            try loop.step()
            XCTAssertEqual(loop.ui.screen, .home)
            let press = clock.monotonicNs, ms: UInt64 = 1_000_000
            input.busyMs = 800
            input.edges = [(press, InputEdge(.c, pressed: true, ns: press)),
                           (press + UInt64(releaseAfterMs) * ms, InputEdge(.c, pressed: false, ns: press + UInt64(releaseAfterMs) * ms))]
            try loop.step()   // reads the press; the clock is now 800 ms on, the release unread
            input.busyMs = 0
            try loop.step()   // reads the release
            clock.advance(ms: 1_000)
            try loop.step()
            XCTAssertEqual(loop.ui.screen == .urgeLog, longPress, "released after \(releaseAfterMs) ms: screen \(loop.ui.screen)")
        }
    }

    // MARK: - The real loop: poll(2) on descriptors

    func testTheRunLoopWakesForAReadableInputDescriptor() throws {
        /// Edges as 2-byte records (button index, pressed) through a pipe, stamped on read.
        final class PipeInput: InputSource {
            let readFD: Int32, writeFD: Int32
            let clock: DeviceClock
            var edgesRead = 0
            init(clock: DeviceClock) throws {
                var fds: [Int32] = [0, 0]
                guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
                readFD = fds[0]; writeFD = fds[1]
                _ = fcntl(readFD, F_SETFL, fcntl(readFD, F_GETFL) | O_NONBLOCK)
                self.clock = clock
            }
            deinit { close(readFD); close(writeFD) }
            var fileDescriptor: Int32? { readFD }
            func send(_ b: Button, _ pressed: Bool) {
                var rec: [UInt8] = [UInt8(Button.allCases.firstIndex(of: b)!), pressed ? 1 : 0]
                _ = write(writeFD, &rec, 2)
            }
            func readEdges() throws(HardwareError) -> [InputEdge] {
                var buf = [UInt8](repeating: 0, count: 64)
                let n = read(readFD, &buf, buf.count)
                guard n > 0 else { return [] }
                var out: [InputEdge] = []
                for i in stride(from: 0, to: n - 1, by: 2) {
                    out.append(InputEdge(Button.allCases[Int(buf[i])], pressed: buf[i + 1] == 1, ns: clock.monotonicNs))
                }
                edgesRead += out.count
                return out
            }
        }
        let clock = SystemClock()
        let input = try PipeInput(clock: clock)
        let panel = HeadlessPanel(profile: .square240)
        let app = try PetApp(store: try EventStore.inMemory(), now: Instant(clock.wallMs / 1000))
        let loop = DeviceLoop(app: app, hardware: Hardware(clock: clock, inputs: [input], panel: panel),
                              profile: .square240, layout: .threeButtons, boot: false)
        XCTAssertEqual(loop.descriptors, [input.readFD])
        input.send(.b, true)
        input.send(.b, false)
        // The edges are already waiting: poll returns at once, the loop wakes, the tap on B reaches
        // the navigator (it opens the menu once the double-tap window has passed:
        // docs/navigation.md, "A tap that waits"), and the frame reaches the panel. No sleeping anywhere.
        let error = loop.run(until: { input.edgesRead >= 2 })
        XCTAssertNil(error)
        XCTAssertEqual(loop.navigator.pendingTap, .select, "tap B reached the navigator")
        XCTAssertGreaterThan(panel.frames, 0)
        XCTAssertEqual(panel.picture.pixels, loop.canvas.pixels)
    }
}
