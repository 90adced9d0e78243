import Foundation
import XCTest
import PetCore

/// The one privacy filter (`EventKind.appMention` / `shared(privateApps:)`) against every event
/// kind there is: an example of each (EventCodingTests.examples covers every kind — its own test
/// fails when a kind has none), its JSON searched for every field that can hold an app id.
final class PrivacyFilterTests: XCTestCase {
    /// Keys whose values are app ids in any event's JSON. An event kind with such a field must
    /// name those apps in `appMention`, or this test fails.
    static let appKeys: Set<String> = ["app", "apps", "blocked"]

    private func json(_ k: EventKind) throws -> Any {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        return try JSONSerialization.jsonObject(with: try enc.encode(k))
    }

    /// Every string under an app key, anywhere in the JSON.
    private func appValues(_ v: Any) -> [String] {
        var out: [String] = []
        if let d = v as? [String: Any] {
            for (k, x) in d {
                if Self.appKeys.contains(k) {
                    if let s = x as? String { out.append(s) }
                    if let a = x as? [Any] { out += a.compactMap { $0 as? String } }
                }
                out += appValues(x)
            }
        } else if let a = v as? [Any] {
            for x in a { out += appValues(x) }
        }
        return out
    }

    private func mentioned(_ k: EventKind) -> [String] {
        switch k.appMention {
        case .none: []
        case .about(let app): [app]
        case .mentions(let apps): apps
        }
    }

    func testEveryEventKindIsClassifiedByTheAppsItsJSONNames() throws {
        let examples = EventCodingTests.examples()
        for k in examples {
            let inJSON = Set(appValues(try json(k)))
            XCTAssertEqual(Set(mentioned(k)), inJSON,
                           "\(k.type): its JSON names the apps \(inJSON.sorted()); classify them in EventKind.appMention")
        }
    }

    func testNoPrivateAppSurvivesTheFilterInAnyEventKind() throws {
        for k in EventCodingTests.examples() {
            let apps = Set(mentioned(k))
            guard !apps.isEmpty else {
                XCTAssertEqual(k.shared(privateApps: ["com.video", "youtube", "dating.app"]), k, "\(k.type) names no app")
                continue
            }
            let shared = k.shared(privateApps: apps)
            if let shared {
                let text = String(decoding: try JSONEncoder().encode(shared), as: UTF8.self)
                for app in apps { XCTAssertFalse(text.contains("\"\(app)\""), "\(k.type) still names \(app): \(text)") }
                XCTAssertEqual(shared.type, k.type)
            }
            // Apps that are not private leave the event as it was.
            XCTAssertEqual(k.shared(privateApps: ["some.other.app"]), k)
            XCTAssertEqual(k.shared(privateApps: []), k)
        }
    }

    func testFocusEventsLoseOnlyThePrivateApps() {
        let s = FocusSession(id: "f1", start: Instant(1_772_434_800), end: Instant(1_772_436_300), minutes: 25,
                             blocked: ["com.video", "dating.app", "com.chat"], commitments: [])
        var expected = s
        expected.blocked = ["com.video", "com.chat"]
        XCTAssertEqual(EventKind.commitment(.focusStarted(s)).shared(privateApps: ["dating.app"]),
                       .commitment(.focusStarted(expected)))
        XCTAssertEqual(EventKind.commitment(.focusFailed(session: "f1", reason: .app, app: "dating.app"))
                        .shared(privateApps: ["dating.app"]),
                       .commitment(.focusFailed(session: "f1", reason: .app, app: nil)))
        XCTAssertNil(EventKind.appTime(.session(app: "dating.app", start: Instant(0), end: Instant(60)))
                        .shared(privateApps: ["dating.app"]))
    }
}

/// Control characters in any command field are refused in PetCore, naming the field (so the
/// phone link, scenarios and tools are all covered).
final class ControlCharacterTests: XCTestCase {
    func testControlCharactersInTitlesAndTextsAreRefusedWithTheFieldNamed() {
        let clock = DayClock(zone: ZoneRules.utc, dayStartHour: 3)
        let at = Instant(1_772_434_800)
        func refusal(_ name: String, _ fields: [String: String], id: String = "c1") -> DomainError? {
            do { _ = try CommandParser.parse(name: name, fields: fields, id: id, at: at, clock: clock); return nil }
            catch { return error }
        }
        for (c, hex) in [("\u{0}", "U+0000"), ("\u{7}", "U+0007"), ("\u{1B}", "U+001B"), ("\u{7F}", "U+007F"),
                         ("\u{85}", "U+0085"), ("\u{9B}", "U+009B"), ("\r", "U+000D"), ("\u{2028}", "U+2028")] {
            let e = refusal("task.create", ["task": "t", "title": "Pay\(c)rent"])
            XCTAssertEqual(e?.code, "invalid_field", hex)
            guard case let .invalidField(field, reason)? = e else { XCTFail(hex); continue }
            XCTAssertEqual(field, "title", hex)
            XCTAssertTrue(reason.contains(hex), reason)
            XCTAssertFalse(reason.contains("Pay"), "an error never repeats personal text")
        }
        // A newline is one line too many in a title, but fine in notes; ESC is never fine.
        XCTAssertEqual(refusal("task.create", ["task": "t", "title": "a\nb"]),
                       .invalidField(field: "title", reason: "holds the control character U+000A (one line of text)"))
        XCTAssertNil(refusal("task.create", ["task": "t", "title": "a", "notes": "line 1\nline 2\tend"]))
        if case let .invalidField(field, _)? = refusal("task.create", ["task": "t", "title": "a", "notes": "x\u{1B}[2J"]) {
            XCTAssertEqual(field, "notes")
        } else { XCTFail("ESC in notes must be refused") }
        if case let .invalidField(field, _)? = refusal("habit.add", ["text": "Read\u{0}"]) { XCTAssertEqual(field, "text") }
        else { XCTFail("NUL in a habit's text must be refused") }
        if case let .invalidField(field, _)? = refusal("task.create", ["task": "t\u{7}", "title": "a"]) { XCTAssertEqual(field, "task") }
        else { XCTFail("BEL in an id field must be refused") }
        if case let .invalidField(field, _)? = refusal("task.create", ["task": "t", "title": "a"], id: "c\u{1B}") {
            XCTAssertEqual(field, "id")
        } else { XCTFail("a control character in the command id must be refused") }
        XCTAssertNil(refusal("task.create", ["task": "t", "title": "Tïtle ✓ 🐱"]), "ordinary Unicode is text")
    }
}
