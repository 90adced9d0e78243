import PetCore
import PetStore
import PetUI

// The device loop's side of the phone link: the transport's events go to the link service, the
// effects it returns are applied here (frames sent, clients dropped, the pairing code on screen),
// and the loop is the service's `LinkHost` (LinkServing.swift). The service itself never touches
// the transport, the app or the screen. docs/architecture.md, docs/protocol.md.
extension DeviceLoop: LinkHost {
    /// Serves the phone link once: what the transport has waiting (connections, frames, clients
    /// gone) goes to the link service, then its wake-up (time-outs, backlogs); what it decides
    /// is applied.
    func serveLinkTransport() {
        guard let transport = hardware.link else { return }
        let events: [LinkEvent]
        do { events = try transport.receive() } catch { note(error); events = [] }
        for e in events {
            noteLink(e)
            apply(link?.handle(e, loop: self) ?? [])
        }
        apply(link?.tick(loop: self) ?? [])
    }

    /// Events were stored by the device (buttons, time): the link service pushes them to the phones.
    func pushToLink(_ events: [Event]) {
        apply(link?.pushed(events, loop: self) ?? [])
    }

    /// Does what the link service decided, in order.
    public func apply(_ effects: [LinkEffect]) {
        for effect in effects {
            switch effect {
            case .send(let frame): sendLink([frame])
            case .drop(let client):
                hardware.link?.disconnect(client: client)
                noteLink(.disconnected(client: client))
            case .pairingCode(let code): showPairingCode(code)
            case .pairingEnded(let result): showPairingResult(result)
            }
        }
    }

    /// Shows a pairing code (the link does when a phone asks to pair); nil hides it.
    public func showPairingCode(_ code: String?) {
        navigator.setPairingCode(code, now: Self.instant(ms: hardware.clock.wallMs))
        needsFrame = true
    }

    /// Shows how a pairing attempt ended (the link does when a phone proves or misses the code,
    /// or the code expires): success with the phone's name, a wrong code, the lockout, a timeout.
    public func showPairingResult(_ result: PairingResult) {
        let outcome: PairingOutcome
        switch result {
        case .paired(let name): outcome = .paired(phone: name)
        case .wrongCode, .locked: outcome = .failed
        case .expired: outcome = .timedOut
        }
        navigator.setPairingOutcome(outcome, state: app.state, now: now)
        needsFrame = true
    }

    /// Keeps `linkClients` (the status strip's link icon) in step with the transport (the link
    /// service reports the clients it drops itself).
    public func noteLink(_ e: LinkEvent) {
        let before = linkClients.isEmpty
        switch e {
        case .connected(let c): linkClients.insert(c)
        case .disconnected(let c): linkClients.remove(c)
        case .frame: break
        }
        if linkClients.isEmpty != before {
            needsFrame = true
            if linkClients.isEmpty { navigator.noteLinkLost(now: Self.instant(ms: hardware.clock.wallMs)) }
        }
    }

    /// Sends frames on the phone link (failures are recorded; the client is dropped).
    public func sendLink(_ frames: [LinkFrame]) {
        guard let transport = hardware.link else { return }
        for f in frames {
            do { try transport.send(f) } catch {
                note(error); transport.disconnect(client: f.client); noteLink(.disconnected(client: f.client))
            }
        }
    }

    // MARK: - LinkHost

    public func storedEvents(after seq: Int64, limit: Int) throws(AppError) -> [EventRow] {
        try app.events(after: seq, limit: limit)
    }

    public func commandSeen(_ id: String) -> Bool { app.commandSeen(id) }

    public var buttonNames: [String] { layout.buttons.map(\.rawValue) }

    public func startExport() -> Export.Producer { Export.Producer(app, now: now) }

    public func queuedBytes(client: Int) -> Int { hardware.link?.queuedBytes(client: client) ?? 0 }

    public var clockIsSettable: Bool { hardware.settableClock != nil }

    public func setWallClock(ms: Int64) throws(HardwareError) {
        guard let clock = hardware.settableClock else {
            throw HardwareError(.unsupported, device: "clock", operation: "set the time", reason: "this device's clock cannot be set from the phone")
        }
        try clock.setWallMs(ms)
    }

    /// As `sendBatch`, but the events are not pushed to the link: the service that asked pushes
    /// them in its own order (events and state, then the replies).
    public func commit(_ commands: [Command], after effects: [LinkEffect]) throws(AppError) -> [Outcome] {
        apply(effects)
        let outcomes = try app.handleBatch(commands)
        var committed: [Event] = []
        for o in outcomes { committed += o.committed }
        report(committed, byOwner: true, toLink: false)
        navigator.tick(state: app.state, now: now)
        needsFrame = true
        return outcomes
    }
}
