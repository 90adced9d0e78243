import FoundationEssentials
import PetCore
import PetWire

/// One round of a circle between the broker and the device (docs/circles.md#the-bridge), decided
/// without sockets: from the circle's retained reports and the device's own report, what the bridge
/// hands the device — other members' finals of the challenges the device holds, the week's
/// leaderboard to show, and a settlement request for each challenge the member has a final in — and
/// the leaderboard it prints. The device decides what to keep and settles itself.
public struct CircleSync {
    public var board = CircleBoard()
    /// Challenges proposed in the circle (docs/circles.md#proposing-and-accepting-a-challenge), by
    /// id: each retained on its proposer's `<prefix>/<proposer>/challenge/<id>`.
    public private(set) var proposals: [String: ChallengeTerms] = [:]
    /// Reports refused (the topic's member id and the report's differ, or a rule broken), by topic.
    public private(set) var refused: [String] = []
    public let entry: CircleEntry

    public init(entry: CircleEntry) { self.entry = entry }

    /// The member id a report topic names (`<prefix>/<member>/report`), or nil.
    public func member(ofTopic topic: String) -> String? {
        let head = entry.prefix + "/"
        guard topic.hasPrefix(head), topic.hasSuffix("/report") else { return nil }
        let m = String(topic.dropFirst(head.count).dropLast("/report".count))
        return CircleRules.isMemberID(m) ? m : nil
    }

    /// The proposal topic of a challenge: `<prefix>/<proposer>/challenge/<id>`.
    public func proposalTopic(_ t: ChallengeTerms) -> String { "\(entry.prefix)/\(t.proposer)/challenge/\(t.id)" }

    /// The member id and challenge id a proposal topic names, or nil.
    public func proposal(ofTopic topic: String) -> (member: String, challenge: String)? {
        let head = entry.prefix + "/"
        guard topic.hasPrefix(head) else { return nil }
        let parts = topic.dropFirst(head.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[1] == "challenge", CircleRules.isMemberID(parts[0]), CircleLedgerRules.isID(parts[2]) else { return nil }
        return (parts[0], parts[2])
    }

    /// A proposal's JSON (its terms).
    public static func encode(_ t: ChallengeTerms) -> [UInt8] {
        let e = JSONEncoder()
        e.outputFormatting = .sortedKeys
        return (try? Array(e.encode(t))) ?? []
    }

    /// Takes in one retained message of the circle: a member's report (an empty payload: the
    /// member left) or a proposal (an empty payload: withdrawn). A proposal counts only on its
    /// proposer's topic, under its own id, within the rules; the first terms seen for an id stay
    /// (a proposal is not changed once out: a member may have accepted it).
    public mutating func receive(topic: String, payload: [UInt8]) {
        if let (m, id) = proposal(ofTopic: topic) {
            if payload.isEmpty { proposals[id] = nil; return }
            guard let t = try? JSONDecoder().decode(ChallengeTerms.self, from: Data(payload)), t.proposer == m, t.id == id, t.problem() == nil else {
                refused.append(topic); return
            }
            if let held = proposals[id], held != t { refused.append(topic); return }
            proposals[id] = t
            return
        }
        guard let m = member(ofTopic: topic) else { return }
        if payload.isEmpty { board.remove(member: m); return }
        guard let r = try? JSONDecoder().decode(MemberReport.self, from: Data(payload)), r.member == m else {
            refused.append(topic); return
        }
        do { try board.receive(r) } catch { refused.append(topic) }
    }

    /// A report from its JSON (the `report` of the device's `circle.report`, a retained message).
    public static func decode(_ bytes: [UInt8]) -> MemberReport? { try? JSONDecoder().decode(MemberReport.self, from: Data(bytes)) }

    public static func encode(_ r: MemberReport) -> [UInt8] {
        let e = JSONEncoder()
        e.outputFormatting = .sortedKeys
        return (try? Array(e.encode(r))) ?? []
    }

    /// What to hand the device after taking in every retained report and `own` (the device's
    /// report, as published): name and fields of each command, in order.
    public func commands(own: MemberReport) -> [(name: String, fields: [String: String])] {
        var out: [(String, [String: String])] = []
        let mine = own.challenges.map(\.challenge)
        for ch in mine {
            for (m, p) in (board.finals[ch] ?? [:]).sorted(by: { $0.key < $1.key }) where m != own.member {
                guard let at = p.finalAt else { continue }
                out.append(("circle.final", ["circle": entry.circle, "challenge": ch, "member": m, "met": p.met ? "yes" : "no",
                                             "value": "\(p.value)", "final_at": "@\(at.seconds)", "left": p.left ? "yes" : "no"]))
            }
        }
        out += standingCommands(own: own)
        for p in own.challenges where p.isFinal && !p.left {
            out.append(("circle.settle", ["circle": entry.circle, "challenge": p.challenge,
                                          "members": members(of: p.challenge, own: own.member).joined(separator: ",")]))
        }
        return out
    }

    /// The members of a challenge as the circle's reports say: every member whose report (or a
    /// final kept from one) lists it, and this one.
    public func members(of challenge: String, own: String) -> [String] {
        var set: Set<String> = [own]
        for r in board.reports.values where r.challenges.contains(where: { $0.challenge == challenge }) { set.insert(r.member) }
        for m in (board.finals[challenge] ?? [:]).keys { set.insert(m) }
        return set.sorted()
    }
}
