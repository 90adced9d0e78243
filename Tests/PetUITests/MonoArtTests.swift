import XCTest
import PetCore
@testable import PetUI

/// The hand-drawn 1-bit art (art/mono-*.txt), the OLED's white on black, and whole items in every
/// crop of the pet scene (docs/screens.md).
final class MonoArtTests: XCTestCase {
    let lib = ArtLibrary.builtIn
    static let layered = ["body", "faces", "wear-hat", "wear-glasses", "wear-scarf", "home", "fx", "backgrounds", "food"]

    // MARK: The drawings

    func testEveryPetFrameAndItemHasAHandDrawnOneBitVersion() throws {
        for name in Self.layered {
            let colour = try XCTUnwrap(lib.sheet(name), name)
            let mono = try XCTUnwrap(lib.sheet("mono-" + name), "mono-" + name)
            XCTAssertEqual(Set(mono.frameNames), Set(colour.frameNames), "mono-\(name) draws every frame of \(name)")
            for f in colour.frameNames {
                guard let c = colour.frame(f), let m = mono.frame(f) else { continue }
                // Same place on the stage: the same origin and attachment points.
                XCTAssertEqual(m.origin, c.origin, "\(name)/\(f)")
                XCTAssertEqual(m.points, c.points, "\(name)/\(f)")
            }
            // Mono sheets use only the mono palette: no colours, only ink, paper and dithers.
            for e in mono.entries { XCTAssertEqual(e.colour, .clear, "mono-\(name) '\(e.character)'") }
        }
        // Every catalogue wearable and home item is drawn for 1-bit displays.
        for item in Catalogue.builtIn.items {
            let sheet: String
            switch item.itemKind {
            case .wearable?: sheet = "mono-wear-" + (item.slot ?? "")
            case .furniture?, .trinket?: sheet = "mono-home"
            case .background?: sheet = "mono-backgrounds"
            case .food?: sheet = "mono-food"
            default: continue
            }
            XCTAssertNotNil(lib.frame(sheet, item.id), "\(sheet) has no drawing of \(item.id)")
        }
    }

    func testOrderedDitherMasksHaveTheirShareOfInkAndNest() {
        XCTAssertEqual(MonoInk.ink.mask, 0)
        XCTAssertEqual(MonoInk.paper.mask, 0)
        let kinds: [MonoInk] = [.dots, .light, .half, .dark]
        XCTAssertEqual(kinds.map { $0.mask.nonzeroBitCount }, [2, 4, 8, 12])
        // Each darker pattern keeps every ink pixel of the lighter one (ordered dithering).
        for (a, b) in zip(kinds, kinds.dropFirst()) { XCTAssertEqual(a.mask & b.mask, a.mask, "\(a) ⊂ \(b)") }
        // 1/4 is the 2×2 pattern (one pixel in each 2×2 block); 1/2 is a checkerboard.
        for y in 0..<4 {
            for x in 0..<4 {
                let bit = UInt16(1) << UInt16(y * 4 + x)
                XCTAssertEqual(MonoInk.light.mask & bit != 0, x % 2 == 0 && y % 2 == 0, "light \(x),\(y)")
                XCTAssertEqual(MonoInk.half.mask & bit != 0, (x + y) % 2 == 0, "half \(x),\(y)")
            }
        }
    }

    func testADitheredEntryDrawsItsPatternOnTheFramesOwnGrid() {
        let text = "use mono\nframe t\n|::::|\n|::::|\n|XX--|\n"
        let l = ArtLibrary(files: [("palettes.txt", ArtData.files.first { $0.name == "palettes.txt" }?.text ?? ""), ("t.txt", text)])
        XCTAssertEqual(l.errors.map(\.description), [])
        guard let sheet = l.sheet("t"), let f = sheet.frame("t") else { return XCTFail("no frame") }
        let paint = ArtPaint.mono(ink: .white, paper: .black)
        var r = ArtRaster(width: 7, height: 4, fill: RGB565(hex: 0x123456))
        r.draw(f, palette: ArtColours.resolve(sheet, paint), dither: ArtColours.dither(sheet, paint), x: 1, y: 1)
        // Checkerboard phased on the frame: frame (0, 0) is ink, wherever the frame lands.
        XCTAssertEqual(r.pixel(x: 1, y: 1), .white)
        XCTAssertEqual(r.pixel(x: 2, y: 1), .black)
        XCTAssertEqual(r.pixel(x: 1, y: 2), .black)
        XCTAssertEqual(r.pixel(x: 2, y: 2), .white)
        XCTAssertEqual(r.pixel(x: 3, y: 3), .black)   // paper
        XCTAssertEqual(r.pixel(x: 2, y: 3), .white)   // ink
        XCTAssertEqual(r.pixel(x: 0, y: 0), RGB565(hex: 0x123456))   // untouched outside
        // Colour paint has no dither.
        XCTAssertNil(ArtColours.dither(sheet, .colour(roles: [:])))
    }

    /// The 1-bit faces are cut out of the solid body: eyes are paper holes (at least 4 pixels each,
    /// one per half of the face), and the happy faces have dithered cheeks.
    func testFacesAreCutOutOfTheSilhouetteInPaper() throws {
        let faces = try XCTUnwrap(lib.sheet("mono-faces"))
        let paperIdx = Set(faces.entries.indices.filter { faces.entries[$0].mono == .paper }.map(UInt8.init))
        let ditherIdx = Set(faces.entries.indices.filter { faces.entries[$0].mono.mask != 0 }.map(UInt8.init))
        for name in ["content", "sad", "excited", "alert", "worried", "focus"] {
            let f = try XCTUnwrap(faces.frame(name), name)
            for half in [0..<8, 8..<16] {
                var paper = 0
                for y in 0..<6 { for x in half { if let i = f.index(x: x, y: y), paperIdx.contains(i) { paper += 1 } } }
                XCTAssertGreaterThanOrEqual(paper, 4, "\(name): an eye of paper in each half")
            }
        }
        for name in ["happy", "content", "excited", "petted"] {
            let f = try XCTUnwrap(faces.frame(name))
            let blush = (0..<f.height).flatMap { y in (0..<f.width).compactMap { f.index(x: $0, y: y) } }.filter { ditherIdx.contains($0) }
            XCTAssertGreaterThanOrEqual(blush.count, 4, "\(name): blush patches")
        }
    }

    /// The pet on the OLED at scale 1 (36×40 rect): lit pixels strictly inside the body's outline,
    /// row by row (between the first and the last lit pixel of the row).
    func interiorInk(_ theme: Theme, profile: DisplayProfile = .oled128) -> (inside: Int, span: Int) {
        let c = ArtFixture.render(ArtFixture.state(), profile, theme, rect: Rect(x: 0, y: 0, w: 36, h: 40),
                                  ms: ArtFixture.noonMs + 100)
        var inside = 0, span = 0
        // The body stands on stage (36, 36), 24×23: canvas rows 14…34 are its inside rows.
        for y in 14...34 {
            let lit = (0..<36).filter { c.pixel(x: $0, y: y) == theme.text }
            guard let a = lit.first, let b = lit.last, b - a > 2 else { continue }
            inside += lit.filter { $0 > a + 1 && $0 < b - 1 }.count
            span += b - a - 3
        }
        return (inside, span)
    }

    /// On 1-bit panels the pet is a solid mass of ink (a Tamagotchi's silhouette, readable at arm's
    /// length), not an outline: most of the inside of each row is ink, the face cut out of it.
    func testTheOneBitPetIsASolidSilhouette() {
        for theme in [Theme.monoDark, .monoLight] {
            let (inside, span) = interiorInk(theme)
            XCTAssertGreaterThan(Double(inside) / Double(max(span, 1)), 0.6, "\(theme == .monoDark ? "dark" : "light"): \(inside) of \(span)")
            XCTAssertLessThan(Double(inside) / Double(max(span, 1)), 0.97, "the face is cut out of it")
        }
        // On colour displays the mono sheets are never used.
        let colour = ArtFixture.render(ArtFixture.state(), .square240, .light, rect: Rect(x: 0, y: 0, w: 36, h: 40))
        XCTAssertGreaterThan(Set(colour.pixels).count, 4)
    }

    /// The creature has a silhouette of its own: two ears above the head and two feet apart
    /// below it, in every standing pose's frame.
    func testTheBodyHasEarsAndFeet() throws {
        let body = try XCTUnwrap(lib.sheet("body"))
        for name in ["stand", "breathe", "squash", "stretch", "lean-left", "lean-right"] {
            let f = try XCTUnwrap(body.frame(name), name)
            func row(_ y: Int) -> [Bool] { (0..<f.width).map { f.index(x: $0, y: y).map { $0 != ArtFrame.transparent } ?? false } }
            func runs(_ r: [Bool]) -> Int { zip([false] + r, r).filter { !$0.0 && $0.1 }.count }
            XCTAssertEqual(runs(row(0)), 2, "\(name): two ear tips")
            XCTAssertEqual(runs(row(f.height - 1)), 2, "\(name): two feet")
        }
    }

    // MARK: Themes on 1-bit panels

    func testTheOLEDIsWhiteOnBlackWhateverTheThemeAndEPaperFollowsIt() {
        for name in [DeviceSettings.ThemeName.light, .dark] {
            XCTAssertEqual(Theme.resolve(name, for: .oled128), .monoDark, "\(name)")
            let odd = DisplayProfile(id: "96x48", width: 96, height: 48, kind: .mono)
            XCTAssertEqual(Theme.resolve(name, for: odd), .monoDark)
        }
        XCTAssertEqual(Theme.resolve(.light, for: .epaper250), .monoLight)
        XCTAssertEqual(Theme.resolve(.dark, for: .epaper250), .monoDark)
        XCTAssertEqual(Theme.resolve(.light, for: .wide320), .light)
    }

    /// Every screen (and the fixture's overlays) on a display in a theme, as the panel shows it.
    func render(_ screen: ScreenID, _ profile: DisplayProfile, _ themeName: DeviceSettings.ThemeName,
                ui: UIState? = nil, state: PetState? = nil) -> Canvas {
        let ctx = ScreenContext(state: state ?? UIFixture.state(), ui: ui ?? UIFixture.ui(for: screen), now: UIFixture.now,
                                config: Navigator.Config(profile: profile), theme: Theme.resolve(themeName, for: profile))
        var canvas = Canvas(width: profile.width, height: profile.height, background: ctx.theme.background)
        Screens.render(ctx, into: &canvas)
        return canvas
    }

    func testOLEDFramesAreMostlyDarkOnEveryScreenAndEPaperMostlyWhite() {
        for screen in ScreenID.allCases {
            for name in [DeviceSettings.ThemeName.light, .dark] {
                let c = render(screen, .oled128, name)
                let lit = c.pixels.filter { $0 != 0 }.count
                let share = Double(lit) / Double(c.pixels.count)
                XCTAssertLessThan(share, 0.4, "\(screen.rawValue) \(name): \(Int(share * 100)) % lit")
                XCTAssertGreaterThan(lit, 0, "\(screen.rawValue): something shows")
            }
            let e = render(screen, .epaper250, .light)
            let white = e.pixels.filter { $0 == 0xFFFF }.count
            XCTAssertGreaterThan(Double(white) / Double(e.pixels.count), 0.6, "\(screen.rawValue) e-paper is black on white")
        }
    }

    // MARK: Whole items in every crop

    static func furnished(_ extra: (inout PetState) -> Void = { _ in }) -> PetState {
        var s = UIFixture.state()
        s.shop.placed = ["left": "plant-pot", "right": "armchair", "middle": "small-rug", "shelf": "rubber-duck"]
        s.shop.worn["hat"] = "wizard-hat"
        s.shop.worn["glasses"] = "round-glasses"
        s.shop.worn["scarf"] = "knit-scarf"
        extra(&s)
        return s
    }

    func assertWhole(_ c: Canvas, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for run in c.spriteRuns where !run.name.hasPrefix("body/") && !run.name.hasPrefix("faces/") {
            XCTAssertTrue(run.crop.contains(run.rect), "\(what): \(run.name) at \(run.rect) is cut by the crop \(run.crop)",
                          file: file, line: line)
        }
    }

    func testEveryScreenOnEveryDisplayDrawsOnlyWholeItems() {
        for state in [UIFixture.state(), Self.furnished()] {
            for profile in DisplayProfile.all {
                for screen in ScreenID.allCases {
                    for name in [DeviceSettings.ThemeName.light, .dark] {
                        assertWhole(render(screen, profile, name, state: state), "\(screen.rawValue)@\(profile.id) \(name)")
                    }
                }
            }
        }
    }

    func testAnyRectDrawsOnlyWholeItemsAndLeavesOutOnlyWhatDoesNotFit() {
        let s = Self.furnished { $0.lastCelebration = ArtFixture.noon }
        for profile in [DisplayProfile.square240, .oled128] {
            let theme = Theme.resolve(.light, for: profile)
            for w in stride(from: 20, through: min(profile.width, 240), by: 7) {
                for h in stride(from: 20, through: min(profile.height, 160), by: 9) {
                    for framing in [PetScene.Framing.auto, .whole] {
                        let rect = Rect(x: 3, y: 2, w: w, h: h)
                        var c = Canvas(width: profile.width, height: profile.height, background: theme.background)
                        let ctx = ArtFixture.context(s, profile, theme)
                        PetScene.draw(ctx, in: rect, &c, ms: ArtFixture.noonMs + 1200, framing: framing)
                        assertWhole(c, "\(profile.id) \(w)×\(h) \(framing)")
                        XCTAssertTrue(c.spriteRuns.contains { $0.name.hasPrefix("body/") }, "the pet is always drawn")
                        // A wide enough rect at scale 1 or more shows every item.
                        if w - 6 >= 72 * 2, h >= 40 * 2 {
                            for id in ["plant-pot", "armchair", "small-rug", "rubber-duck", "shelf"] {
                                XCTAssertTrue(c.spriteRuns.contains { $0.name == "home/" + id }, "\(w)×\(h): \(id)")
                            }
                        }
                    }
                }
            }
        }
    }

    func testTheWardrobePreviewShowsEveryPlacedItemAndWhatThePetWears() {
        let s = Self.furnished()
        for profile in [DisplayProfile.square240, .wide320, .epaper250] {
            let c = render(.wardrobe, profile, .light, state: s)
            let names = Set(c.spriteRuns.map(\.name))
            for id in ["home/plant-pot", "home/armchair", "home/small-rug", "home/rubber-duck", "home/shelf",
                       "wear-hat/wizard-hat", "wear-glasses/round-glasses", "wear-scarf/knit-scarf"] {
                XCTAssertTrue(names.contains(id), "wardrobe@\(profile.id) shows \(id): \(names.sorted())")
            }
        }
    }

    func testBootShowsThePetWithItsHatWholeOnTheOLED() {
        let c = render(.boot, .oled128, .light)
        XCTAssertTrue(c.spriteRuns.contains { $0.name == "wear-hat/party-hat" }, "\(c.spriteRuns.map(\.name))")
        // Nothing of the scene touches the top or right edge but the pet's own 40×40 corner.
        for run in c.spriteRuns { XCTAssertGreaterThanOrEqual(run.rect.y, 0, run.name) }
        // The quote is still there in full (not cut by the pet's corner).
        XCTAssertTrue(c.textRuns.allSatisfy { $0.rect.maxX <= 128 - 40 || $0.rect.y >= 40 || $0.rect.maxY <= 0 },
                      "\(c.textRuns.map(\.text))")
    }
}
