import PetCore
import PetWire

/// Why a join did not happen (docs/circles.md#invites): what and where, never the invite or a
/// password. `reason` is what the bridge reports to the device for a join asked from the phone
/// (`circle.join.result`, docs/circles.md#joining-from-the-phone): one line, at most 200 bytes.
public enum CircleJoinError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The invite cannot be read (what is wrong with it: a part named, never the password).
    case badInvite(String)
    case badShare
    case badScreenGoal
    /// This bridge is in the circle already as another member.
    case joinedAsAnother(circle: String, member: String)
    /// The broker refused the invite's credential: used already (admitted) or removed.
    case credentialRefused(circle: String, broker: String, reason: String)
    /// The broker did not answer, or the connection could not be made.
    case brokerUnreachable(broker: String, reason: String)
    /// The device refused `circle.join` (its error code).
    case deviceRefused(circle: String, code: String)
    /// The link to the device failed.
    case device(String)
    /// The bridge's own state: no random bytes, circles.json not written.
    case state(String)

    public var description: String {
        switch self {
        case .badInvite(let why): "bad invite: \(why)"
        case .badShare: "bad consent: all, none or a list of \(CircleShare.allCases.map(\.rawValue).joined(separator: ","))"
        case .badScreenGoal: "bad screen goal: 0–1440 minutes"
        case let .joinedAsAnother(c, m): "circle \(c) is joined already as \(m): leave it first"
        case let .credentialRefused(c, b, r):
            "the broker \(b) refused the invite's credential for circle \(c) (\(r)): it was used already or removed; ask for a new invite"
        case let .brokerUnreachable(b, r): "the broker \(b) is unreachable: \(r)"
        case let .deviceRefused(c, code): "the device refused to join circle \(c): \(code)"
        case .device(let s): "device link: \(s)"
        case .state(let s): "the bridge's state: \(s)"
        }
    }

    /// The CLI's exit status: 2 for what the user gave, 1 for the rest.
    public var exitStatus: Int32 {
        switch self {
        case .badInvite, .badShare, .badScreenGoal: 2
        default: 1
        }
    }

    /// The device's limit on a result's reason (`LinkService.maxJoinReason`, docs/protocol.md#circles).
    public static let maxReason = 200

    /// `description` cut to one line of at most `limit` bytes (on a character's boundary).
    public func reason(limit: Int = maxReason) -> String {
        var out = ""
        for ch in description where ch != "\n" && ch != "\r" {
            if out.utf8.count + String(ch).utf8.count > limit { break }
            out.append(ch)
        }
        return out
    }
}

/// What the broker side of a join reported (`circle join`'s exchange with the invite's credential).
public enum CircleBrokerProblem: Error, Sendable, Equatable {
    /// CONNACK with a refusal: the credential is not (or no longer) accepted.
    case refused(String)
    /// No answer in time, or the client could not be made or could not publish.
    case unreachable(String)

    public var text: String {
        switch self {
        case .refused(let s), .unreachable(let s): s
        }
    }
}

/// Joining a circle with an invite (docs/circles.md#invites), as `circle join` does it and as
/// `circle run` does it for a join asked from the phone: the same steps, a typed result, and on
/// failure the bridge's circles as they were.
///
/// 1. the invite, the consent and the goal checked; a circle joined as another member refused;
/// 2. the member's own password made, and its hash published retained on the member's join
///    topic with the invite's credential (`broker`): refused there when the invite was used or
///    removed — nothing else is done;
/// 3. the device joins (`device("circle.join", …)`); if it refuses, the join request is taken
///    back (an empty retained message), so the owner's `circle admit` does not put in a hash
///    whose password nobody keeps;
/// 4. the circle is saved (`save`); if that fails, the device leaves again (unless it was in the
///    circle as this member before) and the join request is taken back.
public enum CircleJoiner {
    public typealias Broker = (_ asInvite: CircleEntry, _ publish: [(String, [UInt8])]) -> Result<Void, CircleBrokerProblem>
    public typealias Device = (_ name: String, _ fields: [String: String]) -> Result<Void, CircleJoinError>
    public typealias Save = (_ circles: [CircleEntry]) -> Result<Void, CircleJoinError>

    public static func join(invite text: String, share: String, screenGoal: Int, circles: [CircleEntry], random: SecureRandom,
                            broker: Broker, device: Device, save: Save) -> Result<(entry: CircleEntry, circles: [CircleEntry]), CircleJoinError> {
        let invite: CircleInvite
        do { invite = try CircleInvite.parse(text) } catch { return .failure(.badInvite(error.description)) }
        guard share.utf8.count <= 128, CircleShare.parse(share) != nil else { return .failure(.badShare) }
        guard (0...1440).contains(screenGoal) else { return .failure(.badScreenGoal) }
        if let other = circles.first(where: { $0.circle == invite.circle && $0.member != invite.member }) {
            return .failure(.joinedAsAnother(circle: invite.circle, member: other.member))
        }
        let rejoining = circles.contains { $0.circle == invite.circle && $0.member == invite.member }
        var entry = CircleEntry(invite: invite, share: share, screenGoal: screenGoal)
        let salt: [UInt8]
        do {
            entry.password = try CircleInvite.newPassword(random: random)
            salt = try random.bytes(12)
        } catch { return .failure(.state("no random bytes for the member's password")) }
        let request = CirclePassword.hash(entry.password, salt: salt)
        entry.invitePassword = invite.password
        let viaInvite = CircleEntry(invite: invite, share: share, screenGoal: screenGoal)
        switch broker(viaInvite, [(entry.joinTopic, Array(request.utf8))]) {
        case .success: break
        case .failure(.refused(let why)): return .failure(.credentialRefused(circle: invite.circle, broker: invite.broker, reason: why))
        case .failure(.unreachable(let why)): return .failure(.brokerUnreachable(broker: invite.broker, reason: why))
        }
        func takeBack() { _ = broker(viaInvite, [(entry.joinTopic, [])]) }
        let fields = ["circle": invite.circle, "member": invite.member, "share": share, "screen_goal": "\(screenGoal)"]
        if case .failure(let e) = device("circle.join", fields) { takeBack(); return .failure(e) }
        var list = circles
        list.removeAll { $0.circle == invite.circle }
        list.append(entry)
        if case .failure(let e) = save(list) {
            if !rejoining { _ = device("circle.leave", ["circle": invite.circle]) }
            takeBack()
            return .failure(e)
        }
        return .success((entry, list))
    }
}
