import PetCore
import PetDevice

/// Joining a circle from the companion (docs/circles.md#joining-from-the-phone). The daemon never
/// talks to the network and only the bridge holds broker passwords, so the phone's request is held
/// here, in memory only — never journaled, never logged (the invite carries the circle's one-time
/// credential) — until the bridge's `circle run` asks for it (`circle.join.pending`), performs
/// `circle join` and reports the outcome (`circle.join.result`), which drops the invite.
/// `circle.state` shows each request: waiting, joined or refused with the bridge's reason.
/// At most `maxCircleJoins` at once, each kept `circleJoinSeconds`; a restart loses them.
extension LinkService {
    public static let maxCircleJoins = 4
    public static let circleJoinSeconds: Int64 = 86_400
    /// A result's reason: at most this many bytes.
    public static let maxJoinReason = 200

    func expireCircleJoins(now: Instant) {
        circleJoins.removeAll { now.seconds - $0.requestedAt.seconds >= Self.circleJoinSeconds || $0.requestedAt.seconds > now.seconds + Self.circleJoinSeconds }
    }

    func circleJoinCommand(_ m: CommandMessage, from c: Int, loop: LinkHost) -> [LinkFrame] {
        var fields: [String: String] = [:]
        for (k, v) in m.fields ?? [:] { if let text = v.fieldText { fields[k] = text } }
        func refuse(_ code: String, _ message: String) -> [LinkFrame] { reply(c, ErrorMessage(id: m.id, code: code, message: message)) }
        let now = max(loop.now, loop.state.now)
        expireCircleJoins(now: now)
        switch m.name {
        case "circle.join.request":
            guard let invite = fields["invite"]?.trimmingSpaces, !invite.isEmpty else { return refuse(ErrorCode.missingField, "missing invite") }
            let parts: (circle: String, member: String)
            switch CircleJoinRequest.inviteParts(invite) {
            case .success(let p): parts = p
            case .failure(let p): return refuse(ErrorCode.invalidField, "invalid invite: \(p.text) (the \(p.part) part)")
            }
            guard let shareText = fields["share"] else { return refuse(ErrorCode.missingField, "missing share (all, none or a list of \(CircleShare.allCases.map(\.rawValue).joined(separator: ",")))") }
            guard shareText.utf8.count <= 128, let share = CircleShare.parse(shareText) else {
                return refuse(ErrorCode.invalidField, "invalid share: all, none or a list of \(CircleShare.allCases.map(\.rawValue).joined(separator: ","))")
            }
            var goal = 0
            if let g = fields["screen_goal"] {
                guard let n = Int(g), (0...1440).contains(n) else { return refuse(ErrorCode.invalidField, "invalid screen_goal: 0–1440 minutes") }
                goal = n
            }
            if let joined = loop.state.circles.circles[parts.circle] {
                return refuse(ErrorCode.alreadyExists, joined.member == parts.member
                              ? "circle \(parts.circle) is joined already"
                              : "circle \(parts.circle) is joined as another member: leave it first")
            }
            // Sent again (the page after a restart, or a new consent): the older request goes.
            circleJoins.removeAll { $0.circle == parts.circle }
            guard circleJoins.count < Self.maxCircleJoins else {
                return refuse(ErrorCode.limitReached, "at most \(Self.maxCircleJoins) joins wait at once: try again when the bridge has performed them")
            }
            let id: String
            do { id = "join-" + Hex.encode(try random.bytes(6)) } catch { return refuse(ErrorCode.invalidState, "no random bytes for the request's id") }
            let shareNames = share.isEmpty ? "none" : share.sorted().map(\.rawValue).joined(separator: ",")
            circleJoins.append(CircleJoinRequest(id: id, invite: invite, circle: parts.circle, member: parts.member, share: shareNames,
                                                 screenGoal: goal, requestedAt: now))
            return reply(c, CircleJoinRequestedMessage(id: m.id, join: id, circle: parts.circle, member: parts.member))
        case "circle.join.pending":
            let waiting = circleJoins.filter { $0.status == "waiting" }.map {
                CircleJoinPendingMessage.Pending(join: $0.id, invite: $0.invite, share: $0.share, screenGoal: $0.screenGoal)
            }
            return reply(c, CircleJoinPendingMessage(id: m.id, joins: waiting))
        case "circle.join.result":
            guard let join = fields["join"] else { return refuse(ErrorCode.missingField, "missing join") }
            guard let k = circleJoins.firstIndex(where: { $0.id == join }) else {
                return refuse(ErrorCode.notFound, "no join \(join.prefix(24)) is waiting (it expired, or the device restarted)")
            }
            guard circleJoins[k].status == "waiting" else { return refuse(ErrorCode.invalidState, "join \(join.prefix(24)) has its result already") }
            guard let outcome = fields["outcome"], outcome == "joined" || outcome == "refused" else {
                return refuse(ErrorCode.invalidField, "invalid outcome: must be joined or refused")
            }
            var reason: String?
            if outcome == "refused" {
                let r = fields["reason"] ?? "refused"
                guard r.utf8.count <= Self.maxJoinReason, r.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) else {
                    return refuse(ErrorCode.invalidField, "invalid reason: at most \(Self.maxJoinReason) bytes of one line")
                }
                if let secret = CircleJoinRequest.invitePassword(circleJoins[k].invite), r.contains(secret) || r.contains(circleJoins[k].invite) {
                    return refuse(ErrorCode.invalidField, "invalid reason: it repeats the invite's credential")
                }
                reason = r
            }
            if outcome == "joined" && loop.state.circles.circles[circleJoins[k].circle]?.member != circleJoins[k].member {
                return refuse(ErrorCode.invalidState, "circle \(circleJoins[k].circle) is not joined on the device (circle.join first)")
            }
            circleJoins[k].status = outcome
            circleJoins[k].reason = reason
            circleJoins[k].invite = ""
            return reply(c, ReplyMessage(id: m.id, command: m.name))
        default:
            return refuse(ErrorCode.unknownCommand, "unknown command \(m.name.prefix(40))")
        }
    }
}
