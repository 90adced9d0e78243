#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PetIO
import PetWire

/// The bridge's own folder (`state_dir`, mode 0700): `token.json` (the pairing, as deskpetctl
/// keeps it), `last_seq` (the resume point: every event up to it reached the broker),
/// `last_gesture` (`RUN:N`: every key gesture of the device's run RUN up to N reached it) and
/// `mqtt.json` (the broker session's counters behind command ids). Every file is read only if it
/// is a regular file within its size limit and holds what it should.
public struct BridgeState: Sendable {
    public let path: String
    public init(path: String) { self.path = path }
    public var tokenPath: String { path + "/token.json" }
    public var seqPath: String { path + "/last_seq" }
    public var sessionPath: String { path + "/mqtt.json" }
    public var gesturePath: String { path + "/last_gesture" }
    public static let sessionLimit = 1024

    public struct Pairing: Codable, Sendable, Equatable {
        public var phone: String
        public var token: String
        public var address: String?
        public init(phone: String, token: String, address: String?) { self.phone = phone; self.token = token; self.address = address }
    }

    func read(_ p: String, limit: Int) throws(BridgeError) -> String? {
        do { return try StateFile.read(p, limit: limit) } catch { throw .file(path: p, problem: error.description) }
    }

    func write(_ p: String, _ bytes: [UInt8]) throws(BridgeError) {
        do {
            try StateFile.makeDirectory(path)
            try StateFile.writeAtomically(p, bytes)
        } catch { throw .file(path: p, problem: error.description) }
    }

    public func pairing() throws(BridgeError) -> Pairing? {
        guard let text = try read(tokenPath, limit: StateFile.tokenLimit) else { return nil }
        guard let p = try? JSONDecoder().decode(Pairing.self, from: Data(text.utf8)) else {
            throw .file(path: tokenPath, problem: "not a token file ({\"phone\":…,\"token\":…})")
        }
        guard p.token.utf8.count == 64, p.token.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw .file(path: tokenPath, problem: "the token is not 64 lower-case hex digits")
        }
        return p
    }

    public func savePairing(_ p: Pairing) throws(BridgeError) {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let d = try? enc.encode(p) else { throw .file(path: tokenPath, problem: "cannot encode") }
        try write(tokenPath, Array(d) + [0x0A])
    }

    public func lastSeq() throws(BridgeError) -> Int64 {
        guard let text = try read(seqPath, limit: StateFile.lastSeqLimit) else { return 0 }
        let words = text.split(whereSeparator: { $0 == "\n" || $0 == " " })
        guard words.count == 1, let n = Int64(words[0]), n >= 0 else {
            throw .file(path: seqPath, problem: "not a sequence number (one whole number ≥ 0)")
        }
        return n
    }

    public func saveLastSeq(_ s: Int64) throws(BridgeError) { try write(seqPath, Array("\(s)\n".utf8)) }

    /// The gesture resume point (`RUN:N`), nil before the first gesture.
    public func gestureMark() throws(BridgeError) -> String? {
        guard let text = try read(gesturePath, limit: 64) else { return nil }
        let line = text.hasSuffix("\n") ? String(text.dropLast()) : text
        guard BridgeCore.parseGestureMark(line) != nil else {
            throw .file(path: gesturePath, problem: "not a gesture mark (RUN:N)")
        }
        return line
    }

    public func saveGestureMark(_ m: String) throws(BridgeError) { try write(gesturePath, Array((m + "\n").utf8)) }

    public func session() throws(BridgeError) -> BridgeCore.MQTTSession {
        guard let text = try read(sessionPath, limit: Self.sessionLimit) else { return BridgeCore.MQTTSession() }
        guard let s = try? JSONDecoder().decode(BridgeCore.MQTTSession.self, from: Data(text.utf8)), s.epoch >= 0, s.wrap >= 0 else {
            throw .file(path: sessionPath, problem: "not the bridge's MQTT session file")
        }
        return s
    }

    public func saveSession(_ s: BridgeCore.MQTTSession) throws(BridgeError) {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        guard let d = try? enc.encode(s) else { throw .file(path: sessionPath, problem: "cannot encode") }
        try write(sessionPath, Array(d) + [0x0A])
    }

    public func removePairing() { unlink(tokenPath); unlink(seqPath); unlink(gesturePath) }

    /// The broker password: the first line of `password_file` (a regular file of at most 1 KiB).
    public static func password(_ file: String) throws(BridgeError) -> String {
        let text: String?
        do { text = try StateFile.read(file, limit: 1024) } catch { throw .file(path: file, problem: error.description) }
        guard let text else { throw .file(path: file, problem: "no such file") }
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let pw = line.hasSuffix("\r") ? String(line.dropLast()) : line
        guard !pw.isEmpty else { throw .file(path: file, problem: "the first line (the password) is empty") }
        return pw
    }
}
