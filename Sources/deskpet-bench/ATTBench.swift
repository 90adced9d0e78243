import FoundationEssentials
import PetCore
import PetDevice
import PetLink
import PetSim

// ATT PDUs and round trips per typical command over BLE, counted without a radio: the device's
// real link service answers the command (its pushed events, the `state` summary and the reply),
// and a GATT server session carries both directions at the negotiated MTU, exactly as BLELink
// feeds it (each outgoing frame cut into ATT_MTU − 3 byte notifications).

/// An in-memory transport: what the bench's phone sent, and every frame the device sent back.
final class BenchMemoryLink: PhoneLink {
    var inbox: [LinkEvent] = []
    var sent: [Int: [[UInt8]]] = [:]
    var fileDescriptor: Int32? { nil }
    func receive() throws(HardwareError) -> [LinkEvent] { defer { inbox = [] }; return inbox }
    func send(_ frame: LinkFrame) throws(HardwareError) { sent[frame.client, default: []].append(frame.bytes) }
    func disconnect(client: Int) {}
}

/// What one command costs on the air at one MTU, for one uplink choice.
struct ATTCount {
    var pdusUp = 0, pdusDown = 0, roundTrips = 0
    var json: String { #"{"pdus_up":\#(pdusUp),"pdus_down":\#(pdusDown),"round_trips":\#(roundTrips)}"# }
}

func benchATT() throws {
    let link = BenchMemoryLink()
    let device = try SimDevice(dbPath: nil, start: start2026, zone: "Europe/Berlin", boot: false, link: link, linkService: LinkService())
    /// Sends a frame from the phone; returns the frames the device sent back (in order).
    func exchange(_ json: String) throws -> [[UInt8]] {
        link.inbox.append(.frame(LinkFrame(client: 1, bytes: Frame.encode(Array(json.utf8)))))
        try device.serveLink()
        defer { link.sent[1] = [] }
        return link.sent[1] ?? []
    }
    func field(_ frames: [[UInt8]], _ type: String, _ key: String) throws -> String? {
        for f in frames {
            var d = FrameDecoder(maxBody: 1 << 24)
            for body in try d.feed(f) {
                if case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(body)), o["type"] == .string(type),
                   case .string(let s)? = o[key] { return s }
            }
        }
        return nil
    }
    link.inbox.append(.connected(client: 1))
    try device.serveLink()
    _ = try exchange(#"{"type":"hello","version":1}"#)
    guard let ch = try field(try exchange(#"{"type":"pair.begin"}"#), "pair.challenge", "challenge"), let challenge = Hex.decode(ch),
          let code = device.ui.pairingCode else { throw BenchError(message: "no pairing challenge") }
    let nonce = [UInt8](repeating: 7, count: 16)
    let mac = Hex.encode(PairFinish.proof(code: code, challenge: challenge, nonce: nonce))
    guard try field(try exchange(#"{"type":"pair.finish","nonce":"\#(Hex.encode(nonce))","mac":"\#(mac)","name":"bench"}"#), "paired", "token") != nil else {
        throw BenchError(message: "pairing failed")
    }

    // A typical pair of commands: a task with a 30-character title (and a due time), then done.
    let title = "Water the plants on the balcon"   // 30 characters
    precondition(title.count == 30)
    let commands = [
        ("task.create", #"{"type":"command","id":"c-1","name":"task.create","fields":{"task":"t1","title":"\#(title)","due":"today 18:00"}}"#),
        ("task.complete", #"{"type":"command","id":"c-2","name":"task.complete","fields":{"task":"t1"}}"#),
    ]
    var cases: [(name: String, up: [UInt8], down: [[UInt8]])] = []
    for (name, json) in commands {
        let down = try exchange(json)
        guard try field(down, "reply", "id") != nil else { throw BenchError(message: "\(name): no reply") }
        cases.append((name, Frame.encode(Array(json.utf8)), down))
    }

    for mtu in [23, 185, 517] {
        var fields: [(String, String)] = [("figure", q("att_per_command")), ("mtu", "\(mtu)"), ("value_bytes_per_pdu", "\(mtu - 3)")]
        // Once per connection: Exchange MTU (not at the default) and the event CCCD write.
        let setupServer = GATTServer(config: DeskPetGATTConfig(deviceName: "Bench"))
        let setup = GATTSession(server: setupServer)
        var setupTrips = 0
        if mtu != attDefaultMTU { _ = setup.receive(ATTExchangeMTURequest(clientMTU: UInt16(mtu)).bytes); setupTrips += 1 }
        if let cccd = setupServer.database.cccdHandle(of: setupServer.eventHandle) {
            _ = setup.receive(ATTWriteRequest(handle: cccd, value: [1, 0]).bytes); setupTrips += 1
        }
        fields.append(("connection_setup_round_trips", "\(setupTrips)"))
        for c in cases {
            var counts: [String] = []
            for withResponse in [true, false] {
                let server = GATTServer(config: DeskPetGATTConfig(deviceName: "Bench"))
                let session = GATTSession(server: server)
                session.securityLevel = 2   // bonded and encrypted, as commands require
                if mtu != attDefaultMTU { _ = session.receive(ATTExchangeMTURequest(clientMTU: UInt16(mtu)).bytes) }
                guard session.mtu == mtu, let cccd = server.database.cccdHandle(of: server.eventHandle) else {
                    throw BenchError(message: "MTU \(mtu) not negotiated")
                }
                _ = session.receive(ATTWriteRequest(handle: cccd, value: [1, 0]).bytes)
                _ = session.takeEvents()
                var n = ATTCount()
                // Up: the command frame in ATT_MTU − 3 byte writes to the command characteristic.
                var i = 0
                while i < c.up.count {
                    let chunk = Array(c.up[i..<min(i + mtu - 3, c.up.count)])
                    i += chunk.count
                    let pdu = withResponse ? ATTWriteRequest(handle: server.commandHandle, value: chunk).bytes
                                           : ATTWriteCommand(handle: server.commandHandle, value: chunk).bytes
                    let answer = session.receive(pdu)
                    n.pdusUp += 1
                    n.pdusDown += answer.count
                    if withResponse {
                        guard answer == [ATTWriteResponse().bytes] else { throw BenchError(message: "write refused: \(answer)") }
                        n.roundTrips += 1
                    }
                }
                guard session.takeEvents() == [.frame(c.up)] else { throw BenchError(message: "\(c.name): frame not reassembled at MTU \(mtu)") }
                // Down: every frame the device sent (events, state, reply) as notifications.
                for frame in c.down {
                    let pdus = session.send(frame: frame)
                    guard !pdus.isEmpty else { throw BenchError(message: "nothing notified") }
                    n.pdusDown += pdus.count
                }
                counts.append(#""\#(withResponse ? "write_request" : "write_command")":\#(n.json)"#)
            }
            let downBytes = c.down.reduce(0) { $0 + $1.count }
            fields.append((c.name, #"{"frame_bytes":\#(c.up.count),"device_frames":\#(c.down.count),"device_bytes":\#(downBytes),"# + counts.joined(separator: ",") + "}"))
        }
        fields.append(("down", q("notifications (no confirmation)")))
        emit(fields)
    }
}
