// IntegrityCheck.swift — the journal's whole-file check (`PRAGMA quick_check`), run beside the
// device instead of in front of it.
//
// `quick_check` reads every page of the file, so its cost grows with the journal's history:
// it was most of a cold start (docs/performance.md, "Cold start"). The daemon opens the journal
// without it (`Options.verifyOnOpen = false`: what start-up reads is still checked by SQLite as
// it reads it), draws its first frame, and then runs this check on its own read-only connection
// in the background (WAL readers never block the writer). A damaged file found there puts the
// device in recovery mode (docs/storage.md, "Integrity").

import Synchronization

extension EventStore {
    /// Runs SQLite's `PRAGMA quick_check` over the whole database at `path` on a new read-only
    /// connection, and closes it. Throws `.corrupt` (with SQLite's first findings) when the file
    /// is damaged, or the error opening it; changes nothing.
    public static func verifyIntegrity(path: String) throws(StoreError) {
        var options = Options()
        options.verifyOnOpen = true
        let store = try openReadOnly(path: path, options: options)
        store.close()
    }
}

/// `EventStore.verifyIntegrity` on a background task: `start` returns at once, `outcome` is nil
/// until the check has finished. `finished` is called (on the background task) when it has, so a
/// loop can be woken (an eventfd in the daemon).
public final class IntegrityCheck: Sendable {
    /// What the check found.
    public enum Outcome: Sendable, Equatable {
        case intact
        case damaged(StoreError)
    }

    /// The background task; `await check.task.value` waits for it (tests).
    public let task: Task<Void, Never>

    private init(path: String, finished: @escaping @Sendable () -> Void, box: Box) {
        task = Task.detached(priority: .background) {
            let outcome: Outcome
            do throws(StoreError) {
                try EventStore.verifyIntegrity(path: path)
                outcome = .intact
            } catch {
                outcome = .damaged(error)
            }
            box.state.withLock { $0 = outcome }
            finished()
        }
        self.boxed = box
    }

    private final class Box: Sendable {
        let state = Mutex<Outcome?>(nil)
    }
    private let boxed: Box

    /// Starts checking the database at `path` in the background.
    public static func start(path: String, finished: @escaping @Sendable () -> Void = {}) -> IntegrityCheck {
        IntegrityCheck(path: path, finished: finished, box: Box())
    }

    /// nil while the check runs; then what it found.
    public var outcome: Outcome? { boxed.state.withLock { $0 } }
}
