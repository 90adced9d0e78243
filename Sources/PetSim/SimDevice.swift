#if canImport(Glibc)
import Glibc
#endif
import PetCore
import PetDevice
import PetStore
import PetUI

/// The simulated board: a virtual clock, scripted buttons and a headless 240×240 RGB565 display,
/// driving the very same app (core + journal + UI) as the device.
public final class SimDevice {
    /// Virtual wall clock in milliseconds since the epoch (UTC).
    public private(set) var nowMs: Int64
    public var now: Instant { Instant(nowMs >= 0 ? nowMs / 1000 : (nowMs - 999) / 1000) }
    public private(set) var app: PetApp
    public private(set) var canvas: Canvas
    public var theme: Theme = .light
    public var ui = HomeUI()
    var gestures = GestureRecognizer()
    let dbPath: String?
    let options: EventStore.Options
    /// Called with every batch of events that was stored.
    public var onEvents: (([Event], PetState) -> Void)?

    public static let width = 240, height = 240

    /// A new or existing journal at `dbPath` (nil = in memory).
    public init(dbPath: String?, start: Instant, zone: String, dayStart: Int = 3,
                options: EventStore.Options = EventStore.Options()) throws(AppError) {
        self.dbPath = dbPath
        self.options = options
        self.nowMs = start.seconds * 1000
        let store: EventStore
        do throws(StoreError) {
            if let dbPath { store = try EventStore(path: dbPath, options: options) }
            else { store = try EventStore.inMemory(options: options) }
        } catch { throw .store(error) }
        app = try PetApp(store: store, now: start, zone: zone, dayStartHour: dayStart)
        canvas = Canvas(width: SimDevice.width, height: SimDevice.height, background: theme.background)
        if app.state.now > start { nowMs = app.state.now.seconds * 1000 }
        ui.missedAcknowledged = app.state.remindersMissed
        try tick()
        render()
    }

    var state: PetState { app.state }

    private func report(_ events: [Event]) {
        if !events.isEmpty { onEvents?(events, app.state) }
    }

    /// Brings the app to the current virtual time.
    func tick() throws(AppError) { report(try app.advance(to: now)) }

    /// Runs the device until `t`: every day boundary and reminder on the way is handled at its
    /// own instant, as on a device that stays on.
    public func run(until t: Instant) throws(AppError) {
        while let w = app.engine.nextWakeup(), w <= t, w > app.state.now {
            nowMs = max(nowMs, w.seconds * 1000)
            report(try app.advance(to: w))
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
    /// in one step (missed days count as missed, reminders due meanwhile are reported once).
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

    /// Closes and reopens the app from its journal.
    public func reopen() throws(AppError) {
        guard let dbPath else { return }
        app.store.close()
        let store: EventStore
        do { store = try EventStore(path: dbPath, options: options) } catch { throw .store(error) }
        app = try PetApp(store: store, now: now)
        // A boot: what was missed before it was already reported; the catch-up reports the rest.
        ui.missedAcknowledged = app.state.remindersMissed
    }

    /// Sends a command as the phone would.
    @discardableResult
    public func send(_ command: Command) throws(AppError) -> Reply {
        do {
            let reply = try app.handle(command)
            report(app.lastCommitted)
            render()
            return reply
        } catch {
            report(app.lastCommitted)
            throw error
        }
    }

    // MARK: - Buttons

    /// Feeds one button edge at the current virtual time and acts on the gestures it completes.
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

    /// Any button pressed while a wake-up commitment's window is open verifies it (SPEC §8); the
    /// press then does what it always does.
    func verifyWakeUp() throws(AppError) {
        for id in app.state.awaitingButtonPress(at: now) {
            let command = Command(id: "dev-\(app.state.eventCount)", at: now,
                                  action: .commitment(.verify(id: id, source: .button)))
            do { try send(command) } catch {
                if case .domain = error { continue }
                throw error
            }
        }
    }

    /// A and C held together for 3.2 s (the factory-reset confirmation).
    public func chordHold() throws(AppError) {
        try edge(.a, pressed: true); try wait(ms: 20); try edge(.c, pressed: true)
        for _ in 0..<16 { try wait(ms: 200) }
        try edge(.a, pressed: false); try edge(.c, pressed: false); try wait(ms: 400)
    }

    /// Runs a gesture through the home UI; a device-made command gets a fresh id.
    func perform(_ g: Gesture) throws(AppError) {
        try tick()
        try verifyWakeUp()
        switch ui.handle(g, state: app.state) {
        case nil: break
        case .factoryReset?:
            try app.wipe(now: now)
            ui = HomeUI()
        case .command(let action)?:
            let id = "dev-\(app.state.eventCount)"
            do { try send(Command(id: id, at: now, action: action)) } catch {
                // A refused button action changes nothing; the device just shows the pet.
                if case .domain = error { render(); return }
                throw error
            }
        }
        render()
    }

    // MARK: - Display

    public func render() {
        let model = ui.model(app.state, now: now)
        HomeScreen.render(model, into: &canvas, theme: theme)
    }

    public func png() -> [UInt8] { PNG.encode(rgb565: canvas) }
}

/// Writes bytes to a file (creating or truncating it).
public func writeFile(_ path: String, _ bytes: [UInt8]) throws(ScenarioError) {
    guard let f = fopen(path, "wb") else { throw .io(path: path, message: "cannot create file (\(errnoText()))") }
    defer { fclose(f) }
    let n = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    guard n == bytes.count else { throw .io(path: path, message: "short write (\(errnoText()))") }
}

/// Reads a text file.
public func readTextFile(_ path: String) throws(ScenarioError) -> String {
    guard let f = fopen(path, "rb") else { throw .io(path: path, message: "cannot open (\(errnoText()))") }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = buf.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
        out.append(contentsOf: buf[0..<n])
        if n < buf.count { break }
    }
    guard let s = String(validating: out, as: UTF8.self) else { throw .io(path: path, message: "is not UTF-8 text") }
    return s
}

/// Creates a directory and its parents (like mkdir -p).
public func makeDirectories(_ path: String) throws(ScenarioError) {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
        current += "/" + part
        if mkdir(current, 0o755) != 0 && errno != EEXIST {
            throw .io(path: current, message: "cannot create directory (\(errnoText()))")
        }
    }
}

/// Removes a file if it exists.
public func removeFile(_ path: String) { unlink(path) }

func errnoText() -> String { String(cString: strerror(errno)) }

/// Writes a line to standard error.
public func printError(_ s: String) {
    let line = s.hasSuffix("\n") ? s : s + "\n"
    var bytes = Array(line.utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

/// Flushes standard output (progress lines appear at once even when piped).
public func flushOutput() { fflush(nil) }
