import XCTest
import PetCore
@testable import PetUI
import PetDevice   // the panels' RAM layouts (PetDevice/Drivers/*RAM.swift) the frames are shown through

/// A state at noon UTC (outside the default quiet hours) for the art tests.
enum ArtFixture {
    static let noon = Instant(1_699_963_200)          // 2023-11-14 12:00 UTC
    static var noonMs: Int64 { noon.seconds * 1000 }

    static func state(_ f: (inout PetState) -> Void = { _ in }) -> PetState {
        var s = PetState(createdAt: noon - Seconds.day, zoneID: "UTC", zone: .utc)
        f(&s)
        return s
    }

    static func context(_ s: PetState, _ profile: DisplayProfile = .square240, _ theme: Theme = .light,
                        toasts: [Toast] = []) -> ScreenContext {
        var ui = UIState(screen: .home, lastInput: noon)
        ui.toasts = toasts
        return ScreenContext(state: s, ui: ui, now: noon, config: Navigator.Config(profile: profile), theme: theme)
    }

    static func render(_ s: PetState, _ profile: DisplayProfile = .square240, _ theme: Theme = .light,
                       rect: Rect = Rect(x: 0, y: 0, w: 144, h: 160), ms: Int64? = nil) -> Canvas {
        var c = Canvas(width: profile.width, height: profile.height, background: theme.background)
        PetScene.draw(context(s, profile, theme), in: rect, &c, ms: ms ?? noonMs)
        return c
    }
}

final class ArtTests: XCTestCase {
    let lib = ArtLibrary.builtIn

    func testTheArtFilesParseWithoutErrors() {
        XCTAssertEqual(lib.errors.map(\.description), [])
        for name in ["body", "faces", "wear-hat", "wear-glasses", "wear-scarf", "home", "backgrounds", "fx", "food"] {
            XCTAssertFalse(lib.sheet(name)?.frames.isEmpty ?? true, "sheet \(name)")
        }
        XCTAssertEqual(Set(lib.schemeNames), Set(PetProfile.colours))
    }

    func testEveryAnimationHasFramesThatExist() throws {
        for activity in PetActivity.allCases {
            let anim = try XCTUnwrap(lib.animations[activity.rawValue], activity.rawValue)
            XCTAssertFalse(anim.steps.isEmpty)
            XCTAssertTrue(anim.loops)
            for s in anim.steps {
                XCTAssertNotNil(lib.frame("body", s.body), "\(anim.name): body \(s.body)")
                XCTAssertTrue(s.face == "@mood" || lib.frame("faces", s.face) != nil, "\(anim.name): face \(s.face)")
                for e in s.effects { XCTAssertNotNil(lib.frame("fx", e.name), "\(anim.name): effect \(e.name)") }
            }
        }
        for mood in PetCore.Mood.allCases { XCTAssertNotNil(lib.frame("faces", mood.rawValue), mood.rawValue) }
        for (_, body) in try XCTUnwrap(lib.sheet("body")).frames {
            for p in ["face", "hat", "eyes", "neck"] { XCTAssertNotNil(body.points[p], "\(body.name).\(p)") }
        }
    }

    /// Every pose but the level-up's (which has the whole display for its moment) keeps the body
    /// where it stands: no step moves it (dy 0), its bodies share the size, origin and points (the
    /// face, hat and glasses stay put), and two bodies of one pose differ only in their outline's
    /// outer columns (the belly breathing out sideways) — so a step of a reaction changes the face,
    /// an effect and a few outline pixels, never the whole pet (docs/design.md, "Draw little").
    func testPosesChangeOnlyThePartThatMoves() throws {
        for sheetName in ["body", "mono-body"] {
            let sheet = try XCTUnwrap(lib.sheet(sheetName))
            for activity in PetActivity.allCases where activity != .levelUp {
                let anim = try XCTUnwrap(lib.animations[activity.rawValue])
                let bodies = try anim.steps.map { try XCTUnwrap(sheet.frame($0.body), "\(sheetName)/\($0.body)") }
                for (s, b) in zip(anim.steps, bodies) {
                    XCTAssertEqual(s.dy, 0, "\(anim.name): a step moves the whole pet")
                    let first = bodies[0]
                    XCTAssertEqual(b.width, first.width, "\(anim.name)/\(b.name)")
                    XCTAssertEqual(b.height, first.height, "\(anim.name)/\(b.name)")
                    XCTAssertEqual(b.origin, first.origin, "\(anim.name)/\(b.name)")
                    XCTAssertEqual(b.points, first.points, "\(anim.name)/\(b.name)")
                    var changed = 0
                    for y in 0..<b.height {
                        for x in 0..<b.width where b.index(x: x, y: y) != first.index(x: x, y: y) {
                            XCTAssertTrue(x < 2 || x >= b.width - 2, "\(anim.name): \(b.name) differs from \(first.name) inside at \(x),\(y)")
                            changed += 1
                        }
                    }
                    XCTAssertLessThanOrEqual(changed, 32, "\(anim.name): \(b.name) against \(first.name)")
                }
            }
        }
    }

    func testEveryCatalogueItemThatShowsHasADrawing() {
        for item in Catalogue.builtIn.items {
            switch item.itemKind {
            case .wearable: XCTAssertNotNil(lib.frame("wear-\(item.slot ?? "?")", item.id), item.id)
            case .furniture, .trinket: XCTAssertNotNil(lib.frame("home", item.id), item.id)
            case .background: XCTAssertNotNil(lib.frame("backgrounds", item.id), item.id)
            case .skin: XCTAssertNotNil(item.colour.flatMap { ArtLibrary.parseHex(Substring($0)) }, item.id)
            case .food: XCTAssertNotNil(lib.frame("food", item.id), item.id)
            default: break
            }
        }
    }

    func testTheParserReportsBadLinesWithTheirPlace() {
        let bad = ArtLibrary(files: [("x.txt", "use nothing\nframe a\n|.|\nanim z loop\nstep 0 stand @mood 0\nwhat\n")])
        XCTAssertEqual(bad.errors.map(\.line), [1, 3, 5, 6, 7])
        XCTAssertEqual(bad.errors.first?.description, "art/x.txt:1: use names an unknown palette")
        let good = ArtLibrary(files: [("p.txt", "palette p\n. clear clear\nX #FF0000 ink\n"), ("s.txt", "use p\nframe f\norigin 1 2\npoint a 3 4\n|.X|\n|X.|\n")])
        XCTAssertEqual(good.errors, [])
        let f = good.frame("s", "f")
        XCTAssertEqual(f?.width, 2)
        XCTAssertEqual(f?.origin, ArtPoint(x: 1, y: 2))
        XCTAssertEqual(f?.points["a"], ArtPoint(x: 3, y: 4))
        XCTAssertNil(f?.index(x: 0, y: 0))
        XCTAssertNotNil(f?.index(x: 1, y: 0))
    }

    // MARK: Timeline

    func testBlinkTiming() {
        let s = ArtFixture.state()
        let cycle = lib.animations["idle"]?.totalMs ?? 0
        XCTAssertEqual(cycle, 6300)
        // The idle clock is absolute: ms 0 of a cycle is any multiple of 6.3 s.
        let base: Int64 = 6300 * 270_000_000
        func face(_ ms: Int64) -> String { PetAnimator.pose(s, at: base + ms, mood: "content").face }
        XCTAssertEqual(face(0), "content")
        XCTAssertEqual(face(2799), "content")
        XCTAssertEqual(face(2800), "blink")
        XCTAssertEqual(face(2949), "blink")
        XCTAssertEqual(face(2950), "content")
        XCTAssertEqual(face(5749), "content")
        XCTAssertEqual(face(5750), "blink")
        XCTAssertEqual(face(5900), "content")
        XCTAssertEqual(face(6050), "blink")
        XCTAssertEqual(face(6199), "blink")
        XCTAssertEqual(face(6200), "content")
        XCTAssertEqual(face(6300), "content")
        // Blinks are short and a few seconds apart: 3 blinks of 150 ms in 6.3 s.
        let blinking = stride(from: Int64(0), to: 6300, by: 10).filter { face($0) == "blink" }.count
        XCTAssertEqual(blinking, 45)
        // E-paper shows the still first picture at any instant.
        // (A sad mood while idle is the worried pose: its first picture has the worried face.)
        XCTAssertEqual(PetAnimator.pose(s, at: base + 2850, mood: "sad", animates: false).face, "worried")
    }

    func testActivityFromTheStateAtGivenInstants() {
        let t = ArtFixture.noon, ms = ArtFixture.noonMs
        func act(_ s: PetState, _ at: Int64, levelUp: Bool = false) -> PetActivity { PetAnimator.activity(s, at: at, levelUp: levelUp).activity }
        XCTAssertEqual(act(ArtFixture.state(), ms), .idle)
        // Quiet hours (22:00–07:00 by default) and pause: asleep.
        XCTAssertEqual(act(ArtFixture.state(), ms + 11 * 3_600_000), .sleeping)
        XCTAssertEqual(act(ArtFixture.state { $0.paused = true }, ms), .sleeping)
        // A completion: dancing for 20 s, then idle.
        let done = ArtFixture.state { $0.lastCelebration = t }
        XCTAssertEqual(act(done, ms), .dance)
        XCTAssertEqual(act(done, ms + 19_999), .dance)
        XCTAssertEqual(act(done, ms + 20_000), .idle)
        XCTAssertEqual(act(done, ms - 1), .idle)
        XCTAssertEqual(act(done, ms, levelUp: true), .levelUp)
        // Feeding: eating for 5 s, and it wins over the dance.
        let fed = ArtFixture.state { $0.shop.lastFed = t; $0.lastCelebration = t }
        XCTAssertEqual(act(fed, ms + 4_999), .eating)
        XCTAssertEqual(act(fed, ms + 5_000), .dance)
        // A reminder just shown: nudging for 30 s.
        let nudged = ArtFixture.state { $0.reminders.last = Reminder(id: "n", source: .task, ref: "t1", due: t, solicited: true) }
        XCTAssertEqual(act(nudged, ms + 29_999), .nudging)
        XCTAssertEqual(act(nudged, ms + 30_000), .idle)
        // Asleep wins over everything.
        XCTAssertEqual(act(ArtFixture.state { $0.paused = true; $0.lastCelebration = t }, ms, levelUp: true), .sleeping)
        // A completion while a reminder is being pointed out: the dance wins, and with a happy face
        // even when the mood is sad (a celebration is never drawn over a worried face).
        let both = ArtFixture.state {
            $0.reminders.last = Reminder(id: "n", source: .task, ref: "t1", due: t, solicited: true); $0.lastCelebration = t
        }
        XCTAssertEqual(act(both, ms + 100), .dance)
        XCTAssertEqual(act(both, ms + 20_000), .nudging)
        for step in stride(from: Int64(0), to: 1600, by: 200) {
            let face = PetAnimator.pose(both, at: ms + step, mood: "sad").face
            XCTAssertTrue(["happy", "excited"].contains(face), "dance at +\(step) ms shows \(face)")
        }
        // Petted: 4 s of its own pose, then what was going on.
        let petted = ArtFixture.state { $0.lastPetting = t }
        XCTAssertEqual(act(petted, ms + 3_999), .petted)
        XCTAssertEqual(act(petted, ms + 4_000), .idle)
        XCTAssertEqual(PetAnimator.pose(petted, at: ms, mood: "happy").face, "petted")
        XCTAssertEqual(PetAnimator.pose(petted, at: ms, mood: "happy").body, "stand", "the body stays: only the face and hearts change")
        // A sad mood while idle is the worried pose; any other activity keeps its own face.
        XCTAssertEqual(PetAnimator.pose(ArtFixture.state(), at: ms, mood: "sad").activity, .worried)
        XCTAssertEqual(PetAnimator.pose(ArtFixture.state(), at: ms, mood: "sad").face, "worried")
        XCTAssertEqual(PetAnimator.pose(ArtFixture.state(), at: ms, mood: "happy").activity, .idle)
        XCTAssertEqual(PetAnimator.pose(fed, at: ms, mood: "sad").activity, .eating)
        // The dance starts at its own first step when the completion happens.
        XCTAssertEqual(PetAnimator.pose(done, at: ms, mood: "happy").step, 0)
        XCTAssertEqual(PetAnimator.pose(done, at: ms + 249, mood: "happy").step, 0)
        XCTAssertEqual(PetAnimator.pose(done, at: ms + 250, mood: "happy").step, 1)
        XCTAssertEqual(PetAnimator.pose(done, at: ms + 1500, mood: "happy").step, 0)
    }

    // MARK: Layers

    func testAHatChangesTheHeadAreaOnly() throws {
        let plain = ArtFixture.render(ArtFixture.state())
        let hatted = ArtFixture.render(ArtFixture.state { $0.shop.worn = ["hat": "party-hat"] })
        let changed = try XCTUnwrap(hatted.changedRect(from: plain))
        // Only the pet's 36×40 part fits the 144×160 rect, at scale 4: stage (x, y) is canvas
        // (4x − 72, 4y). The ear tips are stage row 12; the party hat stands between the ears on
        // the `hat` point (5 rows down): its 9 rows are stage rows 8–16, its 10 columns stage x
        // 31–40 — the ears and the rest of the body are untouched.
        XCTAssertEqual(changed, Rect(x: 52, y: 32, w: 40, h: 36))
    }

    func testGlassesScarfSkinAndColourChangePixels() {
        let plain = ArtFixture.render(ArtFixture.state())
        for worn in [["glasses": "sunglasses"], ["scarf": "rainbow-scarf"], ["skin": "skin-ocean"]] {
            let dressed = ArtFixture.render(ArtFixture.state { $0.shop.worn = worn })
            XCTAssertNotNil(dressed.changedRect(from: plain), "\(worn)")
        }
        // The skin is a palette swap: the body's middle is the skin's colour.
        let ocean = ArtFixture.render(ArtFixture.state { $0.shop.worn = ["skin": "skin-ocean"] })
        let sky = ArtFixture.render(ArtFixture.state { $0.pet.colour = "sky" })
        // Body column 20 at row 13 of the body (stage 44, 26): a plain body pixel.
        let p = (x: 4 * 44 - 72 + 1, y: 4 * 26 + 1)
        XCTAssertEqual(ocean.pixel(x: p.x, y: p.y), RGB565(hex: 0x1E6FD9))
        XCTAssertEqual(sky.pixel(x: p.x, y: p.y), RGB565(hex: 0x8CC8FF))
        XCTAssertEqual(plain.pixel(x: p.x, y: p.y), RGB565(hex: 0x7FD6A4))
    }

    func testHomeItemsAndBackgroundsDrawAroundThePet() {
        let rect = Rect(x: 0, y: 0, w: 240, h: 130)
        let bare = ArtFixture.render(ArtFixture.state(), rect: rect)
        let home = ArtFixture.render(ArtFixture.state { $0.shop.placed = ["left": "plant-pot", "right": "armchair"] }, rect: rect)
        // Scale 3, stage 216 wide centred: the left slot (stage x 10) is at 12 + 30 = 42.
        XCTAssertNotEqual(home.pixel(x: 42, y: 5 + 33 * 3), bare.pixel(x: 42, y: 5 + 33 * 3))
        let meadow = ArtFixture.render(ArtFixture.state { $0.shop.worn = ["background": "bg-meadow"] }, rect: rect)
        // The backdrop fills the whole rect, corners included.
        XCTAssertEqual(meadow.pixel(x: 0, y: 0), RGB565(hex: 0xBDE6FF))
        XCTAssertEqual(meadow.pixel(x: 239, y: 129), RGB565(hex: 0x5CC26A))
    }

    func testNothingIsDrawnOutsideTheRect() {
        let rect = Rect(x: 10, y: 20, w: 101, h: 77)
        let s = ArtFixture.state { $0.shop.worn = ["background": "bg-city", "hat": "wizard-hat"]; $0.shop.placed = ["left": "bookshelf"] }
        for ms in stride(from: ArtFixture.noonMs, to: ArtFixture.noonMs + 3000, by: 450) {
            let c = ArtFixture.render(s, rect: rect, ms: ms)
            let empty = Canvas(width: 240, height: 240, background: Theme.light.background)
            XCTAssertTrue(c.changedRect(from: empty).map { rect.contains($0) } ?? true)
            XCTAssertEqual(c.dirty.map { rect.contains($0) }, true)
        }
    }

    func testMonoProfilesUseOnlyBlackAndWhiteAndEPaperIsStill() {
        let s = ArtFixture.state {
            $0.shop.worn = ["background": "bg-meadow", "hat": "party-hat", "glasses": "round-glasses", "skin": "skin-gold"]
            $0.shop.placed = ["left": "plant-pot", "shelf": "rubber-duck"]
            $0.lastCelebration = ArtFixture.noon
        }
        for (profile, theme) in [(DisplayProfile.oled128, Theme.monoDark), (.epaper250, .monoLight)] {
            let c = ArtFixture.render(s, profile, theme, rect: Rect(x: 0, y: 0, w: profile.width, h: profile.height))
            XCTAssertEqual(Set(c.pixels), [0x0000, 0xFFFF], profile.id)
        }
        // E-paper does not animate: two instants of the dance draw the same picture.
        let r = Rect(x: 0, y: 0, w: 250, h: 122)
        let a = ArtFixture.render(s, .epaper250, .monoLight, rect: r, ms: ArtFixture.noonMs + 100)
        let b = ArtFixture.render(s, .epaper250, .monoLight, rect: r, ms: ArtFixture.noonMs + 700)
        XCTAssertEqual(a.pixels, b.pixels)
        let x = ArtFixture.render(s, .oled128, .monoLight, rect: Rect(x: 0, y: 0, w: 128, h: 64), ms: ArtFixture.noonMs + 100)
        let y = ArtFixture.render(s, .oled128, .monoLight, rect: Rect(x: 0, y: 0, w: 128, h: 64), ms: ArtFixture.noonMs + 300)
        XCTAssertNotEqual(x.pixels, y.pixels)
    }

    func testMonoThemesAreBlackAndWhiteAndResolveForOneBitDisplays() {
        XCTAssertEqual(Theme.resolve(.light, for: .oled128), .monoDark)   // the OLED is always white on black
        XCTAssertEqual(Theme.resolve(.light, for: .epaper250), .monoLight)
        XCTAssertEqual(Theme.resolve(.dark, for: .epaper250), .monoDark)
        XCTAssertEqual(Theme.resolve(.dark, for: .square240), .dark)
        XCTAssertEqual(Theme.monoLight.background, .white)
        XCTAssertEqual(Theme.monoLight.text, .black)
        XCTAssertEqual(Theme.monoDark.background, .black)
        XCTAssertTrue(Theme.monoDark.isMono)
        XCTAssertFalse(Theme.light.isMono)
    }
}

final class MonoCanvasTests: XCTestCase {
    /// 10×3, white, with black at (0,0), (9,0), (1,1), (8,2).
    func pattern() -> MonoCanvas {
        var m = MonoCanvas(width: 10, height: 3)
        for (x, y) in [(0, 0), (9, 0), (1, 1), (8, 2)] { m.setPixel(x: x, y: y, .black) }
        return m
    }

    func testSSD1680RowMajorBytes() {
        let m = pattern()
        XCTAssertEqual(m.stride, 2)
        XCTAssertEqual(m.ssd1680Bytes(), [0x7F, 0xBF, 0xBF, 0xFF, 0xFF, 0x7F])
        let w = m.ssd1680Bytes(in: Rect(x: 9, y: 1, w: 1, h: 2))
        XCTAssertEqual(w.area, Rect(x: 8, y: 1, w: 2, h: 2))
        XCTAssertEqual(w.bytes, [0xFF, 0x7F])
    }

    func testSSD1306PageMajorBytes() {
        let m = pattern()
        XCTAssertEqual(m.ssd1306Bytes(), [0x06, 0x05, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x03, 0x06])
        let w = m.ssd1306Bytes(in: Rect(x: 1, y: 0, w: 2, h: 1))
        XCTAssertEqual(w.area, Rect(x: 1, y: 0, w: 2, h: 3))
        XCTAssertEqual(w.bytes, [0x05, 0x07])

        var oled = MonoCanvas(width: 128, height: 64, background: .black)
        oled.fillRect(x: 0, y: 8, w: 2, h: 3, .white)
        oled.setPixel(x: 127, y: 63, .white)
        let bytes = oled.ssd1306Bytes()
        XCTAssertEqual(bytes.count, 1024)
        XCTAssertEqual(bytes[128], 0x07)              // page 1, column 0: rows 8–10 lit
        XCTAssertEqual(bytes[129], 0x07)
        XCTAssertEqual(bytes[130], 0x00)
        XCTAssertEqual(bytes[1023], 0x80)             // page 7, column 127: row 63
        XCTAssertEqual(bytes.filter { $0 != 0 }.count, 3)
    }

    func testDrawingClipsAndTracksDirtyRects() {
        var m = MonoCanvas(width: 16, height: 8)
        XCTAssertNil(m.dirty)
        m.fillRect(x: -5, y: 6, w: 8, h: 10, .black)
        XCTAssertEqual(m.dirty, Rect(x: 0, y: 6, w: 3, h: 2))
        m.clearDirty()
        m.line(x0: 15, y0: 0, x1: 12, y1: 3, .black)
        XCTAssertEqual(m.dirty, Rect(x: 12, y: 0, w: 4, h: 4))
        XCTAssertEqual(m.pixel(x: 13, y: 2), .black)
        XCTAssertNil(m.pixel(x: 16, y: 0))
        m.setPixel(x: 99, y: -1, .black)
        m.fillRect(x: Int.max - 1, y: Int.min, w: Int.max, h: Int.max, .black)
        m.strokeRect(x: 4, y: 0, w: 5, h: 4, .black)
        XCTAssertEqual(m.pixel(x: 4, y: 0), .black)
        XCTAssertEqual(m.pixel(x: 6, y: 2), .white)
        // The unused low bits of each row's last byte stay 1.
        var odd = MonoCanvas(width: 3, height: 1, background: .black)
        odd.fill(.black)
        XCTAssertEqual(odd.ssd1680Bytes(), [0x1F])
    }

    func testConversionFromABlackAndWhiteCanvasIsExact() {
        var c = Canvas(width: 37, height: 21, background: .white)
        c.drawText("Hé ✓", x: 1, y: 1, color: .black, face: .large)
        c.line(x0: 0, y0: 20, x1: 36, y1: 0, color: .black)
        var m = MonoCanvas(width: 37, height: 21)
        m.drawText("Hé ✓", x: 1, y: 1, .black, face: .large)
        m.line(x0: 0, y0: 20, x1: 36, y1: 0, .black)
        let converted = MonoCanvas(from: c)
        XCTAssertEqual(converted.bytes, m.bytes)
        XCTAssertEqual(converted.toCanvas().pixels, c.pixels)
        XCTAssertTrue(converted.textRuns.contains { $0.text == "Hé ✓" })
        // Grey goes by luminance.
        XCTAssertEqual(MonoColor.from(RGB565(hex: 0x808080)), .white)
        XCTAssertEqual(MonoColor.from(RGB565(hex: 0x707070)), .black)
    }

    func testChangedRectAndRotation() {
        let a = pattern()
        var b = pattern()
        XCTAssertNil(b.changedRect(from: a))
        b.setPixel(x: 3, y: 1, .black)
        b.setPixel(x: 5, y: 2, .black)
        XCTAssertEqual(b.changedRect(from: a), Rect(x: 3, y: 1, w: 3, h: 2))
        let r = a.rotatedClockwise()
        XCTAssertEqual(r.width, 3)
        XCTAssertEqual(r.height, 10)
        // (x, y) goes to (height - 1 - y, x).
        XCTAssertEqual(r.pixel(x: 2, y: 0), .black)    // from (0, 0)
        XCTAssertEqual(r.pixel(x: 1, y: 1), .black)    // from (1, 1)
        XCTAssertEqual(r.pixel(x: 0, y: 8), .black)    // from (8, 2)
        XCTAssertEqual(r.pixel(x: 2, y: 9), .black)    // from (9, 0)
        XCTAssertEqual(r.pixel(x: 0, y: 0), .white)
        var c1 = Canvas(width: 5, height: 5), c2 = Canvas(width: 5, height: 5)
        XCTAssertNil(c1.changedRect(from: c2))
        c1.setPixel(x: 4, y: 0, color: .white)
        c2.setPixel(x: 1, y: 3, color: .red)
        XCTAssertEqual(c1.changedRect(from: c2), Rect(x: 1, y: 0, w: 4, h: 4))
    }
}

final class EPaperRefresherTests: XCTestCase {
    let r = Rect(x: 8, y: 8, w: 16, h: 16)

    func testFullThenPartialsThenFullEvery20() {
        var e = EPaperRefresher()
        XCTAssertEqual(e.decide(changed: r, nowMs: 0), .full)         // first frame: unknown panel
        XCTAssertEqual(e.decide(changed: nil, nowMs: 1000), .none)    // nothing changed
        XCTAssertEqual(e.decide(changed: Rect(x: 0, y: 0, w: 0, h: 5), nowMs: 1000), .none)
        for i in 1...20 {
            XCTAssertEqual(e.decide(changed: r, nowMs: Int64(i) * 1000), .partial(r), "update \(i)")
            XCTAssertEqual(e.partialsSinceFull, i)
        }
        XCTAssertEqual(e.decide(changed: r, nowMs: 21_000), .full)    // the 21st update
        XCTAssertEqual(e.partialsSinceFull, 0)
        XCTAssertEqual(e.lastFullMs, 21_000)
        XCTAssertEqual(e.decide(changed: r, nowMs: 22_000), .partial(r))
    }

    func testFullAfterAnHour() {
        var e = EPaperRefresher()
        XCTAssertEqual(e.decide(changed: r, nowMs: 5_000), .full)
        XCTAssertEqual(e.decide(changed: r, nowMs: 60_000), .partial(r))
        XCTAssertEqual(e.decide(changed: r, nowMs: 5_000 + 3_599_999), .partial(r))
        // An hour with no change needs no refresh at all…
        XCTAssertEqual(e.decide(changed: nil, nowMs: 5_000 + 3_600_000), .none)
        // …and the next change after the hour is full.
        XCTAssertEqual(e.decide(changed: r, nowMs: 5_000 + 3_600_001), .full)
        XCTAssertEqual(e.decide(changed: r, nowMs: 5_000 + 3_600_002), .partial(r))
        // A clock that went backwards also gets a full refresh.
        XCTAssertEqual(e.decide(changed: r, nowMs: 0), .full)
    }

    func testDecidingFromFrames() {
        var e = EPaperRefresher()
        var a = MonoCanvas(width: 250, height: 122)
        XCTAssertEqual(e.decide(frame: a, previous: nil, nowMs: 0), .full)
        var b = a
        XCTAssertEqual(e.decide(frame: b, previous: a, nowMs: 10), .none)
        b.drawText("12:01", x: 100, y: 50, .black)
        let changed = b.changedRect(from: a)
        XCTAssertEqual(e.decide(frame: b, previous: a, nowMs: 20), changed.map { .partial($0) })
        a = b
        _ = a
    }
}
