import FoundationEssentials
import PetCore
import PetDevice
import PetStore
#if canImport(Glibc)
import Glibc
#endif

/// History must not cost memory (docs/reliability.md, "Limits"): a journal synthesised from
/// rounds of three commands (a task created, that task completed, the pet petted; rounds half an
/// hour apart, so days close as they go) until it holds `events` events. The engine decides and
/// folds each command as the app would and the rows are stored 500 rounds per transaction
/// (synchronous off: this is setup, not a figure), each command with its `commands` row and reply.
/// Returns the commands and tasks stored.
func synthesiseJournal(_ db: String, events: Int) throws -> (commands: Int, tasks: Int) {
    for s in ["", "-wal", "-shm"] { removeFile(db + s) }
    let store = try wrapStore { () throws(StoreError) in try EventStore(path: db, options: EventStore.Options(synchronous: .off)) }
    defer { store.close() }
    var engine = try PetApp(store: store, now: start2026, zone: "Europe/Berlin", snapshotEvery: Int.max).engine
    func rows(_ events: [Event]) throws -> [EventRow] { try events.map { try JournalCodec.row($0, clock: engine.state.clock) } }
    var at = start2026
    var round = 0, commands = 0
    let t0 = monoNs()
    while engine.state.eventCount < events {
        var groups: [(command: CommandRow?, events: [EventRow])] = []
        for _ in 0..<500 {
            round += 1
            at = at + 1800
            let task = "t\(round)"
            for (i, (name, fields, id)) in [("task.create", ["task": task, "title": "Task number \(round)"], "c\(round)"),
                                            ("task.complete", ["task": task], "d\(round)"),
                                            ("pet.pet", [:], "p\(round)")].enumerated() {
                let t = at + Int64(i)
                let time = engine.advance(to: t)
                if !time.isEmpty { groups.append((nil, try rows(time))) }
                let c = try CommandParser.parseOrThrow(name: name, fields: fields, id: id, at: t, clock: engine.state.clock)
                let decided: [Event]
                do { decided = try engine.decide(c) } catch { throw AppError.domain(error) }
                engine.apply(decided)
                let s = engine.state
                // The reply as PetApp stores it (Reply, sorted keys).
                let reply = "{\"coins\":\(s.coins),\"command\":\"\(name)\",\"events\":\(decided.count),\"level\":\(s.level),\"ok\":true,\"xp\":\(s.xp)}"
                groups.append((CommandRow(id: id, at: t.seconds, kind: name, reply: reply), try rows(decided)))
                commands += 1
            }
        }
        _ = try wrapStore { () throws(StoreError) in try store.appendBatch(groups) }
        if round % 20_000 == 0 {
            progress("  \(engine.state.eventCount) of \(events) events, \(f(Double(monoNs() - t0) / 1e9, 1)) s")
        }
    }
    return (commands, round)
}

/// `journal_open_1m`: a journal of a million events opened cold in a fresh process (peak RSS and
/// seconds to the first command applied), without a snapshot (the whole journal replayed) and
/// with the snapshot that opening leaves; then `export_peak_rss` of `deskpet export` of it.
func benchBigJournal(events: Int, dir: String) throws {
    let db = dir + "/big.db"
    let t0 = monoNs()
    let (commands, tasks) = try synthesiseJournal(db, events: events)
    let bytes = fileSize(db)
    progress("bigjournal: \(events) events written in \(f(Double(monoNs() - t0) / 1e9, 1)) s (\(bytes / 1_048_576) MiB)")
    for label in ["no snapshot (full replay)", "after the snapshot that opening saved"] {
        let (kib, seconds) = try probe(["--probe-open", db])
        emit([("figure", q("journal_open_1m")), ("journal", q(label)), ("events", "\(events)"), ("commands", "\(commands)"),
              ("tasks", "\(tasks)"), ("journal_mib", "\(bytes / 1_048_576)"), ("seconds", f(seconds, 2)),
              ("peak_rss_kib", "\(kib)"), ("peak_rss_mib", f(Double(kib) / 1024, 1)), ("target", q("peak RSS <= 128 MiB"))])
    }
    try emitExportPeak(db: db, events: events, dir: dir)
    for s in ["", "-wal", "-shm"] { removeFile(db + s) }
}

/// `export_peak_rss`: `deskpet export` (the streamed journal export) of journals of growing size,
/// each in a fresh process: its peak RSS stays flat.
func benchExportPeak(sizes: [Int], dir: String) throws {
    for n in sizes {
        let db = dir + "/export-\(n).db"
        _ = try synthesiseJournal(db, events: n)
        try emitExportPeak(db: db, events: n, dir: dir)
        for s in ["", "-wal", "-shm"] { removeFile(db + s) }
    }
}

private func emitExportPeak(db: String, events: Int, dir: String) throws {
    let out = dir + "/export.json"
    let (kib, seconds) = try probe(["--probe-export", db, out])
    emit([("figure", q("export_peak_rss")), ("events", "\(events)"), ("journal_mib", "\(fileSize(db) / 1_048_576)"),
          ("export_mib", "\(fileSize(out) / 1_048_576)"), ("seconds", f(seconds, 2)),
          ("peak_rss_kib", "\(kib)"), ("peak_rss_mib", f(Double(kib) / 1024, 1)), ("target", q("peak RSS <= 32 MiB whatever the journal's size"))])
    removeFile(out)
}

/// Runs a probe of this binary; it writes "peak_kib seconds" to a file, read back here.
private func probe(_ args: [String]) throws -> (kib: Int, seconds: Double) {
    let out = tempDir() + "/probe.txt"
    defer { removeFile(out); rmdir(folderOf(out)) }
    try spawnSelf(args + ["--result", out])
    let text = String(decoding: try readRegularFile(out), as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard text.count == 2, let kib = Int(text[0]), let s = Double(text[1]) else {
        throw AppError.journal(seq: nil, detail: "probe wrote no result")
    }
    return (kib, s)
}

/// Probe mode `--probe-open DB --result FILE`: open the journal, apply one command.
func probeOpen(_ db: String, result: String) -> Int32 {
    do {
        let t0 = monoNs()
        let store = try wrapStore { () throws(StoreError) in try EventStore(path: db) }
        let app = try PetApp(store: store, now: start2026, zone: "Europe/Berlin")
        let c = try CommandParser.parseOrThrow(name: "pet.pet", fields: [:], id: "open-\(app.state.eventCount)",
                                               at: app.state.now + 60, clock: app.state.clock)
        try app.handle(c).get()
        let seconds = Double(monoNs() - t0) / 1e9
        store.close()
        try writeFile(result, Array("\(peakRSSKiB()) \(seconds)\n".utf8))
        return 0
    } catch {
        printError("probe: \(error)")
        return 1
    }
}

/// Probe mode `--probe-export DB OUT --result FILE`: `deskpet export` of DB to OUT.
func probeExport(_ db: String, out: String, result: String) -> Int32 {
    do {
        let t0 = monoNs()
        _ = try JournalRecovery.streamJournal(at: db, to: out)
        let seconds = Double(monoNs() - t0) / 1e9
        try writeFile(result, Array("\(peakRSSKiB()) \(seconds)\n".utf8))
        return 0
    } catch {
        printError("probe: \(error)")
        return 1
    }
}
