import Foundation
import XCTest
import TestSupport
@testable import PetCore

final class TZifTests: XCTestCase {
    func testRealFilesParse() throws {
        for id in ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata",
                   "Pacific/Apia", "Europe/London", "UTC", "America/Nuuk"] {
            let z = try loadZone(id)
            XCTAssertEqual(z.identifier, id)
            XCTAssertFalse(z.localTimeTypes.isEmpty)
            XCTAssertEqual(z.transitionTimes.count, z.transitionTypeIndices.count)
            XCTAssertNotNil(z.footer, id)
        }
        XCTAssertEqual(try loadZone("America/New_York").footer?.source, "EST5EDT,M3.2.0,M11.1.0")
        XCTAssertEqual(try loadZone("America/Nuuk").footer?.source, "<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        XCTAssertEqual(try loadZone("UTC").footer?.source, "UTC0")
    }

    /// Every file of the system database parses, and for a few instants per
    /// zone the local time maps back to the instant.
    func testWholeSystemDatabase() throws {
        let fm = FileManager.default
        let enumerator = try XCTUnwrap(fm.enumerator(atPath: zoneinfoRoot))
        var parsed = 0
        while let path = enumerator.nextObject() as? String {
            if path.hasPrefix("right/") || path.hasPrefix("posix/") { continue }
            guard let data = fm.contents(atPath: zoneinfoRoot + path), data.starts(with: Array("TZif".utf8)) else { continue }
            let zone: ZoneRules
            do { zone = try ZoneRules(identifier: path, tzif: [UInt8](data)) } catch {
                XCTFail("\(path): \(error)"); continue
            }
            parsed += 1
            for t: Int64 in [-2_000_000_000, 0, 1_000_000_000, 1_772_953_200, 2_200_000_000, 4_000_000_000] {
                let wall = zone.localDateTime(at: t)
                XCTAssertTrue(zone.utcCandidates(for: wall).contains(t), "\(path) at \(t)")
            }
        }
        XCTAssertGreaterThan(parsed, 300)
        // A file with leap-second records.
        XCTAssertNoThrow(try loadZone("right/Europe/Berlin"))
    }

    /// Every proper prefix of a real file is rejected with an error, never a crash.
    func testEveryTruncationThrows() throws {
        for id in ["America/New_York", "Australia/Lord_Howe"] {
            let bytes = try zoneBytes(id)
            for length in 0..<bytes.count {
                XCTAssertThrowsError(try ZoneRules(identifier: id, tzif: Array(bytes[0..<length])), "\(id) length \(length)")
            }
            XCTAssertNoThrow(try ZoneRules(identifier: id, tzif: bytes))
        }
        XCTAssertEqual(TZifError.truncated(section: "header", offset: 0),
                       tzifError(Array("TZif2".utf8)))
    }

    /// Corrupt every byte of a real file three ways and feed random garbage;
    /// whatever parses must still answer queries without trapping.
    func testGarbageNeverCrashes() throws {
        let bytes = try zoneBytes("Europe/Berlin")
        var accepted = 0
        for i in 0..<bytes.count {
            for mask: UInt8 in [0xFF, 0x80, 0x01] {
                var copy = bytes
                copy[i] ^= mask
                if let z = try? ZoneRules(identifier: "fuzz", tzif: copy) {
                    accepted += 1
                    exercise(z)
                }
            }
        }
        XCTAssertGreaterThan(accepted, 0)   // many flips only change a value

        var rng = SplitMix64(seed: 42)
        for round in 0..<3_000 {
            // Random bytes, sometimes behind a valid-looking header.
            var junk = (0..<Int(rng.next() % 300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if round % 2 == 0 { junk = Array("TZif2".utf8) + Array(repeating: 0, count: 15) + junk }
            if let z = try? ZoneRules(identifier: "junk", tzif: junk) { exercise(z) }
        }
    }

    func testErrorCases() throws {
        XCTAssertEqual(tzifError([]), .truncated(section: "header", offset: 0))
        XCTAssertEqual(tzifError(Array("TZxf2".utf8)), .badMagic)
        XCTAssertEqual(tzifError(Array("<html>".utf8)), .badMagic)
        var ny = try zoneBytes("America/New_York")
        ny[4] = UInt8(ascii: "5")
        XCTAssertEqual(tzifError(ny), .unsupportedVersion(0x35))

        // Hand-built version 1 file: 2 transitions, 2 types.
        var v1 = tzifV1(times: [100, 200], indices: [1, 0],
                        types: [(3_600, 0, 0), (7_200, 1, 4)], chars: "CET\0CEST\0")
        let z = try ZoneRules(identifier: "v1", tzif: v1)
        XCTAssertNil(z.footer)
        XCTAssertEqual([z.offset(at: 99), z.offset(at: 100), z.offset(at: 199), z.offset(at: 200), z.offset(at: 10_000)],
                       [3_600, 7_200, 7_200, 3_600, 3_600])
        XCTAssertEqual(z.abbreviation(at: 150), "CEST")
        XCTAssertEqual(z.nextTransition(after: 0), 100)
        XCTAssertNil(z.nextTransition(after: 200))

        // Bad transition type index (index 2 with 2 types).
        v1 = tzifV1(times: [100], indices: [2], types: [(0, 0, 0), (0, 0, 0)], chars: "UTC\0")
        XCTAssertEqual(tzifError(v1), .badIndex(section: "transition types", index: 0))
        // Abbreviation index past the character table.
        v1 = tzifV1(times: [], indices: [], types: [(0, 0, 9)], chars: "UTC\0")
        XCTAssertEqual(tzifError(v1), .badIndex(section: "local time types", index: 0))
        // Abbreviation without terminating NUL.
        v1 = tzifV1(times: [], indices: [], types: [(0, 0, 0)], chars: "UTC")
        XCTAssertEqual(tzifError(v1), .badValue(section: "abbreviations", index: 0))
        // Unsorted transitions.
        v1 = tzifV1(times: [200, 100], indices: [0, 0], types: [(0, 0, 0)], chars: "UTC\0")
        XCTAssertEqual(tzifError(v1), .badValue(section: "transition times", index: 1))
        // isdst must be 0 or 1.
        v1 = tzifV1(times: [], indices: [], types: [(0, 2, 0)], chars: "UTC\0")
        XCTAssertEqual(tzifError(v1), .badValue(section: "local time types", index: 0))
        // No local time types.
        v1 = tzifV1(times: [], indices: [], types: [], chars: "UTC\0")
        XCTAssertEqual(tzifError(v1), .badCount(field: "typecnt", value: 0))
        // A huge count is caught before anything is allocated.
        v1 = tzifV1(times: [], indices: [], types: [(0, 0, 0)], chars: "UTC\0")
        v1.replaceSubrange(32..<36, with: [0xFF, 0xFF, 0xFF, 0xFF])    // timecnt
        XCTAssertEqual(tzifError(v1), .badCount(field: "timecnt", value: 4_294_967_295))
        // A plausible count that still overruns the buffer.
        v1.replaceSubrange(32..<36, with: [0, 0, 0, 20])
        XCTAssertEqual(tzifError(v1), .truncated(section: "transition times", offset: 44))

        // Footer problems (v2 file): replace New York's footer text.
        let good = try zoneBytes("America/New_York")
        let footerStart = try XCTUnwrap(good.dropLast().lastIndex(of: 0x0A))
        let withFooter = { (text: String) in Array(good[...footerStart]) + Array(text.utf8) + [0x0A] }
        if case .badFooter(let why)? = tzifError(withFooter("EST5EDT,M3.2.0")) {
            XCTAssertTrue(why.contains("EST5EDT,M3.2.0"), why)
        } else { XCTFail("expected badFooter") }
        XCTAssertNil(try ZoneRules(identifier: "x", tzif: withFooter("")).footer)   // empty footer = no rule
        XCTAssertEqual(try ZoneRules(identifier: "x", tzif: withFooter("EST5")).footer?.source, "EST5")

        // Version 3 and 4 headers are read the same way as version 2.
        for v in [UInt8(ascii: "3"), UInt8(ascii: "4")] {
            var copy = good
            copy[4] = v
            XCTAssertEqual(try ZoneRules(identifier: "v", tzif: copy).offset(at: 1_772_953_200), -14_400)
        }
        XCTAssertTrue(TZifError.truncated(section: "footer", offset: 12).description.contains("footer"))
    }

    /// The legacy 32-bit block of a v2 file, relabelled as version 1, agrees
    /// with the 64-bit data inside the 32-bit range.
    func testVersion1BlockMatches() throws {
        let bytes = try zoneBytes("Europe/London")
        let full = try ZoneRules(identifier: "London", tzif: bytes)
        func count(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let v1Size = 44 + count(32) * 5 + count(36) * 6 + count(40) + count(28) * 8 + count(24) + count(20)
        var v1 = Array(bytes[0..<v1Size])
        v1[4] = 0
        let legacy = try ZoneRules(identifier: "London", tzif: v1)
        XCTAssertNil(legacy.footer)
        var t: Int64 = -2_147_483_000
        while t < 2_147_483_000 {
            XCTAssertEqual(legacy.offset(at: t), full.offset(at: t), "at \(t)")
            t += 1_000_003
        }
    }

    // MARK: Helpers

    private func tzifError(_ bytes: [UInt8]) -> TZifError? {
        do { _ = try ZoneRules(identifier: "t", tzif: bytes); return nil } catch { return error }
    }

    /// Builds a version 1 TZif file.
    private func tzifV1(times: [Int32], indices: [UInt8], types: [(Int32, UInt8, UInt8)], chars: String) -> [UInt8] {
        func be32(_ v: Int32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: UInt32(bitPattern: v) >> (24 - 8 * $0)) } }
        let c = Array(chars.utf8)
        var out = Array("TZif".utf8) + [0] + Array(repeating: 0, count: 15)
        for n in [0, 0, 0, times.count, types.count, c.count] { out += be32(Int32(n)) }
        for t in times { out += be32(t) }
        out += indices
        for (off, dst, idx) in types { out += be32(off) + [dst, idx] }
        return out + c
    }

    /// Calls every query on `z` at awkward instants (must not trap).
    private func exercise(_ z: ZoneRules) {
        for t: Int64 in [Int64.min, -1 << 40, -1, 0, 1_772_953_200, 1 << 40, Int64.max] {
            _ = z.localDateTime(at: t)
            _ = z.nextTransition(after: t)
            _ = z.abbreviation(at: t)
        }
        for l: Int64 in [Int64.min, 0, 1_772_953_200, Int64.max] {
            _ = z.utc(for: LocalDateTime(localSeconds: l))
        }
    }
}

