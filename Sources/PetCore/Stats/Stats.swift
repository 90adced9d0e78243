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
    /// Day by day, the recent days (at least `dailyDays` before the latest closed day).
    public var days: [Int: DayStats] = [:]
    /// Older days rolled up by calendar month, keyed by the month's first day number (at most
    /// `monthlyYears` years of them).
    public var months: [Int: DayStats] = [:]
    /// Older months rolled up by calendar year, keyed by the day number of its 1 January: one
    /// record a year, so ten years off or a century of use stay a few kilobytes.
    public var years: [Int: DayStats] = [:]
    public init() {}

    /// Days kept one by one (a little more: whole months roll up): every chart of the stats
    /// screen (7 days, 30 days, the month's heat map) and a year back for inspection.
    public static let dailyDays = 400
    /// Years of whole months kept before they roll up into their year.
    public static let monthlyYears = 10

    public mutating func update(_ day: Int, _ change: (inout DayStats) -> Void) {
        change(&days[day, default: DayStats()])
    }

    /// The day's own record; a day already rolled up into its month or year reads as empty.
    public subscript(day: Int) -> DayStats { days[day] ?? DayStats() }

    /// Rolls the days before the month of `closedDay − dailyDays` into their months, and the
    /// months before the year of `closedDay − monthlyYears` years into their years (called by the
    /// fold as each day closes, so replay rolls up exactly as the live device did). The sums are
    /// kept whole: totals over any run of whole months or years are unchanged.
    public mutating func rollUp(closedDay: Int) {
        let dayCut = CivilDate(dayNumber: closedDay - Self.dailyDays)
        let monthStart = CivilDate(year: dayCut.year, month: dayCut.month, day: 1).dayNumber
        if days.keys.contains(where: { $0 < monthStart }) {
            for (d, s) in days where d < monthStart {
                let c = CivilDate(dayNumber: d)
                months[CivilDate(year: c.year, month: c.month, day: 1).dayNumber, default: DayStats()].add(s)
                days[d] = nil
            }
        }
        let yearStart = CivilDate(year: dayCut.year - Self.monthlyYears, month: 1, day: 1).dayNumber
        if months.keys.contains(where: { $0 < yearStart }) {
            for (m, s) in months where m < yearStart {
                years[CivilDate(year: CivilDate(dayNumber: m).year, month: 1, day: 1).dayNumber, default: DayStats()].add(s)
                months[m] = nil
            }
        }
    }

    /// Every record (day, month or year) lying wholly within `first...last`; a month or year
    /// counts from `since` (the pet's first day: there are no figures before it).
    func records(from first: Int, to last: Int, since: Int, _ body: (DayStats) -> Void) {
        if last - first + 1 <= days.count {
            for d in first...last { if let s = days[d] { body(s) } }
        } else {
            for (d, s) in days where d >= first && d <= last { body(s) }
        }
        for (m, s) in months where max(m, since) >= first {
            let c = CivilDate(dayNumber: m)
            if m + CivilDate.daysInMonth(year: c.year, month: c.month) - 1 <= last { body(s) }
        }
        for (y, s) in years where max(y, since) >= first {
            let year = CivilDate(dayNumber: y).year
            if CivilDate(year: year, month: 12, day: 31).dayNumber <= last { body(s) }
        }
    }
}

extension DayStats {
    /// Adds another record's figures (a roll-up of days into a month or a year).
    public mutating func add(_ o: DayStats) {
        tasksCreated = tasksCreated.saturatingAdded(o.tasksCreated)
        tasksDone = tasksDone.saturatingAdded(o.tasksDone)
        tasksMissed = tasksMissed.saturatingAdded(o.tasksMissed)
        coinsEarned = coinsEarned.saturatingAdded(o.coinsEarned)
        coinsSpent = coinsSpent.saturatingAdded(o.coinsSpent)
        completionSeconds = completionSeconds.saturatingAdded(o.completionSeconds)
        completions = completions.saturatingAdded(o.completions)
        habitScore = habitScore.saturatingAdded(o.habitScore)
        urges = urges.saturatingAdded(o.urges)
        giveIns = giveIns.saturatingAdded(o.giveIns)
        focusMinutes = focusMinutes.saturatingAdded(o.focusMinutes)
        for (app, m) in o.screenMinutes { screenMinutes[app] = (screenMinutes[app] ?? 0).saturatingAdded(m) }
    }
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
    /// Totals for days `first...last` (domain day numbers). Days older than about
    /// `StatsState.dailyDays` are kept by month (and after `StatsState.monthlyYears`, by year): they
    /// count when their whole month or year (from the pet's first day) lies within the period.
    public func stats(from first: Int, to last: Int) -> PeriodStats {
        var p = PeriodStats(firstDay: first, lastDay: max(first, last))
        var seconds: Int64 = 0, completions = 0
        if last >= first {
            // Days rolled up count when their whole month (or year) lies in the period.
            stats.records(from: first, to: last, since: clock.day(of: createdAt)) { add($0, to: &p, &seconds, &completions) }
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
        // A rolled-up month's (or year's) score counts on its last day: the cumulative line is
        // exact from then on.
        var rolled: [Int: Int] = [:]
        let since = clock.day(of: createdAt)
        for (m, s) in stats.months where max(m, since) >= first {
            let c = CivilDate(dayNumber: m)
            rolled[m + CivilDate.daysInMonth(year: c.year, month: c.month) - 1, default: 0] += s.habitScore
        }
        for (y, s) in stats.years where max(y, since) >= first {
            rolled[CivilDate(year: CivilDate(dayNumber: y).year, month: 12, day: 31).dayNumber, default: 0] += s.habitScore
        }
        var total = 0
        return (first...last).map {
            total = total.saturatingAdded(stats[$0].habitScore).saturatingAdded(rolled[$0] ?? 0)
            return total
        }
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
