#if canImport(Glibc)
import Glibc
#endif
import PetCore
import PetUI

// The simulated parts of a board: a virtual clock, scripted button edges, a headless panel that
// decodes the bytes it is given, and a buzzer and LED that record. The device loop cannot tell
// them from the Linux ones. A board whose display and keys are on the `sim` bus gets them from
// `BoardWiring` (the simulator, and the daemon running a simulator board headless); PetSim's
// panel emulators build on them.

/// A clock that moves only when told. Wall time can jump (either way); monotonic time only
/// advances, by the virtual time that passes.
public final class VirtualClock: DeviceClock {
    public private(set) var wallMs: Int64
    public private(set) var monotonicNs: UInt64 = 1_000_000_000

    public init(wallMs: Int64) { self.wallMs = wallMs }

    /// Time passes: both clocks move on by `ms` (≥ 0).
    public func advance(ms: Int64) {
        guard ms > 0 else { return }
        wallMs = wallMs.addingReportingOverflow(ms).partialValue
        monotonicNs = monotonicNs &+ UInt64(ms) &* 1_000_000
    }

    /// Moves to wall time `ms`: forward as time passing, backward as the clock being set back
    /// (monotonic time does not go back).
    public func move(toWallMs ms: Int64) {
        if ms > wallMs { advance(ms: ms - wallMs) } else { wallMs = ms }
    }
}

/// The phone's `time.set` (or Current Time write) moves the virtual clock: forward as time
/// passing, back as a clock set back.
extension VirtualClock: SettableClock {
    public func setWallMs(_ ms: Int64) throws(HardwareError) { move(toWallMs: ms) }
}

/// Button edges queued by a script or the terminal, stamped with the clock's monotonic time
/// when queued.
public final class ScriptedInput: InputSource {
    var queue: [InputEdge] = []
    public init() {}
    public var fileDescriptor: Int32? { nil }
    public func push(_ e: InputEdge) { queue.append(e) }
    public func readEdges() throws(HardwareError) -> [InputEdge] {
        defer { queue.removeAll() }
        return queue
    }
}

/// A panel with no glass: it decodes every byte it is sent (RGB565, SSD1306 pages or SSD1680
/// rows) into its own picture, as the controller's RAM would hold it, and counts what it got.
/// Snapshots and GIFs are made from this picture, so a 1-bit display's snapshot shows what the
/// 1-bit panel shows.
public final class HeadlessPanel: Panel {
    public let format: PixelFormat
    public let width: Int
    public let height: Int
    public let rotation: Int
    public let isEPaper: Bool
    /// The colour panel's RAM, or nil for 1-bit panels.
    public private(set) var colour: Canvas?
    /// The 1-bit panel's RAM, or nil for colour panels.
    public private(set) var mono: MonoCanvas?
    public private(set) var brightness = 100
    /// Live (the daemon running a simulator board) or looked at (the simulator: frames drawn
    /// when a picture is taken).
    public let presentation: PanelPresentation
    /// Frames, bytes, and e-paper refreshes received.
    public private(set) var frames = 0
    public private(set) var bytes = 0
    public private(set) var fullRefreshes = 0
    public private(set) var partialRefreshes = 0
    /// Bytes of the last frame.
    public private(set) var lastFrameBytes = 0

    public init(profile: DisplayProfile, format: PixelFormat? = nil, rotation: Int = 0, presentation: PanelPresentation = .live) {
        self.presentation = presentation
        self.format = format ?? PixelFormat.natural(for: profile.kind)
        width = profile.width
        height = profile.height
        self.rotation = rotation
        isEPaper = profile.kind == .epaper
        if self.format.isMonochrome { mono = MonoCanvas(width: width, height: height, background: .black) }
        else { colour = Canvas(width: width, height: height, background: .black) }
    }

    public func flush(_ frame: PanelFrame) throws(HardwareError) {
        for r in frame.rects {
            let ok: Bool
            switch format {
            case .rgb565: ok = colour.map { var c = $0; let ok = PanelBytes.decodeRGB565(r, into: &c); colour = c; return ok } ?? false
            case .ssd1306Pages: ok = mono.map { var m = $0; let ok = PanelBytes.decodeSSD1306(r, into: &m); mono = m; return ok } ?? false
            case .ssd1680Rows: ok = mono.map { var m = $0; let ok = PanelBytes.decodeSSD1680(r, into: &m); mono = m; return ok } ?? false
            }
            guard ok else {
                throw HardwareError(.invalidArgument, device: "sim panel", operation: "write \(r.bytes.count) bytes at \(r.area)",
                                    reason: "the byte count does not fit the window")
            }
        }
        frames += 1
        lastFrameBytes = frame.byteCount
        bytes += frame.byteCount
        switch frame.refresh {
        case .full: fullRefreshes += 1
        case .partial: partialRefreshes += 1
        case .immediate: break
        }
    }

    public func setBrightness(_ percent: Int) throws(HardwareError) { brightness = percent }

    /// What the panel shows, as colour pixels (1-bit: black and white).
    public var picture: Canvas {
        if let colour { return colour }
        return mono?.toCanvas() ?? Canvas(width: width, height: height)
    }
}

/// A buzzer that remembers what it played.
public final class RecordingSounder: Sounder {
    public private(set) var played: [Tone] = []
    public init() {}
    public func play(_ tone: Tone) throws(HardwareError) { played.append(tone) }
}

/// An LED that remembers its patterns.
public final class RecordingIndicator: Indicator {
    public private(set) var shown: [LightPattern] = []
    public init() {}
    public func show(_ pattern: LightPattern) throws(HardwareError) { shown.append(pattern) }
}

/// A `Delay` on virtual time: sleeping moves the clock on at once, nothing waits.
public final class VirtualDelay: Delay {
    public private(set) var monotonicNs: UInt64
    /// Everything slept so far.
    public private(set) var sleptNs: UInt64 = 0
    public init(startNs: UInt64 = 1_000_000_000) { monotonicNs = startNs }
    public func sleep(ns: UInt64) { monotonicNs &+= ns; sleptNs &+= ns }
    public var ms: Double { Double(monotonicNs) / 1e6 }
}


/// Virtual time as the run loop's wait (`DeviceLoop.run(waiting:)`): until wall time `target`, the
/// clock jumps to each deadline on the way and the loop wakes there (a day closing, a reminder, a
/// long press, the screen dimming), then once more at `target` (and again at once while a long
/// catch-up has batches left). The simulator's time passing.
///
/// Long stretches stay quick: while the screen sleeps and more than 31 days remain, the clock
/// leaps over day closings (the catch-up closes each at its own instant) to the next reminder,
/// window or other deadline; and a stretch longer than `Engine.preciseCatchUpDays` first leaps to
/// that many days before `target`, as if the device had slept through the older part
/// (docs/domain.md, catch-up).
public final class VirtualTimeWait: LoopWait {
    /// Day closings are leapt over only while more than this remains: the last month (and any
    /// shorter run) wakes at every deadline, day closings included, as the device does.
    public static let leapBeyondMs: Int64 = 31 * Seconds.day * 1000

    public let clock: VirtualClock
    public let target: Int64
    var startChecked = false
    var reachedTarget = false

    public init(clock: VirtualClock, untilMs target: Int64) {
        self.clock = clock
        self.target = target
    }

    public func next(_ loop: DeviceLoop) throws(HardwareError) -> Bool {
        if reachedTarget { return loop.app.catchingUp }
        if !startChecked {
            startChecked = true
            let horizonMs = Int64(Engine.preciseCatchUpDays) * Seconds.day * 1000
            if target.saturatingSubtracted(clock.wallMs) > horizonMs {
                clock.move(toWallMs: target - horizonMs)
                return true
            }
        }
        let leaping = loop.ui.power == .asleep && target.saturatingSubtracted(clock.wallMs) > Self.leapBeyondMs
        if let d = nextDeadlineMs(loop, leapingDayClosings: leaping), d <= target {
            clock.move(toWallMs: d)
            return true
        }
        if target > clock.wallMs { clock.move(toWallMs: target) }
        reachedTarget = true
        return true
    }

    /// The loop's next deadline; while leaping, the core's counts without its day closings
    /// (`Engine.nextWakeupExceptDayClose`: the catch-up closes each at its own instant).
    func nextDeadlineMs(_ loop: DeviceLoop, leapingDayClosings leaping: Bool) -> Int64? {
        var best: Int64?
        func consider(_ ms: Int64) { best = best.map { min($0, ms) } ?? ms }
        for d in loop.deadlines() where !(leaping && d.source == .core) { consider(d.ms) }
        if leaping, let w = loop.app.engine.nextWakeupExceptDayClose(), w > loop.app.state.now {
            let ms = TimeRange.milliseconds(w)
            if ms > loop.nowMs { consider(ms) }
        }
        return best
    }
}
