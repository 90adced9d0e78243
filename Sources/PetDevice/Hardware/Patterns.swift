// The sounds and light patterns of docs/sound-and-light.md as plain tables: what a buzzer or an LED does, step by
// step. Pure, so every backend (a GPIO line toggled in software, a PWM channel, the simulator's
// recorder) plays the same thing and tests read the table. docs/sound-and-light.md.

/// One step of a tone: a frequency for a duration. `hz == 0` is silence (a gap).
public struct ToneStep: Sendable, Equatable {
    /// Hertz; 0 = silent.
    public var hz: Int
    /// Milliseconds.
    public var ms: Int
    public init(hz: Int, ms: Int) { self.hz = hz; self.ms = ms }
    public static func note(_ hz: Int, _ ms: Int) -> ToneStep { ToneStep(hz: hz, ms: ms) }
    public static func rest(_ ms: Int) -> ToneStep { ToneStep(hz: 0, ms: ms) }
    public var sounds: Bool { hz > 0 }
}

/// The buzzer's patterns. Each tone is recognisable by its rhythm alone, so an active buzzer
/// (one with its own oscillator, switched on and off) plays them too; a passive buzzer or a PWM
/// channel also gets the pitch. Every pattern lasts under a second; a player silences the buzzer
/// after the last step.
public enum TonePattern {
    public static func steps(for tone: Tone) -> [ToneStep] {
        switch tone {
        // A click: one very short high blip.
        case .tick: [.note(4000, 15)]
        // A rising arpeggio C6 E6 G6 C7, the last note held.
        case .celebration: [.note(1047, 80), .rest(30), .note(1319, 80), .rest(30), .note(1568, 80), .rest(30), .note(2093, 220)]
        // Two short mid beeps: "ding-ding".
        case .nudge: [.note(2000, 120), .rest(120), .note(2000, 120)]
        // One low, longer buzz.
        case .softBuzz: [.note(400, 250)]
        // Three low buzzes.
        case .strongBuzz: [.note(250, 200), .rest(80), .note(250, 200), .rest(80), .note(250, 200)]
        }
    }

    /// How long a tone lasts (ms).
    public static func durationMs(_ tone: Tone) -> Int { steps(for: tone).reduce(0) { $0 + $1.ms } }

    /// The on/off rhythm an active buzzer plays: the steps with consecutive equal states merged,
    /// as (on, ms) pairs.
    public static func rhythm(_ tone: Tone) -> [(on: Bool, ms: Int)] {
        var out: [(on: Bool, ms: Int)] = []
        for s in steps(for: tone) {
            if let last = out.last, last.on == s.sounds { out[out.count - 1].ms += s.ms } else { out.append((s.sounds, s.ms)) }
        }
        return out
    }
}

/// The colour of an LED step. A one-colour LED is lit when any channel is.
public struct LightColor: Sendable, Equatable, Hashable {
    public var red: Bool, green: Bool, blue: Bool
    public init(red: Bool, green: Bool, blue: Bool) { self.red = red; self.green = green; self.blue = blue }
    public static let off = LightColor(red: false, green: false, blue: false)
    public static let red = LightColor(red: true, green: false, blue: false)
    public static let green = LightColor(red: false, green: true, blue: false)
    public static let blue = LightColor(red: false, green: false, blue: true)
    public static let amber = LightColor(red: true, green: true, blue: false)
    public static let white = LightColor(red: true, green: true, blue: true)
    public var isLit: Bool { red || green || blue }
}

/// One step of a light pattern.
public struct LightStep: Sendable, Equatable {
    public var color: LightColor
    public var ms: Int
    public init(_ color: LightColor, _ ms: Int) { self.color = color; self.ms = ms }
}

/// The LED's patterns. They are finite: a nudge pulses three times, a celebration is a short
/// flourish; a player darkens the LED after the last step. `off` is no steps: dark at once.
public enum LightPatternTable {
    public static func steps(for pattern: LightPattern) -> [LightStep] {
        switch pattern {
        case .off: []
        // Three slow amber pulses.
        case .nudge: [LightStep(.amber, 500), LightStep(.off, 500), LightStep(.amber, 500), LightStep(.off, 500),
                      LightStep(.amber, 500)]
        // Red, green, blue quickly, twice, then a white flash.
        case .celebration: [LightStep(.red, 80), LightStep(.green, 80), LightStep(.blue, 80),
                            LightStep(.red, 80), LightStep(.green, 80), LightStep(.blue, 80),
                            LightStep(.white, 300)]
        }
    }

    public static func durationMs(_ pattern: LightPattern) -> Int { steps(for: pattern).reduce(0) { $0 + $1.ms } }

    /// What a one-colour LED does: (lit, ms) with consecutive equal states merged.
    public static func rhythm(_ pattern: LightPattern) -> [(on: Bool, ms: Int)] {
        var out: [(on: Bool, ms: Int)] = []
        for s in steps(for: pattern) {
            if let last = out.last, last.on == s.color.isLit { out[out.count - 1].ms += s.ms } else { out.append((s.color.isLit, s.ms)) }
        }
        return out
    }
}
