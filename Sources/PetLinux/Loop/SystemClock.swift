#if canImport(Glibc)
import Glibc
#endif
import PetDevice

/// The system's clocks: CLOCK_REALTIME for wall time, CLOCK_MONOTONIC for the gesture time line
/// (the clock gpiolib and evdev stamp their events with).
public final class SystemClock: DeviceClock {
    public init() {}

    public var wallMs: Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) &* 1000 &+ Int64(ts.tv_nsec) / 1_000_000
    }

    public var monotonicNs: UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(max(0, ts.tv_sec)) &* 1_000_000_000 &+ UInt64(max(0, ts.tv_nsec))
    }
}

/// The daemon's clock can be set by the phone (`time.set`) when the process may set the system
/// time (CAP_SYS_TIME; the systemd unit grants it, docs/protocol.md#commands). Without it the phone
/// gets `unsupported` and the message from the kernel.
extension SystemClock: SettableClock {
    public func setWallMs(_ ms: Int64) throws(HardwareError) {
        var ts = timespec(tv_sec: Int(ms / 1000), tv_nsec: Int(ms % 1000) * 1_000_000)
        if clock_settime(CLOCK_REALTIME, &ts) != 0 {
            throw HardwareError(device: "system clock", operation: "set the time", errno: errno)
        }
    }
}
