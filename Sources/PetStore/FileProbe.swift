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
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT ? .newDatabase : .unreadable }
        defer { _ = close(fd) }

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
