import PetCore
import PetUI

/// The minimal device UI of the walking skeleton: the home screen and what the three buttons do
/// on it. (Every other screen, and the full navigation, come with the device-UI issue.)
///
/// | gesture      | on the home screen                                   |
/// |--------------|------------------------------------------------------|
/// | tap A        | show the next open task (cycles through the list)    |
/// | hold A       | start the shown task                                 |
/// | tap B        | select: nothing to open on home yet (wakes the screen) |
/// | double tap B | pet the pet                                          |
/// | hold B       | complete the shown task                              |
/// | tap C        | dismiss the reminder banner, back to the first task  |
/// | hold C       | log an urge (quit log): the urge picker below        |
/// | hold A+C 3 s | factory reset: erase everything (SPEC §13 confirmation) |
///
/// The urge picker (SPEC §9, at most 3 presses for the usual case): hold C opens it on the most
/// likely trigger for this hour; tap A shows the next trigger, tap B picks it; then the outcome
/// (resisted first; tap A for gave in / finished a pod), tap B logs it; tap C goes back. So
/// "hold C, B, B" logs the likeliest trigger as resisted.
///
/// A tap is reported on the first edge (no added latency), so every double tap and hold begins
/// with a tap of the same button. Taps therefore only change what is shown, never store anything,
/// and a hold/double tap/chord first undoes the view change of the tap it began with.
public struct HomeUI: Sendable {
    /// Index into the open-task list of the task shown at the bottom.
    public var selected = 0
    /// A reminder banner is shown until dismissed (tap C) or replaced.
    public var dismissedReminderAt: Instant?
    /// Missed-while-off reminders already seen by the owner (the banner counts the rest). Set at
    /// boot, before the catch-up, and when the banner is dismissed.
    public var missedAcknowledged = 0
    /// The last tap and the view before it, to undo if it grows into a longer gesture.
    var lastTap: (button: Button, selected: Int, dismissed: Instant?, acknowledged: Int, urge: UrgePicker?)?
    /// The urge picker, when open.
    public var urge: UrgePicker?

    public struct UrgePicker: Sendable, Equatable {
        /// Trigger ids, most likely first (fixed when the picker opens).
        public var triggers: [String]
        public var trigger = 0
        /// nil while choosing the trigger; then the index into `QuitOutcome.allCases`.
        public var outcome: Int?
    }

    public init() {}

    /// What a gesture asks the app to do.
    public enum Effect: Sendable, Equatable {
        /// A domain command (the app gives it an id and the current time).
        case command(Action)
        /// Erase everything and start a new pet (A+C held 3 s).
        case factoryReset
    }

    /// The effect a gesture asks for, if any (UI-only gestures change `self`).
    public mutating func handle(_ g: Gesture, state: PetState) -> Effect? {
        if g == .chordHeld { return .factoryReset }
        return action(for: g, state: state).map(Effect.command)
    }

    mutating func action(for g: Gesture, state: PetState) -> Action? {
        let open = state.openTasks()
        if selected >= open.count { selected = 0 }
        if urge != nil, let a = urgeAction(for: g) { return a }
        if urge != nil { return nil }
        switch g {
        case .tap(let b):
            lastTap = (b, selected, dismissedReminderAt, missedAcknowledged, urge)
        case .doubleTap(let b), .longPress(let b):
            undoTap(of: b)
        case .chordAC:
            undoTap(of: .a); undoTap(of: .c)
        case .chordHeld:
            break
        }
        switch g {
        case .tap(.a):
            if !open.isEmpty { selected = (selected + 1) % open.count }
            return nil
        case .longPress(.a):
            guard let t = open[safe: selected], t.state == .pending else { return nil }
            return .startTask(id: t.id)
        case .doubleTap(.b):
            return .petThePet
        case .longPress(.b):
            guard let t = open[safe: selected] else { return nil }
            return .completeTask(id: t.id)
        case .tap(.c):
            dismissedReminderAt = state.notices.last?.due
            missedAcknowledged = state.remindersMissed
            selected = 0
            return nil
        case .longPress(.c):
            let menu = state.urgeTriggerMenu(at: state.now)
            if !menu.isEmpty { urge = UrgePicker(triggers: menu) }
            return nil
        default:
            return nil
        }
    }

    /// Gestures while the urge picker is open. Returns the command when an urge is logged.
    mutating func urgeAction(for g: Gesture) -> Action?? {
        guard var u = urge else { return nil }
        switch g {
        case .tap(.a):
            if let o = u.outcome { u.outcome = (o + 1) % QuitOutcome.allCases.count }
            else { u.trigger = (u.trigger + 1) % max(1, u.triggers.count) }
        case .tap(.b):
            if let o = u.outcome, let trigger = u.triggers[safe: u.trigger] {
                urge = nil
                return .some(.quit(.log(trigger: trigger, outcome: QuitOutcome.allCases[o], thoughts: nil)))
            }
            u.outcome = 0
        case .tap(.c):
            if u.outcome != nil { u.outcome = nil } else { urge = nil; return .some(nil) }
        default:
            break
        }
        urge = u
        return .some(nil)
    }

    private mutating func undoTap(of b: Button) {
        guard let t = lastTap, t.button == b else { return }
        selected = t.selected
        urge = t.urge
        dismissedReminderAt = t.dismissed
        missedAcknowledged = t.acknowledged
        lastTap = nil
    }

    /// The home-screen model for `state` at `now`.
    public func model(_ state: PetState, now: Instant) -> HomeModel {
        let open = state.openTasks()
        let task = open[safe: selected < open.count ? selected : 0]
        let progress = Levels.progress(forXP: state.xp)
        var speech = state.speech(at: now).text
        // The self-image goal (SPEC §4) takes turns with the pet's idle talk: every other 10 minutes.
        if let goal = state.habits.selfImage, !goal.isEmpty, state.speech.map({ now - $0.at >= 120 }) ?? true,
           (now.seconds / 600) % 2 == 1 {
            speech = "I am " + goal
        }
        // A reminder from any source (tasks, habits, check-in, commitments, focus) for 15 minutes.
        if let r = state.notices.last, r.due != dismissedReminderAt, now - r.due < 15 * 60, now >= r.due {
            speech = "Reminder! " + speech
        }
        if let q = state.quitRecommendation(at: now) { speech = q }
        let missed = state.remindersMissed - missedAcknowledged
        if missed > 0 {
            speech = "Missed \(missed) reminder\(missed == 1 ? "" : "s") while off"
        }
        if let u = urge, let id = u.triggers[safe: u.trigger] {
            let name = state.quitTriggerName(id) ?? id
            if let o = u.outcome {
                speech = "\(HomeUI.outcomeNames[o])? (A next, B log)"
            } else {
                speech = "Urge: \(name)? (A next, B ok)"
            }
        }
        return HomeModel(
            petName: state.pet.name,
            mood: state.mood(at: now).rawValue,
            clock: HomeUI.clockText(state.clock.local(now)),
            coins: state.coins,
            level: state.level,
            levelProgress: Double(progress.into) / Double(max(progress.needed, 1)),
            streak: state.streak,
            nextTask: task?.title,
            nextDue: task.flatMap { HomeUI.dueText($0, state: state, now: now) },
            speech: speech,
            paused: state.paused)
    }

    static func clockText(_ l: LocalDateTime) -> String {
        let h = l.secondOfDay / 3600, m = l.secondOfDay / 60 % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let outcomeNames = ["resisted", "gave in", "finished pod"]

    /// "due 17:00", "due tomorrow 09:00", "due Fri 09:00", "due 2026-03-20", "overdue", "missed".
    static func dueText(_ t: TaskItem, state: PetState, now: Instant) -> String? {
        if t.state == .missed { return "missed" }
        guard let due = t.due else { return t.state == .inProgress ? "in progress" : nil }
        if due < now { return "overdue" }
        let local = state.clock.local(due)
        let days = state.clock.day(of: due) - state.clock.day(of: now)
        let time = clockText(local)
        switch days {
        case 0: return "due " + time
        case 1: return "due tomorrow " + time
        case 2...6: return "due \(weekdays[local.date.weekday]) " + time
        default: return "due \(local.date)"
        }
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
