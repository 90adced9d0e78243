import XCTest
import TestSupport
import Foundation
@testable import PetUI

/// Helpers that run external tools on encoded PNGs.
enum External {
    static let python = "/usr/bin/python3"
    static let pngcheck = "/usr/bin/pngcheck"

    @discardableResult
    static func run(_ exe: String, _ args: [String]) throws -> (status: Int32, out: String) {
        let r = try runTool(exe, args)
        return (r.status, r.output)
    }

    static func tempFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("petui-\(ProcessInfo.processInfo.processIdentifier)-\(name)")
    }

    /// Decodes with PIL; returns (mode, width, height, raw RGB bytes).
    static func pilDecode(_ png: URL) throws -> (mode: String, w: Int, h: Int, rgb: [UInt8]) {
        let out = tempFile(UUID().uuidString + ".raw")
        defer { try? FileManager.default.removeItem(at: out) }
        let script = """
        import sys
        from PIL import Image
        im = Image.open(sys.argv[1]); im.load()
        open(sys.argv[2], 'wb').write(im.tobytes())
        print(im.mode, im.size[0], im.size[1])
        """
        let r = try run(python, ["-c", script, png.path, out.path])
        guard r.status == 0 else { throw NSError(domain: "pil", code: Int(r.status), userInfo: ["out": r.out]) }
        let parts = r.out.split(whereSeparator: \.isWhitespace).map(String.init)
        let bytes = try [UInt8](Data(contentsOf: out))
        return (parts.first ?? "", Int(parts.dropFirst().first ?? "") ?? -1, Int(parts.last ?? "") ?? -1, bytes)
    }
}

final class ChecksumTests: XCTestCase {
    func testCRC32() {
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(CRC32.checksum([]), 0)
        XCTAssertEqual(CRC32.checksum(Array("IEND".utf8)), 0xAE42_6082)
        var inc = CRC32(); inc.update(Array("12345".utf8)); inc.update(Array("6789".utf8))
        XCTAssertEqual(inc.value, 0xCBF4_3926)
    }

    func testAdler32() {
        XCTAssertEqual(Adler32.checksum([]), 1)
        XCTAssertEqual(Adler32.checksum(Array("a".utf8)), 0x0062_0062)
        XCTAssertEqual(Adler32.checksum(Array("abc".utf8)), 0x024D_0127)
        XCTAssertEqual(Adler32.checksum(Array("Wikipedia".utf8)), 0x11E6_0398)
        // Long input exercises the modulo blocking: 1 MB of 0xFF.
        let big = [UInt8](repeating: 0xFF, count: 1 << 20)
        var a: UInt64 = 1, b: UInt64 = 0
        for x in big { a = (a + UInt64(x)) % 65521; b = (b + a) % 65521 }
        XCTAssertEqual(Adler32.checksum(big), UInt32(b << 16 | a))
    }
}

final class PNGTests: XCTestCase {
    /// Encodes, checks with pngcheck and PIL, and compares decoded pixels exactly.
    func roundTrip(width: Int, height: Int, rgb: [UInt8], name: String,
                   file: StaticString = #filePath, line: UInt = #line) throws {
        let png = PNG.encodeRGB(width: width, height: height, rgb: rgb)
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], file: file, line: line)
        let url = External.tempFile(name + ".png")
        try Data(png).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let check = try External.run(External.pngcheck, ["-v", url.path])
        XCTAssertEqual(check.status, 0, check.out, file: file, line: line)
        XCTAssertTrue(check.out.contains("No errors detected"), check.out, file: file, line: line)
        let dec = try External.pilDecode(url)
        XCTAssertEqual(dec.mode, "RGB", file: file, line: line)
        XCTAssertEqual(dec.w, width, file: file, line: line)
        XCTAssertEqual(dec.h, height, file: file, line: line)
        XCTAssertTrue(dec.rgb == Array(rgb.prefix(width * height * 3)), "pixels differ for \(name)", file: file, line: line)
    }

    func testOneByOne() throws {
        try roundTrip(width: 1, height: 1, rgb: [12, 200, 77], name: "1x1")
    }

    func testFilterHeavyGradients() throws {
        // Smooth gradients and diagonals favour Sub/Up/Average/Paeth over None.
        let w = 97, h = 61
        var rgb: [UInt8] = []
        for y in 0..<h { for x in 0..<w {
            rgb += [UInt8((x * 3 + y) & 0xFF), UInt8((y * 4) & 0xFF), UInt8((x * y) & 0xFF)]
        } }
        try roundTrip(width: w, height: h, rgb: rgb, name: "gradient")
        let raw = PNG.filterRows(width: w, height: h, rgb: rgb)
        let used = Set((0..<h).map { raw[$0 * (w * 3 + 1)] })
        XCTAssertGreaterThan(used.count, 1, "expected several filter types, got \(used)")
        XCTAssertFalse(used.contains(0), "None should never win on gradients")
    }

    func testNoiseAndRepetition() throws {
        // Pseudo-random noise (incompressible → stored fallback) and a long repeated pattern.
        var seed: UInt32 = 0x1234_5678
        var noise: [UInt8] = []
        for _ in 0..<(150 * 150 * 3) {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            noise.append(UInt8(seed >> 24))
        }
        try roundTrip(width: 150, height: 150, rgb: noise, name: "noise")
        let solid = [UInt8](repeating: 0x5A, count: 300 * 200 * 3)
        let solidPNG = PNG.encodeRGB(width: 300, height: 200, rgb: solid)
        XCTAssertLessThan(solidPNG.count, 2000)
        try roundTrip(width: 300, height: 200, rgb: solid, name: "solid")
        // Pattern with period not aligned to rows.
        let pat: [UInt8] = (0..<(123 * 77 * 3)).map { (i: Int) -> UInt8 in
            let a: Int = i % 251
            let b: Int = (i / 1000) & 0xFF
            return UInt8(a ^ b)
        }
        try roundTrip(width: 123, height: 77, rgb: pat, name: "pattern")
    }

    func testInvalidInputGivesEmpty() {
        XCTAssertEqual(PNG.encodeRGB(width: 0, height: 5, rgb: []), [])
        XCTAssertEqual(PNG.encodeRGB(width: 2, height: 2, rgb: [1, 2, 3]), [])
        XCTAssertEqual(PNG.encode(rgb565: Canvas(width: 0, height: 0)), [])
    }

    func testCanvasEncodeExpandsRGB565() throws {
        var c = Canvas(width: 4, height: 2, background: .white)
        c.setPixel(x: 1, y: 0, color: .red)
        c.setPixel(x: 2, y: 1, color: RGB565(hex: 0x123456))
        let png = PNG.encode(rgb565: c)
        let url = External.tempFile("canvas.png")
        try Data(png).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let dec = try External.pilDecode(url)
        XCTAssertEqual(Array(dec.rgb[0..<6]), [255, 255, 255, 255, 0, 0])
        let q = RGB565(hex: 0x123456)
        XCTAssertEqual(Array(dec.rgb[(6 * 3)..<(7 * 3)]), [q.r8, q.g8, q.b8])
    }

    func testHomeScreenRoundTrip() throws {
        var c = Canvas(width: 240, height: 240)
        Screens.render(ScreenContext(state: UIFixture.state(), ui: UIFixture.ui(for: .home), now: UIFixture.now,
                                     config: Navigator.Config(profile: .square240), theme: .light), into: &c)
        var rgb: [UInt8] = []
        for p in c.pixels { let k = RGB565(raw: p); rgb += [k.r8, k.g8, k.b8] }
        try roundTrip(width: 240, height: 240, rgb: rgb, name: "home")
        // The encoder really compresses a screen (LZ77 + filters), far below the raw 172,800 bytes.
        let size = PNG.encode(rgb565: c).count
        XCTAssertLessThan(size, 240 * 240 * 3 / 4)
    }
}
