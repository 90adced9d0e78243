import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import PetLinux
import PetDevice

/// sd_notify over a datagram socket the test creates and reads (a path, and an abstract name).
final class SystemdNotifyTests: XCTestCase {
    /// A bound AF_UNIX datagram socket; returns its fd.
    func bind(_ name: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        var addr = try XCTUnwrap(SystemdNotify.address(name))
        let len = socklen_t(MemoryLayout<sa_family_t>.size + SystemdNotify.pathLength(name))
        let r = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, len) } }
        XCTAssertEqual(r, 0, "bind \(name): \(String(cString: strerror(errno)))")
        return fd
    }

    func receive(_ fd: Int32) -> String? {
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return n < 0 ? nil : String(decoding: buf.prefix(n), as: UTF8.self)
    }

    func testSendsToAPathSocket() throws {
        let path = "/tmp/deskpet-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        defer { unlink(path) }
        let fd = try bind(path)
        defer { close(fd) }
        let n = SystemdNotify(environment: ["NOTIFY_SOCKET": path])
        XCTAssertTrue(n.isEnabled)
        try n.send([.ready, .status("journal open,\nlink listening")])
        XCTAssertEqual(receive(fd), "READY=1\nSTATUS=journal open, link listening\n")
        try n.send(.watchdog)
        XCTAssertEqual(receive(fd), "WATCHDOG=1\n")
        try n.send(.stopping)
        XCTAssertEqual(receive(fd), "STOPPING=1\n")
    }

    func testSendsToAnAbstractSocket() throws {
        let name = "@deskpet-notify-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = try bind(name)
        defer { close(fd) }
        try SystemdNotify(environment: ["NOTIFY_SOCKET": name]).send(.ready)
        XCTAssertEqual(receive(fd), "READY=1\n")
    }

    func testOffWithoutNotifySocket() throws {
        let n = SystemdNotify(environment: [:])
        XCTAssertFalse(n.isEnabled)
        XCTAssertNoThrow(try n.send(.ready))
    }

    func testBadOrMissingSocketIsAnError() {
        XCTAssertThrowsError(try SystemdNotify(environment: ["NOTIFY_SOCKET": "relative/path"]).send(.ready))
        XCTAssertThrowsError(try SystemdNotify(environment: ["NOTIFY_SOCKET": "/tmp/deskpet-nobody-listens-\(getpid())"]).send(.ready)) { e in
            XCTAssertTrue((e as? HardwareError)?.operation.contains("READY=1") == true, "\(e)")
        }
    }

    func testWatchdogInterval() {
        XCTAssertEqual(SystemdNotify(environment: ["WATCHDOG_USEC": "5000000"]).watchdogIntervalUs, 5_000_000)
        XCTAssertEqual(SystemdNotify(environment: ["WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "\(getpid())"]).watchdogIntervalUs, 5_000_000)
        XCTAssertNil(SystemdNotify(environment: ["WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "1"]).watchdogIntervalUs, "meant for another process")
        XCTAssertNil(SystemdNotify(environment: ["WATCHDOG_USEC": "0"]).watchdogIntervalUs)
    }

    func testLogLines() {
        let journal = SystemLog(journal: true, threshold: .info)
        XCTAssertEqual(journal.format(.warning, "panel write failed"), "<4>panel write failed")
        XCTAssertEqual(journal.format(.info, "two\nlines"), "<6>two lines")
        XCTAssertNil(journal.format(.debug, "chatter"), "below the threshold")
        let terminal = SystemLog(journal: false, threshold: .debug)
        XCTAssertEqual(terminal.format(.error, "journal failed"), "deskpet: error: journal failed")
        XCTAssertEqual(terminal.format(.debug, "x"), "deskpet: debug: x")
    }

    func testJournalStreamMustBeStderr() {
        XCTAssertTrue(SystemLog.stderrIsJournal(journalStream: "8:12345", device: 8, inode: 12345))
        XCTAssertFalse(SystemLog.stderrIsJournal(journalStream: "8:12345", device: 8, inode: 999), "stderr was redirected")
        XCTAssertFalse(SystemLog.stderrIsJournal(journalStream: nil, device: 8, inode: 12345))
        XCTAssertFalse(SystemLog.stderrIsJournal(journalStream: "garbage", device: 8, inode: 12345))
    }
}
