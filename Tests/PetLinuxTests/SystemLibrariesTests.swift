import XCTest
@testable import PetLinux

/// The C shims link for real: libgpiod v1 and libbluetooth answer through pkg-config's flags.
final class SystemLibrariesTests: XCTestCase {
    func testLibgpiodIsVersion1() {
        let v = SystemLibraries.gpiodVersion
        XCTAssertTrue(v.hasPrefix("1."), "DeskPet uses the libgpiod v1 API, found \(v)")
    }

    func testBlueZFormatsAddresses() {
        // BlueZ stores addresses little-endian: the last byte is printed first.
        XCTAssertEqual(SystemLibraries.bluetoothAddressString([0x66, 0x55, 0x44, 0x33, 0x22, 0x11]), "11:22:33:44:55:66")
        XCTAssertNil(SystemLibraries.bluetoothAddressString([1, 2, 3]))
    }
}
