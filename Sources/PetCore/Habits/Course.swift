/// The course (docs/habits.md): a content pack's outline — what the device needs of it: lesson ids, weeks,
/// order and prompts. The text lives in the pack and is shown by the phone; the device records the
/// outline in `course.started`, so replaying the journal never needs the pack file.

/// What a lesson asks for at its end.
public enum CoursePrompt: String, Codable, Sendable, CaseIterable {
    /// Set a habit (answered by the next `habit.add`).
    case habit
    /// Write the self-image goal (answered by the next `course.self-image`).
    case selfImage = "self-image"
}

public struct CourseLesson: Codable, Sendable, Equatable {
    public var id: String
    /// Week of the course, 0 = the training week.
    public var week: Int
    public var prompt: CoursePrompt?

    public init(id: String, week: Int, prompt: CoursePrompt? = nil) {
        self.id = id; self.week = week; self.prompt = prompt
    }
}

/// A course's outline: lessons in reading order (weeks ascending).
public struct CourseOutline: Codable, Sendable, Equatable {
    /// The pack's id and version.
    public var pack: String
    public var version: Int
    public var lessons: [CourseLesson]

    public init(pack: String, version: Int = 1, lessons: [CourseLesson]) {
        self.pack = pack; self.version = version; self.lessons = lessons
    }

    /// Parses the compact form used by flat command fields: `id@week[:prompt]`, comma-separated,
    /// e.g. `welcome@0,notice@0,first-habit@1:habit,mirror@2:self-image`.
    public static func parseLessons(_ text: String) throws(DomainError) -> [CourseLesson] {
        var out: [CourseLesson] = []
        for (i, raw) in text.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let part = String(raw).trimmingSpaces
            guard let at = part.lastIndex(of: "@") else {
                throw .invalidField(field: "lessons[\(i)]", reason: "must be id@week or id@week:prompt")
            }
            let id = String(part[..<at])
            let rest = part[part.index(after: at)...].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let w = rest.first, let week = Int(w) else {
                throw .invalidField(field: "lessons[\(i)]", reason: "week must be a whole number")
            }
            var prompt: CoursePrompt?
            if rest.count == 2 {
                guard let p = CoursePrompt(rawValue: String(rest[1])) else {
                    throw .invalidField(field: "lessons[\(i)]", reason: "prompt must be habit or self-image")
                }
                prompt = p
            }
            out.append(CourseLesson(id: id, week: week, prompt: prompt))
        }
        return out
    }
}

public enum CourseRules {
    public static let maxLessons = 200
    public static let weeks = 0...52

    /// Checks an outline: a valid pack id, 1–200 lessons with valid unique ids, weeks 0–52 in
    /// ascending order, and the first lesson in week 0 (the training week).
    public static func validate(_ o: CourseOutline) throws(DomainError) {
        try TaskRules.validateID(o.pack, field: "course")
        guard o.version >= 1 else { throw .invalidField(field: "version", reason: "must be 1 or more") }
        guard (1...maxLessons).contains(o.lessons.count) else {
            throw .invalidField(field: "lessons", reason: "a course has 1–\(maxLessons) lessons (got \(o.lessons.count))")
        }
        guard o.lessons[0].week == 0 else {
            throw .invalidField(field: "lessons[0]", reason: "the first lesson must be in week 0 (the training week)")
        }
        var seen: Set<String> = []
        var week = 0
        for (i, l) in o.lessons.enumerated() {
            try TaskRules.validateID(l.id, field: "lessons[\(i)].id")
            guard seen.insert(l.id).inserted else {
                throw .invalidField(field: "lessons[\(i)].id", reason: "'\(l.id)' is used twice")
            }
            guard weeks.contains(l.week) else { throw .invalidField(field: "lessons[\(i)].week", reason: "must be \(weeks.text)") }
            guard l.week >= week else {
                throw .invalidField(field: "lessons[\(i)].week", reason: "lessons must be in week order (week \(l.week) after week \(week))")
            }
            week = l.week
        }
    }
}

/// Where a lesson stands.
public enum LessonStatus: String, Sendable {
    case locked, unlocked, read
}

/// The running course: its outline, start day and the owner's progress.
public struct CourseProgress: Codable, Sendable, Equatable {
    public var outline: CourseOutline
    /// The day week 0 began (the day the course was started).
    public var startDay: Int
    /// Lessons read, in order.
    public var read: [String] = []
    /// Lessons unlocked (read ones included), in order.
    public var unlocked: [String] = []
    /// Read lessons whose prompt is not answered yet, oldest first.
    public var pendingPrompts: [String] = []

    public init(outline: CourseOutline, startDay: Int) {
        self.outline = outline; self.startDay = startDay
    }

    /// The first day of week `w`.
    public func weekStart(_ w: Int) -> Int { startDay + 7 * w }

    /// The course week `day` falls in (0 = training week).
    public func week(ofDay day: Int) -> Int { floorDiv(day - startDay, 7) }

    public func lesson(_ id: String) -> CourseLesson? { outline.lessons.first { $0.id == id } }

    /// The first lesson not read yet (nil: the course is finished).
    public var nextLesson: CourseLesson? { outline.lessons.first { !read.contains($0.id) } }

    public var finished: Bool { nextLesson == nil }

    public func status(_ id: String) -> LessonStatus {
        if read.contains(id) { return .read }
        return unlocked.contains(id) ? .unlocked : .locked
    }

    /// The oldest pending prompt of a kind.
    public func pendingPrompt(_ kind: CoursePrompt) -> String? {
        pendingPrompts.first { lesson($0)?.prompt == kind }
    }
}
