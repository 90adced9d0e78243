/// Per-day aggregates behind the stats screens (SPEC §12). Updated by the fold as events are
/// applied, so a stats screen sums at most a few hundred small records instead of re-reading the
/// journal. Subsystems add to the day their event belongs to with `state.stats.update(day) { … }`.

public struct DayStats: Codable, Sendable, Equatable {
    public var tasksCreated = 0
    public var tasksDone = 0
    public var tasksMissed = 0
    public var coinsEarned = 0
    public var coinsSpent = 0
    /// Sum and count of (completion − creation) seconds, for the average time to completion.
    public var completionSeconds: Int64 = 0
    public var completions = 0
    /// The day's habit score (set when the day is scored).
    public var habitScore = 0
    public var urges = 0
    public var giveIns = 0
    public var focusMinutes = 0
    /// Minutes of screen time per app id.
    public var screenMinutes: [String: Int] = [:]
    public init() {}
}

public struct StatsState: Codable, Sendable, Equatable {
    public var days: [Int: DayStats] = [:]
    public init() {}

    public mutating func update(_ day: Int, _ change: (inout DayStats) -> Void) {
        change(&days[day, default: DayStats()])
    }

    public subscript(day: Int) -> DayStats { days[day] ?? DayStats() }
}
