// PanelBackendTests.swift — the Linux panel backends without hardware: the kernel structures'
// sizes and field offsets equal linux/spi/spidev.h and linux/fb.h, the ioctl numbers are the
// kernel's, the framebuffer copy honours line_length, the colour bitfields and rotation and
// writes only the dirty rectangles, and opening a missing device says what to do.

import XCTest
import PetDevice
import PetUI
@testable import PetLinux

final class PanelBackendTests: XCTestCase {
    func testSPIIocTransferIsLaidOutAsTheKernels() {
        typealias T = SPIIocTransfer
        XCTAssertEqual(MemoryLayout<T>.size, 32)
        XCTAssertEqual(MemoryLayout<T>.stride, 32)
        XCTAssertEqual(MemoryLayout<T>.offset(of: \T.txBuf), 0)
        XCTAssertEqual(MemoryLayout<T>.offset(of: \T.rxBuf), 8)
        XCTAssertEqual(MemoryLayout<T>.offset(of: \T.len), 16)
        XCTAssertEqual(MemoryLayout<T>.offset(of: \T.speedHz), 20)
        XCTAssertEqual(MemoryLayout<T>.offset(of: \T.delayUsecs), 24)
        XCTAssertEqual(MemoryLayout<T>.offset(of: \T.bitsPerWord), 26)
        XCTAssertEqual(MemoryLayout<T>.offset(of: \T.csChange), 27)
        XCTAssertEqual(MemoryLayout<T>.offset(of: \T.txNbits), 28)
        XCTAssertEqual(MemoryLayout<T>.offset(of: \T.rxNbits), 29)
        XCTAssertEqual(MemoryLayout<T>.offset(of: \T.wordDelayUsecs), 30)
        XCTAssertEqual(MemoryLayout<T>.offset(of: \T.pad), 31)
    }

    func testIoctlNumbersAreTheKernels() {
        // Values from the kernel headers on x86-64/ARM (asm-generic/ioctl.h encoding).
        XCTAssertEqual(IOCTL.spiMessage(1), 0x4020_6B00)   // SPI_IOC_MESSAGE(1)
        XCTAssertEqual(IOCTL.spiMessage(2), 0x4040_6B00)
        XCTAssertEqual(IOCTL.spiWriteMode, 0x4001_6B01)    // SPI_IOC_WR_MODE
        XCTAssertEqual(IOCTL.spiWriteBitsPerWord, 0x4001_6B03)
        XCTAssertEqual(IOCTL.spiWriteMaxSpeedHz, 0x4004_6B04)
        XCTAssertEqual(IOCTL.i2cSlave, 0x0703)
        XCTAssertEqual(IOCTL.fbGetVScreenInfo, 0x4600)
        XCTAssertEqual(IOCTL.fbGetFScreenInfo, 0x4602)
    }

    func testFramebufferStructsAreLaidOutAsTheKernels() {
        typealias V = FBVarScreenInfo
        XCTAssertEqual(MemoryLayout<V>.size, 160)
        XCTAssertEqual(MemoryLayout<FBBitfield>.size, 12)
        XCTAssertEqual(MemoryLayout<V>.offset(of: \V.bitsPerPixel), 24)
        XCTAssertEqual(MemoryLayout<V>.offset(of: \V.red), 32)
        XCTAssertEqual(MemoryLayout<V>.offset(of: \V.green), 44)
        XCTAssertEqual(MemoryLayout<V>.offset(of: \V.blue), 56)
        XCTAssertEqual(MemoryLayout<V>.offset(of: \V.transp), 68)
        XCTAssertEqual(MemoryLayout<V>.offset(of: \V.nonstd), 80)
        XCTAssertEqual(MemoryLayout<V>.offset(of: \V.pixclock), 100)
        XCTAssertEqual(MemoryLayout<V>.offset(of: \V.rotate), 136)
        XCTAssertEqual(MemoryLayout<V>.offset(of: \V.reserved), 144)

        typealias F = FBFixScreenInfo
        XCTAssertEqual(MemoryLayout<F>.stride, KernelSizes.fbFixScreenInfo)
        XCTAssertEqual(MemoryLayout<F>.offset(of: \F.smemStart), 16)
        if MemoryLayout<UInt>.size == 8 {
            XCTAssertEqual(MemoryLayout<F>.stride, 80)
            XCTAssertEqual(MemoryLayout<F>.offset(of: \F.smemLen), 24)
            XCTAssertEqual(MemoryLayout<F>.offset(of: \F.visual), 36)
            XCTAssertEqual(MemoryLayout<F>.offset(of: \F.xpanstep), 40)
            XCTAssertEqual(MemoryLayout<F>.offset(of: \F.ywrapstep), 44)
            XCTAssertEqual(MemoryLayout<F>.offset(of: \F.lineLength), 48)
            XCTAssertEqual(MemoryLayout<F>.offset(of: \F.mmioStart), 56)
            XCTAssertEqual(MemoryLayout<F>.offset(of: \F.mmioLen), 64)
            XCTAssertEqual(MemoryLayout<F>.offset(of: \F.capabilities), 72)
            XCTAssertEqual(MemoryLayout<F>.offset(of: \F.reserved), 74)
        } else {
            XCTAssertEqual(MemoryLayout<F>.offset(of: \F.lineLength), 44)
            XCTAssertEqual(MemoryLayout<F>.offset(of: \F.capabilities), 60)
        }
    }

    /// A test picture: gradients in every channel and a few pure colours.
    func picture(_ w: Int, _ h: Int) -> Canvas {
        var c = Canvas(width: w, height: h)
        for y in 0..<h { for x in 0..<w { c.pixels[y * w + x] = UInt16(truncatingIfNeeded: (x * 2039 + y * 977) ^ (x << 11)) } }
        c.fillRect(x: 0, y: 0, w: 5, h: 5, color: RGB565(raw: 0xF800))
        return c
    }

    /// Reads the framebuffer memory back as a UI-oriented canvas.
    func readBack(_ mem: [UInt8], _ l: FramebufferLayout, rotation: Int, uiWidth: Int, uiHeight: Int) -> Canvas {
        var out = Canvas(width: uiWidth, height: uiHeight)
        for y in 0..<uiHeight {
            for x in 0..<uiWidth {
                let (fx, fy) = FramebufferLayout.place(x, y, rotation: rotation, uiWidth: uiWidth, uiHeight: uiHeight)
                let o = l.start + fy * l.lineLength + fx * l.bytesPerPixel
                var v: UInt32 = 0
                for k in 0..<l.bytesPerPixel { v |= UInt32(mem[o + k]) << UInt32(8 * k) }   // little-endian memory
                out.pixels[y * uiWidth + x] = l.colour(v).raw
            }
        }
        return out
    }

    func testVfbSixteenBitLayoutWithPaddedLinesRoundTrips() {
        // vfb: red at bit 0, green 5, blue 11; lines padded to 512 bytes to prove line_length is used.
        let l = FramebufferLayout(width: 240, height: 240, lineLength: 512, bitsPerPixel: 16,
                                  red: FBBitfield(offset: 0, length: 5), green: FBBitfield(offset: 5, length: 6),
                                  blue: FBBitfield(offset: 11, length: 5))
        XCTAssertNil(l.problem)
        XCTAssertEqual(l.value(RGB565(raw: 0xF800)), 0x001F, "panel red → vfb red in the low bits")
        XCTAssertEqual(l.value(RGB565(raw: 0x001F)), 0xF800)
        XCTAssertEqual(l.value(RGB565(raw: 0x07E0)), 0x07E0)
        let c = picture(240, 240)
        var mem = [UInt8](repeating: 0xAA, count: 512 * 240)
        let lut = l.lookupTable()
        mem.withUnsafeMutableBytes { l.blit(c, c.bounds, rotation: 0, lut: lut, into: $0) }
        XCTAssertEqual(readBack(mem, l, rotation: 0, uiWidth: 240, uiHeight: 240).pixels, c.pixels)
        for y in 0..<240 { XCTAssertTrue(mem[(y * 512 + 480)..<(y * 512 + 512)].allSatisfy { $0 == 0xAA }, "padding of line \(y)") }
    }

    func testOnlyDirtyRectanglesAreCopied() {
        let l = FramebufferLayout(width: 240, height: 240, lineLength: 480, bitsPerPixel: 16,
                                  red: FBBitfield(offset: 11, length: 5), green: FBBitfield(offset: 5, length: 6),
                                  blue: FBBitfield(offset: 0, length: 5))
        let c = picture(240, 240)
        var mem = [UInt8](repeating: 0, count: 480 * 240)
        let r = Rect(x: 30, y: 40, w: 17, h: 9)
        mem.withUnsafeMutableBytes { l.blit(c, r, rotation: 0, lut: l.lookupTable(), into: $0) }
        let back = readBack(mem, l, rotation: 0, uiWidth: 240, uiHeight: 240)
        for y in 0..<240 {
            for x in 0..<240 {
                let want: UInt16 = r.contains(x: x, y: y) ? c.pixels[y * 240 + x] : 0
                if back.pixels[y * 240 + x] != want { XCTFail("pixel \(x),\(y)"); return }
            }
        }
    }

    func testThirtyTwoBitsAndRotationsRoundTrip() {
        // XRGB8888, a 240×320 portrait framebuffer showing the 320×240 UI at 90 and 270.
        let l = FramebufferLayout(width: 240, height: 320, lineLength: 240 * 4 + 64, bitsPerPixel: 32,
                                  red: FBBitfield(offset: 16, length: 8), green: FBBitfield(offset: 8, length: 8),
                                  blue: FBBitfield(offset: 0, length: 8))
        XCTAssertEqual(l.value(RGB565(raw: 0xFFFF)), 0x00FF_FFFF)
        let lut = l.lookupTable()
        for rotation in [90, 270] {
            let c = picture(320, 240)
            var mem = [UInt8](repeating: 0, count: l.lineLength * 320)
            mem.withUnsafeMutableBytes { l.blit(c, c.bounds, rotation: rotation, lut: lut, into: $0) }
            XCTAssertEqual(readBack(mem, l, rotation: rotation, uiWidth: 320, uiHeight: 240).pixels, c.pixels, "rotation \(rotation)")
        }
        // 0 and 180 on a square one.
        let s = FramebufferLayout(width: 240, height: 240, lineLength: 960, bitsPerPixel: 32, red: l.red, green: l.green, blue: l.blue)
        for rotation in [0, 180] {
            let c = picture(240, 240)
            var mem = [UInt8](repeating: 0, count: 960 * 240)
            mem.withUnsafeMutableBytes { s.blit(c, c.bounds, rotation: rotation, lut: s.lookupTable(), into: $0) }
            XCTAssertEqual(readBack(mem, s, rotation: rotation, uiWidth: 240, uiHeight: 240).pixels, c.pixels, "rotation \(rotation)")
            if rotation == 180 { XCTAssertEqual(Array(mem[(239 * 960 + 239 * 4)..<(239 * 960 + 240 * 4)]), [0, 0, 0xFF, 0], "red top-left lands bottom-right") }
        }
    }

    func testBadLayoutsAreRefused() {
        let f = FBBitfield(offset: 0, length: 5)
        XCTAssertNotNil(FramebufferLayout(width: 240, height: 240, lineLength: 480, bitsPerPixel: 8, red: f, green: f, blue: f).problem)
        XCTAssertNotNil(FramebufferLayout(width: 240, height: 240, lineLength: 100, bitsPerPixel: 16, red: f, green: f, blue: f).problem)
    }

    func testOpeningMissingOrWrongDevicesSaysWhatToDo() {
        XCTAssertThrowsError(try SPIDevBus(path: "/nonexistent/spidev0.0")) { e in
            XCTAssertTrue("\(e)".contains("dtparam=spi=on"), "\(e)")
        }
        XCTAssertThrowsError(try SPIDevBus(path: "/dev/null")) { e in
            XCTAssertTrue("\(e)".contains("not an SPI device"), "\(e)")
        }
        XCTAssertThrowsError(try I2CDevBus(path: "/nonexistent/i2c-1")) { e in
            XCTAssertTrue("\(e)".contains("dtparam=i2c_arm=on"), "\(e)")
        }
        XCTAssertThrowsError(try FramebufferPanel(path: "/nonexistent/fb0")) { e in
            XCTAssertTrue("\(e)".contains("no framebuffer"), "\(e)")
        }
        XCTAssertThrowsError(try FramebufferPanel(path: "/dev/null")) { e in
            XCTAssertTrue("\(e)".contains("not a framebuffer"), "\(e)")
        }
        XCTAssertEqual(SPIDevBus.openHint(EACCES).contains("spi group"), true)
    }
}
