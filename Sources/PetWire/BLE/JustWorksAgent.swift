#if canImport(Glibc)
import Glibc
#endif
import CBluetooth
import PetIO

/// Answers the kernel's Just Works pairing confirmations on a management socket, the part of a
/// pairing agent DeskPet needs when no bluetoothd runs. With IO capability NoInputNoOutput on
/// both sides the kernel still sends **User Confirmation Request** (mgmt event 0x000F: Address,
/// Address_Type, Confirm_Hint, Value) with Confirm_Hint 1 ("just confirm", no number to compare)
/// and waits; this answers **User Confirmation Reply** (0x001C: Address, Address_Type). A request
/// with Confirm_Hint 0 (numeric comparison: someone must compare six digits) is refused with User
/// Confirmation Negative Reply (0x001D): DeskPet authenticates its owner by the phone protocol's
/// own code, never by an unseen number. Needs CAP_NET_ADMIN; events of every controller arrive on
/// one socket (an `only` index restricts it).
public final class JustWorksAgent {
    public let mgmt: MgmtSocket
    public let only: UInt16?
    /// What it answered: `confirmed hciN AA:BB:…` / `refused …`.
    public private(set) var log: [String] = []

    public init(index: UInt16? = nil) throws(HardwareError) {
        mgmt = try MgmtSocket()
        only = index
    }

    /// Reads waiting events and answers the confirmation requests among them; never blocks.
    /// Returns how many were answered.
    @discardableResult
    public func poll() -> Int {
        var answered = 0
        var buf = [UInt8](repeating: 0, count: 1024)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(mgmt.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 6 else { return answered }
            if let reply = Self.answer(Array(buf[0..<n])) {
                guard only == nil || only == reply.command.index else { continue }
                _ = reply.command.bytes.withUnsafeBytes { send(mgmt.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                log.append("\(reply.accepted ? "confirmed" : "refused") hci\(reply.command.index) \(reply.address)")
                answered += 1
            }
        }
    }

    /// The reply to one management event, when it is a User Confirmation Request (decoded by
    /// `MgmtEvent`, answered as `MgmtCommand.answer` decides — the daemon's adapter does the same).
    public static func answer(_ event: [UInt8]) -> (command: MgmtCommand, accepted: Bool, address: String)? {
        guard case let .userConfirmRequest(index, address, type, hint)? = MgmtEvent(bytes: event) else { return nil }
        let printed = address.reversed().map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: ":")
        let a = MgmtCommand.answer(toConfirmation: index, address: address, addressType: type, confirmHint: hint)
        return (a.command, a.accepted, printed)
    }
}
