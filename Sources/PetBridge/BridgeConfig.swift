/// `/etc/deskpet/bridge.conf` (docs/home-assistant.md#the-configuration-file): `key = value` lines,
/// `#` comments, blank lines. Unknown keys, a key given twice and bad values are errors naming the
/// line (never the value of `password_file`'s contents: the password is read from its own file).
public struct BridgeConfig: Sendable, Equatable {
    /// The broker: `mqtt://HOST[:PORT]` (1883) or `mqtts://HOST[:PORT]` (TLS, 8883).
    public var brokerHost = "127.0.0.1"
    public var brokerPort = 1883
    public var tls = false
    public var username: String?
    /// A file holding the broker password (its first line), mode 0600 and at most 1 KiB.
    public var passwordFile: String?
    /// CA certificates to trust for `mqtts://` (PEM); default: the system's (/etc/ssl/certs).
    public var caFile: String?
    /// The daemon's link: `unix:PATH` (default: the packaged daemon's socket) or `tcp:127.0.0.1:PORT`.
    public var link = "unix:/var/lib/deskpet/link.sock"
    /// The bridge's own files: the token, the last event seen, the MQTT session's counters.
    public var stateDir = "/var/lib/deskpet-bridge"
    /// Home Assistant's discovery prefix and birth topic (`<prefix>/status`).
    public var discoveryPrefix = "homeassistant"
    /// The bridge's topics are `<base_topic>/<node_id>/…`; entities' unique ids start with node_id.
    public var baseTopic = "deskpet"
    public var nodeID = "deskpet"
    /// The MQTT client id (a persistent session: QoS 1 commands sent while the bridge was away
    /// wait at the broker).
    public var clientID: String?
    public var keepalive = 60
    /// Which entity groups to announce.
    public var publish: Set<EntityGroup> = Set(EntityGroup.allCases)
    /// Off by default: the next task's title as a sensor (personal text leaving the device).
    public var publishNextTaskTitle = false
    /// Commands from the broker: a bucket of `commandBurst` refilled at `commandsPerSecond`.
    public var commandsPerSecond = 5
    public var commandBurst = 20

    public enum EntityGroup: String, Sendable, CaseIterable, Comparable {
        case sensors, binarySensors = "binary_sensors", switches, number, buttons, text, events, triggers
        public static func < (a: EntityGroup, b: EntityGroup) -> Bool { a.rawValue < b.rawValue }
    }

    public init() {}

    public var effectiveClientID: String { clientID ?? "deskpet-bridge-\(nodeID)" }
    /// `deskpet/<node>`.
    public var topicRoot: String { "\(baseTopic)/\(nodeID)" }

    public static let defaultPath = "/etc/deskpet/bridge.conf"

    /// Parses the file's text. `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(BridgeError) -> BridgeConfig {
        var c = BridgeConfig()
        var seen: Set<String> = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmed(" \t\r")
            if line.isEmpty || line.hasPrefix("#") { continue }
            func bad(_ why: String) -> BridgeError { .config(file: file, line: n + 1, problem: why) }
            guard let eq = line.firstIndex(of: "=") else { throw bad("not 'key = value'") }
            let key = String(line[..<eq]).trimmed(" \t")
            let value = String(line[line.index(after: eq)...]).trimmed(" \t")
            guard seen.insert(key).inserted else { throw bad("\(key) is given twice") }
            guard value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else { throw bad("\(key): a control character") }
            func word() throws(BridgeError) -> String {
                guard !value.isEmpty, !value.contains(" ") else { throw bad("\(key) needs one word") }
                return value
            }
            func number(_ range: ClosedRange<Int>) throws(BridgeError) -> Int {
                guard let v = Int(value), range.contains(v) else { throw bad("\(key) must be a whole number in \(range.lowerBound)–\(range.upperBound)") }
                return v
            }
            func topicWord() throws(BridgeError) -> String {
                let w = try word()
                guard w.count <= 64, w.utf8.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 95 || $0 == 45 }) else {
                    throw bad("\(key) must be 1–64 letters, digits, '_' or '-' (it is part of MQTT topics)")
                }
                return w
            }
            switch key {
            case "broker":
                let w = try word()
                let scheme: String, rest: Substring
                if w.hasPrefix("mqtt://") { scheme = "mqtt"; rest = w.dropFirst(7) }
                else if w.hasPrefix("mqtts://") { scheme = "mqtts"; rest = w.dropFirst(8) }
                else { throw bad("broker must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT]") }
                var host = rest, port = scheme == "mqtts" ? 8883 : 1883
                if host.hasSuffix("/") { host = host.dropLast() }
                if let colon = host.lastIndex(of: ":"), !host.hasPrefix("[") || host[..<colon].hasSuffix("]") {
                    guard let p = Int(host[host.index(after: colon)...]), (1...65535).contains(p) else { throw bad("broker: the port must be 1–65535") }
                    port = p; host = host[..<colon]
                }
                if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
                guard !host.isEmpty, !host.contains("/"), !host.contains("@") else { throw bad("broker: no host (credentials go in username and password_file)") }
                c.brokerHost = String(host); c.brokerPort = port; c.tls = scheme == "mqtts"
            case "username": c.username = value.isEmpty ? nil : value
            case "password_file": c.passwordFile = try word()
            case "ca_file": c.caFile = try word()
            case "link":
                let w = try word()
                guard w.hasPrefix("unix:") || w.hasPrefix("tcp:") else { throw bad("link must be unix:PATH or tcp:HOST:PORT") }
                c.link = w
            case "state_dir": c.stateDir = try word()
            case "discovery_prefix": c.discoveryPrefix = try topicWord()
            case "base_topic": c.baseTopic = try topicWord()
            case "node_id": c.nodeID = try topicWord()
            case "client_id":
                let w = try word()
                guard w.utf8.count <= 64 else { throw bad("client_id is at most 64 bytes") }
                c.clientID = w
            case "keepalive": c.keepalive = try number(5...3600)
            case "publish":
                var groups: Set<EntityGroup> = []
                for part in value.split(separator: ",") {
                    let name = part.trimmed(" ")
                    if name == "all" { groups.formUnion(EntityGroup.allCases); continue }
                    guard let g = EntityGroup(rawValue: name) else {
                        throw bad("publish: unknown group '\(name.prefix(32))' (all, \(EntityGroup.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    groups.insert(g)
                }
                c.publish = groups
            case "publish_next_task_title":
                switch value { case "yes": c.publishNextTaskTitle = true; case "no": c.publishNextTaskTitle = false
                default: throw bad("publish_next_task_title must be yes or no") }
            case "commands_per_second": c.commandsPerSecond = try number(1...1000)
            case "command_burst": c.commandBurst = try number(1...10000)
            default: throw bad("unknown key '\(key.prefix(40))'")
            }
        }
        return c
    }
}

extension StringProtocol {
    func trimmed(_ set: String) -> String {
        let drop = Set(set)
        var s = Substring(self)
        while let f = s.first, drop.contains(f) { s = s.dropFirst() }
        while let l = s.last, drop.contains(l) { s = s.dropLast() }
        return String(s)
    }
}

/// What went wrong in the bridge, naming what and where; never personal text.
public enum BridgeError: Error, Sendable, Equatable, CustomStringConvertible {
    case config(file: String, line: Int, problem: String)
    case file(path: String, problem: String)
    case mqtt(what: String, reason: String)
    case link(String)
    case usage(String)

    public var description: String {
        switch self {
        case let .config(f, l, p): "\(f):\(l): \(p)"
        case let .file(p, why): "\(p): \(why)"
        case let .mqtt(w, r): "MQTT \(w): \(r)"
        case .link(let s): "device link: \(s)"
        case .usage(let s): s
        }
    }
}
