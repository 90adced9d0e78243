/// The habits subsystem's engine hooks (see Engine/Subsystem.swift and Habits.swift).

/// Habits, the checklist, the course and the evening check-in as a subsystem.
enum HabitsSubsystem: EventWrappingSubsystem {
    typealias Commands = HabitCommands
    static func claim(_ action: Action) -> HabitAction? { if case .habit(let a) = action { a } else { nil } }
    static func claim(_ event: EventKind) -> HabitEvent? { if case .habit(let e) = event { e } else { nil } }
    static func wrap(_ event: HabitEvent) -> EventKind { .habit(event) }

    static func run(_ action: HabitAction, in engine: inout Engine, at: Instant, commandID: String) throws(DomainError) {
        try engine.runHabit(action, at: at, commandID: commandID)
    }

    static func apply(_ event: HabitEvent, to engine: inout Engine, at: Instant) { engine.applyHabit(event, at: at) }

    static func closeDay(_ day: Int, boundary: Instant, in engine: inout Engine) {
        engine.closeDayHabits(day: day, boundary: boundary)
    }

    static func nextWakeup(of engine: Engine) -> Instant? { engine.nextHabitWakeup() }

    static func fire(due: Instant, at: Instant, upTo: Instant, in engine: inout Engine) {
        engine.fireHabit(at: at, due: due, upTo: upTo)
    }
}

extension Engine {
    // MARK: - Commands

    mutating func runHabit(_ a: HabitAction, at: Instant, commandID: String) throws(DomainError) {
        let today = state.openDay
        switch a {
        case let .add(id, text, reminder):
            let hid = id ?? commandID
            try HabitRules.validateID(hid)
            guard state.habits.habits[hid] == nil, state.habits.archived[hid] == nil else {
                throw .alreadyExists(kind: "habit", id: hid)
            }
            guard state.habits.order.count < HabitRules.maxActive else {
                throw .limitReached(what: "active habits", limit: HabitRules.maxActive)
            }
            let t = try HabitRules.validateText(text)
            if let m = reminder { try HabitRules.validateMinute(m, field: "reminder") }
            let local = state.clock.local(at)
            // Near the end of time the 14 days would pass the latest valid instant, which replay
            // refuses: the habit becomes editable at the latest instant instead (docs/domain.md).
            let editable = min(state.clock.instant(LocalDateTime(date: local.date.adding(days: HabitRules.editDelayDays),
                                                                 secondOfDay: local.secondOfDay)), TimeRange.latest)
            let habit = Habit(id: hid, text: t, createdAt: at, editableFrom: editable,
                              reminderMinute: reminder, reminderOn: reminder != nil)
            emit(.habit(.added(habit, answers: state.habits.course?.pendingPrompt(.habit))), at: at)

        case let .edit(id, text):
            let h = try activeHabit(id)
            guard at >= h.editableFrom else {
                throw .invalidState(kind: "habit", id: id,
                                    reason: "can be edited from \(state.clock.local(h.editableFrom)) (14 days after it was created)")
            }
            let t = try HabitRules.validateText(text)
            emit(.habit(.edited(id: id, text: t)), at: at)

        case let .setReminder(id, change):
            let h = try activeHabit(id)
            switch change {
            case .at(let m):
                try HabitRules.validateMinute(m, field: "at")
                emit(.habit(.reminderSet(id: id, minute: m, on: true)), at: at)
            case .on:
                guard let m = h.reminderMinute else {
                    throw .invalidField(field: "at", reason: "the habit has no reminder time yet: give one as HH:MM")
                }
                emit(.habit(.reminderSet(id: id, minute: m, on: true)), at: at)
            case .off:
                emit(.habit(.reminderSet(id: id, minute: h.reminderMinute, on: false)), at: at)
            }

        case .remove(let id):
            _ = try activeHabit(id)
            emit(.habit(.removed(id: id)), at: at)

        case .check(let item):
            try validateBox(item, day: today)
            guard !state.checkedToday.contains(item) else {
                throw .invalidState(kind: "habit", id: item, reason: "is already checked today")
            }
            emit(.habit(.checked(item: item, day: today)), at: at)

        case .uncheck(let item):
            if item != HabitRules.movement && item != HabitRules.observation { _ = try activeHabit(item) }
            guard state.checkedToday.contains(item) else {
                throw .invalidState(kind: "habit", id: item, reason: "is not checked today")
            }
            emit(.habit(.unchecked(item: item, day: today)), at: at)

        case .setCheckin(let minute):
            if let m = minute { try HabitRules.validateMinute(m, field: "at") }
            emit(.habit(.checkinSet(minute: minute)), at: at)

        case .startCourse(let outline):
            try CourseRules.validate(outline)
            if let c = state.habits.course, !c.finished {
                throw .invalidState(kind: "course", id: c.outline.pack, reason: "is still running: finish or stop it first")
            }
            emit(.habit(.courseStarted(outline, day: today)), at: at)
            unlockNextLesson(day: today, at: at)

        case .readLesson(let id):
            guard let c = state.habits.course else { throw .invalidState(kind: "course", id: "-", reason: "is not started") }
            guard let lesson = c.lesson(id) else { throw .notFound(kind: "lesson", id: id) }
            switch c.status(id) {
            case .read: throw .invalidState(kind: "lesson", id: id, reason: "is already read")
            case .locked:
                let starts = c.weekStart(lesson.week)
                if starts > today {
                    throw .invalidState(kind: "lesson", id: id,
                                        reason: "is locked until week \(lesson.week) starts on \(state.clock.date(ofDay: starts))")
                }
                throw .invalidState(kind: "lesson", id: id, reason: "is locked until the previous lesson is read")
            case .unlocked: break
            }
            emit(.habit(.lessonRead(lesson: id, prompt: lesson.prompt)), at: at)
            unlockNextLesson(day: today, at: at)

        case .setSelfImage(let raw):
            let t = raw.trimmingSpaces
            guard HabitRules.selfImageLength.contains(t.count) else {
                throw .invalidField(field: "text", reason: "the self-image goal is at most \(HabitRules.selfImageLength.upperBound) characters (got \(t.count))")
            }
            guard !t.contains(where: { $0.isNewline }) else { throw .invalidField(field: "text", reason: "must be a single line") }
            let answers = t.isEmpty ? nil : state.habits.course?.pendingPrompt(.selfImage)
            emit(.habit(.selfImageSet(text: t, answers: answers)), at: at)

        case .stopCourse:
            guard let c = state.habits.course else { throw .invalidState(kind: "course", id: "-", reason: "is not started") }
            emit(.habit(.courseStopped(pack: c.outline.pack)), at: at)
        }
    }

    private func activeHabit(_ id: String) throws(DomainError) -> Habit {
        guard let h = state.habits.habits[id] else { throw .notFound(kind: "habit", id: id) }
        return h
    }

    /// A box that can be checked on `day`: movement always; observation only in a training week;
    /// a habit when active and not in a training week.
    private func validateBox(_ item: String, day: Int) throws(DomainError) {
        if item == HabitRules.movement { return }
        let training = state.isTrainingDay(day)
        if item == HabitRules.observation {
            guard training else {
                throw .invalidState(kind: "habit", id: item, reason: "is only on the checklist in a course's training week")
            }
            return
        }
        _ = try activeHabit(item)
        guard !training else {
            throw .invalidState(kind: "habit", id: item, reason: "is not on the checklist in the course's training week (observe only)")
        }
    }

    /// Emits `course.unlocked` for the next unread lesson if its week has started by `day`.
    private mutating func unlockNextLesson(day: Int, at: Instant) {
        guard let c = state.habits.course, let next = c.nextLesson, !c.unlocked.contains(next.id),
              c.weekStart(next.week) <= day else { return }
        emit(.habit(.lessonUnlocked(lesson: next.id)), at: at)
    }

    // MARK: - Fold

    mutating func applyHabit(_ e: HabitEvent, at: Instant) {
        switch e {
        case let .added(h, answers):
            state.habits.habits[h.id] = h
            state.habits.order.append(h.id)
            if let l = answers { state.habits.course?.pendingPrompts.removeAll { $0 == l } }
        case let .edited(id, text):
            state.habits.habits[id]?.text = text
        case let .reminderSet(id, minute, on):
            state.habits.habits[id]?.reminderMinute = minute
            state.habits.habits[id]?.reminderOn = on
        case .removed(let id):
            if state.habits.habits.removeValue(forKey: id) != nil {
                state.habits.archived[id] = at
                if state.habits.archived.count > HabitRules.maxArchived,
                   let oldest = state.habits.archived.min(by: { ($0.value, $0.key) < ($1.value, $1.key) })?.key {
                    state.habits.archived[oldest] = nil
                }
            }
            state.habits.order.removeAll { $0 == id }
            state.habits.checks.remove(id)
            state.habits.checkedDays?[id] = nil
        case let .checked(item, day):
            if state.habits.checksDay != day { state.habits.checks = []; state.habits.checksDay = day }
            state.habits.checks.insert(item)
        case let .unchecked(item, day):
            if state.habits.checksDay == day { state.habits.checks.remove(item) }
        case .dayScored(let s):
            state.habits.counter = s.counter
            state.habits.lastScore = s
            if state.habits.checksDay == s.day {
                var kept = state.habits.checkedDays ?? [:]
                for id in state.habits.checks where state.habits.habits[id] != nil && kept[id]?.last != s.day {
                    kept[id, default: []].append(s.day)
                }
                for (id, days) in kept { kept[id] = days.filter { $0 > s.day - HabitRules.keptCheckDays } }
                kept = kept.filter { !$0.value.isEmpty }
                state.habits.checkedDays = kept.isEmpty ? nil : kept
            }
            if state.habits.checksDay <= s.day { state.habits.checks = []; state.habits.checksDay = s.day + 1 }
            state.stats.update(s.day) { $0.habitScore = s.points }
        case .editUnlocked(let id):
            state.habits.habits[id]?.unlockAnnounced = true
        case .checkinSet(let m):
            state.habits.checkinMinute = m
        case let .courseStarted(outline, day):
            state.habits.course = CourseProgress(outline: outline, startDay: day)
        case .lessonUnlocked(let l):
            if state.habits.course?.unlocked.contains(l) == false { state.habits.course?.unlocked.append(l) }
        case let .lessonRead(l, prompt):
            if state.habits.course?.read.contains(l) == false { state.habits.course?.read.append(l) }
            if prompt != nil { state.habits.course?.pendingPrompts.append(l) }
        case let .selfImageSet(text, answers):
            state.habits.selfImage = text.isEmpty ? nil : text
            if let l = answers { state.habits.course?.pendingPrompts.removeAll { $0 == l } }
        case .courseStopped:
            state.habits.course = nil
        }
    }

    // MARK: - Day close

    mutating func closeDayHabits(day: Int, boundary: Instant) {
        // Score the day once: when it had a checklist or anything was checked.
        let checks = state.habits.checksDay == day ? state.habits.checks : []
        if !state.checklistBoxes(day: day).isEmpty || !checks.isEmpty {
            let score = state.habitScore(day: day, checks: checks, paused: state.paused)
            let before = state.level
            emit(.habit(.dayScored(score)), at: boundary)
            celebrateLevels(from: before, at: boundary)
        }
        // Announce, once, each habit whose text has become editable.
        var announced = false
        for h in state.habits.active where !h.unlockAnnounced && h.editableFrom <= boundary {
            emit(.habit(.editUnlocked(id: h.id)), at: boundary)
            announced = true
        }
        if announced { say(.habitUnlock, at: boundary) }
        // A new course week may unlock the next lesson.
        unlockNextLesson(day: day + 1, at: boundary)
    }

    /// Whether every habit on `day`'s checklist (or the training week's observation box) was
    /// checked (nil: no checklist that day). Counts in the daily streak like a due item (docs/domain.md#streak-and-badges:
    /// "every due task and every habit"). The movement box is not a habit: it only multiplies the
    /// day's score and is needed for the streak *bonus* (docs/habits.md), never for the daily streak.
    func habitDayComplete(day: Int) -> Bool? {
        guard let s = state.habits.lastScore, s.day == day, s.boxes > 0 else { return nil }
        return s.checked >= s.boxes
    }

    // MARK: - Reminders

    /// Habit reminders and the evening check-in still to fire in the open day, earliest first.
    /// Nothing fires while paused; a time already past when it became relevant (set later, habit
    /// unchecked later, resumed later) is not offered.
    private func habitReminders() -> [Reminder] {
        guard !state.paused else { return [] }
        let day = state.openDay
        var out: [Reminder] = []
        let checks = state.checkedToday
        if !state.isTrainingDay(day) {
            for h in state.habits.active where h.reminderOn && !checks.contains(h.id) {
                guard let m = h.reminderMinute else { continue }
                let due = state.instant(minute: m, inDay: day)
                out.append(Reminder(id: "habit:\(h.id):\(day)", source: .habit, ref: h.id, due: due, solicited: true))
            }
        }
        if let m = state.habits.checkinMinute, !state.checklistBoxes(day: day).isEmpty, !state.checklistComplete {
            let due = state.instant(minute: m, inDay: day)
            out.append(Reminder(id: "checkin:\(day)", source: .checkin, ref: "checklist", due: due, solicited: false))
        }
        return out.filter { $0.due >= state.now && state.reminders.fired[$0.id] == nil }
    }

    func nextHabitWakeup() -> Instant? { habitReminders().map(\.due).min() }

    mutating func fireHabit(at: Instant, due: Instant, upTo t: Instant) {
        for n in habitReminders() where n.due == due { notify(n, at: at, upTo: t) }
    }
}
