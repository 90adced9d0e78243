#if canImport(Glibc)
import Glibc
#endif
import CBluetooth
import CLinux
import PetDevice
import PetLink

/// The phone link over Bluetooth LE: an L2CAP LE socket on the ATT fixed channel (CID 4) accepts
/// connections; each runs a `GATTSession` of one shared `GATTServer`. Phone-protocol frames written
/// to the command characteristic come out as `LinkEvent.frame`; `send` turns a frame into event
/// notifications (or indications). One descriptor for the loop: an epoll set of the listener,
/// every connection and the management socket. Never blocks.
public final class BLELink: PhoneLink {
    public let server: GATTServer
    public let adapter: BLEAdapter?
    private let epollFD: Int32
    private var listener: Int32 = -1
    final class Connection {
        let fd: Int32
        let session: GATTSession
        /// PDUs the socket would not take yet (a client that does not read).
        var outbox: [[UInt8]] = []
        var outboxBytes = 0
        /// BT_SECURITY level to assume when the socket is not Bluetooth (tests).
        var securityOverride: Int?
        init(fd: Int32, session: GATTSession) { self.fd = fd; self.session = session }
    }
    private var connections: [Int: Connection] = [:]
    private var nextClient = 1
    private var events: [LinkEvent] = []
    /// Bytes a client may leave unread before it is dropped.
    public var maxOutboxBytes = 64 * 1024
    /// Most connections at once; more are accepted and closed at once.
    public var maxConnections = 8
    /// Every PDU in and out, for a btsnoop capture (nil: off).
    public var recorder: ((_ client: Int, _ received: Bool, _ pdu: [UInt8]) -> Void)?

    /// A link without a listener (connections come through `adopt`; tests).
    public init(server: GATTServer, adapter: BLEAdapter? = nil) throws(HardwareError) {
        self.server = server
        self.adapter = adapter
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw LinuxError.make("ble", "epoll_create1", errno: errno, kind: .other) }
        if let adapter { try watch(adapter.mgmt.fd, "the management socket") }
    }

    deinit {
        for c in connections.values { close(c.fd) }
        if listener >= 0 { close(listener) }
        close(epollFD)
    }

    /// Listens on the ATT channel: AF_BLUETOOTH, SOCK_SEQPACKET, BTPROTO_L2CAP, any local address
    /// of type `addressType` (BDADDR_LE_PUBLIC 1, BDADDR_LE_RANDOM 2), CID 4.
    public func listen(addressType: UInt8 = UInt8(BDADDR_LE_PUBLIC)) throws(HardwareError) {
        let s = socket(AF_BLUETOOTH, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_L2CAP)
        guard s >= 0 else { throw LinuxError.make("ble", "open the L2CAP socket", errno: errno, kind: .other) }
        var a = sockaddr_l2()
        a.l2_family = sa_family_t(AF_BLUETOOTH)
        a.l2_cid = 4  // ATT; little-endian on the wire and on every host DeskPet runs on
        a.l2_bdaddr_type = addressType
        let r = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_l2>.size)) } }
        guard r == 0 else {
            let e = errno; close(s)
            var h = LinuxError.make("ble", "bind the ATT channel (CID 4)", errno: e, kind: .other)
            if e == EADDRINUSE { h.reason += ": bluetoothd serves ATT on this adapter; stop it (systemctl disable --now bluetooth)" }
            throw h
        }
        guard Glibc.listen(s, 4) == 0 else { let e = errno; close(s); throw LinuxError.make("ble", "listen on the ATT channel", errno: e, kind: .other) }
        listener = s
        try watch(s, "the ATT listener")
    }

    private func watch(_ fd: Int32, _ what: String) throws(HardwareError) {
        var ev = epoll_event()
        ev.events = EPOLLIN.rawValue
        ev.data.fd = fd
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &ev) == 0 else { throw LinuxError.make("ble", "watch \(what)", errno: errno, kind: .other) }
    }

    /// Takes an already connected SEQPACKET socket as a client (a socketpair in tests; its
    /// security level is `security` since it has no BT_SECURITY). Returns the client id.
    @discardableResult
    public func adopt(fd: Int32, security: Int = 1) throws(HardwareError) -> Int {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        try watch(fd, "a connection")
        let id = add(fd)
        connections[id]?.securityOverride = security
        return id
    }

    /// Changes an adopted client's assumed security level (a test's "the phone paired").
    public func setSecurity(client: Int, level: Int) { connections[client]?.securityOverride = level }

    public func session(client: Int) -> GATTSession? { connections[client]?.session }
    public var clients: [Int] { connections.keys.sorted() }

    @discardableResult
    private func add(_ fd: Int32) -> Int {
        let id = nextClient
        nextClient += 1
        connections[id] = Connection(fd: fd, session: GATTSession(server: server))
        events.append(.connected(client: id))
        return id
    }

    public var fileDescriptor: Int32? { epollFD }

    public func receive() throws(HardwareError) -> [LinkEvent] {
        drainEpoll()
        if let adapter { try adapter.poll() }
        acceptAll()
        for id in connections.keys.sorted() { serve(id) }
        defer { events = [] }
        return events
    }

    private func drainEpoll() {
        var ready = [epoll_event](repeating: epoll_event(), count: 16)
        _ = ready.withUnsafeMutableBufferPointer { epoll_wait(epollFD, $0.baseAddress!, Int32($0.count), 0) }
    }

    private func acceptAll() {
        guard listener >= 0 else { return }
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 { if errno == EINTR || errno == ECONNABORTED { continue }; return }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            guard connections.count < maxConnections else { close(fd); continue }
            var ev = epoll_event()
            ev.events = EPOLLIN.rawValue
            ev.data.fd = fd
            guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &ev) == 0 else { close(fd); continue }
            add(fd)
        }
    }

    /// The link's BT_SECURITY level (getsockopt SOL_BLUETOOTH); the override for other sockets.
    private func securityLevel(_ c: Connection) -> Int {
        if let o = c.securityOverride { return o }
        var s = bt_security()
        var len = socklen_t(MemoryLayout<bt_security>.size)
        guard getsockopt(c.fd, SOL_BLUETOOTH, BT_SECURITY, &s, &len) == 0 else { return 1 }
        return Int(s.level)
    }

    /// Reads every waiting PDU of a client and answers it.
    private func serve(_ id: Int) {
        guard let c = connections[id] else { return }
        flush(id)
        var buf = [UInt8](repeating: 0, count: 1024)
        while connections[id] != nil {
            let n = buf.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                drop(id); return
            }
            if n == 0 { drop(id); return }
            let pdu = Array(buf[0..<n])
            recorder?(id, true, pdu)
            c.session.securityLevel = securityLevel(c)
            let out = c.session.receive(pdu)
            for e in c.session.takeEvents() {
                switch e {
                case .frame(let f): events.append(.frame(LinkFrame(client: id, bytes: f)))
                case .frameTooLong: drop(id); return
                case .clockSet: break  // GATTServer.setClock already applied it
                }
            }
            write(id, out)
        }
    }

    private func write(_ id: Int, _ pdus: [[UInt8]]) {
        guard let c = connections[id] else { return }
        for p in pdus { recorder?(id, false, p) }
        c.outbox += pdus
        c.outboxBytes += pdus.reduce(0) { $0 + $1.count }
        flush(id)
    }

    /// Writes queued PDUs until the socket is full; a client over `maxOutboxBytes` is dropped.
    private func flush(_ id: Int) {
        guard let c = connections[id] else { return }
        while let p = c.outbox.first {
            let n = p.withUnsafeBytes { Glibc.send(c.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                drop(id); return
            }
            c.outbox.removeFirst()
            c.outboxBytes -= p.count
        }
        if c.outboxBytes > maxOutboxBytes { drop(id) }
    }

    private func drop(_ id: Int) {
        guard let c = connections.removeValue(forKey: id) else { return }
        epoll_ctl(epollFD, EPOLL_CTL_DEL, c.fd, nil)
        close(c.fd)
        events.append(.disconnected(client: id))
    }

    public func send(_ frame: LinkFrame) throws(HardwareError) {
        guard let c = connections[frame.client] else { return }
        write(frame.client, c.session.send(frame: frame.bytes))
        if c.session.eventReadOverflow { drop(frame.client) }   // reads the event characteristic, too slowly
    }

    /// Drops a client; its `.disconnected` comes with the next `receive`.
    public func disconnect(client: Int) { drop(client) }
}
