#if canImport(Glibc)
import Glibc
#endif
import PetCore
import PetIO
import PetWire

/// The bridge's one thread (libmosquitto keeps its own network thread): waits on the device
/// link and the MQTT inbox's pipe — no timer but the link's keep-alive, so an idle bridge wakes
/// about once a minute — feeds what arrives to `BridgeCore` and does its actions.
public final class BridgeRunner {
    public let core: BridgeCore
    public let state: BridgeState
    public let mqtt: MQTTClient
    public let token: String
    public let address: LinkAddress
    let log: (String) -> Void
    private var link: DeviceLink?
    private var helloDone = false
    private var nextAttemptMs: Int64 = 0
    private var backoffMs: Int64 = 1000
    private var mids: [Int32: BridgeCore.AckTag] = [:]
    /// Set when the device no longer knows the token (exit status 5: pair again).
    public private(set) var notPaired = false

    public init(core: BridgeCore, state: BridgeState, mqtt: MQTTClient, token: String, address: LinkAddress, log: @escaping (String) -> Void) {
        self.core = core; self.state = state; self.mqtt = mqtt; self.token = token; self.address = address; self.log = log
    }

    public static func nowMs() -> Int64 {
        var ts = timespec(); clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Runs until `stop()` says so (checked after every wake-up; a signal interrupts the wait).
    public func run(until stop: () -> Bool) throws(BridgeError) {
        if let note = try mqtt.start(keepalive: core.config.keepalive) { log("mqtt: " + note) }
        while !stop() && !notPaired {
            let now = Self.nowMs()
            if link == nil && now >= nextAttemptMs { connectLink(now) }
            var fds = [pollfd(fd: mqtt.wakeFD, events: Int16(POLLIN), revents: 0)]
            if let l = link { fds.append(pollfd(fd: l.fd, events: Int16(POLLIN) | (l.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)) }
            var deadline = core.nextDeadlineMs()
            if link == nil { deadline = min(deadline ?? nextAttemptMs, nextAttemptMs) }
            let timeout: Int32 = deadline.map { Int32(clamping: max(0, min($0 - now, 600_000))) } ?? -1
            let r = poll(&fds, nfds_t(fds.count), timeout)
            if r < 0 && errno != EINTR { throw .link("poll: \(errnoText())") }
            let after = Self.nowMs()
            mqttEvents(after)
            if let l = link, fds.count > 1, fds[1].revents != 0 {
                do {
                    try l.flush()
                    for m in try l.receive() { device(m, after) }
                } catch { lost(error.description) }
            }
            perform(core.tick(nowMs: after))
        }
    }

    private func connectLink(_ now: Int64) {
        do {
            let l = try DeviceLink(address: address)
            link = l; helloDone = false
            try l.send(["type": .string("hello"), "version": .int(1), "client": .string("deskpet-bridge \(DeskPetVersion.string)"),
                        "token": .string(token), "last_seq": .int(core.lastSeq)])
            backoffMs = 1000
        } catch {
            if backoffMs == 1000 { log("link: \(error); retrying") }
            link = nil
            nextAttemptMs = now + backoffMs
            backoffMs = min(backoffMs * 2, 30_000)
        }
    }

    private func lost(_ why: String) {
        link = nil
        nextAttemptMs = Self.nowMs() + 1000
        if helloDone { perform(core.linkLost(reason: why)) } else { log("link: \(why)") }
        helloDone = false
    }

    private func device(_ m: [String: JSONValue], _ now: Int64) {
        if !helloDone {
            switch m["type"]?.fieldText {
            case "welcome":
                guard m["paired"] == .bool(true) else { return }
                helloDone = true
                perform(core.linkConnected(welcome: m, nowMs: now))
            case "error":
                let code = m["code"]?.fieldText ?? "?"
                log("link: hello refused: \(code)")
                if code == ErrorCode.badToken || code == ErrorCode.notPaired { notPaired = true }
                lost("hello refused")
            default: break
            }
            return
        }
        if m["type"]?.fieldText == "error", m["id"] == nil, m["code"]?.fieldText == ErrorCode.notPaired {
            log("link: the device unpaired this bridge: pair again (deskpet-bridge pair)")
            notPaired = true
            return
        }
        perform(core.deviceMessage(m, nowMs: now))
    }

    private func mqttEvents(_ now: Int64) {
        for e in mqtt.drain() {
            switch e {
            case let .connected(rc, present):
                guard rc == 0 else { log("mqtt: the broker refused the connection: \(MQTTClient.connackText(rc))"); continue }
                if let err = mqtt.subscribe(core.subscriptions) { log("mqtt: \(err)") }
                perform(core.mqttConnected(sessionPresent: present))
            case .disconnected(let rc):
                perform(core.mqttDisconnected(reason: rc == 0 ? "asked" : "connection lost"))
            case let .message(topic, payload, mid):
                perform(core.mqttMessage(topic: topic, payload: payload, mid: mid, nowMs: now))
            case let .oversized(_, bytes, _):
                log("mqtt: refused: a payload of \(bytes) bytes, over the \(CommandRouter.maxPayload)-byte limit")
            case .published(let mid):
                if let tag = mids.removeValue(forKey: mid) { perform(core.published(tag)) }
            }
        }
    }

    func perform(_ actions: [BridgeCore.Action]) {
        for a in actions {
            switch a {
            case let .publish(topic, payload, retain, ack):
                let (mid, error) = mqtt.publish(topic: topic, payload: payload, retain: retain)
                if let mid, let ack { mids[mid] = ack }
                if let error {
                    if let ack { core.publishFailed(ack) }
                    log("mqtt: publish failed: \(error)")
                }
            case .sendDevice(let m):
                guard let l = link else { continue }
                do { try l.send(m) } catch { lost(error.description) }
            case .saveLastSeq(let s):
                do { try state.saveLastSeq(s) } catch { log("state: \(error)") }
            case .saveGestureMark(let m):
                do { try state.saveGestureMark(m) } catch { log("state: \(error)") }
            case .saveSession(let s):
                do { try state.saveSession(s) } catch { log("state: \(error)") }
            case .log(let line): log(line)
            }
        }
    }

    /// A clean stop: `offline` on the status topic (the will is only for a lost connection), then
    /// the MQTT connection and its thread.
    public func shutdown() {
        perform(core.linkLost(reason: "the bridge stops", reconnecting: false))
        _ = mqtt.publish(topic: core.discovery.statusTopic, payload: Array("offline".utf8), retain: true)
        // Let the network thread send them (QoS 1 acknowledgements, at most 2 s).
        let end = Self.nowMs() + 2000
        var acked = 0
        while Self.nowMs() < end && acked < 2 {
            var p = pollfd(fd: mqtt.wakeFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 200)
            for e in mqtt.drain() { if case .published = e { acked += 1 } }
        }
        mqtt.stop()
    }
}
