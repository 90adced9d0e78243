#if canImport(Glibc)
import Glibc
#endif

/// Where `deskpet export`, `deskpet-sim export-journal` and `deskpetctl export` put the document
/// (docs/export.md, "Where an export goes").
public enum ExportDestination {
    /// Refuses a FILE that exists and is not a regular file: a symbolic link, a character or block
    /// device, a FIFO, a socket or a folder. The export is written to a temporary file renamed over
    /// FILE, so it would replace that node by a regular file (a symlink's target, `/dev/null`, a
    /// FIFO another program reads would not get the bytes). A missing FILE is created.
    public static func check(_ path: String) throws(FileError) {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            let e = errno
            if e == ENOENT { return }
            throw FileError(path: path, message: "cannot inspect it (\(errnoText(e)))", code: e)
        }
        let kind: String
        switch st.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFLNK: kind = "a symbolic link"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFIFO: kind = "a FIFO"
        case S_IFSOCK: kind = "a socket"
        case S_IFDIR: kind = "a folder"
        default: kind = "not a regular file"
        }
        throw FileError(path: path, message: "is \(kind), not a regular file: give the path of a regular file to create or replace (or no FILE for standard output)", code: EINVAL)
    }

    /// Writes the whole document to standard output: every write checked (a short or failed
    /// write, a full disk, `/dev/full`, a closed pipe is an error, never a silent cut).
    public static func writeStandardOutput(_ bytes: [UInt8]) throws(FileError) {
        fflush(nil)   // what was printed before goes first
        let e = writeAll(1, bytes)
        guard e == 0 else { throw FileError(path: "standard output", message: "write failed (\(errnoText(e)))", code: e) }
    }

    /// `check`, then `writeFile` (owner-only, atomic), or standard output without a path.
    public static func write(_ bytes: [UInt8], to path: String?) throws(FileError) {
        guard let path else { try writeStandardOutput(bytes); return }
        try check(path)
        try writeFile(path, bytes, mode: FileModes.personalFile)
    }
}
