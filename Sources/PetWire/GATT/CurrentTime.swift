/// The Current Time characteristic (0x2A2B, Current Time Service 0x1805), 10 bytes:
/// year (UInt16 LE, 1582...9999, 0 unknown), month (1...12, 0 unknown), day (1...31, 0 unknown),
/// hours (0...23), minutes (0...59), seconds (0...59), day of week (1 Monday ... 7 Sunday, 0 unknown),
/// fractions256 (1/256 s), adjust reason (bit 0 manual, 1 external reference, 2 time zone, 3 DST).
/// The value is local time (CTS: the Local Time Information characteristic, which DeskPet does not
/// offer, would carry the offset): the device reads it in its own zone.
public struct CurrentTime: Sendable, Equatable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hours: Int
    public var minutes: Int
    public var seconds: Int
    public var dayOfWeek: Int
    public var fractions256: Int
    public var adjustReason: UInt8

    public init(year: Int, month: Int, day: Int, hours: Int, minutes: Int, seconds: Int,
                dayOfWeek: Int = 0, fractions256: Int = 0, adjustReason: UInt8 = 0) {
        self.year = year; self.month = month; self.day = day; self.hours = hours; self.minutes = minutes
        self.seconds = seconds; self.dayOfWeek = dayOfWeek; self.fractions256 = fractions256; self.adjustReason = adjustReason
    }

    public enum DecodeError: Error, Equatable, Sendable {
        /// Not 10 bytes.
        case length(Int)
        /// A field out of its range, or unknown (0) where the clock needs it.
        case field(String)
    }

    /// Decodes and checks a written value. Unknown (0) year, month or day is refused: the clock
    /// needs a whole date.
    public init(bytes b: [UInt8]) throws(DecodeError) {
        guard b.count == 10 else { throw .length(b.count) }
        year = Int(b[0]) | Int(b[1]) << 8
        month = Int(b[2]); day = Int(b[3]); hours = Int(b[4]); minutes = Int(b[5]); seconds = Int(b[6])
        dayOfWeek = Int(b[7]); fractions256 = Int(b[8]); adjustReason = b[9]
        guard (1582...9999).contains(year) else { throw .field("year \(year)") }
        guard (1...12).contains(month) else { throw .field("month \(month)") }
        guard (1...Self.daysIn(month, year)).contains(day) else { throw .field("day \(day)") }
        guard hours <= 23 else { throw .field("hours \(hours)") }
        guard minutes <= 59 else { throw .field("minutes \(minutes)") }
        guard seconds <= 59 else { throw .field("seconds \(seconds)") }
        guard dayOfWeek <= 7 else { throw .field("day of week \(dayOfWeek)") }
    }

    public var bytes: [UInt8] {
        [UInt8(truncatingIfNeeded: year), UInt8(truncatingIfNeeded: year >> 8), UInt8(truncatingIfNeeded: month),
         UInt8(truncatingIfNeeded: day), UInt8(truncatingIfNeeded: hours), UInt8(truncatingIfNeeded: minutes),
         UInt8(truncatingIfNeeded: seconds), UInt8(truncatingIfNeeded: dayOfWeek), UInt8(truncatingIfNeeded: fractions256), adjustReason]
    }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
