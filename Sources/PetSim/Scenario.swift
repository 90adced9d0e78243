import PetCore
import PetDevice
import PetUI

/// A parsed scenario file (docs/scenarios.md): one step per line.
public struct Scenario: Sendable {
    public var name: String
    public var file: String
    public var steps: [Located]
    /// The display and the input layout of the simulated board (`start … board=NAME`, or
    /// `start … display=320x240 buttons=joystick`); defaults 240x240 and three buttons.
    public var display: DisplayProfile = .square240
    public var buttons: InputLayout = .threeButtons
    /// The board file the scenario names (`start … board=`), if any; `display` and `buttons`
    /// are then its profile and layout.
    public var board: Board?
    /// The board's debounce time in ms (30 without a board file).
    public var debounceMs = 30

    public struct Located: Sendable {
        public var line: Int
        public var text: String
        public var step: Step
    }

    public enum Step: Sendable, Equatable {
        /// Starts a new pet at a local time in a zone (must come before anything else).
        case start(local: LocalDateTime, zone: String, dayStart: Int)
        /// Runs the device until a local time (forwards), or sets its clock back (backwards).
        case time(LocalDateTime)
        /// Runs the device for a while: every reminder and day boundary on the way happens on time.
        case advance(Int64)
        /// The device is off for a while, then boots and catches up.
        case off(Int64)
        case press(Button)
        case hold(Button)
        case double(Button)
        case chord
        /// A and C held together for 3.2 s: the factory-reset confirmation.
        case chordHold
        /// Writes the owner's export document (JSON) to the output folder.
        case export(String)
        /// A command as the phone would send it.
        case send(id: String?, name: String, fields: [String: String])
        /// A command that must be refused with this error code, changing nothing.
        case reject(code: String, id: String?, name: String, fields: [String: String])
        case expect(path: String, op: Op, value: String)
        case expectScreen(text: String, shown: Bool)
        case snapshot(String)
        /// Closes the app and reopens it from the database; the rebuilt state must equal the live one.
        case restart
        case echo(String)
        /// Serve the phone link for this many seconds of real time (the virtual clock runs at
        /// real speed meanwhile); needs `deskpet-sim run --link`.
        case serve(Int64)
        /// What the board reports beside the state, for the status strip: a phone connected
        /// (`device link on|off`) and the battery's charge (`device battery 0…100|none`).
        case deviceLink(Bool)
        case deviceBattery(Int?)
        /// The board shows the first run after a boot until it is done (`device first-run on|off`),
        /// as the daemon does.
        case deviceFirstRun(Bool)
    }

    public enum Op: String, Sendable, CaseIterable {
        case eq = "==", ne = "!=", le = "<=", ge = ">=", lt = "<", gt = ">", contains = "contains"
    }
}

/// What went wrong, with file and line.
public enum ScenarioError: Error, CustomStringConvertible, Equatable {
    case syntax(file: String, line: Int, message: String)
    case failed(file: String, line: Int, step: String, message: String)
    case io(path: String, message: String)

    /// A file that could not be read or written.
    public static func file(_ e: FileError) -> ScenarioError { .io(path: e.path, message: e.message) }
    /// A board file that is wrong (its own error names its file, line and key).
    case board(BoardError)

    public var description: String {
        switch self {
        case let .board(e): return e.description
        case let .syntax(file, line, message): return "\(file):\(line): syntax error: \(message)"
        case let .failed(file, line, step, message): return "\(file):\(line): \(step)\n  \(message)"
        case let .io(path, message): return "\(path): \(message)"
        }
    }
}

public enum ScenarioParser {
    /// Parses scenario text. Errors name the file, the line and the problem.
    public static func parse(_ text: String, file: String, name: String? = nil) throws(ScenarioError) -> Scenario {
        var steps: [Scenario.Located] = []
        var board = StartBoard()
        var lineNo = 0
        for raw in lines(of: text) {
            lineNo += 1
            let line = raw.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            let words: [String]
            do { words = try tokenize(line) } catch let e { throw .syntax(file: file, line: lineNo, message: e.message) }
            guard let head = words.first else { continue }
            for w in words {
                guard let bad = w.unicodeScalars.first(where: isForbiddenControl) else { continue }
                let key = w.firstIndex(of: "=").map { "field '\(w[..<$0])'" } ?? "'\(head)'"
                throw .syntax(file: file, line: lineNo,
                              message: "\(key) holds the control character U+\(hex4(bad.value)) (not allowed)")
            }
            let step: Scenario.Step
            do throws(Problem) {
                var args = Array(words.dropFirst())
                if head == "start" { board = try parseBoard(&args, file: file) }
                step = try parseStep(head, args)
                try check(step, on: board.buttons)
            } catch let e {
                throw .syntax(file: file, line: lineNo, message: e.message)
            }
            if case .start = step, !steps.isEmpty {
                throw .syntax(file: file, line: lineNo, message: "'start' must be the first step")
            }
            steps.append(.init(line: lineNo, text: line, step: step))
        }
        guard !steps.isEmpty else {
            throw .syntax(file: file, line: max(1, lineNo), message: "the file has no steps (only blank lines and comments)")
        }
        let base = name ?? String(file.split(separator: "/").last ?? Substring(file))
        let stem = base.hasSuffix(".scenario") ? String(base.dropLast(9)) : base
        // The name becomes a folder under --out: one safe component, never "..", "/" or empty.
        return Scenario(name: safePathComponent(stem, fallback: "scenario"), file: file, steps: steps,
                        display: board.display, buttons: board.buttons, board: board.file,
                        debounceMs: board.file?.debounceMs ?? 30)
    }

    /// The lines of a scenario file: LF, CRLF and lone CR all end a line, and a UTF-8 byte-order
    /// mark at the start is skipped. (Swift reads "\r\n" as one character, so splitting on "\n"
    /// alone would see a CRLF file as one line.)
    static func lines(of text: String) -> [String] {
        var body = Substring(text)
        if body.unicodeScalars.first == "\u{FEFF}" { body = Substring(body.unicodeScalars.dropFirst()) }
        var out: [String] = []
        var current = ""
        var lastWasCR = false
        for u in body.unicodeScalars {
            if u == "\n" {
                if lastWasCR { lastWasCR = false; continue }
                out.append(current); current = ""
            } else if u == "\r" {
                out.append(current); current = ""; lastWasCR = true; continue
            } else {
                current.unicodeScalars.append(u)
            }
            lastWasCR = false
        }
        out.append(current)
        return out
    }

    /// Control characters a scenario line may not hold (tab is a separator; line ends are gone).
    static func isForbiddenControl(_ u: Unicode.Scalar) -> Bool {
        (u.value < 0x20 && u != "\t") || u.value == 0x7F || (0x80..<0xA0).contains(u.value)
            || u == "\u{2028}" || u == "\u{2029}"
    }

    static func hex4(_ v: UInt32) -> String {
        let h = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }

    /// The board a `start` line names: a board file, or a display and a layout.
    struct StartBoard {
        var display = DisplayProfile.square240
        var buttons = InputLayout.threeButtons
        var file: Board?
    }

    /// A key step must press keys the board has.
    static func check(_ step: Scenario.Step, on layout: InputLayout) throws(Problem) {
        if let b = step.button, !layout.buttons.contains(b) {
            throw Problem(message: "unknown button '\(b.rawValue)' on this board (buttons=\(layout.rawValue): "
                          + "\(layout.buttons.map(\.rawValue).joined(separator: ", ")))")
        }
        if step.isChord, !layout.hasChord {
            throw Problem(message: "a joystick has no A+C chord (factory reset is a settings row)")
        }
    }

    /// Takes `board=NAME|PATH`, or `display=WxH` and `buttons=3|4|joystick`, out of a `start`
    /// line. A board path is relative to the scenario file.
    static func parseBoard(_ args: inout [String], file: String) throws(Problem) -> StartBoard {
        var board = StartBoard()
        var rest: [String] = []
        var boardRef: String?
        var sawDisplayOrButtons = false
        for a in args {
            if a.hasPrefix("board=") {
                guard boardRef == nil else { throw Problem(message: "board= given twice") }
                boardRef = String(a.dropFirst(6))
            } else if a.hasPrefix("display=") || a.hasPrefix("buttons=") {
                let key = a.hasPrefix("display=") ? "display=" : "buttons="
                guard !rest.contains(where: { $0.hasPrefix(key) }) else { throw Problem(message: "\(key) given twice") }
                sawDisplayOrButtons = true
                rest.append(a)
            } else {
                rest.append(a)
            }
        }
        if let ref = boardRef {
            guard !sawDisplayOrButtons else {
                throw Problem(message: "board= names the display and the keys: leave out display= and buttons= (or board=)")
            }
            guard !ref.isEmpty else { throw Problem(message: "board= needs a board name or a path to a .board file") }
            do throws(ScenarioError) {
                let b = try SimBoards.load(ref, relativeTo: file)
                board.file = b
                board.display = b.profile
                board.buttons = b.layout
            } catch {
                throw Problem(message: "board=\(ref): \(error.description)")
            }
            args = rest
            return board
        }
        args = rest
        rest = []
        var display = board.display, buttons = board.buttons
        for a in args {
            if a.hasPrefix("display=") {
                let v = String(a.dropFirst(8))
                guard let p = DisplayProfile.named(v) else {
                    throw Problem(message: "unknown display '\(v)' (\(DisplayProfile.all.map(\.id).joined(separator: ", ")))")
                }
                display = p
            } else if a.hasPrefix("buttons=") {
                let v = String(a.dropFirst(8))
                guard let l = InputLayout.named(v) else { throw Problem(message: "unknown buttons '\(v)' (3, 4 or joystick)") }
                buttons = l
            } else {
                rest.append(a)
            }
        }
        args = rest
        board.display = display
        board.buttons = buttons
        return board
    }

    struct Problem: Error { var message: String }

    static func parseStep(_ head: String, _ args: [String]) throws(Problem) -> Scenario.Step {
        func one(_ what: String) throws(Problem) -> String {
            guard args.count == 1 else { throw Problem(message: "'\(head)' takes one \(what)") }
            return args[0]
        }
        func duration() throws(Problem) -> Int64 {
            let v = try one("duration like 2h30m or 3d")
            guard let s = TimeText.duration(v), s > 0 else {
                throw Problem(message: "'\(v)' is not a duration (use e.g. 90s, 45m, 2h30m, 3d)")
            }
            guard s <= TimeRange.longestDuration else {
                throw Problem(message: "'\(v)' is longer than the longest valid duration (\(TimeRange.longestDuration) s: \(TimeRange.text))")
            }
            return s
        }
        func button(_ v: String) throws(Problem) -> Button {
            let u = v.uppercased()
            guard let b = Button(rawValue: u == "CENTER" ? "CENTRE" : u) else {
                throw Problem(message: "unknown button '\(v)' (A, B, C, D, or the joystick's up, down, left, right, centre)")
            }
            return b
        }
        func localTime(_ parts: ArraySlice<String>) throws(Problem) -> LocalDateTime {
            let joined = parts.joined(separator: " ")
            guard let t = LocalDateTime(parsing: joined) else {
                throw Problem(message: "'\(joined)' is not a local time (use YYYY-MM-DD HH:MM)")
            }
            // Local times are read in the pet's zone later; a year outside 1900–9999 can never be
            // inside the valid range (the zone's offset is checked when the step runs).
            guard (1900...9999).contains(t.date.year) else {
                throw Problem(message: "'\(joined)' is outside the valid range \(TimeRange.text)")
            }
            return t
        }
        switch head {
        case "start":
            var positional = ArraySlice<String>()
            var zone = "UTC", dayStart = 3
            var seen: Set<String> = []
            for a in args {
                if let eq = a.firstIndex(of: "="), !seen.insert(String(a[...eq])).inserted {
                    throw Problem(message: "'\(a[...eq])' given twice")
                }
                if a.hasPrefix("zone=") { zone = String(a.dropFirst(5)) }
                else if a.hasPrefix("day-start=") {
                    guard let h = Int(a.dropFirst(10)), (0...23).contains(h) else { throw Problem(message: "day-start must be 0–23") }
                    dayStart = h
                } else { positional.append(a) }
            }
            guard ZoneDatabase.isValidIdentifier(zone) else { throw Problem(message: "'\(zone)' is not a zone identifier") }
            return .start(local: try localTime(positional), zone: zone, dayStart: dayStart)
        case "time": return .time(try localTime(args[...]))
        case "advance": return .advance(try duration())
        case "off": return .off(try duration())
        case "press": return .press(try button(try one("button")))
        case "hold":
            let b = try one("button")
            if b.uppercased() == "A+C" { return .chordHold }
            return .hold(try button(b))
        case "double": return .double(try button(try one("button")))
        case "joystick":
            // joystick up | joystick hold centre | joystick double left
            switch args.count {
            case 1: return .press(try button(args[0]))
            case 2 where args[0] == "hold": return .hold(try button(args[1]))
            case 2 where args[0] == "double": return .double(try button(args[1]))
            default: throw Problem(message: "use: joystick up|down|left|right|centre (or joystick hold|double KEY)")
            }
        case "chord":
            guard args == ["A+C"] || args.isEmpty else { throw Problem(message: "only the A+C chord exists") }
            return .chord
        case "send", "reject":
            var rest = args[...]
            var code = ""
            if head == "reject" {
                guard let c = rest.popFirst() else { throw Problem(message: "reject needs an error code and a command") }
                code = c
            }
            var id: String?
            var fields: [String: String] = [:]
            guard let name = rest.popFirst() else { throw Problem(message: "\(head) needs a command name") }
            for a in rest {
                guard let eq = a.firstIndex(of: "="), eq != a.startIndex else {
                    throw Problem(message: "'\(a)' is not key=value")
                }
                let key = String(a[..<eq]), value = String(a[a.index(after: eq)...])
                if key == "id" {
                    guard id == nil else { throw Problem(message: "'id=' given twice") }
                    id = value; continue
                }
                guard fields[key] == nil else { throw Problem(message: "field '\(key)' given twice") }
                fields[key] = value
            }
            return head == "send" ? .send(id: id, name: name, fields: fields)
                                  : .reject(code: code, id: id, name: name, fields: fields)
        case "expect":
            if args.first == "screen" || args.first == "no-screen" {
                guard args.count == 2 else { throw Problem(message: "use: expect screen \"text\"") }
                return .expectScreen(text: args[1], shown: args[0] == "screen")
            }
            guard args.count == 3 else { throw Problem(message: "use: expect <value> <op> <expected> (ops: == != < <= > >= contains)") }
            guard let op = Scenario.Op(rawValue: args[1]) else { throw Problem(message: "unknown operator '\(args[1])'") }
            return .expect(path: args[0], op: op, value: args[2])
        case "snapshot":
            let n = try one("file name")
            guard n.hasSuffix(".png"), n.count > 4, safePathComponent(n) == n else {
                throw Problem(message: "snapshot names a .png file in the output folder (a plain name: no '/', no control characters, not starting with '.' or '-')")
            }
            return .snapshot(n)
        case "export":
            let n = try one("file name")
            guard n.hasSuffix(".json"), n.count > 5, safePathComponent(n) == n else {
                throw Problem(message: "export names a .json file in the output folder (a plain name: no '/', no control characters, not starting with '.' or '-')")
            }
            return .export(n)
        case "restart":
            guard args.isEmpty else { throw Problem(message: "restart takes no arguments") }
            return .restart
        case "echo": return .echo(args.joined(separator: " "))
        case "serve": return .serve(try duration())
        case "device":
            guard args.count == 2 else {
                throw Problem(message: "device takes two words: 'device link on|off', 'device battery 0-100|none' or 'device first-run on|off'")
            }
            switch (args[0], args[1]) {
            case ("link", "on"): return .deviceLink(true)
            case ("link", "off"): return .deviceLink(false)
            case ("battery", "none"): return .deviceBattery(nil)
            case ("first-run", "on"): return .deviceFirstRun(true)
            case ("first-run", "off"): return .deviceFirstRun(false)
            case ("battery", let v):
                guard let n = Int(v), (0...100).contains(n) else { throw Problem(message: "device battery takes 0-100 or none (got '\(v)')") }
                return .deviceBattery(n)
            default: throw Problem(message: "device takes 'link on|off', 'battery 0-100|none' or 'first-run on|off' (got '\(args.joined(separator: " "))')")
            }
        default:
            throw Problem(message: "unknown step '\(head)' (start, time, advance, off, press, hold, double, joystick, chord, send, reject, expect, snapshot, export, restart, echo, serve, device)")
        }
    }

    /// Splits on spaces; "double quotes" group words (with \" and \\ escapes), also after key=.
    static func tokenize(_ line: String) throws(Problem) -> [String] {
        var out: [String] = []
        var cur = ""
        var inQuote = false, escape = false, hasToken = false
        for ch in line {
            if escape { cur.append(ch); escape = false; continue }
            if inQuote {
                if ch == "\\" { escape = true } else if ch == "\"" { inQuote = false } else { cur.append(ch) }
                continue
            }
            if ch == "\"" { inQuote = true; hasToken = true; continue }
            if ch == " " || ch == "\t" {
                if hasToken { out.append(cur); cur = ""; hasToken = false }
                continue
            }
            if ch == "#" && !hasToken { break }   // trailing comment
            cur.append(ch); hasToken = true
        }
        if inQuote { throw Problem(message: "unterminated quote") }
        if hasToken { out.append(cur) }
        return out
    }
}

extension Scenario.Step {
    /// The key a button step presses (nil: not a one-key step).
    var button: Button? {
        switch self {
        case .press(let b), .hold(let b), .double(let b): b
        default: nil
        }
    }

    var isChord: Bool {
        switch self {
        case .chord, .chordHold: true
        default: false
        }
    }
}
