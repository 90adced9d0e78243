import PetCore
import PetDevice
import PetLink
import PetStore
import PetUI
import PetLinux

/// Runs scenarios against a simulated device, printing what happens.
public final class ScenarioRunner {
    public struct Options: Sendable {
        /// Snapshots and the journal go to `<outDir>/<scenario name>/`.
        public var outDir = "out"
        /// Print every step, not just what happens.
        public var verbose = false
        /// Print nothing but failures.
        public var quiet = false
        /// Keep the journal on disk (default) or in memory (faster, no `restart`/`off`).
        public var inMemory = false
        /// Serve the phone link there (`tcp:127.0.0.1:PORT`, `unix:PATH`; docs/protocol.md):
        /// phones are answered at every step, and the `serve` step lets real time pass serving.
        public var link: String?
        /// Allow a TCP link address other machines can reach.
        public var linkRemote = false
        public init() {}
    }

    public struct Summary: Sendable {
        public var steps = 0
        public var expectations = 0
        public var snapshots: [String] = []
        public var events = 0
        public var database: String?
        /// The pet at the end of the run (what the transcript's last line reports).
        public var coins = 0
        public var xp = 0
        public var level = 1
        public var streak = 0
    }

    let options: Options
    let print: (String) -> Void

    public init(options: Options = Options(), print: @escaping (String) -> Void) {
        self.options = options
        self.print = print
    }

    /// Runs every step; the first failed expectation (or refused command) stops the run with an
    /// error that names the file and line.
    public func run(_ scenario: Scenario) throws(ScenarioError) -> Summary {
        var summary = Summary()
        // One safe component under --out (never "..", "/" or empty), a private folder (0700).
        let dir = "\(options.outDir)/\(safePathComponent(scenario.name, fallback: "scenario"))"
        do { try makePrivateDirectory(dir) } catch { throw .file(error) }
        let db = options.inMemory ? nil : "\(dir)/deskpet.db"
        if let db {
            // A journal another process is writing (a simulator serving it, a daemon) is left alone:
            // refused before anything is removed (docs/reliability.md, one writer per journal).
            do { try EventStore.checkNoOtherWriter(path: db) } catch { throw .io(path: db, message: "\(error)") }
            for suffix in ["", "-wal", "-shm"] { removeFile(db + suffix) }
        }
        summary.database = db

        var steps = scenario.steps[...]
        var start = (local: LocalDateTime(date: CivilDate(year: 2026, month: 1, day: 5), secondOfDay: 9 * 3600),
                     zone: "UTC", dayStart: 3)
        if let first = steps.first, case let .start(local, zone, dayStart) = first.step {
            start = (local, zone, dayStart)
            steps = steps.dropFirst()
        }
        let zones = ZoneDatabase()
        guard let rules = zones.rules(for: start.zone) else {
            throw .failed(file: scenario.file, line: scenario.steps.first?.line ?? 1, step: "start",
                          message: "unknown time zone '\(start.zone)'")
        }
        let startInstant = Instant(rules.utc(for: start.local))
        guard TimeRange.contains(startInstant) else {
            throw .failed(file: scenario.file, line: scenario.steps.first?.line ?? 1, step: "start",
                          message: "start: \(start.local) \(start.zone) is outside the valid range \(TimeRange.text)")
        }
        let device: SimDevice
        var transport: SocketLink?
        do {
            if let address = options.link {
                transport = try SocketLink(parsing: address, allowRemote: options.linkRemote)
            }
        } catch {
            throw .failed(file: scenario.file, line: 1, step: "start", message: "--link: \(error)")
        }
        defer { transport?.close() }
        let service = LinkService()
        do {
            device = try SimDevice(dbPath: db, start: startInstant, zone: start.zone, dayStart: start.dayStart,
                                   profile: scenario.display, layout: scenario.buttons,
                                   debounceMs: scenario.debounceMs, boot: false,
                                   link: transport, linkService: transport == nil ? nil : service)
        } catch {
            throw .failed(file: scenario.file, line: 1, step: "start", message: error.description)
        }
        if let transport, !options.quiet {
            let shown = if case .tcp(let host, _) = transport.address { "tcp:\(host):\(transport.port)" } else { transport.address.description }
            print("  📱 phone link listening on \(shown)")
            if options.verbose { service.log = { [print] in print("  " + $0) } }
        }
        // Close the journal when the run ends, passed or failed, so other tools can read it at once.
        defer { device.app.store.close() }
        if !options.quiet {
            let board = if let b = scenario.board {
                " on board \(b.name) (\(scenario.display.id), buttons=\(scenario.buttons.rawValue))"
            } else if scenario.display == .square240 && scenario.buttons == .threeButtons {
                ""
            } else {
                " on \(scenario.display.id), buttons=\(scenario.buttons.rawValue)"
            }
            print("▶ \(scenario.name): pet '\(device.app.state.pet.name)' starts \(start.local) \(start.zone)\(board)")
            device.onEvents = { [print] events, state in
                for e in events { if let line = Narrator.describe(e, state: state) { print(line) } }
            }
        }

        for located in steps {
            summary.steps += 1
            if options.verbose { print("  \(scenario.file):\(located.line): \(located.text)") }
            func fail(_ message: String) -> ScenarioError {
                .failed(file: scenario.file, line: located.line, step: located.text, message: message)
            }
            do {
                try perform(located.step, device: device, scenario: scenario, line: located.line, dir: dir,
                            summary: &summary, fail: fail)
            } catch let e as ScenarioError {
                throw e
            } catch let e as AppError {
                throw fail(e.description)
            } catch {
                throw fail("\(error)")
            }
        }
        summary.events = (try? device.app.store.eventCount()) ?? 0
        let final = device.app.state
        summary.coins = final.coins
        summary.xp = final.xp
        summary.level = final.level
        summary.streak = final.streak
        if !options.quiet {
            let s = device.app.state
            print("✔ \(scenario.name): \(summary.steps) steps, \(summary.expectations) expectations passed; "
                  + "coins \(s.coins), level \(s.level), streak \(s.streak), \(summary.events) events stored")
        }
        return summary
    }

    /// Serves the phone link for `ms` of real time while the virtual clock runs at real speed
    /// (deadlines on the way happen at their instants). The pairing code the screen shows is
    /// printed when it changes, as an owner would read it off the display.
    private func serve(_ device: SimDevice, ms: Int64) throws(AppError) {
        let clock = SystemClock()
        let end = clock.monotonicNs &+ UInt64(max(0, ms)) &* 1_000_000
        var shownCode: String?
        var last = clock.monotonicNs
        while clock.monotonicNs < end {
            let left = Int32(clamping: (end - clock.monotonicNs) / 1_000_000)
            try device.serveLink(waitingUpToMs: min(50, max(1, left)))
            let elapsedMs = (clock.monotonicNs &- last) / 1_000_000
            try device.wait(ms: Int64(elapsedMs))
            last &+= elapsedMs &* 1_000_000
            if device.ui.pairingCode != shownCode {
                shownCode = device.ui.pairingCode
                if let code = shownCode, !options.quiet { print("  📱 pairing code on the screen: \(code)") }
            }
        }
    }

    private func perform(_ step: Scenario.Step, device: SimDevice, scenario: Scenario, line: Int, dir: String,
                         summary: inout Summary, fail: (String) -> ScenarioError) throws {
        switch step {
        case .start:
            throw fail("'start' must be the first step")
        case .time(let local):
            let t = device.app.state.clock.instant(local)
            guard TimeRange.contains(t) else { throw fail("time: \(local) is outside the valid range \(TimeRange.text)") }
            if t >= device.now { try device.run(until: t) } else { try device.setClock(t) }
        case .advance(let s):
            guard TimeRange.contains(device.now + s) else {
                throw fail("advance: \(s) s from \(device.now) ends outside the valid range \(TimeRange.text)")
            }
            try device.run(until: device.now + s)
        case .off(let s):
            guard !options.inMemory else { throw fail("'off' needs the journal on disk") }
            guard TimeRange.contains(device.now + s) else {
                throw fail("off: \(s) s from \(device.now) ends outside the valid range \(TimeRange.text)")
            }
            if !options.quiet { print("  … device off for \(s / 3600) h") }
            try device.powerOff(for: s)
        case .press(let b): try device.press(b)
        case .hold(let b): try device.hold(b)
        case .double(let b): try device.doubleTap(b)
        case .chord: try device.chord()
        case .chordHold: try device.chordHold()
        case .export(let name):
            let path = "\(dir)/\(safePathComponent(name, fallback: "export.json"))"
            let doc = try Export.document(device.app, now: device.now)
            do { try writeFile(path, doc, mode: 0o600) } catch { throw ScenarioError.file(error) }
            if !options.quiet { print("  📤 \(path)") }
        case let .send(id, name, fields):
            let cmd = try command(id: id, name: name, fields: fields, device: device, line: line, fail: fail)
            do { try device.send(cmd) } catch {
                throw fail("command refused: \(error.code): \(error.description)")
            }
        case let .reject(code, id, name, fields):
            try device.run(until: device.now)
            let before = device.app.state
            let storedBefore = try device.app.store.eventCount()
            do {
                let cmd = try command(id: id, name: name, fields: fields, device: device, line: line, fail: fail)
                try device.send(cmd)
                throw fail("expected the command to be refused with \(code), but it was accepted")
            } catch let e as AppError {
                guard e.code == code else { throw fail("expected error \(code), got \(e.code): \(e.description)") }
                if options.verbose { print("    refused as expected: \(e.description)") }
            } catch let e as DomainError {
                guard e.code == code else { throw fail("expected error \(code), got \(e.code): \(e.description)") }
                if options.verbose { print("    refused as expected: \(e.description)") }
            }
            guard device.app.state == before else { throw fail("a refused command changed the state") }
            guard try device.app.store.eventCount() == storedBefore else { throw fail("a refused command wrote to the journal") }
            summary.expectations += 1
        case let .expect(givenPath, op, givenExpected):
            let (path, expected) = givenPath.hasPrefix("ui.") ? SimDevice.uiAlias(givenPath, expected: givenExpected)
                : (givenPath, givenExpected)
            guard let actual = path.hasPrefix("ui.") ? device.uiValue(path) : Inspector.value(path, device: device) else {
                throw fail("unknown value '\(path)' (see docs/scenarios.md for the list)")
            }
            guard Inspector.compare(actual, op, expected) else {
                throw fail("expected \(path) \(op.rawValue) \(expected), but it is \(actual)")
            }
            summary.expectations += 1
        case let .expectScreen(text, shown):
            device.render()
            if device.canvas.showsText(text) != shown {
                let visible = device.canvas.textRuns.map { "\"\($0.text)\"" }.joined(separator: ", ")
                throw fail("the screen \(shown ? "does not show" : "shows") \"\(text)\"; it shows: \(visible)")
            }
            summary.expectations += 1
        case .snapshot(let name):
            let path = "\(dir)/\(safePathComponent(name, fallback: "snapshot.png"))"
            do { try writeFile(path, device.png()) } catch { throw ScenarioError.file(error) }
            summary.snapshots.append(path)
            if !options.quiet { print("  📷 \(path)") }
        case .restart:
            guard !options.inMemory else { throw fail("'restart' needs the journal on disk") }
            let live = device.app.state
            try device.reopen()
            try device.run(until: device.now)
            guard device.app.state == live else {
                throw fail("the state rebuilt from the journal differs from the live state")
            }
            if !options.quiet { print("  ↻ restarted: state rebuilt from \(try device.app.store.eventCount()) events, identical") }
            summary.expectations += 1
        case .echo(let text):
            if !options.quiet { print("  " + text) }
        case .serve(let seconds):
            guard device.loop.hardware.link != nil else { throw fail("'serve' needs a phone link (deskpet-sim run --link ADDR)") }
            try serve(device, ms: seconds.saturatingMultiplied(by: 1000))
        case .deviceLink(let on):
            device.linkStandIn.phoneConnected = on ? true : nil
        case .deviceBattery(let pct):
            device.loop.batteryPercent = pct
        case .deviceFirstRun(let on):
            device.loop.firstRun = on
        }
    }

    private func command(id: String?, name: String, fields: [String: String], device: SimDevice, line: Int,
                         fail: (String) -> ScenarioError) throws -> Command {
        try device.run(until: device.now)
        if let action = try ContentCommands.action(name: name, fields: fields) {
            return Command(id: id ?? "line-\(line)-\(device.now.seconds)", at: device.now, action: action)
        }
        do {
            return try CommandParser.parse(name: name, fields: fields, id: id ?? "line-\(line)-\(device.now.seconds)",
                                           at: device.now, clock: device.app.state.clock,
                                           current: device.app.state.device)
        } catch {
            throw AppError.domain(error)
        }
    }
}
