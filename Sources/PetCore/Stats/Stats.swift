/// Per-day aggregates behind the stats screens (docs/domain.md#stats). Updated by the fold as events are
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
    /// Minutes of app time per app id: stored under its snapshot key `screenMinutes`; code says
    /// `appMinutes`.
    var screenMinutes: [String: Int] = [:]
    public var appMinutes: [String: Int] {
        get { screenMinutes }
        _modify { yield &screenMinutes }
        set { screenMinutes = newValue }
    }
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

/// Totals over a run of days (docs/domain.md#stats).
public struct PeriodStats: Sendable, Equatable {
    public var firstDay: Int
    public var lastDay: Int
    public var tasksDone = 0
    public var tasksMissed = 0
    /// Open tasks due in the period (now).
    public var tasksPending = 0
    public var coinsEarned = 0
    public var coinsSpent = 0
    /// Average seconds from creation to completion of the tasks completed in the period.
    public var averageCompletionSeconds: Int64?
    public var habitScore = 0
    public var urges = 0
    public var giveIns = 0
    public var focusMinutes = 0
    /// Screen time per app id (private apps included: this is the owner's own view).
    public var appMinutes: [String: Int] = [:]
}

extension PetState {
    /// Totals for days `first...last` (domain day numbers).
    public func stats(from first: Int, to last: Int) -> PeriodStats {
        var p = PeriodStats(firstDay: first, lastDay: max(first, last))
        var seconds: Int64 = 0, completions = 0
        if last >= first {
            // Iterate whichever is smaller: the period or the recorded days.
            if last - first + 1 <= stats.days.count {
                for d in first...last { if let s = stats.days[d] { add(s, to: &p, &seconds, &completions) } }
            } else {
                for (d, s) in stats.days where d >= first && d <= last { add(s, to: &p, &seconds, &completions) }
            }
        }
        if completions > 0 { p.averageCompletionSeconds = seconds / Int64(completions) }
        let start = clock.start(ofDay: first), end = clock.start(ofDay: max(first, last) + 1)
        p.tasksPending = tasks.values.reduce(0) { n, t in
            n + ((t.isOpen && (t.due.map { $0 >= start && $0 < end } ?? false)) ? 1 : 0)
        }
        return p
    }

    private func add(_ s: DayStats, to p: inout PeriodStats, _ seconds: inout Int64, _ completions: inout Int) {
        p.tasksDone += s.tasksDone
        p.tasksMissed += s.tasksMissed
        p.coinsEarned += s.coinsEarned
        p.coinsSpent += s.coinsSpent
        p.habitScore += s.habitScore
        p.urges += s.urges
        p.giveIns += s.giveIns
        p.focusMinutes += s.focusMinutes
        for (app, m) in s.appMinutes { p.appMinutes[app, default: 0] += m }
        seconds += s.completionSeconds
        completions += s.completions
    }

    /// The day's totals.
    public func dayStats(_ day: Int) -> PeriodStats { stats(from: day, to: day) }

    /// The Monday–Sunday week containing `day`.
    public func weekStats(containing day: Int) -> PeriodStats {
        let monday = day - (clock.date(ofDay: day).weekday + 6) % 7
        return stats(from: monday, to: monday + 6)
    }

    /// The calendar month containing `day`.
    public func monthStats(containing day: Int) -> PeriodStats {
        let (first, last) = monthRange(containing: day)
        return stats(from: first, to: last)
    }

    /// First and last day numbers of the calendar month containing `day`.
    public func monthRange(containing day: Int) -> (Int, Int) {
        let d = clock.date(ofDay: day)
        let first = CivilDate(year: d.year, month: d.month, day: 1).dayNumber
        return (first, first + CivilDate.daysInMonth(year: d.year, month: d.month) - 1)
    }

    /// Tasks done per day for the 7 days ending with `day` (the 7-day bars).
    public func doneBars(endingWith day: Int) -> [Int] {
        ((day - 6)...day).map { stats[$0].tasksDone }
    }

    /// Coins earned per day for the 30 days ending with `day` (the 30-day line).
    public func coinLine(endingWith day: Int) -> [Int] {
        ((day - 29)...day).map { stats[$0].coinsEarned }
    }

    /// Cumulative habit score per day from `first` to `last` (its line since the start).
    public func habitScoreLine(from first: Int, to last: Int) -> [Int] {
        guard last >= first else { return [] }
        var total = 0
        return (first...last).map { total += stats[$0].habitScore; return total }
    }

    /// Activity per day of the month containing `day` (tasks done + habit points > 0 + urges
    /// logged), laid out as weeks (Monday first) × 7; nil outside the month. The month heat map.
    public func activityHeatMap(containing day: Int) -> [[Int?]] {
        let (first, last) = monthRange(containing: day)
        let lead = (clock.date(ofDay: first).weekday + 6) % 7
        var cells: [Int?] = Array(repeating: nil, count: lead)
        for d in first...last {
            let s = stats[d]
            cells.append(s.tasksDone + (s.habitScore > 0 ? 1 : 0) + s.urges)
        }
        while cells.count % 7 != 0 { cells.append(nil) }
        return stride(from: 0, to: cells.count, by: 7).map { Array(cells[$0..<$0 + 7]) }
    }
}
