import XCTest
@testable import PetLinux

/// The C shims link for real: libbluetooth answers through pkg-config's flags. (GPIO needs no
/// library: the kernel's uAPI v2 is used directly, GPIOUAPITests.)
final class SystemLibrariesTests: XCTestCase {
    func testBlueZFormatsAddresses() {
        // BlueZ stores addresses little-endian: the last byte is printed first.
        XCTAssertEqual(SystemLibraries.bluetoothAddressString([0x66, 0x55, 0x44, 0x33, 0x22, 0x11]), "11:22:33:44:55:66")
        XCTAssertNil(SystemLibraries.bluetoothAddressString([1, 2, 3]))
    }
}
