import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PetCore
import PetDevice
@testable import PetLink
import PetSim
import TestSupport
import XCTest
import PetLinux

/// The socket transport with real sockets (no sleeping: nonblocking clients and bounded polling
/// loops), served by a simulated device.
final class SocketLinkTests: XCTestCase {
    var dir: URL?
    override func tearDown() { removeTemporaryDirectory(dir) }

    private func device(_ address: String, maxQueued: Int? = nil) throws -> (SimDevice, SocketLink, LinkService) {
        let link = try SocketLink(parsing: address)
        if let maxQueued { link.maxQueuedBytes = maxQueued }
        let service = LinkService(random: SeededRandom(seed: 1))
        let sim = try SimDevice(dbPath: nil, start: Harness.start, zone: "UTC", boot: false, link: link, linkService: service)
        return (sim, link, service)
    }

    /// A client socket (nonblocking after connecting): `SocketClientTesting.client`.
    private func client(_ link: SocketLink) throws -> Int32 { try SocketClientTesting.client(link) }

    private func write(_ fd: Int32, _ json: String) { SocketClientTesting.sendFrame(fd, json) }

    /// Reads what is waiting; nil at end of stream.
    private func readNow(_ fd: Int32) -> [UInt8]? {
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65_536)
        while true {
            let r = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if r > 0 { out += buf[0..<r]; continue }
            if r == 0 { return out.isEmpty ? nil : out }
            return out
        }
    }

    /// Serves and reads until `fd` has `count` messages (or the stream ends), at most 500 rounds.
    private func messages(_ sim: SimDevice, _ fd: Int32, count: Int) throws -> (messages: [[String: Any]], ended: Bool) {
        var d = FrameDecoder(maxBody: 1 << 24)
        var out: [[String: Any]] = []
        for _ in 0..<500 {
            try sim.serveLink(waitingUpToMs: 10)
            guard let bytes = readNow(fd) else { return (out, true) }
            for b in try d.feed(bytes) { out.append(try XCTUnwrapDict(JSONSerialization.jsonObject(with: Data(b)))) }
            if out.count >= count { return (out, false) }
        }
        return (out, false)
    }

    func testUnixSocketHelloAndFileMode() throws {
        dir = try makeTemporaryDirectory("link-unix")
        let path = dir!.appendingPathComponent("pet.sock").path
        let (sim, link, _) = try device("unix:\(path)")
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        let fd = try client(link)
        defer { close(fd) }
        write(fd, #"{"type":"hello","version":1}"#)
        let (ms, _) = try messages(sim, fd, count: 1)
        XCTAssertEqual(ms.first?["type"] as? String, "welcome")
        link.close()
        XCTAssertNotEqual(access(path, F_OK), 0, "the socket file is removed")
    }

    func testTheSocketOfARunningDeviceIsNeverReplacedAndAStaleOneIs() throws {
        dir = try makeTemporaryDirectory("link-unix-twice")
        let path = dir!.appendingPathComponent("pet.sock").path
        let (sim, link, _) = try device("unix:\(path)")
        var before = stat()
        XCTAssertEqual(stat(path, &before), 0)
        // A second device on the same path is refused, and the first one's socket stays.
        XCTAssertThrowsError(try SocketLink(parsing: "unix:\(path)")) { error in
            XCTAssertTrue("\(error)".contains("another process"), "\(error)")
        }
        var after = stat()
        XCTAssertEqual(stat(path, &after), 0)
        XCTAssertEqual(after.st_ino, before.st_ino, "the socket file was not replaced")
        let fd = try client(link)
        defer { close(fd) }
        write(fd, #"{"type":"hello","version":1}"#)
        XCTAssertEqual(try messages(sim, fd, count: 1).messages.first?["type"] as? String, "welcome")

        // A socket file nobody serves any more (a crashed daemon's) is replaced.
        let stale = dir!.appendingPathComponent("stale.sock").path
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &sa.sun_path) { raw in for (i, b) in stale.utf8.enumerated() { raw[i] = b } }
        XCTAssertEqual(withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }, 0)
        close(s)   // left behind, as a crash leaves it
        let taken = try SocketLink(parsing: "unix:\(stale)")
        taken.close()
        // A regular file at the path is never touched.
        let plain = dir!.appendingPathComponent("plain").path
        XCTAssertTrue(FileManager.default.createFile(atPath: plain, contents: Data("x".utf8)))
        XCTAssertThrowsError(try SocketLink(parsing: "unix:\(plain)"))
        XCTAssertEqual(FileManager.default.contents(atPath: plain), Data("x".utf8))
    }

    func testTCPLoopbackOnlyUnlessAsked() throws {
        let (sim, link, _) = try device("tcp:127.0.0.1:0")
        XCTAssertGreaterThan(link.port, 0)
        let fd = try client(link)
        defer { close(fd) }
        write(fd, #"{"type":"ping"}"#)
        write(fd, #"{"type":"hello","version":1}"#)
        write(fd, #"{"type":"ping"}"#)
        let (ms, _) = try messages(sim, fd, count: 3)
        XCTAssertEqual(ms.map { $0["type"] as? String ?? $0["code"] as? String }, ["error", "welcome", "pong"])
        XCTAssertThrowsError(try SocketLink(parsing: "tcp:0.0.0.0:0")) {
            guard case .badAddress = $0 as? LinkError else { return XCTFail("\($0)") }
        }
        XCTAssertNoThrow(try SocketLink(parsing: "tcp:0.0.0.0:0", allowRemote: true))
    }

    func testAHundredClientsConnectAtOnce() throws {
        dir = try makeTemporaryDirectory("link-many")
        let (sim, link, service) = try device("unix:\(dir!.appendingPathComponent("s").path)")
        var fds: [Int32] = []
        defer { fds.forEach { close($0) } }
        for _ in 0..<100 { fds.append(try client(link)) }
        for _ in 0..<10 { try sim.serveLink(waitingUpToMs: 5) }
        XCTAssertEqual(service.clientCount, 16)
        XCTAssertEqual(link.clientCount, 16)
        // The refused ones read their error and the end of the stream; the served ones get answers.
        var refused = 0, served = 0
        for fd in fds {
            write(fd, #"{"type":"hello","version":1}"#)
            let (ms, ended) = try messages(sim, fd, count: 1)
            if ms.first?["code"] as? String == "too_many_clients" { refused += 1; XCTAssertTrue(ended || ms.count == 1) }
            else if ms.first?["type"] as? String == "welcome" { served += 1 }
        }
        XCTAssertEqual(refused, 84)
        XCTAssertEqual(served, 16)
    }

    func testAClientThatNeverReadsIsDroppedAndOthersAreServed() throws {
        dir = try makeTemporaryDirectory("link-slow")
        let (sim, link, service) = try device("unix:\(dir!.appendingPathComponent("s").path)", maxQueued: 16_384)
        let slow = try client(link), good = try client(link)
        defer { close(slow); close(good) }
        write(good, #"{"type":"hello","version":1}"#)
        XCTAssertEqual(try messages(sim, good, count: 1).messages.first?["type"] as? String, "welcome")
        // The slow client asks for a welcome again and again and never reads one.
        let hello = Frame.encode(Array(#"{"type":"hello","version":1}"#.utf8))
        let batch = Array([[UInt8]](repeating: hello, count: 200).joined())
        var dropped = false
        for _ in 0..<400 {
            _ = batch.withUnsafeBytes { Glibc.send(slow, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            try sim.serveLink(waitingUpToMs: 1)
            if service.clientCount == 1 { dropped = true; break }
        }
        XCTAssertTrue(dropped, "the client that does not read is dropped")
        write(good, #"{"type":"ping"}"#)
        XCTAssertEqual(try messages(sim, good, count: 1).messages.first?["type"] as? String, "pong")
    }
}
