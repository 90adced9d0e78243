import PetCore

extension Navigator {
    /// The next instant after `now` at which time alone changes the view: the boot screen ends,
    /// idle goes home, the screen dims or sleeps, a toast or the reminder overlay expires, or
    /// (while the screen is on) the clock on it shows a new minute — or, on the running focus
    /// screen or its break timer, a new second; the urge log's confirmation or the link-lost banner ends. nil: nothing will change until an input or an event. The device
    /// loop sleeps until the earliest of this and its other deadlines.
    ///
    /// While the screen sleeps nothing here needs a wake-up: toasts, the overlay and going home
    /// expire unseen and are settled when something else wakes the device.
    public func nextDeadline(state: PetState, now: Instant) -> Instant? {
        if ui.power == .asleep && ui.screen != .boot { return nil }
        var candidates: [Instant] = []
        if ui.screen == .boot, let until = ui.bootUntil { candidates.append(until) }
        if ui.screen != .boot, ui.screen != .home || ui.menu != nil || ui.cursor != 0 {
            candidates.append(ui.lastInput + config.homeAfter)
        }
        let d = state.device
        switch ui.power {
        case .awake:
            candidates.append(ui.lastInput + Int64(d.dimAfter))
            candidates.append(ui.lastInput + Int64(d.sleepAfter))
        case .dim:
            candidates.append(ui.lastInput + Int64(d.sleepAfter))
        case .asleep:
            break
        }
        for t in ui.toasts { candidates.append(t.until) }
        if let r = ui.reminder { candidates.append(r.due + config.reminderSeconds) }
        // The urge log's confirmation and the link-lost banner go away on their own.
        if let u = ui.urgeLoggedUntil { candidates.append(u) }
        if let at = ui.linkLostAt { candidates.append(at + Overlays.linkLostSeconds) }
        if ui.power != .asleep {
            // What the screen shows changes with the clock: the minute (home, stats, today's due
            // times), or every second on a running focus countdown.
            let onBreak = ui.focusResult?.onBreak(at: now) ?? false
            if ui.screen == .focus, state.commitments.focus != nil || onBreak {
                candidates.append(now + 1)
            } else {
                candidates.append(Instant(floorDiv(now.seconds, 60) &* 60 &+ 60))
            }
        }
        return candidates.filter { $0 > now }.min()
    }
}
