/// Badges (docs/domain.md#streak-and-badges): each awarded once, with the instant it was earned. Adding a badge kind is
/// adding one entry to `Badges.all`.

public struct BadgeKind: Sendable, Equatable {
    public enum Rule: Sendable, Equatable {
        /// Lifetime completed tasks reached n.
        case tasksCompleted(Int)
        /// Daily streak reached n days.
        case streak(Int)
        /// Level reached n.
        case level(Int)
        /// A Monday–Sunday week with nothing missed and at least one item done.
        case perfectWeek
        /// First purchase in the store.
        case firstPurchase
        /// A screen-time challenge of this kind completed (docs/screen-time.md).
        case challenge(String)
        /// n days without a give-in in the quit log (docs/quit-log.md).
        case quitDays(Int)
    }
    public var id: String
    public var title: String
    public var rule: Rule
}

/// The numbers badges are judged on.
public struct BadgeProgress: Sendable, Equatable {
    public var tasksCompleted: Int
    public var streak: Int
    public var level: Int
    public var perfectWeeks: Int
    public var purchases: Int
    /// Kinds of screen-time challenge completed at least once.
    public var challengeKinds: Set<String> = []
    /// Whole days since the last give-in (or since the quit log started).
    public var quitDays: Int = 0
}

public enum Badges {
    public static let all: [BadgeKind] = [
        BadgeKind(id: "task-1", title: "First task", rule: .tasksCompleted(1)),
        BadgeKind(id: "task-10", title: "10 tasks", rule: .tasksCompleted(10)),
        BadgeKind(id: "task-100", title: "100 tasks", rule: .tasksCompleted(100)),
        BadgeKind(id: "task-1000", title: "1000 tasks", rule: .tasksCompleted(1000)),
        BadgeKind(id: "streak-3", title: "3-day streak", rule: .streak(3)),
        BadgeKind(id: "streak-7", title: "7-day streak", rule: .streak(7)),
        BadgeKind(id: "streak-21", title: "21-day streak", rule: .streak(21)),
        BadgeKind(id: "streak-66", title: "66-day streak", rule: .streak(66)),
        BadgeKind(id: "streak-100", title: "100-day streak", rule: .streak(100)),
        BadgeKind(id: "perfect-week", title: "Perfect week", rule: .perfectWeek),
        BadgeKind(id: "level-5", title: "Level 5", rule: .level(5)),
        BadgeKind(id: "level-10", title: "Level 10", rule: .level(10)),
        BadgeKind(id: "level-25", title: "Level 25", rule: .level(25)),
        BadgeKind(id: "level-50", title: "Level 50", rule: .level(50)),
        BadgeKind(id: "level-100", title: "Level 100", rule: .level(100)),
        BadgeKind(id: "first-purchase", title: "First purchase", rule: .firstPurchase),
        // Quit-log milestones (docs/quit-log.md): whole days without a give-in.
        BadgeKind(id: "quit-1", title: "1 day without giving in", rule: .quitDays(1)),
        BadgeKind(id: "quit-3", title: "3 days without giving in", rule: .quitDays(3)),
        BadgeKind(id: "quit-7", title: "7 days without giving in", rule: .quitDays(7)),
        BadgeKind(id: "quit-14", title: "14 days without giving in", rule: .quitDays(14)),
        BadgeKind(id: "quit-30", title: "30 days without giving in", rule: .quitDays(30)),
        BadgeKind(id: "quit-90", title: "90 days without giving in", rule: .quitDays(90)),
        // Screen-time challenges completed (docs/screen-time.md): one per built-in kind, one for custom ones.
        BadgeKind(id: "challenge-youtube-2h-fast", title: "YouTube 2-hour fast", rule: .challenge("youtube-2h-fast")),
        BadgeKind(id: "challenge-whatsapp-1-minute", title: "WhatsApp 1-minute limit", rule: .challenge("whatsapp-1-minute")),
        BadgeKind(id: "challenge-instagram-detox-day", title: "Instagram detox day", rule: .challenge("instagram-detox-day")),
        BadgeKind(id: "challenge-custom", title: "Own challenge done", rule: .challenge("custom")),
    ]

    public static func kind(id: String) -> BadgeKind? { all.first { $0.id == id } }

    /// Badges whose rule is met by `p` and that are not in `earned`, in table order.
    public static func newlyEarned(_ p: BadgeProgress, earned: [String: Instant]) -> [BadgeKind] {
        all.filter { b in
            guard earned[b.id] == nil else { return false }
            switch b.rule {
            case .tasksCompleted(let n): return p.tasksCompleted >= n
            case .streak(let n): return p.streak >= n
            case .level(let n): return p.level >= n
            case .perfectWeek: return p.perfectWeeks > 0
            case .firstPurchase: return p.purchases > 0
            case .challenge(let kind): return p.challengeKinds.contains(kind)
            case .quitDays(let n): return p.quitDays >= n
            }
        }
    }
}
