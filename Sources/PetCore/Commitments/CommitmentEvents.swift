/// Journal events of commitments and focus sessions (docs/commitments.md). Each encodes as a flat JSON object
/// with its `type` and fields (docs/commitments.md lists them).

/// Why a commitment's occurrence was forfeited (its stake went to the charity jar).
public enum ForfeitReason: String, Codable, Sendable, CaseIterable {
    /// Its window closed without a verification.
    case missed
    /// The phone reported that the place was not reached (`ok=no`).
    case place
    /// The focus session meant to verify it was cancelled or broken by a blocked app.
    case focus
}

/// Why a focus session failed.
public enum FocusFailure: String, Codable, Sendable, CaseIterable {
    /// `focus.cancel`.
    case cancelled
    /// The phone reported use of an app on the session's block list.
    case app
}

public enum CommitmentEvent: SubEvent {
    /// A commitment was set (its definition; the first occurrence follows as `reserved`).
    case added(CommitmentPlan)
    /// Occurrence `n` (set time `target`) is scheduled and its stake reserved: −stake.
    case reserved(id: String, n: Int, target: Instant, stake: Int)
    /// Occurrence `n` is scheduled but the balance could not cover its stake; tried again when
    /// its window opens.
    case unfunded(id: String, n: Int, target: Instant)
    /// Occurrence `n`'s verification window opened.
    case windowOpened(id: String, n: Int)
    /// Verified inside its window: the stake is released (+stake).
    case verified(id: String, n: Int, source: VerifySource, stake: Int)
    /// Failed: the stake (already reserved) goes to the charity jar; the balance is unchanged.
    case forfeited(id: String, n: Int, stake: Int, reason: ForfeitReason)
    /// Its window closed while paused: released, not failed (+stake).
    case excused(id: String, n: Int, stake: Int)
    /// Its window opened and the balance still could not cover the stake: not held, not failed.
    case skipped(id: String, n: Int)
    /// Cancelled before its window opened: the held stake (0 if none) is released.
    case cancelled(id: String, stake: Int)
    /// No further occurrence (a one-off was settled, or a weekly one passed its end date).
    case finished(id: String)
    case focusStarted(FocusSession)
    /// The session ran its full length: coins and XP like a task with estimate = its minutes.
    case focusCompleted(session: String, minutes: Int, reward: Reward)
    case focusFailed(session: String, reason: FocusFailure, app: String?)

    public var type: String {
        switch self {
        case .added: "commitment.added"
        case .reserved: "commitment.reserved"
        case .unfunded: "commitment.unfunded"
        case .windowOpened: "commitment.window-opened"
        case .verified: "commitment.verified"
        case .forfeited: "commitment.forfeited"
        case .excused: "commitment.excused"
        case .skipped: "commitment.skipped"
        case .cancelled: "commitment.cancelled"
        case .finished: "commitment.finished"
        case .focusStarted: "focus.started"
        case .focusCompleted: "focus.completed"
        case .focusFailed: "focus.failed"
        }
    }

    public var coinsDelta: Int {
        switch self {
        case .reserved(_, _, _, let stake): -stake
        case .verified(_, _, _, let stake), .excused(_, _, let stake), .cancelled(_, let stake): stake
        case .focusCompleted(_, _, let r): r.coins
        default: 0
        }
    }

    public var xpDelta: Int {
        if case .focusCompleted(_, _, let r) = self { return r.xp }
        return 0
    }

    public static func owns(_ type: String) -> Bool { type.hasPrefix("commitment.") || type.hasPrefix("focus.") || type.hasPrefix("charity.") }
    public static let allTypes: [String] = [
        "commitment.added", "commitment.reserved", "commitment.unfunded", "commitment.window-opened",
        "commitment.verified", "commitment.forfeited", "commitment.excused", "commitment.skipped",
        "commitment.cancelled", "commitment.finished", "focus.started", "focus.completed", "focus.failed",
    ]

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        func put<T: Encodable>(_ v: T, _ k: String) throws { try c.encode(v, forKey: AnyKey(k)) }
        try put(type, "type")
        switch self {
        case .added(let p): try put(p, "commitment")
        case let .reserved(id, n, target, stake):
            try put(id, "id"); try put(n, "n"); try put(target, "target"); try put(stake, "stake")
        case let .unfunded(id, n, target): try put(id, "id"); try put(n, "n"); try put(target, "target")
        case let .windowOpened(id, n), let .skipped(id, n): try put(id, "id"); try put(n, "n")
        case let .verified(id, n, source, stake):
            try put(id, "id"); try put(n, "n"); try put(source, "source"); try put(stake, "stake")
        case let .forfeited(id, n, stake, reason):
            try put(id, "id"); try put(n, "n"); try put(stake, "stake"); try put(reason, "reason")
        case let .excused(id, n, stake): try put(id, "id"); try put(n, "n"); try put(stake, "stake")
        case let .cancelled(id, stake): try put(id, "id"); try put(stake, "stake")
        case .finished(let id): try put(id, "id")
        case .focusStarted(let s): try put(s, "session")
        case let .focusCompleted(id, minutes, r):
            try put(id, "id"); try put(minutes, "minutes"); try put(r.coins, "coins"); try put(r.xp, "xp")
        case let .focusFailed(id, reason, app):
            try put(id, "id"); try put(reason, "reason")
            if let app { try put(app, "app") }
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        func get<T: Decodable>(_ k: String) throws -> T { try c.decode(T.self, forKey: AnyKey(k)) }
        let type: String = try get("type")
        switch type {
        case "commitment.added": self = .added(try get("commitment"))
        case "commitment.reserved": self = .reserved(id: try get("id"), n: try get("n"), target: try get("target"), stake: try get("stake"))
        case "commitment.unfunded": self = .unfunded(id: try get("id"), n: try get("n"), target: try get("target"))
        case "commitment.window-opened": self = .windowOpened(id: try get("id"), n: try get("n"))
        case "commitment.verified":
            self = .verified(id: try get("id"), n: try get("n"), source: try get("source"), stake: try get("stake"))
        case "commitment.forfeited":
            self = .forfeited(id: try get("id"), n: try get("n"), stake: try get("stake"), reason: try get("reason"))
        case "commitment.excused": self = .excused(id: try get("id"), n: try get("n"), stake: try get("stake"))
        case "commitment.skipped": self = .skipped(id: try get("id"), n: try get("n"))
        case "commitment.cancelled": self = .cancelled(id: try get("id"), stake: try get("stake"))
        case "commitment.finished": self = .finished(id: try get("id"))
        case "focus.started": self = .focusStarted(try get("session"))
        case "focus.completed":
            self = .focusCompleted(session: try get("id"), minutes: try get("minutes"),
                                   reward: Reward(coins: try get("coins"), xp: try get("xp")))
        case "focus.failed":
            self = .focusFailed(session: try get("id"), reason: try get("reason"),
                                app: try c.decodeIfPresent(String.self, forKey: AnyKey("app")))
        default: throw unknownSubEvent(decoder, type)
        }
    }
}
