// PosixTZ.swift — POSIX TZ strings ("EST5EDT,M3.2.0,M11.1.0"), as used in
// TZif footers, including the RFC 8536 extensions (quoted names, transition
// times from -167 to +167 hours).

/// A parsed POSIX TZ rule: a standard time and optionally a daylight time
/// with yearly start and end rules.
public struct PosixTZ: Sendable, Hashable {
    /// The day of the year a switch happens on.
    public enum DateRule: Sendable, Hashable {
        /// `Jn`: day 1…365, February 29 is never counted (J60 is always March 1).
        case julianNoLeap(Int)
        /// `n`: zero-based day 0…365, February 29 counted in leap years.
        case zeroBasedDay(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1…5, 5 = last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)

        /// Day number (days since 1970-01-01) of the rule's day in `year`.
        func dayNumber(inYear year: Int) -> Int {
            let jan1 = CivilDate(year: year, month: 1, day: 1).dayNumber
            switch self {
            case .julianNoLeap(let n):
                // Skip February 29 for days from March 1 (n = 60) onwards.
                return jan1 + n - 1 + (n >= 60 && CivilDate.isLeapYear(year) ? 1 : 0)
            case .zeroBasedDay(let n):
                return jan1 + n
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilDate(year: year, month: month, day: 1)
                var day = 1 + floorMod(weekday - first.weekday, 7) + (week - 1) * 7
                let length = CivilDate.daysInMonth(year: year, month: month)
                while day > length { day -= 7 }             // week 5 means "last"
                return first.dayNumber + day - 1
            }
        }
    }

    /// One yearly switch: a day plus a local time of day in seconds
    /// (may be negative or ≥ 24 h, meaning an earlier/later day).
    public struct Switch: Sendable, Hashable {
        public var date: DateRule
        public var time: Int
    }

    /// The daylight part of a rule.
    public struct Daylight: Sendable, Hashable {
        public var type: ZoneRules.LocalTimeType
        /// Switch into daylight time, expressed in standard (local) time.
        public var start: Switch
        /// Switch back to standard time, expressed in daylight (local) time.
        public var end: Switch
    }

    public var standard: ZoneRules.LocalTimeType
    public var daylight: Daylight?
    /// The text this rule was parsed from.
    public var source: String

    /// Parses a POSIX TZ string: `std offset [dst [offset] [,start[/time],end[/time]]]`.
    ///
    /// Names are ≥ 3 letters or `<…>`-quoted (letters, digits, `+`, `-`).
    /// Offsets are `[+-]hh[:mm[:ss]]` with POSIX sign (positive = west of
    /// Greenwich) and are stored as seconds *east*. The DST offset defaults to
    /// one hour ahead of standard time; a DST name without rules gets the US
    /// default `M3.2.0,M11.1.0` (as glibc does). Switch times default to
    /// 02:00 and may range over ±167 h.
    public init(parsing text: String) throws(TZifError) {
        var p = Parser(text: text)
        let stdName = try p.name()
        let stdOffset = try p.offset()
        source = text
        standard = ZoneRules.LocalTimeType(utOffset: stdOffset, isDST: false, abbreviation: stdName)
        daylight = nil
        guard !p.s.atEnd else { return }

        let dstName = try p.name()
        var dstOffset = stdOffset + 3_600
        if let b = p.s.peek, b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || ByteScanner.isDigit(b) {
            dstOffset = try p.offset()
        }
        var start = Switch(date: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7_200)
        var end = Switch(date: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7_200)
        if p.s.take(UInt8(ascii: ",")) {
            start = try p.switchRule()
            guard p.s.take(UInt8(ascii: ",")) else { throw p.fail("expected ',' before end rule") }
            end = try p.switchRule()
        }
        guard p.s.atEnd else { throw p.fail("unexpected trailing characters") }
        daylight = Daylight(
            type: ZoneRules.LocalTimeType(utOffset: dstOffset, isDST: true, abbreviation: dstName),
            start: start, end: end)
    }

    // MARK: Evaluation

    /// Instants beyond ±2^55 s (about ±1.1 billion years) are evaluated as if
    /// at the bound, which keeps all year arithmetic far from overflow.
    private static let limit: Int64 = 1 << 55

    /// A switch instant in UTC: `toDST` tells which way it goes.
    private struct Event {
        var utc: Int64
        var year: Int
        var toDST: Bool
    }

    /// All switch instants for years `years`, sorted by time; ties are broken
    /// by rule year so that "end of year N" precedes "start of year N+1"
    /// (this makes all-year DST such as `EST5EDT,0/0,J365/25` come out right).
    private func events(_ dst: Daylight, years: ClosedRange<Int>) -> [Event] {
        var list: [Event] = []
        for y in years {
            let s = Int64(dst.start.date.dayNumber(inYear: y)) * 86_400 + Int64(dst.start.time - standard.utOffset)
            let e = Int64(dst.end.date.dayNumber(inYear: y)) * 86_400 + Int64(dst.end.time - dst.type.utOffset)
            list.append(Event(utc: s, year: y, toDST: true))
            list.append(Event(utc: e, year: y, toDST: false))
        }
        return list.sorted { ($0.utc, $0.year) < ($1.utc, $1.year) }
    }

    /// The calendar year (in standard time) containing `utc`, clamped.
    private func year(of utc: Int64) -> Int {
        let t = min(max(utc, -Self.limit), Self.limit) + Int64(standard.utOffset)
        return CivilDate(dayNumber: Int(floorDiv(t, 86_400))).year
    }

    /// The local time type in effect at `utc`.
    public func localTimeType(at utc: Int64) -> ZoneRules.LocalTimeType {
        guard let dst = daylight else { return standard }
        let t = min(max(utc, -Self.limit), Self.limit)
        let y = year(of: t)
        var inDST = false
        for event in events(dst, years: (y - 2)...(y + 1)) {
            if event.utc > t { break }
            inDST = event.toDST
        }
        return inDST ? dst.type : standard
    }

    /// The first instant strictly after `utc` at which the rule switches
    /// between standard and daylight time, or `nil` if it never does.
    public func nextTransition(after utc: Int64) -> Int64? {
        guard let dst = daylight else { return nil }
        let y = year(of: utc)
        let list = events(dst, years: (y - 2)...(y + 3))
        // Events of the last generated year lack their successors (an end
        // that coincides with the next year's start would look like a real
        // change), so only trust instants before that year's first event.
        let horizon = list.filter { $0.year == y + 3 }.map(\.utc).min() ?? Int64.max
        var state: Bool? = nil
        var i = 0
        while i < list.count {
            // Apply every event sharing this instant, then compare states.
            let instant = list[i].utc
            var newState = list[i].toDST
            while i + 1 < list.count, list[i + 1].utc == instant {
                i += 1
                newState = list[i].toDST
            }
            if instant >= horizon { return nil }
            if instant > utc, let old = state, old != newState { return instant }
            state = newState
            i += 1
        }
        return nil
    }

    // MARK: Parser

    private struct Parser {
        var s: ByteScanner
        let text: String

        init(text: String) {
            self.text = text
            s = ByteScanner(text)
        }

        func fail(_ reason: String) -> TZifError {
            .badPosixTZ(string: text, reason: "\(reason) at position \(s.index)")
        }

        static func isAlpha(_ b: UInt8) -> Bool {
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
        }

        /// `<...>` quoted or plain alphabetic zone abbreviation (≥ 3 chars).
        mutating func name() throws(TZifError) -> String {
            let start: Int, end: Int
            if s.take(UInt8(ascii: "<")) {
                start = s.index
                while let b = s.peek, b != UInt8(ascii: ">") {
                    guard Self.isAlpha(b) || ByteScanner.isDigit(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
                    else { throw fail("invalid character in quoted name") }
                    s.index += 1
                }
                end = s.index
                guard s.take(UInt8(ascii: ">")) else { throw fail("unterminated '<' name") }
            } else {
                start = s.index
                while let b = s.peek, Self.isAlpha(b) { s.index += 1 }
                end = s.index
            }
            guard end - start >= 3 else { throw fail("zone name must have at least 3 characters") }
            return String(decoding: s.bytes[start..<end], as: UTF8.self)
        }

        /// `[+-]hh[:mm[:ss]]` → signed seconds, with `hh` ≤ `maxHours`.
        mutating func signedHMS(maxHours: Int) throws(TZifError) -> Int {
            var sign = 1
            if s.take(UInt8(ascii: "-")) { sign = -1 } else { _ = s.take(UInt8(ascii: "+")) }
            guard let h = s.digits(max: 3), h <= maxHours else { throw fail("bad hours") }
            var total = h * 3_600
            if s.take(UInt8(ascii: ":")) {
                guard let m = s.digits(max: 2), m < 60 else { throw fail("bad minutes") }
                total += m * 60
                if s.take(UInt8(ascii: ":")) {
                    guard let sec = s.digits(max: 2), sec < 60 else { throw fail("bad seconds") }
                    total += sec
                }
            }
            return sign * total
        }

        /// A UTC offset, converted from POSIX "west positive" to seconds east.
        mutating func offset() throws(TZifError) -> Int {
            let west = try signedHMS(maxHours: 24)
            return -west
        }

        /// `date[/time]`.
        mutating func switchRule() throws(TZifError) -> Switch {
            let date = try dateRule()
            var time = 7_200
            if s.take(UInt8(ascii: "/")) { time = try signedHMS(maxHours: 167) }
            return Switch(date: date, time: time)
        }

        mutating func dateRule() throws(TZifError) -> DateRule {
            if s.take(UInt8(ascii: "J")) {
                guard let n = s.digits(max: 3), (1...365).contains(n) else { throw fail("Jn day must be 1…365") }
                return .julianNoLeap(n)
            }
            if s.take(UInt8(ascii: "M")) {
                guard let m = s.digits(max: 2), (1...12).contains(m), s.take(UInt8(ascii: ".")),
                      let w = s.digits(max: 1), (1...5).contains(w), s.take(UInt8(ascii: ".")),
                      let d = s.digits(max: 1), (0...6).contains(d)
                else { throw fail("bad Mm.w.d rule") }
                return .monthWeekDay(month: m, week: w, weekday: d)
            }
            guard let n = s.digits(max: 3), (0...365).contains(n) else { throw fail("bad day rule") }
            return .zeroBasedDay(n)
        }
    }
}
