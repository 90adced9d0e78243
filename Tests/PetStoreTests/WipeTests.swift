import Foundation
import XCTest
@testable import PetStore

/// Factory reset (docs/export.md): everything is deleted and nothing readable is left in the files.
final class WipeTests: StoreTestCase {
    func testWipeLeavesNoTraceOnDisk() throws {
        let p = path("wipe.sqlite")
        let store = try EventStore(path: p)
        for i in 0..<50 {
            try store.append(command: Sample.command("c\(i)"),
                             events: [Sample.completed("Secret diary entry number \(i)", command: "c\(i)")])
        }
        try store.saveSnapshot(seq: try store.lastSeq(), format: 1, body: Array("Secret snapshot".utf8))
        try store.wipe()
        XCTAssertEqual(try store.eventCount(), 0)
        XCTAssertNil(try store.command(id: "c1"))
        XCTAssertNil(try store.latestSnapshot(format: 1))
        XCTAssertEqual(try sqliteCLI(p, "PRAGMA integrity_check"), "ok")
        for file in [p, p + "-wal"] {
            guard let bytes = FileManager.default.contents(atPath: file) else { continue }
            XCTAssertNil(bytes.range(of: Data("Secret".utf8)), "\(file) still holds deleted text")
        }
        // The store goes on working after the wipe.
        try store.append(command: nil, events: [Sample.tick(day: 1)])
        XCTAssertEqual(try store.lastSeq(), 1)
    }
}
