#if canImport(Glibc)
import Glibc
#endif
import PetBridge
import PetIO
import PetWire

let usage = """
deskpet-bridge — DeskPet in Home Assistant over MQTT (docs/home-assistant.md)

A paired client of the daemon's link (like a phone) on one side, an MQTT broker on the other:
announces the pet to Home Assistant by MQTT discovery (sensors, switches, buttons, events,
device triggers for the pet's keys), publishes its state and events, and turns Home Assistant's
commands into device commands. The daemon itself stays without a network.

Usage:
  deskpet-bridge [run]        bridge until SIGTERM/SIGINT (the systemd unit runs this)
  deskpet-bridge pair         pair with the device once: type the code its screen shows
                              (--code NNNNNN to give it; --name NAME, default "Home Assistant")
  deskpet-bridge forget       remove every entity from Home Assistant (empty retained configs
                              and state) and exit; the pairing is kept
  deskpet-bridge check        read the configuration and the state folder, print what they say
  deskpet-bridge circle …     circles of friends over a broker (deskpet-bridge circle --help)

Options:
  --config FILE   the configuration (default /etc/deskpet/bridge.conf; keys below)
  --verbose       also log each command the device refused or answered as a duplicate
  --help, -h      this text
  --version       the version

Configuration (key = value; # comments):
  broker = mqtt://HOST[:PORT] | mqtts://HOST[:PORT]   (default mqtt://127.0.0.1:1883)
  username = NAME              password_file = FILE (its first line; 0600, at most 1 KiB)
  ca_file = FILE               CA certificates for mqtts:// (default: the system's)
  link = unix:PATH | tcp:127.0.0.1:PORT   the daemon's link (default unix:/var/lib/deskpet/link.sock)
  state_dir = DIR              token, last event and key gesture delivered, MQTT session
                               (default /var/lib/deskpet-bridge)
  discovery_prefix = homeassistant     base_topic = deskpet     node_id = deskpet
  client_id = ID               (default deskpet-bridge-<node_id>)   keepalive = 60
  publish = all | sensors,binary_sensors,switches,number,buttons,text,events,triggers
  publish_next_task_title = no (yes: the next task's title leaves the device as a sensor)
  commands_per_second = 5      command_burst = 20   (more from the broker are dropped, logged)

Exit status: 0 stopped, 1 failed (a message says why), 2 usage or configuration, 5 not paired.
Logs go to standard error and never hold personal text (titles, notes, payloads).
"""

func say(_ s: String) {
    let bytes = Array(("deskpet-bridge: " + s + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
func fail(_ s: String, _ status: Int32) -> Never { say(s); exit(status) }

nonisolated(unsafe) var stopRequested: sig_atomic_t = 0
let onSignal: @convention(c) (Int32) -> Void = { _ in stopRequested = 1 }

if let k = CommandLine.arguments.dropFirst().firstIndex(of: "circle") {   // `circle …` (CircleCommand.swift), options around it
    circleMain(Array(CommandLine.arguments[1..<k]) + Array(CommandLine.arguments[(k + 1)...]))
}
var args = Array(CommandLine.arguments.dropFirst())
var configPath = BridgeConfig.defaultPath
var code: String?
var name = "Home Assistant"
var verbose = false
var positional: [String] = []
var i = 0
while i < args.count {
    let a = args[i]
    func value() -> String {
        guard i + 1 < args.count else { fail("\(a) needs a value (see --help)", 2) }
        i += 1; return args[i]
    }
    switch a {
    case "--help", "-h": print(usage); exit(0)
    case "--version": print("deskpet-bridge \(DeskPetVersion.string)"); exit(0)
    case "--config": configPath = value()
    case "--code": code = value()
    case "--name": name = value()
    case "--verbose", "-v": verbose = true
    default:
        if a.hasPrefix("-") { fail("unknown option \(a) (see --help)", 2) }
        positional.append(a)
    }
    i += 1
}
let command = positional.first ?? "run"
guard positional.count <= 1 else { fail("one command at most (see --help)", 2) }

let config: BridgeConfig
do {
    guard let text = try StateFile.read(configPath, limit: 64 << 10) else { fail("\(configPath): no such file (see --help for its keys)", 2) }
    config = try BridgeConfig.parse(text, file: configPath)
} catch let e as BridgeError { fail(e.description, 2) } catch { fail("\(configPath): \(error)", 2) }
let state = BridgeState(path: config.stateDir)
signal(SIGPIPE, SIG_IGN)

func linkAddress() -> LinkAddress {
    do { return try LinkAddress.parse(config.link) } catch { fail("link = \(config.link): \(error)", 2) }
}

func password() -> String? {
    guard let f = config.passwordFile else { return nil }
    do { return try BridgeState.password(f) } catch { fail(error.description, 1) }
}

switch command {
case "pair":
    guard (1...32).contains(name.count) else { fail("--name must be 1–32 characters", 2) }
    let address = linkAddress()
    do {
        let client = try LinkClient(address: address, timeoutSeconds: 130)
        try client.hello(token: nil, client: "deskpet-bridge \(DeskPetVersion.string)")
        let r = try client.pair(name: name) { () throws(LinkClientError) -> String in
            if let code { return code }
            print("enter the 6-digit code shown on the device:")
            fflush(nil)
            guard let line = readLine() else { throw LinkClientError.protocolViolation(what: "no code was typed") }
            return String(line.filter { !$0.isWhitespace })
        }
        try state.savePairing(.init(phone: r.phone, token: r.token, address: address.description))
        try state.saveLastSeq((client.welcome?["seq"]?.int64Value) ?? 0)
        print("paired as \(r.phone); the token is in \(state.tokenPath)")
        exit(0)
    } catch let e as LinkClientError {
        if case .device(let c, let m, _) = e { fail("pairing refused: \(c): \(m)", 1) }
        fail(e.description, 1)
    } catch let e as BridgeError { fail(e.description, 1) } catch { fail("\(error)", 1) }

case "check":
    do {
        let p = try state.pairing()
        print("broker \(config.tls ? "mqtts" : "mqtt")://\(config.brokerHost):\(config.brokerPort)\(config.username.map { " as \($0)" } ?? "")")
        print("link \(config.link); topics \(config.topicRoot)/…; discovery \(config.discoveryPrefix)/…/\(config.nodeID)/…")
        print("publish \(config.publish.sorted().map(\.rawValue).joined(separator: ","))\(config.publishNextTaskTitle ? " + the next task's title" : "")")
        print(p.map { "paired as \($0.phone)" } ?? "not paired (deskpet-bridge pair)")
        print("last event seq \(try state.lastSeq()); MQTT session \(try state.session().epoch)")
        _ = password()
        exit(p == nil ? 5 : 0)
    } catch { fail(error.description, 1) }

case "forget":
    // The topics are Discovery's alone (what BridgeCore.discovery holds). Swift 6.0.3's optimizer (the
    // arm64 package's compiler, docs/install.md) crashed on a BridgeCore made here only to read them.
    let d = Discovery(config: config)
    let mqtt: MQTTClient
    do { mqtt = try MQTTClient(config: config, password: password(), willTopic: d.statusTopic, maxPayload: CommandRouter.maxPayload) } catch { fail(error.description, 1) }
    do { if let note = try mqtt.start(keepalive: config.keepalive) { say("mqtt: " + note) } } catch { fail(error.description, 1) }
    let topics = d.allConfigTopics() + [d.stateTopic, d.linkTopic, d.statusTopic]
    var mids: Set<Int32> = []
    var published = false
    let end = BridgeRunner.nowMs() + 20_000
    while BridgeRunner.nowMs() < end {
        var p = pollfd(fd: mqtt.wakeFD, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, 500)
        for e in mqtt.drain() {
            switch e {
            case let .connected(rc, _) where rc == 0 && !published:
                published = true
                for t in topics {
                    let (mid, error) = mqtt.publish(topic: t, payload: [], retain: true)
                    if let mid { mids.insert(mid) } else { say("mqtt: publish failed: \(error ?? "?")") }
                }
            case let .connected(rc, _) where rc != 0: fail("the broker refused the connection: \(MQTTClient.connackText(rc))", 1)
            case .published(let mid): mids.remove(mid)
            default: break
            }
        }
        if published && mids.isEmpty { break }
    }
    mqtt.stop()
    guard published && mids.isEmpty else { fail("the broker did not acknowledge every removal within 20 s (\(mids.count) left)", 1) }
    print("removed \(topics.count) retained topics: DeskPet is gone from Home Assistant (the pairing is kept)")
    exit(0)

case "run":
    let pairing: BridgeState.Pairing
    let core: BridgeCore
    do {
        guard let p = try state.pairing() else { fail("not paired: run 'deskpet-bridge pair' first (state folder \(state.path))", 5) }
        pairing = p
        core = BridgeCore(config: config, lastSeq: try state.lastSeq(), session: try state.session(), gestureMark: try state.gestureMark())
    } catch { fail(error.description, 1) }
    let mqtt: MQTTClient
    do { mqtt = try MQTTClient(config: config, password: password(), willTopic: core.discovery.statusTopic, maxPayload: CommandRouter.maxPayload) }
    catch { fail(error.description, 1) }
    let runner = BridgeRunner(core: core, state: state, mqtt: mqtt, token: pairing.token, address: linkAddress()) { line in
        if !verbose && (line.contains("was applied before") || line.contains(" refused: ")) && line.hasPrefix("link:") { return }
        say(line)
    }
    signal(SIGINT, onSignal)
    signal(SIGTERM, onSignal)
    say("bridging \(config.link) and \(config.tls ? "mqtts" : "mqtt")://\(config.brokerHost):\(config.brokerPort) as \(pairing.phone)")
    do { try runner.run { stopRequested != 0 } } catch { say(error.description); runner.shutdown(); exit(1) }
    runner.shutdown()
    if runner.notPaired { fail("the device does not know this bridge any more: pair again", 5) }
    say("stopped")
    exit(0)

default:
    fail("unknown command '\(command)' (see --help)", 2)
}
