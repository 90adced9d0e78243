import PetWire

/// Where deskpetctl reaches the device: a TCP or Unix socket (`tcp:HOST:PORT`, `unix:PATH`) or
/// Bluetooth LE GATT (`ble:AA:BB:CC:DD:EE:FF[/random]`). The token file stores this text.
enum Target: Equatable, CustomStringConvertible {
    case socket(LinkAddress)
    case ble(BLEAddress)

    static func parse(_ text: String) throws(CtlError) -> Target {
        if text.hasPrefix("ble:") {
            do { return .ble(try BLEAddress.parse(String(text.dropFirst(4)))) } catch { throw .usage(error.description) }
        }
        do { return .socket(try LinkAddress.parse(text)) } catch { throw .usage(error.description) }
    }

    var description: String {
        switch self {
        case .socket(let a): a.description
        case .ble(let a): "ble:\(a)"
        }
    }

    /// Connects: a socket, or an L2CAP LE connection with GATT discovery and notifications on
    /// (BLEStream). Nothing is sent yet. Unreachable devices throw `unreachable`.
    func open(timeoutSeconds: Int, lastSeq: Int64 = 0) throws(LinkClientError) -> LinkClient {
        switch self {
        case .socket(let a):
            return try LinkClient(address: a, timeoutSeconds: timeoutSeconds, lastSeq: lastSeq)
        case .ble(let a):
            let stream = try BLEClientSocket.openStream(a, timeoutSeconds: timeoutSeconds)
            return LinkClient(stream: stream, timeoutSeconds: timeoutSeconds, lastSeq: lastSeq)
        }
    }
}
