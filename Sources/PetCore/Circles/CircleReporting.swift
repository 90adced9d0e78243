/// What this device says to a circle: its member's report (docs/circles.md#what-a-member-shares),
/// built from the state as the export shares it (`sharedCopy()`: nothing of a private app) and
/// the owner's consent for that circle, and its own member's judgement in a challenge. Numbers
/// only: never titles, notes, thoughts, app names or triggers.

extension PetState {
    /// The pet's days of a challenge's window: those that begin inside it (the window is whole
    /// days of the proposer's clock; a pet day begins at its day-start hour, docs/domain.md).
    func windowDays(_ t: ChallengeTerms) -> ClosedRange<Int> {
        var first = clock.day(of: t.start)
        if clock.start(ofDay: first) < t.start { first += 1 }
        return first...max(first, clock.day(of: t.end - 1))
    }

    /// This device's own member in a challenge: whether its goal was met over the window and the
    /// figure toward it (tasks done, days kept). Judged once the window has closed.
    public func judge(_ t: ChallengeTerms) -> (met: Bool, value: Int) {
        let days = windowDays(t)
        switch t.goal {
        case .tasksDone(let n):
            // Tasks done inside the window: a pet day wholly inside counts from its statistics;
            // on a day the window cuts, the completions held (a finished task stays a week)
            // count by their instant.
            let first = clock.day(of: t.start), last = clock.day(of: t.end - 1)
            var done = 0
            var cut: Set<Int> = []
            for d in first...max(first, last) {
                if clock.start(ofDay: d) >= t.start && clock.start(ofDay: d + 1) <= t.end { done += stats[d].tasksDone } else { cut.insert(d) }
            }
            for task in tasks.values {
                guard let c = task.completedAt, c >= t.start, c < t.end, cut.contains(clock.day(of: c)) else { continue }
                done += 1
            }
            return (done >= n, done)
        case .habitEveryDay:
            let kept = days.filter { stats[$0].habitScore > 0 }.count
            return (kept == days.count, kept)
        case .focusPerDay(let m):
            let kept = days.filter { stats[$0].focusMinutes >= m }.count
            return (kept == days.count, kept)
        case .screenUnder(let m):
            // Screen time as shared (a private app's minutes stay on the device: docs/screen-time.md).
            let shared = sharedCopy()
            let kept = days.filter { shared.stats[$0].appMinutes.values.reduce(0, +) < m }.count
            return (kept == days.count, kept)
        }
    }

    /// The member's report for `circle` at `now` (nil: not a member). Figures the owner did not
    /// consent to share are 0 (the screen-time goal 0: not ranked on screen time).
    public func circleReport(_ circle: String, now: Instant) -> MemberReport? {
        guard let m = circles.circles[circle] else { return nil }
        let s = sharedCopy()
        let today = clock.day(of: now)
        let date = CivilDate(dayNumber: today)
        let monday = today - floorMod(date.weekday + 6, 7)
        let monthFirst = CivilDate(year: date.year, month: date.month, day: 1).dayNumber
        func sum(_ from: Int, _ f: (DayStats) -> Int) -> Int {
            guard from <= today else { return 0 }
            return (from...today).reduce(0) { $0.saturatingAdded(f(s.stats[$1])) }
        }
        let share = m.share
        var r = MemberReport(member: m.member, seq: eventCount, sentAt: now, petName: String(s.pet.name.prefix(24)),
                             level: min(100, max(1, s.level)), week: monday, month: date.year * 12 + date.month - 1)
        if share.contains(.coins) { r.coinsWeek = sum(monday) { $0.coinsEarned }; r.coinsMonth = sum(monthFirst) { $0.coinsEarned } }
        if share.contains(.tasks) { r.tasksWeek = sum(monday) { $0.tasksDone } }
        if share.contains(.focus) { r.focusWeek = sum(monday) { $0.focusMinutes }; r.focusMonth = sum(monthFirst) { $0.focusMinutes } }
        if share.contains(.screen) {
            r.screenWeek = sum(monday) { $0.appMinutes.values.reduce(0, +) }
            r.screenMonth = sum(monthFirst) { $0.appMinutes.values.reduce(0, +) }
            r.screenGoal = m.screenGoal
        }
        if share.contains(.streak) { r.streak = s.streak }
        if share.contains(.course), let c = s.habits.course {
            r.courseDay = min(66, max(0, today - c.startDay + 1))
            r.postsRead = min(66, c.read.count)
        }
        if share.contains(.habits) {
            r.habitWeek = sum(monday) { max(0, $0.habitScore) }
            r.habitDays = (monday...today).filter { s.stats[$0].habitScore > 0 }.count
            // Each active habit by its checklist position: its scored days this week, and today
            // if it is checked already.
            let each = s.habits.active.prefix(HabitRules.maxActive).map { h -> Int in
                let closed = (s.habits.checkedDays?[h.id] ?? []).filter { $0 >= monday && $0 < today }.count
                return min(7, closed + (s.checkedToday.contains(h.id) ? 1 : 0))
            }
            r.habitEach = each.isEmpty ? nil : Array(each)
        }
        let cap = 10_000_000
        if let h = r.habitWeek { r.habitWeek = min(cap, h) }
        for k in [\MemberReport.coinsWeek, \.coinsMonth, \.tasksWeek, \.focusWeek, \.focusMonth, \.screenWeek, \.screenMonth, \.streak] {
            r[keyPath: k] = min(cap, max(0, r[keyPath: k]))
        }
        if share.contains(.challenges) {
            // Every challenge held in this circle: running (progress so far, for display) or final
            // (judged, or left).
            for h in circles.challenges.values.filter({ $0.circle == circle }).sorted(by: { $0.terms.id < $1.terms.id }).prefix(CircleRules.maxChallenges) {
                if let f = h.finals[m.member] { r.challenges.append(f); continue }
                let (met, value) = judge(h.terms)
                r.challenges.append(ChallengeProgress(challenge: h.terms.id, met: met, value: value))
            }
            // Settled ones: the final stays in the reports for a while after the deadline.
            for s in circles.settled where s.circle == circle && now < s.deadline + CircleRules.keepFinals && r.challenges.count < CircleRules.maxChallenges {
                if let f = s.final, !r.challenges.contains(where: { $0.challenge == f.challenge }) { r.challenges.append(f) }
            }
        }
        return r
    }
}
