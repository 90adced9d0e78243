import PetCore

/// A join asked for from the companion (docs/circles.md#joining-from-the-phone), as the device
/// holds it in memory until the bridge performs it: never journaled, never logged (the invite
/// carries the circle's one-time credential), lost on a restart.
public struct CircleJoinRequest: Sendable, Equatable {
    public var id: String
    public var invite: String
    public var circle: String
    public var member: String
    /// `CircleShare` names, comma-separated, sorted (`none` when nothing).
    public var share: String
    public var screenGoal: Int
    public var requestedAt: Instant
    /// `waiting`, `joined` or `refused`.
    public var status: String
    public var reason: String?

    public init(id: String, invite: String, circle: String, member: String, share: String, screenGoal: Int, requestedAt: Instant) {
        self.id = id; self.invite = invite; self.circle = circle; self.member = member; self.share = share
        self.screenGoal = screenGoal; self.requestedAt = requestedAt; status = "waiting"
    }

    /// What the device checks of an invite it cannot use itself (the bridge checks it again, in
    /// full, as `circle join` does): `dpc1.` then base64url of five lines — an `mqtt://` or
    /// `mqtts://` broker, a prefix, a circle id, a member id and a 12–128 character password.
    /// The part that is wrong, or the circle and member.
    public static func inviteParts(_ text: String) -> Result<(circle: String, member: String), InviteProblem> {
        let scheme = "dpc1."
        guard text.hasPrefix(scheme), text.utf8.count <= 1024 else { return .failure(InviteProblem(part: "invite", text: "not a DeskPet circle invite (it starts with dpc1.)")) }
        var b64 = ""
        for u in text.utf8.dropFirst(scheme.utf8.count) {
            switch u {
            case UInt8(ascii: "-"): b64.append("+")
            case UInt8(ascii: "_"): b64.append("/")
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): b64.append(Character(Unicode.Scalar(u)))
            default: return .failure(InviteProblem(part: "invite", text: "the invite is damaged (not base64url)"))
            }
        }
        while b64.utf8.count % 4 != 0 { b64.append("=") }
        guard let bytes = Base64.decode(b64), let body = String(validating: bytes, as: UTF8.self) else {
            return .failure(InviteProblem(part: "invite", text: "the invite is damaged (not base64url of UTF-8 text)"))
        }
        let parts = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5 else { return .failure(InviteProblem(part: "invite", text: "the invite is damaged (it needs 5 parts, it has \(parts.count))")) }
        let broker = parts[0]
        guard broker.utf8.count <= 256, broker.hasPrefix("mqtt://") || broker.hasPrefix("mqtts://"),
              broker.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f }) else {
            return .failure(InviteProblem(part: "broker", text: "the invite's broker is not valid"))
        }
        let prefix = parts[1]
        guard (1...128).contains(prefix.utf8.count), !prefix.hasPrefix("/"), !prefix.hasSuffix("/"), !prefix.contains("//"),
              prefix.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2d || $0 == 0x2f || $0 == 0x5f }) else {
            return .failure(InviteProblem(part: "prefix", text: "the invite's prefix is not valid"))
        }
        guard CircleLedgerRules.isID(parts[2]) else { return .failure(InviteProblem(part: "circle", text: "the invite's circle is not valid")) }
        guard CircleRules.isMemberID(parts[3]) else { return .failure(InviteProblem(part: "member", text: "the invite's member is not valid")) }
        guard (12...128).contains(parts[4].utf8.count), parts[4].unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f }) else {
            return .failure(InviteProblem(part: "password", text: "the invite's password is not valid"))
        }
        return .success((parts[2], parts[3]))
    }

    /// The invite's one-time credential (the fifth part), so a result's reason never repeats it.
    public static func invitePassword(_ text: String) -> String? {
        var b64 = String(text.dropFirst(5).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while b64.utf8.count % 4 != 0 { b64.append("=") }
        guard let bytes = Base64.decode(b64), let body = String(validating: bytes, as: UTF8.self) else { return nil }
        let parts = body.split(separator: "\n", omittingEmptySubsequences: false)
        return parts.count == 5 ? String(parts[4]) : nil
    }

    public struct InviteProblem: Error, Sendable, Equatable {
        public var part: String
        public var text: String
    }
}

/// `circle.join.request`'s answer: the request's id (`circle.state` follows it).
public struct CircleJoinRequestedMessage: Codable, Sendable, Equatable {
    public static let type = "circle.join.requested"
    public var type = CircleJoinRequestedMessage.type
    public var id: String?
    public var join: String
    public var circle: String
    public var member: String
    public init(id: String?, join: String, circle: String, member: String) {
        self.id = id; self.join = join; self.circle = circle; self.member = member
    }
}

/// `circle.join.pending` (device → the bridge): the joins waiting, each with its invite.
public struct CircleJoinPendingMessage: Codable, Sendable, Equatable {
    public static let type = "circle.join.pending"
    public var type = CircleJoinPendingMessage.type
    public var id: String?
    public var joins: [Pending]
    public struct Pending: Codable, Sendable, Equatable {
        public var join: String
        public var invite: String
        public var share: String
        public var screenGoal: Int
        enum CodingKeys: String, CodingKey {
            case join, invite, share
            case screenGoal = "screen_goal"
        }
        public init(join: String, invite: String, share: String, screenGoal: Int) {
            self.join = join; self.invite = invite; self.share = share; self.screenGoal = screenGoal
        }
    }
    public init(id: String?, joins: [Pending]) { self.id = id; self.joins = joins }
}
