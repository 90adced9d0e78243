import PetCore

extension Inspector {
    /// Values of the ScreenTime subsystem a scenario can `expect` (nil: not one of its names).
    static func screenValue(_ path: String, _ device: SimDevice) -> String? {
        nil
    }
}
