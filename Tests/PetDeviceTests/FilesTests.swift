import Foundation
import XCTest
import TestSupport
@testable import PetDevice

/// The file helpers' one home: atomic writes, checked at every step, nothing left behind.
final class FilesTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("deskpet-files") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    func testAWriteReplacesTheFileWholeAndLeavesNoTemporaryFile() throws {
        let path = dir.appendingPathComponent("export.json").path
        try writeFile(path, Array("old contents that are longer".utf8))
        try writeFile(path, Array("new".utf8), mode: 0o600)
        XCTAssertEqual(readFile(path), Array("new".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["export.json"])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600, "owner-only for personal files")
    }

    func testAFailedWriteIsAnErrorNamingThePathAndChangesNothing() throws {
        let path = dir.appendingPathComponent("missing/folder/x.png").path
        XCTAssertThrowsError(try writeFile(path, [1, 2, 3])) { error in
            XCTAssertEqual((error as? FileError)?.path, path)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testReadingRefusesTooLargeAndNonUTF8Files() throws {
        let path = dir.appendingPathComponent("f").path
        try writeFile(path, [UInt8](repeating: 65, count: 100))
        XCTAssertNil(readFile(path, limit: 99))
        XCTAssertEqual(readFile(path, limit: 100)?.count, 100)
        try writeFile(path, [0xFF, 0xFE])
        XCTAssertThrowsError(try readTextFile(path)) { error in
            XCTAssertEqual((error as? FileError)?.message, "is not UTF-8 text")
        }
    }
}
