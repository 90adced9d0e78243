import PetCore

/// How the device loop waits between two wake-ups: the one part of the run loop that differs
/// between real and virtual time. On a device it sleeps in poll(2) until the next deadline or a
/// readable descriptor (PetLinux's `PollWait`, the daemon's `DeviceLoop.run(alsoWaitOn:until:)`);
/// in the simulator it moves the virtual clock to the next deadline at once (`VirtualTimeWait`).
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
}
