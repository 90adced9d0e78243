import PetCore
import PetDevice

/// The link commands a home-automation bridge uses (docs/protocol.md#summary-and-buttons):
/// `summary` (the pet and the day as numbers, through the export's sharing filter) and
/// `buttons.watch` (the board's key gestures pushed as `button` messages).
extension LinkService {
    static func yesNo(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "on", "1": true
        case "no", "false", "off", "0": false
        default: nil
        }
    }

    /// The `summary` answer. The state passes `PetState.sharedCopy()` first (the export's filter:
    /// nothing of a private app); only counts, times and catalogue ids leave, and the next task's
    /// title only when `titles`.
    func summary(_ loop: LinkHost, id: String?, titles: Bool) -> SummaryMessage {
        let s = loop.state.sharedCopy()
        let now = max(loop.now, s.now)
        let needs = s.needs(at: now)
        let progress = Levels.progress(forXP: s.xp)
        let open = s.openTasks()
        let today = s.clock.day(of: now)
        let dueToday = open.filter { $0.due.map { s.clock.day(of: $0) <= today } ?? false }.count
        let overdue = open.filter { $0.due.map { $0 < now } ?? false }.count
        let next = open.filter { $0.due != nil }.min { ($0.due!, $0.id) < ($1.due!, $1.id) } ?? open.first
        let habitsDone = s.habits.checksDay == s.openDay ? s.habits.checks.count : 0
        var focusLeft = 0
        var focusEnds: Int64?
        if let f = s.commitments.focus, f.end > now {
            focusLeft = Int((f.end - now + 59) / 60)
            focusEnds = f.end.seconds
        }
        let food = s.shop.owned.filter { $0.value.kind == .food && $0.value.count > 0 }.keys.sorted().first
        return SummaryMessage(
            id: id, seq: Int64(s.eventCount), at: now.seconds, pet: s.pet.name, coins: s.coins, level: s.level, xp: s.xp,
            xpToNext: max(0, progress.needed - progress.into), streak: s.streak, mood: s.mood(at: now).rawValue,
            fullness: needs.fullness, energy: needs.energy, tasksOpen: open.count, tasksDueToday: dueToday,
            tasksOverdue: overdue, habitsDoneToday: habitsDone, habitsToday: s.habits.order.count,
            focusMinutesLeft: focusLeft, focusEnds: focusEnds, lastUrge: s.quit.recent.last?.at.seconds,
            remindersWaiting: s.reminders.outbox.count, paused: s.paused, sound: s.device.sound,
            brightness: s.device.brightness, food: food, buttons: loop.buttonNames,
            nextTaskDue: next?.due?.seconds, nextTaskTitle: titles ? next?.title : nil)
    }

    /// A gesture of one of the board's keys: a `button` message to every authenticated connection
    /// that asked for them (chords are not reported: the A+C hold is the factory reset). The
    /// gesture is numbered and kept (`gestureLog`) for a watcher that reconnects.
    public func gesture(_ g: Gesture, loop: LinkHost) -> [LinkEffect] {
        let button: String, name: String
        switch g {
        case .tap(let b): (button, name) = (b.rawValue, "tap")
        case .doubleTap(let b): (button, name) = (b.rawValue, "double_tap")
        case .longPress(let b): (button, name) = (b.rawValue, "hold")
        case .chordAC, .chordHeld: return []
        }
        gestureCount += 1
        let message = ButtonMessage(button: button, gesture: name, run: gestureRun, n: gestureCount, at: loop.now.seconds)
        gestureLog.append(message)
        pruneGestures(now: loop.now.seconds)
        let frame = MessageEncoder.frame(message)
        return sessions.keys.sorted().compactMap { c in
            guard let s = sessions[c], s.phone != nil, s.watchesButtons else { return nil }
            return .send(LinkFrame(client: c, bytes: frame))
        }
    }

    func pruneGestures(now: Int64) {
        let old = gestureLog.prefix { ($0.at ?? now) < now - Self.gestureWindowSeconds }.count
        let over = max(0, gestureLog.count - old - Self.gestureKeep)
        if old + over > 0 { gestureLog.removeFirst(old + over) }
    }

    /// The kept gestures a watcher that saw `since` (`RUN:N`) has not had: those after N of this
    /// run, or all kept ones when RUN is another run (the device restarted: its gestures are new
    /// to the watcher). Nil when `since` is not `RUN:N`.
    func gesturesAfter(_ since: String, now: Int64) -> [ButtonMessage]? {
        let parts = since.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...32).contains(parts[0].utf8.count), let n = Int64(parts[1]), n >= 0 else { return nil }
        pruneGestures(now: now)
        let after = String(parts[0]) == gestureRun ? n : 0
        return gestureLog.filter { ($0.n ?? 0) > after }.map { var m = $0; m.replayed = true; return m }
    }
}
