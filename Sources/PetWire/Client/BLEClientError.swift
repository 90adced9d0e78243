/// What went wrong reaching a DeskPet over Bluetooth LE (`deskpetctl --ble`), each saying what to
/// do about it. Carries addresses and adapter names only.
public enum BLEClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The address is not `AA:BB:CC:DD:EE:FF` (optionally `/public` or `/random`).
    case badAddress(String)
    /// The kernel has no Bluetooth sockets (AF_BLUETOOTH).
    case noBluetooth(reason: String)
    /// No Bluetooth adapter at all.
    case noAdapter
    /// Adapters exist but none is up.
    case adapterDown([String])
    /// Nothing answered at the address (off, out of range, not advertising, wrong address type).
    case addressNotFound(address: String, reason: String)
    /// The device needs an encrypted link (Insufficient Authentication / Encryption) and the link
    /// is not encrypted: pairing did not happen or failed.
    case pairingNeeded(address: String)
    /// Connected, but the device has no DeskPet GATT service.
    case noDeskPetService(address: String)
    /// The DeskPet service lacks a characteristic or descriptor it must have.
    case incompleteService(address: String, missing: String)
    /// The connection could not be made for another reason (the socket's error).
    case connectFailed(address: String, reason: String)
    /// The GATT server answered something this client cannot use.
    case gatt(address: String, what: String)

    /// `AA:BB:…` of `ble:AA:BB:…/random` (for btmgmt).
    static func plain(_ a: String) -> String {
        var t = Substring(a)
        if t.hasPrefix("ble:") { t = t.dropFirst(4) }
        if let slash = t.firstIndex(of: "/") { t = t[..<slash] }
        return String(t)
    }

    public var description: String {
        switch self {
        case .badAddress(let a):
            "'\(a)' is not a Bluetooth address: use AA:BB:CC:DD:EE:FF, or AA:BB:CC:DD:EE:FF/random for a random (static) address"
        case .noBluetooth(let r):
            "this kernel has no Bluetooth sockets (\(r)): load the bluetooth module (modprobe bluetooth) or use --tcp/--unix"
        case .noAdapter:
            "no Bluetooth adapter found: plug one in or check 'btmgmt info' (use --tcp/--unix otherwise)"
        case .adapterDown(let names):
            "Bluetooth adapter \(names.joined(separator: ", ")) is down: power it on ('btmgmt power on' or 'bluetoothctl power on')"
        case let .addressNotFound(a, r):
            "no answer from \(a) (\(r)): is the DeskPet on, advertising and in range? A random address needs the /random suffix"
        case .pairingNeeded(let a):
            "\(a) needs an encrypted link and pairing (Just Works) did not complete: run deskpetctl as root (it confirms the kernel's pairing itself) or with bluetoothd's agent running; if the two were paired before, remove the old bond on both sides ('btmgmt unpair \(Self.plain(a))') and try again"
        case .noDeskPetService(let a):
            "\(a) has no DeskPet service (6d9b0001-…): is it a DeskPet running its daemon (with bluetoothd stopped on it)?"
        case let .incompleteService(a, m):
            "the DeskPet service of \(a) has no \(m): update the device's firmware"
        case let .connectFailed(a, r):
            "cannot connect to \(a): \(r)"
        case let .gatt(a, w):
            "GATT error from \(a): \(w)"
        }
    }
}

/// A Bluetooth LE device address as deskpetctl takes it: `AA:BB:CC:DD:EE:FF[/random|/public]`.
public struct BLEAddress: Sendable, Equatable, CustomStringConvertible {
    /// The six bytes as written (most significant first).
    public var bytes: [UInt8]
    public var random: Bool

    public init(bytes: [UInt8], random: Bool) { self.bytes = bytes; self.random = random }

    public static func parse(_ text: String) throws(BLEClientError) -> BLEAddress {
        var t = Substring(text)
        var random = false
        if let slash = t.firstIndex(of: "/") {
            switch t[t.index(after: slash)...].lowercased() {
            case "random": random = true
            case "public": random = false
            default: throw .badAddress(text)
            }
            t = t[..<slash]
        }
        let parts = t.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { throw .badAddress(text) }
        var bytes: [UInt8] = []
        for p in parts {
            guard p.count == 2, let b = UInt8(p, radix: 16) else { throw .badAddress(text) }
            bytes.append(b)
        }
        return BLEAddress(bytes: bytes, random: random)
    }

    /// `AA:BB:CC:DD:EE:FF` (upper case), `/random` added for random addresses.
    public var description: String {
        let hex = bytes.map { b -> String in let s = String(b, radix: 16, uppercase: true); return b < 16 ? "0" + s : s }
        return hex.joined(separator: ":") + (random ? "/random" : "")
    }
}
