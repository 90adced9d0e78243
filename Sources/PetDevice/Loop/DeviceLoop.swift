import PetCore
import PetStore
import PetUI

/// The device: one loop, one thread, that owns the app (core + journal), the gesture recognizer,
/// the navigator and the renderer, and drives a board's `Hardware`. It sleeps until the earliest
/// of the core's next wake-up, the gesture recognizer's deadline (a long press, the 3-second
/// chord), the navigator's deadline (boot, idle, dim, sleep, toasts, the minute on the clock), the
/// next animation frame (none while the screen sleeps or on e-paper) and an input or link
/// descriptor becoming readable — never a fixed tick.
///
/// The same run loop (`run(waiting:)`, DeviceLoop+Run.swift) runs the daemon, which waits with
/// poll(2) (PetLinux's `PollWait`), and the simulator, whose wait moves a virtual clock from one
/// deadline to the next (`VirtualTimeWait`). What differs between a board and the simulator is
/// what their parts provide, never a switch of the loop: a panel's `presentation` (glass shows
/// every frame as it comes; a headless panel is looked at), the board's `Hardware.linkStandIn`.
///
/// The data path (docs/architecture.md):
/// edge → GestureRecognizer → InputLayout → Navigator → Command → PetApp (durable) → events →
/// navigator, feedback (buzzer, LED), link → render → PanelPipeline → Panel.flush.
public final class DeviceLoop {
    public private(set) var app: PetApp
    public let hardware: Hardware
    public let profile: DisplayProfile
    public let layout: InputLayout
    public internal(set) var navigator: Navigator
    public private(set) var gestures: GestureRecognizer
    public private(set) var pipeline: PanelPipeline
    /// The last rendered frame (what the pipeline compared and packed).
    public private(set) var canvas: Canvas
    /// Milliseconds between animation frames while the screen is on (nil: render only when
    /// something changed — the simulator's scripted runs, which render when looked at).
    public var frameIntervalMs: Int64?
    /// Seconds the wall clock is still to move once every key is up (`moveClockIfKeysUp`).
    var pendingClockShift: Int64 = 0
    /// The key whose tap the navigator holds back (`Navigator.pendingTap`): it acts once that key is
    /// up and its double-tap window has passed (`pollGestures`).
    var waitingTapKey: Button?
    /// How many times the loop woke (`step` calls): the idle-cost figure of deskpet-bench.
    public private(set) var wakeups = 0
    /// Of those, the wake-ups that found the screen asleep (the idle daemon's cost).
    public private(set) var wakeupsAsleep = 0
    /// Frames rendered (a wake-up that changed nothing on screen renders none).
    public private(set) var renders = 0
    /// Called with every batch of stored events and the state after it.
    public var onEvents: (([Event], PetState) -> Void)?
    /// The phone-link protocol (PetLink's service) on `hardware.link` (DeviceLoop+Link.swift).
    public var link: LinkServing?
    /// A deadline of the program around the loop (the daemon's watchdog ping), in wall ms; the loop
    /// wakes for it like for its own.
    public var externalDeadlineMs: (() -> Int64?)?
    /// Called at every wake-up, after the loop's own work (the daemon pings its watchdog here).
    public var onWake: (() -> Void)?
    /// Hardware failures the loop survived (a panel write, a buzzer), newest last, at most 16.
    public private(set) var hardwareErrors: [HardwareError] = []
    /// How many hardware failures there were in all (the daemon logs the new ones).
    public private(set) var hardwareErrorCount = 0
    /// Sounds and light patterns the loop asked for, in order (for tests and the simulator's
    /// `expect`; at most the last 64).
    public private(set) var feedbackLog: [Feedback.Output] = []
    /// The battery's charge as last read (0...100; nil: the board has no power-supply reading).
    /// `batteryReader` refreshes it once a minute while the screen is on; the simulator sets it.
    public var batteryPercent: Int? { didSet { if batteryPercent != oldValue { needsFrame = true } } }
    /// Reads the battery (the daemon: PetLinux's `PowerSupply`, on boards with a battery).
    public var batteryReader: (() -> Int?)?
    /// The phone-link clients connected now (from the transport's connect/disconnect events).
    public internal(set) var linkClients: Set<Int> = []
    /// What the status strip shows about the device (ScreenContext.device): a phone connected
    /// (the link's clients, or what the board's `linkStandIn` says) and the battery.
    public var deviceStatus: DeviceStatus {
        DeviceStatus(linkConnected: hardware.linkStandIn?.phoneConnected ?? !linkClients.isEmpty, batteryPercent: batteryPercent)
    }
    /// The status the last frame showed (a change needs a new frame).
    var shownStatus: DeviceStatus?
    var batteryReadMinute: Int64 = .min
    var nextFrameMs: Int64?
    /// Wipe between screens on colour panels (`ScreenTransition`): on by default where the panel
    /// shows every frame as it comes (`PanelPresentation.live`: the device), off on a panel that
    /// is looked at (the headless simulator, whose pictures are taken when asked).
    public var transitions: Bool
    /// The wipe running now, if any (its frames are deadlines of the loop until it is done).
    public private(set) var transition: ScreenTransition?
    /// The new screen the running wipe reveals, as rendered (its pixels and its recorded frame),
    /// and when the wipe's last frame was shown: a wipe frame with nothing else changed copies
    /// only the band the front crossed, it does not draw the screen again.
    var wipeTarget: Canvas?
    var wipeShownMs: Int64 = 0
    /// The wipe's next frame is due (and nothing else may have changed).
    var wipeDue = false
    /// The view the last presented frame showed, and whether the screen was lit then (a change
    /// made while it was dark is a cut).
    var shownUI: UIState?
    var shownAwake = false
    /// Something the screen shows may have changed since the last frame: events, the view, an
    /// animation frame, the minute on the clock (or the second of a running focus countdown).
    var needsFrame = true
    /// The clock shown by the last frame: a new minute (or focus second) needs a new frame.
    var shownClock: Int64 = .min
    var lastBrightness: Int?

    public init(app: PetApp, hardware: Hardware, profile: DisplayProfile, layout: InputLayout,
                debounceMs: Int = 30, boot: Bool = true, frameIntervalMs: Int64? = nil) {
        self.app = app
        self.hardware = hardware
        self.profile = profile
        self.layout = layout
        self.frameIntervalMs = frameIntervalMs
        transitions = hardware.panel.presentation == .live && profile.kind == .colour
        gestures = GestureRecognizer(debounceMs: debounceMs)
        pipeline = PanelPipeline(format: hardware.panel.format, isEPaper: hardware.panel.isEPaper)
        let now = Self.instant(ms: hardware.clock.wallMs)
        navigator = Navigator(state: app.state, now: max(now, app.state.now), config: layout.navigatorConfig(profile: profile), boot: boot)
        canvas = Canvas(width: profile.width, height: profile.height, background: Theme.light.background)
    }

    // MARK: - Time

    public var nowMs: Int64 { hardware.clock.wallMs }
    public var now: Instant { Self.instant(ms: nowMs) }
    static func instant(ms: Int64) -> Instant { Instant(floorDiv(ms, 1000)) }
    public var state: PetState { app.state }
    public var ui: UIState { navigator.ui }
    public var theme: Theme { Theme.resolve(app.state.device.theme, for: profile) }

    /// When the loop must next wake (wall ms), without input: the earliest of its `deadlines`.
    public func nextDeadlineMs() -> Int64? {
        var best: Int64?
        for d in deadlines() { best = best.map { min($0, d.ms) } ?? d.ms }
        return best
    }

    /// What wakes the loop (`deadlines`).
    public enum WakeSource: Sendable, Equatable {
        /// A long catch-up has batches left: at once.
        case catchUp
        /// The core's next wake-up (`Engine.nextWakeup`: a day closing, a reminder, a window).
        case core
        /// A long press or the chord becoming due.
        case gestures
        /// The navigator: boot, idle, dim, sleep, a toast, the minute on the clock.
        case navigator
        /// The next animation frame.
        case animation
        /// The next frame of a wipe between screens.
        case transition
        /// The program around the loop (`externalDeadlineMs`).
        case external
        /// The phone link's service (a client's timeout; at once: a backlog).
        case link
    }

    /// Every deadline the loop has now, each with what it is for (wall ms, after now; or now
    /// itself for what is due at once: a catch-up's next batch, a link backlog). A wait on virtual
    /// time may weigh them (`VirtualTimeWait` leaps over day closings while the screen sleeps).
    public func deadlines() -> [(source: WakeSource, ms: Int64)] {
        let nowMs = self.nowMs, now = self.now
        if app.catchingUp { return [(.catchUp, nowMs)] }
        var out: [(source: WakeSource, ms: Int64)] = []
        func consider(_ source: WakeSource, _ t: Int64?) {
            guard let t, t > nowMs else { return }
            out.append((source, t))
        }
        if let w = app.engine.nextWakeup(), w > app.state.now { consider(.core, TimeRange.milliseconds(w)) }
        let waitingTap = navigator.pendingTap != nil ? waitingTapKey.flatMap { gestures.tapSettles($0) } : nil
        if let g = [gestures.nextDeadline(), waitingTap].compactMap({ $0 }).min() {
            let mono = hardware.clock.monotonicNs
            let ahead = g > mono ? Int64(clamping: (g - mono + 999_999) / 1_000_000) : 0
            consider(.gestures, nowMs.addingReportingOverflow(max(1, ahead)).partialValue)
        }
        if let n = navigator.nextDeadline(state: app.state, now: now) { consider(.navigator, TimeRange.milliseconds(n)) }
        if animating, let f = nextFrameMs { consider(.animation, f) }
        if let t = transition { consider(.transition, t.nextFrameMs(after: nowMs) ?? nowMs + 1) }
        consider(.external, externalDeadlineMs?())
        // The link's deadlines at or before now mean "at once" (a pipelining client's backlog):
        // its `tick` always settles them, so this never spins.
        if let l = link?.nextDeadlineMs(loop: self) {
            if l <= nowMs { out.append((.link, nowMs)) } else { consider(.link, l) }
        }
        return out
    }

    /// Animation frames are due: a frame interval is set, the display animates (not e-paper) and
    /// the screen is on.
    var animating: Bool { frameIntervalMs != nil && profile.animates && navigator.ui.power != .asleep }

    // MARK: - One wake-up

    /// Does everything due at the clock's current time: time events, waiting input edges, long
    /// presses, link frames; then renders and flushes what changed, on a panel that shows every
    /// frame (`PanelPresentation.live`; a panel that is looked at gets its frame when it is).
    /// Journal failures are thrown (nothing was acknowledged); hardware failures are
    /// recorded in `hardwareErrors` and the loop carries on.
    public func step() throws(AppError) {
        wakeups += 1
        if navigator.ui.power == .asleep { wakeupsAsleep += 1 }
        try tick()
        // What the inputs say is known up to this moment; the work the edges cause (a journal write,
        // a frame) takes time, during which a release may arrive unread: long presses and waiting
        // taps are judged as of the read, not after that work.
        let edgesReadAt = hardware.clock.monotonicNs
        for source in hardware.inputs {
            let edges: [InputEdge]
            do { edges = try source.readEdges() } catch { note(error); continue }
            for e in edges { try feed(e) }
        }
        try pollGestures(edgesReadAt: edgesReadAt)
        serveLinkTransport()
        // The focus countdown and the break timer after a session show seconds.
        let onBreak = navigator.ui.focusResult?.onBreak(at: now) ?? false
        let focusRunning = navigator.ui.screen == .focus && (app.state.commitments.focus != nil || onBreak)
        let clock = focusRunning ? floorDiv(nowMs, 1000) : floorDiv(nowMs, 60_000)
        if clock != shownClock { needsFrame = true; shownClock = clock }
        // The battery, once a minute while the screen is on (no wake-up of its own).
        if let read = batteryReader, navigator.ui.power != .asleep, floorDiv(nowMs, 60_000) != batteryReadMinute {
            batteryReadMinute = floorDiv(nowMs, 60_000)
            batteryPercent = read().map { min(100, max(0, $0)) }
        }
        if let interval = frameIntervalMs, animating {
            if nextFrameMs.map({ nowMs >= $0 }) ?? true {
                needsFrame = true
                nextFrameMs = (nowMs / interval + 1) * interval
            }
        } else {
            nextFrameMs = nil
        }
        // A wipe in progress needs its next frame (and the whole new one when it ends); a dark
        // screen drops it.
        if navigator.ui.power == .asleep { transition = nil }
        if transition != nil { wipeDue = true }
        if hardware.panel.presentation == .live { present() }
        onWake?()
    }

    /// One button edge (its timestamp from the input source).
    public func feed(_ e: InputEdge) throws(AppError) {
        for g in gestures.edge(e.button, pressed: e.pressed, ns: e.ns) { try perform(g) }
        moveClockIfKeysUp()
    }

    /// Moves the wall clock by what the first run's clock steps asked (`NavEffect.setClock`) once
    /// every key is up: a clock that jumps while a key is down (the simulator's virtual clock moves
    /// its monotonic time forward with it) would turn the tap into a long press.
    func moveClockIfKeysUp() {
        guard pendingClockShift != 0, !gestures.buttons.values.contains(where: \.down) else { return }
        let by = pendingClockShift
        pendingClockShift = 0
        do {
            try setWallClock(ms: hardware.clock.wallMs &+ by &* 1000)
            navigator.clockWasSet(now: now)
            navigator.tick(state: app.state, now: now)
            needsFrame = true
        } catch { note(error) }
    }

    /// Reports the long presses and the 3-second chord that are now due, then lets a waiting tap
    /// act once it is known to stay a tap (`Navigator.pendingTap`: its key is up and the
    /// double-tap window has passed). `edgesReadAt` (monotonic ns): when the inputs were last read;
    /// both are judged as of then, since an edge that came later is not read yet: a key held past
    /// 700 ms by the clock but released before it, while the loop was busy, is no long press (the
    /// deadline being past, the loop wakes at once, reads the release and judges again).
    public func pollGestures(edgesReadAt: UInt64? = nil) throws(AppError) {
        let mono = min(hardware.clock.monotonicNs, edgesReadAt ?? .max)
        for g in gestures.poll(ns: mono) { try perform(g) }
        guard navigator.pendingTap != nil else { waitingTapKey = nil; return }
        guard let key = waitingTapKey, let at = gestures.tapSettles(key), mono >= at else { return }
        waitingTapKey = nil
        try tick()
        try carryOut(navigator.commitTap(state: app.state, now: now))
        needsFrame = true
        navigator.tick(state: app.state, now: now)
    }

    /// Brings the app and the navigator to the current time.
    public func tick() throws(AppError) {
        let before = navigator.ui
        // One batch of a long catch-up per wake-up (the next deadline is then "at once"), so
        // the screen is drawn between batches.
        report(try app.advance(to: now, batches: 1), byOwner: false)
        navigator.tick(state: app.state, now: now)
        if navigator.ui != before { needsFrame = true }
    }

    /// Sends a command as the phone does: stored, then the navigator and feedback hear its events.
    @discardableResult
    public func send(_ command: Command) throws(AppError) -> Outcome {
        let outcome = try app.handle(command)
        report(outcome.committed, byOwner: true)
        navigator.tick(state: app.state, now: now)
        needsFrame = true
        return outcome
    }

    /// Sends several commands as one group commit (`PetApp.handleBatch`): every event they stored
    /// is reported once, after the single journal transaction, then the outcomes (in order) may be
    /// acknowledged.
    public func sendBatch(_ commands: [Command]) throws(AppError) -> [Outcome] {
        let outcomes = try app.handleBatch(commands)
        var committed: [Event] = []
        for o in outcomes { committed += o.committed }
        report(committed, byOwner: true)
        navigator.tick(state: app.state, now: now)
        needsFrame = true
        return outcomes
    }

    /// Runs a gesture through the board's layout and the navigator. A device-made command gets a
    /// fresh id; a refused one changes nothing but a soft buzz.
    public func perform(_ g: Gesture) throws(AppError) {
        try tick()
        apply(link?.gesture(g, loop: self) ?? [])
        needsFrame = true
        guard let input = layout.input(for: g) else { return }
        try carryOut(navigator.handle(input, state: app.state, now: now))
        if case .tap(let b) = g { waitingTapKey = navigator.pendingTap != nil ? b : nil }
        navigator.tick(state: app.state, now: now)
    }

    /// Carries out what the navigator asked for (in order).
    func carryOut(_ effects: [NavEffect]) throws(AppError) {
        for effect in effects {
            switch effect {
            case .factoryReset:
                let events = try app.wipe(now: now)
                gestures = GestureRecognizer(debounceMs: Int(gestures.debounceNs / 1_000_000))
                navigator.resetDone(state: app.state, now: now)
                report(events, byOwner: true)
            case .setClock(let by):
                // The first run's time set with the buttons: the settable clock moves (as the
                // phone's time.set); a device whose clock cannot be set keeps its time.
                pendingClockShift &+= by
                moveClockIfKeysUp()
            case .send(let action):
                let id = "dev-\(app.state.eventCount)"
                let outcome = try app.handle(Command(id: id, at: now, action: action))
                report(outcome.committed, byOwner: true, declined: outcome.refusal != nil)
            }
        }
    }

    /// Tells the navigator, `onEvents`, the link (unless `toLink` is false: the link service
    /// committed them and pushes them itself) and the buzzer and LED about stored events.
    func report(_ events: [Event], byOwner: Bool, declined: Bool = false, toLink: Bool = true) {
        if !events.isEmpty {
            navigator.note(events: events, state: app.state, now: now)
            onEvents?(events, app.state)
            needsFrame = true
            if toLink { pushToLink(events) }
        }
        guard !events.isEmpty || declined else { return }
        let at = events.last?.at ?? now
        let out = Feedback.output(for: events, soundOn: app.state.device.sound,
                                  timeSoundAllowed: app.engine.reminderSoundAllowed(at: at), byOwner: byOwner, declined: declined)
        guard out.tone != nil || out.light != nil else { return }
        feedbackLog.append(out)
        if feedbackLog.count > 64 { feedbackLog.removeFirst(feedbackLog.count - 64) }
        if let t = out.tone, let s = hardware.sounder { do { try s.play(t) } catch { note(error) } }
        if let l = out.light, let i = hardware.indicator { do { try i.show(l) } catch { note(error) } }
    }

    func note(_ error: HardwareError) {
        hardwareErrorCount += 1
        hardwareErrors.append(error)
        if hardwareErrors.count > 16 { hardwareErrors.removeFirst(hardwareErrors.count - 16) }
    }

    // MARK: - Frames

    /// Renders the current screen into `canvas` (nothing is sent to the panel).
    public func render() {
        renders += 1
        // The navigator's own view (rows, cursor, scroll, hints for this board): the screen only draws it.
        var ctx = ScreenContext(navigator: navigator, state: app.state, now: now, nowMs: nowMs, theme: theme)
        ctx.device = deviceStatus
        shownStatus = ctx.device
        Screens.render(ctx, into: &canvas)
    }

    /// Renders and sends what changed to the panel, and sets the backlight for the power state
    /// (dim: a third of the brightness; asleep: off, and no frames while a colour or OLED screen
    /// sleeps). A panel that is looked at (`PanelPresentation.lookedAt`: the headless simulator)
    /// gets the frame every time it is asked, asleep or not: a snapshot shows what the screen
    /// holds, as a lit screen would show it.
    public func present() {
        let lookedAt = hardware.panel.presentation == .lookedAt
        let brightness: Int
        switch navigator.ui.power {
        case .awake: brightness = app.state.device.brightness
        case .dim: brightness = max(1, app.state.device.brightness / 3)
        case .asleep: brightness = 0
        }
        if brightness != lastBrightness {
            do { try hardware.panel.setBrightness(brightness); lastBrightness = brightness } catch { note(error) }
        }
        // Nothing that is drawn changed: no render, no diff, no bytes.
        if !needsFrame && !wipeDue && deviceStatus == shownStatus && !lookedAt { return }
        // A dark colour or OLED screen gets its frame when it wakes; e-paper shows what changed.
        if navigator.ui.power == .asleep && !hardware.panel.isEPaper && !lookedAt { return }
        // Only the wipe moved: the band its front crossed, from the screen already rendered.
        if !needsFrame && deviceStatus == shownStatus && !lookedAt && navigator.ui == shownUI && advanceWipe() {
            flushDamage()
            return
        }
        needsFrame = false
        wipeDue = false
        // The frame shown, kept only when a wipe starts from it (a copy of the canvas would make
        // every render copy its pixels).
        let from = startsTransition() ? canvas : nil
        render()
        composeTransition(from: from)
        flushDamage()
    }

    /// Sends the canvas's damage since the last frame to the panel (only there is it compared
    /// with the panel's picture: Damage.swift).
    func flushDamage() {
        let damage = canvas.takeDamage()
        guard let frame = pipeline.frame(for: canvas, damage: damage, nowMs: nowMs) else { return }
        do {
            try hardware.panel.flush(frame)
            pipeline.flushed(frame)
        } catch {
            note(error)
            pipeline.invalidate()
            needsFrame = true   // try again (whole) at the next wake-up
        }
    }

    /// Whether the frame about to be rendered starts a wipe: the screen shown changed while lit
    /// (`ScreenTransition.direction`).
    func startsTransition() -> Bool {
        guard transitions, shownAwake, navigator.ui.power != .asleep, let before = shownUI else { return false }
        return ScreenTransition.direction(from: before, to: navigator.ui, profile: profile) != nil
    }

    /// Starts the wipe from `from` (the frame shown before, when `startsTransition`), puts the wipe
    /// running over the frame just rendered, and ends it when done.
    func composeTransition(from: Canvas?) {
        let ui = navigator.ui
        let awake = ui.power != .asleep
        defer { shownUI = ui; shownAwake = awake }
        if let from, let before = shownUI, let dir = ScreenTransition.direction(from: before, to: ui, profile: profile) {
            // From what the panel shows now (mid-wipe: the composed frame).
            transition = ScreenTransition(from: from, startMs: nowMs, direction: dir, edge: theme.accent)
        }
        guard let t = transition else { wipeTarget = nil; return }
        if t.isDone(at: nowMs) || !awake { transition = nil; wipeTarget = nil; return }
        var target = canvas
        _ = target.takeDamage()
        wipeTarget = target
        wipeShownMs = nowMs
        t.compose(&canvas, at: nowMs)
    }

    /// The wipe's next frame when nothing but the wipe changed: only the band its front crossed
    /// since the last frame is composed (ScreenTransition.recompose); at its end the canvas is the
    /// rendered new screen again. False: no wipe to advance (a full frame is drawn).
    func advanceWipe() -> Bool {
        guard wipeDue, let t = transition, let target = wipeTarget else { return false }
        wipeDue = false
        let band = t.band(from: wipeShownMs, to: nowMs, width: canvas.width, height: canvas.height)
        wipeShownMs = nowMs
        if t.isDone(at: nowMs) {
            transition = nil
            wipeTarget = nil
            canvas = target
            canvas.restored(band)
        } else {
            t.recompose(&canvas, target: target, band: band, at: nowMs)
        }
        return true
    }

    /// Shows nothing and turns the backlight off (the daemon stopping): black on colour and OLED
    /// panels, white on e-paper (which keeps its picture without power). Failures are ignored:
    /// the process is ending.
    public func blankPanel() {
        let epaper = hardware.panel.isEPaper
        let canvas = Canvas(width: profile.width, height: profile.height, background: epaper ? .white : .black)
        let surface = PanelSurface.of(canvas, format: pipeline.format)
        let frame = PanelFrame(rects: [surface.pack(surface.bounds, as: pipeline.format)], surface: surface,
                               refresh: epaper ? .full : .immediate)
        do { try hardware.panel.flush(frame); pipeline.flushed(frame) } catch { note(error) }
        // The panel no longer shows the canvas: the next frame compares all of it.
        self.canvas.invalidate(self.canvas.bounds)
        do { try hardware.panel.setBrightness(0) } catch { note(error) }
        lastBrightness = 0
    }

    // MARK: - Power

    /// After a boot, a device whose first run is not done shows it (`Navigator.Config.firstRun`):
    /// the daemon sets it; the simulator when a scenario says `device first-run on`.
    public var firstRun: Bool {
        get { navigator.config.firstRun }
        set { navigator.config.firstRun = newValue; needsFrame = true }
    }

    /// The device booted again with `app` (reopened from the journal, not yet caught up): the
    /// boot screen, fresh gestures, the panel's content unknown. Reminders missed while off show
    /// in the banner once the next `step` catches up.
    public func reboot(app: PetApp) {
        self.app = app
        gestures = GestureRecognizer(debounceMs: Int(gestures.debounceNs / 1_000_000))
        navigator.powerOn(state: app.state, now: now)
        pipeline.invalidate()
        lastBrightness = nil
        needsFrame = true
    }
}
