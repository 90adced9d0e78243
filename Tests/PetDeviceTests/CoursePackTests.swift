import Foundation
import XCTest
import PetCore
import PetDevice

/// Course content packs (docs/course-pack.md): the sample pack sim/course-66.json loads into the
/// outline the engine records, and every kind of bad pack is refused naming the file, the JSON
/// location and the problem.
final class CoursePackTests: XCTestCase {
    static var samplePath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("sim/course-66.json").path
    }

    func testTheSamplePackLoads() throws {
        let pack = try CoursePack.load(path: Self.samplePath)
        XCTAssertEqual(pack.id, "course-66")
        XCTAssertEqual(pack.weeks.map(\.week), Array(0...9))
        let outline = pack.outline
        XCTAssertEqual(outline.lessons.count, 20)
        XCTAssertEqual(outline.lessons.first, CourseLesson(id: "w0-welcome", week: 0))
        XCTAssertEqual(outline.lessons.filter { $0.prompt == .habit }.map(\.id), ["w1-tiny", "w4-second"])
        XCTAssertEqual(outline.lessons.filter { $0.prompt == .selfImage }.map(\.id), ["w2-identity", "w7-revisit"])
        XCTAssertNoThrow(try CourseRules.validate(outline))
    }

    static let good = """
    {"format": "deskpet-course", "formatVersion": 1, "id": "mini", "version": 2, "title": "Mini",
     "weeks": [{"week": 0, "title": "Notice", "lessons": [{"id": "a", "title": "A", "text": "Look."}]},
               {"week": 1, "title": "Act", "lessons": [{"id": "b", "title": "B", "text": "Do.", "prompt": "habit"}]}]}
    """

    func error(_ json: String) -> CoursePackError? {
        do {
            _ = try CoursePack.parse(Array(json.utf8), path: "p.json")
            XCTFail("expected an error for \(json)")
            return nil
        } catch {
            return error
        }
    }

    func testAMinimalPack() throws {
        let pack = try CoursePack.parse(Array(Self.good.utf8), path: "p.json")
        XCTAssertEqual(pack.outline, CourseOutline(pack: "mini", version: 2, lessons: [
            CourseLesson(id: "a", week: 0), CourseLesson(id: "b", week: 1, prompt: .habit),
        ]))
    }

    func testBadPacksNameWhereAndWhy() {
        func variant(_ from: String, _ to: String) -> String {
            XCTAssertTrue(Self.good.contains(from), from)
            return Self.good.replacingOccurrences(of: from, with: to)
        }
        let cases: [(String, String)] = [
            ("not json", ""),
            (variant(#""format": "deskpet-course""#, #""format": "other""#), "format"),
            (variant(#""formatVersion": 1"#, #""formatVersion": 2"#), "formatVersion"),
            (variant(#""id": "mini", "#, ""), "id"),
            (variant(#""id": "mini""#, #""id": "bad id""#), ""),
            (variant(#""title": "Mini""#, #""title": """#), "title"),
            (variant(#""week": 1"#, #""week": 0"#), "weeks[1].week"),
            (variant(#""week": 0"#, #""week": 1"#), "weeks[0].week"),
            (variant(#""week": 1"#, #""week": 60"#), "weeks[1].week"),
            (variant(#""id": "b""#, #""id": "a""#), "weeks[1].lessons[0].id"),
            (variant(#""prompt": "habit""#, #""prompt": "dance""#), "weeks[1].lessons[0].prompt"),
            (variant(#""text": "Do.""#, #""text": """#), "weeks[1].lessons[0].text"),
            (variant(#""text": "Do.""#, #""text": 5"#), "weeks[1].lessons[0].text"),
            (variant(#"{"id": "a", "title": "A", "text": "Look."}"#, ""), "weeks[0].lessons"),
        ]
        for (json, location) in cases {
            guard let e = error(json) else { continue }
            XCTAssertEqual(e.location, location, e.description)
            XCTAssertEqual(e.path, "p.json")
            XCTAssertTrue(e.description.hasPrefix("course pack p.json"), e.description)
        }
    }

    func testAMissingFileIsAClearError() {
        XCTAssertThrowsError(try CoursePack.load(path: "/nonexistent/pack.json")) { e in
            XCTAssertTrue("\(e)".contains("/nonexistent/pack.json"))
        }
    }
}
