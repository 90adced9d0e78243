import Foundation
import XCTest
@testable import PetCore

// One walk over every subsystem registered in `Engine.subsystems` (Engine/Subsystem.swift), for
// what the compiler cannot check when a subsystem is added (docs/architecture.md, "Adding a
// subsystem"): its journal type names (written in the event's `type`, its `allTypes` and its
// decoder) agree and belong to it alone, every event kind is claimed by exactly one registered
// subsystem, and every command name it lists parses to an action of that name that it runs.
// The journal's wire names do not change: EventCodingTests (JournalTests.swift) pins them.
final class SubsystemRegistryTests: XCTestCase {
    private var subsystemNames: String { Engine.subsystems.map { "\($0)" }.joined(separator: ", ") }

    func testEveryRegisteredEventTypeBelongsToOneSubsystemAndHasAnExample() {
        let examples = EventCodingTests.examples()
        var seen: [String: String] = [:]
        for s in Engine.subsystems {
            for type in s.eventTypes {
                XCTAssertFalse(type.isEmpty, "\(s) lists an empty event type")
                if let other = seen[type] { XCTFail("\(type) is listed by both \(other) and \(s)") }
                seen[type] = "\(s)"
                let owners = Engine.subsystems.filter { $0.ownsEventType(type) }.map { "\($0)" }
                XCTAssertEqual(owners, ["\(s)"], "\(type) (listed by \(s)) must be owned by \(s) alone: check the `owns` prefixes")
                XCTAssertTrue(examples.contains { $0.type == type },
                              "\(type) (\(s)) has no example: add one to EventCodingTests.subsystemExamples (JournalTests.swift), so it is checked to round-trip")
            }
        }
    }

    func testEveryEventKindIsClaimedByOneRegisteredSubsystemAndRoundTrips() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var typeOfCase: [String: String] = [:]
        for kind in EventCodingTests.examples() {
            let type = kind.type
            XCTAssertFalse(type.isEmpty, "\(kind) encodes with an empty type: list its case in EventKind.type / subEvent")
            let claimants = Engine.subsystems.filter { $0.owns(kind) }
            if let sub = kind.subEvent {
                XCTAssertEqual(claimants.count, 1,
                               "\(type) is claimed by \(claimants.count) registered subsystems (\(claimants.map { "\($0)" })); "
                               + "a subsystem's events need its line in Engine.subsystems (now: \(subsystemNames))")
                if let owner = claimants.first {
                    XCTAssertTrue(owner.eventTypes.contains(type), "\(type) is not in \(owner)'s \(Swift.type(of: sub)).allTypes")
                }
            } else {
                XCTAssertLessThanOrEqual(claimants.count, 1, "\(type) is claimed by several subsystems")
                XCTAssertTrue(Engine.subsystems.allSatisfy { !$0.ownsEventType(type) },
                              "the engine's own \(type) falls under a subsystem's `owns` prefix")
            }
            // One wire name per case: two cases never share a type.
            let caseName = String(describing: kind).prefix { $0 != "(" }
            if let other = typeOfCase[type], other != String(caseName) {
                XCTFail("\(type) is written by both .\(other) and .\(caseName)")
            }
            typeOfCase[type] = String(caseName)
            let data = try encoder.encode(kind)
            let json = String(decoding: data, as: UTF8.self)
            XCTAssertTrue(json.contains("\"type\":\"\(type)\""), "\(type) is not the encoded type: \(json)")
            XCTAssertEqual(try JSONDecoder().decode(EventKind.self, from: data), kind, "\(type) does not decode back: \(json)")
        }
    }

    func testEveryCommandNameRoutesToTheSubsystemThatListsIt() throws {
        var owner: [String: String] = [:]
        for name in CommandParser.coreFields.keys { owner[name] = "CommandParser.coreFields" }
        for s in Engine.subsystems {
            for (name, fields) in s.commandFields {
                if let other = owner[name] { XCTFail("command \(name) is listed by both \(other) and \(s)"); continue }
                owner[name] = "\(s)"
                XCTAssertEqual(CommandParser.fieldsByCommand[name], fields, "\(name): the parser does not take \(s)'s fields")
                let action = try buildCommand(name)
                XCTAssertEqual(action.name, name, "\(name) parses to an action named \(action.name)")
                let runners = Engine.subsystems.filter { $0.owns(action) }.map { "\($0)" }
                XCTAssertEqual(runners, ["\(s)"], "\(name) is run by \(runners), not by \(s) alone")
            }
        }
        for name in CommandParser.coreFields.keys {
            let action = try buildCommand(name)
            XCTAssertEqual(action.name, name, "\(name) parses to an action named \(action.name)")
            XCTAssertLessThanOrEqual(Engine.subsystems.filter { $0.owns(action) }.count, 1)
        }
        XCTAssertEqual(Set(owner.keys), Set(CommandParser.fieldsByCommand.keys), "the parser takes a command no table lists")
    }

    func testAnUnknownNameIsRefusedAsUnknown() {
        XCTAssertThrowsError(try buildCommand("quit.explode")) { error in
            XCTAssertEqual(error as? DomainError, .unknownCommand(name: "quit.explode"))
        }
    }

    /// Parses `name`, filling the fields the parser asks for: a missing field gets a first value,
    /// a refused one the next of the values its reason names ("must be a, b or c") and the samples.
    private func buildCommand(_ name: String) throws -> Action {
        let samples = ["a", "1", "09:00", "2026-03-03 09:00", "+1h", "on", "h1", "daily", "2026-03-03", "true", "a@0", "anna", "anna-1",
                       "2026-03-04 09:00"]
        var fields: [String: String] = [:]
        var tried: [String: Int] = [:]
        let clock = DayClock(zone: try XCTUnwrap(coreTestZoneTable["UTC"]), dayStartHour: 3)
        for _ in 0..<60 {
            let error: DomainError
            do {
                return try CommandParser.parse(name: name, fields: fields, id: "c1", at: Instant(1_772_434_800), clock: clock).action
            } catch let e {
                error = e
            }
            switch error {
            case .missingField(let f):
                fields[f] = samples[0]; tried[f] = 0
            case let .invalidField(f, reason):
                let key = String(f.prefix { $0 != "[" })
                let n = tried[key, default: -1] + 1
                tried[key] = n
                // The values the reason names ("must be a, b or c"), then the samples.
                let named = reason.hasPrefix("must be ")
                    ? reason.dropFirst(8).split(whereSeparator: { ", ".contains($0) }).map(String.init).filter { $0 != "or" } : []
                let candidates = named + samples
                if n < candidates.count {
                    fields[key] = candidates[n]
                } else {
                    XCTFail("\(name): no sample value is a valid \(key) (\(reason)); add one to the samples here")
                    throw error
                }
            default:
                throw error
            }
        }
        throw DomainError.invalidState(kind: "test", id: name, reason: "could not be built from fields \(fields)")
    }
}
