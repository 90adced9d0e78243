import Foundation
import PetCore
import PetDevice
@testable import PetLink
import PetSim
import PetStore

/// A transport in memory: the test queues what clients do, and reads what the device sent.
final class MemoryLink: PhoneLink {
    var inbox: [LinkEvent] = []
    var sent: [Int: [UInt8]] = [:]
    var disconnected: Set<Int> = []
    var fileDescriptor: Int32? { nil }
    func receive() throws(HardwareError) -> [LinkEvent] { defer { inbox = [] }; return inbox }
    /// Called for every frame as the device sends it (before the test reads it).
    var onSend: ((LinkFrame) -> Void)?
    func send(_ frame: LinkFrame) throws(HardwareError) {
        guard !disconnected.contains(frame.client) else { return }
        onSend?(frame)
        sent[frame.client, default: []] += frame.bytes
    }
    func disconnect(client: Int) { disconnected.insert(client) }
}

/// A simulated device with the link service on a `MemoryLink`, seeded randomness, and helpers
/// that play a phone.
final class Harness {
    let link = MemoryLink()
    let service: LinkService
    let sim: SimDevice
    var decoders: [Int: FrameDecoder] = [:]
    static let start = Instant(1_772_434_800)   // 2026-03-02 07:00 UTC

    init(dbPath: String? = nil, seed: UInt64 = 42, config: LinkConfig = LinkConfig()) throws {
        service = LinkService(config: config, random: SeededRandom(seed: seed))
        sim = try SimDevice(dbPath: dbPath, start: Self.start, zone: "UTC", boot: false, link: link, linkService: service)
    }

    func connect(_ c: Int) throws {
        link.inbox.append(.connected(client: c))
        try sim.serveLink()
    }

    func raw(_ c: Int, _ bytes: [UInt8]) throws {
        link.inbox.append(.frame(LinkFrame(client: c, bytes: bytes)))
        try sim.serveLink()
    }

    func send(_ c: Int, _ json: String) throws { try raw(c, Frame.encode(Array(json.utf8))) }

    /// Every message sent to `c` since the last call, as JSON objects.
    func messages(_ c: Int) throws -> [[String: Any]] {
        let bytes = link.sent[c] ?? []
        link.sent[c] = []
        var d = decoders[c] ?? FrameDecoder(maxBody: 1 << 24)
        let bodies = try d.feed(bytes)
        decoders[c] = d
        return try bodies.map { try XCTUnwrapDict(JSONSerialization.jsonObject(with: Data($0))) }
    }

    /// The last message of a type sent to `c` (reading them all).
    func last(_ c: Int, type: String) throws -> [String: Any]? {
        try messages(c).last { $0["type"] as? String == type }
    }

    /// Pairs client `c` with the code the device shows; returns the token (hex).
    @discardableResult
    func pair(_ c: Int, name: String = "Test phone") throws -> String {
        try connect(c)
        try send(c, #"{"type":"hello","version":1}"#)
        try send(c, #"{"type":"pair.begin"}"#)
        let ch = try XCTUnwrapValue(try last(c, type: "pair.challenge")?["challenge"] as? String)
        let code = try XCTUnwrapValue(sim.ui.pairingCode)
        let nonce: [UInt8] = Array(0..<16)
        let mac = PairFinish.proof(code: code, challenge: try XCTUnwrapValue(Hex.decode(ch)), nonce: nonce)
        try send(c, #"{"type":"pair.finish","nonce":"\#(Hex.encode(nonce))","mac":"\#(Hex.encode(mac))","name":"\#(name)"}"#)
        let paired = try XCTUnwrapValue(try last(c, type: "paired"))
        return try XCTUnwrapValue(paired["token"] as? String)
    }

    func lastSeq() throws -> Int64 { try sim.app.store.lastSeq() }
}

struct HarnessError: Error, CustomStringConvertible { var description: String }

func XCTUnwrapDict(_ v: Any) throws -> [String: Any] {
    guard let d = v as? [String: Any] else { throw HarnessError(description: "not a JSON object") }
    return d
}

func XCTUnwrapValue<T>(_ v: T?, _ what: String = "value") throws -> T {
    guard let v else { throw HarnessError(description: "missing \(what)") }
    return v
}
