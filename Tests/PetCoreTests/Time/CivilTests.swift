import Foundation
import XCTest
@testable import PetCore

final class CivilTests: XCTestCase {
    func testFloorDivision() {
        XCTAssertEqual(floorDiv(-1, 86_400), -1)
        XCTAssertEqual(floorMod(-1, 86_400), 86_399)
        XCTAssertEqual(floorDiv(86_400, 86_400), 1)
        XCTAssertEqual(floorDiv(7, -2), -4)
        XCTAssertEqual(floorMod(7, -2), -1)
        XCTAssertEqual(floorDiv(-7, -2), 3)
        XCTAssertEqual(floorMod(-7, 7), 0)
        XCTAssertEqual(floorMod(Int64.min, 86_400), 86_400 + Int64.min % 86_400)
        XCTAssertEqual(floorDiv(Int64.min, 86_400), Int64.min / 86_400 - 1)
    }

    func testKnownDayNumbers() {
        XCTAssertEqual(CivilDate(year: 1970, month: 1, day: 1).dayNumber, 0)
        XCTAssertEqual(CivilDate(year: 1969, month: 12, day: 31).dayNumber, -1)
        XCTAssertEqual(CivilDate(year: 2000, month: 3, day: 1).dayNumber, 11_017)
        XCTAssertEqual(CivilDate(year: 2026, month: 3, day: 8).dayNumber, 20_520)
        XCTAssertEqual(CivilDate(year: 0, month: 3, day: 1).dayNumber, -719_468)
        XCTAssertEqual(CivilDate(year: 1900, month: 1, day: 1).dayNumber, -25_567)
        XCTAssertEqual(CivilDate(dayNumber: -719_468), CivilDate(year: 0, month: 3, day: 1))
        XCTAssertEqual(CivilDate(dayNumber: 24_837), CivilDate(year: 2038, month: 1, day: 1))
    }

    /// Walk day by day across ~1100 years (including negative years) and check
    /// that consecutive day numbers give consecutive calendar dates.
    func testDayByDayContinuity() {
        var expected = CivilDate(year: -101, month: 1, day: 1)
        var n = expected.dayNumber
        XCTAssertEqual(CivilDate(dayNumber: n), expected)
        while expected.year < 1000 {
            n += 1
            // Advance `expected` by hand (independent of the algorithm).
            if expected.day < CivilDate.daysInMonth(year: expected.year, month: expected.month) {
                expected.day += 1
            } else if expected.month < 12 {
                expected.month += 1; expected.day = 1
            } else {
                expected.year += 1; expected.month = 1; expected.day = 1
            }
            let got = CivilDate(dayNumber: n)
            if got != expected || got.dayNumber != n {
                XCTFail("day \(n): got \(got), expected \(expected)")
                return
            }
        }
        // Also a window around today, with weekdays.
        var weekday = CivilDate(year: 1999, month: 12, day: 26).weekday   // a Sunday
        XCTAssertEqual(weekday, 0)
        for day in CivilDate(year: 1999, month: 12, day: 27).dayNumber...CivilDate(year: 2101, month: 1, day: 1).dayNumber {
            weekday = (weekday + 1) % 7
            XCTAssertEqual(CivilDate(dayNumber: day).weekday, weekday)
            XCTAssertEqual(CivilDate(dayNumber: day).dayNumber, day)
        }
    }

    func testWeekdaysAndValidity() {
        XCTAssertEqual(CivilDate(year: 1970, month: 1, day: 1).weekday, 4)   // Thursday
        XCTAssertEqual(CivilDate(year: 2026, month: 3, day: 8).weekday, 0)   // Sunday
        XCTAssertEqual(CivilDate(year: 2000, month: 1, day: 1).weekday, 6)   // Saturday
        XCTAssertEqual(CivilDate(year: 1969, month: 12, day: 31).weekday, 3) // Wednesday
        XCTAssertTrue(CivilDate.isValid(year: 2000, month: 2, day: 29))
        XCTAssertTrue(CivilDate.isValid(year: 2024, month: 2, day: 29))
        XCTAssertFalse(CivilDate.isValid(year: 1900, month: 2, day: 29))
        XCTAssertFalse(CivilDate.isValid(year: 2026, month: 13, day: 1))
        XCTAssertFalse(CivilDate.isValid(year: 2026, month: 4, day: 31))
        XCTAssertFalse(CivilDate.isValid(year: 2026, month: 1, day: 0))
        XCTAssertEqual(CivilDate.daysInMonth(year: 2026, month: 2), 28)
        XCTAssertEqual(CivilDate.daysInMonth(year: 2026, month: 0), 0)
        XCTAssertNil(CivilDate.validated(year: 2026, month: 2, day: 29))
        XCTAssertEqual(CivilDate(year: 2026, month: 12, day: 31).adding(days: 1), CivilDate(year: 2027, month: 1, day: 1))
        XCTAssertEqual(CivilDate(year: 2024, month: 3, day: 1).adding(days: -1), CivilDate(year: 2024, month: 2, day: 29))
        XCTAssertLessThan(CivilDate(year: 2026, month: 1, day: 31), CivilDate(year: 2026, month: 2, day: 1))
    }

    func testDateTextRoundTrip() {
        XCTAssertEqual(CivilDate(year: 2026, month: 3, day: 8).description, "2026-03-08")
        XCTAssertEqual(CivilDate(year: 5, month: 1, day: 2).description, "0005-01-02")
        XCTAssertEqual(CivilDate(year: -1, month: 12, day: 31).description, "-0001-12-31")
        XCTAssertEqual(CivilDate(parsing: "2026-03-08"), CivilDate(year: 2026, month: 3, day: 8))
        XCTAssertEqual(CivilDate(parsing: "-0001-12-31"), CivilDate(year: -1, month: 12, day: 31))
        XCTAssertEqual(CivilDate(parsing: "2024-02-29"), CivilDate(year: 2024, month: 2, day: 29))
        for bad in ["", "2026-02-29", "2026-3-08", "2026-03-8", "2026-03-08x", "20260308", "26-03-08",
                    "2026/03/08", "2026-00-10", "２０２６-03-08", "2026-03-08 "] {
            XCTAssertNil(CivilDate(parsing: bad), bad)
        }
    }

    func testLocalDateTime() {
        let t = LocalDateTime(localSeconds: -1)
        XCTAssertEqual(t.date, CivilDate(year: 1969, month: 12, day: 31))
        XCTAssertEqual([t.hour, t.minute, t.second], [23, 59, 59])
        XCTAssertEqual(t.localSeconds, -1)
        XCTAssertEqual(t.descriptionWithSeconds, "1969-12-31 23:59:59")
        XCTAssertEqual(LocalDateTime(localSeconds: 1_772_955_000).description, "2026-03-08 07:30")
        XCTAssertEqual(local(2026, 3, 8, 7, 30).localSeconds, 1_772_955_000)
        // Normalization of secondOfDay.
        XCTAssertEqual(LocalDateTime(date: CivilDate(year: 2026, month: 1, day: 1), secondOfDay: -60).description,
                       "2025-12-31 23:59")
        XCTAssertEqual(local(2026, 1, 1, 25).description, "2026-01-02 01:00")
        XCTAssertEqual(local(2026, 1, 1).adding(seconds: 90_061).descriptionWithSeconds, "2026-01-02 01:01:01")
        XCTAssertLessThan(local(2026, 1, 1, 23, 59), local(2026, 1, 2))
        // Extremes do not trap and round-trip.
        for s in [Int64.min, Int64.min + 1, Int64.max, Int64.max - 86_400, 0] {
            XCTAssertEqual(LocalDateTime(localSeconds: s).localSeconds, s)
        }
    }

    func testLocalDateTimeParsing() {
        XCTAssertEqual(LocalDateTime(parsing: "2026-03-08 02:30"), local(2026, 3, 8, 2, 30))
        XCTAssertEqual(LocalDateTime(parsing: "2026-03-08 02:30:15"), local(2026, 3, 8, 2, 30, 15))
        XCTAssertEqual(LocalDateTime(parsing: "2026-03-08T23:59"), local(2026, 3, 8, 23, 59))
        XCTAssertEqual(LocalDateTime(parsing: "2026-03-08T00:00:59"), local(2026, 3, 8, 0, 0, 59))
        for bad in ["2026-03-08", "2026-03-08 24:00", "2026-03-08 12:60", "2026-03-08 12:00:60", "2026-03-08 1:00",
                    "2026-03-08 12:00:", "2026-03-08x12:00", "2026-02-30 12:00", "2026-03-08 12:00 ", "2026-03-08  12:00"] {
            XCTAssertNil(LocalDateTime(parsing: bad), bad)
        }
    }

    func testCodable() throws {
        let value = local(2026, 3, 8, 2, 30, 5)
        let data = try JSONEncoder().encode(value)
        XCTAssertEqual(try JSONDecoder().decode(LocalDateTime.self, from: data), value)
        let date = CivilDate(year: 2026, month: 10, day: 25)
        XCTAssertEqual(try JSONDecoder().decode(CivilDate.self, from: JSONEncoder().encode(date)), date)
    }
}
