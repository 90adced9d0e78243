#if canImport(Glibc)
import Glibc
#endif
// Glibc's socket names reach a module that also links CBluetooth through its headers.
import CBluetooth
import CLinux
import PetDevice
import PetLink

/// Several transports as one `PhoneLink` (`deskpet run --link ble --link unix:PATH`): the device
/// loop has one `hardware.link` and one descriptor to wait on. Each transport keeps numbering its
/// clients from 1; here transport `i`'s client `c` is `i * clientStride + c`, so ids never collide
/// and a reply goes back to the transport it came from. The descriptor is an epoll set of the
/// transports' descriptors (level-triggered: readable while any of them is).
public final class MultiLink: PhoneLink {
    /// Client ids of one transport stay below this (a transport would need 2^32 connections to
    /// reach it).
    public static let clientStride = 1 << 32
    public let links: [PhoneLink]
    private let epollFD: Int32

    public init(_ links: [PhoneLink]) throws(HardwareError) {
        self.links = links
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else {
            throw HardwareError(device: "phone link", operation: "epoll_create1", errno: errno)
        }
        for (i, l) in links.enumerated() {
            guard let fd = l.fileDescriptor else { continue }
            var ev = epoll_event()
            ev.events = EPOLLIN.rawValue
            ev.data.u64 = UInt64(i)
            guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &ev) == 0 else {
                let e = errno
                close(epollFD)
                throw HardwareError(device: "phone link", operation: "watch transport \(i + 1)", errno: e)
            }
        }
    }

    deinit { close(epollFD) }

    /// The transport and its own client id for a combined id (nil: not one of ours).
    func route(_ client: Int) -> (link: PhoneLink, client: Int)? {
        let i = client / Self.clientStride
        guard client > 0, i < links.count else { return nil }
        return (links[i], client % Self.clientStride)
    }

    static func combined(_ i: Int, _ client: Int) -> Int { i * clientStride + client }

    public var fileDescriptor: Int32? { epollFD }

    /// Every transport's events, in transport order, with combined client ids. A transport that
    /// fails is skipped (the others are still served); its failure is thrown when nothing else
    /// came, else at the next call, so the loop records it and no event is lost.
    public func receive() throws(HardwareError) -> [LinkEvent] {
        if let f = heldFailure { heldFailure = nil; throw f }
        var out: [LinkEvent] = []
        var failure: HardwareError?
        for (i, l) in links.enumerated() {
            let events: [LinkEvent]
            do { events = try l.receive() } catch { failure = failure ?? error; continue }
            for e in events {
                switch e {
                case .connected(let c): out.append(.connected(client: Self.combined(i, c)))
                case .disconnected(let c): out.append(.disconnected(client: Self.combined(i, c)))
                case .frame(let f): out.append(.frame(LinkFrame(client: Self.combined(i, f.client), bytes: f.bytes)))
                }
            }
        }
        if let failure, out.isEmpty { throw failure }
        heldFailure = failure
        return out
    }

    private var heldFailure: HardwareError?

    public func send(_ frame: LinkFrame) throws(HardwareError) {
        guard let (l, c) = route(frame.client) else { return }
        try l.send(LinkFrame(client: c, bytes: frame.bytes))
    }

    public func disconnect(client: Int) {
        guard let (l, c) = route(client) else { return }
        l.disconnect(client: c)
    }

    public func queuedBytes(client: Int) -> Int {
        guard let (l, c) = route(client) else { return 0 }
        return l.queuedBytes(client: c)
    }
}
