import XCTest
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import PetLinux
import PetCore
import PetDevice
import PetLink
import PetSim

/// A phone that drains the event characteristic by reading (the web app's way, docs/ble.md
/// "Event") against `BLELink` and the real `LinkService` on a `SimDevice` (its own thread, as in
/// BLEStreamTests): hello, pairing with the code on the screen, a command, its reply — every
/// frame read whole and in order, notifications only hints once it reads.
final class BLEEventReadTests: XCTestCase {
    /// Whole ATT PDUs on a SOCK_SEQPACKET socket, bounded by poll.
    final class Bearer: ATTBearer {
        let fd: Int32
        init(fd: Int32) { self.fd = fd }
        deinit { close(fd) }
        func sendPDU(_ pdu: [UInt8]) throws(GATTClientError) {
            guard pdu.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == pdu.count else { throw .transport("send") }
        }
        func receivePDU() throws(GATTClientError) -> [UInt8] {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 10_000) == 1 else { throw .transport("timeout") }
            var buf = [UInt8](repeating: 0, count: 600)
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw .transport("closed") }
            return Array(buf[0..<n])
        }
    }

    func testAPhoneThatReadsTheEventCharacteristicPairsAndCommands() throws {
        let device = try BLEPeripheralThread.make()
        let fd = try device.connect(security: 2)
        device.start()
        defer { XCTAssertTrue(device.join()) }
        let gatt = GATTClient(bearer: Bearer(fd: fd))
        _ = try gatt.exchangeMTU(185)
        try gatt.subscribe(cccd: 17)
        var decoder = FrameDecoder()
        var messages: [[String: JSONValue]] = []
        var reads = 0

        func write(_ json: String) throws {
            let f = Frame.encode(Array(json.utf8))
            var i = 0
            while i < f.count { try gatt.write(12, Array(f[i..<min(f.count, i + 182)])); i += 182 }
        }
        /// Reads until a message of `type` came (bounded), as the page does after each write.
        func drain(until type: String) throws -> [String: JSONValue] {
            for _ in 0..<1000 {
                if let m = messages.first(where: { $0["type"] == .string(type) }) { return m }
                let v = try gatt.readLong(15)
                reads += 1
                if v.isEmpty { var p = pollfd(fd: -1, events: 0, revents: 0); _ = poll(&p, 0, 5); continue }
                for body in try decoder.feed(v) {
                    if case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(body)) { messages.append(o) }
                }
            }
            throw NSError(domain: "no \(type) in \(messages)", code: 0)
        }

        XCTAssertEqual(try gatt.read(15), [], "nothing waits yet")
        try write(#"{"type":"hello","version":1}"#)
        XCTAssertEqual(try drain(until: "welcome")["paired"], .bool(false))
        try write(#"{"type":"pair.begin"}"#)
        guard case .string(let ch)? = try drain(until: "pair.challenge")["challenge"], let challenge = Hex.decode(ch) else { return XCTFail() }
        var code: String?
        for _ in 0..<500 where code == nil {
            code = device.shownCode.withLock { $0 }
            var p = pollfd(fd: -1, events: 0, revents: 0); _ = poll(&p, 0, 10)
        }
        let nonce = [UInt8](repeating: 7, count: 16)
        let mac = Hex.encode(PairFinish.proof(code: try XCTUnwrap(code), challenge: challenge, nonce: nonce))
        try write(#"{"type":"pair.finish","nonce":"\#(Hex.encode(nonce))","mac":"\#(mac)","name":"Web phone"}"#)
        guard case .string(let token)? = try drain(until: "paired")["token"] else { return XCTFail() }
        XCTAssertEqual(token.count, 64)
        let title = String(String(repeating: "Water the plants ", count: 6).prefix(99)) + "!"   // a frame over one MTU
        try write(#"{"type":"command","id":"r-1","name":"task.create","fields":{"task":"t1","title":"\#(title)"}}"#)
        let reply = try drain(until: "reply")
        XCTAssertEqual(reply["id"], .string("r-1"))
        XCTAssertEqual(reply["ok"], .bool(true))
        // In order, each once: welcome, challenge, paired (with its pushed events), reply last.
        let types = messages.compactMap { m -> String? in if case .string(let t)? = m["type"] { t } else { nil } }
        XCTAssertEqual(types.first, "welcome")
        XCTAssertEqual(types.filter { $0 == "welcome" || $0 == "pair.challenge" || $0 == "paired" || $0 == "reply" },
                       ["welcome", "pair.challenge", "paired", "reply"])
        let seqs = messages.compactMap { m -> Int64? in if m["type"] == .string("event"), case .int(let s)? = m["seq"] { s } else { nil } }
        XCTAssertEqual(seqs, seqs.sorted())
        XCTAssertEqual(Set(seqs).count, seqs.count, "no event twice")
        XCTAssertTrue(messages.contains { m in
            if case .object(let e)? = m["event"], case .object(let t)? = e["task"] { return t["title"] == .string(title) }
            return false
        })
        XCTAssertEqual(try gatt.read(15), [], "drained")
        // Once reading, notifications were only hints: 4 bytes each.
        _ = try? gatt.read(15)
        XCTAssertFalse(gatt.received.isEmpty, "hints came")
        XCTAssertTrue(gatt.received.allSatisfy { $0.handle == 15 && $0.value.count == 4 }, "\(gatt.received.map(\.value.count))")
        XCTAssertGreaterThan(reads, 4)
    }
}
