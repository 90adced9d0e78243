import XCTest
import TestSupport
import PetCore

/// DESIGN "testing layers" 2: seeded random command sequences keep the invariants — coins and XP
/// never negative, level in 1...100, the ledger adds up, days close once each in order, replay
/// equals the live state, and a repeated command id changes nothing.
final class PropertyTests: XCTestCase {
    func testRandomCommandSequencesKeepTheInvariants() {
        for seed in 1...20 { runSequence(seed: UInt64(seed), steps: 300) }
    }

    private struct Generator {
        var rng: SplitMix64
        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
        mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
        mutating func offset(_ range: ClosedRange<Int64>) -> Int64 { Int64.random(in: range, using: &rng) }
    }

    private func randomTaskFields(_ g: inout Generator, _ h: Harness, id: String?) -> [String: String] {
        var f: [String: String] = [:]
        if let id { f["task"] = id }
        f["title"] = g.pick(["Read", "Write essay", "", "  ", String(repeating: "x", count: 101), "Two\nlines", "Gym"])
        if g.chance(30) { f["notes"] = g.pick(["", "short", String(repeating: "n", count: 501)]) }
        if g.chance(40) { f["priority"] = g.pick(["low", "normal", "high", "urgent"]) }
        if g.chance(30) { f["category"] = g.pick(h.state.categories + ["Nope", "home"]) }
        if g.chance(20) { f["project"] = g.pick(["P", "Thesis", String(repeating: "p", count: 41)]) }
        if g.chance(70) { f["due"] = "@\((h.now + g.offset(-2 * Seconds.hour...4 * Seconds.day)).seconds)" }
        if g.chance(10) { f["start"] = "@\((h.now + g.offset(-Seconds.day...Seconds.day)).seconds)" }
        if g.chance(40) { f["estimate"] = String(g.pick([0, 1, 14, 15, 60, 240, 1440, 1441])) }
        if g.chance(35) { f["repeat"] = g.pick(["daily", "weekdays:mon,wed,fri", "every:3", "every:0", "weekdays:", "none"]) }
        if g.chance(10) { f["until"] = g.pick(["2026-04-01", "2026-13-01"]) }
        if g.chance(40) {
            let n = g.int(0...6)
            f["reminders"] = (0..<n).map { _ in "@\((h.now + g.offset(-Seconds.hour...2 * Seconds.day)).seconds)" }
                .joined(separator: ",")
        }
        return f
    }

    private func randomCommand(_ g: inout Generator, _ h: Harness) -> (String, [String: String]) {
        let ids = h.state.tasks.keys.sorted()
        let someTask = ids.isEmpty || g.chance(5) ? "ghost" : g.pick(ids)
        switch g.int(0...99) {
        case 0..<22: return ("task.create", randomTaskFields(&g, h, id: g.chance(80) ? "t\(g.int(0...60))" : nil))
        case 22..<37: return ("task.complete", ["task": someTask])
        case 37..<44: return ("task.uncomplete", ["task": someTask])
        case 44..<48: return ("task.delete", ["task": someTask])
        case 48..<52: return ("task.duplicate", g.chance(50) ? ["task": someTask] : ["task": someTask, "new": "d\(g.int(0...30))"])
        case 52..<56: return ("task.start", ["task": someTask])
        case 56..<62:
            var f = randomTaskFields(&g, h, id: someTask)
            for k in f.keys where k != "task" && g.chance(60) { f[k] = nil }
            if g.chance(15) { f["clear"] = g.pick(["due", "reminders", "estimate,project", "title"]) }
            return ("task.edit", f)
        case 62..<65: return ("reminder.silence", g.chance(50) ? ["task": someTask] : ["task": someTask, "index": String(g.int(0...5))])
        case 65..<72: return ("pet.pet", [:])
        case 72..<75: return (g.chance(50) ? "pause" : "resume", [:])
        case 75..<78: return ("settings.zone", ["zone": g.pick(coreTestZoneIDs + ["Mars/Base"])])
        case 78..<80: return ("settings.day-start", ["hour": String(g.pick([0, 2, 3, 5, 12, 23, 24]))])
        case 80..<82: return ("settings.quiet-hours", ["from": g.pick(["22:00", "23:30", "00:00"]), "to": g.pick(["07:00", "06:15", "00:00"])])
        case 82..<84: return ("category.add", ["name": g.pick(["Garden", "Music", "home", "", "Chores"])])
        case 84..<85: return ("category.delete", ["name": g.pick(h.state.categories + ["Nope"])])
        case 85..<86: return ("category.rename", ["name": g.pick(h.state.categories), "to": g.pick(["Yard", "Study", "Other2"])])
        case 86..<88: return ("pet.name", ["name": g.pick(["Mochi", "", "Bad!", "O'Neil-2"])])
        case 88..<90: return ("pet.traits", ["personality": g.pick(["playful", "calm", "curious", "shy", "grumpy"])])
        default: return ("task.explode", [:])
        }
    }

    private func runSequence(seed: UInt64, steps: Int) {
        var g = Generator(rng: SplitMix64(seed: seed))
        let zone = g.pick(coreTestZoneIDs)
        var h = Harness(zone: zone, instant: Instant(1_772_400_000 + g.offset(0...400 * Seconds.day)), dayStart: g.int(0...23))
        var accepted: [String] = []
        let context = "seed \(seed) (\(zone))"

        for step in 1...steps {
            let before = h.state
            switch g.int(0...99) {
            case 0..<20:
                // Time passes: mostly minutes or hours, sometimes days off (up to 3 days).
                let span = g.chance(15) ? g.offset(1...3 * Seconds.day) : g.offset(1...6 * Seconds.hour)
                h.advance(by: span)
            case 20..<26:
                // Repeat an earlier command id with any action: nothing happens.
                guard !accepted.isEmpty else { break }
                h.advance(to: h.now)   // settle what time alone does first (the app advances before deciding)
                let before = h.state
                let id = g.pick(accepted)
                let (name, fields) = randomCommand(&g, h)
                if let command = try? CommandParser.parse(name: name, fields: fields, id: id, at: h.now, clock: h.clock) {
                    XCTAssertEqual(try? h.engine.decide(command), [], "\(context) step \(step): repeated id \(id)")
                    XCTAssertEqual(try? h.run(command), [], "\(context) step \(step)")
                    XCTAssertTrue(h.state == before, "\(context) step \(step): repeated id changed \(stateDiff(h.state, before))")
                }
            default:
                let (name, fields) = randomCommand(&g, h)
                // Commands usually come a little later; sometimes stamped in the past (clock jumped back).
                let at = g.chance(10) ? h.now - g.offset(1...Seconds.day) : h.now + g.offset(0...2 * Seconds.hour)
                let id = h.nextCommandID()
                do {
                    try h.send(name, fields, at: at, id: id)
                    accepted.append(id)
                } catch {
                    XCTAssertTrue(h.state == before, "\(context) step \(step): refused \(name) changed \(stateDiff(h.state, before))")
                }
            }
            checkInvariants(h, "\(context) step \(step)")
            if step % 50 == 0 { h.assertReplayEqualsLive() }
        }
        h.assertReplayEqualsLive()
        checkJournal(h, context)
    }

    private func checkInvariants(_ h: Harness, _ context: String) {
        let s = h.state
        XCTAssertGreaterThanOrEqual(s.coins, 0, context)
        XCTAssertGreaterThanOrEqual(s.xp, 0, context)
        XCTAssertTrue((1...100).contains(s.level), context)
        XCTAssertEqual(s.coins, s.coinsEarned - s.coinsSpent, context)
        XCTAssertGreaterThanOrEqual(s.tasksCompleted, 0, context)
        XCTAssertGreaterThanOrEqual(s.streak, 0, context)
        for t in s.tasks.values {
            XCTAssertLessThanOrEqual(t.reminders.count, 5, context)
            if let due = t.due { XCTAssertGreaterThanOrEqual(due, t.start, context) }
            XCTAssertEqual(t.state == .completed, t.reward != nil, "\(context): \(t.id)")
            XCTAssertTrue(s.categories.contains(t.category), "\(context): \(t.id) in \(t.category)")
        }
    }

    private func checkJournal(_ h: Harness, _ context: String) {
        let journal = h.journal
        XCTAssertEqual(journal.reduce(0) { $0 + $1.kind.coinsDelta }, h.state.coins, "\(context): the ledger adds up")
        XCTAssertEqual(journal.reduce(0) { $0 + $1.kind.xpDelta }, h.state.xp, context)
        let days = journal.closedDays.map(\.day)
        XCTAssertEqual(days, days.isEmpty ? [] : Array(days.first!...days.last!), "\(context): each day closes once, in order")
        let said = journal.saidKeys
        for (a, b) in zip(said, said.dropFirst()) { XCTAssertNotEqual(a, b, "\(context): the pet repeated a line") }
        let badges = journal.badges
        XCTAssertEqual(Set(badges).count, badges.count, "\(context): a badge twice")
        XCTAssertEqual(journal.map(\.at), journal.map(\.at).sorted(), "\(context): the journal is in time order")
    }
}
