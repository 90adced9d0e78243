#if canImport(Glibc)
import Glibc
#endif

/// Finding a board from what a person typed: a path to a board file, or a name looked up in the
/// board folders and then among the built-in (simulator) boards. One rule for the daemon
/// (`deskpet --board`), the simulator (`deskpet-sim --board`, a scenario's `board=`) and the
/// hardware checker (docs/boards.md).
public enum BoardLookup {
    /// The folders a board name is looked up in, in order: `boards` in the current folder, then the
    /// installed boards. A name found in none of them may still be a built-in board.
    public static let searchPath = ["boards", "/etc/deskpet/boards", "/usr/share/deskpet/boards"]

    /// Why no board came out of a name or a path.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// A name that is no file `<name>.board` in the search path and no built-in board.
        case noSuchBoard(name: String, searched: [String])
        /// A board file that cannot be read (missing, not a regular file, larger than 64 KiB).
        case unreadable(FileError)
        /// A board file that was read but is not a valid board.
        case invalid(BoardError)

        public var description: String {
            switch self {
            case let .noSuchBoard(name, searched):
                "no board named '\(name)' in \(searched.joined(separator: ", ")) and no built-in board of that name ("
                    + Board.builtInNames.joined(separator: ", ") + ")"
            case .unreadable(let e): "board file \(e)"
            case .invalid(let e): "\(e)"
            }
        }
    }

    /// Whether `ref` names a file (it has a `/` or ends in `.board`) rather than a board by name.
    public static func isPath(_ ref: String) -> Bool { ref.contains("/") || ref.hasSuffix(".board") }

    /// The board `ref` names. A path is read as it is, except that a relative path is taken from
    /// the folder of `baseFile` when one is given (a scenario's board is found next to it). A name
    /// is the first `<folder>/<name>.board` of `searchPath` that exists, else the built-in board
    /// of that name.
    public static func load(_ ref: String, relativeTo baseFile: String? = nil,
                            searchPath: [String] = searchPath) throws(Failure) -> Board {
        if isPath(ref) {
            var path = ref
            if !ref.hasPrefix("/"), let base = baseFile, let slash = base.lastIndex(of: "/") {
                path = String(base[...slash]) + ref
            }
            return try parseFile(path)
        }
        if let path = file(named: ref, searchPath: searchPath) { return try parseFile(path) }
        let builtIn: Board?
        do { builtIn = try Board.builtIn(named: ref) } catch { throw .invalid(error) }
        guard let builtIn else { throw .noSuchBoard(name: ref, searched: searchPath) }
        return builtIn
    }

    /// The first `<folder>/<name>.board` of `searchPath` that exists (nil: none). A name with a
    /// `/` is never looked up.
    public static func file(named name: String, searchPath: [String] = searchPath) -> String? {
        guard !name.isEmpty, !name.contains("/") else { return nil }
        return searchPath.map { "\($0)/\(name).board" }.first { access($0, F_OK) == 0 }
    }

    /// Reads and checks one board file.
    public static func parseFile(_ path: String) throws(Failure) -> Board {
        let bytes: [UInt8]
        do { bytes = try readRegularFile(path, limit: BoardParser.maxFileBytes) } catch { throw .unreadable(error) }
        do { return try BoardParser.parse(bytes: bytes, file: path) } catch { throw .invalid(error) }
    }

    /// Every board file in the search path, folder by folder, names sorted: what `deskpet boards`
    /// lists. A name in an earlier folder hides the same name in a later one, as `load` does.
    public static func files(searchPath: [String] = searchPath) -> [(name: String, path: String)] {
        var out: [(name: String, path: String)] = []
        var seen: Set<String> = []
        for folder in searchPath {
            guard let dir = opendir(folder) else { continue }
            var names: [String] = []
            while let e = readdir(dir) {
                let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasSuffix(".board"), name.count > 6 { names.append(String(name.dropLast(6))) }
            }
            closedir(dir)
            for n in names.sorted() where seen.insert(n).inserted { out.append((n, "\(folder)/\(n).board")) }
        }
        return out
    }
}
