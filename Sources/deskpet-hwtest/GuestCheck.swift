#if canImport(Glibc)
import Glibc
#endif
import PetDevice
import PetLinux

/// The kernel-loop checks, run inside the test VM by tools/kernel-loop/guest-hardware.sh. The
/// gpio-sim bank (label `pet-buttons`) has, in this order: BTN_A BTN_B BTN_C BUZZER LED LED_R LED_G
/// LED_B. A button is pressed by pulling its line down in sysfs and released by pulling it up;
/// outputs are read back from sim_gpioN/value. Every wait polls for what it waits for, with a
/// generous deadline (the VM is emulated, ~15x slower than the host); nothing sleeps a fixed time.
struct GuestCheck {
    static let buttonLines: [(Button, Int, String)] = [(.a, 0, "BTN_A"), (.b, 1, "BTN_B"), (.c, 2, "BTN_C")]
    static let buzzerLine = 3, ledLine = 4, rgbLines = (5, 6, 7)

    let sim: String
    let chip: String
    var failures: [String] = []
    var checks = 0
    let clock = SystemClock()

    init(sim: String, chip: String) { self.sim = sim; self.chip = chip }

    var now: UInt64 { clock.monotonicNs }

    mutating func expect(_ ok: Bool, _ what: @autoclosure () -> String) {
        checks += 1
        if !ok { failures.append(what()); printLine("FAIL \(what())") }
    }

    func report() -> Int32 {
        printLine(failures.isEmpty ? "all \(checks) checks passed" : "\(failures.count) of \(checks) checks failed")
        return failures.isEmpty ? 0 : 1
    }

    // MARK: - gpio-sim

    func setPull(_ offset: Int, up: Bool) throws {
        let path = "\(sim)/sim_gpio\(offset)/pull"
        let fd = open(path, O_WRONLY)
        guard fd >= 0 else { throw UsageError(description: "\(path): \(errnoText())") }
        defer { Glibc.close(fd) }
        let text = Array((up ? "pull-up\n" : "pull-down\n").utf8)
        guard text.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == text.count else {
            throw UsageError(description: "\(path): \(errnoText())")
        }
    }

    /// An open sim_gpioN/value, read again from the start each time.
    final class Level {
        let fd: Int32
        init(_ path: String) throws {
            fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw UsageError(description: "\(path): \(errnoText())") }
        }
        deinit { Glibc.close(fd) }
        var value: Bool {
            var b: UInt8 = 0
            return pread(fd, &b, 1, 0) == 1 && b == UInt8(ascii: "1")
        }
    }

    // MARK: - Buttons

    /// Waits for one edge from `source` (polling its descriptor), up to `limitMs`.
    func nextEdge(_ source: InputSource, limitMs: Int = 5000) throws -> InputEdge? {
        let end = now &+ UInt64(limitMs) * 1_000_000
        guard let fd = source.fileDescriptor else { return nil }
        while now < end {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, Int32(clamping: (end &- now) / 1_000_000 + 1))
            let edges = try source.readEdges()
            if let e = edges.first {
                if edges.count > 1 { printLine("note: \(edges.count) edges at once, kept the first: \(edges)") }
                return e
            }
        }
        return nil
    }

    /// Waits (polling) until the monotonic clock passes `t`.
    func waitUntil(_ t: UInt64) {
        while now < t { var p = pollfd(fd: -1, events: 0, revents: 0); _ = poll(&p, 0, Int32(clamping: (t - now) / 1_000_000 + 1)) }
    }

    /// Presses or releases one button and checks the edge: the right button and direction, stamped
    /// on the monotonic time line between the sysfs write and the read, after the previous edge.
    mutating func flip(_ source: InputSource, _ b: Button, offset: Int, press: Bool, after last: inout UInt64, label: String) throws -> InputEdge? {
        let before = now
        try setPull(offset, up: !press)
        guard let e = try nextEdge(source) else {
            expect(false, "\(label): no edge for \(b.rawValue) \(press ? "down" : "up") within 5 s")
            return nil
        }
        let after = now
        expect(e.button == b && e.pressed == press, "\(label): expected \(b.rawValue) \(press ? "down" : "up"), got \(e)")
        expect(e.ns >= before && e.ns <= after, "\(label): timestamp \(e.ns) outside [\(before), \(after)] (not CLOCK_MONOTONIC?)")
        expect(e.ns > last, "\(label): edges out of order (\(e.ns) after \(last))")
        last = e.ns
        printLine("  \(label) \(b.rawValue) \(press ? "down" : "up"): stamped \(format3(Double(e.ns &- before) / 1e6)) ms after the pull changed, read \(format3(Double(after &- e.ns) / 1e6)) ms later")
        return e
    }

    /// Taps A, B, C (each held 100 ms from its press edge), a long press on B, and the A+C chord;
    /// the gesture recognizer must see tap, tap, tap, long press, chord.
    mutating func buttonScenario(_ source: InputSource, label: String) throws {
        var last: UInt64 = 0
        var gestures: [Gesture] = []
        var rec = GestureRecognizer()
        for (b, offset, _) in Self.buttonLines {
            guard let down = try flip(source, b, offset: offset, press: true, after: &last, label: label) else { return }
            gestures += rec.edge(b, pressed: true, ns: down.ns)
            waitUntil(down.ns &+ 100_000_000)   // hold past the 30 ms debounce
            guard let up = try flip(source, b, offset: offset, press: false, after: &last, label: label) else { return }
            gestures += rec.edge(b, pressed: false, ns: up.ns)
            waitUntil(up.ns &+ 400_000_000)      // past the double-tap window
        }
        expect(gestures == [.tap(.a), .tap(.b), .tap(.c)], "\(label): taps gave \(gestures)")

        // Long press: hold B until the recognizer's own deadline reports it.
        rec = GestureRecognizer()
        guard let down = try flip(source, .b, offset: 1, press: true, after: &last, label: label) else { return }
        gestures = rec.edge(.b, pressed: true, ns: down.ns)
        let limit = now &+ 5_000_000_000
        while !gestures.contains(.longPress(.b)) && now < limit {
            if let d = rec.nextDeadline() { waitUntil(d) }
            gestures += rec.poll(ns: now)
        }
        guard let up = try flip(source, .b, offset: 1, press: false, after: &last, label: label) else { return }
        gestures += rec.edge(.b, pressed: false, ns: up.ns)
        expect(gestures == [.tap(.b), .longPress(.b)], "\(label): long press gave \(gestures)")
        printLine("  \(label) long press held \(format3(Double(up.ns &- down.ns) / 1e6)) ms")

        // Chord: A down, C down while A is held.
        rec = GestureRecognizer()
        guard let a = try flip(source, .a, offset: 0, press: true, after: &last, label: label) else { return }
        gestures = rec.edge(.a, pressed: true, ns: a.ns)
        waitUntil(a.ns &+ 50_000_000)
        guard let c = try flip(source, .c, offset: 2, press: true, after: &last, label: label) else { return }
        gestures += rec.edge(.c, pressed: true, ns: c.ns)
        for (b, o) in [(Button.a, 0), (.c, 2)] {
            waitUntil(last &+ 50_000_000)
            guard let e = try flip(source, b, offset: o, press: false, after: &last, label: label) else { return }
            gestures += rec.edge(b, pressed: false, ns: e.ns)
        }
        expect(gestures == [.tap(.a), .chordAC], "\(label): chord gave \(gestures)")
    }

    mutating func gpioButtons() throws {
        // The boards' default debounce (30 ms), done by the kernel (GPIO_V2_LINE_ATTR_ID_DEBOUNCE):
        // gpio-sim has no debounce of its own, so the kernel's software debounce in gpiolib-cdev runs.
        let source = try GPIOButtons(chip: chip, buttons: [.a: .name("BTN_A"), .b: .name("BTN_B"), .c: .name("BTN_C")], debounceMs: 30)
        printLine("GPIOButtons on chip \(chip) (GPIO uAPI v2, kernel debounce \(source.kernelDebounce ? "on" : "refused: software")):")
        expect(source.kernelDebounce, "the kernel refused the debounce attribute")
        let infos = try GPIOChips.lines(label: chip)
        for name in ["BTN_A", "BTN_B", "BTN_C"] {
            let info = infos.first { $0.name == name }
            expect(info?.debounceUs == 30_000 && info?.consumer == "deskpet" && info?.flags.isSuperset(of: [.used, .input, .activeLow, .edgeRising, .edgeFalling, .biasPullUp]) == true,
                   "\(name) as the kernel reports it: \(info.map { "\($0)" } ?? "missing")")
        }
        try buttonScenario(source, label: "gpio")
        source.close()
        try lostEvents()
        // Found by name on every chip (no label) and by offset on the labelled chip: both open.
        let byName = try GPIOButtons(chip: nil, buttons: [.a: .name("BTN_A")])
        byName.close()
        let byOffset = try GPIOButtons(chip: chip, buttons: [.b: .offset(1)])
        byOffset.close()
        do {
            _ = try GPIOButtons(chip: "no-such-chip", buttons: [.a: .offset(0)])
            expect(false, "a missing chip was opened")
        } catch {
            expect(error.reason.contains("ENOENT") && error.reason.contains("config.txt"), "missing chip error: \(error)")
            printLine("  missing chip: \(error)")
        }
    }

    /// The kernel keeps 16 events per line: 200 flips of A without reading overflow it. The line
    /// sequence numbers show the loss (at the latest with the next press), the level is read again,
    /// and the edges still alternate press and release, ending with the press.
    mutating func lostEvents() throws {
        let source = try GPIOButtons(chip: chip, buttons: [.a: .name("BTN_A")], debounceMs: 0)
        defer { source.close() }
        guard let fd = source.fileDescriptor else { return }
        var edges: [InputEdge] = []
        func drain() throws {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 5000)
            let end = now &+ 5_000_000_000
            while now < end {
                edges += try source.readEdges()
                var q = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&q, 1, 300) == 0 { break }
            }
        }
        for i in 0..<200 { try setPull(0, up: i % 2 == 1) }   // ends pulled up: released
        try drain()
        let afterFlips = edges.count
        try setPull(0, up: false)                                 // press
        try drain()
        try setPull(0, up: true)
        expect(source.missedEvents > 0, "200 flips with nobody reading: no events lost (\(edges.count) edges)")
        expect(edges.last?.pressed == true, "after lost events the press is the last edge: \(edges.map(\.pressed))")
        var alternate = true
        for (x, y) in zip(edges, edges.dropFirst()) where x.pressed == y.pressed { alternate = false }
        expect(alternate, "edges alternate press and release: \(edges.map(\.pressed))")
        printLine("  200 flips unread: \(afterFlips) edges, \(source.missedEvents) events lost by the kernel, \(source.repeatedEdges) repeats dropped; then the press read")
    }

    mutating func evdev(device: String) throws {
        let source = try EvdevButtons(deviceName: device, keys: [30: .a, 48: .b, 46: .c])
        printLine("EvdevButtons on \(source.path) (\(source.deviceName ?? "?"), \(EvdevDecoder.recordSize)-byte events):")
        try buttonScenario(source, label: "evdev")
        source.close()
    }

    // MARK: - Outputs

    /// Samples `levels` until `done()` and all are low, or `limitMs`; returns the segments
    /// (state, ms) between changes of the combined state.
    func sample(_ levels: [Level], limitMs: Int, done: () -> Bool) -> [(state: [Bool], ms: Double)] {
        let start = now
        let end = start &+ UInt64(limitMs) * 1_000_000
        var state = levels.map(\.value)
        var since = start
        var out: [(state: [Bool], ms: Double)] = []
        var samples = 0
        while now < end {
            let s = levels.map(\.value)
            samples += 1
            let t = now
            if s != state {
                out.append((state, Double(t &- since) / 1e6))
                state = s; since = t
            }
            if !s.contains(true) && done() { break }
        }
        out.append((state, Double(now &- since) / 1e6))
        printLine("  \(samples) samples in \(format3(Double(now &- start) / 1e6)) ms")
        return out
    }

    /// True when `measured` is within the tolerance for emulation: at least half of `expected`
    /// less 10 ms, at most twice plus 60 ms.
    static func within(_ measured: Double, of expected: Int) -> Bool {
        measured >= Double(expected) * 0.5 - 10 && measured <= Double(expected) * 2 + 60
    }

    /// Plays each tone on an active buzzer and compares the line's on/off rhythm with the table;
    /// then a passive buzzer's note must toggle the line.
    mutating func buzzer() throws {
        printLine("GPIOBuzzer on \(chip) BUZZER:")
        let level = try Level("\(sim)/sim_gpio\(Self.buzzerLine)/value")
        let buzzer = try GPIOBuzzer(chip: chip, line: .name("BUZZER"), kind: .active)
        for tone in [Tone.nudge, .strongBuzz, .celebration, .softBuzz, .tick] {
            let before = buzzer.finishedCount
            try buzzer.play(tone)
            let segs = sample([level], limitMs: 10_000) { buzzer.finishedCount > before }
            // Leading silence before the first edge is not part of the pattern.
            var got = segs.map { (on: $0.state[0], ms: $0.ms) }
            if got.first?.on == false { got.removeFirst() }
            if got.last?.on == false { got.removeLast() }
            let want = TonePattern.rhythm(tone)
            let text = got.map { "\($0.on ? "on" : "off") \(format3($0.ms))" }.joined(separator: ", ")
            printLine("  \(tone.rawValue): \(text)   (table: \(want.map { "\($0.on ? "on" : "off") \($0.ms)" }.joined(separator: ", ")))")
            expect(got.count == want.count && zip(got, want).allSatisfy { $0.on == $1.on && Self.within($0.ms, of: $1.ms) },
                   "buzzer \(tone.rawValue): rhythm \(text)")
        }
        buzzer.close()

        let passive = try GPIOBuzzer(chip: chip, line: .name("BUZZER"), kind: .passive)
        let before = passive.finishedCount
        try passive.play(steps: [.note(200, 300)])
        let segs = sample([level], limitMs: 10_000) { passive.finishedCount > before }
        let changes = segs.count - 1
        printLine("  passive 200 Hz for 300 ms: \(changes) level changes seen (120 made; sampling misses some)")
        expect(changes >= 10, "passive buzzer: only \(changes) level changes in a 300 ms note at 200 Hz")
        expect(!level.value, "passive buzzer left the line high")
        passive.close()
    }

    /// An RGB LED's celebration must show its colours in order; a single LED's nudge must pulse.
    mutating func led() throws {
        printLine("GPIOIndicator RGB on \(chip) LED_R LED_G LED_B:")
        let (r, g, b) = Self.rgbLines
        let levels = try [r, g, b].map { try Level("\(sim)/sim_gpio\($0)/value") }
        let rgb = try GPIOIndicator(chip: chip, red: .name("LED_R"), green: .name("LED_G"), blue: .name("LED_B"))
        var before = rgb.finishedCount
        try rgb.show(.celebration)
        // The three lines change one after another: ignore states shorter than 20 ms.
        let segs = sample(levels, limitMs: 10_000) { rgb.finishedCount > before }.filter { $0.ms >= 20 }
        var colours: [LightColor] = []
        for s in segs {
            let c = LightColor(red: s.state[0], green: s.state[1], blue: s.state[2])
            if colours.last != c { colours.append(c) }
        }
        if colours.first == .off { colours.removeFirst() }
        if colours.last == .off { colours.removeLast() }
        let want = LightPatternTable.steps(for: .celebration).map(\.color)
        printLine("  celebration: \(colours.map(Self.name).joined(separator: " "))")
        expect(colours == want, "rgb celebration showed \(colours.map(Self.name)) instead of \(want.map(Self.name))")
        expect(levels.allSatisfy { !$0.value }, "rgb LED not dark after the celebration")
        rgb.close()

        printLine("GPIOIndicator on \(chip) LED:")
        let level = try Level("\(sim)/sim_gpio\(Self.ledLine)/value")
        let led = try GPIOIndicator(chip: chip, line: .name("LED"))
        before = led.finishedCount
        try led.show(.nudge)
        var got = sample([level], limitMs: 15_000) { led.finishedCount > before }.map { (on: $0.state[0], ms: $0.ms) }
        if got.first?.on == false { got.removeFirst() }
        if got.last?.on == false { got.removeLast() }
        let rhythm = LightPatternTable.rhythm(.nudge)
        let text = got.map { "\($0.on ? "on" : "off") \(format3($0.ms))" }.joined(separator: ", ")
        printLine("  nudge: \(text)")
        expect(got.count == rhythm.count && zip(got, rhythm).allSatisfy { $0.on == $1.on && Self.within($0.ms, of: $1.ms) }, "led nudge: rhythm \(text)")
        led.close()
    }

    static func name(_ c: LightColor) -> String {
        switch c {
        case .off: "off"; case .red: "red"; case .green: "green"; case .blue: "blue"; case .white: "white"; case .amber: "amber"
        default: "r\(c.red ? 1 : 0)g\(c.green ? 1 : 0)b\(c.blue ? 1 : 0)"
        }
    }
}
