import PetCore
import PetDevice
import PetStore

/// The phone protocol on a `PhoneLink` (docs/protocol.md): the device loop hands it every
/// transport event, every batch of stored events and its wake-ups; it reads the device through
/// a `LinkHost` and returns what must happen as `LinkEffect`s (frames to send, clients to drop,
/// the pairing code to show), which the loop applies. It never touches the transport, the app
/// or the screen itself; to store commands it asks the host (`LinkHost.commit`), handing over
/// the effects decided so far so that the wire and the screen keep their order. No thread per
/// client: each connection is a `Session` (frame reassembly, authentication, pairing challenge,
/// timers) in one dictionary, served on the loop's thread.
///
/// Order on the wire for a command: the events it stored and the `state` summary (pushed once
/// the transaction commits), then its `reply` — sent only after the journal transaction is
/// durable.
public final class LinkService: LinkServing {
    public let config: LinkConfig
    let random: SecureRandom
    var sessions: [Int: Session] = [:]
    /// Joins asked for from the companion, in memory only (docs/circles.md#joining-from-the-phone).
    public internal(set) var circleJoins: [CircleJoinRequest] = []
    /// Wrong pairing codes in a row (any connection); the 5th journals a lockout.
    public internal(set) var wrongCodes = 0
    /// Group commits so far: journal transactions that stored a run of pipelined commands, and
    /// the commands they held (for the bench and tests).
    public internal(set) var batchCommits = 0
    public internal(set) var batchedCommands = 0
    /// The connection whose pairing code is on screen.
    var codeShownFor: Int?
    /// Connections with an export running (the first) or waiting its turn, in order.
    var exportQueue: [Int] = []
    /// The wake-up in which an export slice was last produced (one slice per wake-up).
    var exportSliceWake = -1
    /// Export slices that built documents, and `export.part` frames sent, so far (for the bench
    /// and tests).
    public internal(set) var exportSlicesBuilt = 0
    public internal(set) var exportPartsSent = 0
    /// The most bytes of an export document held between wake-ups (made, not yet sent): a
    /// streamed export holds a slice and at most two parts, whatever the journal's size.
    public internal(set) var exportHeldPeak = 0
    /// Short notes for the operator's log: client numbers, message types, codes, sizes — never
    /// personal text.
    public var log: ((String) -> Void)?
    /// What the call being served decided so far, in order (handed to the loop when it returns,
    /// or to `LinkHost.commit` before a journal transaction).
    var effects: [LinkEffect] = []
    /// The board's recent key gestures, oldest first (at most `gestureKeep`, none older than
    /// `gestureWindowSeconds`): replayed to a `buttons.watch` with `since` after a reconnect.
    public internal(set) var gestureLog: [ButtonMessage] = []
    var gestureCount: Int64 = 0
    /// Names this run of the device in `button` messages (random; a restart forgets the gestures).
    lazy var gestureRun: String = {
        if let b = try? random.bytes(8) { return Hex.encode(b) }
        return "run"
    }()
    public static let gestureKeep = 256
    public static let gestureWindowSeconds: Int64 = 2 * 3600

    public init(config: LinkConfig = LinkConfig(), random: SecureRandom = SystemRandom()) {
        self.config = config
        self.random = random
    }

    /// Connections open now, and how many of them are authenticated phones.
    public var clientCount: Int { sessions.count }
    public var authenticatedCount: Int { sessions.values.filter { $0.phone != nil }.count }

    // MARK: - LinkServing

    public func handle(_ event: LinkEvent, loop: LinkHost) -> [LinkEffect] {
        switch event {
        case .connected(let c):
            if sessions.count >= config.maxClients, let victim = evictable(loop) {
                log?("link: client \(victim) dropped for client \(c): every slot taken, not authenticated")
                drop(victim, ErrorMessage(code: ErrorCode.tooManyClients, message: "every connection slot is taken: a newer connection took the place of this one, which had not authenticated"))
            }
            if sessions.count >= config.maxClients {
                log?("link: client \(c) refused: \(sessions.count) clients connected")
                drop(c, ErrorMessage(code: ErrorCode.tooManyClients, message: "the device serves at most \(config.maxClients) connections"))
            } else {
                sessions[c] = Session(nowMs: loop.nowMs)
            }
        case .disconnected(let c):
            forget(c)
        case .frame(let f):
            received(f, loop: loop)
        }
        return takeEffects()
    }

    public func pushed(_ events: [Event], loop: LinkHost) -> [LinkEffect] {
        push(events, loop: loop).map { .send($0) }
    }

    /// The frames that push stored events to the authenticated connections: each event, the
    /// queued reminders when they changed, the `state` summary; a connection whose phone was
    /// unpaired (or every one, after a wipe) gets `not_paired` instead and is no longer
    /// authenticated. Reads the state after the events.
    func push(_ events: [Event], loop: LinkHost) -> [LinkFrame] {
        guard !events.isEmpty else { return [] }
        let last = Int64(loop.state.eventCount)
        let first = last - Int64(events.count) + 1
        var drops: [Int] = []
        // A wipe (a new genesis) forgets every pairing; an unpairing forgets that phone.
        var unpaired: Set<String> = []
        var wiped = false
        var reminders = false
        for e in events {
            switch e.kind {
            case .genesis: wiped = true
            case .phone(.unpaired(let id)): unpaired.insert(id)
            // Both queue a reminder for the phones (a task's reminders too): push the queue.
            case .reminder(.shown), .reminder(.missed), .reminderDue, .reminderMissed: reminders = true
            default: break
            }
        }
        for (c, s) in sessions {
            guard let phone = s.phone else { continue }
            if wiped || unpaired.contains(phone) { drops.append(c) }
        }
        var frames: [LinkFrame] = []
        let bodies = events.enumerated().map { i, e in Self.eventFrame(e, seq: first + Int64(i)) }
        let state = MessageEncoder.frame(stateMessage(loop, id: nil, withTasks: false))
        let queued = reminders ? MessageEncoder.frame(remindersMessage(loop)) : nil
        for c in sessions.keys.sorted() where sessions[c]?.phone != nil && !drops.contains(c) {
            for b in bodies { frames.append(LinkFrame(client: c, bytes: b)) }
            if let queued { frames.append(LinkFrame(client: c, bytes: queued)) }
            frames.append(LinkFrame(client: c, bytes: state))
        }
        for c in drops {
            sessions[c]?.phone = nil
            sessions[c]?.unauthenticatedSinceMs = loop.nowMs
            // An export for a phone no longer paired (or of a wiped journal) ends here.
            sessions[c]?.export = nil
            exportQueue.removeAll { $0 == c }
            log?("link: client \(c) no longer paired (\(wiped ? "device wiped" : "phone unpaired"))")
            frames.append(LinkFrame(client: c, bytes: MessageEncoder.frame(ErrorMessage(
                code: ErrorCode.notPaired, message: wiped ? "the device was reset: pair again" : "this phone was unpaired"))))
        }
        return frames
    }

    public func nextDeadlineMs(loop: LinkHost) -> Int64? {
        var best: Int64?
        func consider(_ t: Int64) { best = best.map { min($0, t) } ?? t }
        for s in sessions.values {
            if s.hasWaiting { consider(loop.nowMs) }   // a backlog: serve it at once
            consider(s.lastFrameMs &+ config.idleTimeoutMs)
            if let p = s.partialSinceMs { consider(p &+ config.halfFrameTimeoutMs) }
            if let ch = s.challenge { consider(ch.expiresMs) }
        }
        // An export goes on as soon as its client has room (else the transport's descriptor
        // wakes the loop when the socket drains).
        if exportCanContinue(loop: loop) { consider(loop.nowMs) }
        return best
    }

    public func tick(loop: LinkHost) -> [LinkEffect] {
        let now = loop.nowMs
        for c in sessions.keys.sorted() {
            guard let s = sessions[c] else { continue }
            if let p = s.partialSinceMs, now - p >= config.halfFrameTimeoutMs {
                log?("link: client \(c) dropped: half a frame for \(config.halfFrameTimeoutMs / 1000) s")
                drop(c, ErrorMessage(code: ErrorCode.timeout, message: "a frame was left unfinished for \(config.halfFrameTimeoutMs / 1000) s"))
            } else if now - s.lastFrameMs >= config.idleTimeoutMs {
                log?("link: client \(c) dropped: idle")
                drop(c, ErrorMessage(code: ErrorCode.timeout, message: "no message for \(config.idleTimeoutMs / 1000) s (send ping to stay connected)"))
            } else if let ch = s.challenge, now >= ch.expiresMs {
                sessions[c]?.challenge = nil
                if hideCode(ifShownFor: c) { effects.append(.pairingEnded(.expired)) }
            }
        }
        // Backlogs: one more batch for each connection not yet served in this wake-up.
        for c in sessions.keys.sorted() {
            guard let s = sessions[c], s.hasWaiting, s.servedAtWake != loop.wakeups else { continue }
            serve(c, loop: loop)
        }
        // The export whose turn it is: one slice per wake-up, while its client reads.
        if exportSliceWake != loop.wakeups, exportCanContinue(loop: loop) {
            exportSliceWake = loop.wakeups
            emit(exportSlice(loop: loop))
        }
        return takeEffects()
    }

    /// The connection a newcomer may replace when every slot is taken: the one unauthenticated
    /// longest (at least `config.unauthenticatedGraceMs`), without a pairing code on screen.
    private func evictable(_ loop: LinkHost) -> Int? {
        var best: (c: Int, since: Int64)?
        for (c, s) in sessions where s.phone == nil && s.challenge == nil && codeShownFor != c
            && loop.nowMs - s.unauthenticatedSinceMs >= config.unauthenticatedGraceMs {
            if best == nil || s.unauthenticatedSinceMs < best!.since || (s.unauthenticatedSinceMs == best!.since && c < best!.c) {
                best = (c, s.unauthenticatedSinceMs)
            }
        }
        return best?.c
    }

    // MARK: - Frames in

    private func received(_ f: LinkFrame, loop: LinkHost) {
        guard var s = sessions[f.client] else { return }
        let bodies: [[UInt8]]
        do {
            bodies = try s.decoder.feed(f.bytes)
        } catch {
            let code = if case .frameTooLarge = error { ErrorCode.frameTooLarge } else { ErrorCode.malformed }
            log?("link: client \(f.client) dropped: \(error)")
            drop(f.client, ErrorMessage(code: code, message: error.description))
            return
        }
        let now = loop.nowMs
        if !bodies.isEmpty { s.lastFrameMs = now }
        if s.decoder.hasPartialFrame { if s.partialSinceMs == nil || !bodies.isEmpty { s.partialSinceMs = now } }
        else { s.partialSinceMs = nil }
        s.enqueue(bodies)
        sessions[f.client] = s
        if s.waitingBytes > config.maxWaitingBytes {
            log?("link: client \(f.client) dropped: \(s.waitingBytes) bytes of messages waiting")
            drop(f.client, ErrorMessage(code: ErrorCode.overloaded, message: "more than \(config.maxWaitingBytes) bytes of messages waiting for answers: wait for replies before sending more"))
            return
        }
        if s.hasWaiting && s.servedAtWake != loop.wakeups { serve(f.client, loop: loop) }
    }

    /// One batch of a connection's waiting messages (at most `config.batchLimit`), answered in
    /// order. A run of domain commands is decided together and stored in one journal transaction
    /// (`LinkHost.commit`); their events are pushed, then the replies go out. Anything else
    /// ends the run and is answered on its own. Frames join `effects` as they are ready.
    func serve(_ c: Int, loop: LinkHost) {
        sessions[c]?.servedAtWake = loop.wakeups
        var run: [(id: String, prepared: Prepared)] = []
        var runIDs: Set<String> = []
        func flush() {
            guard !run.isEmpty else { return }
            let entries = run
            run = []; runIDs = []
            emit(commandRun(entries, from: c, loop: loop))
        }
        var handled = 0
        while handled < config.batchLimit, sessions[c] != nil, let body = sessions[c]?.takeWaiting() {
            handled += 1
            let m: ClientMessage
            do { m = try ClientMessage.decode(body) } catch {
                flush()
                let code = if case .unknownType = error { ErrorCode.unknownType } else { ErrorCode.malformed }
                emit(reply(c, ErrorMessage(code: code, message: error.description)))
                continue
            }
            guard case .command(let cmd) = m, let s = sessions[c], s.saidHello, let phone = s.phone else {
                flush()
                emit(message(m, from: c, loop: loop))
                continue
            }
            // A repeated id must see its first occurrence stored (or refused) before it is parsed.
            if runIDs.contains(Self.journalID(phone: phone, id: cmd.id)) { flush() }
            let prepared = prepare(cmd, phone: phone, from: c, loop: loop)
            if case .link = prepared {
                flush()
                emit(command(cmd, phone: phone, from: c, loop: loop))
                continue
            }
            run.append((cmd.id, prepared))
            if case .domain(let command) = prepared { runIDs.insert(command.id) }
            // Settings change how the next commands parse (zone, day start, device settings).
            if cmd.name.hasPrefix("settings.") { flush() }
        }
        flush()
    }

    /// Stores a run of prepared commands in one transaction; its events are pushed (into
    /// `effects`); returns the answers, in order.
    private func commandRun(_ run: [(id: String, prepared: Prepared)], from c: Int, loop: LinkHost) -> [LinkFrame] {
        var commands: [Command] = []
        for entry in run { if case .domain(let command) = entry.prepared { commands.append(command) } }
        var outcomes: [Outcome] = []
        var seq = Int64(loop.state.eventCount)
        if !commands.isEmpty {
            batchCommits += 1
            batchedCommands += commands.count
            do { outcomes = try commit(commands, loop: loop) } catch {
                log?("link: journal failed for a batch of \(commands.count) commands: \(error)")
                var frames: [LinkFrame] = []
                for entry in run {
                    switch entry.prepared {
                    case .answered(let f): frames += f
                    case .domain, .link: frames += journalFailed(entry.id, from: c)
                    }
                }
                return frames
            }
        }
        var frames: [LinkFrame] = []
        var next = 0
        for entry in run {
            switch entry.prepared {
            case .answered(let f): frames += f
            case .link: break
            case .domain:
                let outcome = outcomes[next]
                next += 1
                seq += Int64(outcome.committed.count)
                frames += answer(outcome, id: entry.id, seq: seq, from: c)
            }
        }
        return frames
    }

    private func message(_ m: ClientMessage, from c: Int, loop: LinkHost) -> [LinkFrame] {
        guard let s = sessions[c] else { return [] }
        if case .hello(let h) = m { return hello(h, from: c, loop: loop) }
        guard s.saidHello else { return reply(c, ErrorMessage(code: ErrorCode.helloFirst, message: "say hello first")) }
        switch m {
        case .hello: return []
        case .ping: return reply(c, Pong(seq: Int64(loop.state.eventCount)))
        case .pairBegin: return pairBegin(from: c, loop: loop)
        case .pairFinish(let p): return pairFinish(p, from: c, loop: loop)
        case .unpair(let u):
            guard let phone = s.phone else { return reply(c, ErrorMessage(code: ErrorCode.notPaired, message: "pair first")) }
            return unpair(u.phone ?? phone, from: c, loop: loop)
        case .command(let cmd):
            guard let phone = s.phone else {
                return reply(c, ErrorMessage(id: cmd.id, code: ErrorCode.notPaired, message: "only hello and pairing before this phone is paired"))
            }
            return command(cmd, phone: phone, from: c, loop: loop)
        }
    }

    private func hello(_ h: Hello, from c: Int, loop: LinkHost) -> [LinkFrame] {
        guard ProtocolVersion.supported.contains(h.version) else {
            return reply(c, ErrorMessage(code: ErrorCode.unsupportedVersion,
                                         message: "protocol version \(h.version) is not supported (supported: \(ProtocolVersion.supported.map(String.init).joined(separator: ", ")))"))
        }
        sessions[c]?.saidHello = true
        var frames: [LinkFrame] = []
        if let token = h.token {
            guard let raw = Hex.decode(token), raw.count == 32,
                  let phone = loop.state.phones.phone(withTokenHash: Hex.encode(SHA256.hash(raw))) else {
                log?("link: client \(c): unknown token")
                if sessions[c]?.phone != nil { sessions[c]?.unauthenticatedSinceMs = loop.nowMs }
                sessions[c]?.phone = nil
                return reply(c, ErrorMessage(code: ErrorCode.badToken, message: "this token is not paired with the device (pair again)"))
            }
            sessions[c]?.phone = phone.id
        }
        let seq = Int64(loop.state.eventCount)
        guard let phone = sessions[c]?.phone else {
            return reply(c, Welcome(paired: false, phone: nil, seq: seq))
        }
        // Replay what the phone missed (bounded), then the queued reminders, then the state.
        var replay: [[UInt8]] = []
        var truncated: Bool?
        if let last = h.lastSeq, last < seq {
            let from = max(last, seq - Int64(config.replayLimit))
            if from > last { truncated = true }
            do {
                for row in try loop.storedEvents(after: max(0, from), limit: config.replayLimit) {
                    let kind = EventMessage.kind(type: row.type, coinsDelta: row.coinsDelta)
                    replay.append(Self.fitted(MessageEncoder.frame(EventMessage(
                        seq: row.seq, at: row.at, kind: kind, event: JSONValue.parse(row.payload) ?? .null)),
                        seq: row.seq, at: row.at, kind: kind))
                }
            } catch {
                log?("link: replay failed: \(error)")
                truncated = true
            }
        }
        frames.append(LinkFrame(client: c, bytes: MessageEncoder.frame(
            Welcome(paired: true, phone: phone, seq: seq, replayed: h.lastSeq == nil ? nil : replay.count, truncated: truncated))))
        for b in replay { frames.append(LinkFrame(client: c, bytes: b)) }
        if !loop.state.reminders.outbox.isEmpty { frames.append(LinkFrame(client: c, bytes: MessageEncoder.frame(remindersMessage(loop)))) }
        frames.append(LinkFrame(client: c, bytes: MessageEncoder.frame(stateMessage(loop, id: nil, withTasks: false))))
        return frames
    }

    // MARK: - Helpers

    /// A message for one client. Every answer fits in a frame (docs/protocol.md#limits-and-timeouts): one
    /// that would not (none should: texts have byte limits, `state` pages its tasks) becomes a
    /// `too_large` error, so the device never sends what its own peers must refuse.
    func reply<T: Encodable>(_ c: Int, _ message: T) -> [LinkFrame] {
        let frame = MessageEncoder.frame(message)
        guard frame.count - 4 > Frame.maxBody else { return [LinkFrame(client: c, bytes: frame)] }
        log?("link: client \(c): an answer of \(frame.count - 4) bytes is over the frame limit")
        return [LinkFrame(client: c, bytes: MessageEncoder.frame(ErrorMessage(
            code: ErrorCode.tooLarge, message: "the answer would be \(frame.count - 4) bytes, over the \(Frame.maxBody)-byte frame limit")))]
    }

    /// An event frame that fits the frame limit, or in its place the event without its body:
    /// `{"type":"event","seq":…,"at":…,"kind":…,"event":null,"too_large":<bytes>}` (seq stays
    /// continuous; the export has the whole event).
    static func fitted(_ frame: [UInt8], seq: Int64, at: Int64, kind: String) -> [UInt8] {
        guard frame.count - 4 > Frame.maxBody else { return frame }
        return MessageEncoder.frame(OmittedEvent(seq: seq, at: at, kind: kind, tooLarge: frame.count - 4))
    }

    struct OmittedEvent: Encodable {
        var type = EventMessage.type
        var seq: Int64
        var at: Int64
        var kind: String
        var event: JSONValue = .null
        var tooLarge: Int
        enum CodingKeys: String, CodingKey { case type, seq, at, kind, event, tooLarge = "too_large" }
    }

    /// Frames to send, after the effects decided so far.
    func emit(_ frames: [LinkFrame]) {
        for f in frames { effects.append(.send(f)) }
    }

    /// The effects decided so far, handed over (to the loop, or to `LinkHost.commit`).
    func takeEffects() -> [LinkEffect] {
        defer { effects = [] }
        return effects
    }

    /// Stores commands through the host in one journal transaction (the effects decided so far
    /// are applied first), then pushes the events they stored; the outcomes, in order.
    func commit(_ commands: [Command], loop: LinkHost) throws(AppError) -> [Outcome] {
        let outcomes = try loop.commit(commands, after: takeEffects())
        var committed: [Event] = []
        for o in outcomes { committed += o.committed }
        emit(push(committed, loop: loop))
        return outcomes
    }

    /// Sends a last error and closes the connection.
    func drop(_ c: Int, _ error: ErrorMessage) {
        emit(reply(c, error))
        effects.append(.drop(client: c))
        forget(c)
    }

    private func forget(_ c: Int) {
        sessions.removeValue(forKey: c)
        exportQueue.removeAll { $0 == c }
        hideCode(ifShownFor: c)
    }

    /// Hides the code if it is `c`'s; whether it was.
    @discardableResult
    func hideCode(ifShownFor c: Int) -> Bool {
        guard codeShownFor == c else { return false }
        codeShownFor = nil
        effects.append(.pairingCode(nil))
        return true
    }

    /// An event as pushed: its journal body (encoded once, here), its seq, its kind for phones.
    static func eventFrame(_ e: Event, seq: Int64) -> [UInt8] {
        eventFrame(seq: seq, at: e.at.seconds, kind: EventMessage.kind(type: e.kind.type, coinsDelta: e.kind.coinsDelta),
                   body: MessageEncoder.body(e.kind))
    }

    /// The `event` message around an encoded event body, byte for byte what `MessageEncoder`
    /// makes of an `EventMessage` holding that body (sorted keys: at, event, kind, seq, type),
    /// without decoding and encoding the body again. `kind` is one of `EventMessage.kind`'s
    /// words (lower-case letters and hyphens, nothing to escape; anything else takes the long way).
    static func eventFrame(seq: Int64, at: Int64, kind: String, body: [UInt8]) -> [UInt8] {
        guard !kind.isEmpty, kind.utf8.allSatisfy({ (97...122).contains($0) || $0 == 45 }) else {
            return fitted(MessageEncoder.frame(EventMessage(seq: seq, at: at, kind: kind,
                                                            event: JSONValue.parse(String(decoding: body, as: UTF8.self)) ?? .null)),
                          seq: seq, at: at, kind: kind)
        }
        var out: [UInt8] = []
        out.reserveCapacity(body.count + kind.utf8.count + 64)
        out += #"{"at":"#.utf8
        out += String(at).utf8
        out += #","event":"#.utf8
        out += body
        out += #","kind":""#.utf8
        out += kind.utf8
        out += #"","seq":"#.utf8
        out += String(seq).utf8
        out += #","type":"event"}"#.utf8
        return fitted(Frame.encode(out), seq: seq, at: at, kind: kind)
    }

    func stateMessage(_ loop: LinkHost, id: String?, withTasks: Bool) -> StateMessage {
        let s = loop.state
        let tasks = withTasks ? s.openTasks().map {
            StateMessage.TaskSummary(id: $0.id, title: $0.title, due: $0.due?.seconds, category: $0.category)
        } : nil
        return StateMessage(id: id, seq: Int64(s.eventCount), coins: s.coins, xp: s.xp, level: s.level, streak: s.streak,
                            mood: s.mood(at: max(loop.now, s.now)).rawValue, remindersWaiting: s.reminders.outbox.count, tasks: tasks)
    }

    /// Open tasks in one `state` answer at most this many bytes of JSON (with the summary), so
    /// the answer fits in a frame; the rest on the next page (`cursor`).
    public static let statePageBytes = 60_000

    /// The answer to the `state` command: the summary and the open tasks from `cursor` on, as
    /// many as fit in `statePageBytes`; `cursor` in the answer says where the next page starts
    /// (absent: this page is the last).
    func statePage(_ loop: LinkHost, id: String?, cursor: Int) -> StateMessage {
        var m = stateMessage(loop, id: id, withTasks: false)
        let open = loop.state.openTasks()
        var used = MessageEncoder.body(m).count + 40   // `"tasks":[]`, `"cursor":<n>`
        var tasks: [StateMessage.TaskSummary] = []
        var i = min(cursor, open.count)
        while i < open.count {
            let t = StateMessage.TaskSummary(id: open[i].id, title: open[i].title, due: open[i].due?.seconds, category: open[i].category)
            let size = MessageEncoder.body(t).count + 1
            if used + size > Self.statePageBytes && !tasks.isEmpty { break }
            tasks.append(t)
            used += size
            i += 1
        }
        m.tasks = tasks
        m.cursor = i < open.count ? i : nil
        return m
    }

    func remindersMessage(_ loop: LinkHost) -> RemindersMessage {
        RemindersMessage(items: loop.state.reminders.outbox.map {
            .init(id: $0.id, source: $0.source.rawValue, ref: $0.ref, due: $0.due.seconds, solicited: $0.solicited)
        })
    }
}
