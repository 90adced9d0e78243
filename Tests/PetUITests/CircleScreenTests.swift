import XCTest
import PetCore
@testable import PetUI

/// docs/screens.md, "The screens": the Circle screen with several circles — B goes to the next
/// one ("tab"), the boards of that circle are shown (week first), the cursor lands on the own row;
/// with one circle there is no tab.
final class CircleScreenTests: XCTestCase {
    func open(_ state: PetState, config: Navigator.Config = Navigator.Config(profile: .square240)) -> Navigator {
        let now = UIFixture.now
        var nav = Navigator(state: state, now: now, config: config, boot: false)
        nav.open(.circle, state: state, now: now)
        nav.tick(state: state, now: now)
        return nav
    }

    func sections(_ nav: Navigator) -> [String] { nav.view.list?.rows.filter { $0.kind == .section }.map(\.label) ?? [] }

    func testBGoesToTheNextCircleAndItsBoards() throws {
        let s = UIFixture.circleState(several: true)
        var nav = open(s)
        XCTAssertEqual(nav.ui.circleTab, 0)
        XCTAssertEqual(sections(nav), ["Week: coins"])
        XCTAssertEqual(nav.view.list?.rows[nav.view.list?.selected ?? 0].id, "member:0:mochi", "opened on the own row")
        XCTAssertTrue(nav.view.actions.contains { $0.verb == .tab && $0.input == .select })
        XCTAssertTrue(nav.view.hints.contains { $0.verb == .tab && $0.action == "tab" }, "\(nav.view.hints)")

        _ = nav.handle(NavPress(.select), state: s, now: UIFixture.now)
        XCTAssertEqual(nav.ui.circleTab, 1)
        XCTAssertEqual(sections(nav), ["Week: focus", "Month: coins"], "week before month")
        XCTAssertEqual(nav.view.list?.rows[nav.view.list?.selected ?? 0].id, "member:0:mochi")
        let ids = nav.view.list?.rows.map(\.id) ?? []
        XCTAssertEqual(Set(ids).count, ids.count, "a member on two boards has two row ids")

        _ = nav.handle(NavPress(.select), state: s, now: UIFixture.now)
        XCTAssertEqual(nav.ui.circleTab, 0, "round again")
        XCTAssertEqual(nav.view.list?.rows[nav.view.list?.selected ?? 0].id, "member:0:mochi")

        // Reopened: the first circle again.
        nav.ui.circleTab = 1
        nav.open(.circle, state: s, now: UIFixture.now)
        nav.tick(state: s, now: UIFixture.now)
        XCTAssertEqual(nav.ui.circleTab, 0)
        XCTAssertEqual(sections(nav), ["Week: coins"])
    }

    func testOneCircleHasNoTabAndATabOutOfRangeShowsTheFirst() {
        let s = UIFixture.circleState()
        var nav = open(s)
        XCTAssertFalse(nav.view.actions.contains { $0.verb == .tab })
        _ = nav.handle(NavPress(.select), state: s, now: UIFixture.now)
        XCTAssertEqual(nav.ui.circleTab, 0)
        // A circle left while its page was shown: the index no longer exists, the first is shown.
        XCTAssertEqual(NavRows.shownCircle(s, tab: 5)?.circle, "study-buddies")
        XCTAssertNil(NavRows.shownCircle(UIFixture.state(), tab: 0))
    }
}
