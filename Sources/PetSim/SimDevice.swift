import PetCore
import PetDevice
import PetLink
import PetStore
import PetUI
import PetLinux

/// The simulated board: a virtual clock, scripted buttons (3 buttons, 4 buttons or a 5-way
/// joystick), a headless panel of any supported display and a buzzer and LED that record —
/// a `VirtualBoard` (the wiring it shares with the emulated boards) on a simulator board file,
/// driving the very same `DeviceLoop` (core + journal + gestures + navigator + screens + panel
/// pipeline) as the device. No app logic lives here.
///
/// Frames are rendered when looked at (a snapshot, `expect screen`, the terminal), not at every
/// wake-up — the headless panel's `PanelPresentation.lookedAt` — and the panel then receives
/// exactly the bytes a real panel would for that frame. Dim and sleep are the backlight
/// (`ui.power`), so snapshots and `expect screen` see the content even when the real panel would
/// be dark.
public final class SimDevice: VirtualBoard {
    /// The headless panel: what the screen shows, decoded from the bytes the loop sent it.
    public let panel: HeadlessPanel

    /// The frame the screen shows now (rendered and sent to the headless panel when read: the
    /// simulator draws frames when they are looked at).
    public var canvas: Canvas {
        loop.present()
        return loop.canvas
    }
    /// The keys this board has and what its gestures mean.
    public var layout: InputLayout { loop.layout }
    /// The navigation state machine (screens, cursor, idle/dim/sleep, toasts, reminder overlay).
    public var navigator: Navigator { loop.navigator }
    /// What the screen shows besides the domain state.
    public var ui: UIState { loop.ui }
    /// The theme the owner chose, resolved for this display.
    public var theme: Theme { loop.theme }
    /// Edges of one key closer than this are bounces (the board's `debounce-ms`; docs/boards.md: 30).
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
    /// The board is a simulator board of `profile` and `layout` (`Board.simulator`): a headless
    /// panel, scripted keys, a buzzer and LED that record. `presentation`: the headless panel is
    /// looked at; `.live` presents every wake-up's frame as the device does (and wipes between
    /// screens on colour panels).
    public init(dbPath: String?, start: Instant, zone: String, dayStart: Int = 3,
                options: EventStore.Options = EventStore.Options(),
                profile: DisplayProfile = .square240, layout: InputLayout = .threeButtons,
                debounceMs: Int = 30, boot: Bool = true, frameIntervalMs: Int64? = nil,
                presentation: PanelPresentation = .lookedAt,
                link: PhoneLink? = nil, linkService: LinkServing? = nil) throws(AppError) {
        self.dbPath = dbPath
        self.options = options
        let store: EventStore
        do throws(StoreError) {
            if let dbPath { store = try EventStore(path: dbPath, options: options) }
            else { store = try EventStore.inMemory(options: options) }
        } catch { throw .store(error) }
        let parts = SimulatedParts()
        panel = parts.headlessPanel(for: profile, presentation: presentation)
        try super.init(board: .simulator(profile: profile, layout: layout, debounceMs: debounceMs), parts: parts,
                       store: store, start: start, zone: zone, dayStart: dayStart, boot: boot,
                       frameIntervalMs: frameIntervalMs, link: link, linkService: linkService)
        render()
    }

    var state: PetState { app.state }

    /// Runs the device until `t`: it wakes at every deadline on the way (day boundaries,
    /// reminders, the screen dimming, long presses...), each at its own instant, as a device
    /// that stays on does.
    public func run(until t: Instant) throws(AppError) {
        try run(untilMs: TimeRange.milliseconds(t))
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
            do { try PollWait.wait(for: [fd], timeoutMs: max(0, ms)) } catch { throw .hardware(error) }
        }
        try loop.step()
    }

    // MARK: - Display

    /// Renders the current screen and sends what changed to the headless panel; `canvas` holds
    /// the frame (with its text record), `panel.picture` what the panel shows.
    public func render() {
        loop.present()
    }

    /// The status strip's stand-in for a connected phone (the scenario step `device link on`):
    /// true shows one whatever the link does, nil hands the status back to the link.
    public var linkStandIn: LinkStandIn { parts.simulated.linkStandIn }

    /// A PNG of what the panel shows now.
    public func png() -> [UInt8] {
        render()
        return PNG.encode(rgb565: panel.picture)
    }
}
