#if canImport(Glibc)
import Glibc
#endif
// Glibc's socket names reach a module that also links CBluetooth through its headers.
import CBluetooth
import PetIO

/// The bytes under a `LinkClient`: a stream of phone-protocol frames both ways. A TCP or Unix
/// stream socket (`SocketStream`) or GATT over an L2CAP ATT channel (`BLEStream`). The client
/// reassembles frames from whatever pieces `read` returns.
public protocol LinkByteStream: AnyObject {
    /// Where it goes, for messages (`tcp:…`, `unix:…`, `ble:…`).
    var peer: String { get }
    /// Writes all of `bytes` (one or more whole frames).
    func write(_ bytes: [UInt8]) throws(LinkClientError)
    /// The next bytes from the device. `waitMs` nil: waits up to the stream's timeout (then a
    /// `timeout` error); else up to `waitMs` and nil when nothing came. Never returns empty.
    func read(waitMs: Int32?) throws(LinkClientError) -> [UInt8]?
    func close()
}

/// A connected stream socket (TCP or Unix) with SO_RCVTIMEO/SO_SNDTIMEO set.
public final class SocketStream: LinkByteStream {
    public let peer: String
    public let timeoutSeconds: Int
    private var fd: Int32

    /// Takes a connected stream socket (closed by `close` or deinit).
    public init(fd: Int32, peer: String, timeoutSeconds: Int) {
        self.fd = fd; self.peer = peer; self.timeoutSeconds = timeoutSeconds
    }

    deinit { close() }

    public func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    public func write(_ frame: [UInt8]) throws(LinkClientError) {
        var off = 0
        while off < frame.count {
            let n = frame[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { off += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw .timeout(waitingFor: "room to send", seconds: timeoutSeconds) }
            throw .connectionLost(address: peer, reason: n == 0 ? "send returned 0" : errnoText())
        }
    }

    public func read(waitMs: Int32?) throws(LinkClientError) -> [UInt8]? {
        if let waitMs {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, waitMs)
            if r == 0 { return nil }
            if r < 0 && errno == EINTR { return nil }
        }
        var buf = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buf.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { throw .connectionLost(address: peer, reason: "the device closed the connection") }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw .timeout(waitingFor: "message", seconds: timeoutSeconds) }
                throw .connectionLost(address: peer, reason: errnoText())
            }
            return Array(buf[0..<n])
        }
    }
}
