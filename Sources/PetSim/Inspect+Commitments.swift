import PetCore

extension Inspector {
    /// Values of the Commitments subsystem a scenario can `expect` (nil: not one of its names).
    static func commitmentValue(_ path: String, _ device: SimDevice) -> String? {
        let s = device.app.state
        let cs = s.commitments
        func local(_ t: Instant?) -> String { t.map { s.clock.local($0).description } ?? "none" }
        switch path {
        case "charity-jar": return "\(cs.charityJar)"
        case "coins-held": return "\(cs.held)"
        case "commitments": return "\(cs.active.count)"
        case "awaiting-button":
            let ids = s.awaitingButtonPress(at: device.now)
            return ids.isEmpty ? "none" : ids.joined(separator: ",")
        case "focus": return cs.focus == nil ? "none" : "running"
        case "focus-ends": return local(cs.focus?.end)
        case "focus-completed": return "\(cs.focusCompleted)"
        case "focus-failed": return "\(cs.focusFailed)"
        case "focus-minutes": return "\(cs.focusMinutes)"
        case "focus-minutes-today": return "\(s.stats[s.openDay].focusMinutes)"
        default: break
        }
        guard path.hasPrefix("commitment.") else { return nil }
        let rest = path.dropFirst("commitment.".count)
        guard let dot = rest.lastIndex(of: ".") else { return nil }
        let id = String(rest[..<dot]), field = String(rest[rest.index(after: dot)...])
        guard let c = cs.items[id] else { return field == "state" ? "none" : nil }
        switch field {
        case "state": return c.status.rawValue
        case "kind": return c.kind.rawValue
        case "stake": return "\(c.plan.stake)"
        case "held": return "\(c.held)"
        case "kept": return "\(c.kept)"
        case "failed": return "\(c.failed)"
        case "excused": return "\(c.excused)"
        case "skipped": return "\(c.skipped)"
        case "next": return local(c.current?.target)
        case "opens": return local(c.current?.opens)
        case "closes": return local(c.current?.closes)
        case "occurrence": return c.current.map { "\($0.n)" } ?? "none"
        default: return nil
        }
    }
}
