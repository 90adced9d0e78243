import XCTest
import CLinux
@testable import PetLinux
@testable import PetDevice

/// evdev decoding from bytes, the struct's size, ioctl numbers, and timestamps.
final class EvdevTests: XCTestCase {
    func testRecordSizeIsTheKernels() {
        XCTAssertEqual(EvdevDecoder.recordSize, MemoryLayout<input_event>.size)
        #if arch(x86_64) || arch(arm64)
        XCTAssertEqual(EvdevDecoder.recordSize, 24)
        #endif
    }

    /// Bytes of one record as a 64-bit little-endian kernel writes them.
    func record(sec: Int64, usec: Int64, type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
        func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
        return le(sec) + le(usec) + le(type) + le(code) + le(value)
    }

    func testDecodesRecordsFromBytes() {
        let bytes = record(sec: 12, usec: 345_678, type: 1, code: 30, value: 1) + record(sec: 12, usec: 345_678, type: 0, code: 0, value: 0)
            + [1, 2, 3]   // a partial record is ignored
        let r = EvdevDecoder.records(bytes, recordSize: 24)
        XCTAssertEqual(r, [InputEventRecord(sec: 12, usec: 345_678, type: 1, code: 30, value: 1),
                           InputEventRecord(sec: 12, usec: 345_678, type: 0, code: 0, value: 0)])
        XCTAssertEqual(r[0].ns, 12_345_678_000)
        // the same event from a 32-bit system (16-byte records)
        func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
        let small = le(Int32(7)) + le(Int32(-1)) + le(UInt16(1)) + le(UInt16(48)) + le(Int32(0))
        XCTAssertEqual(EvdevDecoder.records(small, recordSize: 16), [InputEventRecord(sec: 7, usec: -1, type: 1, code: 48, value: 0)])
        XCTAssertEqual(EvdevDecoder.records(small, recordSize: 17), [], "not a record size")
    }

    func testKeyEventsBecomeEdges() {
        var d = EvdevDecoder(keys: [30: .a, 48: .b])
        let recs = [InputEventRecord(sec: 1, usec: 0, type: 1, code: 30, value: 1),
                    InputEventRecord(sec: 1, usec: 0, type: 0, code: 0, value: 0),
                    InputEventRecord(sec: 1, usec: 500, type: 1, code: 30, value: 2),   // auto-repeat
                    InputEventRecord(sec: 1, usec: 900, type: 1, code: 46, value: 1),   // not mapped
                    InputEventRecord(sec: 1, usec: 900, type: 4, code: 4, value: 30),   // EV_MSC
                    InputEventRecord(sec: 2, usec: 1, type: 1, code: 30, value: 0)]
        let (edges, resync) = d.edges(recs)
        XCTAssertFalse(resync)
        XCTAssertEqual(edges.map(\.button), [.a, .a])
        XCTAssertEqual(edges.map(\.pressed), [true, false])
        XCTAssertEqual(edges.map(\.ns), [1_000_000_000, 2_000_001_000])
    }

    func testDroppedEventsAreDiscardedUntilTheNextReport() {
        var d = EvdevDecoder(keys: [30: .a, 48: .b])
        let (edges, resync) = d.edges([
            InputEventRecord(sec: 1, usec: 0, type: 1, code: 30, value: 1),
            InputEventRecord(sec: 1, usec: 0, type: 0, code: 3, value: 0),   // SYN_DROPPED
            InputEventRecord(sec: 1, usec: 5, type: 1, code: 48, value: 1),
            InputEventRecord(sec: 1, usec: 6, type: 0, code: 0, value: 0),   // SYN_REPORT ends the drop
        ])
        XCTAssertTrue(edges.isEmpty)
        XCTAssertTrue(resync, "the key states must be read again")
        XCTAssertFalse(d.dropping)
        let after = d.edges([InputEventRecord(sec: 1, usec: 9, type: 1, code: 48, value: 0)])
        XCTAssertEqual(after.edges.map(\.button), [.b])
    }

    func testIoctlNumbersMatchTheKernelHeaders() {
        XCTAssertEqual(EvdevDecoder.EVIOCGNAME(256), 0x8100_4506)
        XCTAssertEqual(EvdevDecoder.EVIOCSCLOCKID, 0x4004_45a0)
        XCTAssertEqual(EvdevDecoder.EVIOCGKEY(96), 0x8060_4518)
        XCTAssertEqual(EVIOCGRAB_VALUE, 0x4004_4590)
    }

    func testMissingDeviceErrorSaysWhatToDo() {
        XCTAssertThrowsError(try EvdevButtons(path: "/nonexistent/event9", keys: [:])) { e in
            let error = e as? HardwareError
            XCTAssertEqual(error?.device, "/nonexistent/event9")
            XCTAssertTrue(error?.reason.contains("ENOENT") == true && error?.reason.contains("config.txt") == true, "\(e)")
        }
    }
}

/// Kernel timestamps on the monotonic time line; GPIO event types; error advice.
final class EventTimeTests: XCTestCase {
    let real: UInt64 = 1_750_000_000_000_000_000, mono: UInt64 = 86_400_000_000_000   // a day after boot

    func testMonotonicStampsPassThrough() {
        XCTAssertEqual(EventTime.monotonic(eventNs: mono - 5_000_000, realNowNs: real, monoNowNs: mono), mono - 5_000_000)
    }

    func testRealtimeStampsAreShifted() {
        XCTAssertEqual(EventTime.monotonic(eventNs: real - 5_000_000, realNowNs: real, monoNowNs: mono), mono - 5_000_000)
    }

    func testNsNeverTraps() {
        XCTAssertEqual(EventTime.ns(sec: -1, nsec: 5), 5)
        XCTAssertEqual(EventTime.ns(sec: .max, nsec: 0), .max)
        XCTAssertEqual(EventTime.ns(sec: 2, nsec: 3), 2_000_000_003)
    }

    func testEpollEventLayout() {
        #if arch(x86_64)
        XCTAssertEqual(MemoryLayout<epoll_event>.size, 12, "packed on x86-64")
        #else
        XCTAssertEqual(MemoryLayout<epoll_event>.size, 16)
        #endif
    }

    func testErrorsSayWhatToDo() {
        XCTAssertTrue(LinuxError.reason(errno: EACCES, kind: .gpio).contains("gpio group"))
        XCTAssertTrue(LinuxError.reason(errno: ENOENT, kind: .gpio).contains("config.txt"))
        XCTAssertTrue(LinuxError.reason(errno: EACCES, kind: .input).contains("input group"))
        XCTAssertTrue(LinuxError.reason(errno: EBUSY, kind: .gpio).contains("EBUSY"))
        XCTAssertThrowsError(try GPIOButtons(chip: "deskpet-no-such-chip", buttons: [.a: .offset(0)])) { e in
            XCTAssertTrue((e as? HardwareError)?.device.contains("deskpet-no-such-chip") == true, "\(e)")
        }
        XCTAssertThrowsError(try GPIOButtons(chip: nil, buttons: [.a: .offset(0)])) { e in
            XCTAssertTrue((e as? HardwareError)?.reason.contains("label") == true, "an offset needs a chip: \(e)")
        }
    }
}
