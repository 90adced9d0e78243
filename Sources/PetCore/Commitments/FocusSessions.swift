/// Focus sessions (docs/commitments.md): one at a time, 15–240 minutes (default 25), with a block list of app
/// ids. The session fails if cancelled or if the phone reports use of a blocked app; it completes
/// at its end (an absolute duration) and earns coins like a task whose estimate is its length.
/// A completed session verifies the focus commitments whose windows were open when it started.

extension Engine {
    mutating func startFocus(minutes: Int?, block: [String], at: Instant, commandID: String) throws(DomainError) {
        if let running = state.commitments.focus {
            throw .invalidState(kind: "focus session", id: running.id, reason: "is running; one session at a time")
        }
        // Focus commitments waiting for a session now (window open, stake held).
        let waiting = state.commitments.active.filter { c in
            guard c.kind == .focus, let o = c.current else { return false }
            return o.funded && o.session == nil && o.contains(at)
        }
        let length = minutes ?? waiting.compactMap(\.plan.focusMinutes).max() ?? CommitmentRules.defaultFocus
        guard CommitmentRules.focusRange.contains(length) else {
            throw .invalidField(field: "minutes", reason: "a focus session must be \(CommitmentRules.focusRange.text) minutes (got \(length))")
        }
        var apps: [String] = []
        for app in block {
            try TaskRules.validateID(app, field: "block")
            if !apps.contains(app) { apps.append(app) }
        }
        guard apps.count <= CommitmentRules.maxBlockedApps else {
            throw .limitReached(what: "blocked apps", limit: CommitmentRules.maxBlockedApps)
        }
        let linked = waiting.filter { ($0.plan.focusMinutes ?? CommitmentRules.defaultFocus) <= length }.map(\.id)
        let end = at + Int64(length).saturatingMultiplied(by: Seconds.minute)
        // Its end is stored: one after the latest valid instant would poison the journal.
        guard TimeRange.contains(end) else {
            throw .invalidField(field: "minutes", reason: "the session would end after the latest valid instant (\(TimeRange.text))")
        }
        let session = FocusSession(id: commandID, start: at, end: end, minutes: length,
                                   blocked: apps, commitments: linked)
        emit(.commitment(.focusStarted(session)), at: at)
    }

    /// Cancelled, or a blocked app was used: the session fails, and so do the focus commitments
    /// it was meant to verify (no retries).
    mutating func failFocus(_ reason: FocusFailure, app: String?, at: Instant) throws(DomainError) {
        guard let s = state.commitments.focus else {
            throw .invalidState(kind: "focus session", id: "none", reason: "is not running")
        }
        if let app, !s.blocked.contains(app) {
            throw .invalidField(field: "app", reason: "is not on the running session's block list")
        }
        emit(.commitment(.focusFailed(session: s.id, reason: reason, app: app)), at: at)
        for id in s.commitments {
            guard let c = state.commitments.items[id], c.status == .active, let o = c.current, o.session == s.id else { continue }
            emit(.commitment(.forfeited(id: id, n: o.n, stake: c.plan.stake, reason: .focus)), at: at)
            scheduleNext(id, after: at)
        }
        say(.missed, at: at)
    }

    /// The session reached its end: reward (a normal-priority, on-time, one-off task with
    /// estimate = its minutes), XP, the linked commitments verified, the focus-end reminder.
    mutating func completeFocus(_ s: FocusSession, at: Instant, upTo t: Instant) {
        let reward = RewardRules.taskReward(priority: .normal, timing: .onTime, recurring: false, estimateMinutes: s.minutes)
        let before = state.level
        emit(.commitment(.focusCompleted(session: s.id, minutes: s.minutes, reward: reward)), at: at)
        for id in s.commitments {
            guard let c = state.commitments.items[id], c.status == .active, let o = c.current, o.session == s.id else { continue }
            emit(.commitment(.verified(id: id, n: o.n, source: .focus, stake: c.plan.stake)), at: at)
            scheduleNext(id, after: at)
        }
        notify(Reminder(id: "focus:\(s.id)", source: .focus, ref: s.id, due: s.end, solicited: true), at: at, upTo: t)
        celebrateLevels(from: before, at: at)
        awardBadges(at: at)
        say(state.level > before ? .levelUp : .taskDone, at: at)
    }
}
