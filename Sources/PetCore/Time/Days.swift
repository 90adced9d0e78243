/// Turns instants into the owner's *days*.
///
/// A day runs from the day-start hour (default 03:00 local) to the next day-start, so a night
/// owl's 01:30 still belongs to "yesterday". Day numbers count local calendar days since
/// 1970-01-01 (the day numbered N starts at N's date, at the day-start hour). A DST change makes a
/// day 23 or 25 hours long; it is still one day.
public struct DayClock: Sendable, Hashable {
    public var zone: ZoneRules
    /// In `startHours`.
    public var dayStartHour: Int
    /// The hours a day can start at.
    public static let startHours = 0...23

    public init(zone: ZoneRules, dayStartHour: Int = 3) {
        self.zone = zone
        self.dayStartHour = dayStartHour
    }

    /// The day an instant belongs to.
    public func day(of t: Instant) -> Int {
        // Saturating: exact inside `TimeRange`, clamped (never a trap) outside it.
        let local = t.seconds.saturatingAdded(Int64(zone.offset(at: t.seconds)))
        return Int(floorDiv(local.saturatingSubtracted(Int64(dayStartHour) * 3600), 86_400))
    }

    /// The first instant of day `d` (its date at the day-start hour; a start inside a DST gap
    /// moves to the end of the gap).
    public func start(ofDay d: Int) -> Instant {
        let local = LocalDateTime(date: CivilDate(dayNumber: d), secondOfDay: dayStartHour * 3600)
        return Instant(zone.utc(for: local))
    }

    /// The calendar date that names day `d`.
    public func date(ofDay d: Int) -> CivilDate { CivilDate(dayNumber: d) }

    /// Local wall time of an instant.
    public func local(_ t: Instant) -> LocalDateTime { zone.localDateTime(at: t.seconds) }

    /// The instant of a local wall time (gap: moved forward; overlap: the earlier one).
    public func instant(_ local: LocalDateTime) -> Instant { Instant(zone.utc(for: local)) }
}

/// Snapshots store the zone by identifier and with its rules (`zoneRules`, the same rules the
/// journal's zone events carry), so reading one needs no zone database. A snapshot written before
/// the rules were stored has only the identifier: its rules are looked up with the `ZoneLookup`
/// the decoder carries under `zoneLookupKey`.
extension DayClock: Codable {
    enum CodingKeys: String, CodingKey { case zone, zoneRules, dayStartHour }

    /// The `userInfo` key under which a decoder may carry a `ZoneLookup` (needed only for
    /// snapshots without zone rules).
    public static let zoneLookupKey = CodingUserInfoKey(rawValue: "deskpet.zoneLookup")

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(zone.identifier, forKey: .zone)
        try c.encode(zone, forKey: .zoneRules)
        try c.encode(dayStartHour, forKey: .dayStartHour)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let id = try c.decode(String.self, forKey: .zone)
        let hour = try c.decode(Int.self, forKey: .dayStartHour)
        guard DayClock.startHours.contains(hour) else {
            throw DecodingError.dataCorruptedError(forKey: .dayStartHour, in: c, debugDescription: "day start must be \(DayClock.startHours.text)")
        }
        if let rules = try c.decodeIfPresent(ZoneRules.self, forKey: .zoneRules) {
            guard rules.identifier == id else {
                throw DecodingError.dataCorruptedError(forKey: .zoneRules, in: c, debugDescription: "rules of another zone")
            }
            self.init(zone: rules, dayStartHour: hour)
            return
        }
        guard let key = DayClock.zoneLookupKey, let lookup = decoder.userInfo[key] as? ZoneLookup else {
            throw DecodingError.dataCorruptedError(forKey: .zone, in: c, debugDescription: "no zone lookup given to the decoder")
        }
        guard let rules = lookup(id) else {
            throw DecodingError.dataCorruptedError(forKey: .zone, in: c, debugDescription: "unknown time zone '\(id)'")
        }
        self.init(zone: rules, dayStartHour: hour)
    }
}
