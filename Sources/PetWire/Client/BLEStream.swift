#if canImport(Glibc)
import Glibc
#endif
// Glibc's socket names reach a module that also links CBluetooth through its headers.
import CBluetooth
import PetIO

/// The phone protocol over GATT (docs/ble.md), the phone's side: a `LinkByteStream` on a
/// connected SOCK_SEQPACKET socket that carries one ATT PDU per packet — an L2CAP LE socket on
/// the ATT channel (`BLEClientSocket.connect`, BLE/), or one end of an `AF_UNIX`
/// socketpair whose other end a `BLELink` serves (tests).
///
/// `open` exchanges the MTU (asks 185), finds the DeskPet service and its command and event
/// characteristics by UUID, and turns on event notifications (CCCD 0x0001). Then `write` splits
/// frames into ATT_MTU − 3 byte **Write Requests** to the command characteristic: each waits for
/// its Write Response, which is the flow control (a phone that outruns the device learns at once,
/// and an Insufficient Authentication answer comes back on the write that caused it), at the cost
/// of one round trip per chunk. `read` returns the values of event notifications in arrival
/// order: the byte stream `LinkClient` reassembles frames from.
public final class BLEStream: LinkByteStream {
    public let peer: String
    public let timeoutSeconds: Int
    public private(set) var commandHandle: UInt16 = 0
    public private(set) var eventHandle: UInt16 = 0
    public private(set) var eventCCCD: UInt16 = 0
    public var mtu: Int { client.mtu }
    let bearer: SeqPacketBearer
    let client: GATTClient

    /// Takes a connected SOCK_SEQPACKET socket (closed by `close` or deinit). `peer` names it in
    /// messages (`ble:AA:BB:…`).
    public init(socketFD: Int32, peer: String, timeoutSeconds: Int = 10) {
        self.peer = peer
        self.timeoutSeconds = max(1, timeoutSeconds)
        bearer = SeqPacketBearer(fd: socketFD)
        bearer.waitMs = Int32(self.timeoutSeconds * 1000)
        client = GATTClient(bearer: bearer)
    }

    deinit { close() }

    public func close() { bearer.close() }

    /// MTU, discovery, subscription. Errors: `.bluetooth(…)` (no DeskPet service, pairing
    /// needed), `.timeout`, `.connectionLost`.
    public func open(mtu: UInt16 = 185) throws(LinkClientError) {
        let problem: BLEClientError?
        do { problem = try discover(mtu: mtu) } catch { throw map(error, waitingFor: "GATT discovery") }
        if let problem { throw .bluetooth(problem) }
    }

    /// nil when the service is complete and subscribed; else what is missing.
    private func discover(mtu: UInt16) throws(GATTClientError) -> BLEClientError? {
        do { _ = try client.exchangeMTU(mtu) } catch {
            // A server that refuses the exchange keeps the default 23.
            guard case .att(let e) = error, e.error == .requestNotSupported else { throw error }
        }
        guard let service = try client.findPrimaryService(DeskPetUUID.service) else { return .noDeskPetService(address: peer) }
        let chars = try client.discoverCharacteristics(service.start, service.end)
        guard let command = chars.first(where: { $0.uuid == DeskPetUUID.command }) else {
            return .incompleteService(address: peer, missing: "command characteristic")
        }
        guard let event = chars.first(where: { $0.uuid == DeskPetUUID.event }) else {
            return .incompleteService(address: peer, missing: "event characteristic")
        }
        // The event's descriptors lie between its value and the next declaration.
        let end = chars.first(where: { $0.declaration > event.valueHandle }).map { $0.declaration - 1 } ?? service.end
        let descriptors = event.valueHandle < end ? try client.discoverDescriptors(event.valueHandle + 1, end) : []
        guard let cccd = descriptors.first(where: { $0.type == .bit16(0x2902) }) else {
            return .incompleteService(address: peer, missing: "event CCCD (0x2902)")
        }
        try client.subscribe(cccd: cccd.handle)
        commandHandle = command.valueHandle
        eventHandle = event.valueHandle
        eventCCCD = cccd.handle
        return nil
    }

    /// Frames out as Write Requests of at most ATT_MTU − 3 bytes.
    public func write(_ bytes: [UInt8]) throws(LinkClientError) {
        guard commandHandle != 0 else { throw .bluetooth(.gatt(address: peer, what: "not opened (no discovery yet)")) }
        let chunk = client.mtu - 3
        var off = 0
        while off < bytes.count {
            let part = Array(bytes[off..<min(bytes.count, off + chunk)])
            bearer.waitMs = Int32(timeoutSeconds * 1000)
            do { try client.write(commandHandle, part) } catch { throw map(error, waitingFor: "write response") }
            off += part.count
        }
    }

    /// Event notification values (those that came during writes first).
    public func read(waitMs: Int32?) throws(LinkClientError) -> [UInt8]? {
        while true {
            var out: [UInt8] = []
            for v in client.received where v.handle == eventHandle { out += v.value }
            client.received = []
            if !out.isEmpty { return out }
            bearer.waitMs = waitMs ?? Int32(timeoutSeconds * 1000)
            do { try client.next() } catch {
                if bearer.timedOut, waitMs != nil { return nil }
                throw map(error, waitingFor: "message")
            }
            if waitMs != nil && client.received.isEmpty { return nil }
        }
    }

    private func map(_ e: GATTClientError, waitingFor: String) -> LinkClientError {
        if bearer.timedOut { return .timeout(waitingFor: waitingFor, seconds: timeoutSeconds) }
        switch e {
        case .transport(let r): return .connectionLost(address: peer, reason: r)
        case .att(let a) where [.insufficientAuthentication, .insufficientEncryption, .insufficientEncryptionKeySize].contains(a.error):
            return .bluetooth(.pairingNeeded(address: peer))
        case .att(let a): return .bluetooth(.gatt(address: peer, what: "error 0x\(String(a.error.rawValue, radix: 16)) for request 0x\(String(a.requestOpcode, radix: 16)) on handle \(a.handle)"))
        case .decode(let d): return .protocolViolation(what: "an ATT PDU that does not decode: \(d)")
        case .unexpected: return .bluetooth(.gatt(address: peer, what: "an answer of the wrong kind"))
        }
    }
}

/// ATT PDUs on a SOCK_SEQPACKET socket: one PDU a packet; a receive waits at most `waitMs`.
final class SeqPacketBearer: ATTBearer {
    private(set) var fd: Int32
    var waitMs: Int32 = 10_000
    /// The last receive failed because nothing came within `waitMs`.
    private(set) var timedOut = false

    init(fd: Int32) { self.fd = fd }

    func close() { if fd >= 0 { Glibc.close(fd); fd = -1 } }

    func sendPDU(_ pdu: [UInt8]) throws(GATTClientError) {
        timedOut = false
        while true {
            let n = pdu.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n == pdu.count { return }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { timedOut = true; throw .transport("the device does not take writes") }
            throw .transport(n < 0 ? "send: " + errnoText() : "short send")
        }
    }

    func receivePDU() throws(GATTClientError) -> [UInt8] {
        timedOut = false
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let r = poll(&p, 1, waitMs)
            if r == 0 { timedOut = true; throw .transport("no answer") }
            if r < 0 { if errno == EINTR { continue }; throw .transport("poll: " + errnoText()) }
            break
        }
        var buf = [UInt8](repeating: 0, count: 1024)
        while true {
            let n = buf.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { return Array(buf[0..<n]) }
            if n == 0 { throw .transport("the device closed the connection") }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { timedOut = true; throw .transport("no answer") }
            throw .transport("recv: " + errnoText())
        }
    }
}
