#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PetWire
import PetIO

// deskpetctl: the phone stand-in (docs/deskpetctl.md). Talks the phone protocol
// (docs/protocol.md) over TCP or a Unix socket, keeps its token and an offline queue in a
// state folder, and replays the queue whenever the device can be reached. --ble: GATT over an
// L2CAP LE socket (PetWire's BLEClientSocket and BLEStream; docs/ble.md).

let usageText = """
usage: deskpetctl [--tcp HOST:PORT | --unix PATH | --ble ADDRESS] [--state DIR] [--timeout S] COMMAND ...

commands:
  pair [--code CODE] [--name NAME]      pair with the device (type the code it shows, or give it)
  unpair                                remove this phone from the device and forget the token
  task add TITLE [--due T] [--priority low|normal|high] [--task ID] [--category C]
  task list                             the open tasks
  task done ID | task rm ID
  habit check ID
  urge log --trigger T --outcome resisted|gave-in|finished
  usage report APP START END            a screen-time session (times: 'YYYY-MM-DD HH:MM', 'today HH:MM', '@unix')
  focus start [MIN] | focus stop
  shop buy ITEM
  send NAME [KEY=VALUE ...]             any domain command by its protocol name
  batch FILE|-                          commands as JSON lines {"name":…,"fields":{…}} (queued when offline)
  watch [--count N] [--for S] [--json]  print reminders and events live (Ctrl-C ends)
  export [FILE]                         the export document (stdout without FILE)
  sync                                  send the offline queue
  queue                                 show the offline queue (ids and command names)
  stats [--csv FILE] [--png DIR]        per-day stats from the export, as CSV (and PNG charts)

mutating commands take --id ID (the command id; default a fresh one). Every command takes --help.
state folder: --state DIR, else $DESKPETCTL_STATE, $XDG_CONFIG_HOME/deskpetctl, ~/.config/deskpetctl.
--ble ADDRESS: Bluetooth LE GATT, ADDRESS = AA:BB:CC:DD:EE:FF (add /random for a random static
address); needs an adapter that is up with LE on. The kernel pairs (Just Works) and encrypts the
link. No adapter, adapter down, nothing at the address: unreachable (3 queued / 4); pairing
needed or not a DeskPet: 6.
exit codes: 0 ok, 1 refused by the device, 2 usage, 3 queued (device unreachable), 4 unreachable
(not queueable), 5 not paired, 6 link error or timeout, 7 local files, 8 unsupported transport (no Bluetooth in this kernel),
9 sync left commands queued.
"""

let helps: [String: String] = [
    "pair": "deskpetctl pair [--code CODE] [--name NAME]\n  Asks the device to pair; it shows a 6-digit code. Type it (or pass --code). Stores the token\n  (mode 0600) and the address in the state folder.",
    "unpair": "deskpetctl unpair\n  Removes this phone from the device and deletes the stored token (the queue stays).",
    "task": "deskpetctl task add TITLE [--due T] [--priority P] [--task ID] [--category C] [--id CMDID]\n           task list | task done ID | task rm ID\n  Times: 'YYYY-MM-DD HH:MM', 'today HH:MM', '+2h', '@unixseconds'.",
    "habit": "deskpetctl habit check ID [--id CMDID]",
    "urge": "deskpetctl urge log --trigger T --outcome resisted|gave-in|finished [--id CMDID]",
    "usage": "deskpetctl usage report APP START END [--id CMDID]\n  A screen-time session of APP from START to END.",
    "focus": "deskpetctl focus start [MINUTES] [--block APP,APP] | focus stop",
    "shop": "deskpetctl shop buy ITEM [--id CMDID]",
    "send": "deskpetctl send NAME [KEY=VALUE ...] [--id CMDID]\n  Any domain command by its protocol name (docs/scenarios.md), queued when offline.",
    "batch": "deskpetctl batch FILE|-\n  One command per line as JSON {\"name\":\"task.create\",\"fields\":{\"title\":\"…\"},\"id\":\"optional\"}.\n  Online: sent in order (pipelined); offline: all queued.",
    "watch": "deskpetctl watch [--count N] [--for SECONDS] [--json]\n  Resumes after the last event seen, prints reminders (and confirms them with notice.delivered)\n  and events as they come. Ends on Ctrl-C, after N lines, or after SECONDS.",
    "export": "deskpetctl export [FILE]\n  Writes the export document (docs/export.md) to FILE (mode 0600) or stdout.",
    "sync": "deskpetctl sync\n  Sends the offline queue in order; each command leaves it on its reply (or a duplicate reply)\n  or when the device refuses it for good (the error is printed).",
    "queue": "deskpetctl queue\n  Lists the offline queue: id and command name, oldest first.",
    "stats": "deskpetctl stats [--csv FILE] [--png DIR]\n  Per-day numbers from the export's journal: date, events, tasks_completed, coins_earned,\n  coins_spent, habits_checked, urges. CSV to FILE (or stdout); --png DIR writes coins.png and tasks.png.",
]

func run(_ argv: [String]) throws(CtlError) -> Int32 {
    var i = 1
    var tcp: String?, unix: String?, ble: String?, stateDir: String?, timeout = 10
    while i < argv.count, argv[i].hasPrefix("--") {
        let a = argv[i]
        if a == "--help" || a == "-h" { out(usageText); return Exit.ok }
        if a == "--version" { out("deskpetctl \(DeskPetVersion.string)"); return Exit.ok }
        guard i + 1 < argv.count else { throw .usage("\(a) needs a value") }
        switch a {
        case "--tcp": tcp = argv[i + 1]
        case "--unix": unix = argv[i + 1]
        case "--ble": ble = argv[i + 1]
        case "--state": stateDir = argv[i + 1]
        case "--timeout":
            guard let t = Int(argv[i + 1]), t > 0 else { throw .usage("--timeout must be a positive number of seconds") }
            timeout = t
        default: throw .usage("unknown option \(a) (see deskpetctl --help)")
        }
        i += 2
    }
    guard i < argv.count else { out(usageText); return Exit.usage }
    let command = argv[i]
    let rest = argv[(i + 1)...]
    if rest.contains("--help") || rest.contains("-h") || command == "help" {
        out(helps[command == "help" ? (rest.first ?? "") : command] ?? usageText); return Exit.ok
    }
    guard [tcp, unix, ble].compactMap({ $0 }).count <= 1 else { throw .usage("give one of --tcp, --unix and --ble") }
    var address: Target?
    if let tcp { address = try Target.parse("tcp:" + tcp) }
    if let unix { address = try Target.parse("unix:" + unix) }
    if let ble { address = try Target.parse("ble:" + ble) }
    let ctl = Ctl(state: StateDir(path: StateDir.resolve(stateDir)), address: address, timeout: timeout)
    return try dispatch(ctl, command, rest)
}

func dispatch(_ ctl: Ctl, _ command: String, _ rest: ArraySlice<String>) throws(CtlError) -> Int32 {
    let sub = rest.first ?? ""
    let afterSub = rest.dropFirst()
    func simple(_ name: String, _ fields: [String: String], _ args: Args) throws(CtlError) -> Int32 {
        let c = QueuedCommand(id: args.options["id"] ?? ctl.ids.next(), name: name, fields: fields)
        return try ctl.mutate(c) { _, r in out(summary(r, id: c.id)) }
    }
    switch (command, sub) {
    case ("pair", _): return try pair(ctl, try Args(rest, valued: ["code", "name"], flags: []))
    case ("unpair", _): return try unpair(ctl)
    case ("task", "add"):
        let a = try Args(afterSub, valued: ["due", "priority", "task", "category", "id", "estimate", "reminders"], flags: [])
        guard a.positional.count == 1 else { throw .usage("task add needs one TITLE (quote it)") }
        var f = ["title": a.positional[0]]
        for k in ["due", "priority", "task", "category", "estimate", "reminders"] { if let v = a.options[k] { f[k] = v } }
        let c = QueuedCommand(id: a.options["id"] ?? ctl.ids.next(), name: "task.create", fields: f)
        return try ctl.mutate(c) { client, r in
            out(summary(r, id: c.id))
            if let t = createdTaskID(client) ?? f["task"] { out("task \(t)") }
        }
    case ("task", "list"):
        _ = try Args(afterSub, valued: [], flags: [])
        let (_, r) = try ctl.read(QueuedCommand(id: ctl.ids.next(), name: "state"))
        guard case .array(let tasks)? = r["tasks"] else { out("no open tasks"); return Exit.ok }
        if tasks.isEmpty { out("no open tasks") }
        for case .object(let t) in tasks {
            var line = "\(t["id"]?.fieldText ?? "?")\t\(t["title"]?.fieldText ?? "")"
            if let due = t["due"]?.int64 { line += "\tdue \(formatUTC(due)) UTC" }
            if let cat = t["category"]?.fieldText { line += "\t[\(cat)]" }
            out(line)
        }
        return Exit.ok
    case ("task", "done"), ("task", "rm"):
        let a = try Args(afterSub, valued: ["id"], flags: [])
        guard a.positional.count == 1 else { throw .usage("task \(sub) needs one task ID") }
        return try simple(sub == "done" ? "task.complete" : "task.delete", ["task": a.positional[0]], a)
    case ("habit", "check"):
        let a = try Args(afterSub, valued: ["id"], flags: [])
        guard a.positional.count == 1 else { throw .usage("habit check needs one habit ID") }
        return try simple("habit.check", ["habit": a.positional[0]], a)
    case ("urge", "log"):
        let a = try Args(afterSub, valued: ["trigger", "outcome", "thoughts", "id"], flags: [])
        guard let t = a.options["trigger"], let o = a.options["outcome"], a.positional.isEmpty else { throw .usage("urge log needs --trigger T --outcome O") }
        var f = ["trigger": t, "outcome": o]
        if let th = a.options["thoughts"] { f["thoughts"] = th }
        return try simple("quit.log", f, a)
    case ("usage", "report"):
        let a = try Args(afterSub, valued: ["id"], flags: [])
        guard a.positional.count == 3 else { throw .usage("usage report needs APP START END") }
        return try simple("screen.session", ["app": a.positional[0], "start": a.positional[1], "end": a.positional[2]], a)
    case ("focus", "start"):
        let a = try Args(afterSub, valued: ["id", "block"], flags: [])
        guard a.positional.count <= 1 else { throw .usage("focus start takes at most MINUTES") }
        var f: [String: String] = [:]
        if let m = a.positional.first { guard Int(m) != nil else { throw .usage("MINUTES must be a whole number") }; f["minutes"] = m }
        if let b = a.options["block"] { f["block"] = b }
        return try simple("focus.start", f, a)
    case ("focus", "stop"):
        let a = try Args(afterSub, valued: ["id"], flags: [])
        return try simple("focus.cancel", [:], a)
    case ("shop", "buy"):
        let a = try Args(afterSub, valued: ["id"], flags: [])
        guard a.positional.count == 1 else { throw .usage("shop buy needs one ITEM") }
        return try simple("shop.buy", ["item": a.positional[0]], a)
    case ("send", _):
        let a = try Args(rest, valued: ["id"], flags: [])
        guard let name = a.positional.first else { throw .usage("send needs a command NAME") }
        var f: [String: String] = [:]
        for kv in a.positional.dropFirst() {
            guard let eq = kv.firstIndex(of: "=") else { throw .usage("fields are KEY=VALUE") }
            f[String(kv[..<eq])] = String(kv[kv.index(after: eq)...])
        }
        return try simple(name, f, a)
    case ("batch", _): return try batch(ctl, try Args(rest, valued: [], flags: []))
    case ("watch", _): return try watch(ctl, try Args(rest, valued: ["count", "for"], flags: ["json"]))
    case ("export", _): return try export(ctl, try Args(rest, valued: [], flags: []))
    case ("sync", _):
        _ = try Args(rest, valued: [], flags: [])
        let q = try ctl.state.queue()
        guard q.count > 0 else { out("nothing queued"); return Exit.ok }
        guard let client = try ctl.connect() else { throw CtlError(code: Exit.partial, message: "the device is unreachable: \(q.count) command(s) still queued") }
        try ctl.replayQueue(client)
        try ctl.saveSeq(client)
        return Exit.ok
    case ("queue", _):
        let q = try ctl.state.queue()
        for c in q.items { out("\(c.id)\t\(c.name)") }
        out("\(q.count) waiting")
        return Exit.ok
    case ("stats", _): return try stats(ctl, try Args(rest, valued: ["csv", "png"], flags: []))
    default:
        throw .usage("unknown command '\(command)\(sub.isEmpty ? "" : " " + sub)' (see deskpetctl --help)")
    }
}

func pair(_ ctl: Ctl, _ a: Args) throws(CtlError) -> Int32 {
    let addr = try ctl.address()
    let client: LinkClient
    do { client = try addr.open(timeoutSeconds: max(ctl.timeout, 130)) }
    catch .bluetooth(let e) { throw CtlError(code: Ctl.exitCode(e), message: e.description) }
    catch { throw CtlError(code: Exit.unreachable, message: error.description) }
    let name = a.options["name"] ?? "deskpetctl"
    guard (1...32).contains(name.count) else { throw .usage("--name must be 1–32 characters") }
    do {
        try client.hello(token: nil)
        let r = try client.pair(name: name) { () throws(LinkClientError) -> String in
            if let c = a.options["code"] { return c }
            out("enter the 6-digit code shown on the device:")
            fflush(nil)
            guard let line = readLine() else { throw LinkClientError.protocolViolation(what: "no code was typed") }
            return String(line.filter { !$0.isWhitespace })
        }
        try ctl.state.savePairing(.init(phone: r.phone, token: r.token, address: addr.description))
        out("paired as \(r.phone)")
        return Exit.ok
    } catch let e as CtlError { throw e }
    catch let e as LinkClientError {
        if case .device(let code, let message, _) = e { throw CtlError(code: Exit.refused, message: "pairing refused: \(code): \(message)") }
        throw CtlError(code: Exit.link, message: e.description)
    } catch { throw CtlError(code: Exit.link, message: "\(error)") }
}

func unpair(_ ctl: Ctl) throws(CtlError) -> Int32 {
    guard let client = try ctl.connect() else { throw CtlError(code: Exit.unreachable, message: "the device is unreachable: the token is kept") }
    do { let phone = try client.unpair(); ctl.state.removePairing(); out("unpaired \(phone)") }
    catch { throw CtlError(code: Exit.link, message: error.description) }
    return Exit.ok
}

func batch(_ ctl: Ctl, _ a: Args) throws(CtlError) -> Int32 {
    guard a.positional.count == 1 else { throw .usage("batch needs FILE or -") }
    var text = ""
    if a.positional[0] == "-" {
        while let l = readLine() {
            text += l + "\n"
            guard text.utf8.count <= StateFile.batchLimit else { throw CtlError(code: Exit.files, message: "standard input: more than the \(StateFile.batchLimit) bytes a batch may hold") }
        }
    } else {
        do { guard let t = try StateFile.read(a.positional[0], limit: StateFile.batchLimit) else { throw CtlError(code: Exit.files, message: "\(a.positional[0]): no such file") }; text = t }
        catch let e as ClientStateError { throw CtlError(code: Exit.files, message: e.description) } catch let e as CtlError { throw e } catch { throw CtlError(code: Exit.files, message: "\(error)") }
    }
    struct Line: Decodable { var name: String; var fields: [String: String]?; var id: String? }
    var commands: [QueuedCommand] = []
    for (n, line) in text.split(separator: "\n").enumerated() where !line.allSatisfy(\.isWhitespace) {
        guard let l = try? JSONDecoder().decode(Line.self, from: Data(line.utf8)) else { throw .usage("batch line \(n + 1) is not {\"name\":…,\"fields\":{…}}") }
        commands.append(QueuedCommand(id: l.id ?? ctl.ids.next(), name: l.name, fields: l.fields ?? [:]))
    }
    _ = try ctl.token()
    guard let client = try ctl.connect() else { return try ctl.queue(commands) }
    var q = try ctl.state.queue()
    do { try q.append(commands) } catch { throw CtlError(code: Exit.files, message: error.description) }
    do { try ctl.replayQueue(client) } catch { err(error.message); return Exit.queued }
    try ctl.saveSeq(client)
    return Exit.ok
}

func export(_ ctl: Ctl, _ a: Args) throws(CtlError) -> Int32 {
    guard a.positional.count <= 1 else { throw .usage("export takes at most FILE") }
    let text = try exportText(ctl)
    // Only a regular (or new) FILE, or standard output with every write checked (docs/export.md).
    if let file = a.positional.first {
        do throws(FileError) { try ExportDestination.check(file) } catch { throw CtlError(code: Exit.files, message: error.description) }
        do { try StateFile.writeAtomically(file, Array(text.utf8)) } catch { throw CtlError(code: Exit.files, message: error.description) }
        out("exported \(text.utf8.count) bytes to \(file)")
    } else {
        do throws(FileError) { try ExportDestination.writeStandardOutput(Array((text + "\n").utf8)) }
        catch { throw CtlError(code: Exit.files, message: error.description) }
    }
    return Exit.ok
}

func exportText(_ ctl: Ctl) throws(CtlError) -> String {
    let c = QueuedCommand(id: ctl.ids.next(), name: "export")
    let (client, r) = try ctl.read(c)
    let parts = client.exportParts[c.id] ?? []
    if let n = r["parts"]?.int64, n != Int64(parts.count) {
        throw CtlError(code: Exit.link, message: "export: \(parts.count) of \(n) parts arrived")
    }
    return parts.joined()
}

func watch(_ ctl: Ctl, _ a: Args) throws(CtlError) -> Int32 {
    let limit = try a.int("count")
    let seconds = try a.int("for")
    let json = a.flags.contains("json")
    var printed = 0
    var start = timespec(); clock_gettime(CLOCK_MONOTONIC, &start)
    func elapsed() -> Int { var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec - start.tv_sec }
    func done() -> Bool { (limit.map { printed >= $0 } ?? false) || (seconds.map { elapsed() >= $0 } ?? false) }
    var everConnected = false
    // One session per connection; a lost connection is retried every 2 s (resuming after the
    // last event seen) until Ctrl-C, --count or --for.
    while !done() {
        guard let client = try ctl.connect(resume: true, quiet: everConnected) else {
            guard everConnected else { throw CtlError(code: Exit.unreachable, message: "the device is unreachable") }
            var pause = timespec(tv_sec: 2, tv_nsec: 0)
            nanosleep(&pause, nil)
            continue
        }
        if everConnected { err("watch: reconnected") }
        everConnected = true
        do { try ctl.replayQueue(client, quiet: true) } catch { err(error.message) }
        var shownEvents = 0, shownReminders = 0
        var lastPing = elapsed()
        do {
            while !done() {
                // Show what arrived; confirm reminders once shown.
                var confirm: [String] = []
                for r in client.reminders.dropFirst(shownReminders) {
                    let id = r["id"]?.fieldText ?? "?"
                    if json { out(jsonLine(["type": .string("reminder"), "item": .object(r)])) }
                    else { out("reminder \(id) \(r["source"]?.fieldText ?? "") \(r["ref"]?.fieldText ?? "") due \(r["due"]?.int64.map { formatUTC($0) + " UTC" } ?? "?")") }
                    confirm.append(id); printed += 1
                }
                shownReminders = client.reminders.count
                for e in client.events.dropFirst(shownEvents) {
                    if json { out(jsonLine(e)) }
                    else {
                        var type = "?"
                        if case .object(let body)? = e["event"] { type = body["type"]?.fieldText ?? "?" }
                        out("event \(e["seq"]?.fieldText ?? "?") \(e["kind"]?.fieldText ?? "?") \(type)")
                    }
                    printed += 1
                }
                shownEvents = client.events.count
                fflush(nil)
                try ctl.saveSeq(client)
                if !confirm.isEmpty {
                    _ = try client.command(QueuedCommand(id: ctl.ids.next(), name: "notice.delivered", fields: ["ids": confirm.joined(separator: ",")]))
                    continue
                }
                if done() { break }
                if elapsed() - lastPing >= 60 { try client.send(["type": .string("ping")]); lastPing = elapsed() }
                _ = try client.next(waitMs: 200)
            }
        } catch let e as CtlError { throw e }
        catch let e as LinkClientError {
            switch e {
            case .connectionLost, .timeout: err("watch: \(e); reconnecting")
            default: throw CtlError(code: Exit.link, message: e.description)
            }
        } catch { throw CtlError(code: Exit.link, message: "\(error)") }
    }
    return Exit.ok
}

func jsonLine(_ o: [String: JSONValue]) -> String { String(decoding: MessageEncoder.body(o), as: UTF8.self) }

/// `YYYY-MM-DD HH:MM` of unix seconds (UTC).
func formatUTC(_ t: Int64) -> String {
    let days = t >= 0 ? t / 86_400 : (t - 86_399) / 86_400
    let secs = t - days * 86_400
    let (y, m, d) = civil(days)
    func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(y)-\(two(m))-\(two(d)) \(two(secs / 3600)):\(two(secs % 3600 / 60))"
}

/// Days since 1970-01-01 → (year, month, day) (the proleptic Gregorian calendar).
func civil(_ z0: Int64) -> (Int64, Int64, Int64) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
}

signal(SIGPIPE, SIG_IGN)
do {
    exit(try run(CommandLine.arguments))
} catch {
    err(error.message)
    exit(error.code)
}
