/// Task (to-do) model and its validation rules (docs/domain.md#tasks).

public enum Priority: String, Codable, Sendable, CaseIterable, Comparable {
    case low, normal, high
    /// Base coins of a completion (docs/domain.md#rewards-xp-levels).
    public var baseCoins: Int {
        switch self { case .low: 5; case .normal: 10; case .high: 20 }
    }
    var rank: Int { switch self { case .low: 0; case .normal: 1; case .high: 2 } }
    public static func < (a: Priority, b: Priority) -> Bool { a.rank < b.rank }
}

public enum TaskState: String, Codable, Sendable, CaseIterable {
    case pending
    case inProgress = "in_progress"
    case completed
    case missed
}

/// How a task repeats. Occurrences keep the due time of day in the owner's zone.
public struct Recurrence: Codable, Sendable, Hashable, CustomStringConvertible {
    public enum Rule: Codable, Sendable, Hashable {
        case daily
        /// Weekdays 0 = Sunday ... 6 = Saturday, sorted, non-empty.
        case weekdays([Int])
        /// Every N days, N in 2...365 (N = 1 is `daily`).
        case everyNDays(Int)
    }
    public var rule: Rule
    /// Last date an occurrence may fall on (inclusive).
    public var until: CivilDate?

    public init(rule: Rule, until: CivilDate? = nil) {
        self.rule = rule
        self.until = until
    }

    static let weekdayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    static let fullWeekdayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// Parses `daily`, `weekdays:mon,wed,fri` (or `weekly:...`), `every:3` / `every:3d`.
    public static func parse(_ text: String) throws(DomainError) -> Rule {
        let s = text.lowercased()
        if s == "daily" || s == "every:1" { return .daily }
        if s.hasPrefix("weekdays:") || s.hasPrefix("weekly:") {
            // Everything after the first ':' (may be empty: "weekdays:" is refused below, not a crash).
            let list = s.drop(while: { $0 != ":" }).dropFirst()
            var days: [Int] = []
            for part in list.split(separator: ",") {
                let name = String(part)
                guard let i = weekdayNames.firstIndex(of: name) ?? fullWeekdayNames.firstIndex(of: name) else {
                    throw .invalidField(field: "recurrence", reason: "unknown weekday '\(part)' (use sun,mon,tue,wed,thu,fri,sat)")
                }
                if !days.contains(i) { days.append(i) }
            }
            guard !days.isEmpty else { throw .invalidField(field: "recurrence", reason: "choose at least one weekday") }
            return .weekdays(days.sorted())
        }
        if s.hasPrefix("every:") {
            var n = String(s.dropFirst(6))
            if n.hasSuffix("d") { n.removeLast() }
            guard let k = Int(n), TaskRules.everyNDays.contains(k) else {
                throw .invalidField(field: "recurrence", reason: "every N days needs N in \(TaskRules.everyNDays.text)")
            }
            return k == 1 ? .daily : .everyNDays(k)
        }
        throw .invalidField(field: "recurrence", reason: "use daily, weekdays:mon,wed or every:N")
    }

    public var description: String {
        switch rule {
        case .daily: return "daily"
        case .weekdays(let d): return "weekdays:" + d.map { Recurrence.weekdayNames[$0] }.joined(separator: ",")
        case .everyNDays(let n): return "every:\(n)"
        }
    }

    /// The next occurrence date strictly after `date`, or nil past `until`.
    public func nextDate(after date: CivilDate) -> CivilDate? {
        let next: CivilDate
        switch rule {
        case .daily: next = date.adding(days: 1)
        case .everyNDays(let n): next = date.adding(days: n)
        case .weekdays(let days):
            var d = date.adding(days: 1)
            var guardCount = 0
            while !days.contains(d.weekday) && guardCount < 7 { d = d.adding(days: 1); guardCount += 1 }
            next = d
        }
        if let until, next > until { return nil }
        return next
    }
}

/// A to-do.
public struct TaskItem: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    public var notes: String
    public var category: String
    public var project: String?
    public var priority: Priority
    public var start: Instant
    public var due: Instant?
    /// Minutes, 1...1440.
    public var estimate: Int?
    public var recurrence: Recurrence?
    /// Reminder instants (0...5).
    public var reminders: [Instant]
    /// Indexes into `reminders` that were silenced or have already fired.
    public var remindersDone: [Int]
    public var state: TaskState
    public var createdAt: Instant
    public var completedAt: Instant?
    /// The reward the completion earned, kept so un-complete reverses it exactly.
    public var reward: Reward?
    /// The day it was marked missed.
    public var missedDay: Int?
    /// The first task of a recurring series (its own id when not recurring).
    public var seriesID: String
    /// 0 for the first occurrence.
    public var occurrence: Int
    /// Id of the occurrence this one spawned (recurring tasks), so un-complete can take it back.
    public var spawnedID: String?
    /// The occurrence that spawned this one.
    public var spawnedFrom: String?
    /// The day it fell due while paused (neither done nor missed).
    public var excusedDay: Int?
    /// The owner's wall-clock time of day of this occurrence's due (its start when undated), in
    /// seconds since local midnight, as planned. It differs from the due's local time only when the
    /// planned time fell inside a DST gap (02:30 planned, due at 03:30): the next occurrence is
    /// planned at 02:30 again. nil in journals written before it existed (the due's local time is used).
    public var plannedSecondOfDay: Int?

    public var isOpen: Bool { state == .pending || state == .inProgress }
}

/// Limits of docs/domain.md#tasks.
public enum TaskRules {
    public static let titleLength = 1...100
    public static let notesMax = 500
    /// Text counts bytes too (docs/domain.md, "Text"): one letter with thousands of combining
    /// marks is one character but not few bytes. At most 4 bytes of UTF-8 per character allowed.
    public static let titleMaxBytes = 400
    public static let notesMaxBytes = 2_000
    public static let categoryNameMaxBytes = 96
    public static let estimateRange = 1...1440
    /// "every N days": N's range.
    public static let everyNDays = 1...365
    /// A project name's length.
    public static let projectLength = 1...40
    public static let maxReminders = 5
    public static let maxCategories = 32
    /// Open (pending or in progress) tasks at once: creating or duplicating one more is refused
    /// with `limitReached` (docs/reliability.md, "Live items"), so no phone can fill the device's
    /// memory. A recurring task's next occurrence replaces the one finished and is never refused.
    public static let maxOpen = 2000
    public static let categoryNameLength = 1...24
    public static let defaultCategories = ["Home", "Study", "Work", "Exercise", "Personal", "Other"]
    public static let fallbackCategory = "Other"
    public static let idLength = 1...64

    static func validateID(_ id: String, field: String) throws(DomainError) {
        guard TaskRules.idLength.contains(id.count) else {
            throw .invalidField(field: field, reason: "must be \(TaskRules.idLength.text) characters")
        }
        for u in id.unicodeScalars where !(u.properties.isAlphabetic || ("0"..."9").contains(u) || "-_.:#".unicodeScalars.contains(u)) || u.value > 0x7E {
            throw .invalidField(field: field, reason: "may only use ASCII letters, digits and - _ . : #")
        }
    }

    static func validateTitle(_ t: String) throws(DomainError) {
        let trimmed = t.trimmingSpaces
        guard titleLength.contains(trimmed.count) else {
            throw .invalidField(field: "title", reason: "must be \(titleLength.text) characters (got \(trimmed.count))")
        }
        if t.contains(where: { $0.isNewline }) {
            throw .invalidField(field: "title", reason: "must be a single line")
        }
        try validateBytes(t, field: "title", max: titleMaxBytes)
    }

    /// At most `max` bytes of UTF-8 in `text`.
    static func validateBytes(_ text: String, field: String, max: Int) throws(DomainError) {
        let n = text.utf8.count
        guard n <= max else { throw .invalidField(field: field, reason: "must be at most \(max) bytes of UTF-8 (got \(n))") }
    }

    static func validateNotes(_ n: String) throws(DomainError) {
        guard n.count <= notesMax else {
            throw .invalidField(field: "notes", reason: "must be at most \(notesMax) characters (got \(n.count))")
        }
        try validateBytes(n, field: "notes", max: notesMaxBytes)
    }

    static func validateEstimate(_ e: Int?) throws(DomainError) {
        if let e, !estimateRange.contains(e) {
            throw .invalidField(field: "estimate", reason: "must be \(estimateRange.text) minutes (got \(e))")
        }
    }

    static func validateTimes(start: Instant, due: Instant?) throws(DomainError) {
        if let due, due < start {
            throw .invalidField(field: "due", reason: "must not be before start")
        }
    }

    /// Every reminder must be in the future at the moment it is set.
    static func validateReminders(_ r: [Instant], now: Instant, previous: [Instant] = []) throws(DomainError) {
        guard r.count <= maxReminders else {
            throw .invalidField(field: "reminders", reason: "at most \(maxReminders) reminders (got \(r.count))")
        }
        for (i, t) in r.enumerated() where t <= now && !previous.contains(t) {
            throw .invalidField(field: "reminders[\(i)]", reason: "must be in the future")
        }
    }

    static func validateCategoryName(_ n: String) throws(DomainError) {
        let t = n.trimmingSpaces
        guard categoryNameLength.contains(t.count) else {
            throw .invalidField(field: "category", reason: "name must be \(categoryNameLength.text) characters (got \(t.count))")
        }
        try validateBytes(t, field: "category", max: categoryNameMaxBytes)
    }
}

extension String {
    /// Leading/trailing whitespace removed (no Foundation needed).
    public var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}

/// Sort order of docs/domain.md#tasks: due time (undated last), then priority (high first), then creation.
public func taskOrder(_ a: TaskItem, _ b: TaskItem) -> Bool {
    switch (a.due, b.due) {
    case let (x?, y?) where x != y: return x < y
    case (.some, nil): return true
    case (nil, .some): return false
    default: break
    }
    if a.priority != b.priority { return a.priority > b.priority }
    if a.createdAt != b.createdAt { return a.createdAt < b.createdAt }
    return a.id < b.id
}

/// A filter for task lists.
public struct TaskFilter: Sendable, Equatable {
    public var category: String?
    public var project: String?
    public var state: TaskState?
    public init(category: String? = nil, project: String? = nil, state: TaskState? = nil) {
        self.category = category; self.project = project; self.state = state
    }
    public func matches(_ t: TaskItem) -> Bool {
        (category == nil || t.category == category) && (project == nil || t.project == project)
            && (state == nil || t.state == state)
    }
}

extension DayClock {
    /// The wall time an instant was planned at: `t`'s local date at `secondOfDay` when that wall
    /// time resolves to `t` in this zone (it lay inside a DST gap, or is `t`'s own local time),
    /// else `t`'s local time (the zone changed since, or no planned time is known).
    public func plannedLocal(_ t: Instant, secondOfDay: Int?) -> LocalDateTime {
        let local = self.local(t)
        guard let s = secondOfDay, (0..<86_400).contains(s), s != local.secondOfDay else { return local }
        let planned = LocalDateTime(date: local.date, secondOfDay: s)
        return instant(planned) == t ? planned : local
    }
}
