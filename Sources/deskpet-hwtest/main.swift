#if canImport(Glibc)
import Glibc
#endif
import PetDevice
import PetLinux
import PetSim
import PetUI

// deskpet-hwtest: tries a board's buttons, buzzer and LED with the real Linux backends (PetLinux),
// for bringing up hardware. The hidden `guest-*` commands are the kernel-loop checks: they run
// inside the test VM against gpio-sim (tools/kernel-loop/guest-hardware.sh, docs/kernel-loop.md);
// `notify-listen` and `guest-frame` check the daemon there (tools/kernel-loop/guest-daemon.sh).

let usage = """
usage: deskpet-hwtest COMMAND [OPTIONS]

Tries the hardware with DeskPet's own Linux backends. Lines are found by name, or by offset on a
chip found by its label (gpiodetect shows labels: pinctrl-bcm2711 on a Pi 4, pinctrl-rp1 on a Pi 5);
never by chip number.

commands:
  buttons [--chip LABEL] [--debounce-ms N] BUTTON=LINE...   print edges (kernel timestamps) and gestures
                                          until interrupted; debounce by the kernel, default 30 ms as boards
                                          e.g. buttons --chip pinctrl-bcm2711 A=5 B=6 C=GPIO13
  evdev DEVICE KEYCODE=BUTTON...          the same from an evdev node (path, or a name such as gpio-keys)
                                          e.g. evdev gpio-keys 30=A 48=B 46=C
  tone TONE [--chip LABEL] --line LINE [--passive]   play a tone on a GPIO buzzer
  tone TONE --pwm CHIP:CHANNEL                       ... or on a PWM channel (/sys/class/pwm)
  light PATTERN [--chip LABEL] --line LINE | --rgb R,G,B [--active-low]   show an LED pattern
  --help                                  this text

tones: \(Tone.allCases.map(\.rawValue).joined(separator: ", ")); patterns: \(LightPattern.allCases.map(\.rawValue).joined(separator: ", "))
A LINE is a line name (BTN_A, GPIO17) or, with --chip, an offset (17).
"""

struct UsageError: Error, CustomStringConvertible { var description: String }

func lineID(_ s: String, chip: String?) throws -> GPIOLineID {
    if let n = UInt32(s) {
        guard chip != nil else { throw UsageError(description: "line \(s): an offset needs --chip LABEL") }
        return .offset(n)
    }
    return .name(s)
}

/// Takes "--name value" out of `args`.
func option(_ name: String, _ args: inout [String]) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    let v = args[i + 1]
    args.removeSubrange(i...(i + 1))
    return v
}

func flag(_ name: String, _ args: inout [String]) -> Bool {
    guard let i = args.firstIndex(of: name) else { return false }
    args.remove(at: i)
    return true
}

func button(_ s: String) throws -> Button {
    guard let b = Button(rawValue: s.uppercased()) else {
        throw UsageError(description: "unknown button \(s) (one of \(Button.allCases.map(\.rawValue).joined(separator: " ")))")
    }
    return b
}

/// Writes a line to stdout at once (the VM's console interleaves it with the guest script's).
func printLine(_ s: String, fd: Int32 = 1) {
    let bytes = Array((s + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

/// Waits for edges from `source` and prints them with the gestures they make; long presses come
/// from the recognizer's deadlines (poll's timeout), as in the device loop.
func watch(_ source: InputSource) throws {
    guard let fd = source.fileDescriptor else { return }
    var gestures = GestureRecognizer()
    let clock = SystemClock()
    printLine("waiting for buttons (Ctrl-C to stop)")
    while true {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var timeout: Int32 = -1
        if let d = gestures.nextDeadline() {
            let now = clock.monotonicNs
            timeout = d > now ? Int32(clamping: (d - now) / 1_000_000 + 1) : 0
        }
        if poll(&p, 1, timeout) < 0 && errno != EINTR { throw UsageError(description: "poll: \(errnoText())") }
        for e in try source.readEdges() {
            let lag = Double(clock.monotonicNs &- e.ns) / 1e6
            printLine("edge \(e.button.rawValue) \(e.pressed ? "down" : "up") at \(Double(e.ns) / 1e9) s (read \(String(format3(lag))) ms later)")
            for g in gestures.edge(e.button, pressed: e.pressed, ns: e.ns) { printLine("gesture \(g)") }
        }
        for g in gestures.poll(ns: clock.monotonicNs) { printLine("gesture \(g)") }
    }
}

func format3(_ v: Double) -> String {
    let scaled = (v * 1000).rounded()
    let whole = Int(scaled / 1000), frac = abs(Int(scaled) % 1000)
    let f = String(frac)
    return "\(v < 0 && whole == 0 ? "-" : "")\(whole).\(String(repeating: "0", count: 3 - f.count))\(f)"
}

/// Waits until the player says the pattern ended (a deadline of `limitMs` in case it never does).
func waitFinished(_ count: () -> UInt64, after before: UInt64, limitMs: Int) {
    let clock = SystemClock()
    let end = clock.monotonicNs &+ UInt64(limitMs) * 1_000_000
    while count() == before && clock.monotonicNs < end {
        var ts = timespec(tv_sec: 0, tv_nsec: 5_000_000)
        nanosleep(&ts, nil)
    }
}

func main() -> Int32 {
    var args = Array(CommandLine.arguments.dropFirst())
    guard let command = args.first, command != "--help", command != "-h" else {
        printLine(usage)
        return args.isEmpty ? 2 : 0
    }
    args.removeFirst()
    do {
        switch command {
        case "buttons":
            let chip = option("--chip", &args)
            let debounceText = option("--debounce-ms", &args) ?? "30"
            guard let debounce = Int(debounceText), (0...1000).contains(debounce) else {
                throw UsageError(description: "--debounce-ms: expected 0-1000, got \(debounceText)")
            }
            var map: [Button: GPIOLineID] = [:]
            for a in args {
                let parts = a.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { throw UsageError(description: "expected BUTTON=LINE, got \(a)") }
                map[try button(parts[0])] = try lineID(parts[1], chip: chip)
            }
            let source = try GPIOButtons(chip: chip, buttons: map, debounceMs: debounce)
            printLine(debounce == 0 ? "no debounce" : source.kernelDebounce ? "the kernel debounces (\(debounce) ms)"
                      : "the kernel refused debounce: the gesture recognizer's \(debounce) ms alone")
            try watch(source)
        case "evdev":
            guard !args.isEmpty else { throw UsageError(description: "evdev needs a device") }
            let device = args.removeFirst()
            var keys: [UInt16: Button] = [:]
            for a in args {
                let parts = a.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let code = UInt16(parts[0]) else { throw UsageError(description: "expected KEYCODE=BUTTON, got \(a)") }
                keys[code] = try button(parts[1])
            }
            let source = device.hasPrefix("/") ? try EvdevButtons(path: device, keys: keys) : try EvdevButtons(deviceName: device, keys: keys)
            try watch(source)
        case "tone":
            guard let name = args.first, let tone = Tone(rawValue: name) else { throw UsageError(description: "tone needs one of \(Tone.allCases.map(\.rawValue).joined(separator: ", "))") }
            args.removeFirst()
            if let pwm = option("--pwm", &args) {
                let parts = pwm.split(separator: ":").map(String.init)
                guard parts.count == 2, let ch = Int(parts[1]) else { throw UsageError(description: "--pwm CHIP:CHANNEL, e.g. pwmchip0:0") }
                let b = try PWMBuzzer(chip: parts[0], channel: ch)
                let before = b.finishedCount
                try b.play(tone)
                waitFinished({ b.finishedCount }, after: before, limitMs: 5000)
                b.close()
            } else {
                let chip = option("--chip", &args)
                guard let line = option("--line", &args) else { throw UsageError(description: "tone needs --line LINE or --pwm CHIP:CHANNEL") }
                let b = try GPIOBuzzer(chip: chip, line: try lineID(line, chip: chip), kind: flag("--passive", &args) ? .passive : .active)
                let before = b.finishedCount
                try b.play(tone)
                waitFinished({ b.finishedCount }, after: before, limitMs: 5000)
                b.close()
            }
            printLine("played \(tone.rawValue) (\(TonePattern.durationMs(tone)) ms)")
        case "light":
            guard let name = args.first, let pattern = LightPattern(rawValue: name) else { throw UsageError(description: "light needs one of \(LightPattern.allCases.map(\.rawValue).joined(separator: ", "))") }
            args.removeFirst()
            let chip = option("--chip", &args)
            let activeLow = flag("--active-low", &args)
            let led: GPIOIndicator
            if let rgb = option("--rgb", &args) {
                let l = try rgb.split(separator: ",").map { try lineID(String($0), chip: chip) }
                guard l.count == 3 else { throw UsageError(description: "--rgb R,G,B") }
                led = try GPIOIndicator(chip: chip, red: l[0], green: l[1], blue: l[2], activeLow: activeLow)
            } else if let line = option("--line", &args) {
                led = try GPIOIndicator(chip: chip, line: try lineID(line, chip: chip), activeLow: activeLow)
            } else {
                throw UsageError(description: "light needs --line LINE or --rgb R,G,B")
            }
            let before = led.finishedCount
            try led.show(pattern)
            waitFinished({ led.finishedCount }, after: before, limitMs: 10_000)
            led.close()
            printLine("showed \(pattern.rawValue) (\(LightPatternTable.durationMs(pattern)) ms)")
        case "notify-listen":
            guard let path = args.first else { throw UsageError(description: "notify-listen PATH") }
            try notifyListen(path)
        case "seed-journal":
            try seedJournal(args)
        case "guest-frame":
            return try guestFrame(&args)
        case "guest-ble-peripheral":
            return try blePeripheral(&args)
        case "guest-ble-phone":
            return try blePhone(&args)
        case "guest-ble-service":
            return try bleServicePeripheral(&args)
        case "guest-gpio", "guest-evdev", "guest-buzzer", "guest-led":
            guard let sim = option("--sim", &args) else { throw UsageError(description: "\(command) needs --sim DIR (the gpio-sim bank's sysfs directory)") }
            let chip = option("--chip", &args) ?? "pet-buttons"
            var check = GuestCheck(sim: sim, chip: chip)
            switch command {
            case "guest-gpio": try check.gpioButtons()
            case "guest-evdev": try check.evdev(device: option("--device", &args) ?? "gpio-keys")
            case "guest-buzzer": try check.buzzer()
            default: try check.led()
            }
            return check.report()
        default:
            throw UsageError(description: "unknown command \(command) (see --help)")
        }
    } catch {
        printLine("deskpet-hwtest: \(error)", fd: 2)
        return error is UsageError ? 2 : 1
    }
    return 0
}

exit(main())
