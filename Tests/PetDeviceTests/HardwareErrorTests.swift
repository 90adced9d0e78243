#if canImport(Glibc)
import Glibc
#endif
import XCTest
import PetDevice

/// `HardwareError.kind` is what a program matches on; `errno` is kept for the exact system error.
final class HardwareErrorTests: XCTestCase {
    func testSystemErrorsKeepTheirErrnoAndMapToAKind() {
        let cases: [(Int32, HardwareError.Kind)] = [
            (ENOENT, .notFound), (ENODEV, .notFound), (ENXIO, .notFound),
            (EACCES, .permissionDenied), (EPERM, .permissionDenied),
            (EBUSY, .busy), (EADDRINUSE, .busy), (ETIMEDOUT, .timedOut),
            (ENOTTY, .unsupported), (ENOTSUP, .unsupported), (EAFNOSUPPORT, .unsupported),
            (EINVAL, .invalidArgument), (ERANGE, .invalidArgument),
            (EBADF, .closed), (EPIPE, .closed), (ECONNRESET, .closed), (ENOTCONN, .closed),
            (EIO, .system), (ENOSPC, .system), (ENOMEM, .system), (12345, .system),
        ]
        for (e, kind) in cases {
            let h = HardwareError(device: "/dev/x", operation: "open", errno: e)
            XCTAssertEqual(h.kind, kind, errnoName(e))
            XCTAssertEqual(h.errno, e)
            XCTAssertTrue(h.reason.hasPrefix(errnoText(e)), h.reason)
            XCTAssertTrue(h.reason.contains("(\(errnoName(e)))"), h.reason)
        }
    }

    func testAdviceFollowsTheSystemsText() {
        let h = HardwareError(device: "/dev/spidev0.0", operation: "open", errno: EACCES, advice: "join the spi group")
        XCTAssertEqual(h.reason, "\(errnoText(EACCES)) (EACCES): join the spi group")
        XCTAssertEqual(h.description, "/dev/spidev0.0: open: \(h.reason)")
        XCTAssertEqual(HardwareError(device: "d", operation: "o", errno: EIO, advice: nil).reason, "\(errnoText(EIO)) (EIO)")
    }

    func testNamedKindsHaveNoErrno() {
        let h = HardwareError(.timedOut, device: "ssd1680", operation: "wait for BUSY", reason: "BUSY stayed high")
        XCTAssertEqual(h.kind, .timedOut)
        XCTAssertEqual(h.errno, 0)
        XCTAssertEqual(HardwareError(device: "d", operation: "o", reason: "r").kind, .system, "the kind-less form says only that it failed")
    }

    func testErrnoNames() {
        XCTAssertEqual(errnoName(ENOENT), "ENOENT")
        XCTAssertEqual(errnoName(ENOTSUP), "EOPNOTSUPP")
        XCTAssertEqual(errnoName(99999), "errno 99999")
        XCTAssertFalse(errnoText(ENOENT).isEmpty)
        errno = EACCES
        XCTAssertEqual(errnoText(), errnoText(EACCES), "the default is the errno at the call")
    }

    /// Drivers refuse what their controller cannot do with `.unsupported`, and a BUSY line that
    /// never drops gives `.timedOut`.
    func testDriversSayWhichKind() throws {
        final class NullBus: I2CBus {
            var maxMessageSize: Int { 4096 }
            func write(address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(HardwareError) {}
        }
        do { _ = try SSD1306(bus: NullBus(), rotation: 90); XCTFail("a rotation of 90 is refused") }
        catch { XCTAssertEqual(error.kind, .unsupported); XCTAssertEqual(error.errno, 0) }
        do { _ = try SSD1306(bus: NullBus(), height: 48); XCTFail("a height of 48 is refused") }
        catch { XCTAssertEqual(error.kind, .unsupported) }

        final class High: InputLine { func read() throws(HardwareError) -> Bool { true } }
        final class Clock: Delay {
            var monotonicNs: UInt64 = 0
            func sleep(ns: UInt64) { monotonicNs &+= ns }
        }
        do { try High().waitWhileHigh(timeoutMs: 50, delay: Clock(), device: "ssd1680"); XCTFail("BUSY never drops") }
        catch { XCTAssertEqual(error.kind, .timedOut); XCTAssertEqual(error.device, "ssd1680") }
    }
}
