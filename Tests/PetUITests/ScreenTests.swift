import Foundation
import XCTest
import PetCore
@testable import PetUI

/// Every screen × display profile × theme drawn from a realistic pet (UIFixture): nothing crashes,
/// every text run lies inside the canvas, the key texts show, 1-bit frames hold two colours, long
/// titles are ellipsized. `SCREENS_PNG_DIR=/tmp/x swift test --filter ScreenTests` also writes PNGs.
final class ScreenTests: XCTestCase {
    static let themes: [DeviceSettings.ThemeName] = [.light, .dark]

    func render(_ screen: ScreenID, _ profile: DisplayProfile, _ theme: DeviceSettings.ThemeName,
                state: PetState = UIFixture.state(), ui: UIState? = nil, now: Instant = UIFixture.now) -> Canvas {
        let ctx = ScreenContext(state: state, ui: ui ?? UIFixture.ui(for: screen, now: now), now: now, config: Navigator.Config(profile: profile),
                                theme: Theme.resolve(theme, for: profile))
        var c = Canvas(width: profile.width, height: profile.height)
        Screens.render(ctx, into: &c)
        return c
    }

    /// Extra frames beside the one per screen: other pages and steps, overlays.
    static func variants(now: Instant = UIFixture.now) -> [(String, PetState, UIState)] {
        let st = UIFixture.state()
        var out: [(String, PetState, UIState)] = []
        for page in 1...2 {
            var ui = UIFixture.ui(for: .stats, now: now); ui.statsPage = page
            out.append(("stats\(page)", st, ui))
        }
        out.append(("focus-idle", UIFixture.state(focus: false), UIFixture.ui(for: .focus, now: now)))
        var urge = UIFixture.ui(for: .urgeLog, now: now); urge.urgeOutcome = 1
        out.append(("urge-outcome", st, urge))
        var set = UIFixture.ui(for: .settings, now: now); set.editingSetting = true; set.cursor = 5; set.editValue = 60
        out.append(("settings-edit", st, set))
        var rem = UIFixture.ui(for: .home, now: now)
        rem.reminder = Reminder(id: "task:dentist:0", source: .task, ref: "dentist", due: now, solicited: true)
        out.append(("reminder", st, rem))
        var toast = UIFixture.ui(for: .today, now: now)
        toast.missedBanner = 3
        toast.toasts = [Toast(text: "+12 coins for Dishes", kind: .reward, until: now + 5),
                        Toast(text: "Level 9! You're on a roll, keep it going", kind: .levelUp, until: now + 5),
                        Toast(text: "expired", kind: .info, until: now)]
        out.append(("toasts", st, toast))
        var scrolled = UIFixture.ui(for: .today, now: now); scrolled.cursor = 9
        out.append(("today-scrolled", st, scrolled))
        var detail = UIFixture.ui(for: .taskDetail, now: now); detail.detailTaskID = "plants"
        out.append(("detail-short", st, detail))
        // docs/navigation.md: the icon menu (on Focus: hold B starts one), and home once the tip is learned.
        var menu = UIFixture.ui(for: .home, now: now); menu.menu = 1
        out.append(("menu", UIFixture.state(focus: false), menu))
        var learned = st; learned.device.holdTipDone = true
        out.append(("home-learned", learned, UIFixture.ui(for: .home, now: now)))
        for tab in [0, 2, 3] {
            var store = UIFixture.ui(for: .shop, now: now); store.shopTab = tab; store.cursor = 30
            out.append(("shop\(tab)", st, store))
        }
        // docs/screens.md, "The screens": a running challenge, a settled one, hostile pet names.
        out.append(("circle-board", UIFixture.circleState(), UIFixture.ui(for: .circle, now: now)))
        out.append(("circle-settled", UIFixture.circleState(settled: true), UIFixture.ui(for: .circle, now: now)))
        for tab in 0..<2 {
            var ui = UIFixture.ui(for: .circle, now: now); ui.circleTab = tab
            out.append(("circle-tab\(tab)", UIFixture.circleState(several: true), ui))
        }
        for k in 0..<5 {
            var ui = UIFixture.ui(for: .circle, now: now); ui.cursor = k
            out.append(("circle-hostile\(k)", UIFixture.circleState(hostile: true), ui))
        }
        return out
    }

    /// Every frame: (name, state, ui).
    static func frames() -> [(String, PetState, UIState)] {
        ScreenID.allCases.map { ($0.rawValue, UIFixture.state(), UIFixture.ui(for: $0)) } + variants()
    }

    func testEveryFrameStaysInsideAndUsesTheThemeOnly() {
        for p in DisplayProfile.all {
            for t in Self.themes {
                let theme = Theme.resolve(t, for: p)
                for (name, st, ui) in Self.frames() {
                    let c = render(ui.screen, p, t, state: st, ui: ui)
                    XCTAssertFalse(c.textRuns.isEmpty, "\(name) \(p) \(t): no text")
                    for r in c.textRuns {
                        XCTAssertTrue(c.bounds.contains(r.rect), "\(name) \(p) \(t): text outside the canvas: \(r)")
                        XCTAssertFalse(r.text.contains("\n"), "\(name) \(p) \(t): \(r.text)")
                    }
                    if p.isMonochrome {
                        let colours = Set(c.pixels)
                        XCTAssertLessThanOrEqual(colours.count, 2, "\(name) \(p) \(t): \(colours.count) colours on a 1-bit display")
                        XCTAssertTrue(colours.isSubset(of: [theme.background.raw, theme.text.raw]), "\(name) \(p) \(t)")
                    }
                }
            }
        }
    }

    func testKeyTextsShowOnEverySize() {
        let st = UIFixture.state()
        let day = st.clock.day(of: UIFixture.now)
        let expect: [String: [String]] = [
            "home": ["09:40", "Lv \(st.level)", "Pay rent", Fmt.compact(st.coins)],
            "today": ["Today", "Pay rent", "Dishes"],
            "task-detail": ["Call the", "16:00", "high"],
            "shop": ["Shop", "Party hat", "Wear"],
            "wardrobe": ["Apple", "x2"],
            "stats": ["1/3"],
            "stats1": ["2/3", "today"],
            "stats2": ["3/3"],
            "focus": ["Focus"],
            "focus-idle": ["25 min"],
            "urge-log": ["Urge log", "Time of day"],
            "urge-outcome": ["Resisted", "Gave in"],
            "commitments": ["jar", "06:50", "Wake"],
            "settings": ["Settings", "03:00", "light"],
            "settings-edit": ["<60 %>"],
            "pairing": ["482 913"],
            "boot": [String(Quotes.forDay(day).split(separator: " ")[0])],
            "reminder": ["Reminder", "Call the"],
            "toasts": ["Missed 3", "Level 9!"],
            "today-scrolled": ["Daily movement", "Habits 1/4"],
            "detail-short": ["Water the plants", "every 3d", "low"],
        ]
        for p in DisplayProfile.all {
            for (name, st, ui) in Self.frames() {
                let c = render(ui.screen, p, .light, state: st, ui: ui)
                // The OLED shows the level on home's second page (`HomeView.tinyPage`), and one
                // list row fewer than the others (its hint strip has a rule and blank rows).
                for s in expect[name] ?? [] where !(p.sizeClass == .tiny && (s.hasPrefix("Lv ") || s == "Habits 1/4")) {
                    XCTAssertTrue(c.showsText(s), "\(name) \(p): missing '\(s)'; shown: \(c.textRuns.map(\.text))")
                }
            }
        }
        // The focus countdown: 09:40 in a session 09:30–09:55 leaves 15 minutes.
        for p in DisplayProfile.all {
            let c = render(.focus, p, .dark)
            XCTAssertTrue(c.showsText(p.animates ? "15:00" : "15 min"), "\(p): \(c.textRuns.map(\.text))")
        }
        // Expired toasts are gone.
        let toasts = render(.today, .square240, .light, ui: Self.variants().first { $0.0 == "toasts" }?.2)
        XCTAssertFalse(toasts.showsText("expired"))
    }

    /// A long title can be read whole: wrapped or scrolled (marquee) where the display animates,
    /// wrapped on the task detail everywhere; e-paper lists and home end it in "..." instead.
    func testLongTitlesCanBeReadWhole() {
        for p in DisplayProfile.all {
            for screen in [ScreenID.today, .taskDetail, .home] {
                var ui = UIFixture.ui(for: screen)
                ui.cursor = 2            // today and home: the dentist
                let c = render(screen, p, .light, ui: ui)
                XCTAssertTrue(c.textRuns.contains { $0.text.hasPrefix("Call") }, "\(screen) \(p): \(c.textRuns.map(\.text))")
                if p.animates || screen == .taskDetail {
                    XCTAssertTrue(TextClipTests.reading(c).contains(TextClipTests.squeeze(UIFixture.longTitle)),
                                  "\(screen) \(p): \(c.textRuns.map(\.text))")
                } else {
                    XCTAssertTrue(c.textRuns.contains { $0.text.hasSuffix("...") }, "\(screen) \(p): \(c.textRuns.map(\.text))")
                }
            }
        }
    }

    func testEmptyStates() {
        let fresh = UIFixture.fresh()
        for p in DisplayProfile.all {
            let home = render(.home, p, .light, state: fresh)
            XCTAssertTrue(home.showsText("No tasks"), "\(p): \(home.textRuns.map(\.text))")
            // (The OLED shows the name on home's second page, with the meters.)
            XCTAssertTrue(home.showsText("Pip") || p.sizeClass == .wide || p.sizeClass == .tiny, "\(p)")
            XCTAssertTrue(render(.today, p, .light, state: fresh).showsText("Nothing due today"), "\(p)")
            XCTAssertTrue(render(.today, p, .light, state: fresh).showsText("Daily movement"), "\(p)")
            XCTAssertTrue(render(.commitments, p, .dark, state: fresh).showsText("No commitments"), "\(p)")
            XCTAssertTrue(render(.wardrobe, p, .dark, state: fresh).showsText("Nothing yet"), "\(p)")
            XCTAssertTrue(render(.focus, p, .dark, state: fresh).showsText("25 min"), "\(p)")
            var missing = UIFixture.ui(for: .taskDetail); missing.detailTaskID = "nope"
            XCTAssertTrue(render(.taskDetail, p, .light, state: fresh, ui: missing).showsText("Task not found"), "\(p)")
            var noCode = UIFixture.ui(for: .pairing); noCode.pairingCode = nil
            XCTAssertTrue(render(.pairing, p, .light, state: fresh, ui: noCode).showsText("No phones"), "\(p)")
            XCTAssertTrue(render(.urgeLog, p, .light, state: fresh, ui: UIState(screen: .urgeLog, lastInput: UIFixture.now))
                .showsText("Boredom") || p.sizeClass == .tiny, "\(p)")
            for s in ScreenID.allCases {
                let c = render(s, p, .dark, state: fresh)
                for r in c.textRuns { XCTAssertTrue(c.bounds.contains(r.rect), "\(s) \(p): \(r)") }
            }
        }
    }

    func testThemesAndSizesDiffer() {
        for s in ScreenID.allCases {
            let light = render(s, .square240, .light), dark = render(s, .square240, .dark)
            XCTAssertNotEqual(light.pixels, dark.pixels, "\(s)")
            XCTAssertTrue(light.pixels.contains(Theme.light.accent.raw) || s == .boot || s == .pairing, "\(s): no accent")
        }
        // The wide layout puts the pet left and information right: the name is drawn left of centre.
        let wide = render(.home, .wide320, .light)
        let name = wide.textRuns.first { $0.text == UIFixture.state().pet.name }
        XCTAssertLessThan(name?.rect.maxX ?? 999, 160)
    }

    func testCursorIsHighlightedAndScrolls() {
        // Today: the last checklist row (movement) is off screen at the top and visible when selected.
        let rows = NavRows.today(UIFixture.state())
        XCTAssertEqual(rows.last, .habit(item: HabitRules.movement))
        XCTAssertEqual(rows.first, .task(id: "rent"))
        for p in DisplayProfile.all {
            var ui = UIFixture.ui(for: .today); ui.cursor = 0
            XCTAssertFalse(render(.today, p, .light, ui: ui).showsText("Daily movement"), "\(p)")
            ui.cursor = rows.count - 1
            let c = render(.today, p, .light, ui: ui)
            XCTAssertTrue(c.showsText("Daily movement"), "\(p)")
            ui.cursor = 999          // out of range: clamped, never a crash
            XCTAssertTrue(render(.today, p, .light, ui: ui).showsText("Daily movement"), "\(p)")
        }
        // The highlighted row is drawn in the accent colour on colour displays.
        var ui = UIFixture.ui(for: .settings); ui.cursor = 0
        let a = render(.settings, .square240, .light, ui: ui)
        ui.cursor = 3
        let b = render(.settings, .square240, .light, ui: ui)
        let accent = Theme.light.accent.raw
        let rowY = { (c: Canvas) in (0..<c.height).first { y in c.pixels[y * c.width + 120] == accent && y > 40 } ?? -1 }
        XCTAssertLessThan(rowY(a), rowY(b))
    }

    func testShopListsMatchTheCatalogue() {
        let all = (0..<4).flatMap { NavRows.shop(tab: $0) }
        XCTAssertEqual(all.count, Catalogue.builtIn.items.count)
        XCTAssertEqual(Set(all.map(\.id)).count, all.count)
        // A locked item shows its level.
        var ui = UIFixture.ui(for: .shop); ui.shopTab = 1; ui.cursor = 5
        XCTAssertTrue(render(.shop, .wide320, .light, ui: ui).showsText("Lv 20"))
    }

    func testWrapAndFormats() {
        XCTAssertEqual(Txt.wrap("one two three four", .small, width: 60, maxLines: 3), ["one two", "three four"])
        XCTAssertEqual(Txt.wrap("one two three four five six", .small, width: 48, maxLines: 2), ["one two", "three..."])
        XCTAssertEqual(Txt.wrap("abcdefghijkl", .small, width: 30, maxLines: 3), ["abcde", "fghij", "kl"])
        XCTAssertEqual(Txt.wrap("", .small, width: 30, maxLines: 3), [])
        for s in ["a b c d e f g h i j k l m n o p", String(repeating: "x", count: 100), UIFixture.longTitle] {
            for w in [6, 18, 60, 100] {
                for lines in Txt.wrap(s, .large, width: w, maxLines: 2) {
                    XCTAssertLessThanOrEqual(Txt.width(lines, .large), max(w, 12), "\(s) \(w)")
                }
            }
        }
        XCTAssertEqual(Fmt.duration(3 * 86_400 + 4 * 3600 + 5), "3d 4h")
        XCTAssertEqual(Fmt.duration(3600 + 300), "1h 05m")
        XCTAssertEqual(Fmt.countdown(15 * 60), "15:00")
        XCTAssertEqual(Fmt.countdown(3600 + 61), "1:01:01")
        XCTAssertEqual(Fmt.minuteOfDay(22 * 60), "22:00")
        XCTAssertEqual(Fmt.compact(123_456), "123k")
        XCTAssertGreaterThanOrEqual(Quotes.all.count, 12)
        XCTAssertTrue(Quotes.all.allSatisfy { $0.count <= 60 })
        XCTAssertEqual(Quotes.forDay(-1), Quotes.all.last)
        XCTAssertEqual(Quotes.forDay(20_000), Quotes.forDay(20_000 + Quotes.all.count))
    }

    func testSizeClasses() {
        XCTAssertEqual(DisplayProfile.square240.sizeClass, .square)
        XCTAssertEqual(DisplayProfile.wide320.sizeClass, .wide)
        XCTAssertEqual(DisplayProfile.oled128.sizeClass, .tiny)
        XCTAssertEqual(DisplayProfile.epaper250.sizeClass, .paper)
        // Odd displays still render every screen inside their bounds.
        let odd = [DisplayProfile(id: "200x90", width: 200, height: 90, kind: .mono),
                   DisplayProfile(id: "296x128", width: 296, height: 128, kind: .epaper),
                   DisplayProfile(id: "480x320", width: 480, height: 320, kind: .colour)]
        XCTAssertEqual(odd.map(\.sizeClass), [.tiny, .paper, .wide])
        for p in odd {
            for (name, st, ui) in Self.frames() {
                let c = render(ui.screen, p, .light, state: st, ui: ui)
                for r in c.textRuns { XCTAssertTrue(c.bounds.contains(r.rect), "\(name) \(p): \(r)") }
            }
        }
    }

    /// Writes every frame as PNG to $SCREENS_PNG_DIR (for looking at them; a temporary folder when
    /// unset) and checks each file is a PNG of the display's size.
    func testWritePreviews() throws {
        let dir = ProcessInfo.processInfo.environment["SCREENS_PNG_DIR"]
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("screens-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { if ProcessInfo.processInfo.environment["SCREENS_PNG_DIR"] == nil { try? FileManager.default.removeItem(atPath: dir) } }
        for p in DisplayProfile.all {
            for t in Self.themes {
                for (name, st, ui) in Self.frames() {
                    let c = render(ui.screen, p, t, state: st, ui: ui)
                    let png = Data(PNG.encode(rgb565: c))
                    try png.write(to: URL(fileURLWithPath: "\(dir)/\(name)-\(p.id)-\(t.rawValue).png"))
                    // IHDR width and height (big-endian) right after the 8-byte signature and chunk header.
                    XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
                    XCTAssertEqual(png[16..<20].reduce(0) { $0 << 8 | Int($1) }, p.width)
                    XCTAssertEqual(png[20..<24].reduce(0) { $0 << 8 | Int($1) }, p.height)
                }
            }
        }
    }

    /// Every status icon on at once (a phone, quiet hours, sound off, paused, a battery) shows on
    /// every display's home, the phone included: none is left out for want of room.
    func testEveryStatusIconShowsAtOnceOnEveryHome() {
        for p in DisplayProfile.all {
            var ctx = ScreenContext(state: UIFixture.statusState(), ui: UIFixture.ui(for: .home), now: UIFixture.now,
                                    config: Navigator.Config(profile: p), theme: Theme.resolve(.light, for: p))
            ctx.device = UIFixture.statusDevice
            var c = Canvas(width: p.width, height: p.height)
            Screens.render(ctx, into: &c)
            let shown = Set(c.spriteRuns.map(\.name).filter { $0.hasPrefix("status/") })
            XCTAssertEqual(shown, ["status/link", "status/quiet", "status/mute", "status/paused", "status/battery"], "\(p)")
            // Apart from one another, none over the clock or the coins' text.
            let icons = c.spriteRuns.filter { $0.name.hasPrefix("status/") }.map(\.rect).sorted { $0.x < $1.x }
            for (a, b) in zip(icons, icons.dropFirst()) { XCTAssertLessThan(a.maxX, b.x, "\(p): icons touch") }
            for run in c.textRuns where run.rect.y < 30 {
                for r in icons { XCTAssertNil(r.intersection(run.rect).flatMap { $0.isEmpty ? nil : $0 }, "\(p): an icon over \(run.text)") }
            }
        }
    }

    /// A picture larger than its box is reduced whole (its proportions kept), never cropped; thin
    /// parts survive; a picture that fits keeps its whole-number scale.
    func testItemPicturesLargerThanTheirBoxAreReducedWhole() {
        let paper = RGB565(raw: 0xFFFF), ink = RGB565(raw: 0)
        // A 22×3 rug with a one-pixel outline into 16×10: 16×2, the top and bottom lines kept.
        var rug = ArtRaster(width: 22, height: 3, fill: paper)
        rug.fillRect(x: 0, y: 0, w: 22, h: 1, ink); rug.fillRect(x: 0, y: 2, w: 22, h: 1, ink)
        let r = ItemPicture.reduced(rug, toFit: Rect(x: 0, y: 0, w: 16, h: 10), paper: paper)
        XCTAssertEqual([r.width, r.height], [16, 2])
        XCTAssertTrue(r.pixels.allSatisfy { $0 == ink.raw }, "the rug's lines are its picture")
        // A 10×20 lamp into 16×10: 5×10, its stem (one column in the middle) still there.
        var lamp = ArtRaster(width: 10, height: 20, fill: paper)
        lamp.fillRect(x: 4, y: 0, w: 2, h: 20, ink)
        let l = ItemPicture.reduced(lamp, toFit: Rect(x: 0, y: 0, w: 16, h: 10), paper: paper)
        XCTAssertEqual([l.width, l.height], [5, 10])
        for y in 0..<10 { XCTAssertEqual(l.pixel(x: 2, y: y), ink, "stem row \(y)") }
        // Every home item drawn in e-paper's 16×10 and the OLED's 8×8: inside the box, and one
        // larger than the box drawn at its own proportions (whole, not a crop).
        for p in [DisplayProfile.epaper250, DisplayProfile.oled128] {
            let ctx = ScreenContext(state: UIFixture.state(), ui: UIFixture.ui(for: .shop), now: UIFixture.now,
                                    config: Navigator.Config(profile: p), theme: Theme.resolve(.light, for: p))
            for item in Catalogue.builtIn.items where item.itemKind == .furniture || item.itemKind == .trinket {
                let box = p == .oled128 ? Rect(x: 4, y: 4, w: 8, h: 8) : Rect(x: 4, y: 4, w: 16, h: 10)
                var c = Canvas(width: 24, height: 18, background: ctx.theme.background)
                ItemPicture.draw(item.id, ctx, &c, in: box, ink: ctx.theme.text, paper: ctx.theme.background)
                var inked: [Int] = []
                for y in 0..<c.height { for x in 0..<c.width where c.pixels[y * c.width + x] != ctx.theme.background.raw { inked.append(x + 100 * y) } }
                XCTAssertFalse(inked.isEmpty, "\(p) \(item.id): nothing drawn")
                XCTAssertTrue(inked.allSatisfy { box.contains(Rect(x: $0 % 100, y: $0 / 100, w: 1, h: 1)) }, "\(p) \(item.id): outside its box")
                guard let (_, f) = PetScene.art("home", item.id, mono: true, library: .builtIn), f.width > box.w || f.height > box.h,
                      let x0 = inked.map({ $0 % 100 }).min(), let x1 = inked.map({ $0 % 100 }).max(),
                      let y0 = inked.map({ $0 / 100 }).min(), let y1 = inked.map({ $0 / 100 }).max() else { continue }
                let k = min(Double(box.w) / Double(f.width), Double(box.h) / Double(f.height))
                let b = f.opaqueBounds
                XCTAssertLessThanOrEqual(abs(Double(x1 - x0 + 1) - Double(b.w) * k), 2.5, "\(p) \(item.id): width \(x1 - x0 + 1) of \(b.w) × \(k)")
                XCTAssertLessThanOrEqual(abs(Double(y1 - y0 + 1) - Double(b.h) * k), 2.5, "\(p) \(item.id): height \(y1 - y0 + 1) of \(b.h) × \(k)")
            }
        }
    }

}
