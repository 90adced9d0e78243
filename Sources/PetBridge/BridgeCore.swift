import PetCore
import PetWire

/// The bridge's decisions, without sockets (docs/home-assistant.md#how-it-works): the driver
/// hands it what the broker and the device said and does the `Action`s it returns, in order.
///
/// - Device → MQTT: `summary` answers become the retained state topic; journal events become
///   event-entity messages (QoS 1); queued reminders become reminder events and are confirmed to
///   the device (`notice.delivered`) only once the broker acknowledged them; key gestures become
///   device-trigger messages.
/// - MQTT → device: command topics become device commands whose ids derive from the MQTT
///   message (`CommandRouter.commandID`), rate-limited, queued while the device is away and
///   resent with the same ids.
/// - Resume: the saved `last_seq` is the highest seq whose events the broker has all
///   acknowledged, so a restart of either side (or an hour without the broker) replays what
///   Home Assistant has not had.
public final class BridgeCore {
    public typealias Object = [String: JSONValue]

    public enum AckTag: Hashable, Sendable {
        case event(Int64)
        case reminder(String)
        /// A key gesture, by its number within the device's run.
        case gesture(Int64)
    }

    public enum Action: Equatable, Sendable {
        case publish(topic: String, payload: [UInt8], retain: Bool, ack: AckTag?)
        case sendDevice(Object)
        case saveLastSeq(Int64)
        /// The gesture resume point, `RUN:N`: every gesture of the device's run RUN up to N reached the broker.
        case saveGestureMark(String)
        case saveSession(MQTTSession)
        case log(String)
    }

    /// The broker session's counters behind command ids (saved in the state folder).
    public struct MQTTSession: Codable, Equatable, Sendable {
        public var epoch = 0
        public var wrap = 0
        public var lastMid: Int32 = 0
        public init() {}
    }

    public let config: BridgeConfig
    public let discovery: Discovery
    public private(set) var mqttUp = false
    public private(set) var linkUp = false
    public private(set) var summary: Object?
    /// Highest event seq seen from the device; the saved resume point.
    public private(set) var lastSeq: Int64
    public private(set) var savedSeq: Int64
    public private(set) var session: MQTTSession
    /// The device run whose gestures the bridge follows, the highest gesture number seen in it,
    /// and the saved gesture resume point (all up to it acknowledged by the broker).
    public private(set) var gestureRun: String?
    public private(set) var gestureSeen: Int64 = 0
    public private(set) var gestureSaved: Int64 = 0
    /// Published, waiting for the broker's acknowledgement.
    private var pending: [AckTag: (topic: String, payload: [UInt8])] = [:]
    private var unsent: Set<AckTag> = []
    /// Reminders published (or confirmed) in this run, by id.
    private var remindersSeen: Set<String> = []
    private var announcedWith: String?
    private var limiter: RateLimiter
    private var droppedByRate = 0
    private var droppedByQueue = 0
    private var lastRateLogMs: Int64 = -1_000_000
    /// Commands for the device: waiting, and sent without an answer yet.
    private var queue: [(id: String, command: CommandRouter.DeviceCommand)] = []
    private var inFlight: [String: CommandRouter.DeviceCommand] = [:]
    private var inFlightOrder: [String] = []
    public static let queueLimit = 256
    public static let window = 32
    private var summaryInFlight: String?
    private var summaryDirty = false
    private var nextID = 0
    private var lastDeviceSendMs: Int64 = 0
    /// The device link's keep-alive and refresh of time-based values (focus minutes left).
    public static let refreshMs: Int64 = 60_000
    /// Counters for the figures and tests.
    public private(set) var commandsSent = 0
    public private(set) var commandsAnswered = 0
    public private(set) var refused = 0

    public init(config: BridgeConfig, lastSeq: Int64, session: MQTTSession, gestureMark: String? = nil) {
        self.config = config
        if let mark = gestureMark.flatMap(Self.parseGestureMark) {
            gestureRun = mark.run; gestureSeen = mark.n; gestureSaved = mark.n
        }
        self.discovery = Discovery(config: config)
        self.lastSeq = lastSeq
        self.savedSeq = lastSeq
        self.session = session
        self.limiter = RateLimiter(perSecond: config.commandsPerSecond, burst: config.commandBurst)
    }

    /// Topics to subscribe (QoS 1): every `<root>/+/set` and `<root>/+/press` (an unknown one is
    /// refused with a log line) and Home Assistant's birth topic.
    public var subscriptions: [String] {
        [discovery.commandPrefix + "+/set", discovery.commandPrefix + "+/press", discovery.birthTopic]
    }

    // MARK: - MQTT

    public func mqttConnected(sessionPresent: Bool) -> [Action] {
        mqttUp = true
        var out: [Action] = []
        if !sessionPresent {
            session.epoch += 1; session.wrap = 0; session.lastMid = 0
            out.append(.saveSession(session))
        }
        out.append(.log("mqtt: connected (\(sessionPresent ? "session resumed" : "new session \(session.epoch)"))"))
        out += announce()
        // What could not be handed to the library while it was away.
        for tag in unsent.sorted(by: { "\($0)" < "\($1)" }) {
            if let p = pending[tag] { out.append(.publish(topic: p.topic, payload: p.payload, retain: false, ack: tag)) }
        }
        unsent = []
        return out
    }

    public func mqttDisconnected(reason: String) -> [Action] {
        mqttUp = false
        return [.log("mqtt: disconnected (\(reason)); the library reconnects")]
    }

    /// The library could not take a publication (it is kept and published again on reconnect).
    public func publishFailed(_ tag: AckTag) { unsent.insert(tag) }

    /// Availability, the link, discovery and the state: on connect and when Home Assistant
    /// announces itself.
    func announce() -> [Action] {
        var out: [Action] = [.publish(topic: discovery.statusTopic, payload: Array("online".utf8), retain: true, ack: nil),
                             .publish(topic: discovery.linkTopic, payload: Array((linkUp ? "ON" : "OFF").utf8), retain: true, ack: nil)]
        if let s = summary {
            out += discoveryActions(s)
            out.append(statePublication(s))
        }
        return out
    }

    private func discoveryActions(_ s: Object) -> [Action] {
        let pet = s["pet"]?.fieldText ?? "Pet"
        var keys: [String] = []
        if case .array(let b)? = s["buttons"] { keys = b.compactMap(\.fieldText) }
        announcedWith = pet + "|" + keys.joined(separator: ",")
        return discovery.entries(pet: pet, buttons: keys).map { .publish(topic: $0.topic, payload: $0.payload, retain: true, ack: nil) }
    }

    public func mqttMessage(topic: String, payload: [UInt8], mid: Int32, nowMs: Int64) -> [Action] {
        if topic == discovery.birthTopic {
            guard payload == Array("online".utf8) else { return [] }
            return [.log("mqtt: Home Assistant is online: announcing again")] + announce()
        }
        guard topic.hasPrefix(discovery.commandPrefix) else {
            return [.log("mqtt: a message on a topic the bridge did not subscribe (\(topic.utf8.count) bytes): ignored")]
        }
        let suffix = String(topic.dropFirst(discovery.commandPrefix.count))
        // Packet ids count up within a broker session; a big step back means they went round.
        if mid > 0 {
            if mid < session.lastMid && session.lastMid - mid > 32_768 { session.wrap += 1 }
            if mid > session.lastMid || session.lastMid - mid > 32_768 { session.lastMid = mid }
        }
        let command: CommandRouter.DeviceCommand
        do { command = try CommandRouter.route(suffix: suffix, payload: payload, food: summary?["food"]?.fieldText) } catch {
            refused += 1
            return [.log("mqtt: refused: \(error)")]
        }
        guard limiter.take(nowMs: nowMs) else {
            refused += 1
            droppedByRate += 1
            guard nowMs - lastRateLogMs >= 1000 else { return [] }
            return [floodLog(nowMs: nowMs)]
        }
        guard queue.count < Self.queueLimit else {
            refused += 1
            droppedByQueue += 1
            guard nowMs - lastRateLogMs >= 1000 else { return [] }
            return [floodLog(nowMs: nowMs)]
        }
        let id = CommandRouter.commandID(epoch: session.epoch, wrap: session.wrap, mid: mid, topic: topic, payload: payload)
        queue.append((id, command))
        return [.saveSession(session)] + pump(nowMs: nowMs)
    }

    public func published(_ tag: AckTag) -> [Action] {
        guard pending.removeValue(forKey: tag) != nil else { return [] }
        unsent.remove(tag)
        switch tag {
        case .event: return watermark()
        case .gesture: return gestureWatermark()
        case .reminder(let id):
            // Delivered to the broker: confirm to the device like a phone. The id derives from
            // the reminder's, so a repeat after a lost reply is a duplicate.
            let cmd = CommandRouter.DeviceCommand(name: "notice.delivered", fields: ["ids": id])
            let cid = "rem-" + String(Hex.encode(SHA256.hash(Array(id.utf8))).prefix(32))
            queue.append((cid, cmd))
            return pump(nowMs: lastDeviceSendMs)
        }
    }

    private func watermark() -> [Action] {
        var mark = lastSeq
        for case .event(let s) in pending.keys { mark = min(mark, s - 1) }
        guard mark > savedSeq else { return [] }
        savedSeq = mark
        return [.saveLastSeq(mark)]
    }

    // MARK: - The device

    /// The link is up (after `welcome`): what to send first.
    public func linkConnected(welcome: Object, nowMs: Int64) -> [Action] {
        linkUp = true
        var out: [Action] = [.log("link: connected as \(welcome["phone"]?.fieldText ?? "?"), device seq \(welcome["seq"]?.fieldText ?? "?"), replaying \(welcome["replayed"]?.fieldText ?? "0")")]
        if let seq = welcome["seq"]?.int64Value, seq < lastSeq {
            out.append(.log("link: the device's journal is behind the bridge's (it was reset): starting over"))
            lastSeq = 0; savedSeq = 0
            out.append(.saveLastSeq(0))
        }
        if welcome["truncated"] == .bool(true) {
            out.append(.log("link: more events were missed than the device replays: the state is published again"))
        }
        if mqttUp { out.append(.publish(topic: discovery.linkTopic, payload: Array("ON".utf8), retain: true, ack: nil)) }
        var watch: Object = ["type": .string("command"), "id": .string(freshID("btn")), "name": .string("buttons.watch")]
        if let run = gestureRun { watch["fields"] = .object(["since": .string("\(run):\(gestureSeen)")]) }
        out.append(.sendDevice(watch))
        summaryInFlight = nil
        out += requestSummary(nowMs: nowMs)
        // Unanswered commands go again first, with their ids (the device answers a repeat as a duplicate).
        let again = inFlightOrder.compactMap { id in inFlight[id].map { (id, $0) } }
        queue = again + queue
        inFlight = [:]; inFlightOrder = []
        return out + pump(nowMs: nowMs)
    }

    public func linkLost(reason: String, reconnecting: Bool = true) -> [Action] {
        linkUp = false
        summaryInFlight = nil
        var out: [Action] = [.log(reconnecting ? "link: lost (\(reason)); reconnecting" : "link: closed (\(reason))")]
        if mqttUp { out.append(.publish(topic: discovery.linkTopic, payload: Array("OFF".utf8), retain: true, ack: nil)) }
        return out
    }

    private func freshID(_ stem: String) -> String { nextID += 1; return "\(stem)-\(nextID)" }

    private func requestSummary(nowMs: Int64) -> [Action] {
        guard linkUp else { return [] }
        guard summaryInFlight == nil else { summaryDirty = true; return [] }
        let id = freshID("sum")
        summaryInFlight = id
        summaryDirty = false
        lastDeviceSendMs = nowMs
        var m: Object = ["type": .string("command"), "id": .string(id), "name": .string("summary")]
        if config.publishNextTaskTitle { m["fields"] = .object(["titles": .string("yes")]) }
        return [.sendDevice(m)]
    }

    /// Sends waiting commands while fewer than `window` are unanswered.
    private func pump(nowMs: Int64) -> [Action] {
        guard linkUp else { return [] }
        var out: [Action] = []
        while !queue.isEmpty && inFlight.count < Self.window {
            let (id, c) = queue.removeFirst()
            if inFlight[id] != nil { continue }
            inFlight[id] = c; inFlightOrder.append(id)
            commandsSent += 1
            var m: Object = ["type": .string("command"), "id": .string(id), "name": .string(c.name)]
            if !c.fields.isEmpty { m["fields"] = .object(c.fields.mapValues { .string($0) }) }
            out.append(.sendDevice(m))
            lastDeviceSendMs = max(lastDeviceSendMs, nowMs)
        }
        return out
    }

    /// A message from the device.
    public func deviceMessage(_ o: Object, nowMs: Int64) -> [Action] {
        switch o["type"]?.fieldText {
        case "event": return event(o)
        case "reminders": return reminders(o)
        case "state": return requestSummary(nowMs: nowMs)
        case "summary":
            guard let id = o["id"]?.fieldText, id == summaryInFlight else { return [] }
            summaryInFlight = nil
            summary = o
            var out: [Action] = []
            if mqttUp {
                let key = (o["pet"]?.fieldText ?? "Pet") + "|" + ((o["buttons"].flatMap { v -> String? in
                    if case .array(let b) = v { return b.compactMap(\.fieldText).joined(separator: ",") } else { return nil } }) ?? "")
                if key != announcedWith { out += discoveryActions(o) }
                out.append(statePublication(o))
            }
            if summaryDirty { out += requestSummary(nowMs: nowMs) }
            return out
        case "button": return button(o)
        case "reply", "error":
            guard let id = o["id"]?.fieldText else {
                return [.log("link: device error \(o["code"]?.fieldText ?? "?")")]
            }
            if id == summaryInFlight {
                summaryInFlight = nil
                return [.log("link: summary refused: \(o["code"]?.fieldText ?? "?")")]
            }
            guard let c = inFlight.removeValue(forKey: id) else { return [] }
            inFlightOrder.removeAll { $0 == id }
            commandsAnswered += 1
            var out: [Action] = []
            if o["type"]?.fieldText == "error" {
                out.append(.log("link: \(c.name) refused: \(o["code"]?.fieldText ?? "?")"))
            } else if o["duplicate"] == .bool(true) {
                out.append(.log("link: \(c.name) was applied before (a redelivered message): nothing changed"))
            }
            return out + pump(nowMs: nowMs)
        default: return []
        }
    }

    private func event(_ o: Object) -> [Action] {
        guard let seq = o["seq"]?.int64Value, seq > lastSeq else { return [] }
        lastSeq = seq
        var out: [Action] = []
        if let (object, payload) = Self.eventPayload(o) {
            let tag = AckTag.event(seq)
            let topic = discovery.eventTopic(object)
            pending[tag] = (topic, payload)
            if config.publish.contains(.events) {
                out.append(.publish(topic: topic, payload: payload, retain: false, ack: tag))
            } else {
                pending[tag] = nil
            }
        }
        return out + watermark()
    }

    /// The event entity and its payload for a device event (nil: not one Home Assistant gets).
    /// Only ids, numbers and times: no titles.
    public static func eventPayload(_ o: Object) -> (String, [UInt8])? {
        guard case .object(let body)? = o["event"], let type = body["type"]?.fieldText else { return nil }
        var p: Object = ["seq": o["seq"] ?? .null, "at": o["at"] ?? .null]
        let object: String
        switch type {
        case "task.completed":
            object = "task_completed"; p["event_type"] = .string("completed")
            if let t = body["id"]?.fieldText { p["task"] = .string(t) }
        case "level.reached":
            object = "level_up"; p["event_type"] = .string("level_up"); p["level"] = body["level"] ?? .null
        case "badge.earned":
            object = "badge"; p["event_type"] = .string("badge"); p["badge"] = body["id"] ?? .null
        default: return nil
        }
        return (object, MessageEncoder.body(JSONValue.object(p)))
    }

    /// `RUN:N` of a saved gesture mark (nil: not one).
    public static func parseGestureMark(_ text: String) -> (run: String, n: Int64)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...32).contains(parts[0].utf8.count),
              parts[0].utf8.allSatisfy({ (48...57).contains($0) || (97...122).contains($0) }),
              let n = Int64(parts[1]), n >= 0 else { return nil }
        return (String(parts[0]), n)
    }

    /// A key gesture: published (QoS 1) on the key's topic as `{"gesture":…,"n":…,"at":…}` for
    /// the device triggers. Numbered ones (`run`, `n`) are published once each — a replay of one
    /// already seen is dropped — and move the gesture resume point when the broker has them.
    private func button(_ o: Object) -> [Action] {
        guard let b = o["button"]?.fieldText, Discovery.allKeys.contains(b),
              let g = o["gesture"]?.fieldText, ButtonMessage.gestures.contains(g) else { return [] }
        var out: [Action] = []
        var p: Object = ["gesture": .string(g)]
        var tag: AckTag?
        if let run = o["run"]?.fieldText, let n = o["n"]?.int64Value, n > 0,
           let mark = Self.parseGestureMark("\(run):\(n)") {
            if mark.run != gestureRun {
                if gestureRun != nil { out.append(.log("link: the device restarted: its key gestures are numbered anew")) }
                gestureRun = mark.run; gestureSeen = 0; gestureSaved = 0
                for case .gesture(let k) in Array(pending.keys) { pending[.gesture(k)] = nil; unsent.remove(.gesture(k)) }
            }
            guard n > gestureSeen else { return out }
            if o["replayed"] == .bool(true) && n > gestureSeen + 1 && gestureSeen > 0 {
                out.append(.log("link: \(n - gestureSeen - 1) key gesture(s) were older than the device keeps: not replayed"))
            }
            gestureSeen = n
            p["n"] = .int(n)
            if let at = o["at"]?.int64Value { p["at"] = .int(at); p["at_iso"] = .string(ISOTime.string(at)) }
            p["replayed"] = .bool(o["replayed"] == .bool(true))
            tag = .gesture(n)
        }
        guard config.publish.contains(.triggers) else { return out + gestureWatermark() }
        let payload = MessageEncoder.body(JSONValue.object(p))
        let topic = discovery.buttonTopic(b)
        if let tag { pending[tag] = (topic, payload) }
        out.append(.publish(topic: topic, payload: payload, retain: false, ack: tag))
        return out
    }

    private func gestureWatermark() -> [Action] {
        guard let run = gestureRun else { return [] }
        var mark = gestureSeen
        for case .gesture(let n) in pending.keys { mark = min(mark, n - 1) }
        guard mark > gestureSaved else { return [] }
        gestureSaved = mark
        return [.saveGestureMark("\(run):\(mark)")]
    }

    private func reminders(_ o: Object) -> [Action] {
        guard case .array(let items)? = o["items"] else { return [] }
        var out: [Action] = []
        for case .object(let item) in items {
            guard let id = item["id"]?.fieldText, !remindersSeen.contains(id) else { continue }
            remindersSeen.insert(id)
            var p: Object = ["event_type": .string("reminder"), "id": .string(id)]
            for k in ["source", "ref", "due", "solicited"] { if let v = item[k] { p[k] = v } }
            if let due = item["due"]?.int64Value { p["due_iso"] = .string(ISOTime.string(due)) }
            let payload = MessageEncoder.body(JSONValue.object(p))
            let tag = AckTag.reminder(id)
            pending[tag] = (discovery.eventTopic("reminder"), payload)
            out.append(.publish(topic: discovery.eventTopic("reminder"), payload: payload, retain: false, ack: tag))
        }
        return out
    }

    /// The retained state: the summary's numbers, with ISO times for the timestamp sensors.
    func statePublication(_ s: Object) -> Action {
        var o = s
        o["type"] = nil; o["id"] = nil
        if !config.publishNextTaskTitle { o["next_task_title"] = nil }
        for k in ["last_urge", "next_task_due", "focus_ends"] {
            o[k + "_iso"] = s[k]?.int64Value.map { .string(ISOTime.string($0)) } ?? .null
        }
        o["link"] = .bool(linkUp)
        return .publish(topic: discovery.stateTopic, payload: MessageEncoder.body(JSONValue.object(o)), retain: true, ack: nil)
    }

    /// The periodic refresh (keep-alive) when due; returns the actions and the next deadline.
    public func tick(nowMs: Int64) -> [Action] {
        var out: [Action] = []
        if droppedByRate + droppedByQueue > 0, nowMs - lastRateLogMs >= 1000 {
            out.append(floodLog(nowMs: nowMs))
        }
        guard linkUp, nowMs - lastDeviceSendMs >= Self.refreshMs else { return out }
        if summaryInFlight != nil { lastDeviceSendMs = nowMs; return out + [.sendDevice(["type": .string("ping")])] }
        return out + requestSummary(nowMs: nowMs)
    }

    /// One log line for the commands dropped since the last one (at most one a second).
    private func floodLog(nowMs: Int64) -> Action {
        lastRateLogMs = nowMs
        var parts: [String] = []
        if droppedByRate > 0 { parts.append("\(droppedByRate) over the limit of \(config.commandsPerSecond)/s, burst \(config.commandBurst)") }
        if droppedByQueue > 0 { parts.append("\(droppedByQueue) while \(Self.queueLimit) waited for the device") }
        droppedByRate = 0; droppedByQueue = 0
        return .log("mqtt: command flood: dropped " + parts.joined(separator: "; "))
    }

    /// When `tick` has something to do: the link's refresh, or the count of a flood's dropped
    /// commands (logged once a second).
    public func nextDeadlineMs() -> Int64? {
        var d: Int64? = linkUp ? lastDeviceSendMs + Self.refreshMs : nil
        if droppedByRate + droppedByQueue > 0 { d = min(d ?? Int64.max, lastRateLogMs + 1000) }
        return d
    }

    /// How many publications wait for the broker's acknowledgement.
    public var pendingCount: Int { pending.count }
    public var queuedCommands: Int { queue.count + inFlight.count }
}

extension JSONValue {
    /// A whole number (also from a double without a fraction).
    public var int64Value: Int64? {
        switch self {
        case .int(let i): i
        case .double(let d) where d.rounded() == d && abs(d) < 9e15: Int64(d)
        default: nil
        }
    }
}

/// `YYYY-MM-DDTHH:MM:SS+00:00` of unix seconds (what Home Assistant's timestamp sensors read).
public enum ISOTime {
    /// PetCore's civil calendar (`LocalDateTime`) in UTC, written the ISO 8601 way.
    public static func string(_ t: Int64) -> String {
        let local = LocalDateTime(localSeconds: t)
        return "\(local.date)T\(local.descriptionWithSeconds.split(separator: " ").last ?? "")+00:00"
    }
}
