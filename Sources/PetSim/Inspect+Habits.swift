import PetCore

extension Inspector {
    /// Values of the Habits subsystem a scenario can `expect` (nil: not one of its names).
    static func habitValue(_ path: String, _ device: SimDevice) -> String? {
        nil
    }
}
