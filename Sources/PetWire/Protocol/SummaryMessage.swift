/// `summary` (device → client): the answer to the link command `summary` — the pet and the day
/// as numbers, for a home-automation bridge (docs/protocol.md#summary-and-buttons). Computed from
/// the state as it is shared (the export's filter: private apps are gone), and without personal
/// text: no titles, notes, habit texts, app names or thoughts. `next_task_title` is there only
/// when the command asked for it (`titles: yes`).
public struct SummaryMessage: Codable, Sendable, Equatable {
    public static let type = "summary"
    public var type = SummaryMessage.type
    public var id: String?
    public var seq: Int64
    /// Unix seconds of the device's clock when it was made.
    public var at: Int64
    /// The pet's name (what the device is called: "DeskPet <name>").
    public var pet: String
    public var coins: Int
    public var level: Int
    public var xp: Int
    /// XP still needed for the next level (0 at the top level).
    public var xpToNext: Int
    public var streak: Int
    public var mood: String
    /// 0–100.
    public var fullness: Int
    public var energy: Int
    public var tasksOpen: Int
    /// Open tasks due within today (the pet's day), overdue ones included.
    public var tasksDueToday: Int
    /// Open tasks whose due time has passed.
    public var tasksOverdue: Int
    public var habitsDoneToday: Int
    public var habitsToday: Int
    /// Minutes left in the running focus session (0: none), and when it ends.
    public var focusMinutesLeft: Int
    public var focusEnds: Int64?
    /// Unix seconds of the latest urge logged (nil: none).
    public var lastUrge: Int64?
    public var remindersWaiting: Int
    public var paused: Bool
    /// Buzzer sounds on (false: muted).
    public var sound: Bool
    /// Backlight brightness, percent (10–100).
    public var brightness: Int
    /// An owned food the pet can be fed (`care.feed item=…`), a catalogue id; nil: none owned.
    public var food: String?
    /// The board's keys (`A`, `B`, …) whose gestures `buttons.watch` reports.
    public var buttons: [String]
    /// The next open task's due time, and (only when asked) its title.
    public var nextTaskDue: Int64?
    public var nextTaskTitle: String?

    enum CodingKeys: String, CodingKey {
        case type, id, seq, at, pet, coins, level, xp, streak, mood, fullness, energy, paused, sound, brightness, food, buttons
        case xpToNext = "xp_to_next", tasksOpen = "tasks_open", tasksDueToday = "tasks_due_today"
        case tasksOverdue = "tasks_overdue", habitsDoneToday = "habits_done_today", habitsToday = "habits_today"
        case focusMinutesLeft = "focus_minutes_left", focusEnds = "focus_ends", lastUrge = "last_urge"
        case remindersWaiting = "reminders_waiting", nextTaskDue = "next_task_due", nextTaskTitle = "next_task_title"
    }

    public init(id: String?, seq: Int64, at: Int64, pet: String, coins: Int, level: Int, xp: Int, xpToNext: Int,
                streak: Int, mood: String, fullness: Int, energy: Int, tasksOpen: Int, tasksDueToday: Int,
                tasksOverdue: Int, habitsDoneToday: Int, habitsToday: Int, focusMinutesLeft: Int, focusEnds: Int64?,
                lastUrge: Int64?, remindersWaiting: Int, paused: Bool, sound: Bool, brightness: Int, food: String?,
                buttons: [String], nextTaskDue: Int64?, nextTaskTitle: String?) {
        self.id = id; self.seq = seq; self.at = at; self.pet = pet; self.coins = coins; self.level = level; self.xp = xp
        self.xpToNext = xpToNext; self.streak = streak; self.mood = mood; self.fullness = fullness; self.energy = energy
        self.tasksOpen = tasksOpen; self.tasksDueToday = tasksDueToday; self.tasksOverdue = tasksOverdue
        self.habitsDoneToday = habitsDoneToday; self.habitsToday = habitsToday; self.focusMinutesLeft = focusMinutesLeft
        self.focusEnds = focusEnds; self.lastUrge = lastUrge; self.remindersWaiting = remindersWaiting; self.paused = paused
        self.sound = sound; self.brightness = brightness; self.food = food; self.buttons = buttons
        self.nextTaskDue = nextTaskDue; self.nextTaskTitle = nextTaskTitle
    }
}

/// `button` (device → client), pushed to connections that sent `buttons.watch`: a gesture of
/// one of the board's keys, as recognised, before the device acts on it.
/// `{"type":"button","button":"A","gesture":"hold","run":"9f…","n":12,"at":1772434800}`; `gesture`
/// is `tap`, `double_tap` or `hold`. Not journaled, but the device keeps the recent ones in
/// memory (`n` counts up within one run of the device, `run` names that run) and replays those
/// after `buttons.watch since=RUN:N` with `replayed: true` (docs/protocol.md#summary-and-buttons).
public struct ButtonMessage: Codable, Sendable, Equatable {
    public static let type = "button"
    public var type = ButtonMessage.type
    public var button: String
    public var gesture: String
    public var run: String?
    public var n: Int64?
    public var at: Int64?
    public var replayed: Bool?
    public static let gestures = ["tap", "double_tap", "hold"]
    public init(button: String, gesture: String, run: String? = nil, n: Int64? = nil, at: Int64? = nil) {
        self.button = button; self.gesture = gesture; self.run = run; self.n = n; self.at = at
    }
}
