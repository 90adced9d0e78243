import Foundation
import XCTest
import TestSupport

/// The phone client (`deskpetctl`) links nothing of the device: neither the UI, the app nor the
/// journal (docs/architecture.md). Read from Package.swift and from the sources' imports, so a
/// dependency added to the manifest, or an import of a module the manifest does not list, fails here.
final class ClientClosureTests: XCTestCase {
    static let deviceModules: Set<String> = ["PetUI", "PetDevice", "PetStore", "PetLink", "PetLinux", "PetSim", "CSQLite"]

    /// Every target of Package.swift and the names it depends on (one declaration a line).
    func targets() throws -> [String: [String]] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var out: [String: [String]] = [:]
        let declaration = try NSRegularExpression(pattern: #"\.(?:target|executableTarget|testTarget|systemLibrary)\(name: "([A-Za-z0-9_-]+)"(?:.*?dependencies: \[([^\]]*)\])?"#)
        var declared = 0
        let kinds = [".target(name: \"", ".executableTarget(name: \"", ".testTarget(name: \"", ".systemLibrary(name: \""]
        for line in text.split(separator: "\n") where kinds.contains(where: { line.contains($0) }) && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
            declared += 1
            let s = String(line)
            guard let m = declaration.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)),
                  let name = Range(m.range(at: 1), in: s).map({ String(s[$0]) }) else { continue }
            let deps = Range(m.range(at: 2), in: s).map { String(s[$0]) } ?? ""
            out[name] = deps.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"")) }.filter { !$0.isEmpty }
        }
        XCTAssertEqual(out.count, declared, "a target declaration Package.swift has that this reading missed")
        return out
    }

    func closure(of target: String, in targets: [String: [String]]) -> Set<String> {
        var seen: Set<String> = [], todo = [target]
        while let t = todo.popLast() {
            guard seen.insert(t).inserted else { continue }
            todo += targets[t] ?? []
        }
        return seen
    }

    func testDeskpetctlLinksNothingOfTheDevice() throws {
        let all = try targets()
        XCTAssertNotNil(all["deskpetctl"], "deskpetctl is declared")
        let linked = closure(of: "deskpetctl", in: all)
        XCTAssertEqual(linked.intersection(Self.deviceModules), [], "deskpetctl's dependency closure: \(linked.sorted())")
        // What it does link: the protocol, the client socket, the PNG encoder.
        XCTAssertTrue(linked.isSuperset(of: ["PetWire", "CBluetooth", "PetPNG", "PetIO"]), "\(linked.sorted())")
        for t in linked { XCTAssertNotNil(all[t], "\(t) is a target Package.swift declares") }
    }

    /// The reading is not vacuous: the daemon's closure has the whole device in it.
    func testTheDaemonsClosureHasTheDevice() throws {
        let linked = closure(of: "deskpet", in: try targets())
        XCTAssertTrue(linked.isSuperset(of: ["PetUI", "PetDevice", "PetStore", "PetLink", "PetWire"]), "\(linked.sorted())")
    }

    /// A module is reachable by `import` when it was built for another target, even if the manifest
    /// does not list it; so every source of every target in deskpetctl's closure imports only
    /// targets of that closure (or the system's modules).
    func testTheClientsSourcesImportOnlyItsClosure() throws {
        let all = try targets()
        let linked = closure(of: "deskpetctl", in: all)
        var scanned = 0
        for t in linked where FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent("Sources/\(t)").path) {
            for (path, text) in try repositoryFiles(under: "Sources/\(t)", extensions: ["swift"]) {
                scanned += 1
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ").map(String.init)
                    guard let i = words.firstIndex(of: "import"), words[..<i].allSatisfy({ $0.hasPrefix("@") }), i + 1 < words.count else { continue }
                    let module = words[i + 1]
                    if all[module] != nil { XCTAssertTrue(linked.contains(module), "\(path) imports \(module), outside deskpetctl's closure") }
                }
            }
        }
        XCTAssertGreaterThan(scanned, 20, "the scan read the client's sources")
    }
}
