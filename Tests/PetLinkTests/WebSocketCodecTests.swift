import Foundation
@testable import PetLink
import XCTest

/// The WebSocket codec written here (Sources/PetLink/WebSocket): SHA-1 against RFC 3174's
/// vectors, base64 against RFC 4648 §10, the handshake against RFC 6455 §1.3, frames against
/// RFC 6455 §5.7's examples, and every reading rule with the close code it fails with.
final class WebSocketCodecTests: XCTestCase {
    private func hex(_ b: [UInt8]) -> String { b.map { String(format: "%02x", $0) }.joined() }
    private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    // MARK: - SHA-1 (RFC 3174 §7.3, TEST1–TEST4) and base64 (RFC 4648 §10)

    func testSHA1AgainstRFC3174() {
        XCTAssertEqual(hex(SHA1.hash(bytes("abc"))), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex(SHA1.hash(bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
                       "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(hex(SHA1.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))),
                       "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        XCTAssertEqual(hex(SHA1.hash(Array(repeating: bytes("0123456701234567012345670123456701234567012345670123456701234567"), count: 10).joined())),
                       "dea356a2cddd90c7a7ecedc5ebb563934f460452")
        XCTAssertEqual(hex(SHA1.hash([])), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        // Padding edges: 55, 56 and 64 bytes (one block, two blocks).
        var s = SHA1()
        s.update(bytes("ab")); s.update(bytes("c"))
        XCTAssertEqual(hex(s.finalize()), "a9993e364706816aba3e25717850c26c9cd0d89d", "streamed in pieces")
        XCTAssertEqual(hex(SHA1.hash([UInt8](repeating: 0x61, count: 55))), "c1c8bbdc22796e28c0e15163d20899b65621d65a")
        XCTAssertEqual(hex(SHA1.hash([UInt8](repeating: 0x61, count: 56))), "c2db330f6083854c99d4b5bfb6e8f29f201be699")
        XCTAssertEqual(hex(SHA1.hash([UInt8](repeating: 0x61, count: 64))), "0098ba824b5c16427bd7a1122a5a442a25ec644d")
    }

    func testBase64AgainstRFC4648() {
        let vectors = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.encode(bytes(plain)), encoded)
            XCTAssertEqual(Base64.decode(encoded), bytes(plain), encoded)
        }
        XCTAssertEqual(Base64.encode([0xFB, 0xFF, 0xBF]), "+/+/")
        // Strict: length, alphabet, padding position, whitespace, non-zero unused bits.
        for bad in ["Zg=", "Zg", "Z===", "Zg==Zg==", "Zm9v YmFy", "Zm9\n", "Zh==", "Zm9=", "Zm-v", "=Zm9", "Zg=a"] {
            XCTAssertNil(Base64.decode(bad), bad)
        }
    }

    // MARK: - The handshake (RFC 6455 §1.3, §4.2.1)

    private func request(_ lines: [String]) -> HTTPRequest {
        let text = lines.joined(separator: "\r\n") + "\r\n\r\n"
        guard case .complete(let r, let consumed) = HTTPRequest.parse(bytes(text)) else {
            XCTFail("not parsed: \(lines)"); return HTTPRequest(method: "", target: "", version: "", headers: [])
        }
        XCTAssertEqual(consumed, text.utf8.count)
        return r
    }

    private let rfcRequest = ["GET /chat HTTP/1.1", "Host: server.example.com", "Upgrade: websocket", "Connection: Upgrade",
                              "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Origin: http://example.com", "Sec-WebSocket-Version: 13"]

    func testAcceptKeyAndResponseOfRFC6455Section1_3() {
        XCTAssertEqual(WebSocketHandshake.accept(key: "dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let r = request(rfcRequest)
        XCTAssertTrue(WebSocketHandshake.isUpgrade(r))
        guard case .success(let key) = WebSocketHandshake.check(r, originAllowed: { $0 == "http://example.com" }) else { return XCTFail() }
        XCTAssertEqual(key, "dGhlIHNhbXBsZSBub25jZQ==")
        let response = String(decoding: WebSocketHandshake.response(key: key), as: UTF8.self)
        XCTAssertEqual(response, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
        XCTAssertEqual(WebSocketHandshake.checkResponse(Array(response.utf8) + [0x81], key: key), .upgraded(consumed: response.utf8.count))
        XCTAssertEqual(WebSocketHandshake.checkResponse(Array(response.utf8).dropLast(1).map { $0 }, key: key), .incomplete)
        let wrong = response.replacingOccurrences(of: "s3pP", with: "x3pP")
        guard case .refused(101, _) = WebSocketHandshake.checkResponse(Array(wrong.utf8), key: key) else { return XCTFail("a wrong accept is refused") }
        guard case .refused(403, _) = WebSocketHandshake.checkResponse(bytes("HTTP/1.1 403 Forbidden\r\n\r\n"), key: key) else { return XCTFail() }
        let withExt = response.replacingOccurrences(of: "\r\n\r\n", with: "\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n")
        guard case .refused(101, _) = WebSocketHandshake.checkResponse(Array(withExt.utf8), key: key) else { return XCTFail("an unasked extension") }
    }

    func testHandshakeRefusals() {
        func refusal(_ lines: [String], origin: @escaping (String) -> Bool = { _ in true }) -> Int? {
            if case .failure(let r) = WebSocketHandshake.check(request(lines), originAllowed: origin) { return r.status }
            return nil
        }
        let good = rfcRequest
        XCTAssertNil(refusal(good))
        XCTAssertNil(refusal(good.filter { !$0.hasPrefix("Origin") }, origin: { _ in false }), "no Origin: not a browser, let through")
        XCTAssertEqual(refusal(good, origin: { _ in false }), 403, "an origin not allowed")
        XCTAssertEqual(refusal(good + ["Origin: http://example.com"]), 403, "two origins")
        XCTAssertEqual(refusal(good.filter { !$0.hasPrefix("Sec-WebSocket-Key") }), 400, "no key")
        XCTAssertEqual(refusal(good.map { $0.hasPrefix("Sec-WebSocket-Key") ? "Sec-WebSocket-Key: c2hvcnQ=" : $0 }), 400, "a key of 5 bytes")
        XCTAssertEqual(refusal(good.map { $0.hasPrefix("Sec-WebSocket-Key") ? "Sec-WebSocket-Key: not base64 at all!!!!" : $0 }), 400)
        XCTAssertEqual(refusal(good + ["Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="]), 400, "two keys")
        XCTAssertEqual(refusal(good.map { $0.hasPrefix("Sec-WebSocket-Version") ? "Sec-WebSocket-Version: 8" : $0 }), 426, "version 8")
        XCTAssertEqual(refusal(good.filter { !$0.hasPrefix("Sec-WebSocket-Version") }), 426, "no version")
        XCTAssertEqual(refusal(good.filter { !$0.hasPrefix("Upgrade") }), 400)
        XCTAssertEqual(refusal(good.filter { !$0.hasPrefix("Connection") }), 400)
        XCTAssertEqual(refusal(good.filter { !$0.hasPrefix("Host") }), 400)
        XCTAssertEqual(refusal(["POST /chat HTTP/1.1"] + good.dropFirst()), 405)
        XCTAssertEqual(refusal(["GET /chat HTTP/1.0"] + good.dropFirst()), 400)
        XCTAssertEqual(refusal(good + ["Content-Length: 5"]), 400, "a body")
        // Token lists and case: "keep-alive, Upgrade" and "WebSocket" are fine.
        XCTAssertNil(refusal(good.map { $0.hasPrefix("Connection") ? "Connection: keep-alive, Upgrade" : $0.hasPrefix("Upgrade") ? "Upgrade: WebSocket" : $0 }))
        if case .failure(let r) = WebSocketHandshake.check(request(good.filter { !$0.hasPrefix("Sec-WebSocket-Version") }), originAllowed: { _ in true }) {
            XCTAssertTrue(String(decoding: r.response.bytes, as: UTF8.self).contains("Sec-WebSocket-Version: 13\r\n"), "426 names the version spoken")
        }
    }

    func testHTTPRequestHeadParsing() {
        guard case .complete(let r, let n) = HTTPRequest.parse(bytes("GET /a/b.js?x=1#f HTTP/1.1\r\nHost:  h:1 \r\nX-A: 1\r\nx-a: 2\r\n\r\nREST")) else { return XCTFail() }
        XCTAssertEqual(n, 59)
        XCTAssertEqual(r.method, "GET"); XCTAssertEqual(r.path, "/a/b.js"); XCTAssertEqual(r.header("host"), "h:1")
        XCTAssertEqual(r.header("x-a"), "1, 2")
        XCTAssertEqual(HTTPRequest.parse(bytes("GET / HTTP/1.1\r\nHost: h\r\n")), .incomplete)
        func status(_ s: String, max: Int = 8192) -> Int? {
            if case .refused(let st, _) = HTTPRequest.parse(bytes(s), maxHeaderBytes: max) { return st }
            return nil
        }
        XCTAssertEqual(status("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 9000)), 431, "an endless head")
        XCTAssertEqual(status("GET / HTTP/1.1\r\n" + String(repeating: "X: 1\r\n", count: 65) + "\r\n"), 431, "65 fields")
        XCTAssertEqual(status("GET / HTTP/1.1\nHost: h\r\n\r\n"), 400, "a bare LF")
        XCTAssertEqual(status("GET / HTTP/1.1\nHost"), 400, "a bare LF, refused before the head ends")
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n"), 400)
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHo\u{0}st: h\r\n\r\n"), 400, "NUL")
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: h\u{1}\r\n\r\n"), 400, "a control character")
        XCTAssertEqual(status("GET / HTTP/2.0\r\n\r\n"), 505)
        XCTAssertEqual(status("GET /  HTTP/1.1\r\n\r\n"), 400, "two spaces")
        XCTAssertEqual(status("GET / FTP/1.1\r\n\r\n"), 400)
        XCTAssertEqual(status("G(T / HTTP/1.1\r\n\r\n"), 400, "a method that is not a token")
        XCTAssertEqual(status("GET /é HTTP/1.1\r\n\r\n"), 400, "not ASCII in the request line")
        XCTAssertEqual(status("GET / HTTP/1.1\r\nNoColon\r\n\r\n"), 400)
        XCTAssertEqual(status("GET / HTTP/1.1\r\nBad Name: 1\r\n\r\n"), 400)
    }

    // MARK: - Frames (RFC 6455 §5.7 examples)

    private let key = (UInt8(0x37), UInt8(0xfa), UInt8(0x21), UInt8(0x3d))

    func testEncodingMatchesRFC6455Examples() {
        XCTAssertEqual(WebSocketFrame.encode(.text, bytes("Hello")), [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f])
        XCTAssertEqual(WebSocketFrame.encode(.text, bytes("Hello"), maskKey: key), [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
        XCTAssertEqual(WebSocketFrame.encode(.text, bytes("Hel"), fin: false), [0x01, 0x03, 0x48, 0x65, 0x6c])
        XCTAssertEqual(WebSocketFrame.encode(.continuation, bytes("lo")), [0x80, 0x02, 0x6c, 0x6f])
        XCTAssertEqual(WebSocketFrame.encode(.ping, bytes("Hello")), [0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f])
        XCTAssertEqual(WebSocketFrame.encode(.pong, bytes("Hello"), maskKey: key), [0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
        XCTAssertEqual(Array(WebSocketFrame.encode(.binary, [UInt8](repeating: 7, count: 256)).prefix(4)), [0x82, 0x7E, 0x01, 0x00])
        XCTAssertEqual(Array(WebSocketFrame.encode(.binary, [UInt8](repeating: 7, count: 65_536)).prefix(10)), [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
        XCTAssertEqual(Array(WebSocketFrame.encode(.binary, [UInt8](repeating: 7, count: 125)).prefix(2)), [0x82, 125])
        XCTAssertEqual(Array(WebSocketFrame.encode(.binary, [UInt8](repeating: 7, count: 65_535)).prefix(4)), [0x82, 0x7E, 0xFF, 0xFF])
        // A close payload: the code, then a reason cut between characters at 123 bytes.
        XCTAssertEqual(WebSocketFrame.closePayload(.normal, reason: "bye"), [0x03, 0xE8, 0x62, 0x79, 0x65])
        let long = WebSocketFrame.closePayload(.policyViolation, reason: String(repeating: "é", count: 100))
        XCTAssertEqual(long.count, 124)
        XCTAssertNotNil(String(validating: long[2...], as: UTF8.self))
    }

    private func server(max: Int = 1000, text: Bool = false) -> WebSocketReader { WebSocketReader(role: .server, maxMessage: max, acceptsText: text) }
    private func masked(_ op: WebSocketOpcode, _ p: [UInt8], fin: Bool = true) -> [UInt8] { WebSocketFrame.encode(op, p, fin: fin, maskKey: key) }

    func testReadingRFC6455ExamplesAsServerAndClient() {
        var s = server(text: true)
        XCTAssertEqual(s.feed([0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]), [.message(.text, bytes("Hello"))])
        var c = WebSocketReader(role: .client, maxMessage: 1000, acceptsText: true)
        XCTAssertEqual(c.feed([0x01, 0x03, 0x48, 0x65, 0x6c]), [])
        XCTAssertTrue(c.hasPartialMessage)
        XCTAssertEqual(c.feed([0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]), [.ping(bytes("Hello"))], "a ping between fragments")
        XCTAssertEqual(c.feed([0x80, 0x02, 0x6c, 0x6f]), [.message(.text, bytes("Hello"))])
        XCTAssertFalse(c.hasPartialMessage)
        var big = WebSocketReader(role: .client, maxMessage: 70_000, acceptsText: false)
        let payload = (0..<65_536).map { UInt8($0 & 0xFF) }
        XCTAssertEqual(big.feed(WebSocketFrame.encode(.binary, payload)), [.message(.binary, payload)])
    }

    func testMaskingRules() {
        var s = server()
        XCTAssertEqual(s.feed(WebSocketFrame.encode(.binary, [1, 2, 3])), [.failed(.protocolError, reason: "a client's frames must be masked")])
        XCTAssertTrue(s.finished)
        XCTAssertEqual(s.feed(masked(.binary, [1])), [], "nothing is read after a failure")
        var c = WebSocketReader(role: .client, maxMessage: 100, acceptsText: true)
        XCTAssertEqual(c.feed(masked(.binary, [1])), [.failed(.protocolError, reason: "a server's frames must not be masked")])
    }

    func testFragmentationRules() {
        var s = server()
        XCTAssertEqual(s.feed(masked(.binary, [1, 2], fin: false) + masked(.ping, [9]) + masked(.continuation, [3], fin: false) + masked(.continuation, [4])),
                       [.ping([9]), .message(.binary, [1, 2, 3, 4])])
        XCTAssertEqual(s.feed(masked(.binary, [])), [.message(.binary, [])], "an empty message")
        var orphan = server()
        XCTAssertEqual(orphan.feed(masked(.continuation, [1])), [.failed(.protocolError, reason: "a continuation frame with no message begun")])
        var interleaved = server()
        XCTAssertEqual(interleaved.feed(masked(.binary, [1], fin: false) + masked(.binary, [2])),
                       [.failed(.protocolError, reason: "a new message before the fragmented one ended")])
        var fragmentedControl = server()
        XCTAssertEqual(fragmentedControl.feed(masked(.ping, [1], fin: false)), [.failed(.protocolError, reason: "a control frame must not be fragmented")])
        var longControl = server()
        guard case .failed(.protocolError, _)? = longControl.feed(masked(.ping, [UInt8](repeating: 0, count: 126))).first else { return XCTFail("a 126-byte ping") }
        var ok125 = server()
        XCTAssertEqual(ok125.feed(masked(.pong, [UInt8](repeating: 5, count: 125))), [.pong([UInt8](repeating: 5, count: 125))])
    }

    func testHeaderRules() {
        func first(_ b: [UInt8], _ r: WebSocketReader? = nil) -> WebSocketInput? { var x = r ?? server(max: 1 << 20); return x.feed(b).first }
        XCTAssertEqual(first([0xC2, 0x80, 0, 0, 0, 0]), .failed(.protocolError, reason: "reserved bits set (no extension was agreed)"), "RSV1")
        XCTAssertEqual(first([0x92, 0x80, 0, 0, 0, 0]), .failed(.protocolError, reason: "reserved bits set (no extension was agreed)"), "RSV3")
        XCTAssertEqual(first([0x83, 0x80, 0, 0, 0, 0]), .failed(.protocolError, reason: "reserved opcode 3"))
        XCTAssertEqual(first([0x8B, 0x80, 0, 0, 0, 0]), .failed(.protocolError, reason: "reserved opcode 11"))
        XCTAssertEqual(first([0x82, 0xFE, 0x00, 0x05]), .failed(.protocolError, reason: "a length of 5 must be written in 7 bits"))
        XCTAssertEqual(first([0x82, 0xFF, 0, 0, 0, 0, 0, 0, 0x01, 0x00]), .failed(.protocolError, reason: "a length of 256 must be written in 16 bits"))
        XCTAssertEqual(first([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0]), .failed(.protocolError, reason: "a 64-bit length with its top bit set"))
        XCTAssertNil(first([0x82]), "one byte: wait")
        XCTAssertNil(first([0x82, 0xFE, 0x01]), "half an extended length: wait")
    }

    func testSizeLimitIsEnforcedFromTheHeader() {
        var s = server(max: 10)
        // Only the header of an 11-byte frame: refused before its payload arrives.
        XCTAssertEqual(s.feed([0x82, 0x8B]), [.failed(.messageTooBig, reason: "a message of 11+ bytes is over the limit of 10")])
        var f = server(max: 10)
        XCTAssertEqual(f.feed(masked(.binary, [UInt8](repeating: 1, count: 6), fin: false)), [])
        XCTAssertEqual(f.feed(Array(masked(.continuation, [UInt8](repeating: 1, count: 5)).prefix(2))),
                       [.failed(.messageTooBig, reason: "a message of 11+ bytes is over the limit of 10")])
        var huge = server(max: 65_540)
        XCTAssertEqual(huge.feed([0x82, 0xFF, 0, 0, 0, 1, 0, 0, 0, 0]), [.failed(.messageTooBig, reason: "a frame of 4294967296 bytes is over the limit of 65540")])
        var exact = server(max: 10)
        XCTAssertEqual(exact.feed(masked(.binary, [UInt8](repeating: 2, count: 10))), [.message(.binary, [UInt8](repeating: 2, count: 10))])
    }

    func testTextIsRefusedWhereOnlyBinaryIsTaken() {
        var s = server()
        XCTAssertEqual(s.feed(masked(.text, bytes("{}"))), [.failed(.unsupportedData, reason: "text messages are not taken: send the frames as binary messages")])
        var c = WebSocketReader(role: .client, maxMessage: 100, acceptsText: true)
        XCTAssertEqual(c.feed(WebSocketFrame.encode(.text, [0xC3, 0x28])), [.failed(.invalidPayload, reason: "a text message that is not UTF-8")])
    }

    func testCloseFrames() {
        func read(_ payload: [UInt8]) -> WebSocketInput? { var s = server(); return s.feed(masked(.close, payload)).first }
        XCTAssertEqual(read([]), .close(nil, reason: ""))
        XCTAssertEqual(read([0x03, 0xE8] + bytes("bye")), .close(.normal, reason: "bye"))
        XCTAssertEqual(read([0x0B, 0xB8]), .close(WebSocketCloseCode(3000), reason: ""))
        XCTAssertEqual(read([0x03, 0xF3]), .close(WebSocketCloseCode(1011), reason: ""))
        XCTAssertEqual(read([0x03]), .failed(.protocolError, reason: "a close frame of 1 byte"))
        for bad: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000] {
            XCTAssertEqual(read([UInt8(bad >> 8), UInt8(bad & 0xFF)]), .failed(.protocolError, reason: "close code \(bad) is not allowed on the wire"), "\(bad)")
        }
        XCTAssertEqual(read([0x03, 0xE8, 0xC3, 0x28]), .failed(.invalidPayload, reason: "the close reason is not UTF-8"))
        var s = server()
        XCTAssertEqual(s.feed(masked(.close, [0x03, 0xE8]) + masked(.binary, [1])), [.close(.normal, reason: "")], "nothing after a close")
    }

    func testAnySplitOfTheStreamReadsTheSame() {
        let stream = masked(.binary, [1, 2, 3], fin: false) + masked(.ping, bytes("hi")) + masked(.continuation, [UInt8](repeating: 4, count: 300))
            + masked(.binary, [UInt8](repeating: 9, count: 70_000)) + masked(.close, [0x03, 0xE8])
        var whole = server(max: 100_000)
        let expected = whole.feed(stream)
        XCTAssertEqual(expected.count, 4)
        var bytewise = server(max: 100_000)
        var got: [WebSocketInput] = []
        for b in stream { got += bytewise.feed([b]) }
        XCTAssertEqual(got, expected)
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            var r = server(max: 100_000)
            var out: [WebSocketInput] = []
            var i = 0
            while i < stream.count { let n = Int.random(in: 1...5000, using: &rng); out += r.feed(Array(stream[i..<min(stream.count, i + n)])); i += n }
            XCTAssertEqual(out, expected)
        }
    }

    /// 20 000 seeded inputs (random bytes, and valid streams with bytes flipped, cut or
    /// repeated): the reader and the head parser never trap, a failure always names a code that
    /// may be sent, and nothing is read after a close or a failure.
    func testRandomAndMutatedInputNeverTraps() {
        var rng = SplitMix(seed: 6455)
        let valid = masked(.binary, [1, 2, 3], fin: false) + masked(.ping, [9]) + masked(.continuation, [UInt8](repeating: 4, count: 200))
            + masked(.binary, [UInt8](repeating: 7, count: 70)) + masked(.close, [0x03, 0xE8, 0x6F, 0x6B])
        let head = Array("GET /link HTTP/1.1\r\nHost: 127.0.0.1:1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".utf8)
        for round in 0..<20_000 {
            var input: [UInt8]
            if round % 2 == 0 {
                input = (0..<Int(rng.next() % 300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            } else {
                input = round % 4 == 1 ? valid : head
                for _ in 0..<Int(rng.next() % 4 + 1) {
                    let i = Int(rng.next() % UInt64(input.count))
                    switch rng.next() % 3 {
                    case 0: input[i] = UInt8(truncatingIfNeeded: rng.next())
                    case 1: input = Array(input[..<i])
                    default: input.insert(input[i], at: i)
                    }
                    if input.isEmpty { input = [0] }
                }
            }
            var r = server(max: 1000, text: round % 3 == 0)
            var out: [WebSocketInput] = []
            var i = 0
            while i < input.count { let n = Int(rng.next() % 40) + 1; out += r.feed(Array(input[i..<min(input.count, i + n)])); i += n }
            for (k, x) in out.enumerated() {
                switch x {
                case .failed(let code, _):
                    XCTAssertTrue(code.isValidOnWire, "\(code)")
                    XCTAssertEqual(k, out.count - 1, "nothing after a failure")
                case .close: XCTAssertEqual(k, out.count - 1, "nothing after a close")
                case .message(_, let p): XCTAssertLessThanOrEqual(p.count, 1000)
                case .ping(let p), .pong(let p): XCTAssertLessThanOrEqual(p.count, 125)
                }
            }
            switch HTTPRequest.parse(input, maxHeaderBytes: 256) {
            case .refused(let status, _): XCTAssertTrue([400, 431, 505].contains(status), "\(status)")
            case .complete(_, let consumed): XCTAssertLessThanOrEqual(consumed, input.count)
            case .incomplete: XCTAssertLessThan(input.count, 256)
            }
        }
    }

    func testClientCodecHandshakeAndMasking() throws {
        var c = try WebSocketClient()
        let req = String(decoding: c.request(host: "127.0.0.1:9", origin: "http://127.0.0.1:9"), as: UTF8.self)
        XCTAssertTrue(req.hasPrefix("GET /link HTTP/1.1\r\nHost: 127.0.0.1:9\r\n"))
        guard case .complete(let r, _) = HTTPRequest.parse(Array(req.utf8)), case .success = WebSocketHandshake.check(r, originAllowed: { $0 == "http://127.0.0.1:9" }) else {
            return XCTFail("the client's request passes the server's check")
        }
        let f = try c.frame(.binary, [1, 2, 3])
        XCTAssertEqual(f[1] & 0x80, 0x80, "a client masks")
        var s = server()
        XCTAssertEqual(s.feed(f), [.message(.binary, [1, 2, 3])])
        XCTAssertEqual(c.feed(WebSocketHandshake.response(key: c.key) + WebSocketFrame.encode(.binary, [7])), [.message(.binary, [7])])
        XCTAssertTrue(c.upgraded)
        var refused = try WebSocketClient()
        XCTAssertEqual(refused.feed(bytes("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")), [])
        XCTAssertEqual(refused.refusal?.status, 403)
    }
}
