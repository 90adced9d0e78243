import Foundation
import XCTest
@testable import PetCore

/// Zone rules as journal data: exact round trips, and damaged payloads refused with an error.
final class ZoneRulesCodingTests: XCTestCase {
    func testEveryTestZoneRoundTripsExactly() throws {
        XCTAssertFalse(coreTestZoneTable.isEmpty)
        var others = Array(coreTestZoneTable.values)
        others.append(.utc)
        others.append(.fixed(identifier: "Etc/GMT-14", offsetSeconds: 50_400))
        others.append(try ZoneRules(identifier: "Custom", posix: "<+0330>-3:30<+0430>,J79/24,J263/24"))
        for rules in others {
            let data = try JSONEncoder().encode(rules)
            let back = try JSONDecoder().decode(ZoneRules.self, from: data)
            XCTAssertEqual(back, rules, rules.identifier)
        }
    }

    func testBerlinPayloadIsCompactAndCarriesTheFooter() throws {
        let berlin = try XCTUnwrap(coreTestZoneTable["Europe/Berlin"])
        let text = String(decoding: try JSONEncoder().encode(berlin), as: UTF8.self)
        XCTAssertTrue(text.contains(#""footer":"CET-1CEST,M3.5.0,M10.5.0\/3""#) || text.contains(#""footer":"CET-1CEST,M3.5.0,M10.5.0/3""#), text)
        XCTAssertLessThan(text.utf8.count, 4_096, "a zone change stays a small journal row")
    }

    func testDamagedPayloadsAreRefused() {
        let good = #"{"id":"X","types":[{"offset":0,"dst":false,"abbr":"A"},{"offset":3600,"dst":true,"abbr":"B"}],"times":[10,20],"indices":[1,0]}"#
        XCTAssertNoThrow(try JSONDecoder().decode(ZoneRules.self, from: Data(good.utf8)))
        let bad = [
            #"{"id":"X","types":[],"times":[],"indices":[]}"#,                                                     // no types
            #"{"id":"X","types":[{"offset":0,"dst":false,"abbr":"A"}],"times":[20,10],"indices":[0,0]}"#,        // unsorted
            #"{"id":"X","types":[{"offset":0,"dst":false,"abbr":"A"}],"times":[10],"indices":[1]}"#,             // bad index
            #"{"id":"X","types":[{"offset":0,"dst":false,"abbr":"A"}],"times":[10],"indices":[]}"#,              // counts differ
            #"{"id":"X","types":[{"offset":900000,"dst":false,"abbr":"A"}],"times":[],"indices":[]}"#,           // offset
            #"{"id":"X","types":[{"offset":0,"dst":false,"abbr":"A"}],"times":[],"indices":[],"footer":"??"}"#, // footer
        ]
        for text in bad {
            XCTAssertThrowsError(try JSONDecoder().decode(ZoneRules.self, from: Data(text.utf8)), text)
        }
    }

    func testEventsCarryTheirZoneRulesAndReplayWithoutALookup() throws {
        var h = Harness(zone: "Europe/Berlin", at: "2026-03-27 08:00")
        h.ok("task.create", ["task": "a", "title": "A", "due": "2026-03-27 18:00", "repeat": "daily", "reminders": "+1h"])
        h.advance(to: "2026-04-01 12:00")
        h.ok("settings.zone", ["zone": "America/New_York"])
        h.advance(to: "2026-04-03 12:00")
        h.ok("settings.zone", ["zone": "Europe/Berlin"])
        h.advance(to: "2026-10-27 12:00")
        guard case .genesis(_, _, let genesisRules) = h.journal[0].kind else { return XCTFail("no genesis") }
        XCTAssertEqual(genesisRules, coreTestZoneTable["Europe/Berlin"])
        let changes = h.journal.compactMap { e -> ZoneRules?? in
            if case .zoneChanged(_, let r) = e.kind { return r } else { return nil }
        }
        XCTAssertEqual(changes, [coreTestZoneTable["America/New_York"], coreTestZoneTable["Europe/Berlin"]])
        var replay = try Engine(journal: h.journal, zones: { _ in nil })
        XCTAssertEqual(replay.advance(to: h.now), [])
        XCTAssertEqual(replay.state, h.state)
    }
}
