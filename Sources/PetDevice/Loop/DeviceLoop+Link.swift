import PetCore

// The device loop's side of the phone link: the transport's events in, the service's frames out,
// the clients connected (the status strip's link icon) and the pairing code on screen.
// docs/architecture.md, docs/protocol.md.
extension DeviceLoop {
    /// Serves the phone link once: what the transport has waiting (connections, frames, clients
    /// gone) goes to the link service, then its wake-up (time-outs, backlogs); what it answers is
    /// sent.
    func serveLinkTransport() {
        guard let transport = hardware.link else { return }
        let events: [LinkEvent]
        do { events = try transport.receive() } catch { note(error); events = [] }
        for e in events {
            noteLink(e)
            sendLink(link?.handle(e, loop: self) ?? [])
        }
        sendLink(link?.tick(loop: self) ?? [])
    }

    /// Events were stored (by anyone): the link service pushes them to the phones.
    func pushToLink(_ events: [Event]) {
        sendLink(link?.pushed(events, loop: self) ?? [])
    }

    /// Shows a pairing code (the link does when a phone asks to pair); nil hides it.
    public func showPairingCode(_ code: String?) {
        navigator.setPairingCode(code)
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
        if linkClients.isEmpty != before { needsFrame = true }
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
}
