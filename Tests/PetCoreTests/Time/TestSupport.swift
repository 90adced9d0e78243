import Foundation
import XCTest
@testable import PetCore

/// Root of the system time zone database (Debian tzdata).
let zoneinfoRoot = "/usr/share/zoneinfo/"

/// Raw bytes of a tzdata file (follows symlinks).
func zoneBytes(_ id: String) throws -> [UInt8] {
    let data = try XCTUnwrap(FileManager.default.contents(atPath: zoneinfoRoot + id), "missing tzdata file \(id)")
    return [UInt8](data)
}

/// Parsed rules for a tzdata zone.
func loadZone(_ id: String) throws -> ZoneRules {
    try ZoneRules(identifier: id, tzif: zoneBytes(id))
}

/// Shorthand for a local wall-clock time.
func local(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> LocalDateTime {
    LocalDateTime(date: CivilDate(year: y, month: m, day: d), hour: h, minute: mi, second: s)
}
