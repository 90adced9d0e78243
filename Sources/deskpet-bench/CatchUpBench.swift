import FoundationEssentials
import PetCore
import PetDevice
import PetSim
import PetStore

/// The catch-up after the device was off (docs/domain.md#time-and-days): a pet with three daily tasks (reminders) and
/// two habits, switched off for ten years (every day closed on its own) and for a thousand years
/// (the days older than ten years closed as one stretch), then booted: seconds from power-on to
/// the home screen drawn (`seconds`), until the catch-up is stored (`caught_up_seconds`), the
/// events stored, and the peak RSS of a fresh process that does only this (`before_off_rss_kib`:
/// its peak before the power-off — the device itself — so the catch-up's own share shows).
func benchCatchUp(dir: String) throws {
    for days in [3_650, 365_000] { try spawnSelf(["--probe-catchup", "\(days)", dir]) }
}

/// Probe mode `--probe-catchup DAYS DIR`: one catch-up in this fresh process; prints its line.
func probeCatchUp(days: Int64, dir: String) -> Int32 {
    do { try catchUp(days: days, dir: dir); return 0 } catch {
        printError("probe: \(error)")
        return 1
    }
}

private func catchUp(days: Int64, dir: String) throws {
    do {
        let label = days == 3_650 ? "10 years" : "\(days / 365) years"
        let db = "\(dir)/catchup.db"
        for s in ["", "-wal", "-shm"] { removeFile(db + s) }
        let start = Instant(1_772_434_800)   // 2026-03-02 07:00 UTC
        let device = try SimDevice(dbPath: db, start: start, zone: "Europe/Berlin", boot: false)
        var n = 0
        func send(_ name: String, _ fields: [String: String]) throws {
            n += 1
            let cmd: Command
            do {
                cmd = try CommandParser.parse(name: name, fields: fields, id: "bench-\(n)", at: device.now, clock: device.app.state.clock)
            } catch { throw AppError.domain(error) }
            try device.send(cmd)
        }
        for (i, hour) in ["09", "13", "18"].enumerated() {
            try send("task.create", ["task": "t\(i)", "title": "Task \(i)", "due": "today \(hour):30", "repeat": "daily",
                                     "reminders": "today \(hour):00"])
        }
        try send("habit.add", ["habit": "water", "text": "Water", "reminder": "10:00"])
        try send("habit.add", ["habit": "walk", "text": "Walk"])
        let before = try device.app.store.eventCount()
        let beforeOffRSS = peakRSSKiB()
        // The first wake-up after power-on stores one batch and draws; the catch-up goes on at
        // once in the wake-ups after it (DeviceLoop.tick), each drawing again.
        var firstFrame: (seconds: Double, screen: String)?
        let t0 = monoNs()
        device.loop.onWake = { [unowned device] in
            guard firstFrame == nil else { return }
            device.render()
            firstFrame = (Double(monoNs() - t0) / 1e9, device.ui.screen.rawValue)
        }
        try device.powerOff(for: days * Seconds.day)   // reopen, catch up, first frame of home
        device.loop.onWake = nil
        let total = Double(monoNs() - t0) / 1e9
        let stored = try device.app.store.eventCount() - before
        device.render()
        emit([("figure", q("catchup_seconds")), ("off", q(label)), ("off_days", "\(days)"),
              ("seconds", f(firstFrame?.seconds ?? total, 3)), ("first_screen", q(firstFrame?.screen ?? "none")),
              ("caught_up_seconds", f(total, 3)), ("events_stored", "\(stored)"), ("batch", "\(PetApp.catchUpBatch)"),
              ("peak_rss_kib", "\(peakRSSKiB())"), ("before_off_rss_kib", "\(beforeOffRSS)"),
              ("process", q("fresh, this catch-up only")), ("target", q("seconds (power-on to the first frame: boot, then home) < 1"))])
        device.app.store.close()
        for s in ["", "-wal", "-shm"] { removeFile(db + s) }
    }
}
