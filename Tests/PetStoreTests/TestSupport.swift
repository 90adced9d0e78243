// TestSupport.swift — temp directories, the sqlite3 CLI, file snapshots.

import Foundation
import XCTest
import TestSupport
@testable import PetStore

/// Base class giving each test its own temporary directory.
class StoreTestCase: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("petstore-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Exact bytes of a file plus the names in its directory, to prove a
    /// refused open changed nothing (no writes, no truncation, no leftovers).
    func fingerprint(_ path: String) throws -> (bytes: Data, listing: [String]) {
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path), "cannot read \(path)")
        let listing = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        return (bytes, listing)
    }

    /// Runs `/usr/bin/sqlite3 -batch <path> <sql>` and returns trimmed stdout.
    @discardableResult
    func sqliteCLI(_ path: String, _ sql: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try runTool("/usr/bin/sqlite3", ["-batch", path, sql])
        XCTAssertEqual(r.status, 0, "sqlite3 failed: \(r.stderr)", file: file, line: line)
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Asserts that `body` throws exactly `expected`.
    func assertThrows<T>(_ expected: StoreError, file: StaticString = #filePath, line: UInt = #line,
                         _ body: () throws -> T) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual(error as? StoreError, expected, "got \(error)", file: file, line: line)
        }
    }
}

/// Sample rows shared by the tests.
enum Sample {
    static func command(_ id: String, at: Int64 = 1_700_000_000) -> CommandRow {
        CommandRow(id: id, at: at, kind: "task.complete", reply: #"{"ok":true,"coins":5}"#)
    }

    static func completed(_ title: String, command: String?, coins: Int = 5, day: Int = 1) -> EventRow {
        EventRow(at: 1_700_000_000, day: day, type: "task.completed", commandID: command,
                 coinsDelta: coins, xpDelta: 10, reason: coins == 0 ? nil : "task reward",
                 payload: #"{"title":"\#(title)"}"#)
    }

    static func tick(day: Int) -> EventRow {
        EventRow(at: 1_700_086_400, day: day, type: "day.started", payload: #"{"day":\#(day)}"#)
    }
}
