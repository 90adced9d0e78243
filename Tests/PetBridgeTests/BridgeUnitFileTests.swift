import Foundation
import TestSupport
import XCTest

/// The bridge's systemd unit (packaging/deskpet-bridge.service, docs/home-assistant.md): the
/// network for the broker and the Unix link, nothing else — no Bluetooth, no devices, no
/// capabilities — and the daemon's own folder read-only.
final class BridgeUnitFileTests: XCTestCase {
    func settings() throws -> [String: [String]] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("packaging/deskpet-bridge.service"), encoding: .utf8)
        var out: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && line.contains("=") {
            let kv = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            out[String(kv[0]), default: []].append(String(kv[1]))
        }
        return out
    }

    func testNetworkYesBluetoothAndDevicesNo() throws {
        let s = try settings()
        let families = Set((s["RestrictAddressFamilies"] ?? []).flatMap { $0.split(separator: " ").map(String.init) })
        XCTAssertEqual(families, ["AF_UNIX", "AF_INET", "AF_INET6"], "the broker (IPv4/6) and the link socket; no AF_BLUETOOTH, no AF_NETLINK")
        XCTAssertNil(s["PrivateNetwork"], "the broker is on the network")
        XCTAssertNil(s["IPAddressDeny"])
        XCTAssertEqual(s["PrivateDevices"], ["yes"])
        XCTAssertEqual(s["DevicePolicy"], ["closed"])
        XCTAssertNil(s["DeviceAllow"], "no device at all")
        XCTAssertEqual(s["CapabilityBoundingSet"], [""])
        XCTAssertEqual(s["AmbientCapabilities"], [""])
        XCTAssertEqual(s["NoNewPrivileges"], ["yes"])
        XCTAssertNil(s["SupplementaryGroups"], "not in the bluetooth or gpio groups")
        XCTAssertEqual(s["User"], ["deskpet"])
        XCTAssertEqual(s["ReadOnlyPaths"], ["/var/lib/deskpet"])
        XCTAssertEqual(s["ProtectSystem"], ["strict"])
        XCTAssertEqual(s["StateDirectory"], ["deskpet-bridge"])
        XCTAssertEqual(s["ExecStart"], ["/usr/bin/deskpet-bridge --config /etc/deskpet/bridge.conf run"])
        XCTAssertEqual(s["RestartPreventExitStatus"], ["2 5"], "a bad configuration and a lost pairing are not restarted")
    }
}
