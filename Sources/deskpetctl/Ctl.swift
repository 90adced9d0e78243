#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PetCore
import PetLink

func out(_ s: String) { print(s) }
/// Writes a line to standard error (messages only: never personal text).
func err(_ s: String) {
    fflush(nil)
    let bytes = Array(("deskpetctl: " + s + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// One run of deskpetctl: the global options and the state folder.
final class Ctl {
    let state: StateDir
    let explicitAddress: Target?
    let timeout: Int
    var ids = IDMaker()

    init(state: StateDir, address: Target?, timeout: Int) {
        self.state = state; self.explicitAddress = address; self.timeout = timeout
    }

    /// The address: `--tcp`/`--unix`/`--ble`, else the one stored when pairing.
    func address() throws(CtlError) -> Target {
        if let explicitAddress { return explicitAddress }
        if let a = try state.pairing()?.address, let parsed = try? Target.parse(a) { return parsed }
        throw .usage("no device address: give --tcp HOST:PORT, --unix PATH or --ble ADDRESS (pair stores it for later runs)")
    }

    /// No Bluetooth sockets in this kernel: an unsupported transport (8); other BLE problems
    /// (pairing needed, not a DeskPet): a link error (6).
    static func exitCode(_ e: BLEClientError) -> Int32 {
        if case .noBluetooth = e { return Exit.unsupported }
        return Exit.link
    }

    func token() throws(CtlError) -> String {
        guard let p = try state.pairing() else {
            throw CtlError(code: Exit.notPaired, message: "not paired: run 'deskpetctl pair' first (state folder \(state.path))")
        }
        return p.token
    }

    /// Connects and says hello with the token. nil when the device is unreachable (or does not
    /// answer the hello).
    func connect(resume: Bool = false, quiet: Bool = false) throws(CtlError) -> LinkClient? {
        let token = try token()
        let addr = try address()
        let seen = try state.lastSeq()
        let client: LinkClient
        do { client = try addr.open(timeoutSeconds: timeout, lastSeq: seen) }
        catch .unreachable(let a, let reason) { if !quiet { err("device unreachable at \(a): \(reason)") }; return nil }
        catch .bluetooth(let e) { throw CtlError(code: Self.exitCode(e), message: e.description) }
        catch { throw CtlError(code: Exit.link, message: error.description) }
        do { try client.hello(token: token, resume: resume) }
        catch .device(let code, _, _) where code == ErrorCode.badToken || code == ErrorCode.notPaired {
            throw CtlError(code: Exit.notPaired, message: "the device does not know this phone any more: pair again")
        } catch .timeout(let what, let s) {
            err("device at \(addr) did not answer (no \(what) within \(s) s)"); return nil
        } catch .connectionLost(let a, let reason) {
            err("device at \(a) dropped the connection: \(reason)"); return nil
        } catch { throw CtlError(code: Exit.link, message: error.description) }
        return client
    }

    // MARK: - The offline queue

    /// Sends the queued commands in order; each leaves the queue on its reply (also a
    /// duplicate) or a final refusal (printed). Returns (sent, refused); throws the link error
    /// that stopped it (what is left stays queued).
    @discardableResult
    func replayQueue(_ client: LinkClient, quiet: Bool = false) throws(CtlError) -> (applied: Int, duplicates: Int, refused: Int) {
        var q = try state.queue()
        guard q.count > 0 else { return (0, 0, 0) }
        var done: Set<String> = []
        var applied = 0, duplicates = 0, refused = 0
        var failure: LinkClientError?
        let items = q.items
        do {
            try client.pipeline(items, window: 64) { (c: QueuedCommand, o: LinkClient.Outcome) throws(LinkClientError) in
                switch o {
                case .reply(let r):
                    done.insert(c.id)
                    if r["duplicate"] == .bool(true) { duplicates += 1 } else { applied += 1 }
                case let .refused(code, message):
                    if o.isFinal {
                        done.insert(c.id); refused += 1
                        err("queued command \(c.id) (\(c.name)) refused: \(code): \(message)")
                    } else {
                        throw LinkClientError.device(code: code, message: message, id: c.id)
                    }
                }
                // Rewrite the queue file now and then (an interrupted sync resends the rest:
                // the device answers those it already has as duplicates).
                if done.count % 256 == 0 { do { try q.remove(ids: done) } catch { } }
            }
        } catch { failure = error }
        do { try q.remove(ids: done) } catch { throw CtlError(code: Exit.files, message: error.description) }
        if let failure {
            throw CtlError(code: Exit.partial, message: "sync stopped after \(done.count) of \(items.count) queued commands (\(q.count) still queued): \(failure)")
        }
        if !quiet { out("synced \(items.count) queued command(s): \(applied) applied, \(duplicates) already applied, \(refused) refused") }
        return (applied, duplicates, refused)
    }

    func queue(_ commands: [QueuedCommand]) throws(CtlError) -> Int32 {
        var q = try state.queue()
        var ts = timespec(); clock_gettime(CLOCK_REALTIME, &ts)
        let stamped = commands.map { var c = $0; c.queuedAt = Int64(ts.tv_sec); return c }
        do { try q.append(stamped) } catch { throw CtlError(code: Exit.files, message: error.description) }
        out("queued (\(q.count) waiting)")
        return Exit.queued
    }

    // MARK: - Commands

    /// Runs a mutating command: the queue first, then it; queued when the device is unreachable
    /// or the connection breaks before its answer.
    func mutate(_ c: QueuedCommand, show: (LinkClient, [String: JSONValue]) -> Void) throws(CtlError) -> Int32 {
        // Not paired at all: refuse rather than queue something that can never be sent.
        _ = try token()
        guard let client = try connect() else { return try queue([c]) }
        do { try replayQueue(client, quiet: true) } catch {
            err(error.message)
            return try queue([c])
        }
        let outcome: LinkClient.Outcome
        do { outcome = try client.command(c) } catch {
            err("\(error); the command keeps its id \(c.id)")
            return try queue([c])
        }
        try saveSeq(client)
        switch outcome {
        case .reply(let r):
            show(client, r)
            return Exit.ok
        case let .refused(code, message):
            if !outcome.isFinal { err("\(code): \(message)"); return try queue([c]) }
            err("refused: \(code): \(message)")
            return Exit.refused
        }
    }

    /// Runs a command that reads (never queued).
    func read(_ c: QueuedCommand) throws(CtlError) -> (LinkClient, [String: JSONValue]) {
        guard let client = try connect() else { throw CtlError(code: Exit.unreachable, message: "the device is unreachable (\(c.name) cannot be queued)") }
        do { try replayQueue(client, quiet: true) } catch { err(error.message) }
        let outcome: LinkClient.Outcome
        do { outcome = try client.command(c) } catch { throw CtlError(code: Exit.link, message: error.description) }
        switch outcome {
        case .reply(let r): return (client, r)
        case let .refused(code, message): throw CtlError(code: Exit.refused, message: "refused: \(code): \(message)")
        }
    }

    func saveSeq(_ client: LinkClient) throws(CtlError) {
        if client.lastSeq > (try state.lastSeq()) { try state.saveLastSeq(client.lastSeq) }
    }
}


/// How a reply is shown: `ok NAME`, the id, and the numbers the device sent.
func summary(_ r: [String: JSONValue], id: String) -> String {
    var s = "ok \(r["command"]?.fieldText ?? "") (id \(id)"
    for k in ["seq", "coins", "xp", "level"] { if let v = r[k]?.fieldText { s += ", \(k) \(v)" } }
    s += ")"
    if let reward = r["reward"]?.fieldText, reward != "0" { s += " reward +\(reward) coins" }
    if r["duplicate"] == .bool(true) { s += " duplicate: already applied, nothing changed" }
    return s
}

/// The id of the task a `task.create` made (from the pushed `task.created` event).
func createdTaskID(_ client: LinkClient) -> String? {
    for e in client.events.reversed() {
        if case .object(let body)? = e["event"], body["type"] == .string("task.created"),
           case .object(let task)? = body["task"], let id = task["id"]?.fieldText { return id }
    }
    return nil
}
