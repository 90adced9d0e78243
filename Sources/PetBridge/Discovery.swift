import PetWire

/// Home Assistant MQTT discovery (docs/home-assistant.md#entities): one device "DeskPet <pet>"
/// and its entities, each a retained config at `<prefix>/<component>/<node>/<object>/config`.
/// Every entity reads the one retained state topic (`<root>/state`, JSON) through a template,
/// and is available while the bridge is (`<root>/status`, its last will says `offline`) and the
/// device is linked (`<root>/link`); the link sensor itself needs only the bridge.
public struct Discovery: Sendable {
    public let config: BridgeConfig
    public init(config: BridgeConfig) { self.config = config }

    public struct Entry: Sendable, Equatable {
        public var topic: String
        public var payload: [UInt8]
    }

    var root: String { config.topicRoot }
    var node: String { config.nodeID }
    public var statusTopic: String { "\(root)/status" }
    public var linkTopic: String { "\(root)/link" }
    public var stateTopic: String { "\(root)/state" }
    public var birthTopic: String { "\(config.discoveryPrefix)/status" }
    public func eventTopic(_ name: String) -> String { "\(root)/event/\(name)" }
    public func buttonTopic(_ key: String) -> String { "\(root)/button/\(key)" }
    /// Commands: `<root>/<object>/set` or `/press`.
    public var commandPrefix: String { "\(root)/" }

    /// The gestures reported for each key, with Home Assistant's trigger types.
    public static let gestures: [(gesture: String, type: String)] = [
        ("tap", "button_short_press"), ("double_tap", "button_double_press"), ("hold", "button_long_press"),
    ]
    /// Every key a board may have (for `forget`, which may not know the board).
    public static let allKeys = ["A", "B", "C", "D", "UP", "DOWN", "LEFT", "RIGHT", "CENTRE"]
    /// Event entities: object id, event types, the device event types that feed them.
    public static let events: [(object: String, name: String, types: [String])] = [
        ("task_completed", "Task completed", ["completed"]), ("reminder", "Reminder", ["reminder"]),
        ("level_up", "Level up", ["level_up"]), ("badge", "Badge", ["badge"]),
    ]

    private func device(pet: String) -> JSONValue {
        .object(["identifiers": .array([.string("deskpet_\(node)")]), "name": .string("DeskPet \(pet)"),
                 "manufacturer": .string("DeskPet"), "model": .string("DeskPet desk toy"),
                 "sw_version": .string(DeskPetVersion.string)])
    }

    private func availability(deviceToo: Bool) -> [String: JSONValue] {
        var list: [JSONValue] = [.object(["topic": .string(statusTopic)])]
        if deviceToo {
            list.append(.object(["topic": .string(linkTopic), "payload_available": .string("ON"), "payload_not_available": .string("OFF")]))
        }
        return ["availability": .array(list), "availability_mode": .string("all")]
    }

    private func entity(_ component: String, _ object: String, pet: String, _ fields: [String: JSONValue], deviceToo: Bool = true) -> Entry {
        var o = fields
        o["unique_id"] = .string("\(node)_\(object)")
        o["object_id"] = .string("deskpet_\(node)_\(object)")
        o["device"] = device(pet: pet)
        o["origin"] = .object(["name": .string("deskpet-bridge"), "sw_version": .string(DeskPetVersion.string)])
        for (k, v) in availability(deviceToo: deviceToo) { o[k] = v }
        return Entry(topic: configTopic(component, object), payload: MessageEncoder.body(JSONValue.object(o)))
    }

    func configTopic(_ component: String, _ object: String) -> String {
        "\(config.discoveryPrefix)/\(component)/\(node)/\(object)/config"
    }

    private func sensor(_ object: String, _ name: String, _ template: String, pet: String, unit: String? = nil,
                        deviceClass: String? = nil, icon: String? = nil, measurement: Bool = true) -> Entry {
        var f: [String: JSONValue] = ["name": .string(name), "state_topic": .string(stateTopic), "value_template": .string(template)]
        if let unit { f["unit_of_measurement"] = .string(unit) }
        if let deviceClass { f["device_class"] = .string(deviceClass) }
        if let icon { f["icon"] = .string(icon) }
        if measurement { f["state_class"] = .string("measurement") }
        return entity("sensor", object, pet: pet, f)
    }

    /// Every config to announce, for the pet's name and the board's keys.
    public func entries(pet: String, buttons: [String]) -> [Entry] {
        var out: [Entry] = []
        let p = config.publish
        if p.contains(.sensors) {
            out.append(sensor("coins", "Coins", "{{ value_json.coins }}", pet: pet, icon: "mdi:cash"))
            out.append(sensor("level", "Level", "{{ value_json.level }}", pet: pet, icon: "mdi:star"))
            out.append(sensor("xp_to_next", "XP to next level", "{{ value_json.xp_to_next }}", pet: pet, unit: "XP", icon: "mdi:chevron-double-up"))
            out.append(sensor("streak", "Streak", "{{ value_json.streak }}", pet: pet, unit: "d", icon: "mdi:fire"))
            out.append(entity("sensor", "mood", pet: pet, ["name": .string("Mood"), "state_topic": .string(stateTopic),
                "value_template": .string("{{ value_json.mood }}"), "device_class": .string("enum"),
                "options": .array(["happy", "content", "sad", "sleepy", "excited"].map { .string($0) }), "icon": .string("mdi:emoticon")]))
            out.append(sensor("fullness", "Fullness", "{{ value_json.fullness }}", pet: pet, unit: "%", icon: "mdi:food-apple"))
            out.append(sensor("energy", "Energy", "{{ value_json.energy }}", pet: pet, unit: "%", icon: "mdi:battery-heart"))
            out.append(sensor("tasks_due_today", "Tasks due today", "{{ value_json.tasks_due_today }}", pet: pet, icon: "mdi:calendar-check"))
            out.append(sensor("tasks_overdue", "Tasks overdue", "{{ value_json.tasks_overdue }}", pet: pet, icon: "mdi:calendar-alert"))
            out.append(sensor("habits_done_today", "Habits done today", "{{ value_json.habits_done_today }}", pet: pet, icon: "mdi:check-all"))
            out.append(sensor("focus_minutes_left", "Focus minutes left", "{{ value_json.focus_minutes_left }}", pet: pet, unit: "min", icon: "mdi:timer-sand"))
            out.append(sensor("last_urge", "Last urge logged", "{{ value_json.last_urge_iso }}", pet: pet, deviceClass: "timestamp", measurement: false))
            out.append(sensor("next_task_due", "Next task due", "{{ value_json.next_task_due_iso }}", pet: pet, deviceClass: "timestamp", measurement: false))
            if config.publishNextTaskTitle {
                out.append(sensor("next_task", "Next task", "{{ value_json.next_task_title }}", pet: pet, icon: "mdi:format-list-checks", measurement: false))
            }
        }
        if p.contains(.binarySensors) {
            out.append(entity("binary_sensor", "reminder_waiting", pet: pet, ["name": .string("Reminder waiting"), "state_topic": .string(stateTopic),
                "value_template": .string("{{ 'ON' if value_json.reminders_waiting > 0 else 'OFF' }}"), "icon": .string("mdi:bell-ring")]))
            out.append(entity("binary_sensor", "paused", pet: pet, ["name": .string("Paused"), "state_topic": .string(stateTopic),
                "value_template": .string("{{ 'ON' if value_json.paused else 'OFF' }}"), "icon": .string("mdi:beach")]))
            out.append(entity("binary_sensor", "link", pet: pet, ["name": .string("Link connected"), "state_topic": .string(linkTopic),
                "device_class": .string("connectivity"), "entity_category": .string("diagnostic")], deviceToo: false))
        }
        if p.contains(.switches) {
            out.append(entity("switch", "mute", pet: pet, ["name": .string("Mute"), "state_topic": .string(stateTopic),
                "value_template": .string("{{ 'OFF' if value_json.sound else 'ON' }}"), "command_topic": .string("\(root)/mute/set"),
                "icon": .string("mdi:volume-off")]))
            out.append(entity("switch", "pause", pet: pet, ["name": .string("Pause (vacation)"), "state_topic": .string(stateTopic),
                "value_template": .string("{{ 'ON' if value_json.paused else 'OFF' }}"), "command_topic": .string("\(root)/pause/set"),
                "icon": .string("mdi:beach")]))
        }
        if p.contains(.number) {
            out.append(entity("number", "brightness", pet: pet, ["name": .string("Brightness"), "state_topic": .string(stateTopic),
                "value_template": .string("{{ value_json.brightness }}"), "command_topic": .string("\(root)/brightness/set"),
                "min": .int(10), "max": .int(100), "step": .int(10), "unit_of_measurement": .string("%"), "mode": .string("slider"),
                "icon": .string("mdi:brightness-6")]))
        }
        if p.contains(.buttons) {
            out.append(entity("button", "feed", pet: pet, ["name": .string("Feed"), "command_topic": .string("\(root)/feed/press"),
                "payload_press": .string("PRESS"), "icon": .string("mdi:food-drumstick")]))
            out.append(entity("button", "focus", pet: pet, ["name": .string("Focus 25 minutes"), "command_topic": .string("\(root)/focus/press"),
                "payload_press": .string("PRESS"), "icon": .string("mdi:timer")]))
        }
        if p.contains(.text) {
            out.append(entity("text", "add_task", pet: pet, ["name": .string("Add task"), "command_topic": .string("\(root)/task/set"),
                "min": .int(1), "max": .int(100), "mode": .string("text"), "icon": .string("mdi:playlist-plus")]))
        }
        if p.contains(.events) {
            for e in Self.events {
                out.append(entity("event", e.object, pet: pet, ["name": .string(e.name), "state_topic": .string(eventTopic(e.object)),
                    "event_types": .array(e.types.map { .string($0) })]))
            }
        }
        if p.contains(.triggers) {
            for (i, key) in buttons.enumerated() where Self.allKeys.contains(key) {
                for g in Self.gestures {
                    let object = "button_\(key.lowercased())_\(g.gesture)"
                    var o: [String: JSONValue] = ["automation_type": .string("trigger"), "topic": .string(buttonTopic(key)),
                                                  "payload": .string(g.gesture), "type": .string(g.type),
                                                  "value_template": .string("{{ value_json.gesture }}"), "qos": .int(1),
                                                  "subtype": .string(i < 6 ? "button_\(i + 1)" : "button_\(key.lowercased())")]
                    o["device"] = device(pet: pet)
                    o["origin"] = .object(["name": .string("deskpet-bridge"), "sw_version": .string(DeskPetVersion.string)])
                    out.append(Entry(topic: configTopic("device_automation", object), payload: MessageEncoder.body(JSONValue.object(o))))
                }
            }
        }
        return out
    }

    /// Every config topic this bridge may ever have announced (all groups, every key a board may
    /// have): `forget` empties each one.
    public func allConfigTopics() -> [String] {
        var everything = config
        everything.publish = Set(BridgeConfig.EntityGroup.allCases)
        everything.publishNextTaskTitle = true
        return Discovery(config: everything).entries(pet: "-", buttons: Self.allKeys).map(\.topic)
    }
}
