#if canImport(Glibc)
import Glibc
#endif
// Glibc's socket names reach a module that also links CBluetooth through its headers.
import CBluetooth
import PetDevice
import PetLink

/// The phone link over TCP or a Unix stream socket: nonblocking sockets gathered in one epoll
/// descriptor (`StreamSockets`; the loop's `fileDescriptor`), clients numbered from 1. No thread: `receive()`
/// accepts, reads what is waiting and flushes queued output; `send` writes what the kernel
/// takes and queues the rest (written when the socket is writable again). A client whose queue
/// grows past `maxQueuedBytes` (it does not read) is dropped, so it can never block the device.
///
/// TCP listens on loopback unless `allowRemote` (docs/protocol.md: the board or a flag must ask).
public final class SocketLink: PhoneLink {
    public let address: LinkAddress
    /// The TCP port actually bound (useful with port 0).
    public private(set) var port: UInt16 = 0
    /// Output a client may have queued before it is dropped.
    public var maxQueuedBytes = 1 << 20
    /// Bytes read per client per `receive()` at most (others get their turn; the rest waits).
    public var readBudget = 256 * 1024
    /// Connections accepted per `receive()` at most.
    public var acceptBudget = 64

    private var sockets: StreamSockets?
    private var clients: [Int: Client] = [:]
    private var clientByFD: [Int32: Int] = [:]
    private var nextClient = 1
    /// Disconnections found while sending (reported by the next `receive()`).
    private var pending: [LinkEvent] = []

    private struct Client {
        var fd: Int32
        /// Output not yet taken by the kernel: `out[head...]` (the front is dropped in one go
        /// once it is large, not after every write).
        var out: [UInt8] = []
        var head = 0
        var watchingOut = false
    }

    public convenience init(parsing text: String, allowRemote: Bool = false) throws(LinkError) {
        try self.init(try LinkAddress.parse(text), allowRemote: allowRemote)
    }

    public init(_ address: LinkAddress, allowRemote: Bool = false) throws(LinkError) {
        self.address = address
        guard address.isLoopback || allowRemote else {
            throw .badAddress(address.description, reason: "not a loopback address: listening there needs the board's link-remote setting or --link-remote")
        }
        let sockets = try StreamSockets(listening: address, name: address.description)
        self.sockets = sockets
        port = sockets.port
    }

    deinit { close() }

    /// Closes every connection and the listener (and removes the Unix socket file).
    public func close() {
        for c in clients.keys.sorted() { disconnect(client: c) }
        sockets?.close()
        sockets = nil
    }

    public var clientCount: Int { clients.count }

    public func queuedBytes(client: Int) -> Int { clients[client].map { $0.out.count - $0.head } ?? 0 }

    // MARK: - PhoneLink

    public var fileDescriptor: Int32? { sockets?.epoll }

    public func receive() throws(HardwareError) -> [LinkEvent] {
        var events = pending
        pending = []
        guard let sockets else { return events }
        for r in try sockets.ready(device: "phone link \(address)") {
            if r.fd == sockets.listener { accept(into: &events); continue }
            guard let c = clientByFD[r.fd] else { continue }
            if r.writable { flush(c, into: &events) }
            if r.readable, clients[c] != nil { read(c, into: &events) }
        }
        return events
    }

    public func send(_ frame: LinkFrame) throws(HardwareError) {
        guard var client = clients[frame.client] else { return }
        client.out.append(contentsOf: frame.bytes)
        clients[frame.client] = client
        var events: [LinkEvent] = []
        flush(frame.client, into: &events)
        pending += events
    }

    public func disconnect(client c: Int) {
        guard let client = clients.removeValue(forKey: c) else { return }
        clientByFD.removeValue(forKey: client.fd)
        // Last words (an error frame) go out if the kernel takes them now.
        if client.out.count > client.head {
            _ = client.out.withUnsafeBytes { StreamSockets.write(client.fd, UnsafeRawBufferPointer(rebasing: $0[client.head...])) }
        }
        StreamSockets.shutdownWrites(client.fd)
        sockets?.close(client.fd)
    }

    // MARK: - Work

    private func accept(into events: inout [LinkEvent]) {
        guard let sockets else { return }
        for _ in 0..<acceptBudget {
            guard let fd = sockets.accept() else { return }   // none waiting (errors: the next wake-up tries again)
            if case .tcp = address { StreamSockets.tune(fd) }
            do { try sockets.watch(fd, add: true) } catch { Glibc.close(fd); continue }
            let c = nextClient
            nextClient += 1
            clients[c] = Client(fd: fd)
            clientByFD[fd] = c
            events.append(.connected(client: c))
        }
    }

    private func read(_ c: Int, into events: inout [LinkEvent]) {
        guard let fd = clients[c]?.fd else { return }
        let (got, ended) = StreamSockets.read(fd, budget: readBudget)
        if !got.isEmpty { events.append(.frame(LinkFrame(client: c, bytes: got))) }
        // End of stream or an error: the client is gone (after what it sent).
        if ended { gone(c, into: &events) }
    }

    private func flush(_ c: Int, into events: inout [LinkEvent]) {
        guard var client = clients[c] else { return }
        writing: while client.head < client.out.count {
            let head = client.head
            switch client.out.withUnsafeBytes({ StreamSockets.write(client.fd, UnsafeRawBufferPointer(rebasing: $0[head...])) }) {
            case .bytes(let n): client.head += n
            case .wouldBlock: break writing
            case .failed:
                clients[c] = client
                gone(c, into: &events)
                return
            }
        }
        if client.head == client.out.count { client.out.removeAll(keepingCapacity: client.out.count <= 65_536); client.head = 0 }
        else if client.head >= 65_536 { client.out.removeFirst(client.head); client.head = 0 }
        if client.out.count - client.head > maxQueuedBytes {
            clients[c] = client
            gone(c, into: &events)
            return
        }
        let wantOut = client.head < client.out.count
        if wantOut != client.watchingOut {
            client.watchingOut = wantOut
            try? sockets?.watch(client.fd, out: wantOut, add: false)
        }
        clients[c] = client
    }

    private func gone(_ c: Int, into events: inout [LinkEvent]) {
        guard let client = clients.removeValue(forKey: c) else { return }
        clientByFD.removeValue(forKey: client.fd)
        sockets?.close(client.fd)
        events.append(.disconnected(client: c))
    }

}
