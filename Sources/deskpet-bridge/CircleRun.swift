#if canImport(Glibc)
import Glibc
#endif
import PetBridge
import PetCore
import PetIO
import PetWire

/// `deskpet-bridge circle run` (docs/circles.md#the-circles-run-loop): every joined circle kept in
/// step as messages arrive. One MQTT connection per circle (the library reconnects; on every
/// connection the subscriptions are made again, so the retained reports come back, and the
/// member's report is published again, so a broker that lost its retained messages gets it back),
/// one link to the device (events pushed by the device start a round). A round is what `circle
/// sync` does, on the connection already open: the device's report (published when its figures
/// changed), then the finals, the leaderboard and the settlements handed to the device.
final class LiveCircle {
    var entry: CircleEntry
    var mqtt: MQTTClient
    /// Connected with the invite's credential: the member's own password is not admitted yet
    /// (docs/circles.md#the-one-time-credential); the own password is tried again at `ownRetryMs`.
    var viaInvite = false
    var ownRetryMs: Int64 = .max
    var sync: CircleSync
    var connected = false
    var refusedLogged = false
    /// "waiting to be admitted" said already.
    var waitLogged = false
    /// The last report published, without its counter and time (nil: publish at the next round).
    var published: [UInt8]?
    /// When the next round is due (the first: a second after the first connection, the retained reports in).
    var dueMs: Int64 = .max
    var shown = ""

    init(entry: CircleEntry, mqtt: MQTTClient) { self.entry = entry; self.mqtt = mqtt; sync = CircleSync(entry: entry) }
}

/// A circle's MQTT client as its member with `password`, started (the library connects and
/// reconnects).
func circleClient(_ e: CircleEntry, password: String, config: BridgeConfig) -> Result<MQTTClient, BridgeError> {
    var c: BridgeConfig
    do { c = try BridgeConfig.parse("broker = \(e.broker)\n", file: "circle \(e.circle)") } catch { return .failure(error) }
    c.username = e.member
    c.caFile = config.caFile
    c.clientID = "deskpet-circle-run-\(e.circle)-\(e.member)"
    do {
        let m = try MQTTClient(config: c, password: password, willTopic: "\(e.prefix)/\(e.member)/status", maxPayload: 16 << 10)
        if let note = try m.start(keepalive: 30) { say("circle \(e.circle): mqtt: " + note) }
        return .success(m)
    } catch { return .failure(error) }
}

/// A circle's live connection, with the member's own password.
func liveCircle(_ e: CircleEntry, config: BridgeConfig) -> Result<LiveCircle, BridgeError> {
    circleClient(e, password: e.password, config: config).map { LiveCircle(entry: e, mqtt: $0) }
}

/// The run loop's device link handed to `performJoin`: everything runs on the main actor, one
/// thread; the box only tells Swift 6.0.3 so.
final class HeldLink: @unchecked Sendable {
    let client: LinkClient
    init(_ client: LinkClient) { self.client = client }
}

/// While a member waits to be admitted, how often its own password is tried again (ms).
let ownPasswordRetryMs: Int64 = 15_000

/// How often `circle run` asks the device for joins asked from the phone (`circle.join.pending`).
let joinPollMs: Int64 = 2000

@MainActor
func circleRunMain(config: BridgeConfig, state: BridgeState, circles: [CircleEntry], interval: Int) -> Never {
    let pairing: BridgeState.Pairing
    do {
        guard let p = try state.pairing() else { fail("not paired: run 'deskpet-bridge pair' first", 5) }
        pairing = p
    } catch { fail(error.description, 1) }
    let address: LinkAddress
    do { address = try LinkAddress.parse(config.link) } catch { fail("link = \(config.link): \(error)", 2) }
    signal(SIGINT, onSignal)
    signal(SIGTERM, onSignal)
    var lives: [LiveCircle] = []
    for e in circles {
        switch liveCircle(e, config: config) {
        case .success(let l): lives.append(l)
        case .failure(let err): fail("circle \(e.circle): \(err)", 1)
        }
    }
    say("running \(lives.count) circle(s)\(lives.isEmpty ? "; waiting for joins from the phone" : "")")
    var link: LinkClient?
    var linkRetryMs: Int64 = 0
    var counter = 0
    func nextID() -> String { counter += 1; return "crun-\(getpid())-\(Int64(time(nil)))-\(counter)" }

    func round(_ l: LiveCircle, _ c: LinkClient) throws(LinkClientError) {
        let e = l.entry
        let rid = nextID()
        try c.send(["type": .string("command"), "id": .string(rid), "name": .string("circle.report"),
                    "fields": .object(["circle": .string(e.circle), "leaving": .string("no")])])
        var own: MemberReport?
        while true {
            let o = try c.waitFor(["circle.report", "error"])
            guard o["id"]?.fieldText == rid else { continue }
            if o["type"]?.fieldText == "circle.report", let r = o["report"] { own = CircleSync.decode(MessageEncoder.body(r)) }
            else { say("circle \(e.circle): the device refused circle.report: \(o["code"]?.fieldText ?? "?")") }
            break
        }
        guard let own else { return }
        var key = own
        key.seq = 0; key.sentAt = Instant(0)
        let content = CircleSync.encode(key)
        if l.published != content {
            let (_, err) = l.mqtt.publish(topic: e.reportTopic, payload: CircleSync.encode(own), retain: true)
            if let err { say("circle \(e.circle): publish failed: \(err)") } else { l.published = content }
        }
        l.sync.receive(topic: e.reportTopic, payload: CircleSync.encode(own))
        for (name, fields) in l.sync.commands(own: own) {
            switch try c.command(QueuedCommand(id: nextID(), name: name, fields: fields)) {
            case .reply: break
            case .refused(let code, _) where name == "circle.settle": _ = code   // not settled yet: the next round asks again
            case .refused(let code, _) where name == "circle.final" && code == ErrorCode.notFound: _ = code   // settled and done with
            case .refused(let code, _): say("circle \(e.circle): the device refused \(name): \(code)")
            }
        }
        for t in l.sync.proposals.values where t.proposer == e.member && t.start <= own.sentAt {
            _ = l.mqtt.publish(topic: l.sync.proposalTopic(t), payload: [], retain: true)
        }
        // Read first, not inside `&&`: the operator's autoclosure would capture `l` (a release build refuses it as a data race).
        let refusedLogged = l.refusedLogged
        if !l.sync.refused.isEmpty && !refusedLogged { say("circle \(e.circle): report(s) refused"); l.refusedLogged = true }
        let period = Leaderboard.period(l.sync.board) ?? (own.week, own.month)
        let rows = Leaderboard.rank(l.sync.board, metric: .coins, period: .week, week: period.week, month: period.month)
        let text = rows.map { "\($0.rank). \($0.member) \($0.value)" }.joined(separator: ", ")
        if text != l.shown {
            l.shown = text
            print("circle \(e.circle): \(text)")
            fflush(nil)
        }
    }

    var joinsDueMs: Int64 = 0

    /// The joins asked from the phone (docs/circles.md#joining-from-the-phone): each performed as
    /// `circle join` does it, its outcome reported; a circle joined runs from now on. The invite
    /// and the passwords are never logged (the reasons never carry them).
    func performJoins(_ c: LinkClient) throws(LinkClientError) {
        let qid = nextID()
        try c.send(["type": .string("command"), "id": .string(qid), "name": .string("circle.join.pending")])
        var pending: [CircleJoinPendingMessage.Pending] = []
        while true {
            let o = try c.waitFor(["circle.join.pending", "error"])
            guard o["id"]?.fieldText == qid else { continue }
            guard o["type"]?.fieldText == "circle.join.pending", case .array(let items)? = o["joins"] else {
                let code = o["code"]?.fieldText ?? "?"
                if code == ErrorCode.unknownCommand {   // a device older than joining from the phone: not asked again
                    joinsDueMs = .max
                    say("the device does not know circle.join.pending (an older DeskPet): joins from the phone are not performed")
                } else { say("the device refused circle.join.pending: \(code)") }
                return
            }
            for case .object(let j) in items {
                guard let join = j["join"]?.fieldText, let invite = j["invite"]?.fieldText else { continue }
                pending.append(.init(join: join, invite: invite, share: j["share"]?.fieldText ?? "none",
                                     screenGoal: Int(j["screen_goal"]?.fieldText ?? "0") ?? 0))
            }
            break
        }
        for p in pending {
            let outcome: Result<CircleEntry, CircleJoinError>
            if let parsed = try? CircleInvite.parse(p.invite), let held = lives.first(where: { $0.entry.circle == parsed.circle }),
               held.entry.member == parsed.member {
                // Performed already (its result was lost with the link): not joined a second time.
                outcome = .success(held.entry)
            } else {
                let held = HeldLink(c)   // Swift 6.0.3 (the arm64 package's compiler) reads a captured `c` as sent away
                outcome = performJoin(invite: p.invite, share: p.share, screenGoal: p.screenGoal, config: config, state: state, link: { .success(held.client) }, id: nextID())
            }
            var fields = ["join": p.join]
            switch outcome {
            case .success(let e):
                fields["outcome"] = "joined"
                if !lives.contains(where: { $0.entry.circle == e.circle }) {
                    switch liveCircle(e, config: config) {
                    case .success(let l): lives.append(l); say("circle \(e.circle): joined as \(e.member) (asked from the phone); running \(lives.count) circle(s)")
                    case .failure(let err): say("circle \(e.circle): joined, but its connection could not be made (\(err)); it runs after a restart")
                    }
                }
            case .failure(let err):
                fields["outcome"] = "refused"
                fields["reason"] = err.reason(limit: CircleJoinError.maxReason)
                say("a join asked from the phone was refused: \(err.reason(limit: CircleJoinError.maxReason))")
            }
            switch try c.command(QueuedCommand(id: nextID(), name: "circle.join.result", fields: fields)) {
            case .reply: break
            case .refused(let code, _): say("the device refused circle.join.result: \(code)")
            }
        }
    }

    while stopRequested == 0 {
        var fds = lives.map { pollfd(fd: $0.mqtt.wakeFD, events: Int16(POLLIN), revents: 0) }
        _ = poll(&fds, nfds_t(fds.count), 200)
        let now = BridgeRunner.nowMs()
        for l in lives {
            for ev in l.mqtt.drain() {
                switch ev {
                case let .connected(rc, _) where rc != 0 && l.entry.invitePassword != nil && !l.viaInvite:
                    // Joined, its own password not admitted yet: the invite's credential until then
                    // (as circle sync does), the own password tried again every 15 s.
                    if !l.waitLogged { say("circle \(l.entry.circle): not admitted yet with the member's own password (\(MQTTClient.connackText(rc))); the invite's credential is used until the broker's owner runs circle admit") }
                    l.waitLogged = true
                    switch circleClient(l.entry, password: l.entry.invitePassword ?? "", config: config) {
                    case .success(let m):
                        l.mqtt.stop(); l.mqtt = m; l.viaInvite = true; l.connected = false
                        l.ownRetryMs = now + ownPasswordRetryMs
                    case .failure(let err): say("circle \(l.entry.circle): \(err)")
                    }
                case let .connected(rc, _) where rc != 0:
                    say("circle \(l.entry.circle): the broker refused the connection: \(MQTTClient.connackText(rc))")
                case .connected:
                    l.connected = true
                    if let err = l.mqtt.subscribe(["\(l.entry.prefix)/+/report", "\(l.entry.prefix)/+/challenge/+"], qos: 0) {
                        say("circle \(l.entry.circle): mqtt: \(err)")
                    }
                    l.published = nil   // the broker may have lost the retained report: publish it again
                    if l.entry.invitePassword != nil && !l.viaInvite {   // admitted: the invite's credential is retired
                        _ = l.mqtt.publish(topic: l.entry.joinTopic, payload: [], retain: true)
                        do {
                            var list = try state.circles()
                            for k in list.indices where list[k].circle == l.entry.circle { list[k].invitePassword = nil }
                            try state.saveCircles(list)
                        } catch { say("circle \(l.entry.circle): \(error)") }
                        l.entry.invitePassword = nil
                        say("circle \(l.entry.circle): admitted with the member's own password; the invite's credential is retired")
                    }
                    l.dueMs = min(l.dueMs, now + 1000)
                    say("circle \(l.entry.circle): connected to the broker\(l.viaInvite ? " with the invite's credential" : "")")
                case .disconnected(let rc):
                    if l.connected && rc != 0 { say("circle \(l.entry.circle): the broker went away; reconnecting") }
                    l.connected = false
                case let .message(t, payload, _):
                    l.sync.receive(topic: t, payload: payload)
                    l.dueMs = min(l.dueMs, now + 500)
                default: break
                }
            }
        }
        for l in lives where l.viaInvite && now >= l.ownRetryMs {
            // Admitted meanwhile? The own password again (refused: back to the invite's, above).
            switch circleClient(l.entry, password: l.entry.password, config: config) {
            case .success(let m): l.mqtt.stop(); l.mqtt = m; l.viaInvite = false; l.connected = false; l.ownRetryMs = .max
            case .failure(let err): say("circle \(l.entry.circle): \(err)"); l.ownRetryMs = now + ownPasswordRetryMs
            }
        }
        if link == nil && now >= linkRetryMs {
            do {
                let c = try LinkClient(address: address, timeoutSeconds: 20)
                try c.hello(token: pairing.token, client: "deskpet-bridge \(DeskPetVersion.string) circle run")
                link = c
                joinsDueMs = now   // a device updated meanwhile may know circle.join.pending now
                for l in lives where l.connected { l.dueMs = min(l.dueMs, now + 1000) }
            } catch {
                say("device link: \(error); retrying in 5 s")
                linkRetryMs = now + 5000
            }
        }
        guard let c = link else { continue }
        do {
            while try c.next(waitMs: 0) != nil {}
            if now >= joinsDueMs {
                joinsDueMs = now + joinPollMs
                try performJoins(c)   // may set joinsDueMs to .max (a device that cannot)
            }
            for l in lives where l.connected && now >= l.dueMs {
                l.dueMs = now + Int64(interval) * 1000
                try round(l, c)
            }
            // Whatever the device journals (a task done, a day closed, a settlement) may change the
            // report: a round a second later. The client records every event it reads, those that came
            // while a round or a join waited for its answers too (a task done during a round would
            // otherwise wait for the interval). A round's own events bring one more round, which
            // changes nothing and journals nothing new. Cleared: a run of weeks keeps no list.
            if !c.events.isEmpty { for l in lives { l.dueMs = min(l.dueMs, now + 1000) } }
            c.clearRecorded()
        } catch {
            say("device link: \(error); retrying in 5 s")
            link = nil
            linkRetryMs = now + 5000
        }
    }
    for l in lives { l.mqtt.stop() }
    say("stopped")
    exit(0)
}
