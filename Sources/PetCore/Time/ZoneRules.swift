// ZoneRules.swift — the rules of one time zone: historical transitions from
// TZif data plus an optional POSIX rule for the future, and the conversions
// between UTC instants and local wall-clock time.
//
// All instants are Int64 seconds since 1970-01-01T00:00:00Z (POSIX time,
// leap seconds ignored). Offsets are seconds east of UTC.

/// Time zone rules for one zone identifier.
public struct ZoneRules: Sendable, Hashable {
    /// One kind of local time: its UTC offset, DST flag and abbreviation.
    public struct LocalTimeType: Sendable, Hashable {
        /// Seconds east of UTC (e.g. -18000 for EST).
        public var utOffset: Int
        public var isDST: Bool
        /// E.g. "EST", "CEST", "+0530".
        public var abbreviation: String

        public init(utOffset: Int, isDST: Bool, abbreviation: String) {
            self.utOffset = utOffset
            self.isDST = isDST
            self.abbreviation = abbreviation
        }
    }

    /// The zone identifier, e.g. "Europe/Berlin".
    public let identifier: String
    /// Transition instants (UTC seconds), strictly ascending.
    public let transitionTimes: [Int64]
    /// For each transition, the index into `localTimeTypes` in effect from it on.
    public let transitionTypeIndices: [Int]
    /// Local time types; never empty. Type 0 applies before the first transition.
    public let localTimeTypes: [LocalTimeType]
    /// Rule for instants after the last transition (TZif footer), if any.
    public let footer: PosixTZ?

    /// Internal memberwise initializer; callers guarantee the invariants above.
    init(identifier: String, transitionTimes: [Int64], transitionTypeIndices: [Int],
         localTimeTypes: [LocalTimeType], footer: PosixTZ?) {
        self.identifier = identifier
        self.transitionTimes = transitionTimes
        self.transitionTypeIndices = transitionTypeIndices
        self.localTimeTypes = localTimeTypes
        self.footer = footer
    }

    // MARK: Construction

    /// Parses TZif data (RFC 8536, versions 1–4), e.g. the bytes of
    /// `/usr/share/zoneinfo/Europe/Berlin`. For version 2+ the 64-bit block
    /// and the POSIX footer are used. Every count and index is validated;
    /// malformed input throws, it never traps.
    public init(identifier: String, tzif bytes: [UInt8]) throws(TZifError) {
        let c = try TZifParser.parse(bytes)
        self.init(identifier: identifier, transitionTimes: c.times, transitionTypeIndices: c.typeIndices,
                  localTimeTypes: c.types, footer: c.footer)
    }

    /// Builds rules from a POSIX TZ string such as "CET-1CEST,M3.5.0,M10.5.0/3"
    /// (see `PosixTZ.init(parsing:)`), valid for all instants.
    public init(identifier: String, posix: String) throws(TZifError) {
        let rule = try PosixTZ(parsing: posix)
        var types = [rule.standard]
        if let dst = rule.daylight { types.append(dst.type) }
        self.init(identifier: identifier, transitionTimes: [], transitionTypeIndices: [],
                  localTimeTypes: types, footer: rule)
    }

    /// Coordinated Universal Time.
    public static let utc = ZoneRules(
        identifier: "UTC", transitionTimes: [], transitionTypeIndices: [],
        localTimeTypes: [LocalTimeType(utOffset: 0, isDST: false, abbreviation: "UTC")], footer: nil)

    /// A zone with a constant offset and no DST. The abbreviation is
    /// "+HH:MM" (or "+HH:MM:SS" when the offset has seconds).
    public static func fixed(identifier: String, offsetSeconds: Int) -> ZoneRules {
        let m = offsetSeconds.magnitude
        var abbr = (offsetSeconds < 0 ? "-" : "+") + pad(Int(m / 3_600), 2) + ":" + pad(Int(m / 60 % 60), 2)
        if m % 60 != 0 { abbr += ":" + pad(Int(m % 60), 2) }
        return ZoneRules(identifier: identifier, transitionTimes: [], transitionTypeIndices: [],
                         localTimeTypes: [LocalTimeType(utOffset: offsetSeconds, isDST: false, abbreviation: abbr)],
                         footer: nil)
    }

    // MARK: UTC → local

    /// Index of the last transition at or before `utc`, or nil if none.
    private func lastTransitionIndex(atOrBefore utc: Int64) -> Int? {
        var lo = 0, hi = transitionTimes.count          // first index with time > utc
        while lo < hi {
            let mid = (lo + hi) / 2
            if transitionTimes[mid] <= utc { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : lo - 1
    }

    /// The local time type in effect at `utc`.
    ///
    /// Before the first transition, type 0 applies (RFC 8536 §3.2). After the
    /// last transition the footer rule applies if present, else the last
    /// transition's type. With no transitions at all, the footer (or type 0).
    public func localTimeType(at utc: Int64) -> LocalTimeType {
        guard let last = transitionTimes.last else {
            return footer?.localTimeType(at: utc) ?? localTimeTypes[0]
        }
        if utc > last, let footer { return footer.localTimeType(at: utc) }
        guard let i = lastTransitionIndex(atOrBefore: utc) else { return localTimeTypes[0] }
        return localTimeTypes[transitionTypeIndices[i]]
    }

    /// Offset from UTC, in seconds east, at the instant `utc`.
    public func offset(at utc: Int64) -> Int { localTimeType(at: utc).utOffset }

    /// Whether daylight saving time is in effect at `utc`.
    public func isDST(at utc: Int64) -> Bool { localTimeType(at: utc).isDST }

    /// The zone abbreviation at `utc`, e.g. "CEST".
    public func abbreviation(at utc: Int64) -> String { localTimeType(at: utc).abbreviation }

    /// The wall-clock time at `utc` (saturating at the ends of `Int64`).
    public func localDateTime(at utc: Int64) -> LocalDateTime {
        LocalDateTime(localSeconds: saturatingAdd(utc, Int64(offset(at: utc))))
    }

    /// The first instant strictly after `utc` at which the local time type
    /// changes (offset, DST flag or abbreviation), or `nil` if there is none.
    /// Beyond the transition table the footer rule is used.
    public func nextTransition(after utc: Int64) -> Int64? {
        var i = (lastTransitionIndex(atOrBefore: utc) ?? -1) + 1
        if i < transitionTimes.count {
            // Skip table entries that do not change anything observable.
            var previous = i == 0 ? localTimeTypes[0] : localTimeTypes[transitionTypeIndices[i - 1]]
            while i < transitionTimes.count {
                let type = localTimeTypes[transitionTypeIndices[i]]
                if type != previous { return transitionTimes[i] }
                previous = type
                i += 1
            }
        }
        guard let footer else { return nil }
        return footer.nextTransition(after: max(utc, transitionTimes.last ?? Int64.min))
    }

    // MARK: Local → UTC

    /// A stretch of time with a single offset: [start, end) in UTC.
    private struct Segment {
        var start: Int64
        var end: Int64
        var offset: Int64
    }

    /// The constant-offset segments covering `local` ± (one day + the largest
    /// offset), which contains every instant that could display `local`.
    private func segments(around local: Int64) -> [Segment] {
        var maxOffset = localTimeTypes.map { $0.utOffset.magnitude }.max() ?? 0
        if let f = footer {
            maxOffset = max(maxOffset, f.standard.utOffset.magnitude, f.daylight?.type.utOffset.magnitude ?? 0)
        }
        let window = Int64(min(maxOffset, 1 << 32)) + 86_400
        let limit = saturatingAdd(local, window)
        var start = saturatingAdd(local, -window)
        var result: [Segment] = []
        while result.count < 1_000 {                    // bound for pathological data
            let offset = Int64(offset(at: start))
            guard let next = nextTransition(after: start), next <= limit else {
                result.append(Segment(start: start, end: limit, offset: offset))
                break
            }
            result.append(Segment(start: start, end: next, offset: offset))
            start = next
        }
        return result
    }

    /// Every UTC instant whose wall-clock time is `local`, ascending:
    /// one normally, none in a spring-forward gap, two in a fall-back overlap.
    public func utcCandidates(for local: LocalDateTime) -> [Int64] {
        let l = local.localSeconds
        var result: [Int64] = []
        for s in segments(around: l) {
            // The segment shows local times [start + offset, end + offset).
            if saturatingAdd(s.start, s.offset) <= l, l < saturatingAdd(s.end, s.offset) {
                let t = saturatingAdd(l, -s.offset)
                if result.last != t { result.append(t) }
            }
        }
        return result.sorted()
    }

    /// The UTC instant for the wall-clock time `local`, resolving the two
    /// special cases as follows:
    ///
    /// * **Overlap** (clocks fall back, `local` occurs twice): the *earlier*
    ///   instant, i.e. the one still using the pre-transition offset.
    /// * **Gap** (clocks spring forward, `local` never occurs): `local` is read
    ///   with the offset in effect *before* the gap (`local − offsetBefore`),
    ///   which lands as far after the gap's end as `local` is after its start.
    ///   Example: New York 2026-03-08 02:30 (gap 02:00→03:00) → 07:30Z,
    ///   which is 03:30 EDT.
    public func utc(for local: LocalDateTime) -> Int64 {
        if let earliest = utcCandidates(for: local).first { return earliest }
        // In a gap: find adjacent segments whose local ranges straddle `l`
        // and read `l` with the earlier one's offset.
        let l = local.localSeconds
        let segs = segments(around: l)
        for (a, b) in zip(segs, segs.dropFirst())
        where saturatingAdd(a.end, a.offset) <= l && l < saturatingAdd(b.start, b.offset) {
            return saturatingAdd(l, -a.offset)
        }
        return saturatingAdd(l, -Int64(offset(at: l)))   // unreachable for sane data
    }

    /// Length in seconds of the local calendar day `date` (86 400 except on
    /// transition days, e.g. 82 800 or 90 000 for a one-hour DST change).
    public func lengthOfDay(_ date: CivilDate) -> Int64 {
        utc(for: LocalDateTime(date: date.adding(days: 1), secondOfDay: 0))
            - utc(for: LocalDateTime(date: date, secondOfDay: 0))
    }
}

/// `a + b`, clamped to the `Int64` range instead of trapping.
func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
    let (r, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b < 0 ? Int64.min : Int64.max) : r
}
