#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PetWire

/// Exit codes (docs/deskpetctl.md#exit-codes).
enum Exit {
    static let ok: Int32 = 0
    /// The device refused the command (its error code is printed).
    static let refused: Int32 = 1
    /// A usage error (unknown command or option, a missing argument).
    static let usage: Int32 = 2
    /// The device was unreachable: the command was queued (`sync` sends it later).
    static let queued: Int32 = 3
    /// The device was unreachable and the command cannot be queued (reads, pair, watch, export).
    static let unreachable: Int32 = 4
    /// Not paired (no token in the state folder, or the device does not know it).
    static let notPaired: Int32 = 5
    /// The connection broke, timed out, or the device sent something unreadable.
    static let link: Int32 = 6
    /// The state folder or an output file could not be read or written.
    static let files: Int32 = 7
    /// A transport this build cannot use (`--ble`).
    static let unsupported: Int32 = 8
    /// `sync` left commands in the queue (the connection failed part way).
    static let partial: Int32 = 9
}

struct CtlError: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    var description: String { message }
    static func usage(_ m: String) -> CtlError { CtlError(code: Exit.usage, message: m) }
}

/// Arguments after the subcommand: positionals and `--name value` options (`--flag` alone
/// for the ones listed as flags).
struct Args {
    var positional: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []

    init(_ argv: ArraySlice<String>, valued: Set<String>, flags allowedFlags: Set<String>) throws(CtlError) {
        var i = argv.startIndex
        while i < argv.endIndex {
            let a = argv[i]
            if a == "--" { positional += argv[(i + 1)...]; break }
            if a.hasPrefix("--") && a.count > 2 {
                var name = String(a.dropFirst(2)), value: String?
                if let eq = name.firstIndex(of: "=") { value = String(name[name.index(after: eq)...]); name = String(name[..<eq]) }
                if allowedFlags.contains(name) && value == nil { flags.insert(name); i += 1; continue }
                guard valued.contains(name) else { throw .usage("unknown option --\(name)") }
                if value == nil {
                    guard i + 1 < argv.endIndex else { throw .usage("--\(name) needs a value") }
                    i += 1; value = argv[i]
                }
                options[name] = value
            } else {
                positional.append(a)
            }
            i += 1
        }
    }

    func int(_ name: String) throws(CtlError) -> Int? {
        guard let v = options[name] else { return nil }
        guard let i = Int(v) else { throw .usage("--\(name) must be a whole number") }
        return i
    }
}

/// Where deskpetctl keeps its state: the token, the device's address, the highest event seq
/// seen and the offline queue.
struct StateDir {
    let path: String
    var tokenPath: String { path + "/token.json" }
    var queuePath: String { path + "/queue.jsonl" }
    var seqPath: String { path + "/last_seq" }

    static func resolve(_ explicit: String?) -> String {
        if let explicit { return explicit }
        let env = ProcessInfo.processInfo.environment
        if let s = env["DESKPETCTL_STATE"], !s.isEmpty { return s }
        if let x = env["XDG_CONFIG_HOME"], !x.isEmpty { return x + "/deskpetctl" }
        return (env["HOME"] ?? ".") + "/.config/deskpetctl"
    }

    struct Pairing: Codable { var phone: String; var token: String; var address: String? }

    func pairing() throws(CtlError) -> Pairing? {
        let text: String?
        do { text = try StateFile.read(tokenPath, limit: StateFile.tokenLimit) } catch { throw CtlError(code: Exit.files, message: error.description) }
        guard let text else { return nil }
        guard let p = try? JSONDecoder().decode(Pairing.self, from: Data(text.utf8)) else {
            throw CtlError(code: Exit.files, message: "\(tokenPath): not a deskpetctl token file")
        }
        return p
    }

    func savePairing(_ p: Pairing) throws(CtlError) {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do throws(ClientStateError) {
            try StateFile.makeDirectory(path)
            guard let d = try? enc.encode(p) else { throw ClientStateError(path: tokenPath, what: "cannot encode") }
            try StateFile.writeAtomically(tokenPath, Array(d) + [0x0A])
        } catch { throw CtlError(code: Exit.files, message: error.description) }
    }

    func removePairing() { unlink(tokenPath); unlink(seqPath) }

    /// The last event sequence number seen (0 without the file). A file that is not a regular
    /// file within `StateFile.lastSeqLimit`, or does not hold one number ≥ 0, is an error.
    func lastSeq() throws(CtlError) -> Int64 {
        let text: String?
        do { text = try StateFile.read(seqPath, limit: StateFile.lastSeqLimit) } catch { throw CtlError(code: Exit.files, message: error.description) }
        guard let text else { return 0 }
        let words = text.split(whereSeparator: { $0 == "\n" || $0 == " " })
        guard words.count == 1, let n = Int64(words[0]), n >= 0 else {
            throw CtlError(code: Exit.files, message: "\(seqPath): not a sequence number (one whole number ≥ 0)")
        }
        return n
    }

    func saveLastSeq(_ s: Int64) throws(CtlError) {
        do { try StateFile.writeAtomically(seqPath, Array("\(s)\n".utf8)) } catch { throw CtlError(code: Exit.files, message: error.description) }
    }

    func queue() throws(CtlError) -> OfflineQueue {
        do {
            try StateFile.makeDirectory(path)
            return try OfflineQueue(path: queuePath)
        } catch { throw CtlError(code: Exit.files, message: error.description) }
    }
}

/// Fresh command ids: `ctl-<unix ms, hex>-<4 random bytes, hex>-<n>` (at most 48 characters).
struct IDMaker {
    let stem: String
    var n = 0
    init() {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let ms = Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
        let r = (try? SystemRandom().bytes(4)) ?? [UInt8(truncatingIfNeeded: getpid()), 0, 0, 0]
        stem = "ctl-" + String(ms, radix: 16) + "-" + Hex.encode(r)
    }
    mutating func next() -> String { n += 1; return "\(stem)-\(n)" }
}
