/// What may leave the device (export, phone sync): apps marked private are excluded from anything
/// shared but still counted on the device (docs/screen-time.md, docs/export.md).
extension PetState {
    /// App ids the owner marked private.
    public var privateApps: Set<String> { appTime.privateApps }

    /// A copy of the state with every trace of private apps removed, for export and sharing.
    public func sharedCopy() -> PetState {
        let hidden = appTime.privateApps
        guard !hidden.isEmpty else { return self }
        var s = self
        s.appTime.recent.removeAll { hidden.contains($0.app) }
        s.appTime.daySeconds = s.appTime.daySeconds.mapValues { $0.filter { !hidden.contains($0.key) } }
        s.appTime.knownApps.subtract(hidden)
        s.appTime.active = s.appTime.active.filter { !hidden.contains($0.key) }
        s.appTime.history.removeAll { hidden.contains($0.challenge.app) }
        s.appTime.privateApps = []
        s.commitments.focus?.blocked.removeAll { hidden.contains($0) }
        func strip(_ records: inout [Int: DayStats]) {
            for (key, d) in records where d.appMinutes.keys.contains(where: hidden.contains) {
                records[key]?.appMinutes = d.appMinutes.filter { !hidden.contains($0.key) }
            }
        }
        strip(&s.stats.days)
        strip(&s.stats.months)
        strip(&s.stats.years)
        return s
    }
}

extension AppTimeEvent {
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

/// How an event kind relates to the owner's private apps: the one classification every event
/// kind has (the switches below are exhaustive, with no `default`, so adding an event kind does
/// not compile until it is classified here; PrivacyFilterTests also checks each kind's JSON).
public enum AppMention: Equatable, Sendable {
    /// Names no app.
    case none
    /// The whole event is about this app: dropped when it is private.
    case about(String)
    /// Mentions these apps among other facts: the private ones are removed from a shared copy.
    case mentions([String])
}

extension EventKind {
    /// Which apps this event names (see `AppMention`).
    public var appMention: AppMention {
        switch self {
        case .genesis, .taskCreated, .taskEdited, .taskDeleted, .taskStarted, .taskCompleted, .taskUncompleted,
             .taskMissed, .taskExcused, .reminderDue, .reminderMissed, .reminderSilenced, .categoryAdded,
             .categoryRenamed, .categoryDeleted, .zoneChanged, .dayStartChanged, .quietHoursChanged, .paused,
             .resumed, .petRenamed, .petTraitsChanged, .petPetted, .petSaid, .levelReached, .badgeEarned,
             .dayClosed, .deviceSettingsChanged:
            return .none
        case .habit(let e):
            switch e {
            case .added, .edited, .reminderSet, .removed, .checked, .unchecked, .dayScored, .editUnlocked,
                 .checkinSet, .courseStarted, .lessonUnlocked, .lessonRead, .selfImageSet, .courseStopped:
                return .none
            }
        case .shop(let e):
            switch e {
            case .bought, .equipped, .unequipped, .placed, .unplaced, .fed, .streakRepaired: return .none
            }
        case .commitment(let e):
            switch e {
            case .added, .reserved, .unfunded, .windowOpened, .verified, .forfeited, .excused, .skipped,
                 .cancelled, .finished, .focusCompleted:
                return .none
            case .focusStarted(let session): return .mentions(session.blocked)
            case .focusFailed(_, _, let app): return app.map { .mentions([$0]) } ?? .none
            }
        case .quit(let e):
            switch e {
            case .started, .logged, .triggerAdded, .triggerDeleted, .reflected, .goalSet: return .none
            }
        case .appTime(let e):
            switch e {
            case .session(let app, _, _), .privacy(let app, _), .dayPassed(let app, _, _),
                 .completed(let app, _, _, _), .forfeited(let app, _, _, _, _, _, _):
                return .about(app)
            case .challengeStarted(let c): return .about(c.app)
            }
        case .reminder(let e):
            switch e {
            case .shown, .missed, .suppressed, .delivered, .silenced: return .none
            }
        case .phone(let e):
            switch e {
            case .paired, .unpaired, .pairingLocked: return .none
            }
        case .circle(let e):
            switch e {
            case .joined, .left, .staked, .finalHeld, .forfeited, .settled, .standing: return .none
            }
        }
    }

    /// The event as it may leave the device (export, sharing): nil when it is about a private
    /// app, a copy without the private apps when it mentions some, else itself.
    public func shared(privateApps: Set<String>) -> EventKind? {
        guard !privateApps.isEmpty else { return self }
        switch appMention {
        case .none: return self
        case .about(let app): return privateApps.contains(app) ? nil : self
        case .mentions(let apps):
            guard apps.contains(where: privateApps.contains) else { return self }
            switch self {
            case .commitment(.focusStarted(var session)):
                session.blocked.removeAll { privateApps.contains($0) }
                return .commitment(.focusStarted(session))
            case let .commitment(.focusFailed(session, reason, _)):
                return .commitment(.focusFailed(session: session, reason: reason, app: nil))
            default:
                return nil   // a mention this filter cannot remove: the event stays on the device
            }
        }
    }

    /// False for events about an app in `privateApps` (they stay on the device).
    public func isShareable(privateApps: Set<String>) -> Bool { shared(privateApps: privateApps) == self }
}
