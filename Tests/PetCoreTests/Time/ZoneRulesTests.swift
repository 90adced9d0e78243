import XCTest
@testable import PetCore

/// Expected values were checked with Python zoneinfo and GNU `date`
/// (e.g. `TZ=America/New_York date -d @1772953200`).
final class ZoneRulesTests: XCTestCase {
    func testNewYork() throws {
        let ny = try loadZone("America/New_York")
        // 2026 spring forward: 2026-03-08 07:00Z (02:00 EST → 03:00 EDT).
        XCTAssertEqual(ny.offset(at: 1_772_953_199), -18_000)
        XCTAssertEqual(ny.offset(at: 1_772_953_200), -14_400)
        XCTAssertEqual(ny.abbreviation(at: 1_772_953_199), "EST")
        XCTAssertEqual(ny.abbreviation(at: 1_772_953_200), "EDT")
        XCTAssertTrue(ny.isDST(at: 1_772_953_200))
        XCTAssertEqual(ny.localDateTime(at: 1_772_953_199).descriptionWithSeconds, "2026-03-08 01:59:59")
        XCTAssertEqual(ny.localDateTime(at: 1_772_953_200).description, "2026-03-08 03:00")
        // 2026 fall back: 2026-11-01 06:00Z.
        XCTAssertEqual(ny.offset(at: 1_793_512_799), -14_400)
        XCTAssertEqual(ny.offset(at: 1_793_512_800), -18_000)
        XCTAssertEqual(ny.nextTransition(after: 1_767_225_600), 1_772_953_200)
        XCTAssertEqual(ny.nextTransition(after: 1_772_953_199), 1_772_953_200)
        XCTAssertEqual(ny.nextTransition(after: 1_772_953_200), 1_793_512_800)
        // Day lengths.
        XCTAssertEqual(ny.lengthOfDay(CivilDate(year: 2026, month: 3, day: 8)), 23 * 3_600)
        XCTAssertEqual(ny.lengthOfDay(CivilDate(year: 2026, month: 11, day: 1)), 25 * 3_600)
        XCTAssertEqual(ny.lengthOfDay(CivilDate(year: 2026, month: 3, day: 9)), 24 * 3_600)
        // After 2037 (footer rule): 2040-03-11 07:00Z and 2040-11-04 06:00Z.
        XCTAssertEqual(ny.nextTransition(after: 2_208_988_800), 2_215_062_000)
        XCTAssertEqual(ny.nextTransition(after: 2_215_062_000), 2_235_621_600)
        XCTAssertEqual(ny.offset(at: 2_215_061_999), -18_000)
        XCTAssertEqual(ny.offset(at: 2_215_062_000), -14_400)
        XCTAssertEqual(ny.abbreviation(at: 2_235_621_600), "EST")
        // Before 1970: EDT in July 1960; local mean time (-4:56:02) in 1850.
        XCTAssertEqual(ny.offset(at: -299_894_400), -14_400)
        XCTAssertEqual(ny.abbreviation(at: -299_894_400), "EDT")
        XCTAssertEqual(ny.offset(at: -3_773_779_200), -17_762)
        XCTAssertEqual(ny.abbreviation(at: -3_773_779_200), "LMT")
        XCTAssertEqual(ny.localDateTime(at: -3_773_779_200).descriptionWithSeconds, "1850-05-31 19:03:58")
    }

    func testBerlinAndLondon() throws {
        let berlin = try loadZone("Europe/Berlin")
        XCTAssertEqual(berlin.offset(at: 1_774_745_999), 3_600)
        XCTAssertEqual(berlin.offset(at: 1_774_746_000), 7_200)       // 2026-03-29 01:00Z
        XCTAssertEqual(berlin.offset(at: 1_792_889_999), 7_200)
        XCTAssertEqual(berlin.offset(at: 1_792_890_000), 3_600)       // 2026-10-25 01:00Z
        XCTAssertEqual(berlin.abbreviation(at: 1_774_746_000), "CEST")
        XCTAssertEqual(berlin.lengthOfDay(CivilDate(year: 2026, month: 3, day: 29)), 23 * 3_600)
        XCTAssertEqual(berlin.lengthOfDay(CivilDate(year: 2026, month: 10, day: 25)), 25 * 3_600)
        XCTAssertEqual(berlin.nextTransition(after: 2_524_608_000), 2_531_955_600)   // 2050-03-27 01:00Z
        XCTAssertEqual(berlin.nextTransition(after: 2_531_955_600), 2_550_704_400)   // 2050-10-30 01:00Z
        XCTAssertEqual(berlin.offset(at: -712_800_000), 10_800)       // 1947 double summer time
        XCTAssertEqual(berlin.abbreviation(at: -712_800_000), "CEMT")
        XCTAssertEqual(berlin.offset(at: -2_208_988_800), 3_600)      // 1900-01-01

        let london = try loadZone("Europe/London")
        XCTAssertEqual(london.offset(at: 1_774_745_999), 0)
        XCTAssertEqual(london.offset(at: 1_774_746_000), 3_600)
        XCTAssertEqual(london.abbreviation(at: 1_774_745_999), "GMT")
        XCTAssertEqual(london.abbreviation(at: 1_774_746_000), "BST")
        // 1968–1971 "British Standard Time": +1 all year, not flagged as DST.
        XCTAssertEqual(london.offset(at: 0), 3_600)
        XCTAssertFalse(london.isDST(at: 0))
    }

    func testLordHoweKolkataApiaUTC() throws {
        let lh = try loadZone("Australia/Lord_Howe")
        XCTAssertEqual(lh.offset(at: 1_775_314_799), 39_600)
        XCTAssertEqual(lh.offset(at: 1_775_314_800), 37_800)          // 2026-04-04 15:00Z, back 30 min
        XCTAssertEqual(lh.offset(at: 1_791_041_400), 39_600)          // 2026-10-03 15:30Z, forward 30 min
        XCTAssertEqual(lh.abbreviation(at: 1_791_041_400), "+11")
        XCTAssertEqual(lh.lengthOfDay(CivilDate(year: 2026, month: 10, day: 4)), 86_400 - 1_800)
        XCTAssertEqual(lh.lengthOfDay(CivilDate(year: 2026, month: 4, day: 5)), 86_400 + 1_800)
        XCTAssertEqual(lh.nextTransition(after: 2_366_841_600), 2_374_671_600)       // 2045-04-01 15:00Z
        XCTAssertEqual(lh.nextTransition(after: 2_374_671_600), 2_390_398_200)       // 2045-09-30 15:30Z
        XCTAssertEqual(lh.offset(at: -315_619_200), 36_000)           // 1960: AEST
        XCTAssertEqual(lh.abbreviation(at: -315_619_200), "AEST")

        let kolkata = try loadZone("Asia/Kolkata")
        XCTAssertEqual(kolkata.offset(at: 1_780_272_000), 19_800)
        XCTAssertEqual(kolkata.abbreviation(at: 1_780_272_000), "IST")
        XCTAssertEqual(kolkata.offset(at: -839_030_400), 23_400)      // 1943: +0630 war time
        XCTAssertTrue(kolkata.isDST(at: -839_030_400))
        XCTAssertNil(kolkata.nextTransition(after: 0))

        let apia = try loadZone("Pacific/Apia")
        XCTAssertEqual(apia.offset(at: 1_325_239_199), -36_000)
        XCTAssertEqual(apia.offset(at: 1_325_239_200), 50_400)        // 2011-12-30 10:00Z: -10 → +14
        XCTAssertEqual(apia.localDateTime(at: 1_325_239_199).descriptionWithSeconds, "2011-12-29 23:59:59")
        XCTAssertEqual(apia.localDateTime(at: 1_325_239_200).descriptionWithSeconds, "2011-12-31 00:00:00")
        XCTAssertEqual(apia.lengthOfDay(CivilDate(year: 2011, month: 12, day: 30)), 0)
        XCTAssertEqual(apia.utcCandidates(for: local(2011, 12, 30, 12)), [])
        // Gap policy: read with the pre-gap offset (-10) → 2011-12-31 12:00 +14.
        XCTAssertEqual(apia.utc(for: local(2011, 12, 30, 12)), 1_325_282_400)
        XCTAssertEqual(apia.localDateTime(at: 1_325_282_400).description, "2011-12-31 12:00")

        let utc = try loadZone("UTC")
        XCTAssertEqual(utc.offset(at: 1_767_225_600), 0)
        XCTAssertEqual(utc.abbreviation(at: 1_767_225_600), "UTC")
        XCTAssertNil(utc.nextTransition(after: 0))
    }

    func testGapAndOverlapMapping() throws {
        let ny = try loadZone("America/New_York")
        // Gap: 02:30 does not exist on 2026-03-08 → 07:30Z (03:30 EDT).
        XCTAssertEqual(ny.utcCandidates(for: local(2026, 3, 8, 2, 30)), [])
        XCTAssertEqual(ny.utc(for: local(2026, 3, 8, 2, 30)), 1_772_955_000)
        XCTAssertEqual(ny.localDateTime(at: 1_772_955_000).description, "2026-03-08 03:30")
        XCTAssertEqual(ny.utc(for: local(2026, 3, 8, 2, 0)), 1_772_953_200)       // gap start → 03:00 EDT
        XCTAssertEqual(ny.utc(for: local(2026, 3, 8, 1, 59, 59)), 1_772_953_199)
        XCTAssertEqual(ny.utc(for: local(2026, 3, 8, 3, 0)), 1_772_953_200)
        // Overlap: 01:30 on 2026-11-01 happens twice; the earlier (EDT) wins.
        XCTAssertEqual(ny.utcCandidates(for: local(2026, 11, 1, 1, 30)), [1_793_511_000, 1_793_514_600])
        XCTAssertEqual(ny.utc(for: local(2026, 11, 1, 1, 30)), 1_793_511_000)
        XCTAssertEqual(ny.utc(for: local(2026, 11, 1, 2, 0)), 1_793_512_800 + 3_600)
        // Footer era gap/overlap (2040).
        XCTAssertEqual(ny.utcCandidates(for: local(2040, 3, 11, 2, 30)), [])
        XCTAssertEqual(ny.utc(for: local(2040, 3, 11, 2, 30)), 2_215_062_000 + 1_800)
        XCTAssertEqual(ny.utcCandidates(for: local(2040, 11, 4, 1, 0)).count, 2)

        let berlin = try loadZone("Europe/Berlin")
        XCTAssertEqual(berlin.utc(for: local(2026, 3, 29, 2, 30)), 1_774_747_800)   // → 03:30 CEST
        XCTAssertEqual(berlin.utcCandidates(for: local(2026, 10, 25, 2, 30)), [1_792_888_200, 1_792_891_800])
        XCTAssertEqual(berlin.utc(for: local(2026, 10, 25, 2, 30)), 1_792_888_200)

        let lh = try loadZone("Australia/Lord_Howe")
        // 30-minute gap 02:00→02:30 on 2026-10-04; 02:15 → 02:45 (+11).
        XCTAssertEqual(lh.utcCandidates(for: local(2026, 10, 4, 2, 15)), [])
        XCTAssertEqual(lh.utc(for: local(2026, 10, 4, 2, 15)), 1_791_042_300)
        XCTAssertEqual(lh.localDateTime(at: 1_791_042_300).description, "2026-10-04 02:45")
        // 30-minute overlap 01:30–02:00 on 2026-04-05.
        XCTAssertEqual(lh.utcCandidates(for: local(2026, 4, 5, 1, 45)), [1_775_313_900, 1_775_315_700])

        // Ordinary times round-trip exactly.
        for t in stride(from: Int64(1_767_225_600), to: 1_798_761_600, by: 3_607) {
            let wall = ny.localDateTime(at: t)
            let candidates = ny.utcCandidates(for: wall)
            XCTAssertTrue(candidates.contains(t))
            // Only the second pass through the fall-back hour maps elsewhere.
            let inRepeatedHour = t >= 1_793_512_800 && t < 1_793_516_400
            XCTAssertEqual(ny.utc(for: wall), inRepeatedHour ? t - 3_600 : t)
        }
    }

    func testFixedAndUTC() {
        XCTAssertEqual(ZoneRules.utc.offset(at: 123), 0)
        XCTAssertEqual(ZoneRules.utc.abbreviation(at: 123), "UTC")
        XCTAssertNil(ZoneRules.utc.nextTransition(after: 0))
        XCTAssertEqual(ZoneRules.utc.utc(for: local(2026, 3, 8, 2, 30)), 1_772_937_000)
        let ist = ZoneRules.fixed(identifier: "IST", offsetSeconds: 19_800)
        XCTAssertEqual(ist.offset(at: 0), 19_800)
        XCTAssertEqual(ist.abbreviation(at: 0), "+05:30")
        XCTAssertEqual(ist.localDateTime(at: 0).description, "1970-01-01 05:30")
        XCTAssertEqual(ist.utcCandidates(for: local(1970, 1, 1, 5, 30)), [0])
        XCTAssertEqual(ZoneRules.fixed(identifier: "x", offsetSeconds: -12_345).abbreviation(at: 0), "-03:25:45")
    }

    /// 2000 random instants (1850–2150) in three zones, expected values from
    /// Python zoneinfo (see scripts/gen_fixture.py and ZoneFixture.swift).
    func testRandomInstantsAgainstPythonZoneinfo() throws {
        let zones = try zoneFixtureZones.map(loadZone)
        var rows = 0, mismatches: [String] = []
        for line in zoneFixture.split(separator: "\n") {
            let f = line.split(separator: " ").compactMap { Int64($0) }
            XCTAssertEqual(f.count, 1 + 2 * zones.count, "bad fixture line \(line)")
            guard f.count == 1 + 2 * zones.count else { continue }
            rows += 1
            for (i, zone) in zones.enumerated() {
                let offset = Int64(zone.offset(at: f[0]))
                let dst = zone.isDST(at: f[0]) ? 1 : 0
                if offset != f[1 + 2 * i] || dst != f[2 + 2 * i] {
                    mismatches.append("\(zone.identifier) @\(f[0]): got \(offset)/\(dst), want \(f[1 + 2 * i])/\(f[2 + 2 * i])")
                }
                // The wall time must map back to the instant.
                if !zone.utcCandidates(for: zone.localDateTime(at: f[0])).contains(f[0]) {
                    mismatches.append("\(zone.identifier) @\(f[0]): local time does not round-trip")
                }
            }
        }
        XCTAssertEqual(rows, 2_000)
        XCTAssertEqual(mismatches.count, 0, mismatches.prefix(10).joined(separator: "\n"))
    }

    /// Walking `nextTransition` from 1900 to 2100 finds exactly the points
    /// where the offset/DST/abbreviation change (checked hourly-ish).
    func testNextTransitionWalk() throws {
        for id in ["America/New_York", "Australia/Lord_Howe"] {
            let z = try loadZone(id)
            var t: Int64 = -2_208_988_800
            var count = 0
            while let next = z.nextTransition(after: t), next < 4_102_444_800 {
                XCTAssertGreaterThan(next, t)
                XCTAssertNotEqual(z.localTimeType(at: next - 1), z.localTimeType(at: next), "\(id) @\(next)")
                // No change between t and next (sampled).
                let before = z.localTimeType(at: t)
                for k: Int64 in 1...7 { XCTAssertEqual(z.localTimeType(at: t + (next - t - 1) * k / 8), before) }
                t = next
                count += 1
            }
            XCTAssertGreaterThan(count, 100, id)
        }
    }
}
