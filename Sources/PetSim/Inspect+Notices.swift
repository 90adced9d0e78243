import PetCore

extension Inspector {
    /// Values of the Notices subsystem a scenario can `expect` (nil: not one of its names).
    static func noticeValue(_ path: String, _ device: SimDevice) -> String? {
        nil
    }
}
