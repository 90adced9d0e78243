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

/// How the device loop waits between two wake-ups: the one part of the run loop that differs
/// between real and virtual time. On a device it sleeps in poll(2) until the next deadline or a
/// readable descriptor (`PollWait`); in the simulator it moves the virtual clock to the next
/// deadline at once (`VirtualTimeWait`).
public protocol LoopWait: AnyObject {
    /// Waits until the loop's next wake-up is due and returns true, or returns false when the run
    /// is over (the loop does not wake again).
    func next(_ loop: DeviceLoop) throws(HardwareError) -> Bool
}

extension DeviceLoop {
    /// The run loop, for real and virtual time alike: wakes (`step`) each time `wait` says, until
    /// it says the run is over. Journal failures and a failing wait are thrown.
    public func run(waiting wait: LoopWait) throws(AppError) {
        while true {
            let wake: Bool
            do { wake = try wait.next(self) } catch { throw .hardware(error) }
            guard wake else { return }
            try step()
        }
    }

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

    /// Runs the device on real time until `shouldStop()` says so (checked at every wake-up):
    /// wakes at once, then sleeps in poll(2) on the input and link descriptors until the next
    /// deadline, then `step()`s (`PollWait`). Returns the error that stopped it (a journal failure,
    /// or poll(2) itself failing), or nil when asked to stop.
    /// `alsoWaitOn`: more descriptors that end a sleep (the daemon's signalfd); reading them is
    /// the caller's business (in `shouldStop`).
    public func run(alsoWaitOn extra: [Int32] = [], until shouldStop: () -> Bool) -> AppError? {
        withoutActuallyEscaping(shouldStop) { stop -> AppError? in
            do throws(AppError) { try run(waiting: PollWait(alsoWaitOn: extra, until: stop)) } catch { return error }
            return nil
        }
    }
}

/// Real time: the first wake-up at once, then each one after poll(2) on the loop's descriptors
/// (and `alsoWaitOn`) returns — a descriptor readable, or the next deadline (`sleepMs`) reached.
/// The run is over when `shouldStop` says so, before or after a sleep.
public final class PollWait: LoopWait {
    let extra: [Int32]
    let shouldStop: () -> Bool
    var started = false

    public init(alsoWaitOn extra: [Int32] = [], until shouldStop: @escaping () -> Bool) {
        self.extra = extra
        self.shouldStop = shouldStop
    }

    public func next(_ loop: DeviceLoop) throws(HardwareError) -> Bool {
        if !started { started = true; return true }
        if shouldStop() { return false }
        var fds = (loop.descriptors + extra).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let timeout = loop.sleepMs() ?? -1
        let r = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
        if r < 0 && errno != EINTR {
            throw HardwareError(device: "poll", operation: "wait for input", errno: errno)
        }
        return !shouldStop()
    }
}
