// Civil.swift — proleptic Gregorian calendar arithmetic on plain integers.
//
// The day-number conversions follow the well-known "days from civil" /
// "civil from days" formulation (Howard Hinnant's public-domain algorithms):
// shift the year so it starts on March 1st (putting the leap day last), split
// time into 400-year eras of exactly 146 097 days, and compute the day of the
// era with integer arithmetic only. No tables, no loops, exact for negatives.

// MARK: - Floor division

/// Integer division rounding toward negative infinity.
///
/// Swift's `/` truncates toward zero, so `-1 / 86400 == 0`; calendar math
/// needs `floorDiv(-1, 86400) == -1` (one second before the epoch belongs to
/// the previous day). `b` must not be zero.
@inlinable
public func floorDiv<T: BinaryInteger>(_ a: T, _ b: T) -> T {
    let q = a / b
    // Truncation rounded up iff there is a remainder and the signs differ.
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q
}

/// Remainder matching `floorDiv`: the result has the sign of `b`
/// (so `floorMod(-1, 7) == 6`). `b` must not be zero.
@inlinable
public func floorMod<T: BinaryInteger>(_ a: T, _ b: T) -> T {
    // Computed from `%` directly (not `a - floorDiv(a, b) * b`) so that it
    // cannot overflow even for `a == T.min`.
    let r = a % b
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r
}

// MARK: - CivilDate

/// A date in the proleptic Gregorian calendar (no time, no zone).
///
/// The stored fields are not validated by the memberwise initializer; use
/// `isValid(year:month:day:)` or `validated(year:month:day:)` for input.
/// Arithmetic is exact for years within roughly ±200 billion (the range where
/// `localSeconds` of a `LocalDateTime` fits in `Int64`).
///
/// `Codable` uses the synthesized keyed form `{"year":…,"month":…,"day":…}`.
public struct CivilDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var year: Int
    /// 1 = January … 12 = December.
    public var month: Int
    /// 1 … `daysInMonth(year:month:)`.
    public var day: Int

    /// Memberwise initializer (no validation).
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Returns the date if it exists in the calendar, else `nil`.
    public static func validated(year: Int, month: Int, day: Int) -> CivilDate? {
        isValid(year: year, month: month, day: day) ? CivilDate(year: year, month: month, day: day) : nil
    }

    /// Creates the date that is `dayNumber` days after 1970-01-01
    /// (negative numbers are before the epoch).
    public init(dayNumber: Int) {
        let z = dayNumber + 719_468                       // days since 0000-03-01
        let era = floorDiv(z, 146_097)                    // 400-year era
        let doe = z - era * 146_097                       // day of era   [0, 146096]
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365 // [0, 399]
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100) // day of March-based year [0, 365]
        let mp = (5 * doy + 2) / 153                      // March-based month [0, 11]
        let d = doy - (153 * mp + 2) / 5 + 1              // [1, 31]
        let m = mp < 10 ? mp + 3 : mp - 9                 // [1, 12]
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.init(year: y, month: m, day: d)
    }

    /// Days since 1970-01-01. Out-of-range fields roll over arithmetically
    /// (e.g. February 30 counts as March 1 or 2).
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year              // year starting March 1
        let era = floorDiv(y, 400)
        let yoe = y - era * 400                           // [0, 399]
        let mp = month > 2 ? month - 3 : month + 9        // March-based month
        let doy = (153 * mp + 2) / 5 + day - 1            // [0, 365]
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy   // [0, 146096]
        return era * 146_097 + doe - 719_468
    }

    /// Day of the week: 0 = Sunday … 6 = Saturday.
    public var weekday: Int {
        floorMod(dayNumber + 4, 7)                        // 1970-01-01 was a Thursday
    }

    /// The date `days` days later (or earlier, if negative).
    public func adding(days: Int) -> CivilDate {
        CivilDate(dayNumber: dayNumber + days)
    }

    /// True for Gregorian leap years.
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Number of days in the month (0 for an invalid month).
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        case 2: return isLeapYear(year) ? 29 : 28
        default: return 0
        }
    }

    /// True if the triple names a real calendar day.
    public static func isValid(year: Int, month: Int, day: Int) -> Bool {
        (1...12).contains(month) && day >= 1 && day <= daysInMonth(year: year, month: month)
    }

    /// "YYYY-MM-DD" (years outside 0…9999 keep all digits and a leading "-").
    public var description: String {
        "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Parses "YYYY-MM-DD" (exactly; an optional leading "-" or "+" is allowed
    /// on the year, which needs at least four digits). Returns `nil` for
    /// malformed text or a date that does not exist.
    public init?(parsing text: String) {
        var s = ByteScanner(text)
        guard let date = s.civilDate(), s.atEnd else { return nil }
        self = date
    }

    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

// MARK: - LocalDateTime

/// A wall-clock date and time without a zone ("what the clock on the wall
/// shows"), with one-second resolution.
public struct LocalDateTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var date: CivilDate
    /// Seconds since local midnight, 0..<86400.
    public var secondOfDay: Int

    /// Creates a value; a `secondOfDay` outside 0..<86400 is normalized by
    /// carrying whole days into `date`.
    public init(date: CivilDate, secondOfDay: Int) {
        let carry = floorDiv(secondOfDay, 86_400)
        self.date = carry == 0 ? date : date.adding(days: carry)
        self.secondOfDay = secondOfDay - carry * 86_400
    }

    /// Convenience: date plus hour/minute/second (normalized like `secondOfDay`).
    public init(date: CivilDate, hour: Int, minute: Int, second: Int = 0) {
        self.init(date: date, secondOfDay: hour * 3_600 + minute * 60 + second)
    }

    /// Creates the local date-time `localSeconds` seconds after
    /// 1970-01-01T00:00:00 on the same (zone-less) wall clock.
    public init(localSeconds: Int64) {
        self.date = CivilDate(dayNumber: Int(floorDiv(localSeconds, 86_400)))
        self.secondOfDay = Int(floorMod(localSeconds, 86_400))
    }

    /// Seconds since 1970-01-01T00:00:00 on the same wall clock.
    /// Saturates at the ends of `Int64` instead of trapping.
    public var localSeconds: Int64 {
        let days = Int64(date.dayNumber)
        // For negative days multiply (days + 1) and subtract the remainder, so
        // that the extreme value Int64.min is reachable without overflow.
        let shift: Int64 = days < 0 ? 1 : 0
        let (base, overflow) = (days + shift).multipliedReportingOverflow(by: 86_400)
        if overflow { return days < 0 ? .min : .max }
        return saturatingAdd(base, Int64(secondOfDay) - shift * 86_400)
    }

    public var hour: Int { secondOfDay / 3_600 }
    public var minute: Int { secondOfDay / 60 % 60 }
    public var second: Int { secondOfDay % 60 }

    /// The wall-clock time `seconds` later (pure arithmetic, no zone rules).
    public func adding(seconds: Int64) -> LocalDateTime {
        LocalDateTime(localSeconds: localSeconds + seconds)
    }

    /// "YYYY-MM-DD HH:MM" (seconds are omitted; see `descriptionWithSeconds`).
    public var description: String {
        "\(date) \(pad(hour, 2)):\(pad(minute, 2))"
    }

    /// "YYYY-MM-DD HH:MM:SS".
    public var descriptionWithSeconds: String {
        "\(description):\(pad(second, 2))"
    }

    /// Parses "YYYY-MM-DD HH:MM", "YYYY-MM-DD HH:MM:SS" or the same with "T"
    /// instead of the space. Hours 00–23, minutes and seconds 00–59.
    public init?(parsing text: String) {
        var s = ByteScanner(text)
        guard let date = s.civilDate(),
              s.take(UInt8(ascii: " ")) || s.take(UInt8(ascii: "T")),
              let hh = s.digits(exactly: 2), hh < 24,
              s.take(UInt8(ascii: ":")),
              let mm = s.digits(exactly: 2), mm < 60
        else { return nil }
        var ss = 0
        if s.take(UInt8(ascii: ":")) {
            guard let v = s.digits(exactly: 2), v < 60 else { return nil }
            ss = v
        }
        guard s.atEnd else { return nil }
        self.init(date: date, secondOfDay: hh * 3_600 + mm * 60 + ss)
    }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        (a.date, a.secondOfDay) < (b.date, b.secondOfDay)
    }
}

// MARK: - Small shared helpers

/// Zero-pads the magnitude of `value` to `width` digits, keeping a "-" sign.
func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let padded = digits.count < width ? String(repeating: "0", count: width - digits.count) + digits : digits
    return value < 0 ? "-" + padded : padded
}

/// A minimal cursor over the UTF-8 bytes of a string, used by the parsers.
struct ByteScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Consumes `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    /// Reads between `min` and `max` decimal digits (at most 18, so no overflow).
    mutating func digits(min: Int = 1, max: Int) -> Int? {
        let limit = Swift.min(max, 18)
        var value = 0, count = 0
        while count < limit, let b = peek, Self.isDigit(b) {
            value = value * 10 + Int(b - 0x30)
            index += 1
            count += 1
        }
        if let b = peek, Self.isDigit(b) { return nil }   // too many digits
        return count >= min ? value : nil
    }

    mutating func digits(exactly n: Int) -> Int? { digits(min: n, max: n) }

    /// Reads "[+-]YYYY-MM-DD" and validates the date.
    mutating func civilDate() -> CivilDate? {
        var sign = 1
        if take(UInt8(ascii: "-")) { sign = -1 } else { _ = take(UInt8(ascii: "+")) }
        guard let y = digits(min: 4, max: 12),
              take(UInt8(ascii: "-")),
              let m = digits(exactly: 2),
              take(UInt8(ascii: "-")),
              let d = digits(exactly: 2)
        else { return nil }
        return CivilDate.validated(year: sign * y, month: m, day: d)
    }
}
