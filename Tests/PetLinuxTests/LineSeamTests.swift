import XCTest
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import PetCore
import PetStore
@testable import PetLinux
@testable import PetDevice

/// Buttons, buzzer and LED at the line seam, as the panels are at the bus seam: `GPIOButtons` reads
/// simulated lines whose descriptors carry the kernel's `gpio_v2_line_event` records (epoll,
/// non-blocking reads and the uAPI decoding all run), and the buzzers and LED play on simulated output lines
/// and a simulated PWM channel through their pattern player's thread. Steps are zero-length, so
/// nothing waits on time.
final class LineSeamTests: XCTestCase {
    let a = GPIOLineID.name("BTN_A"), b = GPIOLineID.name("BTN_B"), c = GPIOLineID.name("BTN_C")

    func buttons(_ lines: SimulatedEdgeLines, activeLow: Bool = true) throws -> GPIOButtons {
        try GPIOButtons(chip: "pet-buttons", buttons: [.a: a, .b: b, .c: c], bias: .pullUp, activeLow: activeLow, lines: lines)
    }

    func readable(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) == 1
    }

    // MARK: - GPIOButtons

    func testEdgesOnSeveralLinesComeOutOldestFirstAsPressesAndReleases() throws {
        let lines = SimulatedEdgeLines()
        let keys = try buttons(lines)
        XCTAssertEqual(Set(lines.requestedLines.keys), [a, b, c])
        XCTAssertEqual(Set(lines.requestedLines.values), [.pullUp])
        let fd = try XCTUnwrap(keys.fileDescriptor)
        XCTAssertFalse(readable(fd), "nothing waiting")
        XCTAssertEqual(try keys.readEdges(), [])
        let t = EventTime.now().monoNs
        // Active-low buttons to ground: pressed is the line going low. Written out of order across
        // lines (C's press is older than A's): read oldest first.
        XCTAssertTrue(lines.edge(a, physicallyHigh: false, ns: t + 2_000_000))
        XCTAssertTrue(lines.edge(c, physicallyHigh: false, ns: t + 1_000_000))
        XCTAssertTrue(lines.edge(a, physicallyHigh: true, ns: t + 3_000_000))
        XCTAssertTrue(readable(fd), "the epoll descriptor the loop polls is readable")
        XCTAssertEqual(try keys.readEdges(), [InputEdge(.c, pressed: true, ns: t + 1_000_000),
                                              InputEdge(.a, pressed: true, ns: t + 2_000_000),
                                              InputEdge(.a, pressed: false, ns: t + 3_000_000)])
        XCTAssertFalse(readable(fd), "all read")
        XCTAssertEqual(try keys.readEdges(), [])
    }

    func testActiveHighButtonsPressWhenTheLineGoesHigh() throws {
        let lines = SimulatedEdgeLines()
        let keys = try buttons(lines, activeLow: false)
        let t = EventTime.now().monoNs
        lines.edge(b, physicallyHigh: true, ns: t)
        lines.edge(b, physicallyHigh: false, ns: t + 1)
        XCTAssertEqual(try keys.readEdges().map(\.pressed), [true, false])
    }

    func testMoreEdgesThanOneReadHoldsAreAllRead() throws {
        let lines = SimulatedEdgeLines()
        let keys = try buttons(lines)
        let t = EventTime.now().monoNs
        for i in 0..<40 { lines.edge(a, physicallyHigh: i % 2 == 1, ns: t + UInt64(i)) }
        let edges = try keys.readEdges()
        XCTAssertEqual(edges.count, 40, "16 events are read at a time: every batch is read")
        XCTAssertEqual(edges.map(\.ns), (0..<40).map { t + UInt64($0) })
        XCTAssertEqual(edges.first?.pressed, true)
    }

    func testAStampOnTheRealtimeClockLandsOnTheMonotonicTimeLine() throws {
        let lines = SimulatedEdgeLines()
        let keys = try buttons(lines)
        let clocks = EventTime.now()
        // A kernel before 5.7 stamps line events with CLOCK_REALTIME.
        lines.edge(a, physicallyHigh: false, ns: clocks.realNs)
        let e = try XCTUnwrap(try keys.readEdges().first)
        let after = EventTime.now().monoNs
        XCTAssertLessThanOrEqual(e.ns, after)
        XCTAssertGreaterThanOrEqual(e.ns, clocks.monoNs - 1_000_000_000, "within a second of now on the monotonic line")
    }

    func testATornRecordIsAnErrorNamingTheLineAndTheNextEdgeStillReads() throws {
        let lines = SimulatedEdgeLines()
        let keys = try buttons(lines)
        lines.garbage(b, [1, 2, 3, 4, 5, 6, 7, 8])
        XCTAssertThrowsError(try keys.readEdges()) { e in
            let d = (e as? HardwareError)?.description ?? "\(e)"
            XCTAssertTrue(d.contains("BTN_B"), d)
        }
        let t = EventTime.now().monoNs
        lines.edge(b, physicallyHigh: false, ns: t)
        XCTAssertEqual(try keys.readEdges(), [InputEdge(.b, pressed: true, ns: t)])
    }

    func testALineHeldByAnotherProgramRefusesTheButtonsAndReleasesTheOthers() throws {
        let lines = SimulatedEdgeLines()
        lines.busy[b] = EBUSY
        XCTAssertThrowsError(try buttons(lines)) { e in
            let d = (e as? HardwareError)?.description ?? "\(e)"
            XCTAssertTrue(d.contains("BTN_B"), d)
        }
        XCTAssertTrue(lines.requestedLines.isEmpty, "A, requested before B failed, was released")
        XCTAssertThrowsError(try GPIOButtons(chip: nil, buttons: [:], lines: lines), "no buttons")
    }

    func testClosedButtonsReadNothingAndReleaseTheirLines() throws {
        let lines = SimulatedEdgeLines()
        let keys = try buttons(lines)
        keys.close()
        XCTAssertNil(keys.fileDescriptor)
        XCTAssertTrue(lines.requestedLines.isEmpty)
        XCTAssertFalse(lines.edge(a, physicallyHigh: false, ns: 1), "nobody listens")
        XCTAssertEqual(try keys.readEdges(), [])
        keys.close()
    }

    /// The device loop's real poll(2) run wakes for a simulated line's edge and the tap reaches
    /// the navigator, as on a board.
    func testTheLoopWakesForASimulatedLineAndATapOpensTheMenu() throws {
        let lines = SimulatedEdgeLines()
        let keys = try buttons(lines)
        let clock = SystemClock()
        let app = try PetApp(store: try EventStore.inMemory(), now: Instant(clock.wallMs / 1000))
        let loop = DeviceLoop(app: app, hardware: Hardware(clock: clock, inputs: [keys], panel: HeadlessPanel(profile: .square240)),
                              profile: .square240, layout: .threeButtons, boot: false)
        XCTAssertEqual(loop.descriptors, [try XCTUnwrap(keys.fileDescriptor)])
        let t = clock.monotonicNs
        // Released longer ago than the double-tap window: B on home, which waits for a double tap
        // or hold (docs/navigation.md, "A tap that waits"), acts at the first wake-up.
        lines.edge(b, physicallyHigh: false, ns: t &- 500_000_000)
        lines.edge(b, physicallyHigh: true, ns: t &- 450_000_000)
        let error = loop.run(until: { loop.ui.menu != nil || loop.wakeups > 20 })
        XCTAssertNil(error)
        XCTAssertEqual(loop.ui.menu, 0, "tap B opened the menu")
    }

    // MARK: - Buzzer and LED on simulated lines

    /// An output line that records its levels (set on the player's thread, read by the test).
    final class RecordingLine: OutputLine, Sendable {
        let levels = Mutex<[Bool]>([])
        let failing = Mutex(false)
        func set(_ high: Bool) throws(HardwareError) {
            if failing.withLock({ $0 }) { throw HardwareError(device: "sim line", operation: "set", reason: "unplugged") }
            levels.withLock { $0.append(high) }
        }
        var history: [Bool] { levels.withLock { $0 } }
    }

    final class RecordingPWM: PWMOutput, Sendable {
        let log = Mutex<[String]>([])
        func set(frequencyHz: Int) throws(HardwareError) { log.withLock { $0.append("\(frequencyHz)") } }
        func disable() throws(HardwareError) { log.withLock { $0.append("off") } }
        var history: [String] { log.withLock { $0 } }
    }

    func waitFinished(_ finished: () -> UInt64, _ n: UInt64) {
        var spins = 0
        while finished() < n && spins < 50_000_000 { sched_yield(); spins += 1 }
    }

    func testAnActiveBuzzerSwitchesItsLineInTheTonesRhythmAndEndsSilent() throws {
        let line = RecordingLine()
        let buzzer = try GPIOBuzzer(line: line, name: "sim buzzer", kind: .active)
        try buzzer.play(steps: [.note(2000, 0), .rest(0), .note(2000, 0)])
        waitFinished({ buzzer.finishedCount }, 1)
        buzzer.close()
        // silent at start, on, off, on, silent after the pattern, silent when the thread stops
        XCTAssertEqual(line.history, [false, true, false, true, false, false])
    }

    func testABuzzerLineThatFailsIsReportedByTheNextPlay() throws {
        let line = RecordingLine()
        let buzzer = try GPIOBuzzer(line: line, name: "sim buzzer", kind: .passive)
        line.failing.withLock { $0 = true }
        try buzzer.play(steps: [.note(4000, 0)])
        waitFinished({ buzzer.finishedCount }, 1)
        XCTAssertThrowsError(try buzzer.play(steps: [])) { e in
            XCTAssertEqual((e as? HardwareError)?.reason, "unplugged")
        }
        buzzer.close()
    }

    func testAPWMBuzzerSetsEachNotesFrequencyAndDisablesForRests() throws {
        let pwm = RecordingPWM()
        let buzzer = try PWMBuzzer(channel: pwm, path: "sim/pwm0")
        XCTAssertEqual(buzzer.channelPath, "sim/pwm0")
        try buzzer.play(steps: [.note(440, 0), .rest(0), .note(880, 0)])
        waitFinished({ buzzer.finishedCount }, 1)
        buzzer.close()
        XCTAssertEqual(pwm.history, ["off", "440", "off", "880", "off", "off"])
    }

    func testAnRGBLEDSetsItsThreeLinesPerStepAndGoesDark() throws {
        let r = RecordingLine(), g = RecordingLine(), b = RecordingLine()
        let led = try GPIOIndicator(red: r, green: g, blue: b)
        XCTAssertTrue(led.isRGB)
        try led.show(steps: [LightStep(.amber, 0), LightStep(.blue, 0)])
        waitFinished({ led.finishedCount }, 1)
        led.close()
        // dark at start, amber, blue, dark after, dark when the thread stops
        XCTAssertEqual(r.history, [false, true, false, false, false])
        XCTAssertEqual(g.history, [false, true, false, false, false])
        XCTAssertEqual(b.history, [false, false, true, false, false])
    }

    func testAOneColourLEDIsLitForAnyColour() throws {
        let line = RecordingLine()
        let led = try GPIOIndicator(red: line)
        XCTAssertFalse(led.isRGB)
        try led.show(steps: [LightStep(.blue, 0), LightStep(.off, 0), LightStep(.white, 0)])
        waitFinished({ led.finishedCount }, 1)
        led.close()
        XCTAssertEqual(line.history, [false, true, false, true, false, false])
    }
}
