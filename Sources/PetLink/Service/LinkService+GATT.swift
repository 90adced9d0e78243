import PetCore
import PetDevice

/// The GATT server's hooks into the phone protocol (docs/ble.md): the state characteristic serves
/// the link's `state` summary, Current Time reads the device's local time and a write sets the
/// clock as `time.set` does (`LinkHost.setWallClock`: the board's `Hardware.settableClock`).
extension LinkService {
    /// The state characteristic's value: the body (JSON, no length prefix) of the `state` message
    /// the link pushes after every change.
    public func stateSummary(loop: LinkHost) -> [UInt8] {
        MessageEncoder.body(stateMessage(loop, id: nil, withTasks: false))
    }

    /// Sets the device clock as `time.set` does: the host's clock must be settable; the
    /// connections' timers restart (a clock jump is not time they were idle).
    public func setClock(unixMs ms: Int64, loop: LinkHost) throws(HardwareError) {
        guard loop.clockIsSettable else {
            throw HardwareError(.unsupported, device: "clock", operation: "set the time", reason: "this device's clock cannot be set from the phone")
        }
        guard TimeRange.contains(Instant(floorDiv(ms, 1000))) else {
            throw HardwareError(.invalidArgument, device: "clock", operation: "set the time", reason: "\(ms) ms is outside the valid range \(TimeRange.text)")
        }
        try loop.setWallClock(ms: ms)
        let now = loop.nowMs
        for k in sessions.keys {
            sessions[k]?.lastFrameMs = now
            if sessions[k]?.partialSinceMs != nil { sessions[k]?.partialSinceMs = now }
            if sessions[k]?.challenge != nil { sessions[k]?.challenge?.expiresMs = now + Int64(config.challengeSeconds) * 1000 }
        }
    }

    /// Current Time as the device shows it: local time in the pet's zone.
    public static func currentTime(loop: LinkHost) -> CurrentTime {
        let ms = loop.nowMs
        let local = loop.state.clock.local(loop.now)
        let w = local.date.weekday
        return CurrentTime(year: local.date.year, month: local.date.month, day: local.date.day, hours: local.hour,
                           minutes: local.minute, seconds: local.second, dayOfWeek: w == 0 ? 7 : w,
                           fractions256: Int(((ms % 1000) + 1000) % 1000 * 256 / 1000), adjustReason: 0)
    }

    /// The instant (ms since 1970) of a Current Time value read as local time in the pet's zone.
    public static func unixMs(_ t: CurrentTime, loop: LinkHost) -> Int64 {
        let local = LocalDateTime(date: CivilDate(year: t.year, month: t.month, day: t.day), hour: t.hours, minute: t.minutes, second: t.seconds)
        return TimeRange.milliseconds(loop.state.clock.instant(local)).saturatingAdded(Int64(t.fractions256) * 1000 / 256)
    }

    /// Connects a GATT server to this service and the loop: the state characteristic, Current
    /// Time (read and write) and, when given, the battery level. A refused clock write (no
    /// CAP_SYS_TIME) is answered "data field ignored" and logged without the time.
    public func serve(_ server: GATTServer, loop: LinkHost, batteryLevel: (() -> UInt8)? = nil) {
        server.stateValue = { [weak self, weak loop] in
            guard let self, let loop else { return [] }
            return self.stateSummary(loop: loop)
        }
        server.currentTime = { [weak loop] in loop.map { LinkService.currentTime(loop: $0) } }
        server.setClock = { [weak self, weak loop] t in
            guard let self, let loop else { return false }
            do throws(HardwareError) { try self.setClock(unixMs: LinkService.unixMs(t, loop: loop), loop: loop) } catch {
                self.log?("ble: Current Time write refused: \(error.reason)")
                return false
            }
            self.log?("ble: clock set by the phone (Current Time)")
            return true
        }
        if let batteryLevel { server.batteryLevel = batteryLevel }
    }
}
