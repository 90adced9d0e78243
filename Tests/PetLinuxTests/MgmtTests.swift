import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import PetLinux
import PetDevice
import PetLink
import TestSupport

/// Management command bytes against BlueZ's doc/mgmt-api.txt (now doc/mgmt-protocol.rst): the
/// header is Opcode (2), Controller Index (2), Parameter Length (2), little-endian; each command's
/// code and parameter layout are quoted next to its vector. No radio is needed.
final class MgmtTests: XCTestCase {
    func testTogglesAndReads() {
        // Read Controller Index List: Command Code 0x0003, Controller Index <non-controller> (0xFFFF), no parameters.
        XCTAssertEqual(MgmtCommand.readIndexList().bytes, [0x03, 0x00, 0xFF, 0xFF, 0x00, 0x00])
        // Read Controller Information: 0x0004, <controller id>.
        XCTAssertEqual(MgmtCommand.readInfo(0).bytes, [0x04, 0x00, 0x00, 0x00, 0x00, 0x00])
        // Set Powered: 0x0005, Powered (1 Octet).
        XCTAssertEqual(MgmtCommand.setPowered(0, true).bytes, [0x05, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        XCTAssertEqual(MgmtCommand.setPowered(1, false).bytes, [0x05, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00])
        // Set Connectable: 0x0007, Connectable (1 Octet).
        XCTAssertEqual(MgmtCommand.setConnectable(0, true).bytes, [0x07, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        // Set Bondable: 0x0009, Bondable (1 Octet).
        XCTAssertEqual(MgmtCommand.setBondable(0, true).bytes, [0x09, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        // Set Low Energy: 0x000D, Low_Energy (1 Octet).
        XCTAssertEqual(MgmtCommand.setLowEnergy(0, true).bytes, [0x0D, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        // Set Secure Connections: 0x002D, Secure_Connections (1 Octet): 0x00 off, 0x01 on, 0x02 only.
        XCTAssertEqual(MgmtCommand.setSecureConnections(0, 1).bytes, [0x2D, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        // Set IO Capability: 0x0018, IO_Capability (1 Octet): 3 NoInputNoOutput.
        XCTAssertEqual(MgmtCommand.setIOCapability(0, 3).bytes, [0x18, 0x00, 0x00, 0x00, 0x01, 0x00, 0x03])
    }

    func testSetLocalName() {
        // Set Local Name: 0x000F, Name (249 Octets), Short_Name (11 Octets), both ending with a null byte.
        let b = MgmtCommand.setLocalName(0, "Mochi", short: "Mochi").bytes
        XCTAssertEqual(b.count, 6 + 260)
        XCTAssertEqual(Array(b[0..<6]), [0x0F, 0x00, 0x00, 0x00, 0x04, 0x01])  // 260 = 0x0104
        XCTAssertEqual(Array(b[6..<12]), Array("Mochi".utf8) + [0])
        XCTAssertTrue(b[11..<255].allSatisfy { $0 == 0 })
        XCTAssertEqual(Array(b[255..<261]), Array("Mochi".utf8) + [0])
        // Too long: cut at a character boundary, NUL kept.
        let long = MgmtCommand.setLocalName(0, String(repeating: "é", count: 200), short: "Éclair-de-lune").parameters
        XCTAssertEqual(long[247], 0xA9); XCTAssertEqual(long[248], 0)
        XCTAssertEqual(Array(long[249..<260]), Array("Éclair-de".utf8) + [0])
    }

    func testAddAdvertising() {
        // Add Advertising: 0x003E; Instance (1), Flags (4), Duration (2), Timeout (2), Adv_Data_Len (1),
        // Scan_Rsp_Len (1), Adv_Data, Scan_Rsp. Flags bit 0 connectable, bit 1 discoverable.
        let adv = AdvertisingData.advertisement(serviceUUID: DeskPetUUID.service.littleEndianBytes)
        XCTAssertEqual(adv, [0x11, 0x07] + DeskPetUUID.service.littleEndianBytes, "Complete List of 128-bit Service UUIDs")
        let rsp = AdvertisingData.scanResponse(name: "Mochi")
        XCTAssertEqual(rsp, [0x06, 0x09, 0x4D, 0x6F, 0x63, 0x68, 0x69], "Complete Local Name")
        let c = MgmtCommand.addAdvertising(0, instance: 1, flags: MgmtAdvertisingFlag.connectable | MgmtAdvertisingFlag.discoverable,
                                           advertisingData: adv, scanResponse: rsp)
        XCTAssertEqual(c.bytes, [0x3E, 0x00, 0x00, 0x00, 11 + 18 + 7, 0x00,
                                 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 18, 7] + adv + rsp)
        // A long name is shortened (0x08) to fit 31 bytes.
        let s = AdvertisingData.scanResponse(name: String(repeating: "x", count: 40))
        XCTAssertEqual(s.count, 31); XCTAssertEqual(Array(s[0..<2]), [30, 0x08])
    }

    let ltk = LongTermKey(address: [0x01, 0x00, 0x01, 0x01, 0xAA, 0x00], addressType: 1, keyType: 0x02, central: 0, encryptionSize: 16,
                          diversifier: 0x1234, random: [1, 2, 3, 4, 5, 6, 7, 8], value: Array(0x10..<0x20))
    let irk = IdentityResolvingKey(address: [0x01, 0x00, 0x01, 0x01, 0xAA, 0x00], addressType: 1, value: Array(0x30..<0x40))

    func testLoadKeys() {
        // Load Long Term Keys: 0x0013; Key_Count (2), Key { Address (6), Address_Type (1), Key_Type (1),
        // Central (1), Encryption_Size (1), Encryption_Diversifier (2), Random_Number (8), Value (16) }.
        let l = MgmtCommand.loadLongTermKeys(0, [ltk]).bytes
        XCTAssertEqual(l, [0x13, 0x00, 0x00, 0x00, 38, 0x00, 0x01, 0x00,
                           0x01, 0x00, 0x01, 0x01, 0xAA, 0x00, 0x01, 0x02, 0x00, 0x10, 0x34, 0x12, 1, 2, 3, 4, 5, 6, 7, 8] + Array(0x10..<0x20))
        XCTAssertEqual(MgmtCommand.loadLongTermKeys(0, []).bytes, [0x13, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00], "no keys: count 0")
        // Load Identity Resolving Keys: 0x0030; Key_Count (2), Key { Address (6), Address_Type (1), Value (16) }.
        XCTAssertEqual(MgmtCommand.loadIdentityResolvingKeys(0, [irk]).bytes,
                       [0x30, 0x00, 0x00, 0x00, 25, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x01, 0xAA, 0x00, 0x01] + Array(0x30..<0x40))
    }

    func testEvents() {
        // Command Complete Event: 0x0001; Command_Opcode (2), Status (1), Return_Parameters.
        XCTAssertEqual(MgmtEvent(bytes: [0x01, 0x00, 0x00, 0x00, 0x07, 0x00, 0x05, 0x00, 0x00, 0xC1, 0x0A, 0x00, 0x00]),
                       .commandComplete(index: 0, opcode: 0x0005, status: 0, parameters: [0xC1, 0x0A, 0x00, 0x00]))
        // Command Status Event: 0x0002; Command_Opcode (2), Status (1).
        XCTAssertEqual(MgmtEvent(bytes: [0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x2D, 0x00, 0x0C]), .commandStatus(index: 0, opcode: 0x2D, status: 0x0C))
        // New Long Term Key Event: 0x000A; Store_Hint (1), Key (36).
        XCTAssertEqual(MgmtEvent(bytes: [0x0A, 0x00, 0x00, 0x00, 37, 0x00, 0x01] + ltk.bytes), .newLongTermKey(index: 0, storeHint: true, key: ltk))
        // New Identity Resolving Key Event: 0x0018; Store_Hint (1), Random_Address (6), Key (23).
        XCTAssertEqual(MgmtEvent(bytes: [0x18, 0x00, 0x00, 0x00, 30, 0x00, 0x01, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66] + irk.bytes),
                       .newIdentityResolvingKey(index: 0, storeHint: true, randomAddress: [0x11, 0x22, 0x33, 0x44, 0x55, 0x66], key: irk))
        // User Confirmation Request Event: 0x000F; Address (6), Address_Type (1), Confirm_Hint (1), Value (4).
        XCTAssertEqual(MgmtEvent(bytes: [0x0F, 0x00, 0x01, 0x00, 12, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x02, 0x01, 0, 0, 0, 0]),
                       .userConfirmRequest(index: 1, address: [0x11, 0x22, 0x33, 0x44, 0x55, 0x66], addressType: 2, confirmHint: 1))
        // User Confirmation Reply Command: 0x001C; Address (6), Address_Type (1).
        XCTAssertEqual(MgmtCommand.userConfirmReply(1, address: [0x11, 0x22, 0x33, 0x44, 0x55, 0x66], addressType: 2).bytes,
                       [0x1C, 0x00, 0x01, 0x00, 0x07, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x02])
        XCTAssertNil(MgmtEvent(bytes: [0x0A, 0x00, 0x00, 0x00, 37, 0x00, 0x01]), "shorter than its length")
        XCTAssertNil(MgmtEvent(bytes: [0x01, 0x00]))
        XCTAssertEqual(MgmtEvent(bytes: [0x0A, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]), .other(code: 0x0A, index: 0), "too short for a key")
    }

    func testBluetoothdIsFoundByItsProcessName() throws {
        let dir = try makeTemporaryDirectory("proc")
        defer { removeTemporaryDirectory(dir) }
        let proc = dir.path
        XCTAssertEqual(mkdir(proc + "/12", 0o755), 0)
        try writeFile(proc + "/12/comm", Array("sshd\n".utf8))
        XCTAssertEqual(mkdir(proc + "/self", 0o755), 0)
        XCTAssertFalse(BluetoothDaemon.isRunning(proc: proc))
        XCTAssertEqual(mkdir(proc + "/345", 0o755), 0)
        try writeFile(proc + "/345/comm", Array("bluetoothd\n".utf8))
        XCTAssertTrue(BluetoothDaemon.isRunning(proc: proc))
        XCTAssertTrue(BluetoothDaemon.advice.contains("systemctl disable --now bluetooth"))
    }

    func testKeyFile() throws {
        let dir = try makeTemporaryDirectory("deskpet-keys")
        defer { removeTemporaryDirectory(dir) }
        let path = dir.appendingPathComponent("ble-keys").path
        XCTAssertEqual(try BondingKeys.load(path: path), BondingKeys(), "no file: no keys")
        var k = BondingKeys()
        k.add(ltk); k.add(irk)
        var newer = ltk; newer.value = Array(repeating: 0xEE, count: 16)
        k.add(newer)
        XCTAssertEqual(k.longTermKeys, [newer], "a newer key replaces the old one")
        try k.save(path: path)
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertEqual(try BondingKeys.load(path: path), k)
        XCTAssertEqual(k.text, "ltk 01000101aa00 01 02 00 10 3412 0102030405060708 eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee\nirk 01000101aa00 01 303132333435363738393a3b3c3d3e3f\n")
        let damaged = BondingKeys(text: "# keys\nltk zz\n" + k.text + "irk 01 01 00\n")
        XCTAssertEqual(damaged.longTermKeys, k.longTermKeys); XCTAssertEqual(damaged.skippedLines, 2)
        k.remove(address: ltk.address)
        XCTAssertEqual(k, BondingKeys())
    }
}
