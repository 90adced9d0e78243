import PetCore
import PetDevice

/// `command` messages (docs/protocol.md#commands): every domain command through `CommandParser`
/// (the same names and fields as the simulator's `send`), plus the link's own: `export`,
/// `time.set`, `state` and `wipe`. A command's journal id is the phone's id and the client's,
/// `phone-1:c-17`, so one phone's ids never collide with another's or the device's own.
extension LinkService {
    /// The longest client command id (the journal's limit is 64, less the phone prefix).
    public static let maxClientID = 48

    /// Commands only the link knows (the rest go to `CommandParser`).
    public static let linkCommands = ["export", "time.set", "state", "wipe", "summary", "buttons.watch", "circle.report", "circle.state", "circle.when",
                                      "circle.join.request", "circle.join.pending", "circle.join.result"]

    /// What a `command` message comes to before anything is stored.
    enum Prepared {
        /// Answered without the journal: a refusal (bad id, bad fields, unparsable), never stored.
        case answered([LinkFrame])
        /// A link command (`export`, `state`, `time.set`, `wipe`): handled on its own.
        case link
        /// A domain command for the journal (a repeated id becomes a placeholder the app answers
        /// with the stored reply).
        case domain(Command)
    }

    func command(_ m: CommandMessage, phone: String, from c: Int, loop: LinkHost) -> [LinkFrame] {
        switch prepare(m, phone: phone, from: c, loop: loop) {
        case .answered(let frames): return frames
        case .link where m.name == "circle.report": return circleReport(m, phone: phone, from: c, loop: loop)
        case .link where m.name == "circle.state": return circleState(m, from: c, loop: loop)
        case .link where m.name == "circle.when": return circleWhen(m, from: c, loop: loop)
        case .link where m.name.hasPrefix("circle.join."): return circleJoinCommand(m, from: c, loop: loop)
        case .link: return linkCommand(m, from: c, loop: loop)
        case .domain(let command):
            let outcome: Outcome
            do { outcome = try commitOne(command, loop: loop) } catch {
                log?("link: journal failed for a \(m.name.prefix(40)) command: \(error)")
                return journalFailed(m.id, from: c)
            }
            return answer(outcome, id: m.id, seq: Int64(loop.state.eventCount), from: c)
        }
    }

    /// Validates a command message and parses it against the device's current state.
    func prepare(_ m: CommandMessage, phone: String, from c: Int, loop: LinkHost) -> Prepared {
        guard Self.validClientID(m.id) else {
            return .answered(reply(c, ErrorMessage(id: nil, code: ErrorCode.invalidField,
                                                   message: "invalid id: must be 1–\(Self.maxClientID) ASCII letters, digits or - _ . : #")))
        }
        var fields: [String: String] = [:]
        for (k, v) in m.fields ?? [:] {
            guard let text = v.fieldText else {
                return .answered(reply(c, ErrorMessage(id: m.id, code: ErrorCode.invalidField, message: "invalid \(k.prefix(40)): must be a string, a whole number or a boolean")))
            }
            fields[k] = text
        }
        if Self.linkCommands.contains(m.name) { return .link }
        let journalID = Self.journalID(phone: phone, id: m.id)
        if loop.commandSeen(journalID) {
            // Seen before: the app answers with the stored reply whatever the action says (and
            // the fields may no longer parse: a relative time, a deleted task).
            return .domain(Command(id: journalID, at: loop.now, action: .petThePet))
        }
        do {
            return .domain(try CommandParser.parse(name: m.name, fields: fields, id: journalID, at: loop.now,
                                                   clock: loop.state.clock, current: loop.state.device))
        } catch {
            return .answered(reply(c, ErrorMessage(id: m.id, code: error.code, message: error.description)))
        }
    }

    static func journalID(phone: String, id: String) -> String { "\(phone):\(id)" }

    /// The answer to a stored (or refused) domain command.
    func answer(_ outcome: Outcome, id: String, seq: Int64, from c: Int) -> [LinkFrame] {
        switch outcome.result {
        case .failure(let e):
            return reply(c, ErrorMessage(id: id, code: e.code, message: e.description))
        case .success(let r):
            var out = ReplyMessage(id: id, command: r.command)
            out.events = r.events; out.coins = r.coins; out.xp = r.xp; out.level = r.level; out.reward = r.reward
            out.duplicate = r.duplicate; out.seq = seq
            return reply(c, out)
        }
    }

    /// Stores one command through the host (durable before this returns) and pushes its events.
    func commitOne(_ command: Command, loop: LinkHost) throws(AppError) -> Outcome {
        guard let only = try commit([command], loop: loop).first else { throw .journal(seq: nil, detail: "a command produced no outcome") }
        return only
    }

    func journalFailed(_ id: String, from c: Int) -> [LinkFrame] {
        reply(c, ErrorMessage(id: id, code: ErrorCode.journal, message: "the journal could not store this command; nothing changed"))
    }

    private func linkCommand(_ m: CommandMessage, from c: Int, loop: LinkHost) -> [LinkFrame] {
        var fields: [String: String] = [:]
        for (k, v) in m.fields ?? [:] { if let text = v.fieldText { fields[k] = text } }
        switch m.name {
        case "export": return export(id: m.id, from: c, loop: loop)
        case "state":
            var cursor = 0
            if let text = fields["cursor"] {
                guard let n = Int(text), n >= 0 else {
                    return reply(c, ErrorMessage(id: m.id, code: ErrorCode.invalidField, message: "invalid cursor: must be a whole number >= 0 (a state reply's cursor)"))
                }
                cursor = n
            }
            return reply(c, statePage(loop, id: m.id, cursor: cursor))
        case "time.set": return setTime(id: m.id, fields: fields, from: c, loop: loop)
        case "summary":
            guard let titles = Self.yesNo(fields["titles"] ?? "no") else {
                return reply(c, ErrorMessage(id: m.id, code: ErrorCode.invalidField, message: "invalid titles: must be yes or no"))
            }
            return reply(c, summary(loop, id: m.id, titles: titles))
        case "buttons.watch":
            guard let on = Self.yesNo(fields["on"] ?? "yes") else {
                return reply(c, ErrorMessage(id: m.id, code: ErrorCode.invalidField, message: "invalid on: must be yes or no"))
            }
            var replay: [ButtonMessage] = []
            if let since = fields["since"] {
                guard on, let kept = gesturesAfter(since, now: loop.now.seconds) else {
                    return reply(c, ErrorMessage(id: m.id, code: ErrorCode.invalidField, message: "invalid since: must be RUN:N (a button message's run and n), with on=yes"))
                }
                replay = kept
            }
            sessions[c]?.watchesButtons = on
            var r = ReplyMessage(id: m.id, command: m.name)
            r.seq = Int64(loop.state.eventCount)
            return reply(c, r) + replay.map { LinkFrame(client: c, bytes: MessageEncoder.frame($0)) }
        default:
            return reply(c, ErrorMessage(id: m.id, code: ErrorCode.confirmOnDevice,
                                         message: "a wipe needs the owner on the device: hold A and C for 3 s"))
        }
    }

    static func validClientID(_ id: String) -> Bool {
        guard (1...maxClientID).contains(id.utf8.count) else { return false }
        return id.utf8.allSatisfy { b in
            (48...57).contains(b) || (65...90).contains(b) || (97...122).contains(b) || "-_.:#".utf8.contains(b)
        }
    }

    /// `export`: queued, then produced a slice per wake-up (`continueExports`), one connection's
    /// export at a time. A connection has at most one export running or waiting, the device
    /// `config.maxExports` in all; more is refused with `busy` (docs/protocol.md#limits-and-timeouts).
    private func export(id: String, from c: Int, loop: LinkHost) -> [LinkFrame] {
        if sessions[c]?.export != nil {
            return reply(c, ErrorMessage(id: id, code: ErrorCode.busy, message: "an export is already running on this connection: wait for its reply"))
        }
        guard exportQueue.count < config.maxExports else {
            log?("link: client \(c): export refused, \(exportQueue.count) running or waiting")
            return reply(c, ErrorMessage(id: id, code: ErrorCode.busy, message: "\(config.maxExports) exports are running or waiting: try again when one has finished"))
        }
        sessions[c]?.export = ExportJob(id: id)
        exportQueue.append(c)
        // The first slice at once when its turn has come and no slice ran in this wake-up (a
        // small export is answered in one go; the next one waits for the next wake-up).
        guard exportQueue.first == c, exportSliceWake != loop.wakeups else { return [] }
        exportSliceWake = loop.wakeups
        return exportSlice(loop: loop)
    }

    /// The next slice of the export whose turn it is, streamed as its client reads: up to
    /// `config.exportPartsPerWake` parts go out while the client has less than
    /// `config.exportWindowBytes` unread, each cut from what the producer made so far; when no
    /// whole part is ready, more of the document is produced (the head and state, then journal
    /// rows: at most `config.exportRowsPerSlice` per wake-up), only as parts are sent, so the
    /// device holds a slice and at most two parts of an export, never the document.
    /// `parts` is known only at the end: the last part carries it, and so does the `reply` that
    /// follows; the next export's turn begins at the next wake-up.
    func exportSlice(loop: LinkHost) -> [LinkFrame] {
        guard let c = exportQueue.first else { return [] }
        guard var job = sessions[c]?.export else { exportQueue.removeFirst(); return [] }
        var frames: [LinkFrame] = []
        var queued = loop.queuedBytes(client: c)
        // Journal rows this wake-up may still read (the head and state come with the first slice).
        var rowsLeft = config.exportRowsPerSlice
        var sliced = false
        var n = 0
        while n < config.exportPartsPerWake, queued < config.exportWindowBytes {
            if job.nextPart >= job.ends.count {
                // No whole part ready: more of the document, within this wake-up's rows.
                if job.finished || rowsLeft <= 0 { break }
                let producer = job.producer ?? loop.startExport()
                job.producer = producer
                if !sliced { exportSlicesBuilt += 1; sliced = true }
                let startRows = producer.rowsRead
                let piece: [UInt8]?
                do { piece = try producer.next(rows: rowsLeft) } catch {
                    log?("link: client \(c): export failed: \(error)")
                    sessions[c]?.export = nil
                    exportQueue.removeFirst()
                    return frames + reply(c, ErrorMessage(id: job.id, code: ErrorCode.journal, message: "the export could not be read from the journal"))
                }
                rowsLeft -= producer.rowsRead - startRows
                if let piece { job.buffer += piece } else {
                    job.producer = nil
                    job.finished = true
                }
                job.cutFrom = ExportPart.cut(job.buffer, from: job.cutFrom, final: job.finished, into: &job.ends)
                continue
            }
            let end = job.ends[job.nextPart]
            let last = job.finished && job.nextPart == job.ends.count - 1
            let part = reply(c, ExportPart(id: job.id, part: job.sent, parts: last ? job.sent + 1 : nil,
                                           data: String(decoding: job.buffer[job.sentUpTo..<end], as: UTF8.self)))
            frames += part
            queued += part.reduce(0) { $0 + $1.bytes.count }
            job.bytes += end - job.sentUpTo
            job.sentUpTo = end
            job.nextPart += 1
            job.sent += 1
            n += 1
        }
        job.compact()
        exportHeldPeak = max(exportHeldPeak, job.buffer.count)
        exportPartsSent += n
        guard job.finished, job.nextPart == job.ends.count, job.sentUpTo == job.buffer.count else {
            sessions[c]?.export = job
            return frames
        }
        var r = ReplyMessage(id: job.id, command: "export")
        r.parts = job.sent; r.bytes = job.bytes; r.seq = Int64(loop.state.eventCount)
        sessions[c]?.export = nil
        exportQueue.removeFirst()
        return frames + reply(c, r)
    }

    /// Whether the export whose turn it is can go on now (its client reads fast enough).
    func exportCanContinue(loop: LinkHost) -> Bool {
        guard let c = exportQueue.first, sessions[c]?.export != nil else { return false }
        return loop.queuedBytes(client: c) < config.exportWindowBytes
    }

    private func setTime(id: String, fields: [String: String], from c: Int, loop: LinkHost) -> [LinkFrame] {
        guard let text = fields["unix_ms"], let ms = Int64(text), ms > 0, TimeRange.contains(Instant(ms / 1000)) else {
            return reply(c, ErrorMessage(id: id, code: ErrorCode.invalidField, message: "invalid unix_ms: must be milliseconds since 1970, a positive whole number in \(TimeRange.text)"))
        }
        do { try setClock(unixMs: ms, loop: loop) } catch {
            log?("link: time.set failed: \(error)")
            let message = loop.clockIsSettable ? "the clock could not be set: \(error.reason)" : error.reason
            return reply(c, ErrorMessage(id: id, code: ErrorCode.unsupported, message: message))
        }
        log?("link: clock set by the phone")
        var r = ReplyMessage(id: id, command: "time.set")
        r.clockMs = loop.nowMs; r.seq = Int64(loop.state.eventCount)
        return reply(c, r)
    }
}
