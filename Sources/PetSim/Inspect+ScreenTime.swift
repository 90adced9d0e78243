import PetCore

extension Inspector {
    /// Values of the ScreenTime subsystem a scenario can `expect` (nil: not one of its names).
    static func appTimeValue(_ path: String, _ device: SimDevice) -> String? {
        let s = device.app.state
        let day = s.clock.day(of: device.now)
        switch path {
        case "screen.shareable": return s.shareableApps().joined(separator: ",")
        case "challenges.completed": return "\(s.appTime.completed)"
        case "challenges.forfeited": return "\(s.appTime.forfeited)"
        case "challenges.active": return "\(s.appTime.active.count)"
        case "challenge-sound": return s.appTime.lastSound?.sound.rawValue ?? "none"
        default: break
        }
        func after(_ prefix: String) -> String? {
            path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
        }
        if let app = after("screen.today.") { return "\(s.appMinutes(day: day)[app] ?? 0)" }
        if let app = after("screen.yesterday.") { return "\(s.appMinutes(day: day - 1)[app] ?? 0)" }
        if let app = after("screen.week.") { return "\(s.appMinutes(weekOf: day)[app] ?? 0)" }
        if let app = after("screen.month.") {
            let date = s.clock.date(ofDay: day)
            return "\(s.appMinutes(year: date.year, month: date.month)[app] ?? 0)"
        }
        if let app = after("screen.private.") { return s.appTime.privateApps.contains(app) ? "yes" : "no" }
        if let app = after("challenge-days.") { return "\(s.appTime.active[app]?.passedDays ?? 0)" }
        if let app = after("challenge.") {
            guard let ch = s.appTime.active[app] else { return "none" }
            return ch.startDay > s.openDay ? "waiting" : "running"
        }
        return nil
    }
}
