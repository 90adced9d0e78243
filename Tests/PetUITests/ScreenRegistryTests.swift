import XCTest
import PetCore
@testable import PetUI

/// One walk over the table of screens (`ScreenID.definition`, Screens/Screens.swift), for what the
/// compiler cannot check when a screen is added (docs/architecture.md, "Adding a screen"): a menu
/// entry with its own name and icon, a list frame wherever there are rows, a way back, and an
/// action table whose commands and screen changes are what its inputs do.
final class ScreenRegistryTests: XCTestCase {
    let state = UIFixture.state()
    let now = UIFixture.now

    func testEveryScreenHasAUniqueTitleAndEveryMenuEntryItsOwnIcon() {
        let titles = ScreenID.allCases.map { $0.definition.title }
        XCTAssertFalse(titles.contains(""), "a screen without a title: \(titles)")
        XCTAssertEqual(Set(titles).count, titles.count, "two screens share a title: \(titles)")
        XCTAssertEqual(Set(NavRows.menu).count, NavRows.menu.count, "a screen is twice in the menu")
        XCTAssertFalse(NavRows.menu.contains(.boot) || NavRows.menu.contains(.home))
        let frame = BootScreen.icon
        var seen: [[String]: ScreenID] = [:]
        for s in NavRows.menu {
            let icon = s.definition.icon
            XCTAssertEqual(icon.count, 10, "\(s)'s icon has \(icon.count) lines, not 10")
            XCTAssertTrue(icon.allSatisfy { $0.count == 10 && $0.allSatisfy { $0 == "X" || $0 == "." } },
                          "\(s)'s icon: 10 columns of X and . per line")
            XCTAssertNotEqual(icon, frame, "\(s) is in the menu but has no icon of its own (give its definition an `icon`)")
            if let other = seen[icon] { XCTFail("\(s) and \(other) share an icon") }
            seen[icon] = s
        }
    }

    /// A screen that has rows has somewhere to draw them, on every display, inside the display and
    /// above the hint bar; its row ids are unique.
    func testEveryScreenWithRowsHasAListFrameOnEveryDisplay() {
        for profile in DisplayProfile.all {
            let config = Navigator.Config(profile: profile)
            for screen in ScreenID.allCases {
                var ui = UIFixture.ui(for: screen, now: now)
                ui.pairingCode = nil
                let rows = NavRows.rows(ui: ui, state: state, now: now, config: config)
                XCTAssertEqual(Set(rows.map(\.id)).count, rows.count, "\(screen) on \(profile): row ids repeat")
                guard let frame = ListLayout.frame(screen, profile: profile, state: state, now: now) else {
                    XCTAssertTrue(rows.isEmpty, "\(screen) has rows but no list frame on \(profile): give its definition a `listFrame`")
                    continue
                }
                XCTAssertGreaterThanOrEqual(frame.visible, 1)
                XCTAssertGreaterThanOrEqual(frame.area.x, 0)
                XCTAssertLessThanOrEqual(frame.area.x + frame.area.w, profile.width, "\(screen) on \(profile)")
                XCTAssertLessThanOrEqual(frame.area.y + frame.area.h, profile.height - HintBar.height(profile),
                                         "\(screen)'s list runs into the hint bar on \(profile)")
            }
        }
    }

    /// Every screen but the boot screen has back (home: back to the first card or the tip) and,
    /// away from home, double back going home.
    func testEveryScreenHasAWayBack() {
        for profile in DisplayProfile.all {
            let config = Navigator.Config(profile: profile)
            for screen in ScreenID.allCases where screen != .boot {
                let table = Navigator.view(of: UIFixture.ui(for: screen, now: now), state: state, now: now, config: config).actions
                XCTAssertTrue(table.contains { $0.input == .back }, "\(screen) on \(profile): no back")
                if screen != .home {
                    XCTAssertTrue(table.contains { $0.input == .doubleBack && $0.verb == .home }, "\(screen): double back does not go home")
                }
            }
        }
    }

    /// What a screen's table says an input does is what the input does there: a command is sent,
    /// a screen opens, back leaves, up and down move the highlight. An input the table does not
    /// list does nothing.
    func testEveryScreensTableIsWhatItsInputsDo() {
        var checked = 0
        for keys in [NavKeys.threeButtons, NavKeys([.previous: "^", .next: "v", .select: "OK", .back: "<", .forward: ">",
                                                    .holdPrevious: "hold ^", .holdSelect: "hold OK", .holdBack: "hold <"])] {
            var config = Navigator.Config(profile: .square240, hasChord: keys == .threeButtons, keys: keys)
            config.homeAfter = 3600
            for screen in ScreenID.allCases where screen != .boot {
                var nav = Navigator(state: state, now: now, config: config, boot: false)
                nav.ui = UIFixture.ui(for: screen, now: now)
                nav.ui.pairingCode = nil
                nav.tick(state: state, now: now)
                let table = nav.actionTable(state: state, now: now)
                for input in NavInput.allCases where input != .chord && input != .reset {
                    var n = nav
                    let before = n.ui
                    let effects = n.handle(NavPress(input), state: state, now: now)
                    let sent = effects.compactMap { e -> Action? in if case .send(let a) = e { a } else { nil } }
                    // Any press verifies an open wake-up window, whatever the screen: not the screen's doing.
                    let own = sent.filter { !NavCommand.confirm.matches($0) }
                    guard let entry = table.first(where: { $0.input == input }) else {
                        XCTAssertTrue(own.isEmpty, "\(screen): \(input) is not in its table but sends \(own)")
                        XCTAssertEqual(n.ui.screen, before.screen, "\(screen): \(input) is not in its table but changes the screen")
                        continue
                    }
                    let what = "\(screen) (\(keys == .threeButtons ? "3 buttons" : "joystick")): \(input) → \(entry.verb)"
                    switch entry.verb {
                    case .command(let c):
                        XCTAssertTrue(sent.contains { c.matches($0) }, "\(what) sends \(sent)")
                        checked += 1
                    case .open(let s):
                        XCTAssertEqual(n.ui.screen, s, what)
                        checked += 1
                    case .back:
                        XCTAssertNotEqual(n.ui.screen, screen, what)
                    case .home:
                        XCTAssertEqual(n.ui.screen, .home, what)
                    case .menu:
                        XCTAssertNotNil(n.ui.menu, what)
                    case .up, .down:
                        XCTAssertNotEqual(n.ui, before, "\(what) moves nothing")
                    default:
                        break
                    }
                }
            }
        }
        // The fixture reaches the commands and screen changes of most screens, on both boards.
        XCTAssertGreaterThan(checked, 20)
    }
}
