#if canImport(Glibc)
import Glibc
#endif
import PetDevice

/// Real time as the run loop's wait (`DeviceLoop.run(waiting:)`): the first wake-up at once, then
/// each one after poll(2) on the loop's descriptors (and `alsoWaitOn`) returns — a descriptor
/// readable, or the next deadline (`sleepMs`) reached. The run is over when `shouldStop` says so,
/// before or after a sleep. (Virtual time's wait is PetDevice's `VirtualTimeWait`.)
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
        try Self.wait(for: loop.descriptors + extra, timeoutMs: loop.sleepMs() ?? -1)
        return !shouldStop()
    }

    /// Sleeps until one of `descriptors` is readable or `timeoutMs` passed (-1: no timeout), and
    /// returns the readable ones (none: the time passed, or a signal ended the sleep early).
    /// Other failures are thrown.
    @discardableResult
    public static func wait(for descriptors: [Int32], timeoutMs: Int32) throws(HardwareError) -> [Int32] {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let r = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeoutMs) }
        if r < 0 && errno != EINTR {
            throw HardwareError(device: "poll", operation: "wait for input", errno: errno)
        }
        return r > 0 ? fds.filter { $0.revents & Int16(POLLIN) != 0 }.map(\.fd) : []
    }
}

extension DeviceLoop {
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
