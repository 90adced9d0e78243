/// What may leave the device (export, phone sync): apps marked private are excluded from anything
/// shared but still counted on the device (SPEC §10, §13).
extension PetState {
    /// App ids the owner marked private.
    public var privateApps: Set<String> { screen.privateApps }

    /// A copy of the state with every trace of private apps removed, for export and sharing.
    public func sharedCopy() -> PetState {
        let hidden = screen.privateApps
        guard !hidden.isEmpty else { return self }
        var s = self
        s.screen.recent.removeAll { hidden.contains($0.app) }
        s.screen.daySeconds = s.screen.daySeconds.mapValues { $0.filter { !hidden.contains($0.key) } }
        s.screen.knownApps.subtract(hidden)
        s.screen.active = s.screen.active.filter { !hidden.contains($0.key) }
        s.screen.history.removeAll { hidden.contains($0.challenge.app) }
        s.screen.privateApps = []
        for (day, d) in s.stats.days where d.screenMinutes.keys.contains(where: hidden.contains) {
            s.stats.days[day]?.screenMinutes = d.screenMinutes.filter { !hidden.contains($0.key) }
        }
        return s
    }
}

extension ScreenEvent {
    /// The app the event is about.
    public var app: String {
        switch self {
        case .session(let app, _, _), .privacy(let app, _), .dayPassed(let app, _, _),
             .completed(let app, _, _, _), .forfeited(let app, _, _, _, _, _, _):
            return app
        case .challengeStarted(let c):
            return c.app
        }
    }
}

extension EventKind {
    /// False for events about an app in `privateApps` (they stay on the device).
    public func isShareable(privateApps: Set<String>) -> Bool {
        if case .screen(let e) = self { return !privateApps.contains(e.app) }
        return true
    }
}
