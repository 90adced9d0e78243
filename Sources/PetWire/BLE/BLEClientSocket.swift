#if canImport(Glibc)
import Glibc
#endif
import CBluetooth
import PetIO

/// The phone's end of the BLE link (`deskpetctl --ble`): an L2CAP LE socket (AF_BLUETOOTH,
/// SOCK_SEQPACKET, BTPROTO_L2CAP) connected to the device's ATT channel (CID 4), BT_SECURITY
/// medium set before connecting so the kernel encrypts the link (pairing Just Works the first
/// time, the stored key after). The GATT logic is `BLEStream` on the descriptor.
public enum BLEClientSocket {
    /// An adapter the kernel knows: `hciN`, up or not, its address.
    public struct Adapter: Sendable, Equatable { public var name: String; public var up: Bool; public var address: String }

    /// Adapters by HCIGETDEVINFO (hci0…hci15).
    public static func adapters() -> [Adapter] {
        var out: [Adapter] = []
        for id in Int32(0)..<16 {
            var di = hci_dev_info()
            guard hci_devinfo(id, &di) == 0 else { continue }
            let b = withUnsafeBytes(of: di.bdaddr) { Array($0) }
            let addr = BLEAddress(bytes: b.reversed(), random: false).description
            out.append(Adapter(name: "hci\(id)", up: di.flags & 1 != 0, address: addr))   // bit 0: HCI_UP
        }
        return out
    }

    /// Checks that some adapter is up: `noAdapter`, `adapterDown` otherwise.
    public static func checkAdapters() throws(BLEClientError) {
        let all = adapters()
        if all.isEmpty { throw .noAdapter }
        if !all.contains(where: \.up) { throw .adapterDown(all.map(\.name)) }
    }

    /// Connects to `address` (waits up to `timeoutSeconds`); returns the connected descriptor.
    public static func connect(_ address: BLEAddress, timeoutSeconds: Int) throws(BLEClientError) -> Int32 {
        let name = address.description
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_L2CAP)
        guard fd >= 0 else { throw .noBluetooth(reason: errnoText()) }
        var ok = false
        defer { if !ok { close(fd) } }
        try checkAdapters()

        var local = sockaddr_l2()
        local.l2_family = sa_family_t(AF_BLUETOOTH)
        local.l2_cid = 4   // ATT (little-endian on the wire and on every host DeskPet runs on)
        local.l2_bdaddr_type = UInt8(BDADDR_LE_PUBLIC)
        let b = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_l2>.size)) } }
        guard b == 0 else { throw .connectFailed(address: name, reason: "bind: " + errnoText()) }

        var sec = bt_security()
        sec.level = UInt8(BT_SECURITY_MEDIUM)
        guard setsockopt(fd, SOL_BLUETOOTH, BT_SECURITY, &sec, socklen_t(MemoryLayout<bt_security>.size)) == 0 else {
            throw .connectFailed(address: name, reason: "setsockopt BT_SECURITY: " + errnoText())
        }

        var remote = sockaddr_l2()
        remote.l2_family = sa_family_t(AF_BLUETOOTH)
        remote.l2_cid = 4
        remote.l2_bdaddr_type = UInt8(address.random ? BDADDR_LE_RANDOM : BDADDR_LE_PUBLIC)
        withUnsafeMutableBytes(of: &remote.l2_bdaddr) { raw in
            for (i, byte) in address.bytes.reversed().enumerated() { raw[i] = byte }   // bdaddr_t is little-endian
        }
        // The agent listens before the connection exists: the kernel asks for the confirmation
        // as soon as the link is up, often before connect returns.
        let agent = try? JustWorksAgent()
        // Nonblocking connect, bounded by poll (a blocking one would wait for the kernel's own timeout).
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let r = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_l2>.size)) } }
        var failure: Int32 = 0
        if r != 0 {
            guard errno == EINPROGRESS || errno == EAGAIN else { throw mapConnect(errno, name) }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            var n: Int32
            repeat { n = poll(&p, 1, Int32(max(1, timeoutSeconds) * 1000)) } while n < 0 && errno == EINTR
            agent?.poll()
            if n == 0 { throw .addressNotFound(address: name, reason: "no connection within \(timeoutSeconds) s") }
            var len = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &len)
        }
        if failure != 0 { throw mapConnect(failure, name) }
        try awaitEncryption(fd, name, agent: agent, timeoutSeconds: timeoutSeconds)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var tv = timeval(tv_sec: max(1, timeoutSeconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        ok = true
        return fd
    }

    /// The ATT channel is ready before the link is encrypted: waits (bounded by poll) for the
    /// kernel's pairing or re-encryption to reach BT_SECURITY medium, answering its Just Works
    /// confirmation itself (`JustWorksAgent`) when it may open the management socket (root or
    /// CAP_NET_ADMIN; else bluetoothd's agent must). A link that stays unencrypted is
    /// `pairingNeeded`: the device refuses every command on it.
    static func awaitEncryption(_ fd: Int32, _ name: String, agent: JustWorksAgent?, timeoutSeconds: Int) throws(BLEClientError) {
        if (securityLevel(fd) ?? 0) >= 2 { return }
        var elapsed: Int32 = 0
        let limit = Int32(max(1, min(timeoutSeconds, 15)) * 1000)
        while elapsed < limit {
            agent?.poll()
            if (securityLevel(fd) ?? 0) >= 2 { return }
            var p = [pollfd(fd: agent?.mgmt.fd ?? -1, events: Int16(POLLIN), revents: 0),
                     pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            _ = Glibc.poll(&p, 2, 50)
            if p[1].revents & Int16(POLLHUP | POLLERR) != 0 { return }   // dropped: the first read says so
            elapsed += 50
        }
        throw .pairingNeeded(address: name)
    }

    /// The link's security level now (BT_SECURITY_LOW 1 … HIGH 3).
    public static func securityLevel(_ fd: Int32) -> Int? {
        var s = bt_security()
        var len = socklen_t(MemoryLayout<bt_security>.size)
        guard getsockopt(fd, SOL_BLUETOOTH, BT_SECURITY, &s, &len) == 0 else { return nil }
        return Int(s.level)
    }

    static func mapConnect(_ e: Int32, _ name: String) -> BLEClientError {
        let text = errnoText(e)
        switch e {
        case ETIMEDOUT, EHOSTDOWN, ECONNREFUSED: return .addressNotFound(address: name, reason: text)
        case EACCES, EPERM: return .pairingNeeded(address: name)   // SMP failed: the link stays unencrypted
        case EHOSTUNREACH:
            do { try checkAdapters() } catch { return error }
            return .connectFailed(address: name, reason: "\(text): no adapter with Low Energy enabled ('btmgmt le on')")
        default: return .connectFailed(address: name, reason: text)
        }
    }

    /// Connects, then opens the GATT stream (MTU, discovery, notifications). Failures to reach
    /// the device (no adapter, adapter down, nothing at the address) come as `unreachable` (the
    /// message is the `BLEClientError`'s); no Bluetooth in the kernel, pairing needed, no DeskPet
    /// service as `bluetooth`; else `timeout` or `connectionLost`.
    public static func openStream(_ address: BLEAddress, timeoutSeconds: Int) throws(LinkClientError) -> BLEStream {
        let fd: Int32
        do { fd = try connect(address, timeoutSeconds: timeoutSeconds) } catch {
            switch error {
            case .pairingNeeded, .badAddress, .noBluetooth: throw .bluetooth(error)
            default: throw .unreachable(address: "ble:\(address)", reason: error.description)
            }
        }
        let stream = BLEStream(socketFD: fd, peer: "ble:\(address)", timeoutSeconds: timeoutSeconds)
        try stream.open()
        return stream
    }
}
