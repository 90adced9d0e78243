#if canImport(Glibc)
import Glibc
#endif
import Foundation
import XCTest
@testable import PetLinux
import PetDevice

/// The Linux backends' errors carry a kind a program can match on and the errno behind it.
final class HardwareErrorKindTests: XCTestCase {
    func testLinuxErrorsKeepErrnoAndAdvice() {
        let h = LinuxError.make("gpiochip0 line 6", "request as input", errno: EACCES, kind: .gpio)
        XCTAssertEqual(h.kind, .permissionDenied)
        XCTAssertEqual(h.errno, EACCES)
        XCTAssertTrue(h.reason.contains("(EACCES)") && h.reason.contains("gpio group"), h.reason)
        XCTAssertEqual(h.reason, LinuxError.reason(errno: EACCES, kind: .gpio))
        XCTAssertEqual(LinuxError.make("x", "y", errno: EBUSY, kind: .pwm).kind, .busy)
        XCTAssertNil(LinuxError.advice(errno: EIO, kind: .other))
    }

    func testMissingDevicesAreNotFound() throws {
        let dir = try makeMissingPath()
        XCTAssertThrowsError(try SPIDevBus(path: dir + "/spidev9.9", bufsizPath: dir + "/bufsiz")) { e in
            let h = e as? HardwareError
            XCTAssertEqual(h?.kind, .notFound, "\(e)"); XCTAssertEqual(h?.errno, ENOENT)
            XCTAssertTrue(h?.reason.contains("enable SPI") == true, "\(e)")
        }
        XCTAssertThrowsError(try I2CDevBus(path: dir + "/i2c-9")) { e in
            XCTAssertEqual((e as? HardwareError)?.kind, .notFound, "\(e)")
        }
        XCTAssertThrowsError(try FramebufferPanel(path: dir + "/fb9")) { e in
            XCTAssertEqual((e as? HardwareError)?.kind, .notFound, "\(e)")
        }
        XCTAssertThrowsError(try FramebufferPanel(path: dir + "/fb9", rotation: 45)) { e in
            XCTAssertEqual((e as? HardwareError)?.kind, .unsupported, "\(e)")
            XCTAssertEqual((e as? HardwareError)?.errno, 0)
        }
    }

    /// A file that is not a framebuffer: the ioctl fails with ENOTTY, which is `.unsupported`.
    func testARegularFileIsNotAFramebuffer() throws {
        let path = NSTemporaryDirectory() + "/deskpet-not-fb-\(getpid())"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([0, 1, 2])))
        defer { unlink(path) }
        XCTAssertThrowsError(try FramebufferPanel(path: path)) { e in
            let h = e as? HardwareError
            XCTAssertEqual(h?.kind, .unsupported, "\(e)")
            XCTAssertEqual(h?.errno, ENOTTY, "\(e)")
            XCTAssertTrue(h?.reason.contains("not a framebuffer") == true, "\(e)")
        }
    }

    private func makeMissingPath() throws -> String {
        let p = NSTemporaryDirectory() + "/deskpet-missing-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        XCTAssertFalse(FileManager.default.fileExists(atPath: p))
        return p
    }
}
