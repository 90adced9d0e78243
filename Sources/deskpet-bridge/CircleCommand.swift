#if canImport(Glibc)
import Glibc
#endif
import PetBridge
import PetCore
import PetIO
import PetWire

/// `deskpet-bridge circle …` (docs/circles.md#the-bridge): circles over an MQTT broker.
let circleUsage = """
deskpet-bridge circle — circles of friends over an MQTT broker (docs/circles.md)

Usage:
  deskpet-bridge circle create --prefix PREFIX --circle ID --acl FILE --passwd FILE
        [--leader NAME --leader-password-file FILE] [--pid PID]
        the broker's owner: write the circle's block of mosquitto's ACL FILE (members write only
        below their own id, readers read the circle; idempotent, other lines untouched) and the
        leader's account (a reader, no member id) in the password FILE; print mosquitto.conf's lines
  deskpet-bridge circle invite --broker mqtt[s]://HOST[:PORT] --prefix PREFIX --circle ID --member ID
        [--acl FILE --passwd FILE [--pid PID]]
        make an invite for a new member (a fresh password); prints the invite and the broker's
        lines for that member, or with --acl/--passwd writes them (after circle create)
  deskpet-bridge circle join INVITE [--share all|none|coins,tasks,streak,focus,screen,course,habits,challenges]
        [--screen-goal MINUTES]   join (the device stores the membership and the consent)
  deskpet-bridge circle list      the circles joined and what each is shared
  deskpet-bridge circle sync ID   one round: read the circle's retained reports, publish this
        member's report (computed on the device), hand the device the finals, the leaderboard and
        the settlements to make; print the week's leaderboard
  deskpet-bridge circle run [--interval SECONDS]   keep every joined circle in step until
        SIGTERM/SIGINT: a round (as sync) whenever a member's report or proposal arrives or the
        device journals something, and every SECONDS (default 300); survives the broker going
        away (reconnects, publishes the report again) and the device restarting; performs the
        joins asked from the phone (circle.join.pending, every 2 s) as circle join does, reports
        each outcome to the device, and runs a circle joined so at once (it may start with none)
  deskpet-bridge circle propose ID --goal tasks:N|habit|focus:M|screen:M --start TIME --end TIME
        --stake COINS [--challenge ID]   propose a challenge to the circle: accepted on this device
        first (its stake held), then published for the others. TIME: the device's forms, read in
        its time zone — 'YYYY-MM-DD HH:MM', 'today HH:MM', 'tomorrow HH:MM', '+2h', '@UNIX_SECONDS'
  deskpet-bridge circle proposals ID   the circle's open proposals and who accepted each
  deskpet-bridge circle accept ID CHALLENGE   accept a proposal read from the broker, before its
        start (the device holds the stake; the member's report then lists it)
  deskpet-bridge circle report --broker mqtt[s]://HOST[:PORT] --prefix PREFIX --circle ID
        [--user NAME --password-file FILE] [--out DIR]
        a course leader's view, no DeskPet needed: read the circle's retained reports (the leader's
        account reads the circle, writes nothing), print the learners' progress; with --out, merge
        this week's rows into DIR/circle-report.csv (one row per member per week) and draw
        DIR/engagement.png, DIR/posts-read.png, DIR/habit-streaks.png, DIR/habit-scores.png,
        DIR/habit-each.png (each habit by checklist position, never its text)
  deskpet-bridge circle admit --passwd FILE --broker mqtt[s]://HOST[:PORT] --prefix PREFIX
        [--user NAME --password-file FILE] [--pid PID]
        the broker's owner, on the broker's machine: read the members' join requests, put each
        member's own password hash in mosquitto's password FILE in place of the invite's (the
        invite's credential stops working), then SIGHUP the broker (PID) to reload it
  deskpet-bridge circle watch --broker mqtt[s]://HOST[:PORT] --prefix PREFIX[,PREFIX…]
        [--user NAME --password-file FILE] [--metric coins|focus|screen|streak] [--members N]
        [--seconds S]   follow circles' week leaderboards live, no DeskPet needed: a line
        "UNIX_MS PREFIX RANKED RANK:MEMBER:VALUE;…" each time one changes; stops after S seconds
        (exit 1 if --members was not reached), once N members are held, or on SIGINT/SIGTERM,
        printing the members held and the peak memory
  deskpet-bridge circle leave ID  publish the report with every running challenge left, clear the
        member's retained report, leave on the device, forget the circle

Options: --config FILE (as for the bridge: the link, the state folder), --help.
"""

@MainActor
func circleMain(_ args: [String]) -> Never {
    var configPath = BridgeConfig.defaultPath
    var opts: [String: String] = [:]
    var positional: [String] = []
    var i = 0
    while i < args.count {
        let a = args[i]
        if a == "--help" || a == "-h" { print(circleUsage); exit(0) }
        if a.hasPrefix("--") {
            guard i + 1 < args.count else { fail("\(a) needs a value (see circle --help)", 2) }
            if a == "--config" { configPath = args[i + 1] } else { opts[String(a.dropFirst(2))] = args[i + 1] }
            i += 2; continue
        }
        positional.append(a); i += 1
    }
    guard let sub = positional.first else { fail("circle needs a command (see circle --help)", 2) }
    let known: [String: Set<String>] = ["invite": ["broker", "prefix", "circle", "member", "acl", "passwd", "pid"],
                                        "create": ["prefix", "circle", "acl", "passwd", "leader", "leader-password-file", "pid"], "join": ["share", "screen-goal"],
                                        "list": [], "sync": [], "leave": [], "run": ["interval"], "proposals": [], "accept": [],
                                        "propose": ["challenge", "goal", "start", "end", "stake"],
                                        "report": ["broker", "prefix", "circle", "user", "password-file", "out"],
                                        "admit": ["broker", "prefix", "user", "password-file", "passwd", "pid"],
                                        "watch": ["broker", "prefix", "user", "password-file", "metric", "members", "seconds"]]
    guard let allowed = known[sub] else { fail("unknown circle command '\(sub.prefix(32))' (see circle --help)", 2) }
    for k in opts.keys where !allowed.contains(k) { fail("circle \(sub) takes no --\(k.prefix(32))", 2) }

    if sub == "invite" {
        guard let broker = opts["broker"], let prefix = opts["prefix"], let circle = opts["circle"], let member = opts["member"] else {
            fail("circle invite needs --broker, --prefix, --circle and --member", 2)
        }
        do {
            let invite = CircleInvite(broker: broker, prefix: prefix, circle: circle, member: member, password: try CircleInvite.newPassword())
            if let p = invite.problem() { fail("invalid \(p) (see docs/circles.md#invites)", 2) }
            if opts["acl"] != nil || opts["passwd"] != nil {
                circleInviteFiles(invite, opts: opts)
                let reload = reloadBroker(opts)
                print(invite.text)
                print("# \(member)'s account and ACL lines are written\(reload)")
                exit(0)
            }
            if opts["pid"] != nil { fail("--pid goes with --acl and --passwd", 2) }
            print(invite.text)
            print("# on the broker (docs/circles.md#the-brokers-acl):")
            print("#   mosquitto_passwd -b /etc/mosquitto/passwd \(member) '\(invite.password)'")
            print("#   acl_file: pattern readwrite \(prefix)/%u/#   and   user \(member) / topic read \(prefix)/#")
            exit(0)
        } catch { fail(error.description, 1) }
    }

    if sub == "create" { circleCreateMain(opts) }
    if sub == "report" { circleReportMain(opts) }
    if sub == "watch" { circleWatchMain(opts) }
    if sub == "admit" { circleAdmitMain(opts) }

    let config: BridgeConfig
    do {
        guard let text = try StateFile.read(configPath, limit: 64 << 10) else { fail("\(configPath): no such file", 2) }
        config = try BridgeConfig.parse(text, file: configPath)
    } catch let e as BridgeError { fail(e.description, 2) } catch { fail("\(configPath): \(error)", 2) }
    let state = BridgeState(path: config.stateDir)
    var list: [CircleEntry]
    do { list = try state.circles() } catch { fail(error.description, 1) }

    func device() -> LinkClient {
        do {
            guard let p = try state.pairing() else { fail("not paired: run 'deskpet-bridge pair' first", 5) }
            let client = try LinkClient(address: try LinkAddress.parse(config.link), timeoutSeconds: 20)
            try client.hello(token: p.token, client: "deskpet-bridge \(DeskPetVersion.string) circle")
            return client
        } catch let e as BridgeError { fail(e.description, 1) } catch { fail("device link: \(error)", 1) }
    }
    func command(_ c: LinkClient, _ name: String, _ fields: [String: String], id: String) -> (ok: Bool, code: String?) {
        do {
            switch try c.command(QueuedCommand(id: id, name: name, fields: fields)) {
            case .reply: return (true, nil)
            case .refused(let code, _): return (false, code)
            }
        } catch { fail("device link: \(error)", 1) }
    }
    func ownReport(_ c: LinkClient, circle: String, leaving: Bool) -> MemberReport {
        let id = "cr-\(Int64(time(nil)))-\(getpid())"
        do {
            try c.send(["type": .string("command"), "id": .string(id), "name": .string("circle.report"),
                        "fields": .object(["circle": .string(circle), "leaving": .string(leaving ? "yes" : "no")])])
            while true {
                let o = try c.waitFor(["circle.report", "error"])
                guard o["id"]?.fieldText == id else { continue }
                guard o["type"]?.fieldText == "circle.report", let r = o["report"] else {
                    fail("the device refused circle.report: \(o["code"]?.fieldText ?? "?")", 1)
                }
                guard let report = CircleSync.decode(MessageEncoder.body(r)) else { fail("the device's report could not be read", 1) }
                return report
            }
        } catch { fail("device link: \(error)", 1) }
    }
    /// An exchange as the member: with its own password; while it waits to be admitted and the
    /// broker refuses that, with the invite's credential. The first connection with its own
    /// password retires the invite's (forgotten here, the join request cleared).
    func exchange(_ e: CircleEntry, publish: [(String, [UInt8])], collect: Bool) -> [(String, [UInt8])] {
        guard let invitePassword = e.invitePassword else { return circleExchange(e, config: config, publish: publish, collect: collect) }
        let topics = ["\(e.prefix)/+/report", "\(e.prefix)/+/challenge/+"]
        let own = circleTry(e, config: config, publish: publish + [(e.joinTopic, [])], collect: collect, topics: topics)
        if case .failure(.unreachable(let why)) = own { fail("the broker \(e.broker): \(why)", 1) }
        if case .success(let got) = own {
            if let k = list.firstIndex(where: { $0.circle == e.circle }) {
                list[k].invitePassword = nil
                do { try state.saveCircles(list) } catch { fail(error.description, 1) }
            }
            say("circle \(e.circle): admitted with the member's own password; the invite's credential is retired")
            return got
        }
        var viaInvite = e
        viaInvite.password = invitePassword
        switch circleTry(viaInvite, config: config, publish: publish, collect: collect, topics: topics) {
        case .success(let got):
            say("circle \(e.circle): not admitted yet with the member's own password (the broker's owner runs circle admit); the invite's credential was used")
            return got
        case .failure(let r): fail("the broker refused both the member's own password and the invite's: \(r.text)", 1)
        }
    }
    func entry(_ id: String?) -> CircleEntry {
        guard let id, let e = list.first(where: { $0.circle == id }) else { fail("no circle \(id?.prefix(48) ?? "?") is joined (circle list)", 2) }
        return e
    }

    switch sub {
    case "run":
        guard let interval = Int(opts["interval"] ?? "300"), (1...86_400).contains(interval) else { fail("--interval: 1–86400 seconds", 2) }
        circleRunMain(config: config, state: state, circles: list, interval: interval)
    case "list":
        if list.isEmpty { print("no circles (deskpet-bridge circle join INVITE)") }
        for e in list { print("\(e.circle)  as \(e.member) on \(e.broker) \(e.prefix)  shares \(e.share)\(e.screenGoal > 0 ? " (screen goal \(e.screenGoal) min)" : "")") }
        exit(0)
    case "join":
        guard positional.count == 2 else { fail("circle join needs the invite", 2) }
        // Nothing is joined unless every step works (CircleJoiner): a failure leaves circles.json as it was.
        let share = opts["share"] ?? "none"
        guard let goal = Int(opts["screen-goal"] ?? "0") else { fail(CircleJoinError.badScreenGoal.description, 2) }
        // The device is reached once the broker took the invite's credential (a used invite is
        // refused before the device is touched, even by a bridge not paired yet).
        var c: LinkClient?
        let connect = { () -> Result<LinkClient, CircleJoinError> in
            if let c { return .success(c) }
            do {
                guard let p = try state.pairing() else { return .failure(.device("not paired: run 'deskpet-bridge pair' first")) }
                let client = try LinkClient(address: try LinkAddress.parse(config.link), timeoutSeconds: 20)
                try client.hello(token: p.token, client: "deskpet-bridge \(DeskPetVersion.string) circle")
                c = client
                return .success(client)
            } catch { return .failure(.device("\(error)")) }
        }
        switch performJoin(invite: positional[1], share: share, screenGoal: goal, config: config, state: state, link: connect, id: "cj-\(Int64(time(nil)))-\(getpid())") {
        case .success(let e):
            print("joined \(e.circle) as \(e.member); sharing \(share); the member's own password waits for the broker's owner (circle admit)")
            exit(0)
        case .failure(let err): fail(err.description, err.exitStatus)
        }
    case "sync", "leave":
        guard positional.count == 2 else { fail("circle \(sub) needs the circle's id", 2) }
        let e = entry(positional[1])
        let leaving = sub == "leave"
        let c = device()
        let own = ownReport(c, circle: e.circle, leaving: leaving)
        var sync = CircleSync(entry: e)
        let payloads = exchange(e, publish: [(e.reportTopic, CircleSync.encode(own))]
                                      + (leaving ? [(e.reportTopic, []), ("\(e.prefix)/\(e.member)/status", []), (e.joinTopic, [])] : []), collect: true)
        for (t, p) in payloads { sync.receive(topic: t, payload: p) }
        // The member's own proposals: withdrawn when leaving, and once started (accepting is over).
        let withdraw = sync.proposals.values.filter { $0.proposer == e.member && (leaving || $0.start <= own.sentAt) }
        if !withdraw.isEmpty {
            _ = exchange(e, publish: withdraw.map { (sync.proposalTopic($0), []) }, collect: false)
        }
        if leaving {
            let r = command(c, "circle.leave", ["circle": e.circle], id: "cl-\(e.circle)-\(Int64(time(nil)))")
            if !r.ok && r.code != ErrorCode.notFound { fail("the device refused to leave: \(r.code ?? "?") (the report is cleared)", 1) }
            list.removeAll { $0.circle == e.circle }
            do { try state.saveCircles(list) } catch { fail(error.description, 1) }
            print("left \(e.circle); its retained report is cleared")
            exit(0)
        }
        sync.receive(topic: e.reportTopic, payload: CircleSync.encode(own))
        var n = 0
        for (name, fields) in sync.commands(own: own) {
            n += 1
            let r = command(c, name, fields, id: "cs-\(Int64(time(nil)))-\(getpid())-\(n)")
            if !r.ok && name == "circle.settle" { say("circle \(e.circle): \(fields["challenge"] ?? "?") not settled yet (\(r.code ?? "?"))") }
            else if !r.ok { say("circle \(e.circle): the device refused \(name): \(r.code ?? "?")") }
        }
        if !sync.refused.isEmpty { say("circle \(e.circle): \(sync.refused.count) report(s) refused") }
        let period = Leaderboard.period(sync.board) ?? (own.week, own.month)
        print("circle \(e.circle), week of day \(period.week), coins earned:")
        for row in Leaderboard.rank(sync.board, metric: .coins, period: .week, week: period.week, month: period.month) {
            print("  \(row.rank). \(row.member) \(row.petName) \(row.value)")
        }
        let held = Set(own.challenges.map(\.challenge))
        for t in sync.proposals.values.sorted(by: { $0.id < $1.id }) where !held.contains(t.id) && own.sentAt < t.start {
            print("proposed: \(proposalText(t)) — accept with: deskpet-bridge circle accept \(e.circle) \(t.id)")
        }
        exit(0)
    case "proposals":
        guard positional.count == 2 else { fail("circle proposals needs the circle's id", 2) }
        let e = entry(positional[1])
        var sync = CircleSync(entry: e)
        for (t, p) in exchange(e, publish: [], collect: true) { sync.receive(topic: t, payload: p) }
        if sync.proposals.isEmpty { print("no open proposals in \(e.circle)") }
        for t in sync.proposals.values.sorted(by: { $0.id < $1.id }) {
            let accepted = sync.board.reports.values.filter { r in r.challenges.contains { $0.challenge == t.id } }.map(\.member).sorted()
            print("\(proposalText(t)); accepted by \(accepted.isEmpty ? "nobody yet" : accepted.joined(separator: ","))")
        }
        if !sync.refused.isEmpty { say("circle \(e.circle): \(sync.refused.count) message(s) refused") }
        exit(0)
    case "propose", "accept":
        let e = entry(positional.count > 1 ? positional[1] : nil)
        var sync = CircleSync(entry: e)
        for (t, p) in exchange(e, publish: [], collect: true) { sync.receive(topic: t, payload: p) }
        let terms: ChallengeTerms
        if sub == "accept" {
            guard positional.count == 3 else { fail("circle accept needs the circle's id and the challenge's", 2) }
            guard let t = sync.proposals[positional[2]] else { fail("no proposal \(positional[2].prefix(48)) in \(e.circle) (circle proposals \(e.circle))", 1) }
            terms = t
        } else {
            guard positional.count == 2 else { fail("circle propose needs the circle's id", 2) }
            guard let g = opts["goal"], let goal = ChallengeGoal(text: g) else { fail("--goal: tasks:N, habit, focus:M or screen:M", 2) }
            guard let startText = opts["start"], let endText = opts["end"] else { fail("circle propose needs --start and --end", 2) }
            // The device reads the times (its time zone, its clock): as every other tool's times.
            let (start, end) = resolveTimes(device(), start: startText, end: endText)
            guard let stake = Int(opts["stake"] ?? "") else { fail("--stake: coins each (\(CircleRules.stakeRange.lowerBound)–\(CircleRules.stakeRange.upperBound))", 2) }
            let id = opts["challenge"] ?? "\(e.member)-\(start.seconds / 60)"
            terms = ChallengeTerms(id: id, proposer: e.member, goal: goal, start: start, end: end, stake: stake)
            if let p = terms.problem() { fail("the proposal breaks the rules: \(p) (docs/circles.md#limits)", 2) }
            if let out = sync.proposals[id], out != terms { fail("\(id) is already proposed with other terms: choose another --challenge", 1) }
        }
        let c = device()
        let r = command(c, "circle.accept", ["circle": e.circle, "challenge": terms.id, "proposer": terms.proposer, "goal": terms.goal.text,
                                             "start": "@\(terms.start.seconds)", "end": "@\(terms.end.seconds)", "stake": "\(terms.stake)"],
                        id: "ca-\(e.circle)-\(terms.id)")
        guard r.ok else { fail("the device refused to \(sub): \(r.code ?? "?")", 1) }
        // The report now lists the challenge: that is the acceptance the others see.
        let own = ownReport(c, circle: e.circle, leaving: false)
        _ = exchange(e, publish: (sub == "propose" ? [(sync.proposalTopic(terms), CircleSync.encode(terms))] : [])
                           + [(e.reportTopic, CircleSync.encode(own))], collect: false)
        print("\(sub == "propose" ? "proposed" : "accepted") \(proposalText(terms)); the stake is held on the device")
        exit(0)
    default:
        fail("unknown circle command", 2)
    }
}

/// `circle join`, for the CLI and for `circle run` (a join asked from the phone): `CircleJoiner`'s
/// steps with this bridge's broker exchange, its device link (`link`: connected when first needed) and its
/// circles.json (read again here, so a circle another command added meanwhile stays). Never
/// exits; never prints the invite or a password.
@MainActor
func performJoin(invite: String, share: String, screenGoal: Int, config: BridgeConfig, state: BridgeState,
                 link: () -> Result<LinkClient, CircleJoinError>, id: String) -> Result<CircleEntry, CircleJoinError> {
    let list: [CircleEntry]
    do { list = try state.circles() } catch { return .failure(.state("\(error)")) }
    var n = 0
    let result = CircleJoiner.join(
        invite: invite, share: share, screenGoal: screenGoal, circles: list, random: SystemRandom(),
        broker: { e, publish in circleTry(e, config: config, publish: publish, collect: false, topics: []).map { _ in () } },
        device: { name, fields in
            n += 1
            let client: LinkClient
            switch link() {
            case .success(let l): client = l
            case .failure(let e): return .failure(e)
            }
            do {
                switch try client.command(QueuedCommand(id: "\(id)-\(n)", name: name, fields: fields)) {
                case .reply: return .success(())
                case .refused(let code, _): return .failure(.deviceRefused(circle: fields["circle"] ?? "?", code: code))
                }
            } catch { return .failure(.device("\(error)")) }
        },
        save: { l in
            do { try state.saveCircles(l); return .success(()) } catch { return .failure(.state("\(error)")) }
        })
    return result.map { $0.entry }
}

/// Connects to the circle's broker as the member, publishes `publish` (retained, in order), and
/// (with `collect`) reads the circle's retained reports until none came for a second (at most 10 s).
func circleExchange(_ e: CircleEntry, config: BridgeConfig, publish: [(String, [UInt8])], collect: Bool) -> [(String, [UInt8])] {
    switch circleTry(e, config: config, publish: publish, collect: collect, topics: ["\(e.prefix)/+/report", "\(e.prefix)/+/challenge/+"]) {
    case .success(let got): return got
    case .failure(.refused(let why)): fail("the broker refused the connection: \(why)", 1)
    case .failure(.unreachable(let why)): fail("the broker \(e.broker): \(why)", 1)
    }
}

/// Connects to the circle's broker as `e.member` with `e.password`, publishes `publish` (retained,
/// in order; each acknowledged) and, with `collect`, reads `topics`' retained messages until none
/// came for a second. At most 10 s. Never exits: the broker's refusal of the credential, or no
/// answer, comes back typed (`circle join` from `circle run` goes on after either).
func circleTry(_ e: CircleEntry, config: BridgeConfig, publish: [(String, [UInt8])], collect: Bool,
               topics: [String]) -> Result<[(String, [UInt8])], CircleBrokerProblem> {
    var c: BridgeConfig
    do { c = try BridgeConfig.parse("broker = \(e.broker)\n", file: "circle \(e.circle)") } catch { return .failure(.unreachable(error.description)) }
    c.username = e.member
    c.caFile = config.caFile
    c.clientID = "deskpet-circle-\(e.circle)-\(e.member)"
    let mqtt: MQTTClient
    do { mqtt = try MQTTClient(config: c, password: e.password, willTopic: "\(e.prefix)/\(e.member)/status", maxPayload: 16 << 10) }
    catch { return .failure(.unreachable(error.description)) }
    var note: String?
    do { note = try mqtt.start(keepalive: 30) } catch { return .failure(.unreachable(error.description)) }
    var got: [(String, [UInt8])] = []
    var pending: Set<Int32> = []
    var connected = false
    let end = BridgeRunner.nowMs() + 10_000
    var quietSince = BridgeRunner.nowMs()
    while BridgeRunner.nowMs() < end {
        var p = pollfd(fd: mqtt.wakeFD, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, 200)
        for ev in mqtt.drain() {
            switch ev {
            case let .connected(rc, _) where rc != 0: mqtt.stop(); return .failure(.refused(MQTTClient.connackText(rc)))
            case .connected where !connected:
                connected = true
                quietSince = BridgeRunner.nowMs()
                for (t, payload) in publish {
                    let (mid, err) = mqtt.publish(topic: t, payload: payload, retain: true)
                    guard let mid else { mqtt.stop(); return .failure(.unreachable("publish failed: \(err ?? "?")")) }
                    pending.insert(mid)
                }
                if collect, let err = mqtt.subscribe(topics, qos: 0) { mqtt.stop(); return .failure(.unreachable(err)) }
            case .published(let mid): pending.remove(mid)
            case let .message(t, payload, _): got.append((t, payload)); quietSince = BridgeRunner.nowMs()
            default: break
            }
        }
        if connected && pending.isEmpty && (!collect || BridgeRunner.nowMs() - quietSince > 1000) { break }
    }
    mqtt.stop()
    // The library would go on retrying; this exchange does not.
    let why = note.map { " (" + ($0.hasSuffix("; retrying") ? String($0.dropLast("; retrying".count)) : $0) + ")" } ?? ""
    guard connected else { return .failure(.unreachable("no answer within 10 s" + why)) }
    guard pending.isEmpty else { return .failure(.unreachable("the broker did not acknowledge the publish within 10 s")) }
    return .success(got)
}

/// `circle report` (docs/circles.md#a-course-leaders-report): reads the circle as the leader.
func circleReportMain(_ opts: [String: String]) -> Never {
    guard let broker = opts["broker"], let prefix = opts["prefix"], let circle = opts["circle"] else {
        fail("circle report needs --broker, --prefix and --circle", 2)
    }
    let (user, password) = readerAccount(opts)
    let invite = CircleInvite(broker: broker, prefix: prefix, circle: circle, member: user, password: password.isEmpty ? "-" : password)
    if let p = invite.problem(), p != "password", p != "member" { fail("invalid \(p) (see docs/circles.md#invites)", 2) }
    var entry = CircleEntry(invite: invite, share: "none", screenGoal: 0)
    entry.password = password
    let config: BridgeConfig
    do { config = try BridgeConfig.parse("broker = \(broker)\n", file: "circle report") } catch { fail(error.description, 2) }
    var sync = CircleSync(entry: entry)
    for (t, p) in circleExchange(entry, config: config, publish: [], collect: true) { sync.receive(topic: t, payload: p) }
    let rows = CircleReport.rows(sync.board)
    print("circle \(circle): the learners' latest reports")
    print(CircleReport.table(rows), terminator: "")
    if !sync.refused.isEmpty { say("circle \(circle): \(sync.refused.count) report(s) refused") }
    guard let out = opts["out"] else { exit(0) }
    if mkdir(out, 0o755) != 0 && errno != EEXIST { fail("\(out): cannot create the folder (errno \(errno))", 1) }
    let csvPath = out + "/circle-report.csv"
    var history: [CircleReport.Row] = []
    do {
        if let text = try StateFile.read(csvPath, limit: 64 << 20) {
            let parsed = CircleReport.parseCSV(text)
            if parsed.skipped > 0 { say("\(csvPath): \(parsed.skipped) line(s) not a report row, dropped") }
            history = parsed.rows
        }
    } catch { fail("\(csvPath): \(error)", 1) }
    let all = CircleReport.merge(history, rows)
    do {
        try StateFile.writeAtomically(csvPath, Array(CircleReport.csv(all).utf8), mode: 0o644)
        for (name, png) in CircleReport.charts(all) { try StateFile.writeAtomically(out + "/" + name, png, mode: 0o644) }
    } catch { fail("\(out): \(error)", 1) }
    print("wrote \(csvPath) (\(all.count) rows) and \(CircleReport.charts(all).count) charts in \(out)")
    exit(0)
}

/// The account of a reader of circles (`circle report`, `circle watch`): `--user` (default
/// `course_leader`) and the first line of `--password-file`. Any MQTT username; a name that is no
/// member id is best: nothing it could write below its own name is taken for a member's report.
func readerAccount(_ opts: [String: String]) -> (user: String, password: String) {
    let user = opts["user"] ?? "course_leader"
    guard (1...64).contains(user.utf8.count), user.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f && $0 != "/" && $0 != "+" && $0 != "#" }) else {
        fail("--user: 1–64 printable characters, no / + #", 2)
    }
    var password = ""
    if let pf = opts["password-file"] {
        do {
            guard let text = try StateFile.read(pf, limit: 4096) else { fail("\(pf): no such file", 2) }
            password = String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        } catch { fail("\(pf): \(error)", 2) }
    } else if opts["user"] != nil { fail("--user needs --password-file", 2) }
    return (user, password)
}

/// `circle watch` (docs/circles.md#watching-circles): follows circles' leaderboards as reports
/// arrive, through the reports' ingestion of `circle sync` (`CircleWatch`); survives the broker
/// going away (the library reconnects, the subscriptions are made again on each connection).
@MainActor
func circleWatchMain(_ opts: [String: String]) -> Never {
    guard let broker = opts["broker"], let prefixList = opts["prefix"] else { fail("circle watch needs --broker and --prefix", 2) }
    guard let metric = LeaderboardMetric(rawValue: opts["metric"] ?? "coins") else { fail("--metric: coins, focus, screen or streak", 2) }
    guard let target = Int(opts["members"] ?? "0"), target >= 0, let seconds = Int(opts["seconds"] ?? "0"), (0...86_400).contains(seconds) else {
        fail("--members: a count; --seconds: 0–86400", 2)
    }
    let (user, password) = readerAccount(opts)
    var watch: CircleWatch
    do { watch = try CircleWatch(broker: broker, prefixes: prefixList.split(separator: ",").map(String.init), metric: metric) }
    catch { fail(error.description, 2) }
    var c: BridgeConfig
    do { c = try BridgeConfig.parse("broker = \(broker)\n", file: "circle watch") } catch { fail(error.description, 2) }
    c.username = user
    c.clientID = "deskpet-watch-\(user)-\(getpid())"
    let mqtt: MQTTClient
    do { mqtt = try MQTTClient(config: c, password: password.isEmpty ? nil : password,
                               willTopic: "\(watch.circles[0].entry.prefix)/\(user)/status", maxPayload: 16 << 10) }
    catch { fail(error.description, 1) }
    signal(SIGINT, onSignal)
    signal(SIGTERM, onSignal)
    do { if let note = try mqtt.start(keepalive: 30) { say("mqtt: " + note) } } catch { fail(error.description, 1) }
    let start = BridgeRunner.nowMs()
    var oversized = 0
    var reached = false
    while stopRequested == 0 {
        if seconds > 0 && BridgeRunner.nowMs() - start >= Int64(seconds) * 1000 { break }
        var p = pollfd(fd: mqtt.wakeFD, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, 200)
        for ev in mqtt.drain() {
            switch ev {
            case let .connected(rc, _) where rc != 0: fail("the broker refused the connection: \(MQTTClient.connackText(rc))", 1)
            case .connected:
                if let err = mqtt.subscribe(watch.topics, qos: 0) { fail("mqtt: \(err)", 1) }
            case .disconnected(let rc) where rc != 0: say("mqtt: the broker went away (\(rc)); reconnecting")
            case let .message(t, payload, _): watch.receive(topic: t, payload: payload)
            case .oversized: oversized += 1
            default: break
            }
        }
        let changes = watch.changes()
        if !changes.isEmpty {
            var ts = timespec(); clock_gettime(CLOCK_REALTIME, &ts)
            let ms = Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
            for ch in changes { print("\(ms) \(ch.prefix) \(ch.ranked) \(ch.rows)") }
            fflush(nil)
        }
        if target > 0 && watch.membersHeld >= target { reached = true; break }
    }
    mqtt.stop()
    var ru = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &ru)
    if watch.refusedCount + oversized > 0 { say("circle watch: \(watch.refusedCount + oversized) report(s) refused") }
    print("held \(watch.circles.count) circle(s), \(watch.membersHeld) member(s); peak_rss_kib \(ru.ru_maxrss)")
    exit(target > 0 && !reached && stopRequested == 0 ? 1 : 0)
}

/// A proposal's start and end as the device reads them (`circle.when`, docs/protocol.md#circles):
/// its time zone, its clock. A time it cannot read is refused naming the option.
func resolveTimes(_ c: LinkClient, start: String, end: String) -> (Instant, Instant) {
    for (k, v) in [("start", start), ("end", end)] where v.isEmpty || v.utf8.count > 64 || v.unicodeScalars.contains(where: { $0.value < 0x20 }) {
        fail("--\(k): not a time (use 'YYYY-MM-DD HH:MM', 'today HH:MM', '+2h' or '@UNIX_SECONDS')", 2)
    }
    let id = "cw-\(Int64(time(nil)))-\(getpid())"
    do {
        try c.send(["type": .string("command"), "id": .string(id), "name": .string("circle.when"),
                    "fields": .object(["start": .string(start), "end": .string(end)])])
        while true {
            let o = try c.waitFor(["circle.when", "error"])
            guard o["id"]?.fieldText == id else { continue }
            guard o["type"]?.fieldText == "circle.when", let s = o["start"]?.fieldText.flatMap({ Int64($0) }),
                  let e = o["end"]?.fieldText.flatMap({ Int64($0) }) else {
                let message = o["message"]?.fieldText ?? o["code"]?.fieldText ?? "?"
                // "invalid start: …" → "--start: …"
                if message.hasPrefix("invalid start") || message.hasPrefix("invalid end") {
                    fail("--" + String(message.dropFirst("invalid ".count)) + " (read by the device)", 2)
                }
                fail("the device could not read the times: \(message.prefix(200))", 1)
            }
            return (Instant(s), Instant(e))
        }
    } catch { fail("device link: \(error)", 1) }
}

/// A proposal in a line: id, proposer, goal, window, stake.
func proposalText(_ t: ChallengeTerms) -> String {
    "\(t.id) by \(t.proposer): \(t.goal.text) from @\(t.start.seconds) for \((t.end - t.start) / Seconds.day) day(s), stake \(t.stake) each"
}

/// `circle admit` (docs/circles.md#the-one-time-credential): the owner's side of joining.
@MainActor
func circleAdmitMain(_ opts: [String: String]) -> Never {
    guard let broker = opts["broker"], let prefix = opts["prefix"], let passwd = opts["passwd"] else {
        fail("circle admit needs --passwd, --broker and --prefix", 2)
    }
    var pid: pid_t?
    if let p = opts["pid"] { guard let v = Int32(p), v > 1 else { fail("--pid: the broker's process id", 2) }; pid = v }
    let (user, password) = readerAccount(opts)
    let invite = CircleInvite(broker: broker, prefix: prefix, circle: "admit", member: "admit", password: "not-a-password")
    if let p = invite.problem() { fail("invalid \(p) (see docs/circles.md#invites)", 2) }
    var entry = CircleEntry(invite: invite, share: "none", screenGoal: 0)
    entry.member = user
    entry.password = password
    let config: BridgeConfig
    do { config = try BridgeConfig.parse("broker = \(broker)\n", file: "circle admit") } catch { fail(error.description, 2) }
    var requests: [String: String] = [:]
    switch circleTry(entry, config: config, publish: [], collect: true, topics: ["\(prefix)/+/join"]) {
    case .failure(let r): fail("the broker refused the connection: \(r.text)", 1)
    case .success(let got):
        for (t, p) in got where !p.isEmpty {
            let parts = t.dropFirst(prefix.count + 1).split(separator: "/")
            guard t.hasPrefix(prefix + "/"), parts.count == 2, parts[1] == "join", CircleRules.isMemberID(String(parts[0])),
                  let h = String(validating: p, as: UTF8.self), CirclePassword.isHash(h) else {
                say("circle admit: a join request that is not one, ignored"); continue
            }
            requests[String(parts[0])] = h
        }
    }
    // The password file as it is: its owner and mode are kept (the broker reads it after dropping root).
    var st = stat()
    guard stat(passwd, &st) == 0 else { fail("\(passwd): cannot read it (errno \(errno))", 1) }
    let text: String
    do {
        guard let t = try StateFile.read(passwd, limit: 16 << 20) else { fail("\(passwd): no such file", 1) }
        text = t
    } catch { fail("\(passwd): \(error)", 1) }
    let result = CircleAdmit.apply(passwd: text, requests: requests)
    for u in result.unknown { say("circle admit: \(u) is not an account in \(passwd) (no invite made it): ignored") }
    guard !result.admitted.isEmpty else { print("nobody to admit (\(requests.count) join request(s), all applied)"); exit(0) }
    let tmp = passwd + ".admit-\(getpid())"
    let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { fail("\(tmp): cannot create it (errno \(errno))", 1) }
    let bytes = Array(result.text.utf8)
    let ok = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count
        && fchown(fd, st.st_uid, st.st_gid) == 0 && fchmod(fd, st.st_mode & 0o7777) == 0 && fsync(fd) == 0
    close(fd)
    guard ok, rename(tmp, passwd) == 0 else { unlink(tmp); fail("\(passwd): cannot replace it (errno \(errno))", 1) }
    if let pid, kill(pid, SIGHUP) != 0 { fail("the broker (pid \(pid)) could not be told to reload (errno \(errno)); the file is written", 1) }
    print("admitted \(result.admitted.joined(separator: ",")): each member's own password is in \(passwd); the invites' credentials no longer work\(pid == nil ? " once the broker reloads the file" : "")")
    exit(0)
}
