// FileProbe.swift — looks at a file's first bytes before SQLite touches it.
//
// SQLite happily "opens" any file and only complains on first read; checking
// the 16-byte magic ourselves lets us refuse garbage with a precise error
// and a guarantee that nothing was written.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum FileProbe {
    enum Result: Equatable {
        /// No file, or an empty one: SQLite will initialise a new database.
        case newDatabase
        /// Starts with the SQLite magic and has a complete 100-byte header.
        case sqliteHeader
        /// Starts with the SQLite magic but is shorter than its header.
        case truncatedHeader
        /// Anything else.
        case notSQLite
        /// The file exists but could not be read (left for SQLite to report).
        case unreadable
    }

    /// "SQLite format 3" followed by a NUL byte.
    static let magic: [UInt8] = Array("SQLite format 3".utf8) + [0]

    static func probe(path: String) -> Result {
        // Non-blocking, and only a regular file: a FIFO or a device named as the journal is
        // refused at once instead of blocking here (or being read forever).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return errno == ENOENT ? .newDatabase : .unreadable }
        defer { _ = close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .unreadable }
        guard st.st_mode & S_IFMT == S_IFREG else { return .notSQLite }

        var header = [UInt8](repeating: 0, count: 100)
        var filled = 0
        while filled < header.count {
            let n = header.withUnsafeMutableBytes { buf -> Int in
                guard let base = buf.baseAddress else { return -1 }
                return read(fd, base + filled, buf.count - filled)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return .unreadable
            }
            if n == 0 { break }  // end of file
            filled += n
        }
        if filled == 0 { return .newDatabase }
        let prefix = header[0..<min(filled, magic.count)]
        guard prefix.elementsEqual(magic[0..<prefix.count]), filled >= magic.count else {
            return .notSQLite
        }
        return filled < header.count ? .truncatedHeader : .sqliteHeader
    }
}

// MARK: - The header as SQLite would see it, without SQLite

/// The few header fields that decide whether DeskPet may open a database, read from the file's
/// bytes — and from the newest committed copy of page 1 in a hot `-wal`, which SQLite would use —
/// without opening it with SQLite. Opening a WAL database read-write (even only to look) runs
/// WAL recovery and, on close, a checkpoint that rewrites the file and deletes the `-wal`; a
/// refusal must change no byte of the database, its `-wal` or its `-shm`, so the refusal is
/// decided here, from bytes read with plain `read(2)`.
struct HeaderProbe: Equatable {
    /// `PRAGMA application_id` (offset 68).
    var applicationID: Int32
    /// `PRAGMA user_version` (offset 60).
    var userVersion: Int32
    /// The schema cookie (offset 40): 0 only while no table was ever created.
    var schemaCookie: UInt32
    /// Whether page 1 came from the `-wal` file (a hot WAL holding a newer header).
    var fromWAL: Bool

    static func read(path: String) -> HeaderProbe? {
        guard let page1Head = readPrefix(path, count: 100), page1Head.count == 100 else { return nil }
        var header = HeaderProbe(page1: page1Head, fromWAL: false)
        if let walPage1 = newestCommittedPage1(walPath: path + "-wal") {
            header = HeaderProbe(page1: walPage1, fromWAL: true)
        }
        return header
    }

    init(page1: [UInt8], fromWAL: Bool) {
        applicationID = Int32(bitPattern: Self.be32(page1, 68))
        userVersion = Int32(bitPattern: Self.be32(page1, 60))
        schemaCookie = Self.be32(page1, 40)
        self.fromWAL = fromWAL
    }

    static func be32(_ b: [UInt8], _ at: Int) -> UInt32 {
        guard at + 4 <= b.count else { return 0 }
        return UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }

    static func le32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    /// The first `count` bytes of a file (fewer if it is shorter), nil if it cannot be read.
    static func readPrefix(_ path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { _ = close(fd) }
        return readAt(fd, offset: 0, count: count)
    }

    static func readAt(_ fd: Int32, offset: Int, count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = out.withUnsafeMutableBytes { buf -> Int in
                guard let base = buf.baseAddress else { return -1 }
                return pread(fd, base + filled, count - filled, off_t(offset + filled))
            }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { break }
            filled += n
        }
        return Array(out[0..<filled])
    }

    /// SQLite's WAL checksum over `bytes` (a multiple of 8), continuing from (s1, s2).
    static func checksum(_ bytes: ArraySlice<UInt8>, bigEndian: Bool, _ s1: inout UInt32, _ s2: inout UInt32) {
        let b = Array(bytes)
        var i = 0
        while i + 8 <= b.count {
            let x0 = bigEndian ? be32(b, i) : le32(b, i)
            let x1 = bigEndian ? be32(b, i + 4) : le32(b, i + 4)
            s1 = s1 &+ x0 &+ s2
            s2 = s2 &+ x1 &+ s1
            i += 8
        }
    }

    /// Page 1 as of the last committed transaction in a `-wal` file, or nil (no WAL, an empty or
    /// invalid one, or none of its committed frames holds page 1). Frames are accepted exactly as
    /// SQLite's recovery accepts them: matching salts and a valid running checksum.
    static func newestCommittedPage1(walPath: String) -> [UInt8]? {
        let fd = open(walPath, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { _ = close(fd) }
        guard let head = readAt(fd, offset: 0, count: 32), head.count == 32 else { return nil }
        let magic = be32(head, 0)
        guard magic == 0x377F_0682 || magic == 0x377F_0683 else { return nil }
        let bigEndian = magic & 1 == 1
        let pageSize = Int(be32(head, 8))
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else { return nil }
        var s1: UInt32 = 0, s2: UInt32 = 0
        checksum(head[0..<24], bigEndian: bigEndian, &s1, &s2)
        guard s1 == be32(head, 24), s2 == be32(head, 28) else { return nil }
        let salt1 = be32(head, 16), salt2 = be32(head, 20)
        var offset = 32
        var pending: [UInt8]?
        var committed: [UInt8]?
        while let frame = readAt(fd, offset: offset, count: 24 + pageSize), frame.count == 24 + pageSize {
            guard be32(frame, 8) == salt1, be32(frame, 12) == salt2 else { break }
            var c1 = s1, c2 = s2
            checksum(frame[0..<8], bigEndian: bigEndian, &c1, &c2)
            checksum(frame[24...], bigEndian: bigEndian, &c1, &c2)
            guard c1 == be32(frame, 16), c2 == be32(frame, 20) else { break }
            s1 = c1; s2 = c2
            if be32(frame, 0) == 1 { pending = Array(frame[24..<(24 + 100)]) }
            if be32(frame, 4) != 0 {            // a commit frame: the transaction is complete
                if let p = pending { committed = p }
                pending = nil
            }
            offset += 24 + pageSize
        }
        return committed
    }
}
