import XCTest
import PetCore
import TestSupport
@testable import PetUI

/// Drawing only what changed (Sources/PetUI/Graphics/Damage.swift): a canvas carried from frame to
/// frame, redrawn only where the recorded operations changed, must hold exactly the pixels of
/// the same frame drawn from scratch — for every screen × display × theme, after every step of an
/// interaction sequence (cursor moves, screens opened and closed, the menu, the clock ticking,
/// the pet's animation, theme changes, a wipe written over the frame).
final class DamageTests: XCTestCase {
    /// The inputs each screen gets, one frame after each (the navigator's view of each; commands
    /// they ask for are not applied: the state stays the fixture's).
    static let inputs: [NavInput] = [.next, .next, .previous, .forward, .select, .next, .back, .holdPrevious,
                                     .select, .next, .back, .back]

    func testEveryScreenDrawnByDamageMatchesAFullRedraw() {
        let state = UIFixture.state()
        let start = UIFixture.now
        var failures: [String] = []
        var frames = 0, partial = 0
        for profile in DisplayProfile.all {
            let config = Navigator.Config(profile: profile)
            // One canvas for the whole run on this display: every frame is drawn by damage.
            var carried = Canvas(width: profile.width, height: profile.height, background: .black)
            var ms = TimeRange.milliseconds(start)
            for themeName in [DeviceSettings.ThemeName.light, .dark] {
                let theme = Theme.resolve(themeName, for: profile)
                for screen in ScreenID.allCases {
                    var nav = Navigator(state: state, now: start, config: config, boot: false)
                    nav.ui = UIFixture.ui(for: screen, now: start)
                    nav.tick(state: state, now: start)
                    func frame(_ label: String) {
                        let now = Instant(floorDiv(ms, 1000))
                        let ctx = ScreenContext(navigator: nav, state: state, now: now, nowMs: ms, theme: theme)
                        let drawn = Screens.render(ctx, into: &carried)
                        var fresh = Canvas(width: profile.width, height: profile.height, background: .black)
                        Screens.render(ctx, into: &fresh)
                        frames += 1
                        if drawn != [carried.bounds] { partial += 1 }
                        if fresh.pixels != carried.pixels {
                            let n = zip(fresh.pixels, carried.pixels).filter { $0 != $1 }.count
                            failures.append("\(screen.rawValue)@\(profile.id) \(themeName) after \(label): \(n) pixels differ")
                        }
                    }
                    frame("opening it")
                    for (k, input) in Self.inputs.enumerated() {
                        _ = nav.handle(NavPress(input), state: state, now: Instant(floorDiv(ms, 1000)))
                        // Time moves: animation frames, a second, and now and then a minute (the clock).
                        ms += k % 4 == 3 ? 61_000 : (k % 2 == 0 ? 100 : 1_000)
                        frame(input.rawValue)
                        // A frame with nothing changed but the time by a few ms.
                        if k == 0 { ms += 7; frame("\(input.rawValue), then 7 ms") }
                    }
                    // The menu over it, moved through, closed.
                    nav.ui.menu = 0
                    frame("the menu")
                    nav.ui.menu = 3
                    frame("the menu's fourth entry")
                    nav.ui.menu = nil
                    frame("the menu closed")
                    // A wipe written over the frame (outside the recording), then the next frame.
                    ScreenTransition(from: Canvas(width: profile.width, height: profile.height, background: .white),
                                     startMs: ms, direction: .forward, edge: theme.accent).compose(&carried, at: ms)
                    ms += 40
                    frame("a wipe composed over the frame")
                }
            }
        }
        XCTAssertEqual(failures, [], failures.prefix(20).joined(separator: "\n"))
        XCTAssertGreaterThan(frames, 1000)
        // Most frames were drawn only in part (else the test would not test the damage path).
        XCTAssertGreaterThan(partial, frames / 2, "frames drawn only in part: \(partial) of \(frames)")
    }

    /// The status strip's variants (every icon, the attention bubble) and a clock minute, by damage.
    func testHomeStatusByDamage() {
        let now = UIFixture.now
        for profile in DisplayProfile.all {
            let theme = Theme.resolve(.light, for: profile)
            var carried = Canvas(width: profile.width, height: profile.height, background: .black)
            for (k, status) in [false, true, true, false].enumerated() {
                let t = now + Int64(k * 60)
                var ctx = ScreenContext(state: status ? UIFixture.statusState() : UIFixture.state(), ui: UIFixture.ui(for: .home, now: now),
                                        now: t, config: Navigator.Config(profile: profile), theme: theme)
                if status { ctx.device = UIFixture.statusDevice }
                Screens.render(ctx, into: &carried)
                var fresh = Canvas(width: profile.width, height: profile.height, background: .black)
                Screens.render(ctx, into: &fresh)
                XCTAssertEqual(fresh.pixels, carried.pixels, "home status=\(status) step \(k) on \(profile.id)")
                XCTAssertEqual(fresh.textRuns, carried.textRuns)
            }
        }
    }

    /// The same frame twice draws nothing; a frame changed in one small part draws only tiles
    /// around it; a pixel written outside a recorded frame is drawn again at the next frame.
    func testDamageIsWhatChanged() {
        var c = Canvas(width: 100, height: 60, background: .black)
        func draw(_ x: Int, _ text: String) -> [Rect] {
            c.beginFrame()
            c.fill(.white)
            c.fillRect(x: x, y: 10, w: 8, h: 8, color: .black)
            c.drawText(text, x: 2, y: 40, color: .black)
            return c.endFrame()
        }
        XCTAssertEqual(draw(10, "ab"), [c.bounds], "a new canvas is drawn whole")
        XCTAssertEqual(c.takeDamage(), [c.bounds])
        XCTAssertEqual(draw(10, "ab"), [], "the same frame again draws nothing")
        XCTAssertEqual(c.takeDamage(), [])
        let moved = draw(40, "ab")
        XCTAssertEqual(moved, [Rect(x: 0, y: 0, w: 48, h: 32)], "the square's old and new tiles")
        XCTAssertEqual(c.pixel(x: 10, y: 10), .white)
        XCTAssertEqual(c.pixel(x: 40, y: 10), .black)
        let glyph = draw(40, "ac")
        XCTAssertFalse(glyph.isEmpty)
        XCTAssertTrue(glyph.allSatisfy { $0.y >= 32 && $0.maxX <= 48 }, "only the changed glyph's tiles: \(glyph)")
        // Written outside a frame: redrawn (and reported) at the next frame though nothing changed.
        c.setPixel(x: 90, y: 50, color: .black)
        XCTAssertEqual(draw(40, "ac"), [Rect(x: 80, y: 48, w: 16, h: 12)])
        XCTAssertEqual(c.pixel(x: 90, y: 50), .white)
        // Damage accumulates until taken, kept to a few rectangles.
        XCTAssertFalse(c.takeDamage().isEmpty)
        for k in 0..<40 { c.invalidate(Rect(x: (k * 7) % 90, y: (k * 13) % 50, w: 3, h: 3)) }
        let d = c.takeDamage()
        XCTAssertLessThanOrEqual(d.count, 16)
        for k in 0..<40 { XCTAssertTrue(d.contains { $0.contains(Rect(x: (k * 7) % 90, y: (k * 13) % 50, w: 3, h: 3)) }) }
    }

    /// The frame diff inside the damage finds exactly what the whole-frame diff finds.
    func testDiffWithinDamageEqualsTheWholeDiff() {
        var a = Canvas(width: 64, height: 48, background: .white)
        var b = a
        b.fillRect(x: 3, y: 4, w: 5, h: 2, color: .black)
        b.fillRect(x: 50, y: 30, w: 9, h: 9, color: .black)
        let whole = FrameDiff.changedRects(from: a, to: b)
        XCTAssertEqual(FrameDiff.changedRects(from: a, to: b, within: [Rect(x: 0, y: 0, w: 16, h: 16), Rect(x: 48, y: 16, w: 16, h: 32)]), whole)
        XCTAssertEqual(FrameDiff.changedRects(from: a, to: b, within: []), [])
        XCTAssertEqual(FrameDiff.changedRects(from: a, to: b, within: [Rect(x: -100, y: -100, w: 1000, h: 1000)]), whole)
        a = b
        XCTAssertEqual(FrameDiff.changedRects(from: a, to: b, within: [b.bounds]), [])
    }
    /// Long random interaction sequences (a seeded generator: the same every run) on every display
    /// and theme: random inputs on whatever screen they lead to, time moving by animation frames,
    /// seconds and minutes, the state and the device status changing under the screen, the menu,
    /// theme switches and wipes written over the frame. After every step the carried canvas (drawn
    /// by damage, its unchanged parts reused) holds the pixels, text runs and sprite runs of the
    /// same frame drawn from scratch.
    func testRandomSequencesByDamageMatchAFullRedraw() {
        var rng = SplitMix64(seed: 0xDE5C_9E70)
        let states = [UIFixture.state(), UIFixture.state(focus: false), UIFixture.statusState()]
        let start = UIFixture.now
        var failures: [String] = []
        var frames = 0, reusedFrames = 0
        for profile in DisplayProfile.all {
            let config = Navigator.Config(profile: profile)
            var carried = Canvas(width: profile.width, height: profile.height, background: .black)
            var ms = TimeRange.milliseconds(start)
            var themeName = DeviceSettings.ThemeName.light
            var state = states[0]
            var device = DeviceStatus()
            var nav = Navigator(state: state, now: start, config: config, boot: false)
            nav.ui = UIFixture.ui(for: .home, now: start)
            nav.tick(state: state, now: start)
            for step in 0..<400 {
                let roll = rng.next() % 100
                let now = Instant(floorDiv(ms, 1000))
                switch roll {
                case 0..<55:
                    let input = NavInput.allCases[Int(rng.next() % UInt64(NavInput.allCases.count))]
                    _ = nav.handle(NavPress(input), state: state, now: now)
                case 55..<62:
                    state = states[Int(rng.next() % UInt64(states.count))]
                case 62..<66:
                    device = rng.next() % 2 == 0 ? DeviceStatus() : UIFixture.statusDevice
                case 66..<70:
                    nav.ui.menu = nav.ui.menu == nil ? Int(rng.next() % 4) : nil
                case 70..<72:
                    themeName = themeName == .light ? .dark : .light
                case 72..<75:
                    // Back home now and then, where most of the time is spent.
                    nav.ui = UIFixture.ui(for: .home, now: now)
                case 75..<77:
                    ScreenTransition(from: Canvas(width: profile.width, height: profile.height, background: .white),
                                     startMs: ms, direction: .forward, edge: .black).compose(&carried, at: ms + 60)
                default:
                    break
                }
                ms += [16, 100, 100, 1_000, 7, 61_000][Int(rng.next() % 6)]
                let t = Instant(floorDiv(ms, 1000))
                nav.tick(state: state, now: t)
                let theme = Theme.resolve(themeName, for: profile)
                var ctx = ScreenContext(navigator: nav, state: state, now: t, nowMs: ms, theme: theme)
                ctx.device = device
                let drawn = Screens.render(ctx, into: &carried)
                var fresh = Canvas(width: profile.width, height: profile.height, background: .black)
                Screens.render(ctx, into: &fresh)
                frames += 1
                if drawn != [carried.bounds] { reusedFrames += 1 }
                let where_ = "\(nav.ui.screen.rawValue)@\(profile.id) \(themeName) step \(step)"
                if fresh.pixels != carried.pixels {
                    let n = zip(fresh.pixels, carried.pixels).filter { $0 != $1 }.count
                    failures.append("\(where_): \(n) pixels differ")
                }
                if fresh.textRuns != carried.textRuns { failures.append("\(where_): text runs differ") }
                if fresh.spriteRuns != carried.spriteRuns { failures.append("\(where_): sprite runs differ") }
            }
        }
        XCTAssertEqual(failures, [], failures.prefix(20).joined(separator: "\n"))
        XCTAssertEqual(frames, 1600)
        XCTAssertGreaterThan(reusedFrames, frames / 2, "frames drawn only in part: \(reusedFrames) of \(frames)")
    }

    /// A part drawn with the inputs of the previous frame is reused (its drawing does not run);
    /// new inputs draw it again; a part whose bookkeeping its edits cannot replay is never reused.
    func testPartsAreReusedOnlyWithEqualInputs() {
        var c = Canvas(width: 64, height: 32, background: .black)
        var runs = 0
        func frame(_ text: String, highlight: Bool = false) -> [Rect] {
            c.beginFrame()
            c.fill(.white)
            c.part("label", [text, highlight ? "highlighted" : ""]) { c in
                runs += 1
                let n = c.textRuns.count
                c.drawText(text, x: 2, y: 2, color: .black)
                if highlight { c.markHighlighted(from: n) }
            }
            c.fillRect(x: 40, y: 20, w: 4, h: 4, color: .black)
            return c.endFrame()
        }
        _ = frame("ab")
        XCTAssertEqual(runs, 1)
        XCTAssertEqual(frame("ab"), [], "the same inputs draw nothing")
        XCTAssertEqual(runs, 1, "and do not run the part's drawing")
        XCTAssertEqual(c.textRuns.map(\.text), ["ab"], "its text run comes back with it")
        XCTAssertFalse(frame("ac").isEmpty)
        XCTAssertEqual(runs, 2)
        var fresh = Canvas(width: 64, height: 32, background: .black)
        fresh.fill(.white); fresh.drawText("ac", x: 2, y: 2, color: .black); fresh.fillRect(x: 40, y: 20, w: 4, h: 4, color: .black)
        XCTAssertEqual(c.pixels, fresh.pixels)
        // Highlighting is not replayed by a part: such a part runs every frame.
        _ = frame("ac", highlight: true)
        _ = frame("ac", highlight: true)
        XCTAssertEqual(runs, 4)
        XCTAssertEqual(c.highlightedText, ["ac"])
    }
}

