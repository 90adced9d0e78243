import PetCore
import PetDevice

/// Values a scenario can `expect` (docs/scenarios.md lists them).
public enum Inspector {
    public static let names = [
        "coins", "xp", "level", "streak", "best-streak", "tasks-completed", "mood", "fullness", "energy",
        "paused", "zone", "day-start", "day", "time", "open-tasks", "events", "badges", "speech",
        "reminders-missed", "categories", "badge.<id>", "task.<id>.<state|due|priority|reward|title|category|occurrence>",
        "category.<name>",
    ]

    public static func value(_ path: String, device: SimDevice) -> String? {
        let s = device.app.state
        let now = device.now
        switch path {
        case "coins": return "\(s.coins)"
        case "xp": return "\(s.xp)"
        case "level": return "\(s.level)"
        case "streak": return "\(s.streak)"
        case "best-streak": return "\(s.bestStreak)"
        case "tasks-completed": return "\(s.tasksCompleted)"
        case "mood": return s.mood(at: now).rawValue
        case "fullness": return "\(s.needs(at: now).fullness)"
        case "energy": return "\(s.needs(at: now).energy)"
        case "paused": return s.paused ? "yes" : "no"
        case "zone": return s.zoneID
        case "day-start": return "\(s.clock.dayStartHour)"
        case "day": return s.clock.date(ofDay: s.openDay).description
        case "time": return s.clock.local(now).description
        case "open-tasks": return "\(s.openTasks().count)"
        case "events": return "\((try? device.app.store.eventCount()) ?? -1)"
        case "badges": return "\(s.badges.count)"
        case "speech": return s.speech(at: now).text
        case "reminders-missed": return "\(s.remindersMissed)"
        case "categories": return "\(s.categories.count)"
        default: break
        }
        // Each subsystem answers its own values (Inspect+<Subsystem>.swift).
        for sub in [habitValue, shopValue, commitmentValue, quitValue, appTimeValue, reminderValue] {
            if let v = sub(path, device) { return v }
        }
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "badge": return s.badges[parts[1]] != nil ? "yes" : "no"
        case "category": return s.categories.contains(parts[1]) ? "yes" : "no"
        case "task":
            guard let dot = parts[1].lastIndex(of: ".") else { return nil }
            let id = String(parts[1][..<dot]), field = String(parts[1][parts[1].index(after: dot)...])
            guard let t = s.tasks[id] else { return field == "state" ? "none" : nil }
            switch field {
            case "state": return t.state.rawValue
            case "due": return t.due.map { s.clock.local($0).description } ?? "none"
            case "priority": return t.priority.rawValue
            case "reward": return "\(t.reward?.coins ?? 0)"
            case "title": return t.title
            case "category": return t.category
            case "occurrence": return "\(t.occurrence)"
            default: return nil
            }
        default: return nil
        }
    }

    /// Numbers compare as numbers, everything else as text.
    public static func compare(_ actual: String, _ op: Scenario.Op, _ expected: String) -> Bool {
        if op == .contains { return actual.contains(expected) }
        if let a = Int(actual), let e = Int(expected) {
            switch op {
            case .eq: return a == e
            case .ne: return a != e
            case .lt: return a < e
            case .le: return a <= e
            case .gt: return a > e
            case .ge: return a >= e
            case .contains: return false
            }
        }
        switch op {
        case .eq: return actual == expected
        case .ne: return actual != expected
        case .lt: return actual < expected
        case .le: return actual <= expected
        case .gt: return actual > expected
        case .ge: return actual >= expected
        case .contains: return false
        }
    }
}

/// One line per interesting event for the simulator's transcript. Names tasks by id only (no
/// personal text).
public enum Narrator {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    public static func describe(_ e: Event, state: PetState) -> String? {
        let l = state.clock.local(e.at)
        let stamp = "\(weekdays[l.date.weekday]) \(l)"
        let text: String
        switch e.kind {
        case .genesis: return nil
        case .taskCreated(let t):
            let due = t.due.map { " due " + state.clock.local($0).description } ?? ""
            text = "+ task \(t.id) (\(t.priority.rawValue)\(t.recurrence.map { ", \($0)" } ?? ""))\(due)"
        case .taskEdited(let t): text = "~ task \(t.id) edited"
        case .taskDeleted(let id): text = "- task \(id) deleted"
        case .taskStarted(let id): text = "▷ task \(id) started"
        case let .taskCompleted(id, timing, r): text = "✓ task \(id) done (\(timing.rawValue)): +\(r.coins) coins, +\(r.xp) XP"
        case let .taskUncompleted(id, r): text = "↺ task \(id) un-done: -\(r.coins) coins, -\(r.xp) XP"
        case .taskMissed(let id, _): text = "✗ task \(id) missed"
        case .taskExcused(let id, _): text = "· task \(id) fell due while paused (not counted)"
        case .reminderDue(let id, _): text = "🔔 reminder: task \(id)"
        case .reminderMissed(let id, _): text = "🔕 reminder for task \(id) fell due while off (reported once)"
        case .reminderSilenced(let id, let i): text = "  reminder \(i) of task \(id) silenced"
        case .levelReached(let lv): text = "★ level \(lv)!"
        case .badgeEarned(let id): text = "🏅 badge: \(Badges.kind(id: id)?.title ?? id)"
        case .petSaid(let key): text = "\(state.pet.name): \"\(Lines.line(key: key)?.text ?? key)\""
        case .dayClosed(let r):
            let date = state.clock.date(ofDay: r.day)
            if r.paused { text = "— day \(date) closed (paused): streak stays \(r.streak)" }
            else { text = "— day \(date) closed: \(r.done)/\(r.due) due done, \(r.missed) missed, streak \(r.streak)" }
        case .petPetted: text = "♥ petted"
        case .petRenamed(let n): text = "the pet is now called \(n)"
        case .paused: text = "⏸ paused"
        case .resumed: text = "⏵ resumed"
        case .zoneChanged(let z, _): text = "🌍 time zone \(z)"
        case .dayStartChanged(let h): text = "  day starts at \(h):00"
        default:
            let coins = e.kind.coinsDelta
            text = "  \(e.kind.type)" + (coins == 0 ? "" : coins > 0 ? " (+\(coins) coins)" : " (\(coins) coins)")
        }
        return "\(stamp)  \(text)"
    }
}
