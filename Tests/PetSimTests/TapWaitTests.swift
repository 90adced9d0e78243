import XCTest
import PetCore
import PetDevice
import PetUI
@testable import PetSim

/// docs/navigation.md, "A tap that waits": on a device (edges on the virtual clock, every wake-up
/// presenting its frame), B on home opens the menu once it is known to stay a tap — released, and
/// no second press inside the double-tap window — so a double tap or a hold of B never shows the
/// menu first and the panel gets one change, not two.
final class TapWaitTests: XCTestCase {
    let t0 = Instant(1_772_434_800) // Mon 2026-03-02 07:00 UTC

    func device(_ profile: DisplayProfile = .square240) throws -> (SimDevice, HeadlessPanel) {
        let d = try SimDevice(dbPath: nil, start: t0, zone: "UTC", profile: profile, layout: .threeButtons, boot: false,
                              presentation: .live)
        try d.loop.send(Command(id: "tea", at: t0, action: .createTask(TaskDraft(id: "tea", title: "Tea"))))
        try d.loop.step()
        return (d, try XCTUnwrap(d.loop.hardware.panel as? HeadlessPanel))
    }

    /// Whether the menu showed at any wake-up while `body` ran.
    func menuShown(_ d: SimDevice, _ body: () throws -> Void) rethrows -> Bool {
        var shown = false
        d.loop.onWake = { if d.loop.ui.menu != nil { shown = true } }
        defer { d.loop.onWake = nil }
        try body()
        return shown
    }

    func testATapOpensTheMenuOnceTheDoubleTapWindowHasPassed() throws {
        let (d, _) = try device(.oled128)   // no wipe: the next deadline is the loop's own
        try d.edge(.b, pressed: true)
        try d.run(forMs: 90)
        XCTAssertNil(d.ui.menu, "held: it may still become a long press")
        try d.edge(.b, pressed: false)
        try d.run(forMs: 299)
        XCTAssertNil(d.ui.menu, "released: a second press may still come")
        try d.run(forMs: 2)
        XCTAssertEqual(d.ui.menu, 0, "the window has passed: it was a tap")
        // The loop woke for it by itself (a deadline), and sleeps again after.
        XCTAssertNil(d.navigator.pendingTap)
        let next = try XCTUnwrap(d.loop.nextDeadlineMs())
        XCTAssertGreaterThan(next - d.nowMs, 300)
    }

    func testADoubleTapOrAHoldOfBNeverShowsTheMenu() throws {
        for profile in [DisplayProfile.square240, .oled128] {
            let (d, panel) = try device(profile)
            // Double B pets the pet.
            var before = panel.bytes
            XCTAssertFalse(try menuShown(d) { try d.doubleTap(.b) }, "\(profile): double B")
            XCTAssertNotNil(d.app.state.lastPetting, "\(profile): the pet was petted")
            let doubleBytes = panel.bytes - before
            // Hold B completes the task shown.
            before = panel.bytes
            XCTAssertFalse(try menuShown(d) { try d.hold(.b) }, "\(profile): hold B")
            XCTAssertFalse(d.app.state.tasks["tea"]?.isOpen ?? true, "\(profile): hold B completed it")
            let holdBytes = panel.bytes - before
            // A tap opens it (and C closes it again).
            before = panel.bytes
            XCTAssertTrue(try menuShown(d) { try d.press(.b) }, "\(profile): tap B")
            let tapBytes = panel.bytes - before
            XCTAssertLessThan(doubleBytes, tapBytes, "\(profile): a double tap sends less than opening the menu")
            print("tap-wait \(profile): bytes to the panel: tap B \(tapBytes), double B \(doubleBytes), hold B \(holdBytes)")
            try d.press(.c)
            XCTAssertNil(d.ui.menu)
        }
    }

    func testAnotherKeyInsideTheWindowLetsTheTapActFirst() throws {
        let (d, _) = try device()
        try d.edge(.b, pressed: true); try d.run(forMs: 80); try d.edge(.b, pressed: false)
        try d.run(forMs: 100)
        try d.edge(.a, pressed: true)
        XCTAssertEqual(d.ui.menu, NavRows.menu.count - 1, "the menu opened, then A moved up its ring")
        try d.run(forMs: 80); try d.edge(.a, pressed: false)
        try d.run(forMs: 1000)
        XCTAssertEqual(d.ui.menu, NavRows.menu.count - 1)
    }
}
