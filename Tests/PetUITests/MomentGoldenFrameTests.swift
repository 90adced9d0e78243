import Foundation
import XCTest
import PetCore
@testable import PetUI
import PetDevice

/// Golden frames of the screens' other states (docs/screens.md#golden-frames), on every display:
/// the first run's steps, focus (choose a length, session complete with the break), the
/// celebrations (level-up, streak), the urge log's confirmation, pairing's results, the empty
/// states, the device states (night clock, link lost, low battery) and the recovery screen.
/// Compared byte for byte like `GoldenFrameTests` (same folder, same update: tools/update-golden.sh).
final class MomentGoldenFrameTests: XCTestCase {
    typealias Case = (name: String, screen: ScreenID, state: PetState, ui: (inout UIState) -> Void, device: DeviceStatus)

    static func cases() -> [Case] {
        let now = UIFixture.now
        let plain = UIFixture.state(focus: false)
        var empty = plain
        empty.tasks = [:]
        empty.habits = HabitState()
        empty.shop.owned = [:]; empty.shop.worn = [:]; empty.shop.placed = [:]
        empty.commitments.items = [:]
        var night = plain
        night.quiet = QuietHours(startMinute: 9 * 60, endMinute: 10 * 60)
        let none = DeviceStatus()
        var out: [Case] = []
        for step in FirstRunScreen.Step.allCases where step != .name {
            out.append(("first-run-\(step)", .firstRun, plain, { $0.firstRunStep = step.rawValue }, none))
        }
        out += [
            ("focus-choose", .focus, plain, { $0.focusLength = 1 }, none),
            ("focus-complete", .focus, plain, { $0.focusResult = FocusResult(minutes: 25, coins: 12, ended: now - 28) }, none),
            ("level-up", .home, plain, { $0.toasts = [Toast(text: "Level 9!", kind: .levelUp, until: now + 2, ref: "9")] }, none),
            ("streak", .home, plain, { $0.toasts = [Toast(text: "Badge: 7-day streak", kind: .badge, until: now + 2, ref: "streak-7")] }, none),
            ("urge-done", .home, plain, { $0.urgeLogged = .resisted; $0.urgeLoggedUntil = now + 3 }, none),
            ("urge-gave-in", .home, plain, { $0.urgeLogged = .gaveIn; $0.urgeLoggedUntil = now + 3 }, none),
            ("pairing-paired", .pairing, plain, { $0.pairingCode = nil; $0.pairingOutcome = .paired(phone: "Ana's phone") }, none),
            ("pairing-failed", .pairing, plain, { $0.pairingCode = nil; $0.pairingOutcome = .failed }, none),
            ("pairing-timeout", .pairing, plain, { $0.pairingCode = nil; $0.pairingOutcome = .timedOut }, none),
            ("pairing-list", .pairing, plain, { $0.pairingCode = nil }, none),
            ("today-empty", .today, empty, { $0.cursor = 0 }, none),
            ("wardrobe-empty", .wardrobe, empty, { _ in }, none),
            ("commitments-empty", .commitments, empty, { $0.cursor = 0 }, none),
            ("night", .home, night, { $0.power = .dim }, none),
            ("link-lost", .home, plain, { $0.linkLostAt = now - 2 }, none),
            ("battery-low", .home, plain, { _ in }, DeviceStatus(linkConnected: false, batteryPercent: 7)),
            ("care-play", .petCare, plain, { $0.cursor = 1 }, none),
        ]
        return out
    }

    /// One state drawn on one display in the light theme.
    static func render(_ c: Case, on profile: DisplayProfile) -> Canvas {
        var ui = UIFixture.ui(for: c.screen, now: UIFixture.now)
        c.ui(&ui)
        var ctx = ScreenContext(state: c.state, ui: ui, now: UIFixture.now, config: Navigator.Config(profile: profile),
                        theme: Theme.resolve(.light, for: profile))
        ctx.device = c.device
        var canvas = Canvas(width: profile.width, height: profile.height, background: ctx.theme.background)
        Screens.render(ctx, into: &canvas)
        return canvas
    }

    func testEveryStateOnEveryDisplayMatchesItsGoldenFrame() throws {
        let folder = GoldenFrameTests.folder
        var failures: [String] = []
        var frames: [(String, Canvas)] = []
        for c in Self.cases() {
            for profile in DisplayProfile.all {
                let canvas = Self.render(c, on: profile)
                frames.append(("\(c.name)@\(profile.id)", canvas))
            }
        }
        for profile in DisplayProfile.all {
            frames.append(("recovery@\(profile.id)", RecoveryScreen.render(profile, row: 1234)))
        }
        for (name, canvas) in frames {
            let profile = DisplayProfile.all.first { $0.width == canvas.width && $0.height == canvas.height }!
            let shown = PanelBytes.roundTrip(canvas, format: PixelFormat.natural(for: profile.kind))
            let png = Data(PNG.encode(rgb565: shown))
            let golden = folder.appendingPathComponent(name + ".png")
            let actual = folder.appendingPathComponent(name + "_actual.png")
            if GoldenFrameTests.updating {
                try png.write(to: golden)
                try? FileManager.default.removeItem(at: actual)
                continue
            }
            guard let expected = try? Data(contentsOf: golden) else {
                try png.write(to: actual)
                failures.append("\(name): no golden frame (run tools/update-golden.sh)")
                continue
            }
            if expected == png { try? FileManager.default.removeItem(at: actual); continue }
            try png.write(to: actual)
            failures.append("\(name): differs from the golden frame (see \(actual.lastPathComponent))")
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }

    /// Every state keeps its text inside the display.
    func testMomentsKeepTheirTextOnTheDisplay() {
        for c in Self.cases() {
            for profile in DisplayProfile.all {
                let canvas = Self.render(c, on: profile)
                for run in canvas.textRuns where !run.text.isEmpty {
                    XCTAssertTrue(canvas.bounds.contains(run.rect), "\(c.name)@\(profile.id): '\(run.text)' at \(run.rect)")
                }
            }
        }
    }
}
