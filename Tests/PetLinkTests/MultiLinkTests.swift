import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PetDevice
@testable import PetLink
import PetSim
import TestSupport
import XCTest
import PetLinux

/// A transport that hands out scripted events; readable (a pipe with a byte in it) while it has some.
private final class FakeLink: PhoneLink {
    let pipeFDs: [Int32] = {
        var p: [Int32] = [-1, -1]
        _ = pipe(&p)
        for fd in p { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        return p
    }()
    var fd: Int32 { pipeFDs[0] }
    var waiting: [LinkEvent] = [] { didSet { if !waiting.isEmpty { var b: UInt8 = 1; _ = Glibc.write(pipeFDs[1], &b, 1) } } }
    var sent: [LinkFrame] = []
    var dropped: [Int] = []
    var failure: HardwareError?
    deinit { close(pipeFDs[0]); close(pipeFDs[1]) }
    var fileDescriptor: Int32? { fd }
    func receive() throws(HardwareError) -> [LinkEvent] {
        var b = [UInt8](repeating: 0, count: 64)
        while b.withUnsafeMutableBytes({ Glibc.read(fd, $0.baseAddress, $0.count) }) > 0 {}
        if let f = failure { failure = nil; throw f }
        defer { waiting = [] }
        return waiting
    }
    func send(_ frame: LinkFrame) throws(HardwareError) { sent.append(frame) }
    func disconnect(client: Int) { dropped.append(client) }
}

final class MultiLinkTests: XCTestCase {
    private func readable(_ fd: Int32?) -> Bool {
        var p = pollfd(fd: fd ?? -1, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) == 1
    }

    func testClientIdsAreDistinctAndRepliesGoBack() throws {
        let a = FakeLink(), b = FakeLink()
        let multi = try MultiLink([a, b])
        XCTAssertFalse(readable(multi.fileDescriptor), "nothing waiting")
        a.waiting = [.connected(client: 1), .frame(LinkFrame(client: 1, bytes: [1]))]
        b.waiting = [.connected(client: 1), .disconnected(client: 1)]
        XCTAssertTrue(readable(multi.fileDescriptor), "one descriptor for both transports")
        let s = MultiLink.clientStride
        XCTAssertEqual(try multi.receive(), [.connected(client: 1), .frame(LinkFrame(client: 1, bytes: [1])),
                                             .connected(client: s + 1), .disconnected(client: s + 1)])
        XCTAssertFalse(readable(multi.fileDescriptor))
        try multi.send(LinkFrame(client: s + 1, bytes: [2]))
        try multi.send(LinkFrame(client: 1, bytes: [3]))
        try multi.send(LinkFrame(client: 5 * s + 1, bytes: [4]))   // no such transport: ignored
        multi.disconnect(client: s + 1)
        multi.disconnect(client: 0)
        XCTAssertEqual(a.sent, [LinkFrame(client: 1, bytes: [3])])
        XCTAssertEqual(b.sent, [LinkFrame(client: 1, bytes: [2])])
        XCTAssertEqual(b.dropped, [1])
        XCTAssertEqual(a.dropped, [])
    }

    func testAFailingTransportDoesNotStopTheOthers() throws {
        let a = FakeLink(), b = FakeLink()
        let multi = try MultiLink([a, b])
        a.failure = HardwareError(device: "ble", operation: "accept", reason: "test")
        b.waiting = [.connected(client: 7)]
        XCTAssertEqual(try multi.receive(), [.connected(client: MultiLink.clientStride + 7)], "b's event is not lost")
        XCTAssertThrowsError(try multi.receive(), "a's failure comes next") { XCTAssertEqual(($0 as? HardwareError)?.device, "ble") }
        XCTAssertEqual(try multi.receive(), [])
        a.failure = HardwareError(device: "ble", operation: "accept", reason: "again")
        XCTAssertThrowsError(try multi.receive(), "alone: thrown at once")
    }

    /// Two real Unix-socket transports behind one MultiLink, served by the device: each client
    /// says hello and gets its welcome on its own socket.
    func testTwoSocketTransportsServedByOneLoop() throws {
        let dir = try makeTemporaryDirectory("multilink")
        defer { removeTemporaryDirectory(dir) }
        let paths = ["a.sock", "b.sock"].map { dir.appendingPathComponent($0).path }
        let links = try paths.map { try SocketLink(parsing: "unix:\($0)") }
        let multi = try MultiLink(links)
        let sim = try SimDevice(dbPath: nil, start: Harness.start, zone: "UTC", boot: false, link: multi,
                                linkService: LinkService(random: SeededRandom(seed: 1)))
        var fds: [Int32] = []
        defer { fds.forEach { close($0) } }
        for path in paths {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var sa = sockaddr_un()
            sa.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &sa.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
            let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            XCTAssertEqual(r, 0)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let f = Frame.encode(Array(#"{"type":"hello","version":1}"#.utf8))
            _ = f.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            fds.append(fd)
        }
        var got: [[String]] = [[], []]
        for _ in 0..<200 where got.contains(where: \.isEmpty) {
            try sim.serveLink(waitingUpToMs: 10)
            for (i, fd) in fds.enumerated() {
                var buf = [UInt8](repeating: 0, count: 4096)
                let n = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { continue }
                var d = FrameDecoder(maxBody: 1 << 20)
                for body in try d.feed(Array(buf[0..<n])) {
                    let o = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
                    got[i].append(o?["type"] as? String ?? "?")
                }
            }
        }
        XCTAssertEqual(got, [["welcome"], ["welcome"]])
    }
}
