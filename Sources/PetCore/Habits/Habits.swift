/// Habits, the daily checklist, the 66-day course and the evening check-in (docs/habits.md, docs/domain.md#streak-and-badges, docs/domain.md#reminders-and-nudges).
///
/// - A habit is owner-typed text (1–140 characters) with an optional daily reminder time that can be
///   switched on and off. At most 12 are active; the text can be edited from 14 days after creation
///   (the pet announces it once, at the first day close after that instant); a habit can be removed
///   (archived: its id stays taken).
/// - The daily checklist is the active habits plus the fixed `movement` box (in a course's training
///   week: the single `observation` box instead of the habits). A check belongs to the day open when
///   it is made; the checklist resets when that day closes.
/// - At the day's close the day is scored once (`habit.day-scored`): points = round(10·n·(1+0.25·(n−1)))
///   for n boxes checked, ×1.5 with movement (at least 5), plus the streak-bonus counter on a complete
///   day. Points convert to coins 1:1 and to XP 2:1 (2 points = 1 XP, halves rounded up).
/// - Reminders: each habit's reminder time (solicited) while it is unchecked; the evening check-in
///   (default 20:30, unsolicited) while today's checklist is incomplete.
/// - The course: an outline (lesson ids, weeks, prompts) recorded in `course.started`; lessons unlock
///   when their week has started and the previous lesson was read.
///
/// Engine hooks are in HabitEngine.swift, the course types in Course.swift; docs/habits.md has the rules
/// and decisions.

// MARK: - Model

/// One habit the owner is building.
public struct Habit: Codable, Sendable, Equatable {
    public var id: String
    /// Owner-typed text (personal: never in logs or error messages).
    public var text: String
    public var createdAt: Instant
    /// From this instant the text can be edited (the same local time 14 calendar days later).
    public var editableFrom: Instant
    /// Daily reminder time, minute of the day (kept while switched off).
    public var reminderMinute: Int?
    public var reminderOn: Bool
    /// The pet has announced that the text can be edited now.
    public var unlockAnnounced: Bool

    public init(id: String, text: String, createdAt: Instant, editableFrom: Instant, reminderMinute: Int?,
                reminderOn: Bool, unlockAnnounced: Bool = false) {
        self.id = id; self.text = text; self.createdAt = createdAt; self.editableFrom = editableFrom
        self.reminderMinute = reminderMinute; self.reminderOn = reminderOn; self.unlockAnnounced = unlockAnnounced
    }
}

/// The result of one closed day's checklist (carried in `habit.day-scored`, so replay never recomputes).
public struct HabitDayScore: Codable, Sendable, Equatable {
    public var day: Int
    /// Boxes on the checklist besides movement: the active habits, or 1 (observation) in a training week.
    public var boxes: Int
    /// How many of those were checked.
    public var checked: Int
    public var movement: Bool
    public var paused: Bool
    /// Every box and movement checked (nil: the day had no checklist — no habits, no training week).
    public var complete: Bool?
    /// Points before the bonus, the streak bonus added, and the bonus counter after this day.
    public var base: Int
    public var bonus: Int
    public var counter: Int
    /// The day's score (base + bonus) = coins; XP = score / 2 rounded half up.
    public var points: Int
    public var xp: Int

    public init(day: Int, boxes: Int, checked: Int, movement: Bool, paused: Bool, complete: Bool?, base: Int,
                bonus: Int, counter: Int, points: Int, xp: Int) {
        self.day = day; self.boxes = boxes; self.checked = checked; self.movement = movement; self.paused = paused
        self.complete = complete; self.base = base; self.bonus = bonus; self.counter = counter
        self.points = points; self.xp = xp
    }
}

/// How `habit.reminder` changes a reminder.
public enum HabitReminderChange: Sendable, Equatable {
    /// Set the time (minute of the day) and switch it on.
    case at(Int)
    /// Switch the stored time back on.
    case on
    case off
}

public enum HabitRules {
    public static let maxActive = 12
    /// Days of each habit's checks kept (`HabitState.checkedDays`): a week and then some.
    public static let keptCheckDays = 14
    /// Removed habits whose ids stay taken (the oldest removal is forgotten beyond this).
    public static let maxArchived = 256
    public static let textLength = 1...140
    /// At most 4 bytes of UTF-8 per character allowed (docs/domain.md, "Text").
    public static let textMaxBytes = 560
    public static let selfImageLength = 0...140
    /// Days after creation from which a habit's text can be edited.
    public static let editDelayDays = 14
    public static let movement = "movement"
    public static let observation = "observation"
    public static let defaultCheckinMinute = 20 * 60 + 30
    /// At least this many points when only the movement box is checked.
    public static let movementMinimum = 5

    /// 10 × n × (1 + 0.25 × (n − 1)) = 5·n·(n+3)/2 — always a whole number (n·(n+3) is even).
    public static func basePoints(checked n: Int) -> Int {
        guard n > 0 else { return 0 }
        return 5 * n * (n + 3) / 2
    }

    /// The day's points before the streak bonus: base, ×1.5 with movement rounded half up
    /// (15·n·(n+3)/4 is a whole or a half), at least 5 when movement is checked.
    public static func dayPoints(checked n: Int, movement: Bool) -> Int {
        guard movement else { return basePoints(checked: n) }
        let n = max(0, n)
        return max(movementMinimum, (15 * n * (n + 3) + 2) / 4)
    }

    /// Points convert to XP 2:1 (two points make one XP), halves rounded up.
    public static func xp(points: Int) -> Int { points > 0 ? (points + 1) / 2 : 0 }

    static func validateText(_ raw: String, field: String = "text") throws(DomainError) -> String {
        let t = raw.trimmingSpaces
        guard textLength.contains(t.count) else {
            throw .invalidField(field: field, reason: "must be \(textLength.text) characters (got \(t.count))")
        }
        guard !t.contains(where: { $0.isNewline }) else { throw .invalidField(field: field, reason: "must be a single line") }
        try TaskRules.validateBytes(t, field: field, max: textMaxBytes)
        return t
    }

    static func validateID(_ id: String) throws(DomainError) {
        try TaskRules.validateID(id, field: "habit")
        if id.lowercased() == movement || id.lowercased() == observation {
            throw .invalidField(field: "habit", reason: "'movement' and 'observation' are the checklist's fixed boxes")
        }
    }

    static func validateMinute(_ m: Int, field: String) throws(DomainError) {
        guard (0..<1440).contains(m) else { throw .invalidField(field: field, reason: "must be a time 00:00–23:59") }
    }
}

// MARK: - Commands

public enum HabitAction: Sendable, Equatable {
    /// New habit; id nil = the command id.
    case add(id: String?, text: String, reminderMinute: Int?)
    case edit(id: String, text: String)
    case setReminder(id: String, HabitReminderChange)
    /// Archives the habit (it leaves the checklist; its id stays taken).
    case remove(id: String)
    /// Check / uncheck a box: a habit id, `movement` or `observation`.
    case check(item: String)
    case uncheck(item: String)
    /// The evening check-in time (minute of the day), nil = off.
    case setCheckin(minute: Int?)
    case startCourse(CourseOutline)
    case readLesson(id: String)
    /// The self-image goal ("" clears it).
    case setSelfImage(text: String)
    case stopCourse

    /// The protocol name of the command.
    public var name: String {
        switch self {
        case .add: "habit.add"
        case .edit: "habit.edit"
        case .setReminder: "habit.reminder"
        case .remove: "habit.remove"
        case .check: "habit.check"
        case .uncheck: "habit.uncheck"
        case .setCheckin: "checkin.set"
        case .startCourse: "course.start"
        case .readLesson: "course.read"
        case .setSelfImage: "course.self-image"
        case .stopCourse: "course.stop"
        }
    }
}

// MARK: - Events

public enum HabitEvent: SubEvent {
    /// A habit was added; `answers` is the course lesson whose "set a habit" prompt it answered.
    case added(Habit, answers: String?)
    case edited(id: String, text: String)
    /// The habit's reminder after the change (the time is kept while off).
    case reminderSet(id: String, minute: Int?, on: Bool)
    case removed(id: String)
    /// A box checked / unchecked on `day` (the day open when it was done).
    case checked(item: String, day: Int)
    case unchecked(item: String, day: Int)
    /// A day's checklist scored at its close: coins = points, XP = points / 2.
    case dayScored(HabitDayScore)
    /// The pet announced that the habit's text can be edited now.
    case editUnlocked(id: String)
    case checkinSet(minute: Int?)
    /// The course outline (so replay needs no pack file) and the day its week 0 starts.
    case courseStarted(CourseOutline, day: Int)
    case lessonUnlocked(lesson: String)
    case lessonRead(lesson: String, prompt: CoursePrompt?)
    /// The self-image goal ("" = cleared); `answers` is the lesson whose prompt it answered.
    case selfImageSet(text: String, answers: String?)
    case courseStopped(pack: String)

    public var type: String {
        switch self {
        case .added: "habit.added"
        case .edited: "habit.edited"
        case .reminderSet: "habit.reminder"
        case .removed: "habit.removed"
        case .checked: "habit.checked"
        case .unchecked: "habit.unchecked"
        case .dayScored: "habit.day-scored"
        case .editUnlocked: "habit.edit-unlocked"
        case .checkinSet: "checkin.set"
        case .courseStarted: "course.started"
        case .lessonUnlocked: "course.unlocked"
        case .lessonRead: "course.read"
        case .selfImageSet: "course.self-image"
        case .courseStopped: "course.stopped"
        }
    }

    public var coinsDelta: Int {
        if case .dayScored(let s) = self { return s.points }
        return 0
    }

    public var xpDelta: Int {
        if case .dayScored(let s) = self { return s.xp }
        return 0
    }

    public static func owns(_ type: String) -> Bool { type.hasPrefix("habit.") || type.hasPrefix("course.") || type.hasPrefix("checkin.") }
    public static let allTypes: [String] = [
        "habit.added", "habit.edited", "habit.reminder", "habit.removed", "habit.checked", "habit.unchecked",
        "habit.day-scored", "habit.edit-unlocked", "checkin.set", "course.started", "course.unlocked", "course.read",
        "course.self-image", "course.stopped",
    ]

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(type, forKey: AnyKey("type"))
        switch self {
        case let .added(h, answers):
            try c.encode(h, forKey: AnyKey("habit"))
            try c.encodeIfPresent(answers, forKey: AnyKey("answers"))
        case let .edited(id, text):
            try c.encode(id, forKey: AnyKey("id")); try c.encode(text, forKey: AnyKey("text"))
        case let .reminderSet(id, minute, on):
            try c.encode(id, forKey: AnyKey("id"))
            try c.encodeIfPresent(minute, forKey: AnyKey("minute"))
            try c.encode(on, forKey: AnyKey("on"))
        case .removed(let id), .editUnlocked(let id):
            try c.encode(id, forKey: AnyKey("id"))
        case let .checked(item, day), let .unchecked(item, day):
            try c.encode(item, forKey: AnyKey("item")); try c.encode(day, forKey: AnyKey("day"))
        case .dayScored(let s): try c.encode(s, forKey: AnyKey("score"))
        case .checkinSet(let m): try c.encodeIfPresent(m, forKey: AnyKey("minute"))
        case let .courseStarted(o, day):
            try c.encode(o, forKey: AnyKey("outline")); try c.encode(day, forKey: AnyKey("day"))
        case .lessonUnlocked(let l): try c.encode(l, forKey: AnyKey("lesson"))
        case let .lessonRead(l, p):
            try c.encode(l, forKey: AnyKey("lesson")); try c.encodeIfPresent(p, forKey: AnyKey("prompt"))
        case let .selfImageSet(text, answers):
            try c.encode(text, forKey: AnyKey("text")); try c.encodeIfPresent(answers, forKey: AnyKey("answers"))
        case .courseStopped(let p): try c.encode(p, forKey: AnyKey("pack"))
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let type = try c.decode(String.self, forKey: AnyKey("type"))
        let s = c.string, i = c.int
        switch type {
        case "habit.added":
            self = .added(try c.decode(Habit.self, forKey: AnyKey("habit")),
                          answers: try c.decodeIfPresent(String.self, forKey: AnyKey("answers")))
        case "habit.edited": self = .edited(id: try s("id"), text: try s("text"))
        case "habit.reminder":
            self = .reminderSet(id: try s("id"), minute: try c.decodeIfPresent(Int.self, forKey: AnyKey("minute")),
                                on: try c.decode(Bool.self, forKey: AnyKey("on")))
        case "habit.removed": self = .removed(id: try s("id"))
        case "habit.checked": self = .checked(item: try s("item"), day: try i("day"))
        case "habit.unchecked": self = .unchecked(item: try s("item"), day: try i("day"))
        case "habit.day-scored": self = .dayScored(try c.decode(HabitDayScore.self, forKey: AnyKey("score")))
        case "habit.edit-unlocked": self = .editUnlocked(id: try s("id"))
        case "checkin.set": self = .checkinSet(minute: try c.decodeIfPresent(Int.self, forKey: AnyKey("minute")))
        case "course.started":
            self = .courseStarted(try c.decode(CourseOutline.self, forKey: AnyKey("outline")), day: try i("day"))
        case "course.unlocked": self = .lessonUnlocked(lesson: try s("lesson"))
        case "course.read":
            self = .lessonRead(lesson: try s("lesson"), prompt: try c.decodeIfPresent(CoursePrompt.self, forKey: AnyKey("prompt")))
        case "course.self-image":
            self = .selfImageSet(text: try s("text"), answers: try c.decodeIfPresent(String.self, forKey: AnyKey("answers")))
        case "course.stopped": self = .courseStopped(pack: try s("pack"))
        default: throw unknownSubEvent(decoder, type)
        }
    }
}

// MARK: - State

public struct HabitState: Codable, Sendable, Equatable {
    /// Active habits by id, and their ids in creation order (the checklist order).
    public var habits: [String: Habit] = [:]
    public var order: [String] = []
    /// Removed habits: their ids (taken, so the journal never names two live habits alike) and
    /// when each was removed. Their text leaves the live state (it stays in the journal); only
    /// the latest `HabitRules.maxArchived` are kept, so adding and removing for years does not
    /// grow the state.
    public var archived: [String: Instant] = [:]
    /// Boxes checked on `checksDay` (habit ids, `movement`, `observation`).
    public var checks: Set<String> = []
    public var checksDay = 0
    /// The streak-bonus counter: +1 on every complete day, never reset.
    public var counter = 0
    /// The latest scored day (yesterday's score once today is open).
    public var lastScore: HabitDayScore?
    /// The scored days each active habit was checked on, the latest `HabitRules.keptCheckDays`
    /// days (habit id → day numbers, ascending): a circle's report shares each habit's week by its
    /// checklist position (docs/circles.md#what-a-member-shares). nil: none yet.
    public var checkedDays: [String: [Int]]?
    /// Evening check-in time (minute of the day), nil = off.
    public var checkinMinute: Int? = HabitRules.defaultCheckinMinute
    public var course: CourseProgress?
    /// The self-image goal shown in the home-screen rotation (nil: none).
    public var selfImage: String?
    public init() {}

    /// Active habits in checklist order.
    public var active: [Habit] { order.compactMap { habits[$0] } }
}

extension PetState {
    /// Whether `day` lies in the running course's training week (week 0).
    public func isTrainingDay(_ day: Int) -> Bool {
        guard let c = habits.course else { return false }
        return day >= c.startDay && day < c.startDay + 7
    }

    /// Today's checklist boxes besides `movement`: the active habits, or `observation` in a training week.
    public func checklistBoxes(day: Int) -> [String] {
        isTrainingDay(day) ? [HabitRules.observation] : habits.order
    }

    /// Today's checklist in display order, `movement` last.
    public var checklist: [String] { checklistBoxes(day: openDay) + [HabitRules.movement] }

    /// Boxes checked today.
    public var checkedToday: Set<String> { habits.checksDay == openDay ? habits.checks : [] }

    /// Today's score as it stands (updates at once on check/uncheck), including the streak bonus
    /// the day would earn if it closed now complete (not on a paused day).
    public var habitScoreToday: Int { habitScore(day: openDay, checks: checkedToday, paused: paused).points }

    /// Whether today's checklist exists (habits or a training week) and is fully checked.
    public var checklistComplete: Bool {
        let boxes = checklistBoxes(day: openDay)
        let checks = checkedToday
        return !boxes.isEmpty && boxes.allSatisfy { checks.contains($0) } && checks.contains(HabitRules.movement)
    }

    /// Yesterday's scored checklist (nil: nothing was scored yesterday).
    public var habitYesterday: HabitDayScore? {
        guard let s = habits.lastScore, s.day == openDay - 1 else { return nil }
        return s
    }

    /// The score of `day` for the given checks (the formula of docs/habits.md).
    func habitScore(day: Int, checks: Set<String>, paused: Bool) -> HabitDayScore {
        let boxes = checklistBoxes(day: day)
        let checked = boxes.filter { checks.contains($0) }.count
        let movement = checks.contains(HabitRules.movement)
        let base = HabitRules.dayPoints(checked: checked, movement: movement)
        let complete: Bool? = boxes.isEmpty ? nil : (checked == boxes.count && movement)
        var counter = habits.counter
        var bonus = 0
        if complete == true && !paused {
            counter += 1
            bonus = counter
        }
        let points = base + bonus
        return HabitDayScore(day: day, boxes: boxes.count, checked: checked, movement: movement, paused: paused,
                             complete: complete, base: base, bonus: bonus, counter: counter, points: points,
                             xp: HabitRules.xp(points: points))
    }

    /// The instant of a daily time (minute of the day) within day `d`: on d's date if at or after the
    /// day-start hour, else on the next date (a night owl's 01:00 still belongs to the day). A time
    /// inside a DST gap moves forward by the gap; if that would carry it past the day's end (02:30 on
    /// the spring-forward night with days starting at 03:00) it is the day's last second instead — the
    /// moment the clock jumps — so the reminder still falls in (and fires in) its own day.
    public func instant(minute: Int, inDay d: Int) -> Instant {
        let date = clock.date(ofDay: d).adding(days: minute * 60 >= clock.dayStartHour * 3600 ? 0 : 1)
        let t = clock.instant(LocalDateTime(date: date, secondOfDay: minute * 60))
        let end = clock.start(ofDay: d + 1)
        return t < end ? t : end - 1
    }
}

// MARK: - Command parsing

/// Command names and fields of this subsystem (merged into CommandParser).
enum HabitCommands: CommandTable {
    static let fields: [String: Set<String>] = [
        "habit.add": ["habit", "text", "reminder"],
        "habit.edit": ["habit", "text"],
        "habit.reminder": ["habit", "at"],
        "habit.remove": ["habit"],
        "habit.check": ["habit"],
        "habit.uncheck": ["habit"],
        "checkin.set": ["at"],
        "course.start": ["pack", "course", "version", "lessons"],
        "course.read": ["lesson"],
        "course.self-image": ["text"],
        "course.stop": [],
    ]

    /// The action for `name`, or nil if the name is not this subsystem's.
    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? {
        switch name {
        case "habit.add":
            let reminder: Int? = f["reminder"] == nil ? nil : try f.clockMinute("reminder")
            return .habit(.add(id: f["habit"], text: try f.required("text"), reminderMinute: reminder))
        case "habit.edit": return .habit(.edit(id: try f.required("habit"), text: try f.required("text")))
        case "habit.reminder":
            let id = try f.required("habit")
            switch try f.required("at") {
            case "off": return .habit(.setReminder(id: id, .off))
            case "on": return .habit(.setReminder(id: id, .on))
            default: return .habit(.setReminder(id: id, .at(try minute(f, "at"))))
            }
        case "habit.remove": return .habit(.remove(id: try f.required("habit")))
        case "habit.check": return .habit(.check(item: try f.required("habit")))
        case "habit.uncheck": return .habit(.uncheck(item: try f.required("habit")))
        case "checkin.set":
            if try f.required("at") == "off" { return .habit(.setCheckin(minute: nil)) }
            return .habit(.setCheckin(minute: try minute(f, "at")))
        case "course.start":
            if f["pack"] != nil {
                throw .invalidField(field: "pack", reason: "names a content-pack file, which the device app loads; send course= and lessons= instead")
            }
            let version = try f.int("version") ?? 1
            let outline = CourseOutline(pack: try f.required("course"), version: version,
                                        lessons: try CourseOutline.parseLessons(try f.required("lessons")))
            return .habit(.startCourse(outline))
        case "course.read": return .habit(.readLesson(id: try f.required("lesson")))
        case "course.self-image": return .habit(.setSelfImage(text: try f.required("text")))
        case "course.stop": return .habit(.stopCourse)
        default: return nil
        }
    }

    private static func minute(_ f: CommandParser.Fields, _ k: String) throws(DomainError) -> Int {
        let v = try f.required(k)
        guard let m = TimeText.minuteOfDay(v) else { throw .invalidField(field: k, reason: "must be HH:MM or off") }
        return m
    }
}
