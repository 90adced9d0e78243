#if canImport(Glibc)
import Glibc
#endif
import PetCore
import PetDevice
import PetStore
import PetUI

/// The simulated board: a virtual clock, scripted buttons (3 buttons, 4 buttons or a 5-way
/// joystick) and a headless display of any supported size, driving the very same app (core +
/// journal + navigator + screens) as the device.
///
/// The canvas is the panel's frame buffer: it always holds the current screen. Dim and sleep are
/// the backlight (`ui.power`), so snapshots and `expect screen` see the content even when the real
/// panel would be dark.
public final class SimDevice {
    /// Virtual wall clock in milliseconds since the epoch (UTC).
    public private(set) var nowMs: Int64
    public var now: Instant { Instant(nowMs >= 0 ? nowMs / 1000 : (nowMs - 999) / 1000) }
    public private(set) var app: PetApp
    public private(set) var canvas: Canvas
    /// The display this board has.
    public let profile: DisplayProfile
    /// The keys this board has and what its gestures mean.
    public let layout: InputLayout
    /// The navigation state machine (screens, cursor, idle/dim/sleep, toasts, reminder overlay).
    public private(set) var navigator: Navigator
    /// What the screen shows besides the domain state.
    public var ui: UIState { navigator.ui }
    /// The theme the owner chose, resolved for this display.
    public var theme: Theme { Theme.resolve(app.state.device.theme, for: profile) }
    var gestures = GestureRecognizer()
    let dbPath: String?
    let options: EventStore.Options
    /// Called with every batch of events that was stored.
    public var onEvents: (([Event], PetState) -> Void)?

    /// The default display (240×240), for callers that assume it.
    public static let width = 240, height = 240

    /// A new or existing journal at `dbPath` (nil = in memory). The device powers on: the boot
    /// screen shows for a few seconds or until a press (`boot: false`: straight to home, as
    /// scenarios start: the pet is already running).
    public init(dbPath: String?, start: Instant, zone: String, dayStart: Int = 3,
                options: EventStore.Options = EventStore.Options(),
                profile: DisplayProfile = .square240, layout: InputLayout = .threeButtons,
                boot: Bool = true) throws(AppError) {
        self.dbPath = dbPath
        self.options = options
        self.profile = profile
        self.layout = layout
        self.nowMs = start.seconds * 1000
        let store: EventStore
        do throws(StoreError) {
            if let dbPath { store = try EventStore(path: dbPath, options: options) }
            else { store = try EventStore.inMemory(options: options) }
        } catch { throw .store(error) }
        app = try PetApp(store: store, now: start, zone: zone, dayStartHour: dayStart)
        if app.state.now > start { nowMs = app.state.now.seconds * 1000 }
        navigator = Navigator(state: app.state, now: Instant(nowMs / 1000), config: layout.navigatorConfig(profile: profile),
                              boot: boot)
        canvas = Canvas(width: profile.width, height: profile.height, background: Theme.light.background)
        try tick()
        render()
    }

    var state: PetState { app.state }

    private func report(_ events: [Event]) {
        guard !events.isEmpty else { return }
        navigator.note(events: events, state: app.state, now: now)
        onEvents?(events, app.state)
    }

    /// Brings the app and the navigator to the current virtual time.
    func tick() throws(AppError) {
        report(try app.advance(to: now))
        navigator.tick(state: app.state, now: now)
    }

    /// Runs the device until `t`: every day boundary and reminder on the way is handled at its
    /// own instant, as on a device that stays on.
    public func run(until t: Instant) throws(AppError) {
        while let w = app.engine.nextWakeup(), w <= t, w > app.state.now {
            nowMs = max(nowMs, w.seconds * 1000)
            report(try app.advance(to: w))
            navigator.tick(state: app.state, now: now)
        }
        nowMs = max(nowMs, t.seconds * 1000)
        try tick()
        render()
    }

    public func run(forMs ms: Int64) throws(AppError) {
        let target = nowMs + ms
        try run(until: Instant(target / 1000))
        nowMs = max(nowMs, target)
    }

    /// The device is off for `seconds`, then boots: the journal is reopened and time catches up
    /// in one step (missed days count as missed, reminders due meanwhile are reported once and
    /// counted on the "missed while off" banner).
    public func powerOff(for seconds: Int64) throws(AppError) {
        nowMs += seconds * 1000
        try reopen()
        try tick()
        render()
    }

    /// Sets the clock back (a clock jump backwards never undoes anything).
    public func setClock(_ t: Instant) throws(AppError) {
        nowMs = t.seconds * 1000
        try tick()
        render()
    }

    /// Closes and reopens the app from its journal: a reboot (the boot screen; what was missed
    /// before it was already reported, the catch-up reports the rest).
    public func reopen() throws(AppError) {
        guard let dbPath else { return }
        app.store.close()
        let store: EventStore
        do { store = try EventStore(path: dbPath, options: options) } catch { throw .store(error) }
        app = try PetApp(store: store, now: now)
        gestures = GestureRecognizer()
        navigator.powerOn(state: app.state, now: now)
    }

    /// Sends a command as the phone would.
    @discardableResult
    public func send(_ command: Command) throws(AppError) -> Reply {
        do {
            let reply = try app.handle(command)
            report(app.lastCommitted)
            navigator.tick(state: app.state, now: now)
            render()
            return reply
        } catch {
            report(app.lastCommitted)
            throw error
        }
    }

    /// Shows a pairing code (as the phone link does when a phone asks to pair); nil hides it.
    public func showPairingCode(_ code: String?) {
        navigator.setPairingCode(code)
        render()
    }

    // MARK: - Buttons

    /// Feeds one button edge at the current virtual time and acts on the gestures it completes.
    /// Keys this board does not have do nothing.
    public func edge(_ b: Button, pressed: Bool) throws(AppError) {
        let ns = UInt64(max(0, nowMs)) * 1_000_000
        for g in gestures.edge(b, pressed: pressed, ns: ns) { try perform(g) }
    }

    /// Lets `ms` pass with buttons as they are (long presses become due).
    public func wait(ms: Int64) throws(AppError) {
        try run(forMs: ms)
        let ns = UInt64(max(0, nowMs)) * 1_000_000
        for g in gestures.poll(ns: ns) { try perform(g) }
    }

    public func press(_ b: Button) throws(AppError) {
        try edge(b, pressed: true); try wait(ms: 100); try edge(b, pressed: false); try wait(ms: 400)
    }

    public func hold(_ b: Button) throws(AppError) {
        try edge(b, pressed: true); try wait(ms: 800); try edge(b, pressed: false); try wait(ms: 400)
    }

    public func doubleTap(_ b: Button) throws(AppError) {
        try edge(b, pressed: true); try wait(ms: 80); try edge(b, pressed: false); try wait(ms: 120)
        try edge(b, pressed: true); try wait(ms: 80); try edge(b, pressed: false); try wait(ms: 400)
    }

    public func chord() throws(AppError) {
        try edge(.a, pressed: true); try wait(ms: 20); try edge(.c, pressed: true); try wait(ms: 150)
        try edge(.a, pressed: false); try edge(.c, pressed: false); try wait(ms: 400)
    }

    /// A and C held together for 3.2 s (the factory-reset confirmation).
    public func chordHold() throws(AppError) {
        try edge(.a, pressed: true); try wait(ms: 20); try edge(.c, pressed: true)
        for _ in 0..<16 { try wait(ms: 200) }
        try edge(.a, pressed: false); try edge(.c, pressed: false); try wait(ms: 400)
    }

    /// Runs a gesture through the board's layout and the navigator; a device-made command gets a
    /// fresh id. A refused button action changes nothing (the device just shows the screen).
    func perform(_ g: Gesture) throws(AppError) {
        try tick()
        guard let input = layout.input(for: g) else { render(); return }
        for effect in navigator.handle(input, state: app.state, now: now) {
            switch effect {
            case .factoryReset:
                try app.wipe(now: now)
                gestures = GestureRecognizer()
                navigator.resetDone(state: app.state, now: now)
                report(app.lastCommitted)
            case .send(let action):
                let id = "dev-\(app.state.eventCount)"
                do { try send(Command(id: id, at: now, action: action)) } catch {
                    if case .domain = error { continue }
                    throw error
                }
            }
        }
        navigator.tick(state: app.state, now: now)
        render()
    }

    // MARK: - Display

    /// Draws the current screen (and the menu over home, when open) into `canvas`.
    public func render() {
        let ctx = ScreenContext(navigator: navigator, state: app.state, now: now, nowMs: nowMs, theme: theme)
        Screens.render(ctx, into: &canvas)
    }

    public func png() -> [UInt8] { PNG.encode(rgb565: canvas) }
}
