import XCTest
import PetDevice
import PetUI

/// The daemon's SIGUSR1 frame dump (FrameDump): what the kernel-loop daemon check compares the
/// panel with (tools/kernel-loop/guest-daemon.sh).
final class FrameDumpTests: XCTestCase {
    func testColourRoundTrip() throws {
        var c = Canvas(width: 3, height: 2, background: .black)
        c.pixels = [0x0000, 0xF800, 0x07E0, 0x001F, 0xFFFF, 0x1234]
        let d = FrameDump(surface: .colour(c), frames: 7, dump: 2, screen: "menu")
        let bytes = d.bytes
        let header: [UInt8] = Array("deskpet-frame 1 colour 3 2 frames=7 dump=2 screen=menu\n".utf8)
        XCTAssertEqual(Array(bytes.prefix(header.count)), header)
        XCTAssertEqual(bytes.count, header.count + 12)
        // little-endian RGB565 after the header: 0xF800 is f8 after 00
        XCTAssertEqual(Array(bytes.suffix(12).prefix(4)), [0x00, 0x00, 0x00, 0xF8])
        let back = try XCTUnwrap(FrameDump.parse(bytes))
        XCTAssertEqual(back, d)
        XCTAssertEqual(back.canvas.pixels, c.pixels)
    }

    func testMonoIsBlackAndWhite() throws {
        var m = MonoCanvas(width: 8, height: 2, background: .white)
        m.setPixel(x: 1, y: 0, .black)
        let d = FrameDump(surface: .mono(m), frames: 1, dump: 1, screen: "home")
        XCTAssertEqual(d.kind, .mono)
        XCTAssertEqual(d.pixels.filter { $0 == 0x0000 }.count, 1)
        XCTAssertEqual(d.pixels.filter { $0 == 0xFFFF }.count, 15)
        let back = try XCTUnwrap(FrameDump.parse(d.bytes))
        XCTAssertEqual(back.mono.pixel(x: 1, y: 0), .black)
        XCTAssertEqual(back.mono.pixel(x: 2, y: 0), .white)
    }

    func testNothingShownYetAndBadInput() {
        let d = FrameDump(surface: nil, frames: 0, dump: 1)
        XCTAssertEqual(FrameDump.parse(d.bytes), d)
        XCTAssertEqual(d.screen, "-")
        XCTAssertEqual(FrameDump(surface: nil, frames: 0, dump: 1, screen: "two words").screen, "-")
        var c = Canvas(width: 2, height: 2)
        c.pixels = [1, 2, 3, 4]
        let bytes = FrameDump(surface: .colour(c), frames: 1, dump: 1).bytes
        XCTAssertNil(FrameDump.parse(Array(bytes.dropLast())))          // cut short
        XCTAssertNil(FrameDump.parse(Array("deskpet-frame 2 colour 0 0 frames=0 dump=1 screen=-\n".utf8)))
        XCTAssertNil(FrameDump.parse([]))
    }
}
