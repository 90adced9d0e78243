import XCTest
@testable import PetLink

/// SHA-256 against FIPS 180-4's examples, HMAC-SHA-256 against RFC 4231's test cases 1–7.
final class CryptoTests: XCTestCase {
    private func hex(_ b: [UInt8]) -> String { Hex.encode(b) }
    private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    func testSHA256FIPSExamples() {
        XCTAssertEqual(hex(SHA256.hash(bytes("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(hex(SHA256.hash([UInt8]())), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex(SHA256.hash(bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(hex(SHA256.hash(bytes("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"))),
                       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    func testSHA256MillionA() {
        var s = SHA256()
        let chunk = [UInt8](repeating: 0x61, count: 1000)
        for _ in 0..<1000 { s.update(chunk) }
        XCTAssertEqual(hex(s.finalize()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testSHA256StreamingEqualsOneShotAtEveryPaddingEdge() {
        for n in [55, 56, 57, 63, 64, 65, 119, 120, 128] {
            let msg = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            var s = SHA256()
            s.update(msg.prefix(n / 3)); s.update(msg.dropFirst(n / 3))
            XCTAssertEqual(s.finalize(), SHA256.hash(msg), "length \(n)")
        }
    }

    func testHMACRFC4231() {
        let cases: [([UInt8], [UInt8], String)] = [
            ([UInt8](repeating: 0x0b, count: 20), bytes("Hi There"),
             "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            (bytes("Jefe"), bytes("what do ya want for nothing?"),
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
             "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
            (Array(1...25), [UInt8](repeating: 0xcd, count: 50),
             "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
            ([UInt8](repeating: 0xaa, count: 131), bytes("Test Using Larger Than Block-Size Key - Hash Key First"),
             "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
            ([UInt8](repeating: 0xaa, count: 131),
             bytes("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."),
             "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        ]
        for (i, c) in cases.enumerated() {
            XCTAssertEqual(hex(HMACSHA256.mac(key: c.0, message: c.1)), c.2, "RFC 4231 case \(i < 4 ? i + 1 : i + 2)")
        }
        // Case 5: output truncated to 128 bits.
        let t = HMACSHA256.mac(key: [UInt8](repeating: 0x0c, count: 20), message: bytes("Test With Truncation"))
        XCTAssertEqual(hex(Array(t.prefix(16))), "a3b6167473100ee06e0c796c2955552b")
    }

    func testConstantTimeCompareAndHex() {
        XCTAssertTrue(constantTimeEqual([1, 2, 3], [1, 2, 3]))
        XCTAssertFalse(constantTimeEqual([1, 2, 3], [1, 2, 4]))
        XCTAssertFalse(constantTimeEqual([1, 2, 3], [1, 2]))
        XCTAssertEqual(Hex.decode("00ffA0"), [0, 255, 160])
        XCTAssertNil(Hex.decode("0g"))
        XCTAssertNil(Hex.decode("abc"))
    }

    func testSeededRandomIsDeterministicAndSystemRandomFills() throws {
        let a = try SeededRandom(seed: 7).bytes(40), b = try SeededRandom(seed: 7).bytes(40)
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, try SeededRandom(seed: 8).bytes(40))
        let r = try SystemRandom().bytes(64)
        XCTAssertEqual(r.count, 64)
        XCTAssertTrue(try SeededRandom(seed: 1).uniform(below: 1_000_000) < 1_000_000)
    }
}
