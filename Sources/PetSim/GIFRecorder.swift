import PetCore
import PetDevice
import PetUI

/// Plays a scenario's device steps (time, buttons, phone commands) on a fresh simulated device,
/// reporting a frame after every step and animation frames while time passes. Checks (`expect`,
/// `reject`, `restart`, `export`) change nothing and are not replayed: run the scenario with
/// `ScenarioRunner` for those. Used to record GIFs and to start the interactive simulator where a
/// scenario ends.
public final class ScenarioPlayer {
    public struct Options: Sendable {
        /// While time passes, a frame every this many virtual milliseconds …
        public var frameEveryMs: Int64 = 200
        /// … but at most this many frames for one `advance`/`time` step (a long step spreads them).
        public var maxFramesPerAdvance = 12
        /// How long a frame after a step shows in the GIF.
        public var stepDelayMs = 800
        /// How long an animation frame (while time passes) shows in the GIF.
        public var animationDelayMs = 200
        /// The display to simulate (nil: the scenario's `start … display=`).
        public var profile: DisplayProfile?
        /// The keys of the board (nil: the scenario's `start … buttons=`).
        public var layout: InputLayout?
        public init() {}
    }

    public let options: Options
    /// Called with the device and how long the frame should show, after every step that can
    /// change the screen and while time passes.
    public var onFrame: ((SimDevice, Int) -> Void)?
    /// Steps that were not replayed because the player does not know them (newer step kinds).
    public private(set) var skipped: [String] = []

    public init(options: Options = Options()) { self.options = options }

    /// A phone link for the device `play` makes (the interactive simulator's `--link`), served by
    /// its loop at every step.
    public var link: PhoneLink?
    public var linkService: LinkServing?

    /// A device for the scenario's `start` step (or the runner's default start) and board, with
    /// the journal in memory; `profile` and `layout` override the scenario's board.
    public static func makeDevice(for scenario: Scenario, profile: DisplayProfile? = nil,
                                  layout: InputLayout? = nil, link: PhoneLink? = nil,
                                  linkService: LinkServing? = nil) throws(ScenarioError) -> SimDevice {
        var local = LocalDateTime(date: CivilDate(year: 2026, month: 1, day: 5), secondOfDay: 9 * 3600)
        var zone = "UTC", dayStart = 3
        if let first = scenario.steps.first, case let .start(l, z, d) = first.step { local = l; zone = z; dayStart = d }
        guard let rules = ZoneDatabase().rules(for: zone) else {
            throw .failed(file: scenario.file, line: scenario.steps.first?.line ?? 1, step: "start",
                          message: "unknown time zone '\(zone)'")
        }
        do {
            return try SimDevice(dbPath: nil, start: Instant(rules.utc(for: local)), zone: zone, dayStart: dayStart,
                                 profile: profile ?? scenario.display, layout: layout ?? scenario.buttons,
                                 debounceMs: scenario.debounceMs, link: link, linkService: link == nil ? nil : linkService)
        } catch {
            throw .failed(file: scenario.file, line: 1, step: "start", message: error.description)
        }
    }

    /// Plays every step on a new device and returns it.
    @discardableResult
    public func play(_ scenario: Scenario) throws(ScenarioError) -> SimDevice {
        let device = try ScenarioPlayer.makeDevice(for: scenario, profile: options.profile, layout: options.layout,
                                                   link: link, linkService: linkService)
        onFrame?(device, options.stepDelayMs)
        for located in scenario.steps {
            do {
                if try perform(located, device: device, scenario: scenario) {
                    onFrame?(device, options.stepDelayMs)
                }
            } catch let e as ScenarioError {
                throw e
            } catch {
                throw .failed(file: scenario.file, line: located.line, step: located.text, message: "\(error)")
            }
        }
        return device
    }

    /// Performs one step; true if it can have changed the screen. (An `if case` chain rather than a
    /// switch, so that step kinds added later compile here and are reported as skipped.)
    func perform(_ located: Scenario.Located, device: SimDevice, scenario: Scenario) throws -> Bool {
        let step = located.step
        if case .time(let local) = step {
            let t = device.app.state.clock.instant(local)
            if t >= device.now { try pass(until: t, device: device) } else { try device.setClock(t) }
        } else if case .advance(let s) = step {
            try pass(until: device.now + s, device: device)
        } else if case .off(let s) = step {
            try device.powerOff(for: s)
        } else if case .press(let b) = step {
            try device.press(b)
        } else if case .hold(let b) = step {
            try device.hold(b)
        } else if case .double(let b) = step {
            try device.doubleTap(b)
        } else if case .chord = step {
            try device.chord()
        } else if case .chordHold = step {
            try device.chordHold()
        } else if case let .send(id, name, fields) = step {
            try device.run(until: device.now)
            let commandID = id ?? "line-\(located.line)-\(device.now.seconds)"
            let command: Command
            if let action = try ContentCommands.action(name: name, fields: fields) {
                command = Command(id: commandID, at: device.now, action: action)
            } else {
                command = try CommandParser.parse(name: name, fields: fields, id: commandID, at: device.now,
                                                  clock: device.app.state.clock, current: device.app.state.device)
            }
            try device.send(command)
        } else if case .snapshot = step {
            return true
        } else if isCheck(step) {
            return false   // checks and outputs change nothing on the device
        } else {
            skipped.append("\(scenario.file):\(located.line): \(located.text)")
            return false
        }
        return true
    }

    func isCheck(_ step: Scenario.Step) -> Bool {
        if case .start = step { return true }
        if case .reject = step { return true }
        if case .expect = step { return true }
        if case .expectScreen = step { return true }
        if case .export = step { return true }
        if case .restart = step { return true }
        if case .echo = step { return true }
        return false
    }

    /// Lets time pass until `t`, with animation frames on the way.
    func pass(until t: Instant, device: SimDevice) throws {
        let totalMs = TimeRange.milliseconds(t).saturatingSubtracted(device.nowMs)
        guard totalMs > 0, onFrame != nil else { try device.run(until: t); return }
        let cap = Int64(max(1, options.maxFramesPerAdvance))
        let every = max(options.frameEveryMs, 1, (totalMs + cap - 1) / cap)
        var left = totalMs
        while left > every {
            try device.wait(ms: every)
            left -= every
            onFrame?(device, options.animationDelayMs)
        }
        try device.run(until: t)
    }
}

/// Records a scenario as an animated GIF (our own encoder, `GIFEncoder`).
public enum GIFRecording {
    /// The GIF of `scenario` played with `options`, and the steps the player skipped.
    public static func record(_ scenario: Scenario, options: ScenarioPlayer.Options = .init())
        throws(ScenarioError) -> (gif: [UInt8], frames: Int, skipped: [String]) {
        let player = ScenarioPlayer(options: options)
        var encoder: GIFEncoder?
        player.onFrame = { device, delay in
            if encoder == nil { encoder = GIFEncoder(width: device.canvas.width, height: device.canvas.height) }
            encoder?.add(device.canvas, delayMs: delay)
        }
        try player.play(scenario)
        let size = options.profile ?? scenario.display
        let done = encoder ?? GIFEncoder(width: size.width, height: size.height)
        return (done.finish(), done.frameCount, player.skipped)
    }
}
