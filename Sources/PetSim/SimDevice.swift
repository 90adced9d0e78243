#if canImport(Glibc)
import Glibc
#endif
import PetCore
import PetDevice
import PetLink
import PetStore
import PetUI

/// The simulated board: a virtual clock, scripted buttons (3 buttons, 4 buttons or a 5-way
/// joystick), a headless panel of any supported display and a buzzer and LED that record —
/// simulated backends driving the very same `DeviceLoop` (core + journal + gestures + navigator
/// + screens + panel pipeline) as the device. No app logic lives here: this file only moves the
/// virtual clock from one deadline of the loop to the next and scripts the buttons.
///
/// Frames are rendered when looked at (a snapshot, `expect screen`, the terminal), not at every
/// wake-up: the headless panel then receives exactly the bytes a real panel would for that
/// frame. Dim and sleep are the backlight (`ui.power`), so snapshots and `expect screen` see the
/// content even when the real panel would be dark.
public final class SimDevice {
    public let clock: VirtualClock
    public let input = ScriptedInput()
    public let panel: HeadlessPanel
    public let sounder = RecordingSounder()
    public let indicator = RecordingIndicator()
    /// The device loop this board drives.
    public let loop: DeviceLoop

    /// Virtual wall clock in milliseconds since the epoch (UTC).
    public var nowMs: Int64 { clock.wallMs }
    public var now: Instant { loop.now }
    public var app: PetApp { loop.app }
    /// The frame the screen shows now (rendered and sent to the headless panel when read: the
    /// simulator draws frames when they are looked at).
    public var canvas: Canvas {
        loop.present(evenAsleep: true)
        return loop.canvas
    }
    /// The display this board has.
    public let profile: DisplayProfile
    /// The keys this board has and what its gestures mean.
    public var layout: InputLayout { loop.layout }
    /// The navigation state machine (screens, cursor, idle/dim/sleep, toasts, reminder overlay).
    public var navigator: Navigator { loop.navigator }
    /// What the screen shows besides the domain state.
    public var ui: UIState { loop.ui }
    /// The theme the owner chose, resolved for this display.
    public var theme: Theme { loop.theme }
    /// Edges of one key closer than this are bounces (the board's `debounce-ms`; SPEC §14: 30).
    public var debounceMs: Int { Int(loop.gestures.debounceNs / 1_000_000) }
    let dbPath: String?
    let options: EventStore.Options
    /// Called with every batch of events that was stored.
    public var onEvents: (([Event], PetState) -> Void)? {
        get { loop.onEvents }
        set { loop.onEvents = newValue }
    }

    /// The default display (240×240), for callers that assume it.
    public static let width = 240, height = 240

    /// A new or existing journal at `dbPath` (nil = in memory). The device powers on: the boot
    /// screen shows for a few seconds or until a press (`boot: false`: straight to home, as
    /// scenarios start: the pet is already running). `frameIntervalMs`: animate at that rate
    /// while the screen is on (the interactive terminal); nil renders only when looked at.
    public init(dbPath: String?, start: Instant, zone: String, dayStart: Int = 3,
                options: EventStore.Options = EventStore.Options(),
                profile: DisplayProfile = .square240, layout: InputLayout = .threeButtons,
                debounceMs: Int = 30, boot: Bool = true, frameIntervalMs: Int64? = nil,
                link: PhoneLink? = nil, linkService: LinkServing? = nil) throws(AppError) {
        self.dbPath = dbPath
        self.options = options
        self.profile = profile
        let store: EventStore
        do throws(StoreError) {
            if let dbPath { store = try EventStore(path: dbPath, options: options) }
            else { store = try EventStore.inMemory(options: options) }
        } catch { throw .store(error) }
        let app = try PetApp(store: store, now: start, zone: zone, dayStartHour: dayStart)
        clock = VirtualClock(wallMs: TimeRange.milliseconds(max(start, app.state.now)))
        panel = HeadlessPanel(profile: profile)
        let hardware = Hardware(clock: clock, inputs: [input], panel: panel, sounder: sounder, indicator: indicator, link: link,
                                settableClock: clock)
        loop = DeviceLoop(app: app, hardware: hardware, profile: profile, layout: layout, debounceMs: debounceMs,
                          boot: boot, presentsEagerly: false, frameIntervalMs: frameIntervalMs)
        loop.link = linkService
        try loop.step()
        render()
    }

    var state: PetState { app.state }

    /// Runs the device until `t`: it wakes at every deadline on the way (day boundaries,
    /// reminders, the screen dimming, long presses...), each at its own instant, as a device
    /// that stays on does.
    public func run(until t: Instant) throws(AppError) {
        try run(untilMs: TimeRange.milliseconds(t))
    }

    public func run(forMs ms: Int64) throws(AppError) {
        try run(untilMs: nowMs.addingReportingOverflow(max(0, ms)).partialValue)
    }

    func run(untilMs target: Int64) throws(AppError) {
        try loop.run(on: clock, untilMs: target)
    }

    /// The device is off for `seconds`, then boots: the journal is reopened and time catches up
    /// in one step (missed days count as missed, reminders due meanwhile are reported once and
    /// counted on the "missed while off" banner).
    public func powerOff(for seconds: Int64) throws(AppError) {
        clock.advance(ms: seconds.saturatingMultiplied(by: 1000))
        try reopen()
        try loop.step()
        while app.catchingUp { try loop.step() }   // a long catch-up: one batch per wake-up
    }

    /// Sets the clock back (a clock jump backwards never undoes anything).
    public func setClock(_ t: Instant) throws(AppError) {
        clock.move(toWallMs: TimeRange.milliseconds(t))
        try loop.step()
    }

    /// Closes and reopens the app from its journal: a reboot (the boot screen; what was missed
    /// before it was already reported, the catch-up reports the rest).
    public func reopen() throws(AppError) {
        guard let dbPath else { return }
        app.store.close()
        let store: EventStore
        do { store = try EventStore(path: dbPath, options: options) } catch { throw .store(error) }
        loop.reboot(app: try PetApp(store: store, now: now))
    }

    /// Sends a command as the phone would. A refusal throws `AppError.domain` (the time events
    /// before it are kept).
    @discardableResult
    public func send(_ command: Command) throws(AppError) -> Reply {
        try loop.send(command).get()
    }

    /// Shows a pairing code (as the phone link does when a phone asks to pair); nil hides it.
    public func showPairingCode(_ code: String?) {
        loop.showPairingCode(code)
    }

    // MARK: - Phone link

    /// Serves the phone link once at the current virtual time (what the transport has waiting:
    /// connections, frames; the answers are sent). No time passes.
    public func serveLink() throws(AppError) {
        try loop.step()
    }

    /// Serves the phone link for `ms` of real time at most, waking when the transport's
    /// descriptor is readable (poll(2)); the virtual clock does not move. For scripted runs
    /// (the scenario step `serve`) and tests with a client in another process.
    public func serveLink(waitingUpToMs ms: Int32) throws(AppError) {
        if let fd = loop.hardware.link?.fileDescriptor {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, max(0, ms))
        }
        try loop.step()
    }

    // MARK: - Buttons

    /// Feeds one button edge at the current virtual time (the loop wakes for it, as for a
    /// readable GPIO descriptor). Keys this board does not have do nothing.
    public func edge(_ b: Button, pressed: Bool) throws(AppError) {
        input.push(InputEdge(b, pressed: pressed, ns: clock.monotonicNs))
        try loop.step()
    }

    /// Lets `ms` pass with buttons as they are (long presses become due).
    public func wait(ms: Int64) throws(AppError) {
        try run(forMs: ms)
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
        try wait(ms: 3200)
        try edge(.a, pressed: false); try edge(.c, pressed: false); try wait(ms: 400)
    }

    // MARK: - Display

    /// Renders the current screen and sends what changed to the headless panel; `canvas` holds
    /// the frame (with its text record), `panel.picture` what the panel shows.
    public func render() {
        loop.present(evenAsleep: true)
    }

    /// A PNG of what the panel shows now.
    public func png() -> [UInt8] {
        render()
        return PNG.encode(rgb565: panel.picture)
    }
}
