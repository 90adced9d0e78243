import PetDevice

/// A key read from the terminal.
public enum TerminalKey: Equatable, Sendable {
    case char(Character)
    case up, down, left, right, enter
    /// Ctrl-L: redraw everything.
    case redraw
}

/// Splits raw terminal input into keys: printable ASCII, Enter, Ctrl-L, and the arrow keys in
/// both their forms (ESC [ A and ESC O A). Unknown escape sequences are dropped whole.
public struct TerminalKeyParser: Sendable {
    var pending: [UInt8] = []

    public init() {}

    /// Adds bytes and returns the keys they complete (an unfinished escape sequence waits).
    public mutating func feed(_ bytes: [UInt8]) -> [TerminalKey] {
        pending += bytes
        var keys: [TerminalKey] = []
        var i = 0
        while i < pending.count {
            let b = pending[i]
            if b == 0x1B {
                guard i + 1 < pending.count else { break }
                let kind = pending[i + 1]
                guard kind == UInt8(ascii: "[") || kind == UInt8(ascii: "O") else { i += 1; continue }
                // CSI/SS3: parameters, then a final byte in 0x40...0x7E.
                var j = i + 2
                while j < pending.count && !(0x40...0x7E).contains(pending[j]) { j += 1 }
                guard j < pending.count else { break }
                switch pending[j] {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                case UInt8(ascii: "C"): keys.append(.right)
                case UInt8(ascii: "D"): keys.append(.left)
                default: break
                }
                i = j + 1
                continue
            }
            switch b {
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x0C: keys.append(.redraw)
            case 0x20...0x7E: keys.append(.char(Character(Unicode.Scalar(b))))
            default: break
            }
            i += 1
        }
        pending.removeFirst(min(i, pending.count))
        return keys
    }

    /// A lone ESC still waiting: after a pause it was just the Escape key (dropped).
    public mutating func flushEscape() { pending.removeAll() }
}

/// What a key does in the interactive simulator (docs/simulator.md lists them).
public enum InteractiveAction: Equatable, Sendable {
    /// A short press of a button (two quick ones make a double tap).
    case tap(Button)
    /// A press held for 800 ms (a long press).
    case long(Button)
    /// A and C together (short).
    case chord
    /// A and C held for 3.2 s: the factory reset.
    case chordHold
    case faster, slower, pause, quit, redraw
    /// A key for a button this board does not have (e.g. D or the joystick on 3 buttons).
    case noSuchButton(String)
}

public enum InteractiveKeys {
    /// The button named `name` ("a", "d", "up", "centre" …) if the input layout has one.
    public static func button(_ name: String) -> Button? {
        Button.allCases.first { "\($0)".lowercased() == name || $0.rawValue.lowercased() == name }
    }

    public static func action(for key: TerminalKey) -> InteractiveAction? {
        func press(_ name: String, long: Bool = false) -> InteractiveAction {
            guard let b = button(name) else { return .noSuchButton(name) }
            return long ? .long(b) : .tap(b)
        }
        switch key {
        case .up: return press("up")
        case .down: return press("down")
        case .left: return press("left")
        case .right: return press("right")
        case .enter:
            if let b = button("centre") ?? button("center") { return .tap(b) }
            return .noSuchButton("centre")
        case .redraw: return .redraw
        case .char(let c):
            switch c {
            case "a", "b", "c", "d": return press(String(c))
            case "A", "B", "C", "D": return press(c.lowercased(), long: true)
            case "x": return .chord
            case "X": return .chordHold
            case "+", "=": return .faster
            case "-", "_": return .slower
            case " ": return .pause
            case "q", "Q": return .quit
            case "r": return .redraw
            default: return nil
            }
        }
    }

    /// The time speeds `+` and `-` step through.
    public static let speeds: [Int64] = [1, 60, 3600]

    /// One line of key help for the status area.
    public static let help = "a/b/c(/d) tap · A/B/C hold · x A+C · arrows joystick · +/- speed · space pause · q quit"
}
