/// Commands: what an owner (through the device buttons or the phone) asks for. Every command has a
/// client-chosen id; the same id never applies twice.

public struct Command: Sendable, Equatable {
    public var id: String
    /// When the command was issued (injected clock).
    public var at: Instant
    public var action: Action

    public init(id: String, at: Instant, action: Action) {
        self.id = id; self.at = at; self.action = action
    }
}

/// Fields of a new task. Absent optional fields take the defaults of docs/domain.md#tasks.
public struct TaskDraft: Sendable, Equatable {
    public var id: String?
    public var title: String
    public var notes: String = ""
    public var category: String?
    public var project: String?
    public var priority: Priority = .normal
    public var start: Instant?
    public var due: Instant?
    public var estimate: Int?
    public var recurrence: Recurrence?
    public var reminders: [Instant] = []
    /// The wall-clock time of day the owner wrote for the due (or the start when undated), seconds
    /// since midnight, when it was written as a local time; used only if it resolves to the due.
    public var plannedSecondOfDay: Int?

    public init(id: String? = nil, title: String) { self.id = id; self.title = title }
}

/// Changes to a task: nil = keep; names in `clear` are removed (due, project, estimate,
/// recurrence, reminders).
public struct TaskPatch: Sendable, Equatable {
    public var title: String?
    public var notes: String?
    public var category: String?
    public var project: String?
    public var priority: Priority?
    public var start: Instant?
    public var due: Instant?
    public var estimate: Int?
    public var recurrence: Recurrence?
    public var reminders: [Instant]?
    /// As in `TaskDraft`, for a new due (or start of an undated task).
    public var plannedSecondOfDay: Int?
    public var clear: [String] = []
    public init() {}
}

public enum Action: Sendable, Equatable {
    case createTask(TaskDraft)
    case editTask(id: String, TaskPatch)
    case deleteTask(id: String)
    case duplicateTask(id: String, newID: String?)
    case startTask(id: String)
    case completeTask(id: String)
    case uncompleteTask(id: String)
    /// nil index = every remaining reminder of the task.
    case silenceReminder(taskID: String, index: Int?)
    case addCategory(name: String)
    case renameCategory(name: String, to: String)
    case deleteCategory(name: String)
    case setTimeZone(id: String)
    case setDayStart(hour: Int)
    case setQuietHours(startMinute: Int, endMinute: Int)
    case pause
    case resume
    case renamePet(name: String)
    case setPetTraits(species: String?, colour: String?, personality: Personality?)
    case petThePet
    /// Theme, sound, brightness, dim and sleep times (the whole new settings).
    case setDevice(DeviceSettings)
    /// Habits, the course and the evening check-in (Habits.swift).
    case habit(HabitAction)
    /// Store, inventory, care and streak repair (Shop.swift).
    case shop(ShopAction)
    /// Commitments and focus sessions (Commitments.swift).
    case commitment(CommitmentAction)
    /// The quit log (QuitLog.swift).
    case quit(QuitAction)
    /// Screen time and challenges (ScreenTime.swift).
    case appTime(AppTimeAction)
    /// Reminder delivery to the phone, silence (Reminders/Reminders.swift).
    case reminder(ReminderAction)
    /// Paired phones and pairing lockouts (Phones/Phones.swift; only the phone link sends these).
    case phone(PhoneAction)
    /// Circles: membership, challenge stakes and settlements (Circles/CircleLedger.swift).
    case circle(CircleAction)

    /// The protocol name of the command (also the scenario `send` name).
    public var name: String {
        switch self {
        case .createTask: "task.create"
        case .editTask: "task.edit"
        case .deleteTask: "task.delete"
        case .duplicateTask: "task.duplicate"
        case .startTask: "task.start"
        case .completeTask: "task.complete"
        case .uncompleteTask: "task.uncomplete"
        case .silenceReminder: "reminder.silence"
        case .addCategory: "category.add"
        case .renameCategory: "category.rename"
        case .deleteCategory: "category.delete"
        case .setTimeZone: "settings.zone"
        case .setDayStart: "settings.day-start"
        case .setQuietHours: "settings.quiet-hours"
        case .pause: "pause"
        case .resume: "resume"
        case .renamePet: "pet.name"
        case .setPetTraits: "pet.traits"
        case .petThePet: "pet.pet"
        case .setDevice: "settings.device"
        case .habit(let a): a.name
        case .shop(let a): a.name
        case .commitment(let a): a.name
        case .quit(let a): a.name
        case .appTime(let a): a.name
        case .reminder(let a): a.name
        case .phone(let a): a.name
        case .circle(let a): a.name
        }
    }
}
