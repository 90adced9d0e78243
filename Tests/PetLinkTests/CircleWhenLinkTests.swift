import Foundation
@testable import PetCore
import PetDevice
@testable import PetLink
import PetWire
import TestSupport
import XCTest

/// `circle.when` (docs/protocol.md#circles): the device reads a proposal's start and end in its
/// own time zone and by its own clock — the forms of every other time field — for
/// `deskpet-bridge circle propose`; a bad time is refused naming the field; nothing is stored.
final class CircleWhenLinkTests: XCTestCase {
    func testTheDeviceReadsItsOwnTimeFormsInItsZone() throws {
        let h = try Harness()
        try h.pair(1)
        try h.send(1, #"{"type":"command","id":"z1","name":"settings.zone","fields":{"zone":"America/New_York"}}"#)
        let zoned = try h.last(1, type: "reply")?["command"] as? String == "settings.zone"
        let seq = try h.lastSeq()
        let state = h.sim.app.state
        let now = state.now
        try h.send(1, #"{"type":"command","id":"w1","name":"circle.when","fields":{"start":"2027-03-01 09:30","end":"+2d3h"}}"#)
        let r = try XCTUnwrapValue(try h.last(1, type: "circle.when"))
        XCTAssertEqual(r["id"] as? String, "w1")
        let wall = try XCTUnwrap(LocalDateTime(parsing: "2027-03-01 09:30"))
        XCTAssertEqual((r["start"] as? NSNumber)?.int64Value, state.clock.instant(wall).seconds, "the device's zone")
        XCTAssertEqual((r["end"] as? NSNumber)?.int64Value, now.seconds + 2 * 86_400 + 3 * 3600, "relative to the device's clock")
        XCTAssertTrue(zoned, "the simulator takes a time zone")
        if zoned {
            // 09:30 in New York (UTC−5 on 1 March) is 14:30 UTC.
            XCTAssertEqual(state.clock.instant(wall).seconds % 86_400, (14 * 60 + 30) * 60)
        }
        try h.send(1, #"{"type":"command","id":"w2","name":"circle.when","fields":{"start":"today 07:15","end":"@1800000000"}}"#)
        let t = try XCTUnwrapValue(try h.last(1, type: "circle.when"))
        XCTAssertEqual((t["start"] as? NSNumber)?.int64Value, TimeText.parse("today 07:15", now: now, clock: state.clock)?.seconds)
        XCTAssertEqual((t["end"] as? NSNumber)?.int64Value, 1_800_000_000)
        for (id, fields, field) in [("w3", #"{"start":"tomorrow 25:00","end":"+1d"}"#, "start"),
                                    ("w4", #"{"start":"+1h","end":"next week"}"#, "end"),
                                    ("w5", #"{"start":"@99999999999999","end":"+1d"}"#, "start"),
                                    ("w6", #"{"start":{"x":1}}"#, "start")] {
            try h.send(1, #"{"type":"command","id":"\#(id)","name":"circle.when","fields":\#(fields)}"#)
            let e = try XCTUnwrapValue(try h.last(1, type: "error"))
            XCTAssertEqual(e["code"] as? String, ErrorCode.invalidField, id)
            XCTAssertEqual(e["id"] as? String, id)
            XCTAssertTrue((e["message"] as? String)?.hasPrefix("invalid \(field):") == true, "\(id): names the field")
        }
        try h.send(1, #"{"type":"command","id":"w7","name":"circle.when"}"#)
        XCTAssertEqual(try h.last(1, type: "error")?["code"] as? String, ErrorCode.missingField)
        XCTAssertEqual(try h.lastSeq(), seq, "read-only: nothing stored")
    }
}
