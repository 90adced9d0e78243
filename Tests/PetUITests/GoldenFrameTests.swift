import Foundation
import XCTest
import TestSupport
import PetCore
@testable import PetUI
import PetDevice   // the panels' RAM layouts (PetDevice/Drivers/*RAM.swift) the frames are shown through

/// Golden frames (docs/screens.md#golden-frames): every screen × every display size (and the home screen in both themes)
/// rendered headless, packed in the panel's byte format and decoded back (what the panel shows), and
/// compared byte for byte with the committed PNGs in Tests/PetUITests/Golden.
/// A mismatch writes `<name>_actual.png` and `<name>_diff.png` (changed pixels in magenta over a
/// faded copy of the golden) next to it. Regenerate all of them with:
///
///     tools/update-golden.sh        (= DESKPET_UPDATE_GOLDEN=1 swift test --filter GoldenFrameTests)
final class GoldenFrameTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static var updating: Bool { ProcessInfo.processInfo.environment["DESKPET_UPDATE_GOLDEN"] == "1" }

    /// The frames checked: (file name, screen, profile, theme).
    static func cases() -> [(String, ScreenID, DisplayProfile, DeviceSettings.ThemeName)] {
        var out: [(String, ScreenID, DisplayProfile, DeviceSettings.ThemeName)] = []
        for screen in ScreenID.allCases {
            for profile in DisplayProfile.all {
                out.append(("\(screen.rawValue)@\(profile.id)", screen, profile, .light))
            }
        }
        for profile in DisplayProfile.all {
            out.append(("home-dark@\(profile.id)", .home, profile, .dark))
        }
        for profile in DisplayProfile.all {
            out.append(("home-status@\(profile.id)", .home, profile, .light))
        }
        // The circle (docs/screens.md, "The screens"): "circle@" runs a challenge; settled; none joined.
        for profile in DisplayProfile.all {
            out.append(("circle-settled@\(profile.id)", .circle, profile, .light))
            out.append(("circle-empty@\(profile.id)", .circle, profile, .light))
            out.append(("circle-tab@\(profile.id)", .circle, profile, .light))
        }
        // The shop's other pictures (docs/shop.md): the food tab on its second item, the home tab.
        for profile in DisplayProfile.all {
            out.append(("shop-food@\(profile.id)", .shop, profile, .light))
            out.append(("shop-home@\(profile.id)", .shop, profile, .light))
        }
        // The icon menu over home (docs/screens.md), on its second entry.
        for profile in DisplayProfile.all {
            out.append(("menu@\(profile.id)", .home, profile, .light))
        }
        return out
    }

    func testEveryScreenOnEveryDisplayMatchesItsGoldenFrame() throws {
        let state = UIFixture.state()
        let now = UIFixture.now
        try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
        var failures: [String] = []
        for (name, screen, profile, themeName) in Self.cases() {
            var ui = UIFixture.ui(for: screen, now: now)
            if name.hasPrefix("menu@") { ui.menu = 1 }
            if name.hasPrefix("shop-food@") { ui.shopTab = 0; ui.cursor = 1 }
            if name.hasPrefix("shop-home@") { ui.shopTab = 3; ui.cursor = 1 }
            // home-status: every status icon and a hungry pet (the attention bubble).
            let status = name.hasPrefix("home-status")
            var shownState = status ? UIFixture.statusState() : state
            if screen == .circle && !name.hasPrefix("circle-empty") {
                shownState = UIFixture.circleState(settled: name.hasPrefix("circle-settled"), several: name.hasPrefix("circle-tab"))
            }
            // circle-tab: the second of two circles (B went to the next one).
            if name.hasPrefix("circle-tab") { ui.circleTab = 1; ui.cursor = 0 }
            var ctx = ScreenContext(state: shownState, ui: ui, now: now,
                                    config: Navigator.Config(profile: profile), theme: Theme.resolve(themeName, for: profile))
            if status { ctx.device = UIFixture.statusDevice }
            var canvas = Canvas(width: profile.width, height: profile.height, background: ctx.theme.background)
            Screens.render(ctx, into: &canvas)
            // What the panel shows: the frame packed in the panel's own format (RGB565, SSD1306
            // pages, SSD1680 rows) and decoded back, so a 1-bit golden frame is the 1-bit picture.
            let shown = PanelBytes.roundTrip(canvas, format: PixelFormat.natural(for: profile.kind))
            let png = Data(PNG.encode(rgb565: shown))
            let golden = Self.folder.appendingPathComponent(name + ".png")
            let actual = Self.folder.appendingPathComponent(name + "_actual.png")
            let diff = Self.folder.appendingPathComponent(name + "_diff.png")
            if Self.updating {
                try png.write(to: golden)
                try? FileManager.default.removeItem(at: actual)
                try? FileManager.default.removeItem(at: diff)
                continue
            }
            guard let expected = try? Data(contentsOf: golden) else {
                try png.write(to: actual)
                failures.append("\(name): no golden frame (wrote \(actual.lastPathComponent); run tools/update-golden.sh)")
                continue
            }
            if expected == png {
                try? FileManager.default.removeItem(at: actual)
                try? FileManager.default.removeItem(at: diff)
                continue
            }
            try png.write(to: actual)
            try Data(Self.diffImage(expected: expected, actual: canvas)).write(to: diff)
            failures.append("\(name): differs from the golden frame (see \(actual.lastPathComponent), \(diff.lastPathComponent))")
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }

    /// A faded copy of the actual frame with every pixel that differs from the golden in magenta.
    /// (The golden is decoded by re-rendering is not possible, so the diff compares against the
    /// golden's pixels read back through PIL when available, else marks the whole frame.)
    static func diffImage(expected: Data, actual: Canvas) -> [UInt8] {
        let goldenPixels = decodeRGB(expected, width: actual.width, height: actual.height)
        var rgb = [UInt8](repeating: 0, count: actual.width * actual.height * 3)
        for i in 0..<(actual.width * actual.height) {
            let c = RGB565(raw: actual.pixels[i])
            let a = (c.r8, c.g8, c.b8)
            let differs = goldenPixels.map { $0[3 * i] != a.0 || $0[3 * i + 1] != a.1 || $0[3 * i + 2] != a.2 } ?? true
            if differs {
                rgb[3 * i] = 255; rgb[3 * i + 1] = 0; rgb[3 * i + 2] = 255
            } else {
                rgb[3 * i] = UInt8(128 + Int(a.0) / 2); rgb[3 * i + 1] = UInt8(128 + Int(a.1) / 2); rgb[3 * i + 2] = UInt8(128 + Int(a.2) / 2)
            }
        }
        return PNG.encodeRGB(width: actual.width, height: actual.height, rgb: rgb)
    }

    /// Decodes a PNG to RGB bytes with PIL (an independent decoder), or nil.
    static func decodeRGB(_ png: Data, width: Int, height: Int) -> [UInt8]? {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: tmp) }
        guard (try? png.write(to: tmp)) != nil else { return nil }
        let script = "import sys;from PIL import Image;sys.stdout.buffer.write(Image.open(sys.argv[1]).convert('RGB').tobytes())"
        guard let r = try? runTool("/usr/bin/python3", ["-c", script, tmp.path]),
              r.status == 0, r.stdoutData.count == width * height * 3 else { return nil }
        return [UInt8](r.stdoutData)
    }
}
