import Foundation
import XCTest
import TestSupport
@testable import PetDevice

/// The one file writer under failure: a full disk at every step is an error that leaves the old
/// file as it was and no temporary file behind; reads refuse what is not a regular file.
final class FileWriterTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("deskpet-writer") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    private func listing() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }
    private func mode(_ path: String) throws -> Int {
        try XCTUnwrap((FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue)
    }

    /// The real system calls with one replaced.
    private func failing(write: (@Sendable (Int32, UnsafeRawPointer, Int) -> Int)? = nil,
                         fsync: (@Sendable (Int32) -> Int32)? = nil,
                         close: (@Sendable (Int32) -> Int32)? = nil,
                         rename: (@Sendable (String, String) -> Int32)? = nil) -> FileWriteCalls {
        var c = FileWriteCalls.system
        if let write { c.write = write }
        if let fsync { c.fsync = fsync }
        if let close { c.close = close }
        if let rename { c.rename = rename }
        return c
    }

    func testWritingToDevFullIsENOSPC() throws {
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try XCTSkipIf(fd < 0, "/dev/full is not available")
        defer { close(fd) }
        XCTAssertEqual(writeAll(fd, Array("a small export".utf8)), ENOSPC)
        XCTAssertEqual(writeAll(fd, []), 0, "nothing to write is not a failure")
    }

    func testAFullDiskAtEveryStepIsAnErrorAndTheOldFileStays() throws {
        let path = dir.appendingPathComponent("export.json").path
        try writeFile(path, Array("the previous export".utf8))
        let enospc: @Sendable () -> Void = { errno = ENOSPC }
        let cases: [(String, FileWriteCalls)] = [
            // The disk fills after a few bytes: a short write, then ENOSPC.
            ("write", failing(write: { fd, p, n in
                if n > 3 { return Glibc.write(fd, p, 3) }
                enospc(); return -1
            })),
            // A write that makes no progress at all.
            ("write", failing(write: { _, _, _ in 0 })),
            ("fsync", failing(fsync: { _ in enospc(); return -1 })),
            // The unchecked-fclose case: the data is only refused when the file is closed.
            ("close", failing(close: { fd in _ = Glibc.close(fd); enospc(); return -1 })),
            ("rename", failing(rename: { _, _ in enospc(); return -1 })),
        ]
        for (step, calls) in cases {
            XCTAssertThrowsError(try writeFile(path, Array("a new export, longer than the old one".utf8), calls: calls), step) { error in
                let e = error as? FileError
                XCTAssertEqual(e?.path, path, step)
                XCTAssertEqual(e?.code, ENOSPC, step)
                XCTAssertTrue(e?.message.contains("No space left on device") ?? false, "\(step): \(e?.message ?? "")")
            }
            XCTAssertEqual(readFile(path), Array("the previous export".utf8), "\(step): the old file must be unchanged")
            XCTAssertEqual(try listing(), ["export.json"], "\(step): no temporary file may be left")
        }
    }

    func testShortWritesAndInterruptsStillWriteEverything() throws {
        let path = dir.appendingPathComponent("frame.png").path
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let interrupted = ManagedFlag()
        let calls = failing(write: { fd, p, n in
            if !interrupted.get() { interrupted.set(); errno = EINTR; return -1 }
            return Glibc.write(fd, p, min(n, 97))
        })
        try writeFile(path, bytes, calls: calls)
        XCTAssertEqual(readFile(path), bytes)
    }

    func testTheFolderIsSyncedAfterTheRename() throws {
        let path = dir.appendingPathComponent("keys").path
        let synced = ManagedCounter()
        let calls = failing(fsync: { fd in synced.add(); return Glibc.fsync(fd) })
        try writeFile(path, [1, 2, 3], calls: calls)
        XCTAssertEqual(synced.value, 2, "the file and then its folder")
    }

    func testPersonalFilesAre0600WhateverTheUmask() throws {
        let old = umask(0)
        defer { umask(old) }
        let path = dir.appendingPathComponent("export.json").path
        try writeFile(path, [1])
        XCTAssertEqual(try mode(path), 0o600)
        try writeFile(path, [2], mode: 0o644)
        XCTAssertEqual(try mode(path), 0o644, "a README picture may be readable by all")
    }

    func testPrivateFoldersAre0700EvenWhenTheyExisted() throws {
        let folder = dir.appendingPathComponent("data/deskpet").path
        try makePrivateDirectory(folder)
        XCTAssertEqual(try mode(folder), 0o700)
        chmod(folder, 0o755)
        try makePrivateDirectory(folder)
        XCTAssertEqual(try mode(folder), 0o700)
        let file = dir.appendingPathComponent("plain").path
        try writeFile(file, [1])
        XCTAssertThrowsError(try makePrivateDirectory(file))
    }

    func testReadsRefuseAFIFOWithoutBlockingAndDevicesAndFolders() throws {
        let fifo = dir.appendingPathComponent("pack.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Nobody writes to the FIFO: a blocking open would hang here forever.
        XCTAssertThrowsError(try readRegularFile(fifo)) { error in
            XCTAssertEqual((error as? FileError)?.message, "is not a regular file (it is a FIFO)")
        }
        XCTAssertThrowsError(try readRegularFile("/dev/zero")) { error in
            XCTAssertEqual((error as? FileError)?.message, "is not a regular file (it is a character device)")
        }
        XCTAssertThrowsError(try readRegularFile(dir.path)) { error in
            XCTAssertEqual((error as? FileError)?.message, "is not a regular file (it is a folder)")
        }
        XCTAssertThrowsError(try readRegularFile(dir.appendingPathComponent("missing").path)) { error in
            XCTAssertEqual((error as? FileError)?.code, ENOENT)
        }
    }

    func testTheSizeLimitIsExact() throws {
        let path = dir.appendingPathComponent("pack.json").path
        let limit = 1 << 20
        try writeFile(path, [UInt8](repeating: 32, count: limit))
        XCTAssertEqual(try readRegularFile(path, limit: limit).count, limit)
        for extra in [1, 5, 16_384] {
            try writeFile(path, [UInt8](repeating: 32, count: limit + extra))
            XCTAssertThrowsError(try readRegularFile(path, limit: limit)) { error in
                XCTAssertEqual((error as? FileError)?.message, "is larger than \(limit) bytes")
            }
        }
        // procfs reports size 0: read until the end, limit checked on what arrives.
        XCTAssertNotNil(readFile("/proc/self/status"))
        XCTAssertNil(readFile("/proc/self/status", limit: 10))
    }

    func testSafePathComponents() {
        XCTAssertEqual(safePathComponent(".."), "unnamed")
        XCTAssertEqual(safePathComponent("."), "unnamed")
        XCTAssertEqual(safePathComponent(""), "unnamed")
        XCTAssertEqual(safePathComponent("...", fallback: "scenario"), "scenario")
        XCTAssertEqual(safePathComponent("../../etc/passwd"), "_.._etc_passwd")
        XCTAssertEqual(safePathComponent("a/b"), "a_b")
        XCTAssertEqual(safePathComponent("a\u{0}b\u{1B}c\u{7}"), "a_b_c_")
        XCTAssertEqual(safePathComponent(".hidden"), "hidden")
        XCTAssertEqual(safePathComponent("-rf"), "rf")
        XCTAssertEqual(safePathComponent("habit-week ✓"), "habit-week ✓")
        for s in ["..", ".", "", "/", "a/../..", "\u{0}", "...scenario", "\n..\n"] {
            let c = safePathComponent(s)
            XCTAssertFalse(c.isEmpty || c == "." || c == ".." || c.contains("/"), "\(s.debugDescription) -> \(c)")
        }
    }
}

/// Small thread-safe cells for the test doubles (the write seam takes @Sendable closures).
final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var v = false
    func get() -> Bool { lock.lock(); defer { lock.unlock() }; return v }
    func set() { lock.lock(); v = true; lock.unlock() }
}

final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var v = 0
    var value: Int { lock.lock(); defer { lock.unlock() }; return v }
    func add() { lock.lock(); v += 1; lock.unlock() }
}
