import FoundationEssentials
import PetCore
import PetWire

/// An invite to a circle (docs/circles.md#invites): one short string carrying the broker, the
/// circle's topic prefix, the member id made for the invited member (its MQTT username) and the
/// password made for it. `dpc1.` then base64url (no padding) of five lines:
/// `mqtt[s]://HOST:PORT`, the prefix, the circle id, the member id, the password.
public struct CircleInvite: Sendable, Equatable {
    public var broker: String
    public var prefix: String
    public var circle: String
    public var member: String
    public var password: String

    public init(broker: String, prefix: String, circle: String, member: String, password: String) {
        self.broker = broker; self.prefix = prefix; self.circle = circle; self.member = member; self.password = password
    }

    public static let scheme = "dpc1."

    /// The invite string.
    public var text: String {
        let body = [broker, prefix, circle, member, password].joined(separator: "\n")
        let b64 = Base64.encode(Array(body.utf8))
        var out = Self.scheme
        for c in b64 {
            switch c {
            case "+": out.append("-")
            case "/": out.append("_")
            case "=": break
            default: out.append(c)
            }
        }
        return out
    }

    /// Reads an invite, checking every part (what is wrong is named, never the password).
    public static func parse(_ text: String) throws(BridgeError) -> CircleInvite {
        let t = text.trimmed(" \t\n\r")
        guard t.hasPrefix(scheme), t.utf8.count <= 1024 else { throw .usage("not a DeskPet circle invite (it starts with \(scheme))") }
        var b64 = ""
        for c in t.dropFirst(scheme.count) {
            switch c {
            case "-": b64.append("+")
            case "_": b64.append("/")
            default: b64.append(c)
            }
        }
        while b64.utf8.count % 4 != 0 { b64.append("=") }
        guard let bytes = Base64.decode(b64), let body = String(validating: bytes, as: UTF8.self) else {
            throw .usage("the invite is damaged (not base64url of UTF-8 text)")
        }
        let parts = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5 else { throw .usage("the invite is damaged (it needs 5 parts, it has \(parts.count))") }
        let invite = CircleInvite(broker: parts[0], prefix: parts[1], circle: parts[2], member: parts[3], password: parts[4])
        if let p = invite.problem() { throw .usage("the invite's \(p) is not valid") }
        return invite
    }

    /// What is wrong with it, or nil.
    public func problem() -> String? {
        guard (try? BridgeConfig.parse("broker = \(broker)\n", file: "invite")) != nil, !broker.contains("\n") else { return "broker" }
        guard (1...128).contains(prefix.utf8.count), !prefix.hasPrefix("/"), !prefix.hasSuffix("/"),
              prefix.split(separator: "/", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty }),
              prefix.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2d || $0 == 0x2f || $0 == 0x5f }) else {
            return "prefix"
        }
        guard CircleLedgerRules.isID(circle) else { return "circle" }
        guard CircleRules.isMemberID(member) else { return "member" }
        guard (12...128).contains(password.utf8.count), password.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f }) else { return "password" }
        return nil
    }

    /// A fresh password: 24 random bytes as base64url (32 characters).
    public static func newPassword(random: SecureRandom = SystemRandom()) throws(BridgeError) -> String {
        let bytes: [UInt8]
        do { bytes = try random.bytes(24) } catch { throw .usage("no random bytes: \(error)") }
        return String(Base64.encode(bytes).map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    /// The member's report topic.
    public var reportTopic: String { "\(prefix)/\(member)/report" }
}

/// The circles this bridge belongs to (`circles.json` in the state folder, 0600: it holds the
/// broker passwords), each with the owner's consent for what is shared.
public struct CircleEntry: Codable, Sendable, Equatable {
    public var circle: String
    public var broker: String
    public var prefix: String
    public var member: String
    public var password: String
    /// `CircleShare` names, comma-separated (`all`, `none`, or a list).
    public var share: String
    public var screenGoal: Int
    /// The invite's one-time credential while the member waits to be admitted with its own
    /// password (`password`); nil once admitted (docs/circles.md#the-one-time-credential).
    public var invitePassword: String?

    public init(invite: CircleInvite, share: String, screenGoal: Int) {
        circle = invite.circle; broker = invite.broker; prefix = invite.prefix; member = invite.member
        password = invite.password; self.share = share; self.screenGoal = screenGoal
    }

    public var reportTopic: String { "\(prefix)/\(member)/report" }
    /// The member's join request: its own password's hash, for the broker's owner.
    public var joinTopic: String { "\(prefix)/\(member)/join" }
}

/// The broker owner's side of joining (docs/circles.md#the-one-time-credential): a mosquitto
/// password file in which each admitted member's line gets the hash its join request carries.
public enum CircleAdmit {
    /// The password file with `requests` (member → hash) applied: only to accounts already in the
    /// file (the invite made them), only valid hashes; what changed, by member. Other lines stay
    /// as they are.
    public static func apply(passwd: String, requests: [String: String]) -> (text: String, admitted: [String], unknown: [String]) {
        var lines = passwd.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var admitted: [String] = [], seen: Set<String> = []
        for i in lines.indices {
            guard let colon = lines[i].firstIndex(of: ":") else { continue }
            let user = String(lines[i][..<colon])
            seen.insert(user)
            guard let hash = requests[user], CircleRules.isMemberID(user), CirclePassword.isHash(hash) else { continue }
            let line = user + ":" + hash
            if lines[i] != line { lines[i] = line; admitted.append(user) }
        }
        let unknown = requests.keys.filter { !seen.contains($0) }.sorted()
        return (lines.joined(separator: "\n"), admitted.sorted(), unknown)
    }
}

extension BridgeState {
    public var circlesPath: String { path + "/circles.json" }

    public func circles() throws(BridgeError) -> [CircleEntry] {
        guard let text = try read(circlesPath, limit: 1 << 20) else { return [] }
        do { return try JSONDecoder().decode([CircleEntry].self, from: Data(text.utf8)) } catch {
            throw .file(path: circlesPath, problem: "not a list of circles")
        }
    }

    public func saveCircles(_ list: [CircleEntry]) throws(BridgeError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do { data = try encoder.encode(list) } catch { throw .file(path: circlesPath, problem: "cannot encode") }
        try write(circlesPath, Array(data))
    }
}
