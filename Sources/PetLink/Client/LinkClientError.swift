import PetCore

/// What went wrong on the phone's side of the link (deskpetctl), naming what and where. Never
/// carries personal text: only addresses, message types, codes and the device's own messages
/// (which never repeat personal text either, docs/protocol.md#messages-from-the-device).
public enum LinkClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device could not be reached at all (nothing was sent): a mutating command may be queued.
    case unreachable(address: String, reason: String)
    /// The connection broke or went silent after it was made (a command may or may not have
    /// been applied: its id makes a retry safe).
    case connectionLost(address: String, reason: String)
    /// No answer within the timeout while waiting for `waitingFor`.
    case timeout(waitingFor: String, seconds: Int)
    /// The device answered with an `error` message.
    case device(code: String, message: String, id: String?)
    /// The device sent something this client cannot read.
    case protocolViolation(what: String)
    /// A Bluetooth LE problem (`--ble`): no adapter, pairing needed, not a DeskPet, …
    case bluetooth(BLEClientError)

    public var description: String {
        switch self {
        case let .unreachable(a, r): "device unreachable at \(a): \(r)"
        case let .connectionLost(a, r): "connection to \(a) lost: \(r)"
        case let .timeout(w, s): "no \(w) from the device within \(s) s"
        case let .device(code, message, id): "device refused\(id.map { " command \($0)" } ?? ""): \(code): \(message)"
        case .protocolViolation(let w): "protocol error: \(w)"
        case .bluetooth(let e): e.description
        }
    }

    /// Codes of a refusal that is final (the command leaves the offline queue): `ErrorCode.final`.
    public static var domainCodes: Set<String> { ErrorCode.final }
}
