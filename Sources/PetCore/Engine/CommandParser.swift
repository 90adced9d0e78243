/// Builds commands from flat `name key=value…` fields: the shape shared by the simulator's
/// `send` lines and the phone protocol's command objects (docs/scenarios.md#commands).

public enum CommandParser {
    /// Fields each command accepts (anything else is refused, naming the field): the parser's own
    /// (tasks, categories, settings, the pet) and every registered subsystem's `CommandTable`.
    public static let fieldsByCommand: [String: Set<String>] = {
        var all = coreFields
        for s in Engine.subsystems { all.merge(s.commandFields) { a, _ in a } }
        return all
    }()

    static let coreFields: [String: Set<String>] = {
        let taskFields: Set<String> = ["task", "title", "notes", "category", "project", "priority", "start", "due",
                                       "estimate", "repeat", "until", "reminders"]
        return [
            "task.create": taskFields,
            "task.edit": taskFields.union(["clear"]),
            "task.delete": ["task"], "task.duplicate": ["task", "new"], "task.start": ["task"],
            "task.complete": ["task"], "task.uncomplete": ["task"],
            "reminder.silence": ["task", "index"],
            "category.add": ["name"], "category.rename": ["name", "to"], "category.delete": ["name"],
            "settings.zone": ["zone"], "settings.day-start": ["hour"], "settings.quiet-hours": ["from", "to"],
            "settings.device": ["theme", "sound", "brightness", "dim", "sleep"],
            "pause": [], "resume": [],
            "pet.name": ["name"], "pet.traits": ["species", "colour", "personality"], "pet.pet": [],
        ]
    }()

    /// Fields that may hold several lines (a newline or a tab is text there); every other field is
    /// one line.
    public static let multiLineFields: Set<String> = ["notes", "thoughts", "text", "stressors", "feelings"]

    /// Refuses control characters (NUL, BEL, ESC, DEL, the C1 range, line and paragraph
    /// separators …) in every field and in the command id, naming the field and the code point —
    /// never the text. Only newline and tab are allowed, and only in `multiLineFields`. Every
    /// command from a scenario, the phone link or a tool passes here.
    public static func checkControlCharacters(_ fields: [String: String], id: String) throws(DomainError) {
        // The code points refused, and why: TextRules (also the byte-order mark and direction
        // overrides, docs/domain.md "Text").
        if let u = id.unicodeScalars.first(where: { TextRules.refused($0, multiLine: false) }) {
            throw .invalidField(field: "id", reason: TextRules.reason(u, multiLine: false))
        }
        for key in fields.keys.sorted() {
            guard let value = fields[key] else { continue }
            if let u = key.unicodeScalars.first(where: { TextRules.refused($0, multiLine: false) }) {
                throw .invalidField(field: "(a field name)", reason: TextRules.reason(u, multiLine: false))
            }
            try TextRules.check(value, field: key, multiLine: multiLineFields.contains(key))
        }
    }

    /// The most bytes of UTF-8 any one field may hold.
    public static let maxFieldBytes = 2_048

    public static func parse(name: String, fields: [String: String], id: String, at: Instant,
                             clock: DayClock, current: DeviceSettings? = nil) throws(DomainError) -> Command {
        guard let allowed = fieldsByCommand[name] else { throw .unknownCommand(name: name) }
        for key in fields.keys.sorted() where !allowed.contains(key) {
            throw .invalidField(field: key, reason: "is not a field of \(name) (fields: \(allowed.sorted().joined(separator: ", ")))")
        }
        try checkControlCharacters(fields, id: id)
        // Whatever a field holds, at most `maxFieldBytes` (the longest text, a task's notes, is
        // 2,000): what a command stores must fit in the frames that carry it (docs/protocol.md).
        for key in fields.keys.sorted() where fields[key]!.utf8.count > maxFieldBytes {
            throw .invalidField(field: key, reason: "must be at most \(maxFieldBytes) bytes of UTF-8 (got \(fields[key]!.utf8.count))")
        }
        let f = Fields(values: fields, at: at, clock: clock)
        let action: Action
        switch name {
        case "task.create":
            var d = TaskDraft(id: f["task"], title: try f.required("title"))
            d.notes = f["notes"] ?? ""
            d.category = f["category"]
            d.project = f["project"]
            d.priority = try f.priority("priority") ?? .normal
            d.start = try f.time("start")
            d.due = try f.time("due")
            d.plannedSecondOfDay = TimeText.wallSecondOfDay(f["due"] ?? f["start"])
            d.estimate = try f.int("estimate")
            d.recurrence = try f.recurrence()
            d.reminders = try f.times("reminders") ?? []
            action = .createTask(d)
        case "task.edit":
            var p = TaskPatch()
            p.title = f["title"]; p.notes = f["notes"]; p.category = f["category"]; p.project = f["project"]
            p.priority = try f.priority("priority")
            p.start = try f.time("start"); p.due = try f.time("due"); p.estimate = try f.int("estimate")
            p.plannedSecondOfDay = TimeText.wallSecondOfDay(f["due"] ?? f["start"])
            p.recurrence = try f.recurrence()
            p.reminders = try f.times("reminders")
            p.clear = f["clear"].map { $0.split(separator: ",").map(String.init) } ?? []
            action = .editTask(id: try f.required("task"), p)
        case "task.delete": action = .deleteTask(id: try f.required("task"))
        case "task.duplicate": action = .duplicateTask(id: try f.required("task"), newID: f["new"])
        case "task.start": action = .startTask(id: try f.required("task"))
        case "task.complete": action = .completeTask(id: try f.required("task"))
        case "task.uncomplete": action = .uncompleteTask(id: try f.required("task"))
        case "reminder.silence": action = .silenceReminder(taskID: try f.required("task"), index: try f.int("index"))
        case "category.add": action = .addCategory(name: try f.required("name"))
        case "category.rename": action = .renameCategory(name: try f.required("name"), to: try f.required("to"))
        case "category.delete": action = .deleteCategory(name: try f.required("name"))
        case "settings.zone": action = .setTimeZone(id: try f.required("zone"))
        case "settings.day-start":
            guard let h = try f.int("hour") else { throw .missingField(field: "hour") }
            action = .setDayStart(hour: h)
        case "settings.quiet-hours":
            action = .setQuietHours(startMinute: try f.clockMinute("from"), endMinute: try f.clockMinute("to"))
        case "settings.device":
            // Only the given fields change (`current` is filled in by the caller's state).
            var d = current ?? DeviceSettings()
            if let t = f["theme"] {
                guard let v = DeviceSettings.ThemeName(rawValue: t) else { throw .invalidField(field: "theme", reason: "must be light or dark") }
                d.theme = v
            }
            if let v = f["sound"] {
                guard v == "on" || v == "off" else { throw .invalidField(field: "sound", reason: "must be on or off") }
                d.sound = v == "on"
            }
            if let v = try f.int("brightness") { d.brightness = v }
            if let v = try f.int("dim") { d.dimAfter = v }
            if let v = try f.int("sleep") { d.sleepAfter = v }
            action = .setDevice(d)
        case "pause": action = .pause
        case "resume": action = .resume
        case "pet.name": action = .renamePet(name: try f.required("name"))
        case "pet.traits":
            var personality: Personality?
            if let p = f["personality"] {
                guard let v = Personality(rawValue: p) else {
                    throw .invalidField(field: "personality", reason: "must be playful, calm, curious or shy")
                }
                personality = v
            }
            action = .setPetTraits(species: f["species"], colour: f["colour"], personality: personality)
        case "pet.pet": action = .petThePet
        default:
            guard let a = try parseSubsystemCommand(name: name, f) else { throw .unknownCommand(name: name) }
            action = a
        }
        return Command(id: id, at: at, action: action)
    }

    /// A registered subsystem's command (nil: no subsystem has this name).
    static func parseSubsystemCommand(name: String, _ f: Fields) throws(DomainError) -> Action? {
        for s in Engine.subsystems where s.commandFields[name] != nil {
            if let a = try s.parseCommand(name: name, f) { return a }
        }
        return nil
    }

    struct Fields {
        var values: [String: String]
        var at: Instant
        var clock: DayClock

        subscript(_ k: String) -> String? { values[k] }

        func required(_ k: String) throws(DomainError) -> String {
            guard let v = values[k] else { throw .missingField(field: k) }
            return v
        }

        func int(_ k: String) throws(DomainError) -> Int? {
            guard let v = values[k] else { return nil }
            guard let i = Int(v) else { throw .invalidField(field: k, reason: "must be a whole number") }
            return i
        }

        func priority(_ k: String) throws(DomainError) -> Priority? {
            guard let v = values[k] else { return nil }
            guard let p = Priority(rawValue: v) else { throw .invalidField(field: k, reason: "must be low, normal or high") }
            return p
        }

        func time(_ k: String) throws(DomainError) -> Instant? {
            guard let v = values[k] else { return nil }
            guard let t = TimeText.parse(v, now: at, clock: clock) else {
                throw .invalidField(field: k, reason: "is not a time (use 'YYYY-MM-DD HH:MM', 'today HH:MM', 'tomorrow HH:MM', '+2h30m' or '@unixseconds')")
            }
            return try TimeRange.check(t, field: k)
        }

        func times(_ k: String) throws(DomainError) -> [Instant]? {
            guard let v = values[k] else { return nil }
            if v.isEmpty { return [] }
            var out: [Instant] = []
            for (i, part) in v.split(separator: ",").enumerated() {
                guard let t = TimeText.parse(String(part).trimmingSpaces, now: at, clock: clock) else {
                    throw .invalidField(field: "\(k)[\(i)]", reason: "is not a time")
                }
                out.append(try TimeRange.check(t, field: "\(k)[\(i)]"))
            }
            return out
        }

        func clockMinute(_ k: String) throws(DomainError) -> Int {
            let v = try required(k)
            guard let m = TimeText.minuteOfDay(v) else { throw .invalidField(field: k, reason: "must be HH:MM") }
            return m
        }

        func recurrence() throws(DomainError) -> Recurrence? {
            guard let v = values["repeat"] else {
                if values["until"] != nil { throw .invalidField(field: "until", reason: "needs a repeat rule") }
                return nil
            }
            if v == "none" { return nil }
            var until: CivilDate?
            if let u = values["until"] {
                guard let d = CivilDate(parsing: u) else { throw .invalidField(field: "until", reason: "must be YYYY-MM-DD") }
                until = d
            }
            return Recurrence(rule: try Recurrence.parse(v), until: until)
        }
    }
}

/// Human time and duration text used by commands and scenarios.
public enum TimeText {
    /// Parses "YYYY-MM-DD HH:MM[:SS]" (local), "today HH:MM", "tomorrow HH:MM", "+1d2h30m"
    /// (relative to `now`), "@1767225600" (unix seconds).
    public static func parse(_ s: String, now: Instant, clock: DayClock) -> Instant? {
        if s.hasPrefix("@") { return Int64(s.dropFirst()).map { Instant(seconds: $0) } }
        if s.hasPrefix("+") { return duration(String(s.dropFirst())).map { now + $0 } }
        for (word, offset) in [("today ", 0), ("tomorrow ", 1)] where s.hasPrefix(word) {
            guard let m = minuteOfDay(String(s.dropFirst(word.count))) else { return nil }
            let date = clock.local(now).date.adding(days: offset)
            return clock.instant(LocalDateTime(date: date, secondOfDay: m * 60))
        }
        guard let local = LocalDateTime(parsing: s) else { return nil }
        return clock.instant(local)
    }

    /// "HH:MM" → minute of the day.
    public static func minuteOfDay(_ s: String) -> Int? {
        let parts = s.split(separator: ":")
        guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2,
              let h = Int(parts[0]), let m = Int(parts[1]), (0...23).contains(h), (0...59).contains(m) else { return nil }
        return h * 60 + m
    }

    /// "1d2h30m15s" / "90m" / "3d" → seconds (each unit at most once, in that order).
    public static func duration(_ s: String) -> Int64? {
        guard !s.isEmpty else { return nil }
        var total: Int64 = 0
        var number: Int64 = 0
        var haveDigits = false
        var lastUnit = -1
        let units: [Character: (Int, Int64)] = ["d": (0, 86_400), "h": (1, 3600), "m": (2, 60), "s": (3, 1)]
        for ch in s {
            if let d = ch.wholeNumberValue, ch.isASCII {
                guard number < 1_000_000_000 else { return nil }
                number = number * 10 + Int64(d); haveDigits = true
            } else if let (rank, mult) = units[ch] {
                guard haveDigits, rank > lastUnit else { return nil }
                total += number * mult; number = 0; haveDigits = false; lastUnit = rank
            } else { return nil }
        }
        return haveDigits ? nil : total
    }

    /// The wall-clock time of day a local time text names ("YYYY-MM-DD HH:MM[:SS]", "today HH:MM",
    /// "tomorrow HH:MM"), in seconds since midnight; nil for "+…", "@…" (instants, not wall times)
    /// and for text that is not a time. A repeating task keeps this time even when it falls inside a
    /// DST gap on its first date (02:30 typed for the spring-forward Sunday: due 03:30, then 02:30).
    public static func wallSecondOfDay(_ s: String?) -> Int? {
        guard let s, !s.hasPrefix("@"), !s.hasPrefix("+") else { return nil }
        for word in ["today ", "tomorrow "] where s.hasPrefix(word) {
            return minuteOfDay(String(s.dropFirst(word.count))).map { $0 * 60 }
        }
        return LocalDateTime(parsing: s)?.secondOfDay
    }

    /// "2026-03-08 14:05" in the clock's zone.
    public static func format(_ t: Instant, clock: DayClock) -> String { clock.local(t).description }
}
