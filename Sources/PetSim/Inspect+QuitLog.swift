import PetCore

extension Inspector {
    /// Values of the QuitLog subsystem a scenario can `expect` (nil: not one of its names).
    static func quitValue(_ path: String, _ device: SimDevice) -> String? {
        nil
    }
}
