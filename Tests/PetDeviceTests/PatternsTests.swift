import XCTest
@testable import PetDevice

/// The buzzer and LED tables (docs/sound-and-light.md).
final class PatternsTests: XCTestCase {
    func testEveryToneIsShortAndStartsAndEndsWithANote() {
        for tone in Tone.allCases {
            let steps = TonePattern.steps(for: tone)
            XCTAssertFalse(steps.isEmpty, "\(tone)")
            XCTAssertTrue(steps.first?.sounds == true && steps.last?.sounds == true, "\(tone) starts and ends with a note")
            XCTAssertTrue(steps.allSatisfy { $0.ms > 0 }, "\(tone) has no empty step")
            XCTAssertTrue(steps.allSatisfy { $0.hz == 0 || (100...8000).contains($0.hz) }, "\(tone) stays in a buzzer's range")
            XCTAssertLessThan(TonePattern.durationMs(tone), 1000, "\(tone) lasts under a second")
        }
    }

    func testTheDocumentedRhythms() {
        XCTAssertEqual(TonePattern.durationMs(.tick), 15)
        XCTAssertEqual(TonePattern.rhythm(.nudge).map(\.ms), [120, 120, 120])
        XCTAssertEqual(TonePattern.rhythm(.strongBuzz).map(\.ms), [200, 80, 200, 80, 200])
        XCTAssertEqual(TonePattern.rhythm(.softBuzz).map(\.ms), [250])
        XCTAssertEqual(TonePattern.steps(for: .celebration).filter(\.sounds).map(\.hz), [1047, 1319, 1568, 2093], "a rising arpeggio")
        XCTAssertEqual(TonePattern.durationMs(.celebration), 550)
    }

    /// An active buzzer only has the rhythm: no two tones may share one.
    func testTonesDifferByRhythmAlone() {
        let rhythms = Tone.allCases.map { TonePattern.rhythm($0).map { "\($0.on):\($0.ms)" }.joined(separator: ",") }
        XCTAssertEqual(Set(rhythms).count, Tone.allCases.count)
    }

    func testRhythmMergesEqualNeighbours() {
        // celebration's notes differ in pitch but are all "on" for an active buzzer: rests separate them
        XCTAssertEqual(TonePattern.rhythm(.celebration).map(\.on), [true, false, true, false, true, false, true])
    }

    func testLightPatterns() {
        XCTAssertEqual(LightPatternTable.steps(for: .off), [])
        let nudge = LightPatternTable.rhythm(.nudge)
        XCTAssertEqual(nudge.filter(\.on).count, 3, "three pulses")
        XCTAssertEqual(nudge.map(\.ms), [500, 500, 500, 500, 500])
        XCTAssertEqual(LightPatternTable.steps(for: .nudge).filter { $0.color.isLit }.map(\.color), [.amber, .amber, .amber])
        let celebration = LightPatternTable.steps(for: .celebration).map(\.color)
        XCTAssertEqual(celebration, [.red, .green, .blue, .red, .green, .blue, .white])
        XCTAssertEqual(LightPatternTable.rhythm(.celebration).count, 1, "one-colour LED: lit throughout")
        XCTAssertEqual(LightPatternTable.durationMs(.celebration), 780)
        for p in LightPattern.allCases { XCTAssertLessThanOrEqual(LightPatternTable.durationMs(p), 3000, "\(p) is finite and short") }
    }
}
