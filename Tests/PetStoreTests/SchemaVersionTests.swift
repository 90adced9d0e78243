// SchemaVersionTests.swift — a journal whose user_version is negative, huge or newer is refused
// with a typed error (docs/reliability.md: `PRAGMA user_version=-1` trapped in migrate).

import Foundation
import XCTest
@testable import PetStore

final class SchemaVersionTests: StoreTestCase {
    private func journal(version: String) throws -> String {
        let file = path("v\(version).sqlite")
        let store = try EventStore(path: file)
        try store.append(command: nil, events: [Sample.tick(day: 1)])
        store.close()
        try sqliteCLI(file, "PRAGMA user_version = \(version);")
        return file
    }

    func testNegativeSchemaVersionIsATypedRefusal() throws {
        for v in ["-1", "-2147483648"] {
            let file = try journal(version: v)
            let before = try fingerprint(file)
            XCTAssertThrowsError(try EventStore(path: file)) { error in
                guard case let .corrupt(p, detail)? = error as? StoreError else { return XCTFail("\(error)") }
                XCTAssertEqual(p, file)
                XCTAssertTrue(detail.contains("user_version"), detail)
                XCTAssertTrue(detail.contains(v), detail)
            }
            XCTAssertEqual(try fingerprint(file).bytes, before.bytes, "the file is left untouched")
        }
    }

    func testHugeAndNewerSchemaVersionsAreRefusedAsNewer() throws {
        for v in ["2147483647", "\(EventStore.supportedSchemaVersion + 1)"] {
            let file = try journal(version: v)
            assertThrows(.newerSchema(path: file, found: Int(v)!, supported: EventStore.supportedSchemaVersion)) {
                try EventStore(path: file)
            }
        }
    }
}
