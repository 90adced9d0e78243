import PetCore

/// How numbers, times and durations read on the screens (short, no locale).
public enum Fmt {
    public static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    public static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    public static let fullMonths = ["January", "February", "March", "April", "May", "June", "July", "August",
                                    "September", "October", "November", "December"]

    static func two(_ n: Int) -> String { n < 10 && n >= 0 ? "0\(n)" : "\(n)" }

    /// "08:30".
    public static func clock(_ l: LocalDateTime) -> String { two(l.hour) + ":" + two(l.minute) }

    /// A minute of the day as "22:00".
    public static func minuteOfDay(_ m: Int) -> String {
        let v = ((m % 1440) + 1440) % 1440
        return two(v / 60) + ":" + two(v % 60)
    }

    /// A count with its noun in the right number: "1 active day", "3 active days", "0 coins"
    /// (`plural`: when adding "s" is wrong).
    public static func count(_ n: Int, _ singular: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
    }

    /// Compact count: 999, 12.3k → "12k", 1.5M → "1M".
    public static func compact(_ n: Int) -> String {
        let v = max(0, n)
        if v < 10_000 { return String(v) }
        if v < 1_000_000 { return String(v / 1000) + "k" }
        return String(v / 1_000_000) + "M"
    }

    /// "3d 4h", "2h 05m", "12m", "<1m".
    public static func duration(_ seconds: Int64) -> String {
        let s = max(0, seconds)
        let d = s / 86_400, h = (s % 86_400) / 3600, m = (s % 3600) / 60
        if d > 0 { return "\(d)d \(h)h" }
        if h > 0 { return "\(h)h " + two(Int(m)) + "m" }
        if m > 0 { return "\(m)m" }
        return "<1m"
    }

    /// Countdown "24:59" or "1:04:59".
    public static func countdown(_ seconds: Int64) -> String {
        let s = max(0, seconds)
        let h = s / 3600, m = (s % 3600) / 60, sec = s % 60
        if h > 0 { return "\(h):" + two(Int(m)) + ":" + two(Int(sec)) }
        return two(Int(m)) + ":" + two(Int(sec))
    }

    /// Minutes as "45 min", "2 h", "1 h 30".
    public static func minutes(_ m: Int) -> String {
        if m < 60 { return "\(m) min" }
        return m % 60 == 0 ? "\(m / 60) h" : "\(m / 60) h " + two(m % 60)
    }

    /// "Mon 23 Mar".
    public static func date(_ d: CivilDate) -> String {
        weekdays[d.weekday] + " \(d.day) " + months[max(0, min(11, d.month - 1))]
    }

    /// When an instant is relative to now, in the pet's days: "17:00", "tomorrow 09:00",
    /// "Fri 09:00", "2026-03-20" (further away), "yesterday 17:00".
    public static func when(_ t: Instant, state: PetState, now: Instant) -> String {
        let local = state.clock.local(t)
        let days = state.clock.day(of: t) - state.clock.day(of: now)
        let time = clock(local)
        switch days {
        case 0: return time
        case 1: return "tomorrow " + time
        case -1: return "yesterday " + time
        case 2...6: return weekdays[local.date.weekday] + " " + time
        default: return local.date.description
        }
    }

    /// A task's due line as on the home screen: "due 17:00", "due tomorrow 09:00", "due Fri 09:00",
    /// "due 2026-03-20", "overdue", "missed", "in progress", nil (no due, pending).
    public static func due(_ t: TaskItem, state: PetState, now: Instant) -> String? {
        if t.state == .missed { return "missed" }
        guard let due = t.due else { return t.state == .inProgress ? "in progress" : nil }
        if due < now { return "overdue" }
        return "due " + when(due, state: state, now: now)
    }

    /// Short due text for list rows: "12:00", "late", "Fri".
    public static func dueShort(_ t: TaskItem, state: PetState, now: Instant) -> String? {
        guard let due = t.due else { return nil }
        if due < now { return "late" }
        let days = state.clock.day(of: due) - state.clock.day(of: now)
        let l = state.clock.local(due)
        if days == 0 { return clock(l) }
        if days < 7 { return weekdays[l.date.weekday] }
        return "\(l.date.day) " + months[max(0, min(11, l.date.month - 1))]
    }

    public static func priority(_ p: Priority) -> String {
        switch p { case .low: "low"; case .normal: "normal"; case .high: "high" }
    }

    public static func taskState(_ s: TaskState) -> String {
        switch s { case .pending: "to do"; case .inProgress: "in progress"; case .completed: "done"; case .missed: "missed" }
    }

    public static func recurrence(_ r: Recurrence?) -> String {
        guard let r else { return "once" }
        switch r.rule {
        case .daily: return "daily"
        case .everyNDays(let n): return "every \(n)d"
        case .weekdays(let d): return d.map { weekdays[max(0, min(6, $0))] }.joined(separator: ",")
        }
    }

    public static func commitmentKind(_ k: CommitmentKind) -> String {
        switch k { case .wakeUp: "Wake-up"; case .onTime: "On time"; case .focus: "Focus"; case .place: "Place" }
    }

    public static func outcome(_ o: QuitOutcome) -> String {
        switch o { case .resisted: "Resisted"; case .gaveIn: "Gave in"; case .finished: "Finished pod" }
    }

    /// Capitalised first letter ("hat" → "Hat").
    public static func title(_ s: String) -> String {
        guard let f = s.first else { return s }
        return f.uppercased() + s.dropFirst().replacingDashes()
    }
}

extension Substring {
    func replacingDashes() -> String { String(map { $0 == "-" ? " " : $0 }) }
}

// Commitments: kinds, schedules and windows as the commitments screen shows them.
extension Fmt {
    /// " 25 min" for a focus commitment, " 50 m" for a place.
    static func commitmentExtra(_ cm: Commitment) -> String {
        switch cm.kind {
        case .focus: cm.plan.focusMinutes.map { " \($0) min" } ?? ""
        case .place: cm.plan.radius.map { " \($0) m" } ?? ""
        default: ""
        }
    }

    /// "weekdays", "daily", "weekends" or "Mo We Fr".
    static func days(_ d: [Int]) -> String {
        switch d {
        case [1, 2, 3, 4, 5]: return "weekdays"
        case [0, 1, 2, 3, 4, 5, 6]: return "daily"
        case [0, 6]: return "weekends"
        default: return d.map { String(weekdays[max(0, min(6, $0))].prefix(2)) }.joined(separator: " ")
        }
    }

    static func tinyKind(_ k: CommitmentKind) -> String {
        switch k { case .wakeUp: "Wake"; case .onTime: "Be on"; case .focus: "Focus"; case .place: "Place" }
    }

    /// "now, until 07:10" / "Tue 06:50-07:10" / "no more windows".
    /// `weekday`: another day's window starts with its weekday ("Tue 09:55-10:05"), not "tomorrow";
    /// `repeats: false` leaves out the days it repeats on.
    static func window(_ cm: Commitment, _ s: PetState, _ now: Instant, terse: Bool = false, weekday: Bool = false,
                       repeats showRepeats: Bool = true) -> String {
        guard let o = cm.current else { return terse ? "-" : "no more windows" }
        if o.contains(now) { return (terse ? "now-" : "open now, until ") + Fmt.clock(s.clock.local(o.closes)) }
        let ahead = s.clock.day(of: o.opens) - s.clock.day(of: now)
        let l = s.clock.local(o.opens)
        if terse { return (ahead == 0 ? "" : weekdays[l.date.weekday] + " ") + Fmt.clock(l) }
        let start = weekday ? (ahead == 0 ? "" : weekdays[l.date.weekday] + " ") + Fmt.clock(l) : Fmt.when(o.opens, state: s, now: now)
        let repeats = cm.plan.schedule.isRecurring && showRepeats ? ", " + days(cm.plan.schedule.weekdays) : ""
        return start + "-" + Fmt.clock(s.clock.local(o.closes)) + repeats
    }
}
