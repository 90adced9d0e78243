import PetCore
import PetDevice
import PetLink
import PetUI

// The simulator's side of the simulated parts (PetDevice/Hardware/SimulatedParts.swift): the
// phone's `time.set` on the virtual clock.

/// The phone's `time.set` moves the virtual clock (forward as time passing, back as a clock set back).
extension VirtualClock: SettableClock {
    public func setWallMs(_ ms: Int64) throws(HardwareError) { move(toWallMs: ms) }
}
