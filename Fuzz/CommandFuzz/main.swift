// libFuzzer target for the command parser (tools/fuzz.sh command; docs/reliability.md): what a
// phone's `command` message becomes. Built against PetSim/PetLink compiled with
// -sanitize=fuzzer,address by SwiftPM. Input: one frame body (JSON), decoded as the link decodes it
// (ClientMessage), its fields made text as LinkService reads them; or, when the input does not start
// with `{`, the same without the JSON (mutations then reach the parser instead of breaking the
// JSON): the name on the first line, then `key=value` lines. CommandParser builds the Command and
// the engine decides it, against a pet in Europe/Berlin (DST) with a task, a habit and coins.
// Checks: nothing traps; every refusal has a stable code and a description; a command the engine
// accepts yields events that encode as journal rows and decode back to the same events.
import FoundationEssentials
import PetCore
import PetDevice
import PetLink

let zones = ZoneDatabase()
let start = Instant(1_774_000_000)   // 2026-03-20, a week before the spring-forward night
let base: Engine = {
    guard var (e, _) = try? Engine.create(at: start, zoneID: "Europe/Berlin", zones: zones.lookup) else {
        fatalError("no Europe/Berlin in /usr/share/zoneinfo: the command fuzzer needs tzdata")
    }
    for (i, (name, fields)) in [("task.create", ["task": "t1", "title": "A task", "due": "today 18:00", "repeat": "daily"]),
                                ("habit.add", ["habit": "water", "text": "Water", "reminder": "09:00"]),
                                ("task.create", ["task": "t2", "title": "Another"]),
                                ("task.complete", ["task": "t2"])].enumerated() {
        guard let c = try? CommandParser.parse(name: name, fields: fields, id: "seed-\(i)", at: start, clock: e.state.clock),
              let events = try? e.decide(c) else { fatalError("the fuzzer's starting pet could not be built (\(name))") }
        e.apply(events)
    }
    return e
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let name: String, id: String
    var fields: [String: String] = [:]
    if body.first == UInt8(ascii: "{") {
        guard case .command(let m)? = try? ClientMessage.decode(body) else { return 0 }
        for (k, v) in m.fields ?? [:] {
            guard let text = v.fieldText else { return 0 }   // refused by the link as invalid_field
            fields[k] = text
        }
        name = m.name; id = m.id
    } else {
        // The fields without the JSON around them (mutations reach the parser instead of breaking
        // the JSON): the command's name on the first line, then one key=value a line.
        let lines = String(decoding: body, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first else { return 0 }
        name = String(first); id = "f"
        for line in lines.dropFirst() {
            guard let eq = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
    }
    var engine = base
    let command: Command
    do {
        command = try CommandParser.parse(name: name, fields: fields, id: "phone-1:" + id, at: Instant(start.seconds + 3600),
                                          clock: engine.state.clock, current: engine.state.device)
    } catch {
        if error.code.isEmpty || error.description.isEmpty { fatalError("a refusal without a code or text") }
        return 0
    }
    let events: [Event]
    do { events = try engine.decide(command) } catch {
        if error.code.isEmpty || error.description.isEmpty { fatalError("a refusal without a code or text") }
        return 0
    }
    engine.apply(events)
    let decoder = JSONDecoder()
    for e in events {
        guard let row = try? JournalCodec.row(e, clock: engine.state.clock) else { fatalError("event \(e.kind.type) cannot be stored") }
        guard let back = try? decoder.decode(EventKind.self, from: Data(row.payload.utf8)) else {
            fatalError("stored \(e.kind.type) does not decode")
        }
        if back != e.kind { fatalError("stored \(e.kind.type) decodes to something else") }
    }
    return 0
}
