import PetCore

extension Inspector {
    /// Values of the Reminders subsystem a scenario can `expect` (nil: not one of its names).
    static func reminderValue(_ path: String, _ device: SimDevice) -> String? {
        nil
    }
}
