// libFuzzer target for the ATT decoder and the GATT server that answers it (tools/fuzz.sh builds it:
// swiftc -sanitize=fuzzer,address -parse-as-library with Sources/PetWire/ATT and GATT).
// Each input is split into PDUs (a length byte, then that many bytes) and fed to one session.
// Checks: decoding never traps; what decodes re-encodes to bytes that decode to the same PDU; the
// server answers a request with exactly one decodable PDU and a command with none.

final class Fixture {
    let server: GATTServer
    init() {
        var c = DeskPetGATTConfig(deviceName: "Fuzz", hasBattery: true)
        c.maxFrameBody = 4096
        server = GATTServer(config: c)
        server.stateValue = { Array(repeating: 0x5A, count: 700) }
        server.setClock = { _ in true }
    }
}

nonisolated(unsafe) let fixture = Fixture()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // 1. The raw input as one PDU.
    if let pdu = try? ATTPDU.decode(bytes) {
        guard let again = try? ATTPDU.decode(pdu.bytes), again == pdu else { fatalError("round trip failed for \(bytes)") }
    }
    // 2. A session fed the input as length-prefixed PDUs.
    let session = GATTSession(server: fixture.server)
    session.securityLevel = bytes.first.map { Int($0 & 3) + 1 } ?? 1
    var i = 1
    while i < bytes.count {
        let n = Int(bytes[i]); i += 1
        let pdu = Array(bytes[i..<min(bytes.count, i + n)]); i += n
        let out = session.receive(pdu)
        if let op = pdu.first {
            if ATTOpcode.isCommand(op), !out.isEmpty { fatalError("answered a command: \(pdu) -> \(out)") }
            if ATTOpcode.isRequest(op), out.count != 1 { fatalError("request not answered once: \(pdu) -> \(out)") }
        }
        for o in out where (try? ATTPDU.decode(o)) == nil { fatalError("undecodable answer \(o) to \(pdu)") }
        _ = session.takeEvents()
        if pdu.first == 0x1E { _ = session.send(frame: pdu) }
    }
    return 0
}
