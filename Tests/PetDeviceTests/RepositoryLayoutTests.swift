import Foundation
import XCTest
import TestSupport

/// Where things live (docs/architecture.md): checks over the repository's own files.
final class RepositoryLayoutTests: XCTestCase {
    /// PetUI hands out canvases; a panel controller's RAM layout (SSD1306 pages, SSD1680 rows,
    /// big-endian RGB565) is its driver's, in Sources/PetDevice/Drivers.
    func testPanelRAMLayoutsLiveWithTheirDrivers() throws {
        let ui = try repositoryFiles(under: "Sources/PetUI", extensions: ["swift"])
        XCTAssertGreaterThan(ui.count, 20, "the scan found PetUI")
        for (path, text) in ui {
            for name in ["ssd1306Bytes", "ssd1680Bytes", "PanelBytes", "PixelFormat", "PackedRect", "decodeSSD"] {
                XCTAssertFalse(text.contains(name), "\(path) names \(name): a panel's RAM layout belongs in PetDevice/Drivers")
            }
        }
        let drivers = Set(try repositoryFiles(under: "Sources/PetDevice/Drivers", extensions: ["swift"]).map(\.path))
        for f in ["PanelFormat", "ST7789RAM", "SSD1306RAM", "SSD1680RAM"] {
            XCTAssertTrue(drivers.contains("Sources/PetDevice/Drivers/\(f).swift"), f)
        }
    }
}
