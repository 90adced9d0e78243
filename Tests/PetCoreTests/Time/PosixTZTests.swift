import XCTest
@testable import PetCore

final class PosixTZTests: XCTestCase {
    // 2026-01-01T00:00Z and 2026-07-01T00:00Z
    let jan2026: Int64 = 1_767_225_600
    let jul2026: Int64 = 1_782_864_000

    func testUSRule() throws {
        let z = try ZoneRules(identifier: "US", posix: "EST5EDT,M3.2.0,M11.1.0")
        XCTAssertEqual(z.offset(at: jan2026), -18_000)
        XCTAssertEqual(z.abbreviation(at: jan2026), "EST")
        XCTAssertEqual(z.offset(at: jul2026), -14_400)
        XCTAssertTrue(z.isDST(at: jul2026))
        XCTAssertEqual(z.nextTransition(after: jan2026), 1_772_953_200)          // 2026-03-08 07:00Z
        XCTAssertEqual(z.nextTransition(after: 1_772_953_200), 1_793_512_800)    // 2026-11-01 06:00Z
        XCTAssertEqual(z.offset(at: 1_772_953_199), -18_000)
        XCTAssertEqual(z.offset(at: 1_772_953_200), -14_400)
        XCTAssertEqual(z.offset(at: 1_793_512_799), -14_400)
        XCTAssertEqual(z.offset(at: 1_793_512_800), -18_000)
        XCTAssertEqual(z.nextTransition(after: 2_208_988_800), 2_215_062_000)    // 2040-03-11 07:00Z
    }

    func testEURuleWithExplicitTime() throws {
        let z = try ZoneRules(identifier: "CET", posix: "CET-1CEST,M3.5.0,M10.5.0/3")
        XCTAssertEqual(z.offset(at: jan2026), 3_600)
        XCTAssertEqual(z.offset(at: jul2026), 7_200)
        XCTAssertEqual(z.abbreviation(at: jul2026), "CEST")
        XCTAssertEqual(z.nextTransition(after: jan2026), 1_774_746_000)          // 2026-03-29 01:00Z
        XCTAssertEqual(z.nextTransition(after: 1_774_746_000), 1_792_890_000)    // 2026-10-25 01:00Z
        XCTAssertEqual(z.nextTransition(after: 2_524_608_000), 2_531_955_600)    // 2050 → 2050-03-27 01:00Z
    }

    func testLordHoweHalfHourDST() throws {
        let z = try ZoneRules(identifier: "LH", posix: "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
        XCTAssertEqual(z.offset(at: jan2026), 39_600)                          // DST spans new year
        XCTAssertTrue(z.isDST(at: jan2026))
        XCTAssertEqual(z.abbreviation(at: jan2026), "+11")
        XCTAssertEqual(z.offset(at: jul2026), 37_800)
        XCTAssertEqual(z.abbreviation(at: jul2026), "+1030")
        XCTAssertEqual(z.nextTransition(after: jan2026), 1_775_314_800)          // 2026-04-04 15:00Z
        XCTAssertEqual(z.nextTransition(after: 1_775_314_800), 1_791_041_400)    // 2026-10-03 15:30Z
    }

    func testSouthernHemisphereSydney() throws {
        // Values checked against Python zoneinfo Australia/Sydney.
        let z = try ZoneRules(identifier: "Sydney", posix: "AEST-10AEDT,M10.1.0,M4.1.0/3")
        XCTAssertEqual(z.offset(at: jan2026), 39_600)
        XCTAssertEqual(z.offset(at: 1_775_318_399), 39_600)
        XCTAssertEqual(z.offset(at: 1_775_318_400), 36_000)   // 2026-04-05 03:00 AEDT → 02:00 AEST
        XCTAssertEqual(z.offset(at: 1_791_043_199), 36_000)
        XCTAssertEqual(z.offset(at: 1_791_043_200), 39_600)   // 2026-10-04 02:00 AEST → 03:00 AEDT
        XCTAssertEqual(z.nextTransition(after: jan2026), 1_775_318_400)
        XCTAssertEqual(z.nextTransition(after: 1_775_318_400), 1_791_043_200)
        XCTAssertEqual(z.nextTransition(after: 1_791_043_200), 1_806_768_000) // 2027-04-04 03:00 AEDT (16:00Z Apr 3)
    }

    func testFixedOffsets() throws {
        let india = try ZoneRules(identifier: "IST", posix: "IST-5:30")
        XCTAssertEqual(india.offset(at: jan2026), 19_800)
        XCTAssertFalse(india.isDST(at: jan2026))
        XCTAssertNil(india.nextTransition(after: jan2026))
        let brazil = try ZoneRules(identifier: "BR", posix: "<-03>3")
        XCTAssertEqual(brazil.offset(at: jul2026), -10_800)
        XCTAssertEqual(brazil.abbreviation(at: jul2026), "-03")
        let plus = try ZoneRules(identifier: "X", posix: "<+0545>-5:45")
        XCTAssertEqual(plus.offset(at: 0), 20_700)
        let secs = try ZoneRules(identifier: "X", posix: "LMT+0:17:30")
        XCTAssertEqual(secs.offset(at: 0), -1_050)
        XCTAssertEqual(try ZoneRules(identifier: "X", posix: "UTC0").offset(at: 0), 0)
    }

    func testExtendedTimes() throws {
        // RFC 8536 negative time (America/Nuuk's footer): same instants as the EU rule.
        let nuuk = try ZoneRules(identifier: "Nuuk", posix: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        XCTAssertEqual(nuuk.nextTransition(after: jan2026), 1_774_746_000)
        XCTAssertEqual(nuuk.nextTransition(after: 1_774_746_000), 1_792_890_000)
        XCTAssertEqual(nuuk.offset(at: 1_774_745_999), -7_200)
        XCTAssertEqual(nuuk.offset(at: 1_774_746_000), -3_600)
        // Time > 24 h: the switch happens on the following day (checked with glibc `date`).
        let late = try ZoneRules(identifier: "X", posix: "EST5EDT,M3.2.0/25,M11.1.0")
        XCTAssertEqual(late.nextTransition(after: jan2026), 1_773_036_000)       // 2026-03-09 06:00Z
        // All-year DST per RFC 8536: no transitions ever.
        let always = try ZoneRules(identifier: "X", posix: "EST5EDT,0/0,J365/25")
        for t in [jan2026, jul2026, 1_798_761_599, 1_798_761_600, -2_000_000_000] {
            XCTAssertEqual(always.offset(at: t), -14_400, "\(t)")
        }
        XCTAssertNil(always.nextTransition(after: jan2026))
        // DST name without rules defaults to the US rule; DST offset defaults to std + 1 h.
        let implicit = try ZoneRules(identifier: "X", posix: "EST5EDT")
        XCTAssertEqual(implicit.nextTransition(after: jan2026), 1_772_953_200)
        XCTAssertEqual(implicit.offset(at: jul2026), -14_400)
    }

    func testJulianDateRules() throws {
        // Jn never counts Feb 29; n does.
        XCTAssertEqual(PosixTZ.DateRule.julianNoLeap(60).dayNumber(inYear: 2024), CivilDate(year: 2024, month: 3, day: 1).dayNumber)
        XCTAssertEqual(PosixTZ.DateRule.julianNoLeap(59).dayNumber(inYear: 2024), CivilDate(year: 2024, month: 2, day: 28).dayNumber)
        XCTAssertEqual(PosixTZ.DateRule.julianNoLeap(365).dayNumber(inYear: 2024), CivilDate(year: 2024, month: 12, day: 31).dayNumber)
        XCTAssertEqual(PosixTZ.DateRule.zeroBasedDay(59).dayNumber(inYear: 2024), CivilDate(year: 2024, month: 2, day: 29).dayNumber)
        XCTAssertEqual(PosixTZ.DateRule.zeroBasedDay(59).dayNumber(inYear: 2026), CivilDate(year: 2026, month: 3, day: 1).dayNumber)
        XCTAssertEqual(PosixTZ.DateRule.zeroBasedDay(0).dayNumber(inYear: 2026), CivilDate(year: 2026, month: 1, day: 1).dayNumber)
        // M10.5.0 = last Sunday of October; M2.5.4 in a leap year (Thu Feb 29 2024).
        XCTAssertEqual(PosixTZ.DateRule.monthWeekDay(month: 10, week: 5, weekday: 0).dayNumber(inYear: 2026),
                       CivilDate(year: 2026, month: 10, day: 25).dayNumber)
        XCTAssertEqual(PosixTZ.DateRule.monthWeekDay(month: 2, week: 5, weekday: 4).dayNumber(inYear: 2024),
                       CivilDate(year: 2024, month: 2, day: 29).dayNumber)
        XCTAssertEqual(PosixTZ.DateRule.monthWeekDay(month: 3, week: 1, weekday: 0).dayNumber(inYear: 2026),
                       CivilDate(year: 2026, month: 3, day: 1).dayNumber)

        let rule = try PosixTZ(parsing: "AAA3BBB,J60/1:30:15,300/-2")
        let dst = try XCTUnwrap(rule.daylight)
        XCTAssertEqual(dst.start, PosixTZ.Switch(date: .julianNoLeap(60), time: 5_415))
        XCTAssertEqual(dst.end, PosixTZ.Switch(date: .zeroBasedDay(300), time: -7_200))
        XCTAssertEqual(dst.type.utOffset, -7_200)
        XCTAssertEqual(rule.standard.utOffset, -10_800)
    }

    func testErrors() {
        let bad = [
            "", "E5", "EST", "EST+", "5EST", "EST5EDT,", "EST5EDT,M3.2.0", "EST5EDT,M3.2.0,",
            "EST5EDT,M13.1.0,M11.1.0", "EST5EDT,M3.6.0,M11.1.0", "EST5EDT,M3.2.7,M11.1.0", "EST5EDT,M3.2,M11.1.0",
            "EST5EDT,J0,J100", "EST5EDT,J366,J100", "EST5EDT,366,J100", "EST5EDT,M3.2.0/168,M11.1.0",
            "EST25", "EST5:60", "EST5:00:60", "<EST5", "<E>5", "<ES T>5", "EST5 junk", "EST5EDT4junk",
            "EST5EDT,M3.2.0,M11.1.0,", "EST5EDT;M3.2.0,M11.1.0", "EST99999999999999999999999",
        ]
        for text in bad {
            XCTAssertThrowsError(try PosixTZ(parsing: text), text) { error in
                guard case TZifError.badPosixTZ(let string, let reason)? = error as? TZifError else {
                    return XCTFail("unexpected error \(error) for \(text)")
                }
                XCTAssertEqual(string, text)
                XCTAssertFalse(reason.isEmpty)
            }
        }
        do {
            _ = try ZoneRules(identifier: "X", posix: "EST5EDT,M3.2.0")
            XCTFail("expected error")
        } catch {
            XCTAssertTrue(error.description.contains("EST5EDT,M3.2.0"), error.description)
        }
    }
}
