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

/// Test clients of a `SocketLink` shared by the socket tests: connect over Unix or TCP loopback,
/// write one framed message.
enum SocketClientTesting {
    /// A client socket connected to `link` (nonblocking after connecting).
    static func client(_ link: SocketLink) throws -> Int32 {
        let fd: Int32
        switch link.address {
        case .unix(let path):
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var sa = sockaddr_un()
            sa.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &sa.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
            let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            guard r == 0 else { throw HarnessError(description: "connect: \(String(cString: strerror(errno)))") }
        case .tcp:
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var sa = sockaddr_in()
            sa.sin_family = sa_family_t(AF_INET)
            sa.sin_port = link.port.bigEndian
            sa.sin_addr.s_addr = UInt32(127) | UInt32(1) << 24
            let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            guard r == 0 else { throw HarnessError(description: "connect: \(String(cString: strerror(errno)))") }
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// One framed message written to `fd`.
    static func sendFrame(_ fd: Int32, _ json: String) {
        let f = Frame.encode(Array(json.utf8))
        _ = f.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
