import PetUI

/// How a board's keys and gestures map onto the navigator's semantic inputs (docs/navigation.md: boards
/// with 3 buttons, 4 buttons or a 5-way joystick all drive the same navigation). docs/navigation.md
/// shows the same tables.
///
/// A tap is reported at the press edge, so a double tap, a long press or the A+C chord always
/// follows a tap of its first button: those map with `extendsTap`, and the navigator undoes the
/// tap's view change before acting on them.
public enum InputLayout: String, Sendable, CaseIterable {
    /// A (previous/up), B (select), C (back), with gestures for the rest.
    case threeButtons = "3"
    /// A up, D down, B select, C back.
    case fourButtons = "4"
    /// A 5-way joystick: up/down = previous/next, centre = select, left = back, right = the next
    /// page or tab (else select). No chord: factory reset is a settings row.
    case joystick

    /// The layout named on the command line or in a scenario: `3`, `4` or `joystick`.
    public static func named(_ s: String) -> InputLayout? {
        switch s.lowercased() {
        case "3", "three", "3-buttons": .threeButtons
        case "4", "four", "4-buttons": .fourButtons
        case "joystick", "5-way", "5way": .joystick
        default: nil
        }
    }

    /// The keys this board has.
    public var buttons: [Button] {
        switch self {
        case .threeButtons: [.a, .b, .c]
        case .fourButtons: [.a, .b, .c, .d]
        case .joystick: [.up, .down, .left, .right, .centre]
        }
    }

    /// Whether the board has the A+C chord (and so the A+C 3-second factory reset).
    public var hasChord: Bool { self != .joystick }

    /// The navigator's settings for this board on `profile`: the chord (or the factory-reset
    /// settings row), the key names of the hints, the display whose list layouts decide which
    /// rows are visible.
    public func navigatorConfig(profile: DisplayProfile) -> Navigator.Config {
        Navigator.Config(profile: profile, hasChord: hasChord, keys: keys)
    }

    /// How a key is named in the hints: "A".."D"; the joystick's "^", "v", "<", ">" and "OK".
    public static func label(_ b: Button) -> String {
        switch b {
        case .a, .b, .c, .d: b.rawValue
        case .up: "^"
        case .down: "v"
        case .left: "<"
        case .right: ">"
        case .centre: "OK"
        }
    }

    /// What the hints call the key of each input on this board: the key whose tap gives it,
    /// "hold KEY" for a long press, the key twice ("AA") for an input only a double tap gives
    /// (three buttons' down; docs/design.md, "The hint vocabulary"). Chords are not named.
    public var keys: NavKeys {
        var names: [NavInput: String] = [:], doubles: [NavInput: String] = [:]
        for g in gestures {
            guard let p = input(for: g), names[p.input] == nil else { continue }
            switch g {
            case .tap(let b): names[p.input] = InputLayout.label(b)
            case .longPress(let b): names[p.input] = "hold " + InputLayout.label(b)
            case .doubleTap(let b): if doubles[p.input] == nil { doubles[p.input] = InputLayout.label(b) + InputLayout.label(b) }
            case .chordAC, .chordHeld: break
            }
        }
        // An input a single press gives is named by it ("D", not "DD").
        for k in names.keys { doubles[k] = nil }
        return NavKeys(names, doubles: doubles)
    }

    /// The semantic input a gesture means on this board (nil: nothing).
    public func input(for g: Gesture) -> NavPress? {
        switch g {
        case .chordAC: return hasChord ? NavPress(.chord, extendsTap: true) : nil
        case .chordHeld: return hasChord ? NavPress(.reset, extendsTap: false, isPress: false) : nil
        case .tap(let b):
            // The inputs this key's longer gestures give that undo the tap (a tap that would open
            // something waits for them where they do something: docs/navigation.md).
            return role(of: b).map { r in
                var grows = Set(r.hold.map { [$0] } ?? [])
                if let d = r.double, d.extends { grows.insert(d.input) }
                return NavPress(r.tap, grows: grows)
            }
        case .doubleTap(let b):
            guard let r = role(of: b), let d = r.double else { return nil }
            return NavPress(d.input, extendsTap: d.extends)
        case .longPress(let b):
            guard let r = role(of: b), let h = r.hold else { return nil }
            return NavPress(h, extendsTap: true, isPress: false)
        }
    }

    /// What one key does: its tap, its double tap (and whether that undoes the tap: a double tap
    /// that means "the same again", like moving twice, does not), its long press.
    struct Role {
        var tap: NavInput
        var double: (input: NavInput, extends: Bool)?
        var hold: NavInput?
    }

    func role(of b: Button) -> Role? {
        switch (self, b) {
        // Three buttons: double A moves down (the tap moved up: undone first).
        case (.threeButtons, .a): Role(tap: .previous, double: (.next, true), hold: .holdPrevious)
        case (.threeButtons, .b), (.fourButtons, .b): Role(tap: .select, double: (.doubleSelect, true), hold: .holdSelect)
        case (.threeButtons, .c), (.fourButtons, .c): Role(tap: .back, double: (.doubleBack, true), hold: .holdBack)
        case (.fourButtons, .a): Role(tap: .previous, double: (.previous, false), hold: .holdPrevious)
        case (.fourButtons, .d): Role(tap: .next, double: (.next, false), hold: nil)
        case (.joystick, .up): Role(tap: .previous, double: (.previous, false), hold: .holdPrevious)
        case (.joystick, .down): Role(tap: .next, double: (.next, false), hold: nil)
        case (.joystick, .centre): Role(tap: .select, double: (.doubleSelect, true), hold: .holdSelect)
        case (.joystick, .left): Role(tap: .back, double: (.doubleBack, true), hold: .holdBack)
        case (.joystick, .right): Role(tap: .forward, double: (.forward, false), hold: nil)
        default: nil
        }
    }

    /// Every gesture of this board, in a fixed order (taps, double taps, long presses, chords).
    public var gestures: [Gesture] {
        buttons.map(Gesture.tap) + buttons.map(Gesture.doubleTap) + buttons.map(Gesture.longPress)
            + (hasChord ? [.chordAC, .chordHeld] : [])
    }

    /// The whole map as text, one `gesture -> input` line per gesture (tests compare it byte for
    /// byte; docs/navigation.md shows the same).
    public var table: String {
        gestures.map { g in "\(InputLayout.name(g)) -> \(input(for: g)?.description ?? "nothing")" }
            .joined(separator: "\n") + "\n"
    }

    /// "tap A", "double CENTRE", "hold D", "chord A+C", "hold A+C 3s".
    public static func name(_ g: Gesture) -> String {
        switch g {
        case .tap(let b): "tap \(b.rawValue)"
        case .doubleTap(let b): "double \(b.rawValue)"
        case .longPress(let b): "hold \(b.rawValue)"
        case .chordAC: "chord A+C"
        case .chordHeld: "hold A+C 3s"
        }
    }
}
