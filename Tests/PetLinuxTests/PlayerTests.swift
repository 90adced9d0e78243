import XCTest
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
@testable import PetLinux
@testable import PetDevice

/// The pattern player's thread, with an output that records what it is told (zero-length steps:
/// nothing waits on time), and the sysfs PWM channel on a fake directory tree.
final class PlayerTests: XCTestCase {
    final class Recorder: PatternOutput, Sendable {
        let log = Mutex<[String]>([])
        func milliseconds(_ step: ToneStep) -> Int { 0 }
        func begin(_ step: ToneStep) throws(HardwareError) {
            if step.hz == 13 { throw HardwareError(device: "test line", operation: "set 1", reason: "broken") }
            log.withLock { $0.append("\(step.hz)") }
        }
        func halfPeriodNs(_ step: ToneStep) -> UInt64? { nil }
        func toggle() throws(HardwareError) {}
        func rest() throws(HardwareError) { log.withLock { $0.append("rest") } }
    }

    /// Spins (no sleep) until the player finished `n` patterns; a generous bound keeps a broken
    /// player from hanging the suite.
    func waitFinished<O>(_ p: PatternPlayer<O>, _ n: UInt64) {
        var spins = 0
        while p.finishedCount < n && spins < 50_000_000 { sched_yield(); spins += 1 }
    }

    func testPlaysEveryStepThenRests() throws {
        let r = Recorder()
        let p = try PatternPlayer(output: r)
        try p.play(TonePattern.steps(for: .nudge))
        waitFinished(p, 1)
        p.close()
        let log = r.log.withLock { $0 }
        // rest at start, the three steps, rest after the pattern, rest when the thread stops
        XCTAssertEqual(log, ["rest", "2000", "0", "2000", "rest", "rest"])
    }

    func testAFailureIsThrownByTheNextPlay() throws {
        let r = Recorder()
        let p = try PatternPlayer(output: r)
        try p.play([.note(13, 0), .note(440, 0)])
        waitFinished(p, 1)
        XCTAssertThrowsError(try p.play([.note(440, 0)])) { e in
            XCTAssertEqual((e as? HardwareError)?.reason, "broken")
        }
        waitFinished(p, 2)
        XCTAssertNoThrow(try p.play([]), "reported once")
        p.close()
        XCTAssertFalse(r.log.withLock { $0 }.contains("13"))
    }

    func testCloseIsIdempotentAndPlayAfterCloseDoesNothing() throws {
        let r = Recorder()
        let p = try PatternPlayer(output: r)
        p.close()
        p.close()
        XCTAssertNoThrow(try p.play([.note(440, 0)]))
        XCTAssertFalse(r.log.withLock { $0 }.contains("440"))
    }

    // MARK: - PWM in sysfs

    func makeFakeSysfs() throws -> String {
        let root = "/tmp/deskpet-pwm-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        for d in [root, "\(root)/pwmchip0", "\(root)/pwmchip0/pwm1", "\(root)/devices", "\(root)/devices/fe20c000.pwm"] {
            XCTAssertEqual(mkdir(d, 0o755), 0)
        }
        for f in ["export", "pwm1/enable", "pwm1/period", "pwm1/duty_cycle"] { try write("", "\(root)/pwmchip0/\(f)") }
        XCTAssertEqual(symlink("../devices/fe20c000.pwm", "\(root)/pwmchip0/device"), 0)
        return root
    }

    func write(_ s: String, _ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        _ = Array(s.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    func read(_ path: String) -> String {
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 64)
        let n = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return String(decoding: buf.prefix(max(0, n)), as: UTF8.self)
    }

    func testPWMChannelWritesPeriodDutyAndEnable() throws {
        let root = try makeFakeSysfs()
        defer { _ = system("rm -rf '\(root)'") }
        // found by its device name, as a board file names it
        let c = try PWMChannel(chip: "fe20c000.pwm", channel: 1, sysfs: root)
        XCTAssertEqual(c.path, "\(root)/pwmchip0/pwm1")
        XCTAssertEqual(read("\(c.path)/enable"), "0\n", "starts silent")
        try c.set(frequencyHz: 2000)
        XCTAssertEqual(read("\(c.path)/period"), "500000\n")
        XCTAssertEqual(read("\(c.path)/duty_cycle"), "250000\n")
        XCTAssertEqual(read("\(c.path)/enable"), "1\n")
        try c.disable()
        XCTAssertEqual(read("\(c.path)/enable"), "0\n")
        // and by its sysfs name
        XCTAssertEqual(try PWMChannel(chip: "pwmchip0", channel: 1, sysfs: root).path, c.path)
        XCTAssertThrowsError(try PWMChannel(chip: "pwmchip7", channel: 0, sysfs: root)) { e in
            XCTAssertTrue((e as? HardwareError)?.reason.contains("config.txt") == true, "\(e)")
        }
    }
}
