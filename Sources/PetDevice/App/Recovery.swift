import FoundationEssentials
import PetCore
import PetStore
import PetUI

/// Recovery mode (docs/storage.md): the journal holds a row the program cannot read or fold (a
/// hand-edited or damaged row, one written by a newer DeskPet). The device does not crash and
/// does not loop restarting: it shows the problem on the screen, keeps every row as it is, serves
/// an export of the raw rows, and refuses every state-changing command.
public struct JournalRecovery: Error, Sendable, Equatable {
    /// The row that cannot be read (nil when the problem is not one row's).
    public let seq: Int64?
    /// What is wrong with it (no personal text: types, fields, numbers).
    public let detail: String

    public init(seq: Int64?, detail: String) { self.seq = seq; self.detail = detail }

    /// The recovery for an error opening the app: journal rows that cannot be read, or nil for
    /// any other error (a missing disk is not fixed by recovery mode).
    public init?(_ error: AppError) {
        guard case let .journal(seq, detail) = error else { return nil }
        self.init(seq: seq, detail: detail)
    }

    /// The refusal every state-changing command gets in recovery mode.
    public var refusal: DomainError {
        .invalidState(kind: "journal", id: seq.map { "row \($0)" } ?? "rows",
                      reason: "can't be read: the device is in recovery mode and changes nothing (export, then update DeskPet)")
    }

    /// What the recovery screen says (PetUI's `RecoveryScreen`): what happened, that nothing is
    /// lost, what to do — in the owner's words, not the journal's.
    public var screenLines: [String] {
        let t = RecoveryScreen.lines(row: seq, tiny: false)
        return [t.title, t.what, t.safe, t.todo]
    }

    /// The recovery screen drawn for a display (PetUI's `RecoveryScreen`: the owner's words in
    /// the display's legible face; a size not in `DisplayProfile.all` is drawn as the nearest kind).
    public func render(width: Int, height: Int) -> Canvas {
        let profile = DisplayProfile.all.first { $0.width == width && $0.height == height }
            ?? DisplayProfile(id: "\(width)x\(height)", width: width, height: height, kind: height <= 64 ? .mono : .colour)
        return RecoveryScreen.render(profile, row: seq)
    }

    /// Shows the recovery screen on the board's panel (whole, full refresh on e-paper).
    public func show(on hardware: Hardware, width: Int, height: Int) throws(HardwareError) {
        var pipeline = PanelPipeline(format: hardware.panel.format, isEPaper: hardware.panel.isEPaper)
        let canvas = render(width: width, height: height)
        let surface = PanelSurface.of(canvas, format: pipeline.format)
        let frame = PanelFrame(rects: [surface.pack(surface.bounds, as: pipeline.format)], surface: surface,
                               refresh: hardware.panel.isEPaper ? .full : .immediate)
        try hardware.panel.flush(frame)
        pipeline.flushed(frame)
        try hardware.panel.setBrightness(100)
    }

    /// One stored row as the recovery export shows it: every column, the payload as stored text.
    struct RawRow: Codable {
        var seq: Int64
        var at: Int64
        var day: Int
        var type: String
        var command: String?
        var coinsDelta: Int
        var xpDelta: Int
        var payload: String
    }

    /// The export in recovery mode: every journal row exactly as stored (the unreadable one too),
    /// as JSON `{"format":"deskpet-recovery-1","unreadableSeq":N,"problem":…,"rows":[…]}`. It
    /// holds the owner's personal text, like any export: write it owner-only.
    public func export(store: EventStore) throws(AppError) -> [UInt8] {
        var out: [UInt8] = []
        do {
            try streamExport(store: store) { (bytes: [UInt8]) throws(ExportStreamError) in out += bytes }
        } catch {
            if case .app(let e) = error { throw e }
            throw .journal(seq: seq, detail: "\(error)")
        }
        return out
    }

    /// The recovery export's document (`streamExport` writes the same bytes piece by piece).
    struct Document: Codable {
        var format = "deskpet-recovery-1"
        var unreadableSeq: Int64?
        var problem: String
        var rows: [RawRow]
    }
}

extension JournalRecovery {
    /// The export of the journal at `path` (every row as stored) and, when a row can't be read,
    /// which one: `deskpet export` and `deskpet-sim export-journal`. Writes nothing to the journal.
    public static func exportJournal(at path: String, zones: ZoneDatabase = ZoneDatabase()) throws(AppError)
        -> (problem: JournalRecovery?, document: [UInt8]) {
        let store: EventStore
        // Read-only: an export writes nothing (it works on a read-only folder and beside the daemon).
        do { store = try EventStore.openReadOnly(path: path) } catch { throw .store(error) }
        defer { store.close() }
        let problem = try findProblem(store, zones: zones)
        let doc = try (problem ?? JournalRecovery(seq: nil, detail: "every row can be read")).export(store: store)
        return (problem, doc)
    }
}

extension PetApp {
    /// Opens the app, or — when a stored row cannot be read or folded — the recovery that says
    /// which row (the device then runs in recovery mode). Other errors (storage) are thrown.
    public static func openOrRecover(store: EventStore, zones: ZoneDatabase = ZoneDatabase(), now: Instant,
                                     zone: String = "UTC", dayStartHour: Int = 3) throws(AppError) -> Result<PetApp, JournalRecovery> {
        do {
            return .success(try PetApp(store: store, zones: zones, now: now, zone: zone, dayStartHour: dayStartHour))
        } catch {
            if let recovery = JournalRecovery(error) { return .failure(recovery) }
            throw error
        }
    }
}
