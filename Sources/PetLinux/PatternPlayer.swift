#if canImport(Glibc)
import Glibc
#endif
import PetDevice

#if !compiler(>=6.2)
// Swift 6.0/6.1 (Debian 13's swiftlang builds the arm64 package) have no SendableMetatype; there every
// metatype is usable across isolation, so requiring nothing is the same constraint.
typealias SendableMetatype = Any
#endif

/// What a pattern player drives: a buzzer or an LED. Called only on the player's thread.
protocol PatternOutput: AnyObject, SendableMetatype {
    associatedtype Step: Sendable
    /// How long a step lasts (ms).
    func milliseconds(_ step: Step) -> Int
    /// Starts a step (sets the line, the PWM frequency...).
    func begin(_ step: Step) throws(HardwareError)
    /// For a square wave made in software (a passive buzzer on a plain GPIO line): the half period
    /// in ns during this step; nil when the output holds still for the whole step.
    func halfPeriodNs(_ step: Step) -> UInt64?
    /// Flips the square wave.
    func toggle() throws(HardwareError)
    /// Silent / dark (after a pattern, when one is replaced, when closing).
    func rest() throws(HardwareError)
}

/// Plays step patterns on a background thread so the device loop never waits for a buzzer or an
/// LED: `play` hands the steps over and returns; a new pattern replaces the one playing. The thread
/// sleeps on a condition variable until the end of each step (CLOCK_MONOTONIC deadlines), or in
/// half periods when it makes a square wave itself. Output errors are kept and thrown by the next
/// `play` (the loop records them and carries on).
final class PatternPlayer<Output: PatternOutput>: @unchecked Sendable {
    // Everything below is guarded by `mutex` except `output`, which only the thread touches
    // after start (and `close`, after joining it).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let output: Output
    private var pending: [Output.Step]?
    private var generation: UInt64 = 0
    private var stopping = false
    private var failure: HardwareError?
    private var thread: pthread_t?
    /// Patterns finished (played to the end or replaced), for tests and the hardware checker.
    private var finished: UInt64 = 0

    init(output: Output) throws(HardwareError) {
        self.output = output
        pthread_mutex_init(mutex, nil)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
        thread = try startThread(name: "deskpet-pattern") { [self] in self.run() }
    }

    deinit {
        pthread_cond_destroy(cond); pthread_mutex_destroy(mutex)
        cond.deallocate(); mutex.deallocate()
    }

    /// Starts `steps` (replacing what plays); throws the error the previous pattern ran into.
    func play(_ steps: [Output.Step]) throws(HardwareError) {
        pthread_mutex_lock(mutex)
        let failed = failure
        failure = nil
        if !stopping {
            pending = steps
            generation &+= 1
            pthread_cond_signal(cond)
        }
        pthread_mutex_unlock(mutex)
        if let failed { throw failed }
    }

    /// How many patterns ended (played out or replaced).
    var finishedCount: UInt64 {
        pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }
        return finished
    }

    /// Stops the thread after silencing the output; waits for it. Idempotent.
    func close() {
        pthread_mutex_lock(mutex)
        stopping = true
        generation &+= 1
        pthread_cond_signal(cond)
        let t = thread
        thread = nil
        pthread_mutex_unlock(mutex)
        if let t { pthread_join(t, nil) }
    }

    // MARK: - The thread

    private func run() {
        try? output.rest()
        pthread_mutex_lock(mutex)
        while true {
            while pending == nil && !stopping { pthread_cond_wait(cond, mutex) }
            if stopping { break }
            let steps = pending ?? []
            pending = nil
            let gen = generation
            pthread_mutex_unlock(mutex)
            let error = playSteps(steps, generation: gen)
            let restError: HardwareError?
            do { try output.rest(); restError = nil } catch { restError = error }
            pthread_mutex_lock(mutex)
            finished &+= 1
            if let e = error ?? restError { failure = e }
        }
        pthread_mutex_unlock(mutex)
        try? output.rest()
    }

    /// Plays until the end or until the generation changes (a new pattern, or closing).
    private func playSteps(_ steps: [Output.Step], generation gen: UInt64) -> HardwareError? {
        var deadline = Self.monotonicNs()
        for step in steps {
            deadline &+= UInt64(max(0, output.milliseconds(step))) &* 1_000_000
            do { try output.begin(step) } catch { return error }
            if let half = output.halfPeriodNs(step), half > 0 {
                var next = Self.monotonicNs() &+ half
                while next < deadline {
                    if replaced(gen) { return nil }
                    Self.sleep(until: next)
                    do { try output.toggle() } catch { return error }
                    next &+= half
                    // Fell behind (preempted): carry on from now instead of toggling in a burst.
                    let t = Self.monotonicNs()
                    if t > next &+ half { next = t &+ half }
                }
            }
            if waitUntil(deadline, unlessReplaced: gen) { return nil }
        }
        return nil
    }

    private func replaced(_ gen: UInt64) -> Bool {
        pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }
        return generation != gen
    }

    /// Waits until `deadline` (monotonic ns); true if a new pattern (or closing) came first.
    private func waitUntil(_ deadline: UInt64, unlessReplaced gen: UInt64) -> Bool {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }
        while generation == gen {
            let r = pthread_cond_timedwait(cond, mutex, &ts)
            if r == ETIMEDOUT { return generation != gen }
        }
        return true
    }

    static func monotonicNs() -> UInt64 { EventTime.read(CLOCK_MONOTONIC) }

    static func sleep(until ns: UInt64) {
        var ts = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}

/// Starts a POSIX thread running `body` (joinable; the caller joins it).
func startThread(name: String, _ body: @escaping @Sendable () -> Void) throws(HardwareError) -> pthread_t {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var t = pthread_t()
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    let r = pthread_create(&t, nil, { arg in
        guard let arg else { return nil }
        Unmanaged<Box>.fromOpaque(arg).takeRetainedValue().body()
        return nil
    }, box)
    guard r == 0 else {
        Unmanaged<Box>.fromOpaque(box).release()
        throw LinuxError.make(name, "start a thread", errno: r, kind: .other)
    }
    return t
}
