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
