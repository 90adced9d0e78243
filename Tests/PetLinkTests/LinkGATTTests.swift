import Foundation
import PetCore
import PetDevice
@testable import PetLink
import PetSim
import XCTest

/// The GATT server wired to the phone protocol (`LinkService.serve`): the state characteristic
/// is the link's `state` summary; Current Time reads the pet's local time and a write sets the
/// device clock through the same `SettableClock` as `time.set` (the simulator's virtual clock).
final class LinkGATTTests: XCTestCase {
    func testStateAndCurrentTimeThroughTheLinkService() throws {
        let h = try Harness()
        let server = GATTServer(config: DeskPetGATTConfig(deviceName: "Mochi"))
        h.service.serve(server, loop: h.sim.loop)
        let s = GATTSession(server: server)
        s.securityLevel = 2

        // State: Read (0x0A) of the state value handle gives the `state` message body.
        let read = s.receive([0x0A, UInt8(server.stateHandle & 0xFF), UInt8(server.stateHandle >> 8)])
        XCTAssertEqual(read.first?.first, 0x0B)
        let value = Array(read.first?.dropFirst() ?? [])
        XCTAssertEqual(value, h.service.stateSummary(loop: h.sim.loop).prefix(value.count).map { $0 })
        let state = try JSONSerialization.jsonObject(with: Data(h.service.stateSummary(loop: h.sim.loop))) as? [String: Any]
        XCTAssertEqual(state?["type"] as? String, "state")
        XCTAssertNotNil(state?["coins"])

        // Current Time read: 2026-03-02 07:00:00 UTC, a Monday (1).
        let ct = s.receive([0x0A, 0x17, 0x00])
        XCTAssertEqual(ct, [[0x0B, 0xEA, 0x07, 3, 2, 7, 0, 0, 1, 0, 0]])

        // Write 2026-03-14 15:09:26 (local = UTC here): the virtual clock jumps there.
        let t: [UInt8] = [0xEA, 0x07, 3, 14, 15, 9, 26, 5, 128, 1]
        XCTAssertEqual(s.receive([0x12, 0x17, 0x00] + t), [[0x13]])
        XCTAssertEqual(h.sim.loop.nowMs, 1_773_500_966_000 + 500)
        XCTAssertEqual(s.receive([0x0A, 0x17, 0x00]).first.map { Array($0.prefix(8)) }, [0x0B, 0xEA, 0x07, 3, 14, 15, 9, 26])
    }
}
