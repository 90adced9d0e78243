import PetCore

extension Inspector {
    /// Values of the Habits subsystem a scenario can `expect` (nil: not one of its names).
    static func habitValue(_ path: String, _ device: SimDevice) -> String? {
        let s = device.app.state
        let h = s.habits
        func hhmm(_ m: Int) -> String {
            (m / 60 < 10 ? "0" : "") + "\(m / 60):" + (m % 60 < 10 ? "0" : "") + "\(m % 60)"
        }
        switch path {
        case "habits": return "\(h.order.count)"
        case "habit-score": return "\(s.habitScoreToday)"
        case "habit-yesterday": return "\(s.habitYesterday?.points ?? 0)"
        case "habit-counter": return "\(h.counter)"
        case "checklist": return "\(s.checklist.filter { s.checkedToday.contains($0) }.count)/\(s.checklist.count)"
        case "checklist-complete": return s.checklistComplete ? "yes" : "no"
        case "checkin": return h.checkinMinute.map(hhmm) ?? "off"
        case "self-image": return h.selfImage ?? "none"
        case "course": return h.course?.outline.pack ?? "none"
        case "course-week": return h.course.map { "\($0.week(ofDay: s.openDay))" } ?? "none"
        case "course-read": return "\(h.course?.read.count ?? 0)"
        case "course-next": return h.course.map { $0.nextLesson?.id ?? "done" } ?? "none"
        case "course-prompts": return "\(h.course?.pendingPrompts.count ?? 0)"
        default: break
        }
        if path.hasPrefix("lesson.") {
            let id = String(path.dropFirst("lesson.".count))
            guard let c = h.course, c.lesson(id) != nil else { return "none" }
            return c.status(id).rawValue
        }
        if path.hasPrefix("habit-score.") {
            guard let date = CivilDate(parsing: String(path.dropFirst("habit-score.".count))) else { return nil }
            return "\(s.stats[date.dayNumber].habitScore)"
        }
        guard path.hasPrefix("habit."), let dot = path.lastIndex(of: "."), dot > path.index(path.startIndex, offsetBy: 5) else {
            return nil
        }
        let id = String(path[path.index(path.startIndex, offsetBy: 6)..<dot])
        let field = String(path[path.index(after: dot)...])
        if field == "checked" { return s.checkedToday.contains(id) ? "yes" : "no" }
        if field == "state" { return h.habits[id] != nil ? "active" : h.archived[id] != nil ? "archived" : "none" }
        // A removed habit keeps only its id live (its text is in the journal).
        guard let habit = h.habits[id] else { return nil }
        switch field {
        case "text": return habit.text
        case "reminder": return habit.reminderOn ? habit.reminderMinute.map(hhmm) ?? "off" : "off"
        case "editable": return device.now >= habit.editableFrom ? "yes" : "no"
        default: return nil
        }
    }
}
