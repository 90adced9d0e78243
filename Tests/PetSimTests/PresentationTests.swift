import XCTest
import PetCore
import PetDevice
import PetStore
import PetUI
@testable import PetSim

/// What differs between the device and the simulator is what their parts provide, not a switch
/// of the loop (docs/architecture.md, the device loop): a panel's presentation, a simulator
/// board's link stand-in, and the deadlines a wait on virtual time weighs.
final class PresentationTests: XCTestCase {
    let t0 = Instant(1_772_434_800) // Mon 2026-03-02 07:00 UTC

    func loop(_ presentation: PanelPresentation, clock: VirtualClock) throws -> (DeviceLoop, HeadlessPanel) {
        let panel = HeadlessPanel(profile: .square240, presentation: presentation)
        let app = try PetApp(store: try EventStore.inMemory(), now: t0)
        let loop = DeviceLoop(app: app, hardware: Hardware(clock: clock, inputs: [], panel: panel), profile: .square240,
                              layout: .threeButtons, boot: false)
        return (loop, panel)
    }

    func testALivePanelGetsEveryWakeupsFrameALookedAtOneOnlyWhenAsked() throws {
        let clock = VirtualClock(wallMs: t0.seconds * 1000 + 5_000)
        let (live, glass) = try loop(.live, clock: clock)
        let (headless, picture) = try loop(.lookedAt, clock: clock)
        XCTAssertTrue(live.transitions, "glass wipes between screens")
        XCTAssertFalse(headless.transitions, "a picture taken when asked does not")
        try live.step(); try headless.step()
        XCTAssertEqual(glass.frames, 1)
        XCTAssertEqual(picture.frames, 0, "nobody looked: nothing drawn")
        XCTAssertEqual(headless.renders, 0)
        headless.present()
        XCTAssertEqual(picture.frames, 1, "looked at: drawn")
        XCTAssertEqual(picture.picture.pixels, glass.picture.pixels, "the same frame either way")
        // Asleep: the glass gets nothing (its backlight is off), the picture still shows the screen.
        clock.advance(ms: 3 * 3600 * 1000)
        try live.step(); try headless.step()
        XCTAssertEqual(live.ui.power, .asleep)
        XCTAssertEqual(headless.ui.power, .asleep)
        let glassFrames = glass.frames, rendersAsleep = live.renders
        live.present()
        XCTAssertEqual(glass.frames, glassFrames, "a dark colour screen gets no frame")
        XCTAssertEqual(live.renders, rendersAsleep)
        let pictureFrames = picture.frames
        headless.present()
        XCTAssertEqual(headless.renders, 2)
        XCTAssertEqual(picture.brightness, 0, "the backlight is off")
        XCTAssertEqual(picture.frames, pictureFrames + 1, "the picture is what the screen holds (a later clock)")
        XCTAssertEqual(picture.picture.pixels, headless.canvas.pixels)
    }

    /// `device link on` shows a phone whatever the link does; `off` hands the strip back to the
    /// link's clients. A live panel gets the new strip at the next wake-up.
    func testTheLinkStandInIsWhatTheSimulatorBoardReports() throws {
        let d = try SimDevice(dbPath: nil, start: t0, zone: "UTC", boot: false)
        XCTAssertNotNil(d.loop.hardware.linkStandIn, "a simulator board has one")
        XCTAssertFalse(d.loop.deviceStatus.linkConnected)
        let without = d.canvas.pixels
        d.linkStandIn.phoneConnected = true
        XCTAssertTrue(d.loop.deviceStatus.linkConnected)
        XCTAssertNotEqual(d.canvas.pixels, without, "the phone icon shows")
        d.linkStandIn.phoneConnected = nil
        XCTAssertFalse(d.loop.deviceStatus.linkConnected, "back to the link (no clients)")
        XCTAssertEqual(d.canvas.pixels, without)

        let live = try SimDevice(dbPath: nil, start: t0, zone: "UTC", boot: false, presentation: .live)
        let frames = live.panel.frames
        live.linkStandIn.phoneConnected = true
        try live.loop.step()
        XCTAssertEqual(live.panel.frames, frames + 1, "the status changed: a new frame at the next wake-up")
        try live.loop.step()
        XCTAssertEqual(live.panel.frames, frames + 1, "and then none")
    }

    /// Each deadline says what it is for; the next deadline is the earliest of them.
    func testDeadlinesNameTheirSources() throws {
        let clock = VirtualClock(wallMs: t0.seconds * 1000 + 5_000)
        let (loop, _) = try loop(.live, clock: clock)
        try loop.step()
        let d = loop.deadlines()
        XCTAssertEqual(loop.nextDeadlineMs(), d.map(\.ms).min())
        XCTAssertTrue(d.contains { $0.source == .navigator }, "the clock's next minute, idle, dim: \(d)")
        XCTAssertTrue(d.contains { $0.source == .core }, "the day's close: \(d)")
        XCTAssertTrue(d.allSatisfy { $0.ms > loop.nowMs })
        loop.externalDeadlineMs = { self.t0.seconds * 1000 + 6_000 }
        XCTAssertEqual(loop.deadlines().first { $0.source == .external }?.ms, t0.seconds * 1000 + 6_000)
        XCTAssertEqual(loop.nextDeadlineMs(), t0.seconds * 1000 + 6_000)
    }
}
