// TimeRange.swift — the one range of instants and durations DeskPet accepts (docs/domain.md).
//
// Every instant that enters the program (a command's time and its fields, a scenario step, the
// phone's clock, a journal row on replay; course packs carry weeks, not instants) must lie in
// `TimeRange.instants`; every duration must be
// at most `TimeRange.longestDuration`. Inside that range every conversion (days, local time, TZif,
// milliseconds) is exact; arithmetic on `Instant` saturates, so nothing traps even outside it.

public enum TimeRange {
    /// 1900-01-01 00:00:00 UTC: the earliest valid instant (older than any clock a device can have).
    public static let earliest = Instant(-2_208_988_800)
    /// 9999-12-31 23:59:59 UTC: the latest valid instant (the last four-digit year).
    public static let latest = Instant(253_402_300_799)
    /// The valid instants.
    public static let instants: ClosedRange<Instant> = earliest...latest
    /// The longest valid duration in seconds (from the earliest to the latest instant).
    public static let longestDuration: Int64 = latest.seconds - earliest.seconds

    /// Day numbers (days since 1970-01-01) of the valid range, with a day's margin either side
    /// for zones and the day-start hour.
    public static let days: ClosedRange<Int> = -25_569...2_932_897

    /// The range as people read it.
    public static let text = "1900-01-01 00:00:00 UTC … 9999-12-31 23:59:59 UTC (@-2208988800 … @253402300799)"

    /// Whether `t` is a valid instant.
    public static func contains(_ t: Instant) -> Bool { instants.contains(t) }

    /// `t` if it is valid, else an `invalidField` error naming `field`.
    @discardableResult
    public static func check(_ t: Instant, field: String) throws(DomainError) -> Instant {
        guard contains(t) else { throw .invalidField(field: field, reason: "\(t) is outside the valid range \(text)") }
        return t
    }

    /// `seconds` if it is a valid duration (0 … `longestDuration`), else an error naming `field`.
    @discardableResult
    public static func check(duration seconds: Int64, field: String) throws(DomainError) -> Int64 {
        guard seconds >= 0, seconds <= longestDuration else {
            throw .invalidField(field: field, reason: "\(seconds) s is not a duration of 0 … \(longestDuration) s")
        }
        return seconds
    }

    /// Milliseconds of a valid instant (exact; saturating outside the range).
    public static func milliseconds(_ t: Instant) -> Int64 { t.seconds.saturatingMultiplied(by: 1000) }

    /// Standard-library types whose values never hold an instant (scalars, strings, and optionals,
    /// arrays, sets and dictionaries of them): `checkAll` passes them without reflecting on them.
    /// Only types that cannot change to hold one belong here (not the core's own types).
    static let plainTypes: Set<ObjectIdentifier> = {
        var types: [Any.Type] = [String.self, Substring.self, Character.self, Bool.self, Double.self, Float.self,
                                 Int.self, Int8.self, Int16.self, Int32.self, Int64.self,
                                 UInt.self, UInt8.self, UInt16.self, UInt32.self, UInt64.self]
        types += [String?.self, Character?.self, Bool?.self, Double?.self, Float?.self,
                  Int?.self, Int8?.self, Int16?.self, Int32?.self, Int64?.self,
                  UInt?.self, UInt8?.self, UInt16?.self, UInt32?.self, UInt64?.self]
        types += [[String].self, [Bool].self, [Double].self, [Int].self, [Int64].self, [UInt8].self,
                  [String]?.self, [Int]?.self, [Int64]?.self, [UInt8]?.self,
                  Set<String>.self, Set<Int>.self, Set<String>?.self, Set<Int>?.self,
                  [String: String].self, [String: Int].self, [String: Bool].self, [String: Double].self,
                  [String: String]?.self, [String: Int]?.self]
        return Set(types.map { ObjectIdentifier($0) })
    }()

    /// Every instant inside a value (a command's action, an event), found by reflection, with the
    /// field name it is stored under (`due`, `reminders[1]`, `start`): the first one outside the
    /// range throws, naming its field. A new field of type `Instant` is checked without being listed.
    public static func checkAll(in value: Any, field: String = "") throws(DomainError) {
        // A string, a number or a collection of them holds no instant whatever its value: no
        // reflection (a mirror costs tens of thousands of instructions, most of a command's check).
        if plainTypes.contains(ObjectIdentifier(type(of: value))) { return }
        if let t = value as? Instant { try check(t, field: field.isEmpty ? "at" : field); return }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .collection || mirror.displayStyle == .set {
            for (i, child) in mirror.children.enumerated() { try checkAll(in: child.value, field: "\(field)[\(i)]") }
            return
        }
        if mirror.displayStyle == .dictionary {
            for child in mirror.children {
                let pair = Mirror(reflecting: child.value).children.map(\.value)
                if pair.count == 2 { try checkAll(in: pair[1], field: "\(field)[\(pair[0])]") }
            }
            return
        }
        for child in mirror.children {
            var name = field
            switch mirror.displayStyle {
            case .struct?, .class?: name = child.label ?? field
            case .tuple?: if let l = child.label, !l.hasPrefix(".") { name = l }
            default: break   // an enum's payload or an optional's value keeps the field's name
            }
            try checkAll(in: child.value, field: name)
        }
    }
}

extension Int64 {
    /// `self + other`, clamped to the `Int64` range instead of trapping.
    public func saturatingAdded(_ other: Int64) -> Int64 {
        let (r, o) = addingReportingOverflow(other)
        return o ? (other < 0 ? .min : .max) : r
    }
    /// `self - other`, clamped to the `Int64` range instead of trapping.
    public func saturatingSubtracted(_ other: Int64) -> Int64 {
        let (r, o) = subtractingReportingOverflow(other)
        return o ? (other > 0 ? .min : .max) : r
    }
    /// `self * other`, clamped to the `Int64` range instead of trapping.
    public func saturatingMultiplied(by other: Int64) -> Int64 {
        let (r, o) = multipliedReportingOverflow(by: other)
        return o ? ((self < 0) == (other < 0) ? .max : .min) : r
    }
}

extension Int {
    /// `self + other`, clamped to the `Int` range instead of trapping (coins, XP, counters).
    public func saturatingAdded(_ other: Int) -> Int {
        let (r, o) = addingReportingOverflow(other)
        return o ? (other < 0 ? .min : .max) : r
    }
    /// `self - other`, clamped to the `Int` range instead of trapping.
    public func saturatingSubtracted(_ other: Int) -> Int {
        let (r, o) = subtractingReportingOverflow(other)
        return o ? (other > 0 ? .min : .max) : r
    }
    /// `self * other`, clamped to the `Int` range instead of trapping.
    public func saturatingMultiplied(by other: Int) -> Int {
        let (r, o) = multipliedReportingOverflow(by: other)
        return o ? ((self < 0) == (other < 0) ? .max : .min) : r
    }
}
