import XCTest
#if canImport(Glibc)
import Glibc
#endif
import PetDevice
import PetLink
@testable import PetLinux
import TestSupport

/// The one listening-socket helper under `SocketLink` and `WebLink`: a listener in an epoll set,
/// connections accepted nonblocking, reads and writes that never block.
final class StreamSocketsTests: XCTestCase {
    func connectTCP(_ port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_port = port.bigEndian
        sa.sin_addr.s_addr = UInt32(127) | UInt32(1) << 24
        let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        XCTAssertEqual(r, 0, errnoText())
        return fd
    }

    func waitReady(_ s: StreamSockets) throws -> [StreamSockets.Ready] {
        for _ in 0..<200 {
            let r = try s.ready(device: "test")
            if !r.isEmpty { return r }
            try PollWait.wait(for: [s.epoll], timeoutMs: 10)
        }
        return []
    }

    func testAcceptReadWriteAndTheEndOfAStream() throws {
        let s = try StreamSockets(listening: .tcp(host: "127.0.0.1", port: 0), name: "test")
        XCTAssertNotEqual(s.port, 0, "port 0: the kernel's choice is reported")
        XCTAssertEqual(s.accept(), nil, "nobody waits")
        let peer = try connectTCP(s.port)
        defer { close(peer) }
        XCTAssertEqual(try waitReady(s).map(\.fd), [s.listener])
        let fd = try XCTUnwrap(s.accept())
        XCTAssertNotEqual(fcntl(fd, F_GETFL) & O_NONBLOCK, 0, "nonblocking")
        XCTAssertNotEqual(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0, "close-on-exec")
        StreamSockets.tune(fd)
        try s.watch(fd, add: true)
        XCTAssertEqual(StreamSockets.read(fd, budget: 1024).bytes, [], "nothing yet, and no end")
        XCTAssertFalse(StreamSockets.read(fd, budget: 1024).ended)
        _ = Array("ping".utf8).withUnsafeBytes { write(peer, $0.baseAddress, $0.count) }
        let ready = try waitReady(s)
        XCTAssertEqual(ready.map(\.fd), [fd])
        XCTAssertTrue(ready[0].readable)
        let got = StreamSockets.read(fd, budget: 1024)
        XCTAssertEqual(got.bytes, Array("ping".utf8))
        XCTAssertFalse(got.ended)
        XCTAssertEqual(Array("pong".utf8).withUnsafeBytes { StreamSockets.write(fd, $0) }, .bytes(4))
        var buf = [UInt8](repeating: 0, count: 8)
        XCTAssertEqual(buf.withUnsafeMutableBytes { read(peer, $0.baseAddress, $0.count) }, 4)
        // A peer that does not read: the kernel stops taking bytes, the write says so, never blocks.
        let chunk = [UInt8](repeating: 7, count: 65_536)
        var written = 0, blocked = false
        for _ in 0..<1024 {
            switch chunk.withUnsafeBytes({ StreamSockets.write(fd, $0) }) {
            case .bytes(let n): written += n
            case .wouldBlock: blocked = true
            case .failed: XCTFail("failed")
            }
            if blocked { break }
        }
        XCTAssertTrue(blocked, "after \(written) bytes")
        // The peer goes: the end of the stream is reported with what came before.
        _ = Array("bye".utf8).withUnsafeBytes { write(peer, $0.baseAddress, $0.count) }
        shutdown(peer, Int32(SHUT_WR))
        _ = try waitReady(s)
        let last = StreamSockets.read(fd, budget: 1024)
        XCTAssertEqual(last.bytes, Array("bye".utf8))
        XCTAssertTrue(last.ended)
        s.close(fd)
        s.close()
        XCTAssertEqual(s.epoll, -1)
        XCTAssertEqual(try s.ready(device: "test").count, 0, "closed: nothing, no error")
    }

    func testAUnixSocketIsPrivateAndRemovedOnCloseAndABadAddressIsRefused() throws {
        let dir = try makeTemporaryDirectory("stream-sockets")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.sock").path
        let s = try StreamSockets(listening: .unix(path: path), name: "unix:\(path)")
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertEqual(s.port, 0)
        s.close()
        XCTAssertNotEqual(stat(path, &st), 0, "removed")
        XCTAssertThrowsError(try StreamSockets(listening: .tcp(host: "localhost", port: 0), name: "x")) { error in
            XCTAssertTrue("\(error)".contains("IPv4"), "\(error)")
        }
    }
}
