import Foundation
import XCTest
import TestSupport

/// Where things live (docs/architecture.md): checks over the repository's own files.
final class RepositoryLayoutTests: XCTestCase {
    /// PetUI hands out canvases; a panel controller's RAM layout (SSD1306 pages, SSD1680 rows,
    /// big-endian RGB565) is its driver's, in Sources/PetDevice/Drivers.
    func testPanelRAMLayoutsLiveWithTheirDrivers() throws {
        let ui = try repositoryFiles(under: "Sources/PetUI", extensions: ["swift"])
        XCTAssertGreaterThan(ui.count, 20, "the scan found PetUI")
        for (path, text) in ui {
            for name in ["ssd1306Bytes", "ssd1680Bytes", "PanelBytes", "PixelFormat", "PackedRect", "decodeSSD"] {
                XCTAssertFalse(text.contains(name), "\(path) names \(name): a panel's RAM layout belongs in PetDevice/Drivers")
            }
        }
        let drivers = Set(try repositoryFiles(under: "Sources/PetDevice/Drivers", extensions: ["swift"]).map(\.path))
        for f in ["PanelFormat", "ST7789RAM", "SSD1306RAM", "SSD1680RAM"] {
            XCTAssertTrue(drivers.contains("Sources/PetDevice/Drivers/\(f).swift"), f)
        }
    }

    /// The folders whose text is checked for citations.
    static let citing = ["Sources", "Tests", "docs", "tools", "sim", "README.md", "boards", "packaging"]

    /// Where a line cites a document outside the repository: the project's spec by section, or an
    /// issue by number (nil: it cites nothing outside). A § is fine in a file that names the public
    /// standard or datasheet it counts in (RFC 6455 §5.5, the SSD1306 datasheet §10).
    static func outsideCitation(_ line: Substring, fileNamesAStandard: Bool) -> String? {
        let spec = "SP" + "EC"   // written apart so that this file does not cite anything itself
        if line.range(of: "\\b\(spec)\\b", options: .regularExpression) != nil { return spec }
        if let r = line.range(of: "[Ii]ssue [0-9]+", options: .regularExpression) { return String(line[r]) }
        if !fileNamesAStandard, let r = line.range(of: "§[0-9]", options: .regularExpression) { return String(line[r]) }
        return nil
    }

    /// Code and docs cite the repository's own docs/: no spec sections, no issue numbers.
    func testNothingCitesADocumentOutsideTheRepository() throws {
        var found: [String] = [], scanned = 0
        for folder in Self.citing {
            for (path, text) in try repositoryFiles(under: folder, extensions: []) {
                scanned += 1
                let standard = text.contains("RFC ") || text.lowercased().contains("datasheet")
                for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    if let what = Self.outsideCitation(line, fileNamesAStandard: standard) { found.append("\(path):\(n + 1): \(what)") }
                }
            }
        }
        XCTAssertGreaterThan(scanned, 300, "the scan found the repository")
        XCTAssertEqual(found, [], "cite a page of docs/ (and move the rule it relies on there)")
    }

    /// The check above is not vacuous: it catches each form.
    func testTheCitationCheckCatchesEachForm() {
        let spec = "SP" + "EC"
        XCTAssertNotNil(Self.outsideCitation("/// Limits of \(spec) §2.", fileNamesAStandard: false))
        XCTAssertNotNil(Self.outsideCitation("// (iss" + "ue 10 item 9)", fileNamesAStandard: false))
        XCTAssertNotNil(Self.outsideCitation("# Iss" + "ue 11, finding 4", fileNamesAStandard: false))
        XCTAssertNotNil(Self.outsideCitation("the bonus (§4)", fileNamesAStandard: false))
        XCTAssertNil(Self.outsideCitation("a control frame over 125 bytes (§5.5)", fileNamesAStandard: true))
        XCTAssertNil(Self.outsideCitation("/// Limits of docs/domain.md#tasks.", fileNamesAStandard: false))
        XCTAssertNil(Self.outsideCitation("let specification = 1; issues = 3", fileNamesAStandard: false))
    }

    /// Every docs/ page (and heading anchor) that code and docs cite exists.
    func testEveryCitedDocsPageExists() throws {
        var headings: [String: Set<String>] = [:]
        for (path, text) in try repositoryFiles(under: "docs", extensions: ["md"]) {
            headings[path] = Set(text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { Self.anchor(String($0.drop { $0 == "#" })) })
        }
        XCTAssertNotNil(headings["docs/architecture.md"])
        var missing: [String] = []
        for folder in Self.citing {
            for (path, text) in try repositoryFiles(under: folder, extensions: []) {
                var rest = text[...]
                while let r = rest.range(of: "docs/[A-Za-z0-9_/-]+\\.md(#[a-z0-9-]+)?", options: .regularExpression) {
                    let cite = String(rest[r]); rest = rest[r.upperBound...]
                    let parts = cite.split(separator: "#", maxSplits: 1).map(String.init)
                    guard let anchors = headings[parts[0]] else { missing.append("\(path): \(cite)"); continue }
                    if parts.count == 2, !anchors.contains(parts[1]) { missing.append("\(path): \(cite)") }
                }
            }
        }
        XCTAssertEqual(missing, [])
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to "-".
    static func anchor(_ heading: String) -> String {
        let h = heading.trimmingCharacters(in: .whitespaces).lowercased()
        return String(h.unicodeScalars.compactMap { c -> Character? in
            if c == " " { return "-" }
            if CharacterSet.alphanumerics.contains(c) || c == "-" || c == "_" { return Character(c) }
            return nil
        })
    }

    /// Every repository path docs/architecture.md names exists: files and folders from the root
    /// (`Sources/…`, `Tests/…`, `docs/…`, `tools/…`, `boards/…`, …), module-relative ones
    /// (`PetDevice/Hardware/Hardware.swift` is under Sources/) and its links to sibling pages.
    /// Placeholders for what a reader adds (`Foo`, `<Part>`) and globs are checked up to their folder.
    func testEveryPathTheArchitecturePageNamesExists() throws {
        let page = try XCTUnwrap(try repositoryFiles(under: "docs/architecture.md", extensions: ["md"]).first?.text)
        let modules = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("Sources").path)
        let roots = ["Sources", "Tests", "docs", "tools", "boards", "sim", "art", "content", "packaging", "web", "Fuzz"] + modules
        var named: [String] = [], missing: [String] = []
        var rest = page[...]
        let pattern = "(?<![A-Za-z0-9_./-])(" + roots.joined(separator: "|") + ")/[A-Za-z0-9_.+*<>/-]*"
        while let r = rest.range(of: pattern, options: .regularExpression) {
            named.append(String(rest[r])); rest = rest[r.upperBound...]
        }
        rest = page[...]
        while let r = rest.range(of: "\\]\\([a-z0-9-]+\\.md", options: .regularExpression) {
            named.append("docs/" + rest[r].dropFirst(2)); rest = rest[r.upperBound...]
        }
        XCTAssertGreaterThan(named.count, 40, "the page names the code it describes")
        for name in Set(named) {
            var path = name
            while let last = path.last, ".,;:)".contains(last) { path.removeLast() }
            // A placeholder or a glob: check the folder that holds it.
            if let cut = path.range(of: "([Ff]oo|<|\\*)", options: .regularExpression) {
                path = String(path[..<cut.lowerBound])
                if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
            }
            if let first = path.split(separator: "/").first, modules.contains(String(first)) { path = "Sources/" + path }
            guard !path.isEmpty else { continue }
            if !FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent(path).path) {
                missing.append(name)
            }
        }
        XCTAssertEqual(missing.sorted(), [], "docs/architecture.md names paths that do not exist")
    }
}
