// PetLinux re-exports PetBluetooth (the management socket, the Just Works agent, bonding keys, the
// phone's L2CAP client socket) so every `import PetLinux` sees them as before.
@_exported import PetBluetooth
