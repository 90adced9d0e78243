import Foundation
import XCTest
import TestSupport
@testable import PetDevice

/// Course packs are strict JSON with line:column in errors, an exact size limit and regular
/// files only; the catalogue tool validates what it embeds.
final class StrictInputTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("deskpet-strict") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    static let good = """
    {"format": "deskpet-course", "formatVersion": 1, "id": "mini", "version": 2, "title": "Mini",
     "weeks": [{"week": 0, "title": "Notice", "lessons": [{"id": "a", "title": "A", "text": "Look."}]},
               {"week": 1, "title": "Act", "lessons": [{"id": "b", "title": "B", "text": "Do.", "prompt": "habit"}]}]}
    """

    func packError(_ json: String) -> CoursePackError? {
        do { _ = try CoursePack.parse(Array(json.utf8), path: "p.json"); return nil } catch { return error }
    }

    func testStrictJSONErrorsSayLineAndColumn() {
        /// Line and byte column of the first `marker` in `text` (the marker is where the error is).
        func position(of marker: String, in text: String) -> (Int, Int) {
            let bytes = Array(text.utf8), m = Array(marker.utf8)
            var i = 0
            while i + m.count <= bytes.count, Array(bytes[i..<(i + m.count)]) != m { i += 1 }
            let before = bytes[..<i]
            let line = before.filter { $0 == 0x0A }.count + 1
            let lineStart = (before.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
            return (line, i - lineStart + 1)
        }
        let cases: [(String, String, String, Int)] = [
            // (what is replaced, by what, where the error must point: the first place of this text)
            (#"{"id": "a", "title": "A", "text": "Look."}]"#, #"{"id": "a", "title": "A", "text": "Look.",}]"#, ".\",}", 3),
            (#""text": "Do.", "prompt": "habit"}]}]}"#, #""text": "Do.", "prompt": "habit"}],}]}"#, "],}", 2),
            (#""id": "mini", "version": 2"#, #""id": "mini", "ID": "maxi", "version": 2"#, #""ID""#, 0),
            (#""week": 0, "title": "Notice""#, #""week": 0, "WEEK": 0, "title": "Notice""#, #""WEEK""#, 0),
            ("]}]}", "]}]} x", "} x", 2),
            (#""Mini""#, "'Mini'", "'Mini'", 0),
        ]
        for (from, to, marker, offset) in cases {
            XCTAssertTrue(Self.good.contains(from), from)
            var text = Self.good.replacingOccurrences(of: from, with: to)
            let (line, markerColumn) = position(of: marker, in: text)
            let column = markerColumn + offset
            text = text.replacingOccurrences(of: "\"ID\"", with: "\"id\"").replacingOccurrences(of: "\"WEEK\"", with: "\"week\"")
            let e = packError(text)
            XCTAssertEqual(e?.line, line, "\(to): \(e?.description ?? "accepted")")
            XCTAssertEqual(e?.column, column, "\(to): \(e?.description ?? "accepted")")
            XCTAssertTrue(e?.description.contains("line \(line):\(column)") ?? false, e?.description ?? "")
        }
        XCTAssertTrue(packError(Self.good.replacingOccurrences(of: "\"id\": \"mini\", \"version\": 2",
                                                                with: "\"id\": \"mini\", \"id\": \"maxi\", \"version\": 2"))?
                        .problem.contains("appears twice") ?? false)
        XCTAssertNotNil(packError("\u{FEFF}" + Self.good))
        XCTAssertNotNil(packError(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)), "too deep")
    }

    func testANonIntegerWeekHasALocation() {
        for bad in ["0.5", "1e0", "0.0"] {
            let e = packError(Self.good.replacingOccurrences(of: #""week": 0"#, with: "\"week\": \(bad)"))
            XCTAssertEqual(e?.location, "weeks[0].week", bad)
            XCTAssertEqual(e?.line, 2, bad)
            XCTAssertEqual(e?.column, 21, bad)
            XCTAssertTrue(e?.problem.contains("whole number") ?? false, e?.description ?? "")
        }
        // A wrong type also says where.
        let e = packError(Self.good.replacingOccurrences(of: #""text": "Do.""#, with: #""text": 5"#))
        XCTAssertEqual(e?.location, "weeks[1].lessons[0].text")
        XCTAssertEqual(e?.line, 3)
    }

    func testTheSizeLimitIsExactlyOneMiB() throws {
        let path = dir.appendingPathComponent("pack.json").path
        let body = Array(Self.good.utf8)
        // Padded with spaces (valid JSON whitespace) to exactly the limit: accepted.
        try writeFile(path, body + [UInt8](repeating: 32, count: CoursePack.maxFileBytes - body.count))
        XCTAssertNoThrow(try CoursePack.load(path: path))
        for extra in [1, 7] {
            try writeFile(path, body + [UInt8](repeating: 32, count: CoursePack.maxFileBytes - body.count + extra))
            XCTAssertThrowsError(try CoursePack.load(path: path)) { e in
                XCTAssertTrue("\(e)".contains("larger than 1048576 bytes"), "\(e)")
            }
            XCTAssertNotNil(packError(String(decoding: body + [UInt8](repeating: 32, count: CoursePack.maxFileBytes - body.count + extra), as: UTF8.self)))
        }
    }

    func testAFIFOOrADeviceIsRefusedWithoutBlocking() throws {
        let fifo = dir.appendingPathComponent("pack.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try CoursePack.load(path: fifo)) { e in XCTAssertTrue("\(e)".contains("FIFO"), "\(e)") }
        XCTAssertThrowsError(try CoursePack.load(path: "/dev/zero")) { e in
            XCTAssertTrue("\(e)".contains("character device"), "\(e)")
        }
    }

    func testTheCatalogueToolValidatesWhatItEmbeds() throws {
        let tool = Repository.root.appendingPathComponent("tools/embed-catalogue.py").path
        let source = try String(contentsOf: Repository.root.appendingPathComponent("content/catalogue.json"), encoding: .utf8)
        let ok = try runTool("python3", [tool, "--validate", Repository.root.appendingPathComponent("content/catalogue.json").path])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let cases: [(String, String, String)] = [
            (#""price": 5,"#, #""price": -5,"#, "outside"),
            (#""price": 5,"#, #""price": 99999999999,"#, "outside"),
            (#""price": 5,"#, #""price": 5.5,"#, "whole number"),
            (#""id": "cookie""#, #""id": "apple""#, "used twice"),
            (#""kind": "food""#, #""kind": "weapon""#, "unknown kind"),
            (#""price": 5,"#, #""price": 5, "price": 6,"#, "appears twice"),
        ]
        for (from, to, expected) in cases {
            XCTAssertTrue(source.contains(from), from)
            let file = dir.appendingPathComponent("cat.json")
            try source.replacingOccurrences(of: from, with: to).write(to: file, atomically: true, encoding: .utf8)
            let r = try runTool("python3", [tool, "--validate", file.path])
            XCTAssertEqual(r.status, 1, to)
            XCTAssertTrue(r.stderr.contains(expected), "\(to): \(r.stderr)")
        }
    }
}
