import XCTest
import PetCore
import PetDevice
import PetUI
@testable import PetSim

/// docs/navigation.md: a short wipe between screens on colour panels, its frames scheduled by the
/// loop's deadline on the virtual clock, then no wake-ups again; a cut on e-paper and the OLED.
final class TransitionTests: XCTestCase {
    let t0 = Instant(1_772_434_800) // Mon 2026-03-02 07:00 UTC

    func device(_ profile: DisplayProfile) throws -> SimDevice {
        // As on the device: every wake-up presents its frame (a live panel).
        let d = try SimDevice(dbPath: nil, start: t0, zone: "UTC", profile: profile, layout: .threeButtons, boot: false,
                              presentation: .live)
        d.loop.transitions = true
        try d.loop.step()
        return d
    }

    func testAColourPanelWipesToTheMenuThenTheLoopSleepsAgain() throws {
        let d = try device(.square240)
        let home = d.loop.canvas.pixels
        try d.edge(.b, pressed: true)
        // B on home waits (a double tap or hold may follow: docs/navigation.md, "A tap that
        // waits"); released, it acts once the double-tap window has passed, a deadline of the loop.
        XCTAssertNil(d.ui.menu, "nothing yet while B is down")
        XCTAssertTrue(d.loop.transition == nil)
        try d.run(forMs: 80)
        try d.edge(.b, pressed: false)
        XCTAssertEqual(d.loop.nextDeadlineMs(), d.nowMs + 301)
        try d.run(forMs: 301)
        XCTAssertNotNil(d.ui.menu, "tap B opened the menu")
        let t = try XCTUnwrap(d.loop.transition, "a wipe started")
        XCTAssertEqual(t.direction, .down)
        // Its first frame already shows part of the menu: neither the old screen nor the new one.
        let first = d.loop.canvas.pixels
        XCTAssertNotEqual(first, home)
        // The next frame is a deadline of the loop, one frame later.
        XCTAssertEqual(d.loop.nextDeadlineMs(), t.startMs + ScreenTransition.frameMs)
        // Frames at +32, +64, +96 and the whole menu at +128 ms, each a deadline of the loop.
        for k in 1...4 {
            let due = try XCTUnwrap(d.loop.nextDeadlineMs())
            XCTAssertEqual(due, t.startMs + Int64(k) * ScreenTransition.frameMs, "frame \(k)")
            try d.run(forMs: due - d.nowMs)
        }
        XCTAssertTrue(d.loop.transition == nil, "done")
        // The wipe's last frame is the menu itself, as rendered at that instant (later, a
        // scrolling line under the menu may have moved on).
        let final = d.loop.canvas.pixels
        d.loop.render()
        XCTAssertEqual(final, d.loop.canvas.pixels, "the last frame is the menu itself")
        XCTAssertNotEqual(first, final)
        try d.run(forMs: 1000)
        XCTAssertNotNil(d.ui.menu)
        // Idle again: nothing before the clock's next minute or the dim time.
        let next = try XCTUnwrap(d.loop.nextDeadlineMs())
        XCTAssertGreaterThanOrEqual(next - d.nowMs, 1000)
        let idle = d.loop.wakeups
        try d.run(forMs: 500)
        XCTAssertLessThanOrEqual(d.loop.wakeups - idle, 1, "no wake-ups when idle (but the run's own last step)")
    }

    func testTheWipeIsDeterministicAndMovesForwardAndBack() throws {
        var runs: [[[UInt16]]] = []
        for _ in 0..<2 {
            let d = try device(.wide320)
            var frames: [[UInt16]] = []
            try d.edge(.b, pressed: true); try d.run(forMs: 100); try d.edge(.b, pressed: false)   // menu
            try d.run(forMs: 1000)
            try d.edge(.b, pressed: true)                                    // open Stats
            XCTAssertEqual(d.ui.screen, .stats)
            XCTAssertEqual(d.loop.transition?.direction, .forward)
            frames.append(d.loop.canvas.pixels)
            for _ in 0..<4 {
                let due = try XCTUnwrap(d.loop.nextDeadlineMs())
                try d.run(forMs: due - d.nowMs)
                frames.append(d.loop.canvas.pixels)
            }
            XCTAssertTrue(d.loop.transition == nil)
            try d.run(forMs: 100 - 4 * ScreenTransition.frameMs + 100)
            try d.edge(.b, pressed: false)
            try d.run(forMs: 1000)
            try d.edge(.c, pressed: true)                                    // back: home (the menu on Stats)
            XCTAssertEqual(d.loop.transition?.direction, .back)
            runs.append(frames)
        }
        XCTAssertEqual(runs[0], runs[1], "the same frames at the same virtual times")
        // Each frame reveals more of the new screen: fewer pixels left of the old one.
        let last = try XCTUnwrap(runs[0].last)
        let left = runs[0].map { f in zip(f, last).filter { $0 != $1 }.count }
        XCTAssertEqual(left.last, 0)
        for k in 1..<left.count { XCTAssertLessThan(left[k], left[k - 1], "frame \(k): \(left)") }
    }

    /// Drawing only what changed: a wipe frame with nothing else changed copies only the band
    /// its front crossed (ScreenTransition.recompose); every frame, in every direction, is the
    /// whole composition (`compose` over the new screen drawn from scratch).
    func testWipeFramesByBandEqualTheWholeComposition() throws {
        let d = try device(.square240)
        var checked = 0
        // The menu opens (down), Stats (forward), back to the menu, the menu closes (up), ...
        var seen: Set<ScreenTransition.Direction> = []
        for button in [Button.b, .b, .c, .c, .b, .c] {
            try d.edge(button, pressed: true)
            // B on home waits out the double-tap window once released (docs/navigation.md).
            let waited = d.loop.navigator.pendingTap != nil
            if waited { try d.run(forMs: 80); try d.edge(button, pressed: false); try d.run(forMs: 301) }
            let t = try XCTUnwrap(d.loop.transition, "\(button)")
            let direction = t.direction
            seen.insert(direction)
            var frames: [(ms: Int64, pixels: [UInt16])] = [(d.nowMs, d.loop.canvas.pixels)]
            while d.loop.transition != nil, let due = d.loop.nextDeadlineMs() {
                try d.run(forMs: due - d.nowMs)
                frames.append((d.nowMs, d.loop.canvas.pixels))
            }
            // The wipe ended on the new screen as rendered when it started; every frame before was
            // the whole composition over it.
            let target = d.loop.canvas
            for f in frames {
                var whole = target
                t.compose(&whole, at: f.ms)
                XCTAssertTrue(f.pixels == whole.pixels, "\(direction) at +\(f.ms - t.startMs) ms")
                checked += 1
            }
            // The next frame by damage is the frame drawn from scratch (the wipe left the canvas's
            // record of its frame true).
            d.loop.render()
            var ctx = ScreenContext(navigator: d.loop.navigator, state: d.loop.app.state, now: d.loop.now, nowMs: d.loop.nowMs,
                                    theme: d.loop.theme)
            ctx.device = d.loop.deviceStatus
            var scratch = Canvas(width: target.width, height: target.height)
            Screens.render(ctx, into: &scratch)
            XCTAssertTrue(scratch.pixels == d.loop.canvas.pixels, "\(direction): by damage and from scratch")
            if !waited { try d.edge(button, pressed: false) }
            try d.run(forMs: 1000)
        }
        XCTAssertEqual(seen, [.down, .forward, .back, .up])
        XCTAssertGreaterThanOrEqual(checked, 25)
    }

    func testEPaperAndTheOLEDCut() throws {
        for p in [DisplayProfile.epaper250, .oled128] {
            let d = try device(p)
            try d.edge(.b, pressed: true); try d.run(forMs: 80); try d.edge(.b, pressed: false); try d.run(forMs: 301)
            XCTAssertNotNil(d.ui.menu)
            XCTAssertTrue(d.loop.transition == nil, "\(p): no wipe")
            let next = try XCTUnwrap(d.loop.nextDeadlineMs())
            XCTAssertGreaterThan(next - d.nowMs, ScreenTransition.frameMs, "\(p): no frame deadline")
        }
        // The default: only a colour panel on the device (presenting eagerly) wipes.
        let sim = try SimDevice(dbPath: nil, start: t0, zone: "UTC", profile: .square240, layout: .threeButtons, boot: false)
        XCTAssertFalse(sim.loop.transitions, "the headless simulator takes its pictures when asked: no wipes")
    }

    func testTheWipeCurve() {
        let t = ScreenTransition(from: Canvas(width: 4, height: 4), startMs: 1000, direction: .back, edge: .white)
        XCTAssertEqual(t.progress(at: 1000), 1 - 0.8 * 0.8 * 0.8, accuracy: 1e-9)
        XCTAssertEqual(t.nextFrameMs(after: 1000), 1032)
        XCTAssertEqual(t.nextFrameMs(after: 1040), 1064)
        XCTAssertNil(t.nextFrameMs(after: 1128))
        XCTAssertTrue(t.isDone(at: 1128))
        XCTAssertFalse(t.isDone(at: 1127))
        var last = -1.0
        for ms in stride(from: Int64(1000), through: 1160, by: 8) {
            let p = t.progress(at: ms)
            XCTAssertGreaterThanOrEqual(p, last); last = p
        }
        XCTAssertEqual(last, 1)
    }
}
