// ActionInstants.swift — the instants a command's action carries, listed by the core
// (docs/domain.md: every instant that enters the program lies in `TimeRange.instants`).
//
// `Engine.checkRange` checks these; a test (ActionInstantsTests) walks every action case by
// reflection, with its instants at the extremes, and compares what it finds with this list, so a
// new case or a new field holding an instant cannot be left out.

/// One instant inside an action, with the field it is reported under when it is out of range
/// (`due`, `reminders[1]`, `until`).
public struct ActionInstant: Sendable, Equatable {
    public var field: String
    /// The position in a list (`reminders[1]`); nil for a single instant.
    public var index: Int?
    public var instant: Instant

    public init(field: String, index: Int? = nil, instant: Instant) {
        self.field = field; self.index = index; self.instant = instant
    }

    /// The field as a refusal names it.
    public var fieldName: String { index.map { "\(field)[\($0)]" } ?? field }
}

extension Action {
    /// Every instant this action carries, in the order of its fields (the first one outside the
    /// range is the one a refusal names). Most actions carry none (an empty list, no allocation).
    public var instants: [ActionInstant] {
        switch self {
        case .createTask(let d):
            return Self.taskInstants(start: d.start, due: d.due, reminders: d.reminders)
        case .editTask(_, let p):
            return Self.taskInstants(start: p.start, due: p.due, reminders: p.reminders ?? [])
        case .deleteTask, .duplicateTask, .startTask, .completeTask, .uncompleteTask, .silenceReminder, .addCategory,
             .renameCategory, .deleteCategory, .setTimeZone, .setDayStart, .setQuietHours, .pause, .resume, .renamePet,
             .setPetTraits, .petThePet, .setDevice, .habit, .shop, .quit:
            return []
        case .commitment(let a):
            switch a {
            case .add(let d): return d.schedule.once.map { [ActionInstant(field: "once", instant: $0)] } ?? []
            case .cancel, .verify, .placeVerdict, .startFocus, .cancelFocus, .appUsed: return []
            }
        case .appTime(let a):
            switch a {
            case let .session(_, start, end):
                return [ActionInstant(field: "start", instant: start), ActionInstant(field: "end", instant: end)]
            case .setPrivate, .startBuiltIn, .startCustom, .forfeit: return []
            }
        case .reminder(let a):
            switch a {
            case .silence(let until): return until.map { [ActionInstant(field: "until", instant: $0)] } ?? []
            case .delivered: return []
            }
        case .phone(let a):
            switch a {
            case .lockPairing(let until): return [ActionInstant(field: "until", instant: until)]
            case .pair, .unpair: return []
            }
        case .circle(let a):
            switch a {
            case let .accept(_, terms):
                return [ActionInstant(field: "start", instant: terms.start), ActionInstant(field: "end", instant: terms.end)]
            case let .final(_, _, progress):
                return progress.finalAt.map { [ActionInstant(field: "finalAt", instant: $0)] } ?? []
            case let .standing(_, standing): return [ActionInstant(field: "at", instant: standing.at)]
            case .join, .leave, .judge, .settle: return []
            }
        }
    }

    private static func taskInstants(start: Instant?, due: Instant?, reminders: [Instant]) -> [ActionInstant] {
        if start == nil && due == nil && reminders.isEmpty { return [] }
        var out: [ActionInstant] = []
        out.reserveCapacity(2 + reminders.count)
        if let start { out.append(ActionInstant(field: "start", instant: start)) }
        if let due { out.append(ActionInstant(field: "due", instant: due)) }
        for (i, r) in reminders.enumerated() { out.append(ActionInstant(field: "reminders", index: i, instant: r)) }
        return out
    }
}
