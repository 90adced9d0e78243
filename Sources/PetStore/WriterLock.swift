// WriterLock.swift — one writing process per journal (docs/storage.md, "One writer").
//
// Two processes appending to one journal (two daemons, a daemon and a simulator) would each fold
// their own state and apply one command twice. So a process that opens a journal for writing
// takes an exclusive `flock` on the journal file itself and holds it until its last store on that
// file closes; a second process is refused at once with `StoreError.locked`.
//
// - The lock is the kernel's, on an open descriptor: a holder that crashes or loses power holds
//   nothing afterwards, so the next boot is never blocked (no stale lock file to clean up).
// - It is taken on the journal itself, not a side file: nothing is created (a refused open leaves
//   the folder as it was) and a moved journal keeps its lock. `flock` is independent of SQLite's
//   own `fcntl` byte-range locks on Linux.
// - Per process, not per store: stores of one process share the lock (tests open a writer and a
//   reader side by side; the app reopens after a wipe), counted, released with the last one.
// - Read-only opens (`EventStore.openReadOnly`, `deskpet export`) take no lock: an export works
//   while the daemon runs.
// - The journal must be on a local file system anyway (SQLite's WAL needs shared memory); on NFS
//   Linux emulates `flock` with byte-range locks, which SQLite's locks could release, so NFS is
//   not supported (docs/storage.md).

#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import PetIO

final class WriterLock {
    private struct Key: Hashable { var dev: UInt64; var ino: UInt64 }
    private struct Held { var fd: Int32; var count: Int }
    private static let held = Mutex<[Key: Held]>([:])

    private let key: Key
    private var released = false

    private init(key: Key) { self.key = key }

    /// Takes (or shares, within this process) the writer lock of the file at `path`. Throws
    /// `.locked` when another process holds it; a file that cannot be opened takes no lock (the
    /// caller's open reports why).
    static func acquire(path: String) throws(StoreError) -> WriterLock? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { close(fd); return nil }
        let key = Key(dev: UInt64(st.st_dev), ino: UInt64(st.st_ino))
        let result: Result<Void, StoreError> = held.withLock { table in
            if var h = table[key] {
                close(fd)
                h.count += 1
                table[key] = h
                return .success(())
            }
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let e = errno
                if e == EINTR { continue }
                close(fd)
                if e == EWOULDBLOCK {
                    return .failure(.locked(path: path, detail: "another process has it open for writing (a running deskpet daemon or simulator); stop it first"))
                }
                return .failure(.locked(path: path, detail: "cannot lock it (\(errnoText(e)))"))
            }
            table[key] = Held(fd: fd, count: 1)
            return .success(())
        }
        try result.get()
        return WriterLock(key: key)
    }

    /// Throws `.locked` when another process holds the writer lock of the file at `path` now
    /// (a missing or unopenable file: nothing to say). Takes nothing: for a daemon to stop before
    /// it opens its hardware; the store's own open is what holds the lock.
    static func checkFree(path: String) throws(StoreError) {
        if let lock = try acquire(path: path) { lock.release() }
    }

    /// Gives this store's share back; the last share of the process releases the lock. Idempotent.
    func release() {
        guard !released else { return }
        released = true
        Self.held.withLock { table in
            guard var h = table[key] else { return }
            h.count -= 1
            if h.count == 0 {
                close(h.fd)   // releases the flock
                table[key] = nil
            } else {
                table[key] = h
            }
        }
    }

    deinit { release() }
}
