#if canImport(Glibc)
import Glibc
#endif
import CBluetooth
import PetIO

/// The kernel management socket (AF_BLUETOOTH, BTPROTO_HCI, HCI_CHANNEL_CONTROL): commands with
/// their Command Complete/Status, and the events in between (kept for `takeEvents`).
/// Needs CAP_NET_ADMIN (root, or the capability on the daemon's unit).
public final class MgmtSocket {
    public let fd: Int32
    private var pending: [MgmtEvent] = []

    public init() throws(HardwareError) {
        let s = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), BTPROTO_HCI)
        guard s >= 0 else { throw Self.error("open the management socket", errno) }
        var a = sockaddr_hci()
        a.hci_family = sa_family_t(AF_BLUETOOTH)
        a.hci_dev = UInt16(HCI_DEV_NONE)
        a.hci_channel = UInt16(HCI_CHANNEL_CONTROL)
        let r = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_hci>.size)) } }
        guard r == 0 else { let e = errno; close(s); throw Self.error("bind the management socket", e) }
        fd = s
    }

    deinit { close(fd) }

    static func error(_ op: String, _ e: Int32) -> HardwareError {
        var h = HardwareError(device: "bluetooth mgmt", operation: op, errno: e)
        if e == EPERM || e == EACCES { h.reason += ": needs CAP_NET_ADMIN (run as root or give the daemon the capability)" }
        if e == EAFNOSUPPORT { h.reason += ": the kernel has no Bluetooth (CONFIG_BT)" }
        return h
    }

    /// Sends a command and waits (poll, up to `timeoutMs`) for its Command Complete or Status.
    /// Returns the status (0 success) and the return parameters.
    public func run(_ c: MgmtCommand, timeoutMs: Int32 = 5000) throws(HardwareError) -> (status: UInt8, parameters: [UInt8]) {
        let b = c.bytes
        let n = b.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard n == b.count else { throw Self.error("send \(c.name)", n < 0 ? errno : EIO) }
        var waited: Int32 = 0
        while true {
            // Events read together with the reply (the keys right after a pairing's confirmation)
            // are kept for `takeEvents`, never dropped.
            var reply: (status: UInt8, parameters: [UInt8])?
            for e in readEvents() {
                switch e {
                case .commandComplete(let i, let op, let st, let p) where reply == nil && op == c.opcode && i == c.index: reply = (st, p)
                case .commandStatus(let i, let op, let st) where reply == nil && op == c.opcode && i == c.index && st != 0: reply = (st, [])
                case .commandStatus(_, let op, _) where reply == nil && op == c.opcode: continue
                default: pending.append(e)
                }
            }
            if let reply { return reply }
            guard waited < timeoutMs else { throw HardwareError(.timedOut, device: "bluetooth mgmt", operation: c.name, reason: "no reply in \(timeoutMs) ms") }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let step: Int32 = 100
            if poll(&p, 1, step) < 0, errno != EINTR { throw Self.error("wait for \(c.name)", errno) }
            waited += step
        }
    }

    /// Runs a command that must succeed (status 0), naming the status otherwise.
    @discardableResult
    public func require(_ c: MgmtCommand) throws(HardwareError) -> [UInt8] {
        let (st, p) = try run(c)
        guard st == 0 else { throw HardwareError(.refused, device: "bluetooth mgmt hci\(c.index)", operation: c.name, reason: "status 0x\(String(st, radix: 16)) (\(Self.statusName(st)))") }
        return p
    }

    /// Events read so far that were not replies (and whatever is waiting now). Never blocks.
    public func takeEvents() -> [MgmtEvent] {
        let e = pending + readEvents()
        pending = []
        return e
    }

    private func readEvents() -> [MgmtEvent] {
        var out: [MgmtEvent] = []
        var buf = [UInt8](repeating: 0, count: 1024)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return out }
            if let e = MgmtEvent(bytes: Array(buf[0..<n])) { out.append(e) }
        }
    }

    /// mgmt-api.txt's status codes.
    public static func statusName(_ s: UInt8) -> String {
        let names = ["Success", "Unknown Command", "Not Connected", "Failed", "Connect Failed", "Authentication Failed",
                     "Not Paired", "No Resources", "Timeout", "Already Connected", "Busy", "Rejected", "Not Supported",
                     "Invalid Parameters", "Disconnected", "Not Powered", "Cancelled", "Invalid Index", "RFKilled",
                     "Already Paired", "Permission Denied"]
        return Int(s) < names.count ? names[Int(s)] : "unknown"
    }
}

/// bluetoothd holds the adapter (docs/ble.md#bluetoothd-must-be-stopped).
public enum BluetoothDaemon {
    /// What to tell the owner when bluetoothd runs.
    public static let advice = "stop bluetoothd: systemctl disable --now bluetooth; docs/ble.md says why"

    /// Whether a process named bluetoothd runs (its /proc/PID/comm), looked up under `proc`.
    public static func isRunning(proc: String = "/proc") -> Bool {
        guard let dir = opendir(proc) else { return false }
        defer { closedir(dir) }
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.isEmpty, name.allSatisfy(\.isNumber) else { continue }
            let fd = open(proc + "/" + name + "/comm", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            var buf = [UInt8](repeating: 0, count: 32)
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            close(fd)
            if n > 0, Array(buf[0..<n].prefix { $0 != 0x0A }) == Array("bluetoothd".utf8) { return true }
        }
        return false
    }
}

/// Sets a controller up as DeskPet's peripheral through the management socket, and stores the
/// keys it hands out when phones pair. bluetoothd must not run (docs/ble.md).
public final class BLEAdapter {
    public let mgmt: MgmtSocket
    public let index: UInt16
    public let keysPath: String?
    public private(set) var keys: BondingKeys
    /// The controller's public address (as printed: most significant byte first).
    public private(set) var address = ""
    /// What each setup step answered, for the log.
    public private(set) var log: [String] = []

    /// Opens the management socket and picks the controller (`index`, or the first in the list).
    public init(index: UInt16? = nil, keysPath: String?) throws(HardwareError) {
        mgmt = try MgmtSocket()
        if let index { self.index = index } else {
            let p = try mgmt.require(.readIndexList())
            guard p.count >= 4 else {
                throw HardwareError(.notFound, device: "bluetooth", operation: "find a controller",
                                    reason: "no Bluetooth adapter (the kernel lists none: check `ls /sys/class/bluetooth`, `rfkill list`, and that the board's Bluetooth overlay or firmware is loaded)")
            }
            self.index = UInt16(p[2]) | UInt16(p[3]) << 8
        }
        self.keysPath = keysPath
        keys = try keysPath.map { (p: String) throws(HardwareError) in try BondingKeys.load(path: p) } ?? BondingKeys()
    }

    /// Powers the controller as an LE peripheral: LE, bondable, connectable, Secure Connections
    /// (when supported), the name, the stored keys, power, and one advertising instance with the
    /// DeskPet service UUID and the name in the scan response.
    public func setUp(name: String, serviceUUID: [UInt8]) throws(HardwareError) {
        let i = index
        let info = try mgmt.require(.readInfo(i))
        if info.count >= 6 { address = info[0..<6].reversed().map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: ":") }
        for c in [MgmtCommand.setLowEnergy(i, true), .setBondable(i, true), .setConnectable(i, true), .setIOCapability(i, 3)] {
            try mgmt.require(c); log.append("\(c.name): ok")
        }
        let sc = try mgmt.run(.setSecureConnections(i, 1))
        log.append("Set Secure Connections: \(MgmtSocket.statusName(sc.status))")  // Not Supported on old controllers: legacy pairing
        try mgmt.require(.setLocalName(i, name, short: String(name.prefix(10)))); log.append("Set Local Name: ok")
        let ltk = try mgmt.run(.loadLongTermKeys(i, keys.longTermKeys))
        log.append("Load Long Term Keys (\(keys.longTermKeys.count)): \(MgmtSocket.statusName(ltk.status))")
        let irk = try mgmt.run(.loadIdentityResolvingKeys(i, keys.identityResolvingKeys))
        log.append("Load Identity Resolving Keys (\(keys.identityResolvingKeys.count)): \(MgmtSocket.statusName(irk.status))")
        try mgmt.require(.setPowered(i, true)); log.append("Set Powered: ok")
        try mgmt.require(.addAdvertising(i, instance: 1, flags: MgmtAdvertisingFlag.connectable | MgmtAdvertisingFlag.discoverable,
                                         advertisingData: AdvertisingData.advertisement(serviceUUID: serviceUUID),
                                         scanResponse: AdvertisingData.scanResponse(name: name)))
        log.append("Add Advertising: ok")
    }

    /// Changes the advertised name (the owner renamed the pet): Set Local Name and the advertising
    /// instance's scan response (Add Advertising on an existing instance replaces it).
    public func rename(_ name: String, serviceUUID: [UInt8]) throws(HardwareError) {
        try mgmt.require(.setLocalName(index, name, short: String(name.prefix(10))))
        try mgmt.require(.addAdvertising(index, instance: 1, flags: MgmtAdvertisingFlag.connectable | MgmtAdvertisingFlag.discoverable,
                                         advertisingData: AdvertisingData.advertisement(serviceUUID: serviceUUID),
                                         scanResponse: AdvertisingData.scanResponse(name: name)))
    }

    /// Pairings the kernel asked to confirm and this adapter accepted (Just Works).
    public private(set) var confirmedPairings = 0

    /// Handles waiting management events: a User Confirmation Request (a phone pairing Just
    /// Works; bluetoothd would have asked its agent) is answered as `MgmtCommand.answer`
    /// decides, new keys are stored (file rewritten, 0600). Returns how many keys were stored.
    @discardableResult
    public func poll() throws(HardwareError) -> Int {
        var stored = 0
        // A reply's wait (User Confirmation Reply) reads the events that come meanwhile (the new
        // keys) into the socket's pending list: the descriptor is not readable for them any
        // more, so they are handled here, before returning, until none is left.
        var events = mgmt.takeEvents()
        while !events.isEmpty {
            for e in events {
                switch e {
                case .userConfirmRequest(let i, let address, let type, let hint) where i == index:
                    let answer = MgmtCommand.answer(toConfirmation: i, address: address, addressType: type, confirmHint: hint)
                    try mgmt.require(answer.command)
                    if answer.accepted { confirmedPairings += 1 }
                case .newLongTermKey(let i, let hint, let k) where i == index && hint: keys.add(k); stored += 1
                case .newIdentityResolvingKey(let i, let hint, _, let k) where i == index && hint: keys.add(k); stored += 1
                default: break
                }
            }
            events = mgmt.takeEvents()
        }
        if stored > 0, let keysPath { try keys.save(path: keysPath) }
        return stored
    }
}
