/// The pet: profile, needs and mood (docs/domain.md#the-pet).

public enum Personality: String, Codable, Sendable, CaseIterable {
    case playful, calm, curious, shy
}

public enum Mood: String, Codable, Sendable, CaseIterable {
    case happy, content, sad, sleepy, excited
}

public struct PetProfile: Codable, Sendable, Equatable {
    public static let species = ["blob", "cat", "owl", "dragon"]
    public static let colours = ["mint", "peach", "sky", "lemon", "lilac", "rose"]

    public var name: String = "Pip"
    public var species: String = "blob"
    public var colour: String = "mint"
    public var personality: Personality = .playful

    public init() {}

    /// A name's length in characters.
    public static let nameLength = 1...30

    /// 1–30 characters: letters, digits, space, `-` and `'`; no leading/trailing space.
    public static func validateName(_ n: String) throws(DomainError) {
        guard nameLength.contains(n.count) else {
            throw .invalidField(field: "name", reason: "must be \(nameLength.text) characters (got \(n.count))")
        }
        guard n.trimmingSpaces == n else {
            throw .invalidField(field: "name", reason: "must not start or end with a space")
        }
        for c in n where !(c.isLetter || c.isNumber || c == " " || c == "-" || c == "'") {
            _ = c
            throw .invalidField(field: "name", reason: "may only use letters, digits, space, - and '")
        }
    }
}

/// Fullness and energy, 0...100, kept in exact integer "value × 3600" units so that one unit of
/// decay per second equals 1/h and any split of an interval gives the same result.
public struct Needs: Codable, Sendable, Equatable {
    public static let scale = 3600
    public static let full = 100 * scale

    public var fullnessRaw: Int = Needs.full
    public var energyRaw: Int = Needs.full
    /// The instant these values are for.
    public var asOf: Instant

    public init(asOf: Instant) { self.asOf = asOf }

    public var fullness: Int { fullnessRaw / Needs.scale }
    public var energy: Int { energyRaw / Needs.scale }

    /// Per hour: fullness −4 awake (unchanged asleep); energy −3 awake, +10 asleep.
    public static let fullnessAwakePerHour = -4
    public static let energyAwakePerHour = -3
    public static let energyAsleepPerHour = 10

    mutating func pass(seconds: Int64, asleep: Bool) {
        let s = Int(seconds)
        if asleep {
            energyRaw = clampNeed(energyRaw + Needs.energyAsleepPerHour * s)
        } else {
            fullnessRaw = clampNeed(fullnessRaw + Needs.fullnessAwakePerHour * s)
            energyRaw = clampNeed(energyRaw + Needs.energyAwakePerHour * s)
        }
    }
}

@inline(__always) func clampNeed(_ v: Int) -> Int { min(max(v, 0), Needs.full) }

/// Quiet hours: the pet sleeps, reminders are visual only. Minutes of the local day.
public struct QuietHours: Codable, Sendable, Equatable {
    public var startMinute: Int = 22 * 60
    public var endMinute: Int = 7 * 60
    public init() {}
    public init(startMinute: Int, endMinute: Int) { self.startMinute = startMinute; self.endMinute = endMinute }

    public func contains(minuteOfDay m: Int) -> Bool {
        if startMinute == endMinute { return false }
        if startMinute < endMinute { return m >= startMinute && m < endMinute }
        return m >= startMinute || m < endMinute
    }
}

public enum MoodRules {
    /// Minutes a completion or level-up keeps the pet excited.
    public static let excitedSeconds: Int64 = 10 * 60
    /// Minutes a petting keeps the pet happy.
    public static let pettedSeconds: Int64 = 5 * 60
    /// Minimum seconds between two pettings that count.
    public static let pettingInterval: Int64 = 60

    /// Mood from the inputs (all pure):
    /// - asleep (quiet hours or paused) → sleepy
    /// - celebration in the last 10 min → excited; petted in the last 5 min → happy
    /// - energy < 15 → sleepy
    /// - follow-through over the last 3 days (done / (done + missed)), 0.75 when nothing was due;
    ///   −0.25 when fullness < 20; ≥ 0.8 happy, ≥ 0.5 content, else sad
    /// - one completed item today lifts sad to content (DeskPet never punishes)
    public static func mood(asleep: Bool, sinceCelebration: Int64?, sincePetting: Int64?, fullness: Int, energy: Int,
                            done3: Int, missed3: Int, doneToday: Int) -> Mood {
        if asleep { return .sleepy }
        if let s = sinceCelebration, s >= 0, s < excitedSeconds { return .excited }
        if let s = sincePetting, s >= 0, s < pettedSeconds { return .happy }
        if energy < 15 { return .sleepy }
        var score = done3 + missed3 == 0 ? 75 : done3 * 100 / (done3 + missed3)
        if fullness < 20 { score -= 25 }
        let m: Mood = score >= 80 ? .happy : (score >= 50 ? .content : .sad)
        if m == .sad && doneToday > 0 { return .content }
        return m
    }
}
