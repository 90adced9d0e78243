import FoundationEssentials
import PetIO
import PetWire

/// Commands from Home Assistant (docs/home-assistant.md#commands): the topic under
/// `<root>/` and its payload become one device command, or a refusal whose reason never repeats
/// the payload (it may be personal text).
public enum CommandRouter {
    /// The largest payload a command topic may carry; larger ones are refused unread.
    public static let maxPayload = 1024

    public struct DeviceCommand: Sendable, Equatable {
        public var name: String
        public var fields: [String: String]
        public init(name: String, fields: [String: String]) { self.name = name; self.fields = fields }
    }

    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case unknownTopic(bytes: Int)
        case tooLarge(bytes: Int)
        case badPayload(topic: String, why: String)
        public var description: String {
            switch self {
            case .unknownTopic(let n): "an unknown command topic (\(n) bytes) under the bridge's prefix"
            case .tooLarge(let n): "a payload of \(n) bytes, over the \(CommandRouter.maxPayload)-byte limit"
            case let .badPayload(t, why): "\(t): \(why)"
            }
        }
    }

    /// The topics the bridge acts on (under `<root>/`).
    public static let topics = ["mute/set", "pause/set", "brightness/set", "feed/press", "focus/press", "task/set"]

    /// The command for `suffix` (the topic after `<root>/`) and `payload`. `food` is an owned
    /// food for `feed` (from the device's summary).
    public static func route(suffix: String, payload: [UInt8], food: String?) throws(Refusal) -> DeviceCommand {
        guard topics.contains(suffix) else { throw .unknownTopic(bytes: suffix.utf8.count) }
        guard payload.count <= maxPayload else { throw .tooLarge(bytes: payload.count) }
        guard let text = String(validating: payload, as: UTF8.self) else { throw .badPayload(topic: suffix, why: "not UTF-8") }
        let word = text.trimmed(" \t\r\n")
        func onOff() throws(Refusal) -> Bool {
            switch word.uppercased() {
            case "ON": return true
            case "OFF": return false
            default: throw .badPayload(topic: suffix, why: "the payload must be ON or OFF")
            }
        }
        switch suffix {
        case "mute/set": return DeviceCommand(name: "settings.device", fields: ["sound": try onOff() ? "off" : "on"])
        case "pause/set": return DeviceCommand(name: try onOff() ? "pause" : "resume", fields: [:])
        case "brightness/set":
            var n = word
            if n.hasSuffix(".0") { n = String(n.dropLast(2)) }
            guard let v = Int(n), (10...100).contains(v) else { throw .badPayload(topic: suffix, why: "the brightness must be a whole number 10–100") }
            return DeviceCommand(name: "settings.device", fields: ["brightness": String(v)])
        case "feed/press":
            guard word == "PRESS" else { throw .badPayload(topic: suffix, why: "the payload must be PRESS") }
            guard let food else { throw .badPayload(topic: suffix, why: "the pet owns no food (buy some first)") }
            return DeviceCommand(name: "care.feed", fields: ["item": food])
        case "focus/press":
            guard word == "PRESS" else { throw .badPayload(topic: suffix, why: "the payload must be PRESS") }
            return DeviceCommand(name: "focus.start", fields: ["minutes": "25"])
        default:   // task/set
            var fields: [String: String] = [:]
            if word.hasPrefix("{") {
                do { _ = try StrictJSON.parse(payload) } catch { throw .badPayload(topic: suffix, why: "malformed JSON (\(error.description.prefix(80)))") }
                guard case .object(let o)? = try? JSONDecoder().decode(JSONValue.self, from: Data(payload)) else {
                    throw .badPayload(topic: suffix, why: "not a JSON object")
                }
                for k in o.keys where k != "title" && k != "due" { throw .badPayload(topic: suffix, why: "unknown key (only title and due)") }
                guard case .string(let t)? = o["title"] else { throw .badPayload(topic: suffix, why: "no string title") }
                fields["title"] = t
                if let d = o["due"] {
                    guard case .string(let due) = d, !due.isEmpty, due.utf8.count <= 64 else { throw .badPayload(topic: suffix, why: "due must be a time text (docs/scenarios.md)") }
                    fields["due"] = due
                }
            } else {
                fields["title"] = word
            }
            let title = fields["title"] ?? ""
            guard (1...100).contains(title.count), title.utf8.count <= 400 else {
                throw .badPayload(topic: suffix, why: "a title must be 1–100 characters (at most 400 bytes)")
            }
            return DeviceCommand(name: "task.create", fields: fields)
        }
    }

    /// The device command id of an MQTT message: the same delivery (a QoS 1 redelivery carries the
    /// same packet id in the same broker session) gives the same id, so the device applies it
    /// once. `epoch` counts the broker sessions (a new one restarts packet ids), `wrap` the times
    /// packet ids went round within it.
    public static func commandID(epoch: Int, wrap: Int, mid: Int32, topic: String, payload: [UInt8]) -> String {
        var bytes = Array("\(epoch)|\(wrap)|\(mid)|\(topic)|".utf8)
        bytes += payload
        return "mq-\(epoch)-" + String(Hex.encode(SHA256.hash(bytes)).prefix(24))
    }
}

/// A token bucket: `burst` commands at once, refilled at `perSecond`.
public struct RateLimiter: Sendable {
    public let perSecond: Int
    public let burst: Int
    private var tokensMilli: Int64
    private var lastMs: Int64?

    public init(perSecond: Int, burst: Int) {
        self.perSecond = max(1, perSecond); self.burst = max(1, burst); tokensMilli = Int64(max(1, burst)) * 1000
    }

    /// Takes one token at `nowMs`; false when the bucket is empty.
    public mutating func take(nowMs: Int64) -> Bool {
        if let last = lastMs, nowMs > last {
            tokensMilli = min(Int64(burst) * 1000, tokensMilli + (nowMs - last) * Int64(perSecond))
        }
        lastMs = max(lastMs ?? nowMs, nowMs)
        guard tokensMilli >= 1000 else { return false }
        tokensMilli -= 1000
        return true
    }
}
