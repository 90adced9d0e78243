import PetCore
import PetDevice

/// The link command a circle bridge uses (docs/protocol.md#circles): `circle.report` answers with
/// this device's member report for a circle. Once a challenge's window has closed the device first
/// judges its own member (the domain command `circle.judge`, journaled: the final's instant is the
/// one it was first handed out), so the report carries the final. `leaving: yes` reports every
/// running challenge as left (a forfeit) — what a bridge publishes before it sends `circle.leave`.
extension LinkService {
    func circleReport(_ m: CommandMessage, phone: String, from c: Int, loop: LinkHost) -> [LinkFrame] {
        var fields: [String: String] = [:]
        for (k, v) in m.fields ?? [:] { if let text = v.fieldText { fields[k] = text } }
        guard let circle = fields["circle"] else {
            return reply(c, ErrorMessage(id: m.id, code: ErrorCode.missingField, message: "missing circle"))
        }
        guard let leaving = Self.yesNo(fields["leaving"] ?? "no") else {
            return reply(c, ErrorMessage(id: m.id, code: ErrorCode.invalidField, message: "invalid leaving: must be yes or no"))
        }
        guard let member = loop.state.circles.circles[circle]?.member else {
            return reply(c, ErrorMessage(id: m.id, code: ErrorCode.notFound, message: "no circle \(circle.prefix(48)) is joined"))
        }
        let now = max(loop.now, loop.state.now)
        let unjudged = loop.state.circles.challenges.values.contains { $0.circle == circle && now >= $0.terms.end && $0.finals[member] == nil }
        if unjudged && !leaving {
            let judge = Command(id: Self.journalID(phone: phone, id: m.id) + "#judge", at: now, action: .circle(.judge(circle: circle)))
            do {
                let outcome = try commitOne(judge, loop: loop)
                if case .failure(let e) = outcome.result {
                    return reply(c, ErrorMessage(id: m.id, code: e.code, message: e.description))
                }
            } catch {
                log?("link: journal failed for a circle.report's judgement: \(error)")
                return journalFailed(m.id, from: c)
            }
        }
        guard var report = loop.state.circleReport(circle, now: now) else {
            return reply(c, ErrorMessage(id: m.id, code: ErrorCode.notFound, message: "no circle \(circle.prefix(48)) is joined"))
        }
        if leaving {
            for i in report.challenges.indices where !report.challenges[i].isFinal {
                report.challenges[i] = ChallengeProgress(challenge: report.challenges[i].challenge, met: false, value: 0, finalAt: now, left: true)
            }
        }
        return reply(c, CircleReportMessage(id: m.id, circle: circle, report: report))
    }
}

/// `circle.state` (docs/protocol.md#circles): read-only — what the device knows about its
/// circles, for the companion's Circles view. Stores nothing.
extension LinkService {
    func circleState(_ m: CommandMessage, from c: Int, loop: LinkHost) -> [LinkFrame] {
        var asked: String?
        if let v = m.fields?["circle"] {
            guard let text = v.fieldText, CircleLedgerRules.isID(text) else {
                return reply(c, ErrorMessage(id: m.id, code: ErrorCode.invalidField, message: "invalid circle: must be 1–48 of a-z, 0-9 and -"))
            }
            asked = text
        }
        let now = max(loop.now, loop.state.now)
        guard var answer = CircleStateMessage(id: m.id, state: loop.state, circle: asked, now: now) else {
            return reply(c, ErrorMessage(id: m.id, code: ErrorCode.notFound, message: "no circle \(asked ?? "") is joined"))
        }
        expireCircleJoins(now: now)
        answer.joins = circleJoins.map(CircleStateMessage.Join.init)
        return reply(c, answer)
    }
}

/// `circle.when` (docs/protocol.md#circles): read-only — the instants a proposal's `start` and
/// `end` name, read in the device's time zone and by its clock, as every other time field of the
/// device (`YYYY-MM-DD HH:MM`, `today HH:MM`, `+2h`, `@unix`). `circle propose` asks it first,
/// so a proposal's window is the one the owner meant on their own device. Stores nothing.
extension LinkService {
    func circleWhen(_ m: CommandMessage, from c: Int, loop: LinkHost) -> [LinkFrame] {
        let now = max(loop.now, loop.state.now)
        var out: [String: Int64] = [:]
        for k in ["start", "end"] {
            guard let v = m.fields?[k] else { continue }
            guard let text = v.fieldText, let t = TimeText.parse(text.trimmingSpaces, now: now, clock: loop.state.clock),
                  TimeRange.contains(t) else {
                return reply(c, ErrorMessage(id: m.id, code: ErrorCode.invalidField,
                                             message: "invalid \(k): is not a time (use 'YYYY-MM-DD HH:MM', 'today HH:MM', 'tomorrow HH:MM', '+2h30m' or '@unixseconds')"))
            }
            out[k] = t.seconds
        }
        guard !out.isEmpty else {
            return reply(c, ErrorMessage(id: m.id, code: ErrorCode.missingField, message: "missing start or end"))
        }
        return reply(c, CircleWhenMessage(id: m.id, start: out["start"], end: out["end"]))
    }
}
