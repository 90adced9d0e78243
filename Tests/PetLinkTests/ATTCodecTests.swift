import XCTest
@testable import PetLink
import TestSupport

/// Every ATT PDU type against hand-written bytes (Core, Vol 3, Part F, 3.4), both ways; and bytes
/// that are not PDUs: truncated, oversized, reserved values, random.
final class ATTCodecTests: XCTestCase {
    /// Encodes to `bytes`, and `bytes` decode to the same PDU (also through `ATTPDU.decode`).
    func check<P: ATTPDUCodable>(_ pdu: P, _ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(pdu.bytes, bytes, "encode", file: file, line: line)
        XCTAssertEqual(try P(decoding: bytes), pdu, "decode", file: file, line: line)
        XCTAssertEqual(try ATTPDU.decode(bytes).bytes, bytes, "ATTPDU round trip", file: file, line: line)
    }

    func testErrorResponse() throws {
        try check(ATTErrorResponse(requestOpcode: 0x12, handle: 0x000C, error: .insufficientAuthentication), [0x01, 0x12, 0x0C, 0x00, 0x05])
        try check(ATTErrorResponse(requestOpcode: 0x10, handle: 0x0020, error: .attributeNotFound), [0x01, 0x10, 0x20, 0x00, 0x0A])
    }

    func testExchangeMTU() throws {
        try check(ATTExchangeMTURequest(clientMTU: 185), [0x02, 0xB9, 0x00])
        try check(ATTExchangeMTURequest(clientMTU: 517), [0x02, 0x05, 0x02])
        try check(ATTExchangeMTUResponse(serverMTU: 517), [0x03, 0x05, 0x02])
    }

    func testFindInformation() throws {
        try check(ATTFindInformationRequest(startHandle: 0x0001, endHandle: 0xFFFF), [0x04, 0x01, 0x00, 0xFF, 0xFF])
        try check(ATTFindInformationResponse(format: 1, entries: [.init(handle: 0x0009, type: .bit16(0x2902)), .init(handle: 0x000A, type: .bit16(0x2800))]),
                  [0x05, 0x01, 0x09, 0x00, 0x02, 0x29, 0x0A, 0x00, 0x00, 0x28])
        try check(ATTFindInformationResponse(format: 2, entries: [.init(handle: 0x000C, type: DeskPetUUID.command)]),
                  [0x05, 0x02, 0x0C, 0x00, 0xB1, 0xA2, 0xE7, 0xC9, 0xE5, 0x0D, 0x1F, 0x9C, 0x2A, 0x4D, 0x5C, 0x7E, 0x02, 0x00, 0x9B, 0x6D])
    }

    func testFindByTypeValue() throws {
        try check(ATTFindByTypeValueRequest(startHandle: 1, endHandle: 0xFFFF, type: 0x2800, value: [0x0F, 0x18]),
                  [0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x0F, 0x18])
        try check(ATTFindByTypeValueResponse(entries: [.init(handle: 0x0015, groupEnd: 0x0018)]), [0x07, 0x15, 0x00, 0x18, 0x00])
    }

    func testReadByType() throws {
        try check(ATTReadByTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: .bit16(0x2803)), [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28])
        var long: [UInt8] = [0x08, 0x01, 0x00, 0xFF, 0xFF]
        long += DeskPetUUID.state.littleEndianBytes
        try check(ATTReadByTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: DeskPetUUID.state), long)
        try check(ATTReadByTypeResponse(entries: [.init(handle: 2, value: [0x02, 0x03, 0x00, 0x00, 0x2A]), .init(handle: 4, value: [0x02, 0x05, 0x00, 0x01, 0x2A])]),
                  [0x09, 0x07, 0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A, 0x04, 0x00, 0x02, 0x05, 0x00, 0x01, 0x2A])
    }

    func testReadAndReadBlob() throws {
        try check(ATTReadRequest(handle: 0x0003), [0x0A, 0x03, 0x00])
        try check(ATTReadResponse(value: Array("Mochi".utf8)), [0x0B, 0x4D, 0x6F, 0x63, 0x68, 0x69])
        try check(ATTReadResponse(value: []), [0x0B])
        try check(ATTReadBlobRequest(handle: 0x0013, offset: 22), [0x0C, 0x13, 0x00, 0x16, 0x00])
        try check(ATTReadBlobResponse(part: [1, 2, 3]), [0x0D, 1, 2, 3])
    }

    func testReadByGroupType() throws {
        try check(ATTReadByGroupTypeRequest(startHandle: 1, endHandle: 0xFFFF, groupType: .bit16(0x2800)), [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28])
        try check(ATTReadByGroupTypeResponse(entries: [.init(handle: 1, groupEnd: 5, value: [0x00, 0x18]), .init(handle: 6, groupEnd: 9, value: [0x01, 0x18])]),
                  [0x11, 0x06, 0x01, 0x00, 0x05, 0x00, 0x00, 0x18, 0x06, 0x00, 0x09, 0x00, 0x01, 0x18])
    }

    func testWrites() throws {
        try check(ATTWriteRequest(handle: 0x0010, value: [0x01, 0x00]), [0x12, 0x10, 0x00, 0x01, 0x00])
        try check(ATTWriteResponse(), [0x13])
        try check(ATTWriteCommand(handle: 0x000C, value: [0, 0, 0, 1, 0x7B]), [0x52, 0x0C, 0x00, 0, 0, 0, 1, 0x7B])
        try check(ATTPrepareWriteRequest(handle: 0x000C, offset: 18, part: [9, 8]), [0x16, 0x0C, 0x00, 0x12, 0x00, 9, 8])
        try check(ATTPrepareWriteResponse(handle: 0x000C, offset: 18, part: [9, 8]), [0x17, 0x0C, 0x00, 0x12, 0x00, 9, 8])
        try check(ATTExecuteWriteRequest(commit: true), [0x18, 0x01])
        try check(ATTExecuteWriteRequest(commit: false), [0x18, 0x00])
        try check(ATTExecuteWriteResponse(), [0x19])
    }

    func testNotificationsAndIndications() throws {
        try check(ATTHandleValueNotification(handle: 0x000F, value: [0, 0, 0, 2, 0x7B, 0x7D]), [0x1B, 0x0F, 0x00, 0, 0, 0, 2, 0x7B, 0x7D])
        try check(ATTHandleValueIndication(handle: 0x0008, value: [0x01, 0x00, 0xFF, 0xFF]), [0x1D, 0x08, 0x00, 0x01, 0x00, 0xFF, 0xFF])
        try check(ATTHandleValueConfirmation(), [0x1E])
    }

    func testUUIDs() {
        XCTAssertEqual(BluetoothUUID(string: "0000180F-0000-1000-8000-00805F9B34FB"), .bit16(0x180F))
        XCTAssertEqual(BluetoothUUID(string: "6d9b0001-7e5c-4d2a-9c1f-0de5c9e7a2b1"), DeskPetUUID.service)
        XCTAssertEqual(DeskPetUUID.service.description, "6d9b0001-7e5c-4d2a-9c1f-0de5c9e7a2b1")
        XCTAssertEqual(BluetoothUUID.bit16(0x2A2B).description, "2A2B")
        XCTAssertEqual(BluetoothUUID(littleEndian: BluetoothUUID.bit128(BluetoothUUID.bit16(0x2902).value128).littleEndianBytes), .bit16(0x2902))
        XCTAssertNil(BluetoothUUID(string: "xyz"))
        XCTAssertNil(BluetoothUUID(littleEndian: [1, 2, 3]))
    }

    // MARK: - Bad input

    func testTruncatedPDUs() {
        let cases: [[UInt8]] = [[0x01, 0x12, 0x0C, 0x00], [0x02, 0x17], [0x04, 0x01, 0x00, 0xFF], [0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00],
                                [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03], [0x0A, 0x03], [0x0C, 0x03, 0x00, 0x01], [0x10, 0x01, 0x00],
                                [0x12, 0x10], [0x52], [0x16, 0x0C, 0x00, 0x12], [0x18], [0x1B, 0x0F], [0x1D],
                                [0x05, 0x01, 0x09, 0x00, 0x02], [0x09, 0x07, 0x02, 0x00], [0x11, 0x06, 0x01], [0x07, 0x15, 0x00]]
        for c in cases {
            XCTAssertThrowsError(try ATTPDU.decode(c), "\(c)") { e in
                guard let d = e as? ATTDecodeError else { return XCTFail("\(e)") }
                XCTAssertEqual(d.opcode, c[0]); XCTAssertEqual(d.attError, .invalidPDU)
            }
        }
        XCTAssertThrowsError(try ATTPDU.decode([])) { XCTAssertEqual($0 as? ATTDecodeError, .empty) }
        XCTAssertEqual(try? ATTReadRequest(decoding: [0x0A, 0x03]), nil)
    }

    func testOversizedAndInvalidPDUs() {
        // Fixed-size PDUs with extra bytes.
        for c: [UInt8] in [[0x02, 0x17, 0x00, 0x00], [0x0A, 0x03, 0x00, 0x00], [0x13, 0x00], [0x1E, 0x1E], [0x18, 0x01, 0x00],
                           [0x04, 0x01, 0x00, 0xFF, 0xFF, 0x00], [0x0C, 0x03, 0x00, 0x01, 0x00, 0x00]] {
            XCTAssertThrowsError(try ATTPDU.decode(c), "\(c)") {
                guard case .oversized = $0 as? ATTDecodeError else { return XCTFail("\($0)") }
            }
        }
        // Over 517 bytes.
        XCTAssertThrowsError(try ATTPDU.decode([0x12, 0x0C, 0x00] + [UInt8](repeating: 7, count: 515))) {
            XCTAssertEqual($0 as? ATTDecodeError, .oversized(opcode: 0x12, limit: 517, got: 518))
        }
        XCTAssertNoThrow(try ATTPDU.decode([0x12, 0x0C, 0x00] + [UInt8](repeating: 7, count: 514)))
        // Reserved values and uneven lists.
        for c: [UInt8] in [[0x18, 0x02], [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28, 0x00], [0x05, 0x03, 0x01, 0x00, 0x00, 0x28],
                           [0x05, 0x01, 0x01, 0x00, 0x00, 0x28, 0x02], [0x09, 0x01, 0x00], [0x09, 0x03, 0x01, 0x00, 0x05, 0x02],
                           [0x11, 0x03, 0x01, 0x00, 0x02], [0x07, 0x01, 0x00, 0x02, 0x00, 0x03]] {
            XCTAssertThrowsError(try ATTPDU.decode(c), "\(c)")
        }
        XCTAssertThrowsError(try ATTPDU.decode([0x0E, 0x01, 0x00, 0x02, 0x00])) {
            XCTAssertEqual($0 as? ATTDecodeError, .unknownOpcode(0x0E)); XCTAssertEqual(($0 as? ATTDecodeError)?.attError, .requestNotSupported)
        }
        XCTAssertThrowsError(try ATTReadRequest(decoding: [0x0B, 0x01, 0x00]))
    }

    /// Random bytes (seeded) never trap, and whatever decodes encodes back to the same bytes
    /// (or, for the two lists whose entry length comes from the first entry, re-decodes equal).
    func testRandomBytesNeverTrap() {
        var rng = SplitMix64(seed: 0xA77)
        let opcodes = ATTOpcode.allCases.map(\.rawValue) + [0x00, 0x0E, 0x20, 0x40, 0xD2, 0xFF]
        var decoded = 0
        for _ in 0..<20_000 {
            var b = [UInt8](repeating: 0, count: Int.random(in: 0...24, using: &rng))
            for i in b.indices { b[i] = UInt8.random(in: 0...255, using: &rng) }
            if !b.isEmpty, Bool.random(using: &rng) { b[0] = opcodes.randomElement(using: &rng)! }
            guard let pdu = try? ATTPDU.decode(b) else { continue }
            decoded += 1
            XCTAssertEqual(try? ATTPDU.decode(pdu.bytes), pdu, "\(b)")
        }
        XCTAssertGreaterThan(decoded, 1000)
    }
}
