import PetCore

extension Inspector {
    /// Values of the ScreenTime subsystem a scenario can `expect` (nil: not one of its names).
    static func screenValue(_ path: String, _ device: SimDevice) -> String? {
        let s = device.app.state
        let day = s.clock.day(of: device.now)
        switch path {
        case "screen.shareable": return s.shareableApps().joined(separator: ",")
        case "challenges.completed": return "\(s.screen.completed)"
        case "challenges.forfeited": return "\(s.screen.forfeited)"
        case "challenges.active": return "\(s.screen.active.count)"
        case "challenge-sound": return s.screen.lastSound?.sound.rawValue ?? "none"
        default: break
        }
        func after(_ prefix: String) -> String? {
            path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
        }
        if let app = after("screen.today.") { return "\(s.screenMinutes(day: day)[app] ?? 0)" }
        if let app = after("screen.yesterday.") { return "\(s.screenMinutes(day: day - 1)[app] ?? 0)" }
        if let app = after("screen.week.") { return "\(s.screenMinutes(weekOf: day)[app] ?? 0)" }
        if let app = after("screen.month.") {
            let date = s.clock.date(ofDay: day)
            return "\(s.screenMinutes(year: date.year, month: date.month)[app] ?? 0)"
        }
        if let app = after("screen.private.") { return s.screen.privateApps.contains(app) ? "yes" : "no" }
        if let app = after("challenge-days.") { return "\(s.screen.active[app]?.passedDays ?? 0)" }
        if let app = after("challenge.") {
            guard let ch = s.screen.active[app] else { return "none" }
            return ch.startDay > s.openDay ? "waiting" : "running"
        }
        return nil
    }
}
