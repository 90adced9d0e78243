import XCTest
import PetCore

/// docs/domain.md#the-pet: the pet's profile, needs, mood and petting.
final class PetProfileTests: XCTestCase {
    func testNameRules() {
        var h = Harness(at: "2026-03-02 08:00")
        for good in ["Pip", "Mr Whiskers", "O'Malley-2", "Zoë", "7", String(repeating: "a", count: 30)] {
            h.ok("pet.name", ["name": good])
            XCTAssertEqual(h.state.pet.name, good)
        }
        for bad in ["", String(repeating: "a", count: 31), "Pip!", "Pip.", " Pip", "Pip ", "a\tb", "Pip🐱", "a_b"] {
            h.refuse("pet.name", ["name": bad], .field("name"))
        }
        h.refuse("pet.name", [:], .missing("name"))
    }

    func testTraits() {
        var h = Harness(at: "2026-03-02 08:00")
        XCTAssertEqual(h.state.pet.personality, .playful)
        h.ok("pet.traits", ["species": "cat", "colour": "sky", "personality": "shy"])
        XCTAssertEqual([h.state.pet.species, h.state.pet.colour], ["cat", "sky"])
        XCTAssertEqual(h.state.pet.personality, .shy)
        h.ok("pet.traits", ["personality": "calm"])
        XCTAssertEqual([h.state.pet.species, h.state.pet.colour], ["cat", "sky"], "unnamed traits are kept")
        XCTAssertEqual(h.state.pet.personality, .calm)
        h.refuse("pet.traits", ["species": "unicorn"], .field("species"))
        h.refuse("pet.traits", ["colour": "black"], .field("colour"))
        h.refuse("pet.traits", ["personality": "grumpy"], .field("personality"))
        h.refuse("pet.traits", ["size": "xl"], .field("size"))
    }
}

final class NeedsTests: XCTestCase {
    func testDecayOverADayWithQuietHours() {
        // Noon to noon: 10 h awake, 9 h asleep (22:00–07:00), 5 h awake.
        let h = Harness(at: "2026-03-02 12:00")
        func needs(_ t: String) -> [Int] { let n = h.state.needs(at: h.t(t)); return [n.fullness, n.energy] }
        XCTAssertEqual(needs("2026-03-02 12:00"), [100, 100])
        XCTAssertEqual(needs("2026-03-02 13:00"), [96, 97], "−4/h and −3/h awake")
        XCTAssertEqual(needs("2026-03-02 22:00"), [60, 70])
        XCTAssertEqual(needs("2026-03-02 23:00"), [60, 80], "asleep: fullness kept, energy +10/h")
        XCTAssertEqual(needs("2026-03-03 01:00"), [60, 100], "energy tops out at 100")
        XCTAssertEqual(needs("2026-03-03 07:00"), [60, 100])
        XCTAssertEqual(needs("2026-03-03 12:00"), [40, 85])
        XCTAssertEqual(needs("2026-03-04 12:00"), [0, 85], "fullness bottoms out at 0")
        XCTAssertTrue(h.state.isAsleep(at: h.t("2026-03-02 22:00")))
        XCTAssertTrue(h.state.isAsleep(at: h.t("2026-03-03 06:59")))
        XCTAssertFalse(h.state.isAsleep(at: h.t("2026-03-03 07:00")))
    }

    func testQuietHoursFollowTheSettingAndTheLocalZone() {
        var h = Harness(zone: "Europe/Berlin", at: "2026-03-02 12:00")
        h.ok("settings.quiet-hours", ["from": "23:30", "to": "06:15"])
        XCTAssertFalse(h.state.isAsleep(at: h.t("2026-03-02 23:29")))
        XCTAssertTrue(h.state.isAsleep(at: h.t("2026-03-02 23:30")))
        XCTAssertTrue(h.state.isAsleep(at: h.t("2026-03-03 06:14")))
        XCTAssertFalse(h.state.isAsleep(at: h.t("2026-03-03 06:15")))
        h.refuse("settings.quiet-hours", ["from": "24:00", "to": "06:00"], .field("from"))
        h.refuse("settings.quiet-hours", ["from": "22:00"], .missing("to"))
    }

    func testSplittingAnIntervalGivesTheSameNeeds() {
        func run(step: Int64?) -> Harness {
            var h = Harness(zone: "America/New_York", at: "2026-03-06 12:00")
            let end = wall("2026-03-09 15:00", in: "America/New_York")   // across the 23-hour day
            let change = wall("2026-03-07 10:00", in: "America/New_York")
            if let step {
                while h.now < change { h.advance(to: min(h.now + step, change)) }
            }
            h.ok("settings.quiet-hours", ["from": "21:00", "to": "08:00"], at: change)
            if let step {
                while h.now < end { h.advance(to: min(h.now + step, end)) }
            } else {
                h.advance(to: end)
            }
            return h
        }
        let once = run(step: nil)
        let end = once.now
        let reference = once.state.needs(at: end)
        for step in [Seconds.minute * 7 + 13, Seconds.hour, 1234] {
            XCTAssertEqual(run(step: step).state.needs(at: end), reference, "step \(step)")
        }
    }

    func testPausedPetSleeps() {
        var h = Harness(at: "2026-03-02 12:00")
        h.ok("pause")
        XCTAssertTrue(h.state.isAsleep(at: h.t("2026-03-02 15:00")))
        XCTAssertEqual(h.state.needs(at: h.t("2026-03-02 15:00")).fullness, 100)
    }
}

final class MoodTests: XCTestCase {
    func testAsleepIsSleepy() {
        let h = Harness(at: "2026-03-02 12:00")
        XCTAssertEqual(h.state.mood(at: h.t("2026-03-02 23:00")), .sleepy)
        XCTAssertEqual(h.state.mood(at: h.t("2026-03-02 12:00")), .content, "nothing due yet: 0.75 → content")
    }

    func testExcitedForTenMinutesAfterACompletion() {
        var h = Harness(at: "2026-03-02 12:00")
        h.ok("task.create", ["task": "a", "title": "A"])
        h.ok("task.complete", ["task": "a"])
        XCTAssertEqual(h.state.mood(at: h.t("2026-03-02 12:09:59")), .excited)
        XCTAssertEqual(h.state.mood(at: h.t("2026-03-02 12:10")), .happy, "1 done, 0 missed → happy")
    }

    func testSadAfterMissesAndOneCompletionLiftsToContent() {
        var h = Harness(at: "2026-03-02 12:00")
        for i in 1...3 { h.ok("task.create", ["task": "m\(i)", "title": "M", "due": "2026-03-02 18:00"]) }
        h.advance(to: "2026-03-03 12:00")
        XCTAssertEqual(h.state.mood(at: h.now), .sad, "0 of 3 done")
        h.ok("task.create", ["task": "a", "title": "A"])
        h.ok("task.complete", ["task": "a"])
        XCTAssertEqual(h.state.mood(at: h.now + 5 * Seconds.minute), .excited)
        XCTAssertEqual(h.state.mood(at: h.now + 30 * Seconds.minute), .content, "1 of 4 is sad, but one done today cheers it up")
    }

    func testPettingMakesItHappyForFiveMinutes() {
        var h = Harness(at: "2026-03-02 12:00")
        for i in 1...3 { h.ok("task.create", ["task": "m\(i)", "title": "M", "due": "2026-03-02 18:00"]) }
        h.advance(to: "2026-03-03 12:00")
        h.ok("pet.pet")
        XCTAssertEqual(h.state.mood(at: h.now + 299), .happy)
        XCTAssertEqual(h.state.mood(at: h.now + 300), .sad)
    }

    func testLowEnergyIsSleepy() {
        var h = Harness(at: "2026-03-02 12:00")
        h.ok("settings.quiet-hours", ["from": "00:00", "to": "00:00"])   // never asleep
        XCTAssertEqual(h.state.needs(at: h.now + 28 * Seconds.hour).energy, 16)
        XCTAssertEqual(h.state.mood(at: h.now + 28 * Seconds.hour), .content)
        XCTAssertEqual(h.state.needs(at: h.now + 29 * Seconds.hour).energy, 13)
        XCTAssertEqual(h.state.mood(at: h.now + 29 * Seconds.hour), .sleepy)
    }

    func testMoodRulesTable() {
        func mood(_ done3: Int, _ missed3: Int, fullness: Int = 100, today: Int = 0) -> Mood {
            MoodRules.mood(asleep: false, sinceCelebration: nil, sincePetting: nil, fullness: fullness, energy: 100,
                           done3: done3, missed3: missed3, doneToday: today)
        }
        XCTAssertEqual(mood(0, 0), .content)
        XCTAssertEqual(mood(4, 1), .happy)
        XCTAssertEqual(mood(3, 1), .content)
        XCTAssertEqual(mood(1, 1), .content)
        XCTAssertEqual(mood(1, 2), .sad)
        XCTAssertEqual(mood(4, 1, fullness: 19), .content, "hungry: −0.25")
        XCTAssertEqual(mood(1, 2, today: 1), .content)
        XCTAssertEqual(MoodRules.mood(asleep: true, sinceCelebration: 0, sincePetting: 0, fullness: 100, energy: 100,
                                      done3: 9, missed3: 0, doneToday: 9), .sleepy)
    }

    func testPettingIsRateLimited() {
        var h = Harness(at: "2026-03-02 12:00")
        let events = h.ok("pet.pet")
        XCTAssertEqual(events.types, ["pet.petted", "pet.said"])
        XCTAssertEqual(Lines.line(key: events.saidKeys[0])?.kind, .petting)
        h.advance(by: 59)
        h.refuse("pet.pet", [:], .rate(retryAfter: 1))
        h.advance(by: 1)
        h.ok("pet.pet")
    }
}

/// docs/domain.md#the-pet lines: ≥ 60 distinct, ≤ 60 characters, never the same twice in a row.
final class LinesTests: XCTestCase {
    func testAtLeast60DistinctShortLines() {
        XCTAssertGreaterThanOrEqual(Set(Lines.all.map(\.text)).count, 60)
        XCTAssertEqual(Set(Lines.all.map(\.key)).count, Lines.all.count, "keys are unique")
        for line in Lines.all {
            XCTAssertLessThanOrEqual(line.text.count, 60, line.key)
            XCTAssertFalse(line.text.isEmpty, line.key)
            XCTAssertEqual(Lines.line(key: line.key), line)
        }
    }

    func testEveryKindHasTwoCandidatesForEveryPersonality() {
        for kind in LineKind.allCases {
            for p in Personality.allCases {
                let n = Lines.all.filter { $0.kind == kind && ($0.personality == nil || $0.personality == p) }.count
                XCTAssertGreaterThanOrEqual(n, 2, "\(kind) \(p)")
            }
        }
    }

    func testPickNeverRepeatsThePreviousLine() {
        for kind in LineKind.allCases {
            for p in Personality.allCases {
                let keys = Lines.all.filter { $0.kind == kind && ($0.personality == nil || $0.personality == p) }.map(\.key)
                for seed in -300..<300 {
                    for previous in keys + [nil, "done.1"] {
                        let line = Lines.pick(kind, personality: p, seed: seed, previous: previous)
                        XCTAssertNotEqual(line.key, previous)
                        XCTAssertEqual(line.kind, kind)
                        XCTAssertTrue(line.personality == nil || line.personality == p)
                    }
                }
            }
        }
    }

    func testPickIsDeterministic() {
        XCTAssertEqual(Lines.pick(.idle, personality: .calm, seed: 42, previous: nil),
                       Lines.pick(.idle, personality: .calm, seed: 42, previous: nil))
    }

    func testConsecutiveSpokenLinesNeverRepeat() {
        var h = Harness(at: "2026-03-02 12:00")
        for i in 0..<300 {
            if i % 50 == 0 { h.ok("pet.traits", ["personality": Personality.allCases[(i / 50) % 4].rawValue]) }
            if i % 3 == 0 {
                h.ok("task.create", ["task": "t\(i)", "title": "T", "reminders": "+30s"])
                h.advance(by: 30)
                h.ok("task.complete", ["task": "t\(i)"])
            }
            h.ok("pet.pet")
            h.advance(by: 61)
        }
        let said = h.journal.saidKeys
        XCTAssertGreaterThanOrEqual(said.count, 500)
        for (a, b) in zip(said, said.dropFirst()) { XCTAssertNotEqual(a, b) }
    }

    func testIdleLineChangesEveryHourAndNeverRepeats() {
        for p in Personality.allCases {
            var h = Harness(at: "2026-03-02 12:00")
            h.ok("pet.traits", ["personality": p.rawValue])
            let start = h.now + 3 * Seconds.minute
            var previous: String?
            for hour in 0..<2000 {
                let line = h.state.speech(at: start + Int64(hour) * Seconds.hour)
                XCTAssertEqual(line.kind, .idle)
                XCTAssertNotEqual(line.key, previous, "\(p) hour \(hour)")
                previous = line.key
            }
        }
    }
}
