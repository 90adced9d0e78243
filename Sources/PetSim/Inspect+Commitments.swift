import PetCore

extension Inspector {
    /// Values of the Commitments subsystem a scenario can `expect` (nil: not one of its names).
    static func commitmentValue(_ path: String, _ device: SimDevice) -> String? {
        nil
    }
}
