@testable import PetLink
import XCTest

/// The event characteristic read as well as notified (docs/ble.md, "Event"): a Read (and Read
/// Blob) returns the next pending chunk, empty when nothing waits; once a phone reads, a
/// notification only says how many bytes wait. Frames come out in order, none lost or doubled,
/// however reads, Read Blobs and notifications interleave; a phone that never reads is served
/// by notifications exactly as before.
final class GATTEventReadTests: XCTestCase {
    var server: GATTServer!

    override func setUp() {
        server = GATTServer(config: DeskPetGATTConfig(deviceName: "Mochi"))
    }

    private func session(mtu: UInt16? = nil, notify: UInt8? = nil) -> GATTSession {
        let s = GATTSession(server: server)
        s.securityLevel = 2
        if let mtu { _ = s.receive([0x02, UInt8(mtu & 0xFF), UInt8(mtu >> 8)]) }
        if let notify { XCTAssertEqual(s.receive([0x12, 0x11, 0x00, notify, 0x00]), [[0x13]]) }
        return s
    }

    private func frame(_ n: Int, _ seed: UInt8) -> [UInt8] {
        let body = (0..<n).map { UInt8(truncatingIfNeeded: Int(seed) &* 31 &+ $0) }
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + body
    }

    /// Reads one whole value as a phone's stack does: Read, then Read Blob while the answer is full.
    private func readWhole(_ s: GATTSession) -> [UInt8] {
        let first = s.receive([0x0A, 0x0F, 0x00])
        guard first.count == 1, first[0].first == 0x0B else { XCTFail("\(first)"); return [] }
        var value = Array(first[0].dropFirst())
        var last = value.count
        while last == s.mtu - 1 {
            let r = s.receive([0x0C, 0x0F, 0x00, UInt8(value.count & 0xFF), UInt8(value.count >> 8)])
            guard r.count == 1, r[0].first == 0x0D else { XCTFail("\(r)"); return value }
            last = r[0].count - 1
            value += r[0].dropFirst()
        }
        return value
    }

    func testTheCharacteristicIsReadableAndNeedsEncryption() {
        let decl = server.database[14]
        XCTAssertEqual(decl?.kind, .declaration)
        if case .fixed(let v)? = decl?.source { XCTAssertEqual(v.first, 0x32, "read | notify | indicate") } else { XCTFail() }
        let s = GATTSession(server: server)
        XCTAssertEqual(s.receive([0x0A, 0x0F, 0x00]), [[0x01, 0x0A, 0x0F, 0x00, 0x05]], "frames are private: encrypted link")
        s.securityLevel = 2
        XCTAssertEqual(s.receive([0x0A, 0x0F, 0x00]), [[0x0B]], "nothing waits: an empty value")
        XCTAssertEqual(s.receive([0x0C, 0x0F, 0x00, 0x05, 0x00]), [[0x01, 0x0C, 0x0F, 0x00, 0x07]], "a Read Blob with no Read before it")
    }

    func testNotifyThenReadDrainsFramesInOrder() {
        let s = session(notify: 1)
        let a = frame(30, 1), b = frame(10, 2), c = frame(50, 3)
        // Before any read: notified as today (the old clients' path), and kept for reads.
        XCTAssertEqual(s.send(frame: a), [[0x1B, 0x0F, 0x00] + a[0..<20], [0x1B, 0x0F, 0x00] + a[20...]])
        XCTAssertFalse(s.eventReadMode)
        // The first read takes what waits (the notified frame too: a reading phone takes
        // notifications as hints and reads everything).
        XCTAssertEqual(readWhole(s), a)
        XCTAssertTrue(s.eventReadMode)
        XCTAssertEqual(readWhole(s), [], "drained")
        // Now notifications only say how many bytes wait.
        XCTAssertEqual(s.send(frame: b), [[0x1B, 0x0F, 0x00, 14, 0, 0, 0]])
        XCTAssertEqual(s.send(frame: c), [[0x1B, 0x0F, 0x00, 68, 0, 0, 0]])
        XCTAssertEqual(readWhole(s), b + c)
        XCTAssertEqual(readWhole(s), [])
        XCTAssertEqual(s.pendingEventBytes, 0)
        // Indications carry hints too, one in flight and at most one waiting.
        XCTAssertEqual(s.receive([0x12, 0x11, 0x00, 0x02, 0x00]), [[0x13]])
        XCTAssertEqual(s.send(frame: a), [[0x1D, 0x0F, 0x00, 34, 0, 0, 0]])
        XCTAssertEqual(s.send(frame: b), [])
        XCTAssertEqual(s.send(frame: c), [])
        XCTAssertEqual(s.queuedIndications, 1)
        XCTAssertEqual(s.receive([0x1E]), [[0x1D, 0x0F, 0x00, 48, 0, 0, 0]], "the waiting hint (its count when it was made: a and b)")
        XCTAssertEqual(readWhole(s), a + b + c)
    }

    func testLongValuesByReadBlobAndTheChunkSize() {
        let s = session(mtu: 517)
        let big = frame(2000, 9)
        XCTAssertEqual(s.send(frame: big), [], "not subscribed: polled")
        var got: [[UInt8]] = []
        while true { let v = readWhole(s); if v.isEmpty { break }; got.append(v) }
        XCTAssertEqual(got.map(\.count), [512, 512, 512, 468], "chunks of 512 (the longest attribute value)")
        XCTAssertEqual(Array(got.joined()), big)
        // At MTU 23 a chunk is a Read and Read Blobs of 22 bytes.
        let t = session()
        _ = t.send(frame: big)
        XCTAssertEqual(t.receive([0x0A, 0x0F, 0x00]), [[0x0B] + big[0..<22]])
        XCTAssertEqual(t.receive([0x0C, 0x0F, 0x00, 22, 0x00]), [[0x0D] + big[22..<44]])
        XCTAssertEqual(t.receive([0x0C, 0x0F, 0x00, 22, 0x00]), [[0x0D] + big[22..<44]], "a repeated Read Blob gets the same part")
        // A new Read before the chunk's end: the rest of the chunk comes first, nothing is lost.
        XCTAssertEqual(t.receive([0x0A, 0x0F, 0x00]), [[0x0B] + big[44..<66]])
        var rest: [UInt8] = Array(big[0..<66])
        while true { let v = readWhole(t); if v.isEmpty { break }; rest += v }
        XCTAssertEqual(rest, big)
    }

    func testReadsAndNotificationsInterleavedLoseAndDoubleNothing() {
        var rng = SplitMix(seed: 2026)
        for round in 0..<40 {
            let mtu = [23, 64, 185, 517][round % 4]
            let s = session(mtu: UInt16(mtu), notify: round % 3 == 0 ? nil : UInt8(1 + round % 2))
            var sent: [UInt8] = []
            var read: [UInt8] = []
            for step in 0..<300 {
                switch rng.next() % 5 {
                case 0, 1:
                    let f = frame(Int(rng.next() % 700) + 1, UInt8(step & 0xFF))
                    sent += f
                    _ = s.send(frame: f)
                case 2:
                    read += readWhole(s)   // Read, then Read Blobs
                case 3:
                    // A Read only: what is not read of it comes with the next Read.
                    read += s.receive([0x0A, 0x0F, 0x00])[0].dropFirst()
                default:
                    _ = s.receive([0x1E])   // confirmations, whether or not one is due
                }
            }
            while true { let v = readWhole(s); if v.isEmpty { break }; read += v }
            XCTAssertEqual(read.count, sent.count, "round \(round)")
            XCTAssertEqual(read, sent, "round \(round): every byte once, in order")
            XCTAssertFalse(s.eventReadOverflow)
        }
    }

    func testAPhoneThatNeverReadsKeepsTodaysNotificationsAndBoundedMemory() {
        server.maxEventReadBytes = 1000
        let s = session(notify: 1)
        for i in 0..<50 {
            let f = frame(96, UInt8(i))
            let chunks: [[UInt8]] = stride(from: 0, to: f.count, by: 20).map { [0x1B, 0x0F, 0x00] + Array(f[$0..<min($0 + 20, f.count)]) }
            XCTAssertEqual(s.send(frame: f), chunks, "notified exactly as before")
        }
        XCTAssertLessThanOrEqual(s.pendingEventBytes, 1000)
        XCTAssertEqual(s.unreadFramesDiscarded, 40)
        XCTAssertFalse(s.eventReadOverflow)
        // A phone that reads and then stops reading is flagged for the transport to drop.
        let r = session(notify: 1)
        XCTAssertEqual(readWhole(r), [])
        for i in 0..<10 { _ = r.send(frame: frame(96, UInt8(i))) }
        XCTAssertFalse(r.eventReadOverflow)
        _ = r.send(frame: frame(96, 10))
        XCTAssertTrue(r.eventReadOverflow)
    }
}

/// A small seeded generator (splitmix64) for repeatable interleavings.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}
