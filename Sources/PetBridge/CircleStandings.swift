import PetCore

extension CircleSync {
    /// The leaderboards to hand the device (`circle.standing`, docs/circles.md#leaderboards): the
    /// week's and the month's for coins, focus minutes, least screen time and the streak, ranked
    /// by `Leaderboard.rank` from the reports held, for the period most members report
    /// (`Leaderboard.period`, not this device's clock) — the top rows and this member's. The week's
    /// coins board always goes (the Circle screen's first); another only when someone is ranked
    /// on it (nobody sharing screen time: no screen board). The device stores a board only when it
    /// changed.
    public func standingCommands(own: MemberReport) -> [(name: String, fields: [String: String])] {
        var out: [(String, [String: String])] = []
        let (week, month) = Leaderboard.period(board) ?? (own.week, own.month)
        for period in LeaderboardPeriod.allCases {
            for metric in LeaderboardMetric.allCases {
                let rows = Leaderboard.rank(board, metric: metric, period: period, week: week, month: month)
                guard !rows.isEmpty || (period == .week && metric == .coins) else { continue }
                var shown = Array(rows.prefix(CircleLedgerRules.maxRows - 1))
                if !shown.contains(where: { $0.member == own.member }), let me = rows.first(where: { $0.member == own.member }) {
                    shown.append(me)
                }
                out.append(("circle.standing", ["circle": entry.circle, "metric": metric.rawValue, "period": period.rawValue,
                                                "number": "\(period == .week ? week : month)",
                                                "ranked": "\(rows.count)", "rows": shown.map(\.standingText).joined(separator: ";")]))
            }
        }
        return out
    }
}
