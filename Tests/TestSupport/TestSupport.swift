// TestSupport — what every test target shares instead of its own copy: running the independent
// tools the tests trust (sqlite3, pngcheck, python3 with PIL, tmux, our own executables), a
// seeded random generator, temporary directories, and the repository's folders.

import Foundation

/// The result of running a program: its exit status and what it printed.
public struct ToolResult: Sendable {
    public var status: Int32
    /// What it wrote to stdout, as bytes (for binary output) and as text.
    public var stdoutData: Data
    public var stdout: String
    public var stderr: String
    /// stdout and stderr together (stdout first).
    public var output: String { stdout + stderr }
}

/// Runs `executable` (a path, or a name looked up on PATH) with `arguments`, optionally feeding
/// `stdin`, and waits for it. Throws only when it cannot be started.
@discardableResult
public func runTool(_ executable: String, _ arguments: [String], stdin: String? = nil,
                    cwd: URL? = nil, environment: [String: String]? = nil) throws -> ToolResult {
    let p = Process()
    if executable.contains("/") {
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
    } else {
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [executable] + arguments
    }
    if let cwd { p.currentDirectoryURL = cwd }
    if let environment { p.environment = environment }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    let input = Pipe()
    p.standardInput = stdin == nil ? FileHandle.nullDevice : input
    try p.run()
    if let stdin {
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
    }
    // Read both pipes to the end concurrently so a chatty child never blocks on a full pipe.
    let errData = LockedData()
    let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    while !errData.done { usleep(1000) }
    return ToolResult(status: p.terminationStatus, stdoutData: outData, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData.data, as: UTF8.self))
}

private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var value = Data()
    private var finished = false
    func set(_ d: Data) { lock.lock(); value = d; finished = true; lock.unlock() }
    var done: Bool { lock.lock(); defer { lock.unlock() }; return finished }
    var data: Data { lock.lock(); defer { lock.unlock() }; return value }
}

/// The full path of a tool on PATH, or nil.
public func findTool(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
        let candidate = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// SplitMix64: a tiny, fast, seeded generator (the same sequence on every platform), for
/// property tests and fuzzing that must reproduce from a seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A new empty directory under the system's temporary folder (`prefix-UUID`). Remove it with
/// `removeTemporaryDirectory` in tearDown.
public func makeTemporaryDirectory(_ prefix: String) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

public func removeTemporaryDirectory(_ dir: URL?) {
    if let dir { try? FileManager.default.removeItem(at: dir) }
}

/// The repository's folders, found from this file's path (Tests/TestSupport/…).
public enum Repository {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    public static func folder(_ name: String) -> URL { root.appendingPathComponent(name, isDirectory: true) }
    /// A built executable of this package (the test bundle's sibling in .build/<config>/).
    public static func executable(_ name: String) -> URL {
        let bundle = Bundle.main.bundleURL
        let candidates = [bundle.deletingLastPathComponent().appendingPathComponent(name),
                          bundle.appendingPathComponent(name)]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }
}
