/// Commands of commitments and focus sessions, and their protocol fields (docs/commitments.md).

/// A new commitment, as parsed. Absent optional fields take their defaults when decided.
public struct CommitmentDraft: Sendable, Equatable {
    /// Default: the command id.
    public var id: String?
    public var kind: CommitmentKind
    public var schedule: CommitmentSchedule
    /// ± minutes (default 10).
    public var window: Int?
    public var stake: Int
    /// Place only (default 50 m).
    public var radius: Int?
    /// Focus only (default 25).
    public var minutes: Int?

    public init(id: String? = nil, kind: CommitmentKind, schedule: CommitmentSchedule, window: Int? = nil, stake: Int,
                radius: Int? = nil, minutes: Int? = nil) {
        self.id = id; self.kind = kind; self.schedule = schedule; self.window = window; self.stake = stake
        self.radius = radius; self.minutes = minutes
    }
}

public enum CommitmentAction: Sendable, Equatable {
    case add(CommitmentDraft)
    /// Only before its (next) window opens; ends the commitment and releases the held stake.
    case cancel(id: String)
    /// Wake-up (button or device) and on-time (button, device or phone) commitments.
    case verify(id: String, source: VerifySource)
    /// Place commitments: the phone's verdict.
    case placeVerdict(id: String, ok: Bool)
    /// nil minutes: the length an open focus commitment needs, else 25.
    case startFocus(minutes: Int?, block: [String])
    case cancelFocus
    /// The phone saw this app used during the session.
    case appUsed(app: String)

    /// The protocol name of the command.
    public var name: String {
        switch self {
        case .add: "commitment.add"
        case .cancel: "commitment.cancel"
        case .verify: "commitment.verify"
        case .placeVerdict: "commitment.place-verdict"
        case .startFocus: "focus.start"
        case .cancelFocus: "focus.cancel"
        case .appUsed: "focus.app-used"
        }
    }
}

/// Command names and fields of this subsystem (merged into CommandParser).
enum CommitmentCommands: CommandTable {
    static let fields: [String: Set<String>] = [
        "commitment.add": ["commitment", "kind", "at", "days", "until", "window", "stake", "radius", "minutes"],
        "commitment.cancel": ["commitment"],
        "commitment.verify": ["commitment", "source"],
        "commitment.place-verdict": ["commitment", "ok"],
        "focus.start": ["minutes", "block"],
        "focus.cancel": [],
        "focus.app-used": ["app"],
    ]

    /// The action for `name`, or nil if the name is not this subsystem's.
    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? {
        switch name {
        case "commitment.add":
            let kindText = try f.required("kind")
            guard let kind = CommitmentKind(rawValue: kindText) else {
                throw .invalidField(field: "kind", reason: "must be wake-up, on-time, focus or place")
            }
            guard let stake = try f.int("stake") else { throw .missingField(field: "stake") }
            return .commitment(.add(CommitmentDraft(id: f["commitment"], kind: kind, schedule: try schedule(f),
                                                    window: try f.int("window"), stake: stake,
                                                    radius: try f.int("radius"), minutes: try f.int("minutes"))))
        case "commitment.cancel":
            return .commitment(.cancel(id: try f.required("commitment")))
        case "commitment.verify":
            var source = VerifySource.phone
            if let s = f["source"] {
                guard let v = VerifySource(rawValue: s), [.button, .device, .phone].contains(v) else {
                    throw .invalidField(field: "source", reason: "must be button, device or phone")
                }
                source = v
            }
            return .commitment(.verify(id: try f.required("commitment"), source: source))
        case "commitment.place-verdict":
            let ok: Bool
            switch try f.required("ok") {
            case "yes": ok = true
            case "no": ok = false
            default: throw .invalidField(field: "ok", reason: "must be yes or no")
            }
            return .commitment(.placeVerdict(id: try f.required("commitment"), ok: ok))
        case "focus.start":
            let block = (f["block"] ?? "").split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
            return .commitment(.startFocus(minutes: try f.int("minutes"), block: block))
        case "focus.cancel":
            return .commitment(.cancelFocus)
        case "focus.app-used":
            return .commitment(.appUsed(app: try f.required("app")))
        default:
            return nil
        }
    }

    /// `at=<time>` (one-off) or `at=HH:MM days=mon,wed until=YYYY-MM-DD` (weekly).
    private static func schedule(_ f: CommandParser.Fields) throws(DomainError) -> CommitmentSchedule {
        guard let days = f["days"] else {
            if f["until"] != nil { throw .invalidField(field: "until", reason: "is only for weekly commitments (with days=)") }
            guard let t = try f.time("at") else { throw .missingField(field: "at") }
            return .once(t)
        }
        var weekdays: [Int] = []
        for part in days.lowercased().split(separator: ",") {
            let name = String(part).trimmingSpaces
            guard let i = Recurrence.weekdayNames.firstIndex(of: name) ?? Recurrence.fullWeekdayNames.firstIndex(of: name) else {
                throw .invalidField(field: "days", reason: "unknown weekday (use sun,mon,tue,wed,thu,fri,sat)")
            }
            if !weekdays.contains(i) { weekdays.append(i) }
        }
        guard !weekdays.isEmpty else { throw .invalidField(field: "days", reason: "choose at least one weekday") }
        guard let minute = TimeText.minuteOfDay(try f.required("at")) else {
            throw .invalidField(field: "at", reason: "must be HH:MM (local time of day) with days=")
        }
        guard let u = f["until"] else { throw .missingField(field: "until") }
        guard let until = CivilDate(parsing: u) else { throw .invalidField(field: "until", reason: "must be YYYY-MM-DD") }
        return .weekly(weekdays, secondOfDay: minute * 60, until: until)
    }
}
