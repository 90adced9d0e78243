import XCTest
import Foundation
@testable import PetUI

final class HomeScreenTests: XCTestCase {
    static let sample = HomeModel(
        petName: "Mochi", mood: "happy", clock: "08:30", coins: 125, level: 3,
        levelProgress: 0.62, streak: 7, nextTask: "Water the plants on the balcony",
        nextDue: "Due 09:00 - in 30 min", speech: "Good morning! Ready for today?", paused: false)

    func render(_ m: HomeModel, _ theme: Theme = .light) -> Canvas {
        var c = Canvas(width: 240, height: 240)
        HomeScreen.render(m, into: &c, theme: theme)
        return c
    }

    func testShowsExpectedTexts() {
        let c = render(Self.sample)
        for s in ["08:30", "125", "7", "Lv 3", "Mochi", "Good morning! Ready for today?",
                  "Water the pla", "Due 09:00 - in 30 min"] {
            XCTAssertTrue(c.showsText(s), "missing \(s); runs: \(c.textRuns.map(\.text))")
        }
        XCTAssertTrue(c.showsText(String(Glyph.coin)))
        XCTAssertTrue(c.showsText(String(Glyph.flame)))
        // The long task title is ellipsized to fit the panel.
        let task = c.textRuns.first { $0.text.hasPrefix("Water") }
        XCTAssertEqual(task?.text.hasSuffix("..."), true)
        XCTAssertFalse(c.showsText("balcony"))
        XCTAssertFalse(c.showsText("No tasks"))
        // All text stays on screen.
        for r in c.textRuns { XCTAssertTrue(c.bounds.contains(r.rect), "\(r)") }
        XCTAssertEqual(c.dirty, c.bounds)
    }

    func testNoTaskNoSpeechPaused() {
        var m = Self.sample
        m.nextTask = nil; m.nextDue = nil; m.speech = nil; m.paused = true
        m.coins = 123_456; m.level = 12
        let c = render(m)
        XCTAssertTrue(c.showsText("No tasks - enjoy!"))
        XCTAssertTrue(c.showsText("PAUSED"))
        XCTAssertTrue(c.showsText("123k"))
        XCTAssertTrue(c.showsText("Lv 12"))
        XCTAssertFalse(c.showsText("Good morning"))
        let long = render(HomeModel(petName: "Mochi", mood: "content", clock: "23:59", coins: 1,
                                    level: 1, levelProgress: 0, streak: 0,
                                    speech: String(repeating: "blah ", count: 30)))
        let bubble = long.textRuns.first { $0.text.hasPrefix("blah") }
        XCTAssertEqual(bubble?.text.hasSuffix("..."), true)
        XCTAssertTrue(long.bounds.contains(bubble?.rect ?? Rect(x: -1, y: 0, w: 1, h: 1)))
    }

    func testMoodsAndThemesDiffer() {
        var frames: [[UInt16]] = []
        for mood in Mood.allCases {
            var m = Self.sample
            m.mood = mood.rawValue
            frames.append(render(m).pixels)
        }
        XCTAssertEqual(Set(frames).count, Mood.allCases.count)
        // Unknown moods fall back to content.
        var unknown = Self.sample; unknown.mood = "grumpy"
        var content = Self.sample; content.mood = "content"
        XCTAssertEqual(render(unknown).pixels, render(content).pixels)
        XCTAssertNotEqual(render(Self.sample, .light).pixels, render(Self.sample, .dark).pixels)
        // The accent colours appear on screen.
        XCTAssertTrue(render(Self.sample, .light).pixels.contains(RGB565(hex: 0xE8DE2A).raw))
        XCTAssertTrue(render(Self.sample, .dark).pixels.contains(RGB565(hex: 0xD5B60A).raw))
    }

    func testExtremeModelValuesDoNotTrap() {
        let m = HomeModel(petName: String(repeating: "N", count: 100), mood: "", clock: "",
                          coins: -5, level: Int.max, levelProgress: .nan, streak: Int.max,
                          nextTask: "", nextDue: nil, speech: "", paused: true)
        let c = render(m)
        XCTAssertTrue(c.showsText("No tasks - enjoy!"))
        var p = Self.sample; p.levelProgress = 7
        _ = render(p)
    }

}
