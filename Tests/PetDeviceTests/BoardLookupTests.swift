import Foundation
import XCTest
import TestSupport
import PetCore
import PetStore
import PetUI
@testable import PetDevice

/// One board lookup for the daemon, the simulator and the hardware checker: a path or a name; a
/// name in the search path's folders, in order, before the built-in boards.
final class BoardLookupTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("board-lookup") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    func folder(_ name: String) throws -> String {
        let p = dir.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }

    func boardText(_ name: String, description: String) -> String {
        Board.builtInTexts[0].text
            .replacingOccurrences(of: "name = sim-240x240", with: "name = \(name)")
            .replacingOccurrences(of: "description = Simulator: 240x240 colour display (ST7789), buttons A B C",
                                  with: "description = \(description)")
    }

    func testANameIsTheFirstFolderThatHasItThenABuiltInBoard() throws {
        let first = try folder("first"), second = try folder("second")
        try boardText("desk", description: "second").write(toFile: second + "/desk.board", atomically: true, encoding: .utf8)
        var b = try BoardLookup.load("desk", searchPath: [first, second])
        XCTAssertEqual(b.description, "second")
        try boardText("desk", description: "first").write(toFile: first + "/desk.board", atomically: true, encoding: .utf8)
        b = try BoardLookup.load("desk", searchPath: [first, second])
        XCTAssertEqual(b.description, "first", "earlier folders win")
        XCTAssertEqual(BoardLookup.files(searchPath: [first, second]).map(\.path), [first + "/desk.board"], "and hide later ones")
        // A folder's file of a built-in board's name is the board the folder has.
        try boardText("sim-240x240", description: "mine").write(toFile: first + "/sim-240x240.board", atomically: true, encoding: .utf8)
        XCTAssertEqual(try BoardLookup.load("sim-240x240", searchPath: [first]).description, "mine")
        // Not in any folder: the built-in board.
        XCTAssertEqual(try BoardLookup.load("sim-oled-128x64", searchPath: [first, second]).profile, .oled128)
    }

    func testAnUnknownNameSaysWhereItLooked() {
        XCTAssertThrowsError(try BoardLookup.load("nope", searchPath: ["/no/such/a", "/no/such/b"])) { e in
            XCTAssertEqual(e as? BoardLookup.Failure, .noSuchBoard(name: "nope", searched: ["/no/such/a", "/no/such/b"]))
            XCTAssertTrue("\(e)".contains("/no/such/a, /no/such/b"), "\(e)")
        }
        XCTAssertThrowsError(try BoardLookup.load("", searchPath: [])) { e in
            XCTAssertEqual(e as? BoardLookup.Failure, .noSuchBoard(name: "", searched: []))
        }
    }

    func testAPathIsReadAsItIsOrFromTheBaseFilesFolder() throws {
        let boards = try folder("b")
        try boardText("desk", description: "path").write(toFile: boards + "/desk.board", atomically: true, encoding: .utf8)
        XCTAssertEqual(try BoardLookup.load(boards + "/desk.board").description, "path")
        XCTAssertEqual(try BoardLookup.load("b/desk.board", relativeTo: dir.path + "/x.scenario").description, "path")
        XCTAssertEqual(try BoardLookup.load(boards + "/desk.board", relativeTo: "/elsewhere/x.scenario").description, "path",
                       "an absolute path ignores the base")
        // A name with a slash is a path, never looked up in the folders.
        XCTAssertThrowsError(try BoardLookup.load("b/desk", searchPath: [dir.path])) { e in
            guard case .unreadable(let f)? = e as? BoardLookup.Failure else { return XCTFail("\(e)") }
            XCTAssertEqual(f.path, "b/desk")
        }
        XCTAssertNil(BoardLookup.file(named: "../b/desk", searchPath: [dir.path]))
    }

    func testUnreadableAndInvalidFilesSayWhich() throws {
        let boards = try folder("bad")
        try "name = bad\n[display]\ncontroller = st7789\n".write(toFile: boards + "/bad.board", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try BoardLookup.load("bad", searchPath: [boards])) { e in
            guard case .invalid(let b)? = e as? BoardLookup.Failure else { return XCTFail("\(e)") }
            XCTAssertEqual(b.key, "display.bus")
        }
        // A folder named like a board file is not a file.
        try FileManager.default.createDirectory(atPath: boards + "/dir.board", withIntermediateDirectories: true)
        XCTAssertThrowsError(try BoardLookup.load("dir", searchPath: [boards])) { e in
            guard case .unreadable(let f)? = e as? BoardLookup.Failure else { return XCTFail("\(e)") }
            XCTAssertTrue(f.message.contains("folder"), f.message)
        }
        // Larger than a board file can be.
        try String(repeating: "#", count: BoardParser.maxFileBytes + 1).write(toFile: boards + "/big.board", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try BoardLookup.load("big", searchPath: [boards])) { e in
            guard case .unreadable? = e as? BoardLookup.Failure else { return XCTFail("\(e)") }
        }
    }
}
