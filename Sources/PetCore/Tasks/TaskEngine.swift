/// Tasks as a subsystem (docs/domain.md#tasks, docs/domain.md#rewards-xp-levels, docs/domain.md#reminders-and-nudges): creating, editing, completing and un-completing
/// tasks and their rewards, categories, task reminders, and at each day close the overdue tasks
/// that become missed (and recurring tasks' next occurrences). Tasks predate the other
/// subsystems, so their commands and events are top-level `Action` / `EventKind` cases and their
/// state lives directly in `PetState` (`tasks`, `categories`); the journal names are unchanged.
/// The streak judgement that counts due tasks per day stays in the engine (`closeDay`).
enum TasksSubsystem: Subsystem {
    static func claim(_ action: Action) -> Action? {
        switch action {
        case .createTask, .editTask, .deleteTask, .duplicateTask, .startTask, .completeTask, .uncompleteTask,
             .silenceReminder, .addCategory, .renameCategory, .deleteCategory:
            action
        default: nil
        }
    }

    static func claim(_ event: EventKind) -> EventKind? {
        switch event {
        case .taskCreated, .taskEdited, .taskDeleted, .taskStarted, .taskCompleted, .taskUncompleted, .taskMissed,
             .taskExcused, .reminderDue, .reminderMissed, .reminderSilenced, .categoryAdded, .categoryRenamed,
             .categoryDeleted:
            event
        default: nil
        }
    }

    static func run(_ action: Action, in engine: inout Engine, at: Instant, commandID: String) throws(DomainError) {
        try engine.runTask(action, at: at, commandID: commandID)
    }

    static func apply(_ event: EventKind, to engine: inout Engine, at: Instant) { engine.applyTask(event, at: at) }

    static func closeDay(_ day: Int, boundary: Instant, in engine: inout Engine) {
        engine.closeDayTasks(day: day, boundary: boundary)
    }

    static func nextWakeup(of engine: Engine) -> Instant? { engine.nextReminder()?.at }

    static func fire(due: Instant, at: Instant, upTo: Instant, in engine: inout Engine) {
        engine.fireReminders(due: due, at: at, upTo: upTo)
    }
}

extension Engine {
    // MARK: - Commands

    mutating func runTask(_ action: Action, at: Instant, commandID: String) throws(DomainError) {
        switch action {
        case .createTask(let draft):
            let task = try makeTask(draft, defaultID: commandID, at: at)
            emit(.taskCreated(task), at: at)
        case let .editTask(id, patch):
            let old = try task(id)
            guard old.isOpen else {
                throw .invalidState(kind: "task", id: id, reason: "is \(old.state.rawValue); only open tasks can be edited")
            }
            emit(.taskEdited(try edited(old, patch, at: at)), at: at)
        case .deleteTask(let id):
            _ = try task(id)
            emit(.taskDeleted(id: id), at: at)
        case let .duplicateTask(id, newID):
            let old = try task(id)
            var draft = TaskDraft(id: newID ?? commandID, title: old.title)
            draft.notes = old.notes; draft.category = old.category; draft.project = old.project
            draft.priority = old.priority; draft.estimate = old.estimate; draft.recurrence = old.recurrence
            draft.start = max(old.start, at)
            draft.due = old.due.map { max($0, draft.start ?? at) }
            draft.reminders = old.reminders.filter { $0 > at }
            draft.plannedSecondOfDay = old.plannedSecondOfDay
            emit(.taskCreated(try makeTask(draft, defaultID: commandID, at: at)), at: at)
        case .startTask(let id):
            let t = try task(id)
            guard t.state == .pending else {
                throw .invalidState(kind: "task", id: id, reason: "is \(t.state.rawValue); only pending tasks can be started")
            }
            emit(.taskStarted(id: id), at: at)
        case .completeTask(let id):
            try complete(id, at: at)
        case .uncompleteTask(let id):
            let t = try task(id)
            guard t.state == .completed, let done = t.completedAt, let reward = t.reward else {
                throw .invalidState(kind: "task", id: id, reason: "is \(t.state.rawValue), not completed")
            }
            guard state.clock.day(of: done) == state.clock.day(of: at) else {
                throw .invalidState(kind: "task", id: id, reason: "can only be un-completed on the day it was completed")
            }
            guard state.coins >= reward.coins else {
                throw .insufficientCoins(needed: reward.coins, balance: state.coins)
            }
            emit(.taskUncompleted(id: id, reward: reward), at: at)
            // Take back the occurrence this completion spawned, if it is still untouched.
            if t.missedDay == nil, let child = t.spawnedID, let c = state.tasks[child], c.state == .pending {
                emit(.taskDeleted(id: child), at: at)
            }
        case let .silenceReminder(id, index):
            let t = try task(id)
            if let index {
                guard t.reminders.indices.contains(index) else {
                    throw .invalidField(field: "index", reason: "task '\(id)' has \(t.reminders.count) reminder(s)")
                }
                guard !t.remindersDone.contains(index) else {
                    throw .invalidState(kind: "reminder", id: "\(id)/\(index)", reason: "is already silenced or shown")
                }
                emit(.reminderSilenced(taskID: id, index: index), at: at)
            } else {
                let open = t.reminders.indices.filter { !t.remindersDone.contains($0) }
                guard !open.isEmpty else {
                    throw .invalidState(kind: "task", id: id, reason: "has no pending reminders")
                }
                for i in open { emit(.reminderSilenced(taskID: id, index: i), at: at) }
            }
        case .addCategory(let raw):
            let name = raw.trimmingSpaces
            try TaskRules.validateCategoryName(name)
            guard findCategory(name) == nil else { throw .alreadyExists(kind: "category", id: name) }
            guard state.categories.count < TaskRules.maxCategories else {
                throw .limitReached(what: "categories", limit: TaskRules.maxCategories)
            }
            emit(.categoryAdded(name: name), at: at)
        case let .renameCategory(name, raw):
            let to = raw.trimmingSpaces
            guard let existing = findCategory(name) else { throw .notFound(kind: "category", id: name) }
            guard existing != TaskRules.fallbackCategory else {
                throw .invalidState(kind: "category", id: existing, reason: "is the fallback category and cannot be renamed")
            }
            try TaskRules.validateCategoryName(to)
            if let clash = findCategory(to), clash != existing { throw .alreadyExists(kind: "category", id: clash) }
            emit(.categoryRenamed(name: existing, to: to), at: at)
        case .deleteCategory(let name):
            guard let existing = findCategory(name) else { throw .notFound(kind: "category", id: name) }
            guard existing != TaskRules.fallbackCategory else {
                throw .invalidState(kind: "category", id: existing, reason: "is the fallback category and cannot be deleted")
            }
            emit(.categoryDeleted(name: existing), at: at)
        default: break
        }
    }

    private func task(_ id: String) throws(DomainError) -> TaskItem {
        guard let t = state.tasks[id] else { throw .notFound(kind: "task", id: id) }
        return t
    }

    func findCategory(_ name: String) -> String? {
        let n = name.trimmingSpaces.lowercased()
        return state.categories.first { $0.lowercased() == n }
    }

    private func makeTask(_ d: TaskDraft, defaultID: String, at: Instant) throws(DomainError) -> TaskItem {
        let id = d.id ?? defaultID
        try TaskRules.validateID(id, field: "task id")
        guard state.tasks[id] == nil else { throw .alreadyExists(kind: "task", id: id) }
        guard state.tasks.values.lazy.filter(\.isOpen).count < TaskRules.maxOpen else {
            throw .limitReached(what: "open tasks", limit: TaskRules.maxOpen)
        }
        try TaskRules.validateTitle(d.title)
        try TaskRules.validateNotes(d.notes)
        let category: String
        if let c = d.category {
            guard let found = findCategory(c) else { throw .notFound(kind: "category", id: c) }
            category = found
        } else {
            category = TaskRules.fallbackCategory
        }
        if let p = d.project { try validateProject(p) }
        let start = d.start ?? at
        try TaskRules.validateTimes(start: start, due: d.due)
        try TaskRules.validateEstimate(d.estimate)
        try TaskRules.validateReminders(d.reminders, now: at)
        return TaskItem(id: id, title: d.title.trimmingSpaces, notes: d.notes, category: category, project: d.project,
                        priority: d.priority, start: start, due: d.due, estimate: d.estimate, recurrence: d.recurrence,
                        reminders: d.reminders, remindersDone: [], state: .pending, createdAt: at, completedAt: nil,
                        reward: nil, missedDay: nil, seriesID: id, occurrence: 0, spawnedID: nil, spawnedFrom: nil,
                        excusedDay: nil,
                        plannedSecondOfDay: state.clock.plannedLocal(d.due ?? start, secondOfDay: d.plannedSecondOfDay).secondOfDay)
    }

    private func validateProject(_ p: String) throws(DomainError) {
        guard TaskRules.projectLength.contains(p.trimmingSpaces.count) else {
            throw .invalidField(field: "project", reason: "must be \(TaskRules.projectLength.text) characters (got \(p.trimmingSpaces.count))")
        }
    }

    private func edited(_ old: TaskItem, _ p: TaskPatch, at: Instant) throws(DomainError) -> TaskItem {
        var t = old
        if let v = p.title { try TaskRules.validateTitle(v); t.title = v.trimmingSpaces }
        if let v = p.notes { try TaskRules.validateNotes(v); t.notes = v }
        if let v = p.category {
            guard let found = findCategory(v) else { throw .notFound(kind: "category", id: v) }
            t.category = found
        }
        if let v = p.project { try validateProject(v); t.project = v }
        if let v = p.priority { t.priority = v }
        if let v = p.start { t.start = v }
        if let v = p.due { t.due = v }
        if let v = p.estimate { t.estimate = v }
        if let v = p.recurrence { t.recurrence = v }
        for field in p.clear {
            switch field {
            case "due": t.due = nil
            case "project": t.project = nil
            case "estimate": t.estimate = nil
            case "recurrence": t.recurrence = nil
            case "reminders": t.reminders = []; t.remindersDone = []
            default: throw .invalidField(field: "clear", reason: "cannot clear '\(field)' (due, project, estimate, recurrence, reminders)")
            }
        }
        try TaskRules.validateTimes(start: t.start, due: t.due)
        try TaskRules.validateEstimate(t.estimate)
        if (t.due ?? t.start) != (old.due ?? old.start) {
            // The planned time comes from the field that sets the new due (or start when undated).
            let written = p.due != nil || t.due == nil ? p.plannedSecondOfDay : nil
            t.plannedSecondOfDay = state.clock.plannedLocal(t.due ?? t.start, secondOfDay: written).secondOfDay
        }
        if let r = p.reminders {
            try TaskRules.validateReminders(r, now: at, previous: old.reminders)
            // A reminder kept at the same instant keeps its done/silenced mark.
            t.reminders = r
            t.remindersDone = r.indices.filter { i in
                old.reminders.indices.contains { j in old.reminders[j] == r[i] && old.remindersDone.contains(j) }
            }
        }
        return t
    }

    private mutating func complete(_ id: String, at: Instant) throws(DomainError) {
        let t = try task(id)
        guard t.isOpen || t.state == .missed else {
            throw .invalidState(kind: "task", id: id, reason: "is already completed")
        }
        let timing: Timing = t.state == .missed ? .late : RewardRules.timing(done: at, due: t.due)
        let reward = RewardRules.taskReward(priority: t.priority, timing: timing, recurring: t.recurrence != nil,
                                            estimateMinutes: t.estimate)
        let before = state.level
        emit(.taskCompleted(id: id, timing: timing, reward: reward), at: at)
        if t.recurrence != nil, t.spawnedID == nil { spawnNext(after: t, at: at) }
        let after = state.level
        if after > before { for l in (before + 1)...after { emit(.levelReached(level: l), at: at) } }
        awardBadges(at: at)
        say(after > before ? .levelUp : .taskDone, at: at)
    }

    /// Creates the next occurrence of a recurring task: the planned local time of day (the owner's
    /// wall-clock time, not the one a DST gap moved it to), next date of the rule after the current
    /// occurrence's date; start and reminders keep their distance to it. Each occurrence resolves
    /// its own gap or overlap (gap: moved forward; overlap: the earlier instant).
    private mutating func spawnNext(after t: TaskItem, at: Instant) {
        guard let rec = t.recurrence else { return }
        let base = t.due ?? t.start
        let local = state.clock.plannedLocal(base, secondOfDay: t.plannedSecondOfDay)
        // The first date of the rule after this occurrence's date whose due time is still ahead
        // (a task planned in the past does not spawn occurrences that are already over).
        guard var date = rec.nextDate(after: local.date) else { return }
        // Far behind (a long catch-up): leap whole periods of the rule (1, N or 7 days) to just
        // before `at`; the same date the step-by-step search below would reach, found quickly.
        let period = rec.rule.periodDays
        let gap = state.clock.local(at).date.dayNumber - date.dayNumber
        if gap > 2 * period {
            let leapt = date.adding(days: (gap / period - 1) * period)
            if rec.until.map({ leapt <= $0 }) ?? true { date = leapt }
        }
        var next = state.clock.instant(LocalDateTime(date: date, secondOfDay: local.secondOfDay))
        var steps = 0
        while next <= at && steps < 100_000 {
            guard let d = rec.nextDate(after: date) else { return }
            date = d
            next = state.clock.instant(LocalDateTime(date: date, secondOfDay: local.secondOfDay))
            steps += 1
        }
        let delta = next - base
        var child = t
        child.id = "\(t.seriesID)#\(t.occurrence + 1)"
        if state.tasks[child.id] != nil { child.id += ".\(state.eventCount)" }
        child.occurrence = t.occurrence + 1
        child.start = t.start + delta
        child.due = t.due.map { $0 + delta }
        child.reminders = t.reminders.map { $0 + delta }
        child.remindersDone = child.reminders.indices.filter { child.reminders[$0] <= at }
        child.state = .pending
        child.createdAt = at
        child.completedAt = nil
        child.reward = nil
        child.missedDay = nil
        child.excusedDay = nil
        child.spawnedID = nil
        child.spawnedFrom = t.id
        child.plannedSecondOfDay = local.secondOfDay
        // An occurrence (its start, due time or a reminder) after the latest valid instant would
        // poison the journal (replay refuses it): the series ends instead (docs/domain.md).
        guard TimeRange.contains(child.start), child.due.map(TimeRange.contains) ?? true,
              child.reminders.allSatisfy(TimeRange.contains) else { return }
        emit(.taskCreated(child), at: at)
    }

    // MARK: - Fold

    mutating func applyTask(_ kind: EventKind, at: Instant) {
        let day = state.clock.day(of: at)
        switch kind {
        case .taskCreated(let t):
            state.tasks[t.id] = t
            state.stats.update(day) { $0.tasksCreated += 1 }
            if let p = t.spawnedFrom { state.tasks[p]?.spawnedID = t.id }
        case .taskEdited(let t):
            state.tasks[t.id] = t
        case .taskDeleted(let id):
            if let p = state.tasks[id]?.spawnedFrom, state.tasks[p]?.spawnedID == id { state.tasks[p]?.spawnedID = nil }
            state.tasks[id] = nil
        case .taskStarted(let id):
            state.tasks[id]?.state = .inProgress
        case let .taskCompleted(id, _, reward):
            state.stats.update(day) { $0.coinsEarned += reward.coins }
            state.tasks[id]?.state = .completed
            state.tasks[id]?.completedAt = at
            state.tasks[id]?.reward = reward
            state.coins = state.coins.saturatingAdded(reward.coins)
            state.coinsEarned = state.coinsEarned.saturatingAdded(reward.coins)
            state.xp = state.xp.saturatingAdded(reward.xp)
            state.tasksCompleted += 1
            state.tally[day, default: DayTally()].done += 1
            let created = state.tasks[id]?.createdAt ?? at
            state.stats.update(day) { $0.tasksDone += 1; $0.completions += 1; $0.completionSeconds += at - created }
            state.lastCelebration = at
        case let .taskUncompleted(id, reward):
            let earnedDay = state.tasks[id]?.completedAt.map { state.clock.day(of: $0) } ?? day
            state.stats.update(earnedDay) { $0.coinsEarned -= reward.coins }
            if let t = state.tasks[id] {
                state.tasks[id]?.state = t.missedDay != nil ? .missed : .pending
                state.tasks[id]?.completedAt = nil
                state.tasks[id]?.reward = nil
                if let done = t.completedAt {
                    let d = state.clock.day(of: done)
                    state.tally[d, default: DayTally()].done -= 1
                    state.stats.update(d) { $0.tasksDone -= 1; $0.completions -= 1; $0.completionSeconds -= done - t.createdAt }
                }
            }
            state.coins = state.coins.saturatingSubtracted(reward.coins)
            state.coinsEarned = state.coinsEarned.saturatingSubtracted(reward.coins)
            state.xp = state.xp.saturatingSubtracted(reward.xp)
            state.tasksCompleted -= 1
        case let .taskMissed(id, d):
            state.tasks[id]?.state = .missed
            state.tasks[id]?.missedDay = d
            state.tally[d, default: DayTally()].missed += 1
            state.stats.update(d) { $0.tasksMissed += 1 }
        case let .taskExcused(id, d):
            // A skipped occurrence of a recurring task leaves the list (its next one is already
            // spawned); a one-off task stays open, neither done nor missed.
            if state.tasks[id]?.recurrence != nil { state.tasks[id] = nil } else { state.tasks[id]?.excusedDay = d }
        case let .reminderDue(id, i), let .reminderMissed(id, i):
            var missed = false
            if case .reminderMissed = kind { missed = true; state.remindersMissed += 1 }
            markReminder(id, i)
            let due = state.tasks[id]?.reminders[safe: i] ?? at
            state.lastReminder = TaskReminderFired(taskID: id, index: i, at: due, missed: missed)
            queueForPhone(Reminder(id: "task:\(id):\(i)", source: .task, ref: id, due: due, solicited: true), shown: !missed)
        case let .reminderSilenced(id, i):
            markReminder(id, i)
        case .categoryAdded(let n):
            state.categories.append(n)
        case let .categoryRenamed(n, to):
            if let i = state.categories.firstIndex(of: n) { state.categories[i] = to }
            for (k, t) in state.tasks where t.category == n { state.tasks[k]?.category = to }
        case .categoryDeleted(let n):
            state.categories.removeAll { $0 == n }
            for (k, t) in state.tasks where t.category == n { state.tasks[k]?.category = TaskRules.fallbackCategory }
        default: break
        }
    }

    private mutating func markReminder(_ id: String, _ i: Int) {
        guard var t = state.tasks[id], !t.remindersDone.contains(i) else { return }
        t.remindersDone.append(i)
        t.remindersDone.sort()
        state.tasks[id] = t
    }

    // MARK: - Time

    /// Overdue open tasks become missed (excused while paused), once; a recurring one first
    /// spawns its next occurrence.
    mutating func closeDayTasks(day: Int, boundary: Instant) {
        let overdue = state.tasks.values
            .filter { $0.isOpen && $0.missedDay == nil && $0.excusedDay == nil && ($0.due.map { $0 < boundary } ?? false) }
            .sorted(by: taskOrder)
        for t in overdue {
            // A recurring task's next occurrence comes first (once), then the verdict on this one.
            if t.recurrence != nil, t.spawnedID == nil { spawnNext(after: t, at: boundary) }
            if state.paused {
                emit(.taskExcused(id: t.id, day: day), at: boundary)
            } else {
                emit(.taskMissed(id: t.id, day: day), at: boundary)
            }
        }
    }

    /// Every task reminder due at `due`: shown (with a pet nudge) if the engine reached it within
    /// `Engine.reminderLateness` of `upTo`, otherwise reported once as missed.
    mutating func fireReminders(due: Instant, at: Instant, upTo t: Instant) {
        while let r = nextReminder(), r.at == due {
            if t - r.at <= Engine.reminderLateness {
                emit(.reminderDue(taskID: r.id, index: r.index), at: at)
                say(.nudge, at: at)
            } else {
                emit(.reminderMissed(taskID: r.id, index: r.index), at: at)
            }
        }
    }

    func nextReminder() -> (at: Instant, id: String, index: Int)? {
        var best: (at: Instant, id: String, index: Int)?
        for t in state.tasks.values where t.isOpen {
            for (i, r) in t.reminders.enumerated() where !t.remindersDone.contains(i) {
                if let b = best, (b.at, b.id, b.index) <= (r, t.id, i) { continue }
                best = (r, t.id, i)
            }
        }
        return best
    }

}

extension Recurrence.Rule {
    /// The rule's period in days: its dates repeat every this many days (a week for weekdays).
    var periodDays: Int {
        switch self {
        case .daily: 1
        case .everyNDays(let n): max(1, n)
        case .weekdays: 7
        }
    }
}
