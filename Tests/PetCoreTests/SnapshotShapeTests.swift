import Foundation
import XCTest
@testable import PetCore

/// A snapshot is PetState encoded as JSON, stored with `PetState.snapshotFormat`; a device resumes
/// from a snapshot of the current format and replays the journal only after it (docs/storage.md).
/// If the encoded shape changes (a field added, renamed, removed or nested differently) while the
/// format stays the same, a device updated in place would resume from an old snapshot that lacks
/// the new field, or fail to decode it, instead of replaying. This test pins the key structure of
/// a rich, seeded state for the current format and fails, saying what to do, when it changes.
final class SnapshotShapeTests: XCTestCase {
    /// The format whose shape `SnapshotShape.pinned` lists.
    static let pinnedFormat = 7

    /// A state with every part in use: the fold of one example of every event kind
    /// (EventCodingTests.examples), ten minutes apart, a day that breaks the streak, then two days
    /// of time passing.
    static func seededState() throws -> PetState {
        let examples = EventCodingTests.examples()
        guard case .genesis = examples.first else { throw DomainError.missingField(field: "genesis example") }
        let start = wall("2026-03-02 08:00", in: "Europe/Berlin")
        var engine = try Engine(genesis: Event(at: start, kind: examples[0]), zones: testZones)
        var at = start
        for (i, kind) in examples.dropFirst().enumerated() {
            at = start + Int64(i + 1) * 600
            engine.apply(Event(at: at, commandID: "seed-\(i)", kind: kind))
        }
        let broken = DayResult(day: engine.state.openDay, due: 1, done: 0, missed: 1, paused: false, streak: 0)
        engine.apply(Event(at: at + 600, kind: .dayClosed(broken)))
        _ = engine.advance(to: start + 2 * Seconds.day)
        return engine.state
    }

    /// The paths (as `shape` writes them) of the state's dictionaries, whose keys are data (task
    /// ids, days, app names), found by reflection: their keys are written as "*".
    static func mapPaths(of value: Any, at path: String = "", into paths: inout Set<String>) {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .dictionary?:
            paths.insert(path)
            for child in mirror.children {
                let pair = Array(Mirror(reflecting: child.value).children)
                if pair.count == 2 { mapPaths(of: pair[1].value, at: path + ".*", into: &paths) }
            }
        case .optional?:
            for child in mirror.children { mapPaths(of: child.value, at: path, into: &paths) }
        case .collection?, .set?:
            for child in mirror.children { mapPaths(of: child.value, at: path + "[]", into: &paths) }
        case .struct?, .class?:
            for child in mirror.children {
                guard let label = child.label else { continue }
                // PetState.reminders keeps its older key (PetState.CodingKeys).
                let key = path.isEmpty && label == "reminders" ? "notices" : label
                mapPaths(of: child.value, at: path.isEmpty ? key : path + "." + key, into: &paths)
            }
        default:
            break
        }
    }

    /// The key paths of a JSON value: object keys joined by ".", array elements as "[]" (the
    /// union of their shapes), the keys of the state's dictionaries (`maps`) as "*", number-like
    /// keys elsewhere as "#". Leaves are not recorded.
    static func shape(of json: Any, at path: String = "", maps: Set<String> = [], into paths: inout Set<String>) {
        if let object = json as? [String: Any] {
            for (key, value) in object {
                let name = maps.contains(path) ? "*" : key.allSatisfy({ $0.isNumber || $0 == "-" }) ? "#" : key
                let p = path.isEmpty ? name : path + "." + name
                paths.insert(p)
                shape(of: value, at: p, maps: maps, into: &paths)
            }
        } else if let array = json as? [Any] {
            let p = path + "[]"
            for value in array { shape(of: value, at: p, maps: maps, into: &paths) }
        }
    }

    static func currentShape() throws -> [String] {
        let state = try seededState()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(state)
        var maps = Set<String>(), paths = Set<String>()
        mapPaths(of: state, into: &maps)
        shape(of: try JSONSerialization.jsonObject(with: data), maps: maps, into: &paths)
        return paths.sorted()
    }

    func testTheSnapshotShapeIsThePinnedOneForTheCurrentFormat() throws {
        let now = try Self.currentShape()
        let pinned = SnapshotShape.pinned
        let added = Set(now).subtracting(pinned).sorted(), removed = Set(pinned).subtracting(now).sorted()
        let fixture = "    static let pinned = [\n" + now.map { "        \"\($0)\",\n" }.joined() + "    ]"
        if PetState.snapshotFormat != Self.pinnedFormat {
            XCTAssertGreaterThan(PetState.snapshotFormat, Self.pinnedFormat, "PetState.snapshotFormat only grows")
            XCTFail("""
                PetState.snapshotFormat is \(PetState.snapshotFormat) but this test pins the shape of format \(Self.pinnedFormat). \
                Set SnapshotShapeTests.pinnedFormat to \(PetState.snapshotFormat) and replace SnapshotShape.pinned \
                (Tests/PetCoreTests/SnapshotShape.swift) with:
                \(fixture)
                """)
            return
        }
        guard !added.isEmpty || !removed.isEmpty else { return }
        XCTFail("""
            The encoded PetState changed shape without a snapshot format bump (added: \(added), removed: \(removed)). \
            A device would resume from a snapshot written by the previous build and miss or misread these fields. \
            Bump PetState.snapshotFormat (Sources/PetCore/Engine/State.swift) to \(PetState.snapshotFormat + 1) — \
            older snapshots are then ignored and the journal replayed — set SnapshotShapeTests.pinnedFormat to \
            \(PetState.snapshotFormat + 1) and replace SnapshotShape.pinned (Tests/PetCoreTests/SnapshotShape.swift) with the \
            lines below. (If only this test's seed changed — the examples in JournalTests.swift — and no field did, \
            keep the format and replace the list alone.)
            \(fixture)
            """)
    }

    /// The seed reaches every part of the state: every top-level property is in the shape, and the
    /// subsystems' states are not empty.
    func testTheSeedFillsEveryPartOfTheState() throws {
        let now = Set(try Self.currentShape())
        let state = try Self.seededState()
        for child in Mirror(reflecting: state).children {
            guard let label = child.label else { continue }
            let key = label == "reminders" ? "notices" : label
            XCTAssertTrue(now.contains(key), "the seeded state has no \(key): give it an example event that sets it")
        }
        for part in ["habits", "shop", "commitments", "quit", "screen", "notices", "phones", "stats"] {
            XCTAssertTrue(now.contains { $0.hasPrefix(part + ".") }, "the seeded state's \(part) is empty")
        }
    }

    func testTheShapeWalkCollapsesArraysAndMapKeys() throws {
        let json = try JSONSerialization.jsonObject(with: Data(#"{"a":[{"x":1},{"y":[2]}],"b":{"20514":{"n":1},"-3":{"m":2}},"c":"s"}"#.utf8))
        var paths = Set<String>()
        Self.shape(of: json, into: &paths)
        XCTAssertEqual(paths.sorted(), ["a", "a[].x", "a[].y", "b", "b.#", "b.#.m", "b.#.n", "c"])
        var mapped = Set<String>()
        Self.shape(of: json, maps: ["b"], into: &mapped)
        XCTAssertEqual(mapped.sorted(), ["a", "a[].x", "a[].y", "b", "b.*", "b.*.m", "b.*.n", "c"])
    }
}
