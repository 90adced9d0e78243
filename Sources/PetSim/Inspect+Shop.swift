import PetCore

extension Inspector {
    /// Values of the Shop subsystem a scenario can `expect` (nil: not one of its names).
    static func shopValue(_ path: String, _ device: SimDevice) -> String? {
        nil
    }
}
