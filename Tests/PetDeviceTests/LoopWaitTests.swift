import XCTest
import PetCore
import PetStore
import PetUI
@testable import PetDevice

/// The run loop's wait is a backend: a wait that says when to wake, and how the loop ends.
final class LoopWaitTests: XCTestCase {
    let t0 = Instant(1_772_434_800) // Mon 2026-03-02 07:00 UTC

    final class CountedWait: LoopWait {
        var left: Int
        var failure: HardwareError?
        init(_ n: Int) { left = n }
        func next(_ loop: DeviceLoop) throws(HardwareError) -> Bool {
            if let failure { throw failure }
            left -= 1
            return left >= 0
        }
    }

    func loop(_ clock: DeviceClock) throws -> DeviceLoop {
        let app = try PetApp(store: try EventStore.inMemory(), now: t0)
        return DeviceLoop(app: app, hardware: Hardware(clock: clock, inputs: [], panel: HeadlessPanel(profile: .square240)),
                          profile: .square240, layout: .threeButtons, boot: false)
    }

    func testTheLoopWakesExactlyAsOftenAsItsWaitSays() throws {
        let l = try loop(VirtualClock(wallMs: t0.seconds * 1000))
        try l.run(waiting: CountedWait(3))
        XCTAssertEqual(l.wakeups, 3)
        try l.run(waiting: CountedWait(0))
        XCTAssertEqual(l.wakeups, 3)
    }

    func testAFailingWaitStopsTheRunWithAHardwareError() throws {
        let l = try loop(VirtualClock(wallMs: t0.seconds * 1000))
        let w = CountedWait(5)
        w.failure = HardwareError(device: "poll", operation: "wait", reason: "EBADF")
        XCTAssertThrowsError(try l.run(waiting: w)) { e in
            XCTAssertEqual(e as? AppError, .hardware(w.failure!))
        }
        XCTAssertEqual(l.wakeups, 0)
    }

    func testVirtualTimeWakesAtEachDeadlineThenOnceAtTheTarget() throws {
        let clock = VirtualClock(wallMs: t0.seconds * 1000)
        let l = try loop(clock)
        try l.step()
        var deadlines: [Int64] = []
        let target = clock.wallMs + 10 * 60_000
        // Walk the same deadlines by hand on a twin loop to know what to expect.
        let twinClock = VirtualClock(wallMs: t0.seconds * 1000)
        let twin = try loop(twinClock)
        try twin.step()
        var d = twin.nextDeadlineMs()
        while let t = d, t <= target { deadlines.append(t); twinClock.move(toWallMs: t); try twin.step(); d = twin.nextDeadlineMs() }
        XCTAssertFalse(deadlines.isEmpty, "the screen dims and sleeps within ten minutes")
        let before = l.wakeups
        try l.run(waiting: VirtualTimeWait(clock: clock, untilMs: target))
        XCTAssertEqual(clock.wallMs, target)
        XCTAssertEqual(l.wakeups - before, deadlines.count + 1, "each deadline, then the target")
        XCTAssertEqual(l.ui.power, twin.ui.power)
        // Already there: one wake-up at the target.
        try l.run(waiting: VirtualTimeWait(clock: clock, untilMs: target))
        XCTAssertEqual(l.wakeups - before, deadlines.count + 2)
        XCTAssertEqual(clock.wallMs, target)
    }
}
