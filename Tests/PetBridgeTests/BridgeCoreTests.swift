import Foundation
@testable import PetBridge
import PetWire
import TestSupport
import XCTest

/// The bridge's decisions without sockets: discovery, state, events and reminders to MQTT,
/// commands from MQTT with ids derived from the message (a redelivery applies once), resume
/// points, rate limits and hostile input.
final class BridgeCoreTests: XCTestCase {
    typealias Object = [String: JSONValue]

    func summary(id: String, pet: String = "Pip", food: String? = "apple") -> Object {
        var o: Object = ["type": .string("summary"), "id": .string(id), "seq": .int(5), "at": .int(1_772_434_800), "pet": .string(pet),
                         "coins": .int(12), "level": .int(2), "xp": .int(80), "xp_to_next": .int(45), "streak": .int(3),
                         "mood": .string("happy"), "fullness": .int(70), "energy": .int(60), "tasks_open": .int(2),
                         "tasks_due_today": .int(1), "tasks_overdue": .int(0), "habits_done_today": .int(1), "habits_today": .int(2),
                         "focus_minutes_left": .int(0), "last_urge": .int(1_772_431_200), "reminders_waiting": .int(0),
                         "paused": .bool(false), "sound": .bool(true), "brightness": .int(80),
                         "buttons": .array([.string("A"), .string("B"), .string("C")]), "next_task_title": .string("Secret plan")]
        if let food { o["food"] = .string(food) }
        return o
    }

    func publishes(_ a: [BridgeCore.Action]) -> [(topic: String, payload: String, retain: Bool, ack: BridgeCore.AckTag?)] {
        a.compactMap { if case let .publish(t, p, r, ack) = $0 { (t, String(decoding: p, as: UTF8.self), r, ack) } else { nil } }
    }

    func sent(_ a: [BridgeCore.Action]) -> [Object] {
        a.compactMap { if case .sendDevice(let m) = $0 { m } else { nil } }
    }

    func json(_ s: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.utf8)) as? [String: Any])
    }

    /// A core that is connected on both sides with a summary published.
    func connected(_ config: BridgeConfig = BridgeConfig()) throws -> (BridgeCore, [BridgeCore.Action]) {
        let core = BridgeCore(config: config, lastSeq: 0, session: .init())
        var all = core.mqttConnected(sessionPresent: false)
        all += core.linkConnected(welcome: ["type": .string("welcome"), "paired": .bool(true), "phone": .string("phone-1"), "seq": .int(5)], nowMs: 0)
        let ask = try XCTUnwrap(sent(all).first { $0["name"] == .string("summary") })
        all += core.deviceMessage(summary(id: try XCTUnwrap(ask["id"]?.fieldText)), nowMs: 0)
        return (core, all)
    }

    func testDiscoveryAnnouncesEveryEntityRetainedWithAvailability() throws {
        let (_, actions) = try connected()
        let p = publishes(actions)
        let configs = p.filter { $0.topic.hasPrefix("homeassistant/") && $0.topic.hasSuffix("/config") }
        XCTAssertTrue(configs.allSatisfy(\.retain))
        let objects = Set(configs.map { $0.topic.split(separator: "/")[3] })
        for o in ["coins", "level", "xp_to_next", "streak", "mood", "fullness", "energy", "tasks_due_today", "tasks_overdue",
                  "habits_done_today", "focus_minutes_left", "last_urge", "reminder_waiting", "paused", "link", "mute", "pause",
                  "brightness", "feed", "focus", "add_task", "task_completed", "reminder", "level_up", "badge",
                  "button_a_tap", "button_b_hold", "button_c_double_tap"] {
            XCTAssertTrue(objects.contains(Substring(o)), "entity \(o) announced")
        }
        XCTAssertFalse(objects.contains("next_task"), "the title sensor is off by default")
        XCTAssertEqual(configs.filter { $0.topic.contains("/device_automation/") }.count, 9, "3 keys × tap, double tap, hold")
        let coins = try json(try XCTUnwrap(configs.first { $0.topic == "homeassistant/sensor/deskpet/coins/config" }).payload)
        XCTAssertEqual((coins["device"] as? [String: Any])?["name"] as? String, "DeskPet Pip")
        XCTAssertEqual(coins["unique_id"] as? String, "deskpet_coins")
        XCTAssertEqual(coins["state_topic"] as? String, "deskpet/deskpet/state")
        let avail = try XCTUnwrap(coins["availability"] as? [[String: Any]])
        XCTAssertEqual(avail.first?["topic"] as? String, "deskpet/deskpet/status")
        XCTAssertEqual(coins["availability_mode"] as? String, "all")
        let trigger = try json(try XCTUnwrap(configs.first { $0.topic == "homeassistant/device_automation/deskpet/button_b_hold/config" }).payload)
        XCTAssertEqual(trigger["automation_type"] as? String, "trigger")
        XCTAssertEqual(trigger["type"] as? String, "button_long_press")
        XCTAssertEqual(trigger["subtype"] as? String, "button_2")
        XCTAssertEqual(trigger["topic"] as? String, "deskpet/deskpet/button/B")
        XCTAssertEqual(trigger["payload"] as? String, "hold")
        // Status online (retained) and the state, without the title.
        XCTAssertTrue(p.contains { $0.topic == "deskpet/deskpet/status" && $0.payload == "online" && $0.retain })
        let state = try XCTUnwrap(p.last { $0.topic == "deskpet/deskpet/state" })
        XCTAssertTrue(state.retain)
        let s = try json(state.payload)
        XCTAssertEqual(s["coins"] as? Int, 12)
        XCTAssertEqual(s["last_urge_iso"] as? String, "2026-03-02T06:00:00+00:00")
        XCTAssertNil(s["next_task_title"])
        XCTAssertFalse(state.payload.contains("Secret"))
    }

    func testTheTitleOptionAddsTheSensorAndAsksForIt() throws {
        var c = BridgeConfig()
        c.publishNextTaskTitle = true
        let (_, actions) = try connected(c)
        XCTAssertTrue(publishes(actions).contains { $0.topic == "homeassistant/sensor/deskpet/next_task/config" })
        XCTAssertEqual(sent(actions).first { $0["name"] == .string("summary") }?["fields"], .object(["titles": .string("yes")]))
        XCTAssertTrue(publishes(actions).last { $0.topic.hasSuffix("/state") }?.payload.contains("Secret plan") ?? false)
    }

    func testPublishSelectsGroups() throws {
        var c = BridgeConfig()
        c.publish = [.sensors]
        let (_, actions) = try connected(c)
        let configs = publishes(actions).filter { $0.topic.hasSuffix("/config") }
        XCTAssertTrue(configs.allSatisfy { $0.topic.hasPrefix("homeassistant/sensor/") })
    }

    func testHomeAssistantBirthReannounces() throws {
        let (core, _) = try connected()
        let again = publishes(core.mqttMessage(topic: "homeassistant/status", payload: Array("online".utf8), mid: 0, nowMs: 10))
        XCTAssertGreaterThan(again.filter { $0.topic.hasSuffix("/config") }.count, 20)
        XCTAssertTrue(again.contains { $0.topic.hasSuffix("/state") })
        XCTAssertTrue(publishes(core.mqttMessage(topic: "homeassistant/status", payload: Array("offline".utf8), mid: 0, nowMs: 10)).isEmpty)
    }

    func testCommandsMapAndARedeliveryKeepsItsID() throws {
        let (core, _) = try connected()
        let a1 = sent(core.mqttMessage(topic: "deskpet/deskpet/mute/set", payload: Array("ON".utf8), mid: 7, nowMs: 100))
        XCTAssertEqual(a1.count, 1)
        XCTAssertEqual(a1[0]["name"], .string("settings.device"))
        XCTAssertEqual(a1[0]["fields"], .object(["sound": .string("off")]))
        let id = try XCTUnwrap(a1[0]["id"]?.fieldText)
        XCTAssertTrue(LinkIDCheck.valid(id), id)
        // The same packet again (a QoS 1 redelivery) while the first is unanswered: nothing new sent.
        XCTAssertTrue(sent(core.mqttMessage(topic: "deskpet/deskpet/mute/set", payload: Array("ON".utf8), mid: 7, nowMs: 110)).isEmpty)
        _ = core.deviceMessage(["type": .string("reply"), "id": .string(id), "ok": .bool(true)], nowMs: 120)
        // After the answer, a redelivery goes with the same id: the device answers it as a duplicate.
        let again = sent(core.mqttMessage(topic: "deskpet/deskpet/mute/set", payload: Array("ON".utf8), mid: 7, nowMs: 130))
        XCTAssertEqual(again.first?["id"]?.fieldText, id)
        // Another press is another message: another id.
        let other = sent(core.mqttMessage(topic: "deskpet/deskpet/mute/set", payload: Array("ON".utf8), mid: 8, nowMs: 140))
        XCTAssertNotEqual(other.first?["id"]?.fieldText, id)
        // Every command topic.
        func cmd(_ t: String, _ p: String, mid: Int32) -> Object? { sent(core.mqttMessage(topic: "deskpet/deskpet/" + t, payload: Array(p.utf8), mid: mid, nowMs: 200)).first }
        XCTAssertEqual(cmd("pause/set", "ON", mid: 20)?["name"], .string("pause"))
        XCTAssertEqual(cmd("pause/set", "OFF", mid: 21)?["name"], .string("resume"))
        XCTAssertEqual(cmd("brightness/set", "40.0", mid: 22)?["fields"], .object(["brightness": .string("40")]))
        XCTAssertEqual(cmd("feed/press", "PRESS", mid: 23)?["fields"], .object(["item": .string("apple")]))
        XCTAssertEqual(cmd("focus/press", "PRESS", mid: 24)?["fields"], .object(["minutes": .string("25")]))
        XCTAssertEqual(cmd("task/set", "Water plants", mid: 25)?["fields"], .object(["title": .string("Water plants")]))
        XCTAssertEqual(cmd("task/set", #"{"title":"Call mum","due":"today 18:00"}"#, mid: 26)?["fields"],
                       .object(["title": .string("Call mum"), "due": .string("today 18:00")]))
    }

    func testANewBrokerSessionChangesTheIDs() {
        let a = CommandRouter.commandID(epoch: 1, wrap: 0, mid: 5, topic: "t", payload: [1])
        XCTAssertEqual(a, CommandRouter.commandID(epoch: 1, wrap: 0, mid: 5, topic: "t", payload: [1]))
        XCTAssertNotEqual(a, CommandRouter.commandID(epoch: 2, wrap: 0, mid: 5, topic: "t", payload: [1]))
        XCTAssertNotEqual(a, CommandRouter.commandID(epoch: 1, wrap: 1, mid: 5, topic: "t", payload: [1]))
        XCTAssertLessThanOrEqual(a.utf8.count, 48)
        let core = BridgeCore(config: BridgeConfig(), lastSeq: 0, session: .init())
        let first = core.mqttConnected(sessionPresent: false)
        XCTAssertTrue(first.contains(.saveSession(core.session)))
        XCTAssertEqual(core.session.epoch, 1)
        _ = core.mqttConnected(sessionPresent: true)
        XCTAssertEqual(core.session.epoch, 1, "a resumed session keeps its packet ids")
    }

    func testHostileInputIsRefusedWithALogLineAndNoPersonalText() throws {
        let (core, _) = try connected()
        func logs(_ t: String, _ p: [UInt8], mid: Int32) -> [String] {
            core.mqttMessage(topic: t, payload: p, mid: mid, nowMs: 1000).compactMap { if case .log(let l) = $0 { l } else { nil } }
        }
        let secret = "my secret diary"
        let cases: [(String, [UInt8])] = [
            ("deskpet/deskpet/task/set", Array(#"{"title":"\#(secret)",}"#.utf8)),          // trailing comma
            ("deskpet/deskpet/task/set", Array(#"{"title":"\#(secret)","title":"x"}"#.utf8)), // duplicate key
            ("deskpet/deskpet/task/set", Array(#"{"title":"\#(secret)","notes":"x"}"#.utf8)), // unknown key
            ("deskpet/deskpet/task/set", Array(repeating: 0x41, count: 5000)),                // huge
            ("deskpet/deskpet/task/set", [0xFF, 0xFE]),                                      // not UTF-8
            ("deskpet/deskpet/task/set", Array(String(repeating: "x", count: 101).utf8)),    // too long a title
            ("deskpet/deskpet/brightness/set", Array("5".utf8)),
            ("deskpet/deskpet/mute/set", Array(secret.utf8)),
            ("deskpet/deskpet/\(secret)/set", Array("ON".utf8)),                             // unknown topic
            ("elsewhere/\(secret)", Array("ON".utf8)),
        ]
        for (i, c) in cases.enumerated() {
            let l = logs(c.0, c.1, mid: Int32(100 + i))
            XCTAssertEqual(l.count, 1, "one log line for case \(i)")
            XCTAssertFalse(l.joined().contains(secret), "no payload or topic text in the log: \(l)")
        }
        XCTAssertEqual(core.queuedCommands, 0, "nothing reached the device")
    }

    func testAFloodIsRateLimited() throws {
        var c = BridgeConfig()
        c.commandsPerSecond = 5; c.commandBurst = 10
        let (core, _) = try connected(c)
        var sentCount = 0, logLines = 0
        for i in 0..<200 {
            let a = core.mqttMessage(topic: "deskpet/deskpet/focus/press", payload: Array("PRESS".utf8), mid: Int32(1000 + i), nowMs: 5000)
            sentCount += sent(a).count
            logLines += a.filter { if case .log = $0 { true } else { false } }.count
        }
        XCTAssertEqual(sentCount, 10, "the burst only")
        XCTAssertEqual(logLines, 1, "one log line per second of flood")
        XCTAssertEqual(core.nextDeadlineMs(), 6000, "the rest of the count is logged a second later")
        let rest = core.tick(nowMs: 6000).compactMap { if case .log(let l) = $0 { l } else { nil } }
        XCTAssertEqual(rest.count, 1)
        XCTAssertTrue(rest.first?.contains("dropped 189 over the limit") ?? false, "\(rest)")
        // One second later: 5 more tokens.
        var later = 0
        for i in 0..<20 { later += sent(core.mqttMessage(topic: "deskpet/deskpet/focus/press", payload: Array("PRESS".utf8), mid: Int32(2000 + i), nowMs: 6000)).count }
        XCTAssertEqual(later, 5)
    }

    func testCommandsBeyondTheQueueAreDroppedWithOneLogLineASecond() throws {
        var c = BridgeConfig()
        c.commandsPerSecond = 1000; c.commandBurst = 1000
        let (core, _) = try connected(c)
        _ = core.linkLost(reason: "test")
        var logs: [String] = []
        for i in 0..<(BridgeCore.queueLimit + 50) {
            for a in core.mqttMessage(topic: "deskpet/deskpet/focus/press", payload: Array("PRESS".utf8), mid: Int32(3000 + i), nowMs: 9000) {
                if case .log(let l) = a { logs.append(l) }
            }
        }
        XCTAssertEqual(core.queuedCommands, BridgeCore.queueLimit)
        XCTAssertEqual(logs.count, 1)
        let rest = core.tick(nowMs: 10_000).compactMap { if case .log(let l) = $0 { l } else { nil } }
        XCTAssertTrue(rest.first?.contains("dropped 49 while 256 waited") ?? false, "\(rest)")
    }

    func testEventsAreAcknowledgedBeforeTheResumePointMoves() throws {
        let (core, _) = try connected()
        func ev(_ seq: Int64, _ type: String, _ extra: Object = [:]) -> Object {
            var body: Object = ["type": .string(type)]
            for (k, v) in extra { body[k] = v }
            return ["type": .string("event"), "seq": .int(seq), "at": .int(1_772_434_800), "kind": .string("reward"), "event": .object(body)]
        }
        let a6 = core.deviceMessage(ev(6, "task.completed", ["id": .string("t1"), "title": .string("Secret plan")]), nowMs: 1)
        let p6 = try XCTUnwrap(publishes(a6).first)
        XCTAssertEqual(p6.topic, "deskpet/deskpet/event/task_completed")
        XCTAssertFalse(p6.retain)
        XCTAssertFalse(p6.payload.contains("Secret"))
        XCTAssertEqual(try json(p6.payload)["event_type"] as? String, "completed")
        XCTAssertFalse(a6.contains(.saveLastSeq(6)), "not before the broker has it")
        let a7 = core.deviceMessage(ev(7, "task.created", ["title": .string("x")]), nowMs: 2)
        XCTAssertTrue(publishes(a7).isEmpty, "not an event Home Assistant gets")
        XCTAssertFalse(a7.contains(.saveLastSeq(7)))
        let a8 = core.deviceMessage(ev(8, "level.reached", ["level": .int(3)]), nowMs: 3)
        XCTAssertEqual(try json(try XCTUnwrap(publishes(a8).first).payload)["level"] as? Int, 3)
        // Acks out of order: 8 first keeps the mark below 6.
        XCTAssertTrue(core.published(.event(8)).isEmpty)
        XCTAssertEqual(core.published(.event(6)), [.saveLastSeq(8)])
        // A replayed event (seq already seen) is dropped.
        XCTAssertTrue(core.deviceMessage(ev(8, "level.reached", ["level": .int(3)]), nowMs: 4).isEmpty)
        // A failed publication goes again on reconnect.
        _ = core.deviceMessage(ev(9, "badge.earned", ["id": .string("first-task")]), nowMs: 5)
        core.publishFailed(.event(9))
        _ = core.mqttDisconnected(reason: "test")
        XCTAssertTrue(publishes(core.mqttConnected(sessionPresent: true)).contains { $0.topic == "deskpet/deskpet/event/badge" })
    }

    func testRemindersAreConfirmedOnlyAfterTheBroker() throws {
        let (core, _) = try connected()
        let items: Object = ["type": .string("reminders"), "items": .array([.object([
            "id": .string("task:t1:0"), "source": .string("task"), "ref": .string("t1"), "due": .int(1_772_434_800), "solicited": .bool(true)])])]
        let a = core.deviceMessage(items, nowMs: 1)
        let p = try XCTUnwrap(publishes(a).first)
        XCTAssertEqual(p.topic, "deskpet/deskpet/event/reminder")
        XCTAssertEqual(try json(p.payload)["event_type"] as? String, "reminder")
        XCTAssertTrue(sent(a).isEmpty, "no confirmation before the broker's")
        XCTAssertTrue(publishes(core.deviceMessage(items, nowMs: 2)).isEmpty, "sent again by the device: published once")
        let confirm = sent(core.published(.reminder("task:t1:0")))
        XCTAssertEqual(confirm.first?["name"], .string("notice.delivered"))
        XCTAssertEqual(confirm.first?["fields"], .object(["ids": .string("task:t1:0")]))
        XCTAssertTrue(LinkIDCheck.valid(try XCTUnwrap(confirm.first?["id"]?.fieldText)))
    }

    func testButtonsBecomeTriggerMessages() throws {
        let (core, _) = try connected()
        let p = publishes(core.deviceMessage(["type": .string("button"), "button": .string("B"), "gesture": .string("hold")], nowMs: 1))
        XCTAssertEqual(p.first?.topic, "deskpet/deskpet/button/B")
        XCTAssertEqual(p.first?.payload, #"{"gesture":"hold"}"#, "an unnumbered gesture (an older device): no resume point")
        XCTAssertTrue(publishes(core.deviceMessage(["type": .string("button"), "button": .string("../x"), "gesture": .string("hold")], nowMs: 1)).isEmpty)
    }

    func testCommandsWaitForTheDeviceAndGoAgainWithTheirIDs() throws {
        let (core, _) = try connected()
        let first = sent(core.mqttMessage(topic: "deskpet/deskpet/focus/press", payload: Array("PRESS".utf8), mid: 50, nowMs: 1))
        let id = try XCTUnwrap(first.first?["id"])
        let lost = publishes(core.linkLost(reason: "test"))
        XCTAssertTrue(lost.contains { $0.topic == "deskpet/deskpet/link" && $0.payload == "OFF" })
        XCTAssertTrue(sent(core.mqttMessage(topic: "deskpet/deskpet/pause/set", payload: Array("ON".utf8), mid: 51, nowMs: 2)).isEmpty, "queued while away")
        let back = sent(core.linkConnected(welcome: ["type": .string("welcome"), "paired": .bool(true), "seq": .int(5)], nowMs: 3))
        let commands = back.filter { $0["type"] == .string("command") && $0["name"] != .string("summary") && $0["name"] != .string("buttons.watch") }
        XCTAssertEqual(commands.first?["id"], id, "the unanswered one again, first, with its id")
        XCTAssertEqual(commands.count, 2)
    }

    func testAWipedDeviceStartsTheResumeOver() {
        let core = BridgeCore(config: BridgeConfig(), lastSeq: 500, session: .init())
        let a = core.linkConnected(welcome: ["type": .string("welcome"), "paired": .bool(true), "seq": .int(3)], nowMs: 0)
        XCTAssertTrue(a.contains(.saveLastSeq(0)))
        XCTAssertEqual(core.lastSeq, 0)
    }

    func testForgetCoversEveryKeyAndGroup() {
        var c = BridgeConfig()
        c.publish = [.sensors]
        let topics = Discovery(config: c).allConfigTopics()
        XCTAssertTrue(topics.contains("homeassistant/device_automation/deskpet/button_centre_hold/config"))
        XCTAssertTrue(topics.contains("homeassistant/sensor/deskpet/next_task/config"))
        XCTAssertTrue(topics.contains("homeassistant/text/deskpet/add_task/config"))
    }

    func testISOTime() {
        XCTAssertEqual(ISOTime.string(0), "1970-01-01T00:00:00+00:00")
        XCTAssertEqual(ISOTime.string(1_772_434_800), "2026-03-02T07:00:00+00:00")
        XCTAssertEqual(ISOTime.string(951_782_400), "2000-02-29T00:00:00+00:00")
    }

    func gesture(_ key: String, _ g: String, run: String = "0a1b", n: Int64, replayed: Bool = false) -> Object {
        var o: Object = ["type": .string("button"), "button": .string(key), "gesture": .string(g), "run": .string(run),
                         "n": .int(n), "at": .int(1_772_434_800 + n)]
        if replayed { o["replayed"] = .bool(true) }
        return o
    }

    /// Numbered gestures: published once each (QoS 1, acknowledged), the resume point saved only
    /// when the broker has every one up to it, asked for again with `since` on reconnect.
    func testGesturesAreNumberedPublishedOnceAndResumed() throws {
        let (core, _) = try connected()
        let a = core.deviceMessage(gesture("B", "hold", n: 1), nowMs: 1)
        let p = try XCTUnwrap(publishes(a).first)
        XCTAssertEqual(p.topic, "deskpet/deskpet/button/B")
        XCTAssertEqual(p.ack, .gesture(1))
        let body = try json(p.payload)
        XCTAssertEqual(body["gesture"] as? String, "hold")
        XCTAssertEqual(body["n"] as? Int, 1)
        XCTAssertEqual(body["at_iso"] as? String, "2026-03-02T07:00:01+00:00")
        XCTAssertEqual(body["replayed"] as? Bool, false)
        XCTAssertFalse(a.contains { if case .saveGestureMark = $0 { true } else { false } }, "not before the broker has it")
        _ = core.deviceMessage(gesture("A", "tap", n: 2), nowMs: 2)
        XCTAssertTrue(core.published(.gesture(2)).isEmpty, "1 is still out: the mark stays")
        XCTAssertEqual(core.published(.gesture(1)), [.saveGestureMark("0a1b:2")])
        // The same gesture replayed by the device: dropped.
        XCTAssertTrue(publishes(core.deviceMessage(gesture("B", "hold", n: 2, replayed: true), nowMs: 3)).isEmpty)
        // The link comes back: buttons.watch asks for what came after 2.
        _ = core.linkLost(reason: "test")
        let back = sent(core.linkConnected(welcome: ["type": .string("welcome"), "paired": .bool(true), "seq": .int(5)], nowMs: 4))
        let watch = try XCTUnwrap(back.first { $0["name"] == .string("buttons.watch") })
        XCTAssertEqual(watch["fields"], .object(["since": .string("0a1b:2")]))
        let r = publishes(core.deviceMessage(gesture("C", "double_tap", n: 3, replayed: true), nowMs: 5))
        XCTAssertEqual(try json(try XCTUnwrap(r.first).payload)["replayed"] as? Bool, true)
    }

    /// During a broker outage gestures wait (the library could not take them: sent on reconnect);
    /// a restarted bridge starts from its saved mark; a restarted device numbers anew.
    func testGesturesSurviveAnOutageAndRestarts() throws {
        let (core, _) = try connected()
        _ = core.mqttDisconnected(reason: "test")
        let out = publishes(core.deviceMessage(gesture("A", "hold", n: 7), nowMs: 1))
        XCTAssertEqual(out.first?.ack, .gesture(7))
        core.publishFailed(.gesture(7))
        let again = publishes(core.mqttConnected(sessionPresent: true)).filter { $0.topic == "deskpet/deskpet/button/A" }
        XCTAssertEqual(again.count, 1, "published again once on reconnect")
        XCTAssertEqual(try json(try XCTUnwrap(again.first).payload)["n"] as? Int, 7)
        XCTAssertEqual(core.published(.gesture(7)), [.saveGestureMark("0a1b:7")])

        let restarted = BridgeCore(config: BridgeConfig(), lastSeq: 0, session: .init(), gestureMark: "0a1b:7")
        _ = restarted.mqttConnected(sessionPresent: true)
        let hello = sent(restarted.linkConnected(welcome: ["type": .string("welcome"), "paired": .bool(true), "seq": .int(5)], nowMs: 0))
        XCTAssertEqual(hello.first { $0["name"] == .string("buttons.watch") }?["fields"], .object(["since": .string("0a1b:7")]))
        XCTAssertTrue(publishes(restarted.deviceMessage(gesture("A", "hold", n: 7, replayed: true), nowMs: 1)).isEmpty)
        let skipped = restarted.deviceMessage(gesture("A", "tap", n: 10, replayed: true), nowMs: 1)
        XCTAssertTrue(skipped.contains(.log("link: 2 key gesture(s) were older than the device keeps: not replayed")))
        // The device restarted: its numbers start again, under a new run.
        let fresh = restarted.deviceMessage(gesture("B", "tap", run: "ffee", n: 1), nowMs: 2)
        XCTAssertEqual(publishes(fresh).first?.ack, .gesture(1))
        XCTAssertEqual(restarted.published(.gesture(1)), [.saveGestureMark("ffee:1")])
        // Bad marks are not marks.
        for bad in ["", "x", "AB:1", "a:-1", "a:1:2", ":4", String(repeating: "a", count: 33) + ":1"] {
            XCTAssertNil(BridgeCore.parseGestureMark(bad), bad)
        }
        XCTAssertNil(BridgeCore(config: BridgeConfig(), lastSeq: 0, session: .init(), gestureMark: "junk").gestureRun)
    }
}

/// The device's rule for client command ids (docs/protocol.md#commands).
enum LinkIDCheck {
    static func valid(_ id: String) -> Bool {
        (1...48).contains(id.utf8.count) && id.utf8.allSatisfy { b in
            (48...57).contains(b) || (65...90).contains(b) || (97...122).contains(b) || "-_.:#".utf8.contains(b)
        }
    }

}
