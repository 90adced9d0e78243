#if canImport(Glibc)
import Glibc
#endif
import PetDevice

/// Writes bytes to a file (creating or truncating it).
public func writeFile(_ path: String, _ bytes: [UInt8]) throws(ScenarioError) {
    guard let f = fopen(path, "wb") else { throw .io(path: path, message: "cannot create file (\(errnoText()))") }
    defer { fclose(f) }
    let n = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    guard n == bytes.count else { throw .io(path: path, message: "short write (\(errnoText()))") }
}

/// Reads a text file.
public func readTextFile(_ path: String) throws(ScenarioError) -> String {
    guard let bytes = readFile(path, limit: 64 << 20) else { throw .io(path: path, message: "cannot open (\(errnoText()))") }
    guard let s = String(validating: bytes, as: UTF8.self) else { throw .io(path: path, message: "is not UTF-8 text") }
    return s
}

/// Creates a directory and its parents (like mkdir -p).
public func makeDirectories(_ path: String) throws(ScenarioError) {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
        current += "/" + part
        if mkdir(current, 0o755) != 0 && errno != EEXIST {
            throw .io(path: current, message: "cannot create directory (\(errnoText()))")
        }
    }
}

/// Removes a file if it exists.
public func removeFile(_ path: String) { unlink(path) }

func errnoText() -> String { String(cString: strerror(errno)) }

/// Writes a line to standard error.
public func printError(_ s: String) {
    let line = s.hasSuffix("\n") ? s : s + "\n"
    var bytes = Array(line.utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

/// Flushes standard output (progress lines appear at once even when piped).
public func flushOutput() { fflush(nil) }
