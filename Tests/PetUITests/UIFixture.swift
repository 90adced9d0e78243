@testable import PetCore
@testable import PetUI

/// A realistic pet for screen tests and golden frames, built through the engine exactly like the
/// app does (commands parsed by `CommandParser`, time advanced by the engine), in UTC:
/// three weeks of history from Monday 2026-03-02 (tasks done most days, habits checked, a few urges,
/// a forfeited commitment), and on Monday 2026-03-23 09:40 open tasks (one overdue, one with a long
/// title), today's checklist half done, a hat and furniture, commitments, a running focus session.
enum UIFixture {
    /// The instant the fixture's screens are drawn at: Monday 2026-03-23 09:40 UTC.
    static let now = at("2026-03-23 09:40")

    static func at(_ text: String) -> Instant {
        guard let l = LocalDateTime(parsing: text) else { return Instant(0) }
        return Instant(ZoneRules.utc.utc(for: l))
    }

    /// The long title (ellipsized everywhere).
    static let longTitle = "Call the dentist about moving next week's appointment to a later afternoon slot"

    /// The fixture state (built once). `focus: false` is the same pet without the focus session.
    static func state(focus: Bool = true) -> PetState { focus ? built.withFocus : built.plain }

    /// UI state that shows `screen` with something interesting selected.
    static func ui(for screen: ScreenID, now: Instant = UIFixture.now) -> UIState {
        var ui = UIState(screen: screen, lastInput: now)
        switch screen {
        case .boot: ui.bootUntil = now + 3
        case .today: ui.cursor = 1
        case .taskDetail: ui.detailTaskID = "dentist"
        case .shop: ui.shopTab = 1; ui.cursor = 2
        case .wardrobe: ui.cursor = 0
        case .stats: ui.statsPage = 0
        case .urgeLog:
            ui.urgeTriggers = state().urgeTriggerMenu(at: now)
            ui.urgeTrigger = 2
        case .settings: ui.cursor = 2
        case .pairing: ui.pairingCode = "482913"
        case .firstRun: ui.firstRunStep = 1; ui.firstRunChoice = 1
        case .petCare: ui.cursor = 0
        case .circle: ui.cursor = 2   // its own member (circleState), as opening it does
        case .home, .focus, .commitments: break
        }
        return ui
    }

    static let built: (plain: PetState, withFocus: PetState) = build()

    /// A long pet name (a member's own choice, shared as is: the title rules, 24 characters).
    static let longPetName = "Sir Wigglesworth III Jr."

    /// The fixture pet in a circle ("study-buddies", member "mochi"): this week's coins board
    /// (five members, "mochi" third of six) and a running challenge (5 tasks by Friday, 20 coins
    /// held); `settled`: the challenge settled (+40); `hostile`: 24-character pet names and ranks
    /// past 9. `UIFixture.state()` has no circle (the empty state).
    static func circleState(settled: Bool = false, hostile: Bool = false, several: Bool = false) -> PetState {
        var s = state()
        let circle = hostile ? "the-longest-circle-name-allowed" : "study-buddies"
        s.circles.circles[circle] = CircleMembership(circle: circle, member: "mochi", share: Set(CircleShare.allCases),
                                                     screenGoal: 0, joinedAt: at("2026-03-02 10:00"))
        let names = hostile ? [longPetName, "WWWWWWWWWWWWWWWWWWWWWWWW", "Mochi the Magnificent!!", "Ærøskøbing Smörgåsbord", "x"]
                            : ["Biscuit", "Pixel", "Mochi", "Tofu", "Nori"]
        let members = ["bea", "pix", "mochi", "tofu", "nori"]
        let values = hostile ? [12_345_678, 99_999, 4_321, 4_321, 0] : [184, 152, 131, 131, 60]
        let ranks = hostile ? [1, 12, 13, 13, 15] : [1, 2, 3, 3, 5]
        let rows = (0..<5).map { LeaderboardRow(rank: ranks[$0], member: members[$0], petName: names[$0], value: values[$0]) }
        s.circles.standings[circle] = [CircleStanding(metric: .coins, period: .week, number: s.clock.day(of: now),
                                                      ranked: hostile ? 15 : 6, rows: rows, at: now - 600)]
        if several {
            // A second circle (the screen's second tab): a week's focus and a month's coins, no challenge.
            let other = "walkers"
            s.circles.circles[other] = CircleMembership(circle: other, member: "mochi", share: Set(CircleShare.allCases),
                                                        screenGoal: 0, joinedAt: at("2026-03-02 10:00"))
            let focus = [LeaderboardRow(rank: 1, member: "mochi", petName: "Mochi", value: 420),
                         LeaderboardRow(rank: 2, member: "ink", petName: "Inkwell", value: 95)]
            let month = [LeaderboardRow(rank: 1, member: "ink", petName: "Inkwell", value: 610),
                         LeaderboardRow(rank: 2, member: "mochi", petName: "Mochi", value: 388)]
            s.circles.standings[other] = [
                CircleStanding(metric: .focus, period: .week, number: s.clock.day(of: now), ranked: 2, rows: focus, at: now - 600),
                CircleStanding(metric: .coins, period: .month, number: 2026 * 12 + 2, ranked: 2, rows: month, at: now - 600)]
        }
        let terms = ChallengeTerms(id: "five-tasks", proposer: "bea", goal: .tasksDone(5), start: at("2026-03-23 00:00"),
                                   end: at("2026-03-28 00:00"), stake: 20)
        if settled {
            let st = ChallengeSettlement(challenge: terms.id, outcomes: ["bea": .failed, "mochi": .succeeded],
                                         payouts: ["bea": 0, "mochi": 40], charity: 0)
            s.circles.settled = [SettledChallenge(circle: circle, settlement: st, member: "mochi", payout: 40, stake: 20,
                                                  at: now, final: nil, deadline: terms.finalDeadline)]
        } else {
            s.circles.challenges[terms.id] = HeldChallenge(circle: circle, terms: terms, acceptedAt: terms.start)
        }
        return s
    }

    /// The fixture pet muted, paused and in quiet hours (09:00–10:00), hungry: every status icon
    /// (the pet sleeps, so it asks for nothing).
    static func statusState() -> PetState {
        var s = state()
        s.device.sound = false
        s.paused = true
        s.quiet = QuietHours(startMinute: 9 * 60, endMinute: 10 * 60)
        s.needs.fullnessRaw = 20 * Needs.scale
        s.needs.asOf = now
        return s
    }

    /// A phone connected and the battery at 64 %.
    static let statusDevice = DeviceStatus(linkConnected: true, batteryPercent: 64)

    /// A new pet with nothing in it yet (empty lists), at `now`.
    static func fresh() -> PetState {
        let zones: ZoneLookup = { $0 == "UTC" ? ZoneRules.utc : nil }
        guard let made = try? Engine.create(at: at("2026-03-23 09:00"), zoneID: "UTC", zones: zones) else {
            preconditionFailure("UIFixture: cannot create the engine")
        }
        var d = Driver(engine: made.0)
        d.send("pet.name", ["name": "Pip"], at: at("2026-03-23 09:00"))
        _ = d.engine.advance(to: now)
        return d.engine.state
    }

    private struct Driver {
        var engine: Engine
        var n = 0

        mutating func send(_ name: String, _ fields: [String: String] = [:], at t: Instant) {
            n += 1
            do {
                var next = engine
                _ = next.advance(to: t)
                let cmd = try CommandParser.parse(name: name, fields: fields, id: "fx-\(n)", at: t, clock: next.state.clock)
                let events = try next.decide(cmd)
                next.apply(events)
                engine = next
            } catch {
                print("UIFixture: \(name) \(fields) refused: \(error)")
            }
        }
    }

    private static func build() -> (PetState, PetState) {
        let zones: ZoneLookup = { $0 == "UTC" ? ZoneRules.utc : nil }
        guard let made = try? Engine.create(at: at("2026-03-02 08:00"), zoneID: "UTC", zones: zones) else {
            preconditionFailure("UIFixture: cannot create the engine")
        }
        var d = Driver(engine: made.0)
        let start = at("2026-03-02 08:00")
        d.send("pet.name", ["name": "Mochi"], at: start)
        d.send("habit.add", ["habit": "water", "text": "Drink a glass of water"], at: start)
        d.send("habit.add", ["habit": "read", "text": "Read ten pages of a book before bed, not on the phone"], at: start)
        d.send("habit.add", ["habit": "stretch", "text": "Stretch"], at: start)
        d.send("quit.start", ["goal-days": "5"], at: start)
        let chores = ["Dishes", "Laundry", "Water the plants", "Answer mail", "Tidy desk", "Groceries", "Run"]
        let triggers = ["boredom", "stress", "time-of-day", "fatigue"]
        for day in 0..<21 {
            let base = start + Int64(day) * 86_400
            let count = [1, 2, 3, 0, 2, 4, 1][day % 7]
            for k in 0..<count {
                let id = "h\(day)-\(k)"
                d.send("task.create", ["task": id, "title": chores[(day + k) % chores.count], "due": "today 18:00",
                                       "estimate": "\(15 * (k + 1))"], at: base + 3600)
                d.send("task.complete", ["task": id], at: base + 3600 * Int64(2 + k))
            }
            for (i, h) in ["water", "read", "stretch", "movement"].enumerated() where (day + i) % 3 != 0 {
                d.send("habit.check", ["habit": h], at: base + 4 * 3600)
            }
            if day % 4 == 1 {
                d.send("quit.log", ["trigger": triggers[day % triggers.count], "outcome": day % 8 == 1 ? "gave-in" : "resisted"],
                       at: base + 6 * 3600)
            }
            if day == 18 {
                // The last pod ran out: a new one started three days before the screens' day.
                d.send("quit.log", ["trigger": "stress", "outcome": "finished"], at: base + 8 * 3600)
            }
            if day == 9 {
                // Promised, never confirmed: the stake goes to the charity jar.
                d.send("commitment.add", ["commitment": "early", "kind": "on-time", "at": "tomorrow 10:00", "stake": "5"],
                       at: base + 7 * 3600)
            }
        }
        let today = at("2026-03-23 07:00")
        d.send("shop.buy", ["item": "party-hat"], at: today)
        d.send("shop.equip", ["item": "party-hat"], at: today)
        d.send("shop.buy", ["item": "plant-pot"], at: today)
        d.send("shop.place", ["item": "plant-pot", "slot": "left"], at: today)
        d.send("shop.buy", ["item": "apple"], at: today)
        d.send("shop.buy", ["item": "apple"], at: today)
        d.send("course.self-image", ["text": "someone who finishes what they start"], at: today)
        d.send("commitment.add", ["commitment": "wake", "kind": "wake-up", "at": "07:00", "days": "mon,tue,wed,thu,fri",
                                  "until": "2026-04-30", "stake": "10"], at: today)
        d.send("commitment.add", ["commitment": "standup", "kind": "on-time", "at": "tomorrow 10:00", "window": "5",
                                  "stake": "20"], at: today)
        d.send("task.create", ["task": "rent", "title": "Pay rent", "priority": "high", "due": "today 08:00"], at: today)
        d.send("task.create", ["task": "dishes", "title": "Dishes", "due": "today 12:00", "estimate": "15"], at: today)
        d.send("task.create", ["task": "dentist", "title": longTitle, "priority": "high", "due": "today 16:00",
                               "estimate": "30", "category": "home", "reminders": "today 15:30"], at: today)
        d.send("task.create", ["task": "plants", "title": "Water the plants", "priority": "low", "due": "today 19:00",
                               "repeat": "every:3"], at: today)
        d.send("task.create", ["task": "essay", "title": "Essay draft", "priority": "high", "due": "2026-03-25 10:00",
                               "estimate": "120"], at: today)
        d.send("task.create", ["task": "bike", "title": "Fix the bike light"], at: today)
        d.send("habit.check", ["habit": "water"], at: at("2026-03-23 08:00"))
        d.send("quit.log", ["trigger": "waking-up", "outcome": "resisted"], at: at("2026-03-23 07:30"))
        d.send("task.start", ["task": "dishes"], at: at("2026-03-23 09:00"))
        var plain = d
        _ = plain.engine.advance(to: now)
        d.send("focus.start", ["minutes": "25"], at: at("2026-03-23 09:30"))
        _ = d.engine.advance(to: now)
        return (plain.engine.state, d.engine.state)
    }
}
