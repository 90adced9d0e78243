/// A point in time: whole seconds since 1970-01-01T00:00:00Z (UTC).
///
/// PetCore never reads the system clock: every command carries the instant it happened and the
/// engine is advanced explicitly (`Engine.advance(to:)`), so tests and the simulator run on a
/// virtual clock.
public struct Instant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var seconds: Int64

    public init(_ seconds: Int64) { self.seconds = seconds }
    public init(seconds: Int64) { self.seconds = seconds }

    public static func < (a: Instant, b: Instant) -> Bool { a.seconds < b.seconds }
    // Arithmetic saturates at the ends of Int64 instead of trapping: instants that entered the
    // program are inside `TimeRange` (where nothing saturates); whatever is outside it can at
    // worst be clamped, never crash the device.
    public static func + (a: Instant, s: Int64) -> Instant { Instant(a.seconds.saturatingAdded(s)) }
    public static func - (a: Instant, s: Int64) -> Instant { Instant(a.seconds.saturatingSubtracted(s)) }
    public static func - (a: Instant, b: Instant) -> Int64 { a.seconds.saturatingSubtracted(b.seconds) }

    /// Reading an instant (a journal row's payload, a snapshot, a phone message) refuses one
    /// outside `TimeRange`, with the coding path naming the field.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        seconds = try c.decode(Int64.self)
        guard TimeRange.contains(self) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "\(self) is outside the valid range \(TimeRange.text)")
        }
    }
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(seconds)
    }
    public var description: String { "@\(seconds)" }
}

/// Duration helpers in seconds.
public enum Seconds {
    public static let minute: Int64 = 60
    public static let hour: Int64 = 3600
    public static let day: Int64 = 86_400
}
