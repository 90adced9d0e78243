#if canImport(Glibc)
import Glibc
#endif
import PetCore

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

extension DeviceLoop {
    /// The descriptors the loop waits on: every input source's and the link's.
    public var descriptors: [Int32] {
        hardware.inputs.compactMap(\.fileDescriptor) + (hardware.link?.fileDescriptor.map { [$0] } ?? [])
    }

    /// How long to sleep from now (ms) until the next deadline (nil: no deadline, wait for input).
    /// Capped at an hour so a wall clock set far forward is noticed within the hour.
    public func sleepMs() -> Int32? {
        guard let d = nextDeadlineMs() else { return nil }
        let ms = d.subtractingReportingOverflow(nowMs)
        if ms.overflow { return 3_600_000 }
        return Int32(clamping: min(max(0, ms.partialValue), 3_600_000))
    }

    /// Runs the device until `shouldStop()` says so (checked at every wake-up): sleeps in poll(2)
    /// on the input and link descriptors until the next deadline, then `step()`s. Returns the
    /// error that stopped it (a journal failure, or poll(2) itself failing), or nil when asked to stop.
    /// `alsoWaitOn`: more descriptors that end a sleep (the daemon's signalfd); reading them is
    /// the caller's business (in `shouldStop`).
    public func run(alsoWaitOn extra: [Int32] = [], until shouldStop: () -> Bool) -> AppError? {
        do { try step() } catch { return error }
        while !shouldStop() {
            var fds = (descriptors + extra).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let timeout = sleepMs().map { $0 } ?? -1
            let r = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
            if r < 0 && errno != EINTR { return .hardware(HardwareError(device: "poll", operation: "wait for input", errno: errno)) }
            if shouldStop() { break }
            do { try step() } catch { return error }
        }
        return nil
    }
}
