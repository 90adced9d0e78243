/// Reward, XP and level formulas (docs/domain.md#rewards-xp-levels), in exact integer arithmetic.

/// Coins and XP earned by one event.
public struct Reward: Codable, Sendable, Equatable {
    public var coins: Int
    public var xp: Int
    public init(coins: Int, xp: Int) { self.coins = coins; self.xp = xp }
}

/// When a task was completed relative to its due time.
public enum Timing: String, Codable, Sendable {
    /// ≥ 24 h before due: ×1.25
    case early
    /// before due, or no due: ×1.0
    case onTime = "on_time"
    /// after due (same day, or a missed task completed later): ×0.5
    case late

    /// The timing factor in hundredths.
    public var percent: Int {
        switch self { case .early: 125; case .onTime: 100; case .late: 50 }
    }
}

public enum RewardRules {
    /// coins = round(base × timing × repeat) + size; XP = 2 × coins.
    ///
    /// - base: 5/10/20 for low/normal/high priority
    /// - timing: 1.25 / 1.0 / 0.5
    /// - repeat: 0.8 for recurring tasks, else 1
    /// - size: +1 per full 15 minutes of estimate, at most +16
    /// Rounding is half away from zero, computed exactly on integers (hundredths × hundredths).
    public static func taskReward(priority: Priority, timing: Timing, recurring: Bool, estimateMinutes: Int?) -> Reward {
        let repeatPercent = recurring ? 80 : 100
        let scaled = priority.baseCoins * timing.percent * repeatPercent // in 1/10000 coins
        let rounded = (scaled + 5_000) / 10_000
        let size = min((estimateMinutes ?? 0) / 15, 16)
        let coins = rounded + size
        return Reward(coins: coins, xp: 2 * coins)
    }

    /// Timing of a completion at `done` for a task due at `due` (days from `clock`).
    public static func timing(done: Instant, due: Instant?) -> Timing {
        guard let due else { return .onTime }
        if due - done >= Seconds.day { return .early }
        if done <= due { return .onTime }
        return .late
    }
}

/// Levels 1...100; XP needed from level L to L+1 = 50 + 25 × L.
public enum Levels {
    public static let maxLevel = 100

    /// XP needed to go from `level` to `level + 1`.
    public static func xpToNext(from level: Int) -> Int { 50 + 25 * level }

    /// Total XP needed to reach `level` from zero (level 1 needs 0).
    public static func totalXP(toReach level: Int) -> Int {
        let n = max(0, min(level, maxLevel) - 1)
        // Σ_{k=1}^{n} (50 + 25k) = 50n + 25·n(n+1)/2
        return 50 * n + 25 * n * (n + 1) / 2
    }

    /// The level for a total XP amount.
    public static func level(forXP xp: Int) -> Int {
        var lo = 1, hi = maxLevel
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if totalXP(toReach: mid) <= xp { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Progress inside the current level: (xp into level, xp needed for the next). At level 100
    /// the bar is full.
    public static func progress(forXP xp: Int) -> (into: Int, needed: Int) {
        let l = level(forXP: xp)
        if l >= maxLevel { return (1, 1) }
        return (xp - totalXP(toReach: l), xpToNext(from: l))
    }
}
