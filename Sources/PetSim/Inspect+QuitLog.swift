import PetCore

extension Inspector {
    /// Values of the QuitLog subsystem a scenario can `expect` (nil: not one of its names).
    static func quitValue(_ path: String, _ device: SimDevice) -> String? {
        let s = device.app.state
        let now = device.now
        let today = s.stats[s.clock.day(of: now)]
        switch path {
        case "quit.started": return s.quit.startedAt != nil ? "yes" : "no"
        case "quit.urges": return "\(s.quit.urges)"
        case "quit.give-ins": return "\(s.quit.giveIns)"
        case "quit.today.urges": return "\(today.urges)"
        case "quit.today.give-ins": return "\(today.giveIns)"
        case "quit.clean-days": return "\(s.quitCleanDays)"
        case "quit.goal": return s.quit.goalDays.map { "\($0)" } ?? "none"
        case "quit.gauge": return s.quitGauge(at: now).map { "\($0.percentLeft)" } ?? "none"
        case "quit.pod-day": return s.quitGauge(at: now).map { "\($0.dayOfPod)" } ?? "none"
        case "quit.since-give-in": return s.secondsSinceGiveIn(at: now).map { "\($0 / 3600)" } ?? "none"
        case "quit.recommendation": return s.quitRecommendation(at: now) ?? "none"
        case "quit.recommendation-key": return s.quit.lastRecommendation?.key ?? "none"
        case "quit.menu": return s.urgeTriggerMenu(at: now).joined(separator: ",")
        case "quit.menu-first": return s.urgeTriggerMenu(at: now).first ?? "none"
        case "quit.triggers": return "\(s.quitTriggers.count)"
        case "quit.reflection": return s.quitReflectionToday != nil ? "yes" : "no"
        default: break
        }
        if path.hasPrefix("quit.trigger.") {
            return s.quitTriggerName(String(path.dropFirst("quit.trigger.".count))) ?? "none"
        }
        return nil
    }
}
