import Foundation
import XCTest
import PetLink
import TestSupport

/// The version is written in one place (Sources/PetWire/Version.swift); `deskpet`, `deskpetctl` and
/// `deskpet-sim` print it, and tools/build-deb.sh reads that line for the package's version.
final class VersionTests: XCTestCase {
    func binary(_ name: String) throws -> String {
        var d = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while d.pathExtension == "xctest" || d.lastPathComponent == "MacOS" || d.lastPathComponent == "Contents" {
            d.deleteLastPathComponent()
        }
        let path = d.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            XCTFail("\(name) is not built next to the tests (\(d.path)); swift build --build-tests builds it")
            throw CocoaError(.fileNoSuchFile)
        }
        return path
    }

    func testEveryProgramPrintsTheOneVersion() throws {
        let dir = try makeTemporaryDirectory("deskpet-version")
        defer { removeTemporaryDirectory(dir) }
        for name in ["deskpet", "deskpetctl", "deskpet-sim"] {
            let r = try runTool(try binary(name), ["--version"], cwd: dir)
            XCTAssertEqual(r.status, 0, "\(name): \(r.output)")
            XCTAssertEqual(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "\(name) \(DeskPetVersion.string)")
        }
    }

    /// build-deb.sh takes the version with a sed pattern on this exact line shape; a version it could
    /// not read (or a reshaped line) must fail here, not in packaging.
    func testTheSourceLineIsTheOnePackagingReads() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/PetWire/Version.swift").standardized
        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.split(separator: "\n").filter { $0.contains("static let string") }
        XCTAssertEqual(lines.count, 1, "one version line")
        let expected = "    public static let string = \"\(DeskPetVersion.string)\""
        XCTAssertEqual(lines.first.map(String.init), expected)
        // Debian's version rules for what build-deb.sh accepts: starts with a digit, then [0-9A-Za-z.+~-].
        let v = DeskPetVersion.string
        XCTAssertTrue(v.first?.isNumber == true, v)
        XCTAssertTrue(v.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".+~-".contains($0)) }, v)
    }
}
