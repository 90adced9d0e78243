import Foundation
@testable import PetBridge
import XCTest

/// Every discovery payload against Home Assistant's MQTT discovery schema as its documentation
/// states it (home-assistant.io/integrations/<platform>.mqtt and device_trigger.mqtt): the keys
/// each platform requires, only keys it knows, the values it allows. (A Home Assistant core could
/// not be installed on the build machine for an end-to-end check: docs/home-assistant.md says why.)
final class DiscoverySchemaTests: XCTestCase {
    static let common: Set<String> = ["availability", "availability_mode", "availability_template", "availability_topic",
        "device", "enabled_by_default", "encoding", "entity_category", "icon", "json_attributes_template",
        "json_attributes_topic", "name", "object_id", "origin", "qos", "unique_id", "payload_available", "payload_not_available"]
    /// platform: (required, allowed beyond the common keys)
    static let schema: [String: (required: Set<String>, allowed: Set<String>)] = [
        "sensor": (["state_topic"], ["device_class", "expire_after", "force_update", "last_reset_value_template", "options",
                                     "suggested_display_precision", "state_class", "state_topic", "unit_of_measurement", "value_template"]),
        "binary_sensor": (["state_topic"], ["device_class", "expire_after", "force_update", "off_delay", "payload_off", "payload_on",
                                            "state_topic", "value_template"]),
        "switch": ([], ["command_template", "command_topic", "device_class", "optimistic", "payload_off", "payload_on", "retain",
                        "state_off", "state_on", "state_topic", "value_template"]),
        "number": (["command_topic"], ["command_template", "command_topic", "device_class", "min", "max", "mode", "optimistic",
                                       "payload_reset", "retain", "state_topic", "step", "unit_of_measurement", "value_template"]),
        "button": (["command_topic"], ["command_template", "command_topic", "device_class", "payload_press", "retain"]),
        "text": (["command_topic"], ["command_template", "command_topic", "max", "min", "mode", "pattern", "retain", "state_topic",
                                     "value_template"]),
        "event": (["state_topic", "event_types"], ["device_class", "event_types", "state_topic", "value_template"]),
    ]
    static let triggerKeys: Set<String> = ["automation_type", "payload", "qos", "topic", "type", "subtype", "device", "value_template", "origin"]
    static let triggerTypes: Set<String> = ["button_short_press", "button_short_release", "button_long_press", "button_long_release",
                                            "button_double_press", "button_triple_press", "button_quadruple_press", "button_quintuple_press"]

    func testEveryPayloadFollowsTheDocumentedSchema() throws {
        var c = BridgeConfig()
        c.publishNextTaskTitle = true
        let entries = Discovery(config: c).entries(pet: "Pip", buttons: ["UP", "DOWN", "LEFT", "RIGHT", "CENTRE"])
        var uniqueIDs: Set<String> = []
        var triggerPairs: Set<String> = []
        for e in entries {
            let parts = e.topic.split(separator: "/").map(String.init)
            XCTAssertEqual(parts.count, 5, e.topic)
            XCTAssertEqual(parts.first, "homeassistant"); XCTAssertEqual(parts.last, "config")
            let platform = parts[1]
            let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(e.payload)) as? [String: Any], e.topic)
            let device = try XCTUnwrap(o["device"] as? [String: Any], "\(e.topic): device")
            XCTAssertFalse((device["identifiers"] as? [String] ?? []).isEmpty, "\(e.topic): device identifiers")
            if platform == "device_automation" {
                XCTAssertTrue(Set(o.keys).isSubset(of: Self.triggerKeys), "\(e.topic): \(Set(o.keys).subtracting(Self.triggerKeys))")
                XCTAssertEqual(o["automation_type"] as? String, "trigger")
                for k in ["topic", "type", "subtype"] { XCTAssertNotNil(o[k] as? String, "\(e.topic): \(k)") }
                XCTAssertTrue(Self.triggerTypes.contains(o["type"] as? String ?? ""), e.topic)
                XCTAssertTrue(triggerPairs.insert("\(o["type"]!)|\(o["subtype"]!)").inserted, "type+subtype unique per device: \(e.topic)")
                continue
            }
            let s = try XCTUnwrap(Self.schema[platform], "unknown platform \(platform)")
            let allowed = Self.common.union(s.allowed)
            XCTAssertTrue(Set(o.keys).isSubset(of: allowed), "\(e.topic): unknown keys \(Set(o.keys).subtracting(allowed))")
            for k in s.required { XCTAssertNotNil(o[k], "\(e.topic): \(k) is required") }
            let uid = try XCTUnwrap(o["unique_id"] as? String, e.topic)
            XCTAssertTrue(uniqueIDs.insert(uid).inserted, "unique ids are unique: \(uid)")
            XCTAssertTrue(["latest", "any", "all"].contains(o["availability_mode"] as? String ?? "latest"))
            for a in o["availability"] as? [[String: Any]] ?? [] { XCTAssertNotNil(a["topic"] as? String, e.topic) }
            if let cls = o["state_class"] as? String { XCTAssertTrue(["measurement", "total", "total_increasing"].contains(cls)) }
            if o["device_class"] as? String == "timestamp" { XCTAssertNil(o["unit_of_measurement"], "\(e.topic): a timestamp has no unit") }
            if o["device_class"] as? String == "enum" {
                XCTAssertNil(o["unit_of_measurement"]); XCTAssertNil(o["state_class"]); XCTAssertNotNil(o["options"] as? [String])
            }
            if platform == "number" {
                let min = try XCTUnwrap(o["min"] as? Double), max = try XCTUnwrap(o["max"] as? Double)
                XCTAssertLessThan(min, max)
                XCTAssertTrue(["auto", "box", "slider"].contains(o["mode"] as? String ?? "auto"))
            }
            if platform == "text" {
                XCTAssertTrue(["text", "password"].contains(o["mode"] as? String ?? "text"))
                XCTAssertLessThanOrEqual(o["max"] as? Int ?? 100, 255, "a text state is at most 255 characters")
            }
            if platform == "event" { XCTAssertFalse((o["event_types"] as? [String] ?? []).isEmpty) }
            if platform == "binary_sensor", let cls = o["device_class"] as? String { XCTAssertEqual(cls, "connectivity") }
        }
        XCTAssertEqual(triggerPairs.count, 15, "5 keys × 3 gestures")
    }
}
