#if canImport(Glibc)
import Glibc
#endif

/// Puts kernel event timestamps on the CLOCK_MONOTONIC time line that `SystemClock.monotonicNs`
/// and the gesture recognizer use.
///
/// GPIO line events of the uAPI v2 (what `GPIOButtons` reads) are stamped with CLOCK_MONOTONIC
/// unless a request asks for another clock (v1 events were REALTIME before Linux 5.7); evdev events are REALTIME unless
/// the reader switched the device to MONOTONIC (EVIOCSCLOCKID, which `EvdevButtons` does). An event
/// is always recent when it is read, so its clock shows in which of the two clocks' current values
/// it is closer to: the two time lines are decades apart on any running system (realtime counts from
/// 1970, monotonic from boot).
public enum EventTime {
    /// The timestamp on the monotonic time line. `realNowNs` and `monoNowNs` are the two clocks read
    /// just after the event was read.
    public static func monotonic(eventNs: UInt64, realNowNs: UInt64, monoNowNs: UInt64) -> UInt64 {
        let toReal = distance(eventNs, realNowNs), toMono = distance(eventNs, monoNowNs)
        guard toReal < toMono else { return eventNs }
        // A realtime stamp: shift it by the clocks' current offset (exact unless the wall clock was
        // set between the event and now, which at worst misplaces one edge).
        let offset = realNowNs &- monoNowNs
        return eventNs >= offset ? eventNs - offset : 0
    }

    /// Both clocks now.
    public static func now() -> (realNs: UInt64, monoNs: UInt64) {
        (read(CLOCK_REALTIME), read(CLOCK_MONOTONIC))
    }

    static func read(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return ns(sec: Int64(ts.tv_sec), nsec: Int64(ts.tv_nsec))
    }

    /// Seconds and nanoseconds as ns, clamped at 0 (never traps).
    public static func ns(sec: Int64, nsec: Int64) -> UInt64 {
        let s = UInt64(clamping: max(0, sec)), n = UInt64(clamping: max(0, nsec))
        let m = s.multipliedReportingOverflow(by: 1_000_000_000)
        if m.overflow { return .max }
        let r = m.partialValue.addingReportingOverflow(n)
        return r.overflow ? .max : r.partialValue
    }

    static func distance(_ a: UInt64, _ b: UInt64) -> UInt64 { a > b ? a - b : b - a }
}
