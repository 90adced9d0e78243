import XCTest
@testable import PetCore

/// The instants the core lists for each action (`Action.instants`, checked by `Engine.checkRange`)
/// against a reflective walk of the same action (the check the core used before it listed them):
/// every action case, its instants at the extremes of `Int64` and of the valid range, must give the
/// same instants under the same field names and the same refusal. A new case does not compile until
/// `Action.instants` lists it; it then needs a sample here (`caseCount` is the number of cases). A new
/// field holding an instant is found by the walk (it reports an instant field the sample left empty,
/// or an instant the list does not have).
final class ActionInstantsTests: XCTestCase {
    /// The values every instant of a sample takes in turn: the ends of `Int64`, either side of each
    /// end of the valid range, and ordinary ones.
    static let extremes: [Int64] = [.min, .min + 1, TimeRange.earliest.seconds - 1, TimeRange.earliest.seconds, -1, 0,
                                    1_772_438_400, TimeRange.latest.seconds, TimeRange.latest.seconds + 1, .max - 1, .max]

    lazy var engine = Harness(zone: "UTC", at: "2026-03-02 08:00").engine

    func testEveryActionListsTheInstantsTheReflectiveWalkFinds() {
        let samples = Self.samples
        XCTAssertEqual(Set(samples.map { caseKey($0.make(Slots { _ in Instant(0) })) }).count, Self.caseCount,
                       "every case of Action (nested ones each) has a sample")
        var compared = 0
        for sample in samples {
            for e in Self.extremes {
                let action = sample.make(Slots { _ in Instant(e) })
                compare(action, sample: sample, note: "all instants @\(e)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, Self.caseCount * Self.extremes.count - 1)
    }

    /// Several instants in one action: each out of range alone (the others valid), so the refusal
    /// names the one that is out, and the first one when several are.
    func testTheRefusalNamesTheSameFieldWhicheverInstantIsOut() {
        var multi = 0
        for sample in Self.samples {
            let slots = Slots { _ in Instant(0) }
            _ = sample.make(slots)
            guard slots.count > 1 else { continue }
            multi += 1
            for k in 0..<slots.count {
                for bad in [Int64.min, TimeRange.earliest.seconds - 1, TimeRange.latest.seconds + 1, .max] {
                    compare(sample.make(Slots { $0 == k ? Instant(bad) : TimeRange.latest }), sample: sample,
                            note: "instant \(k) of \(slots.count) @\(bad)")
                    // This one and every later one out: the first of them is named.
                    compare(sample.make(Slots { $0 >= k ? Instant(bad) : TimeRange.earliest }), sample: sample,
                            note: "instants \(k)… of \(slots.count) @\(bad)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(multi, 4, "task create and edit, screen session, circle accept have several")
    }

    func testTheNamesAreTheOnesRefusalsAlwaysUsed() {
        func refusal(_ a: Action) -> String? {
            do { try Engine.checkRange(Command(id: "c", at: Instant(0), action: a)); return nil } catch {
                guard case let .invalidField(field, _) = error else { return "\(error)" }
                return field
            }
        }
        var d = TaskDraft(id: "t", title: "T")
        d.reminders = [Instant(0), Instant(1), Instant(.max)]
        XCTAssertEqual(refusal(.createTask(d)), "reminders[2]")
        d.due = Instant(.min)
        XCTAssertEqual(refusal(.createTask(d)), "due")
        XCTAssertEqual(refusal(.appTime(.session(app: "x", start: Instant(0), end: Instant(.max)))), "end")
        XCTAssertEqual(refusal(.reminder(.silence(until: Instant(.max)))), "until")
        XCTAssertEqual(refusal(.circle(.standing(circle: "k", standing: CircleStanding(metric: .coins, period: .week, number: 1, ranked: 0, rows: [], at: Instant(.min))))), "at")
        XCTAssertEqual(refusal(.reminder(.silence(until: nil))), nil)
        XCTAssertEqual(refusal(.petThePet), nil)
        XCTAssertEqual(Action.petThePet.instants.capacity, 0, "no instants, no storage")
    }

    // MARK: - Comparing

    func compare(_ action: Action, sample: Sample, note: String, file: StaticString = #filePath, line: UInt = #line) {
        var found: [ReflectiveInstants.Found] = []
        var empty: [String] = []
        ReflectiveInstants.walk(action, found: &found, empty: &empty)
        let listed = action.instants.map { ReflectiveInstants.Found(field: $0.fieldName, instant: $0.instant) }
        let what = "\(caseKey(action)), \(note)"
        XCTAssertEqual(listed, found, "\(what): the listed instants differ from the reflective walk's", file: file, line: line)
        if !sample.leavesEmpty {
            XCTAssertEqual(empty, [], "\(what): the sample leaves an instant field empty (set it, then list it)", file: file, line: line)
        }
        let reflective = ReflectiveInstants.refusal(action)
        let command = Command(id: "c", at: TimeRange.latest, action: action)
        var listedRefusal: DomainError?
        do { try Engine.checkRange(command) } catch { listedRefusal = error }
        XCTAssertEqual(listedRefusal, reflective, "\(what): a different refusal", file: file, line: line)
        // The same through decide (which checks unless told the caller did).
        if let reflective {
            XCTAssertThrowsError(try engine.decide(command)) { e in XCTAssertEqual(e as? DomainError, reflective, what, file: file, line: line) }
        }
    }

    // MARK: - Samples

    /// Hands out a sample's instants in the order the sample asks for them.
    final class Slots {
        let value: (Int) -> Instant
        private(set) var count = 0
        init(_ value: @escaping (Int) -> Instant) { self.value = value }
        func next() -> Instant {
            defer { count += 1 }
            return value(count)
        }
    }

    struct Sample {
        /// The sample leaves an instant field empty on purpose (an optional instant that is nil).
        var leavesEmpty = false
        var make: (Slots) -> Action
        init(leavesEmpty: Bool = false, _ make: @escaping (Slots) -> Action) { self.leavesEmpty = leavesEmpty; self.make = make }
    }

    /// The number of cases of `Action`, each nested action's cases counted one by one.
    static let caseCount = 68

    static var samples: [Sample] {
        var out: [Sample] = []
        func add(_ make: @escaping (Slots) -> Action) { out.append(Sample(make)) }
        func fixed(_ actions: Action...) { for a in actions { out.append(Sample { _ in a }) } }
        add { s in
            var d = TaskDraft(id: "t", title: "T")
            d.start = s.next(); d.due = s.next(); d.reminders = [s.next(), s.next(), s.next()]
            d.recurrence = Recurrence(rule: .daily, until: CivilDate(year: 2026, month: 12, day: 31))
            d.category = "home"; d.estimate = 30; d.plannedSecondOfDay = 3600
            return .createTask(d)
        }
        out.append(Sample(leavesEmpty: true) { _ in .createTask(TaskDraft(id: "t", title: "T")) })
        add { s in
            var p = TaskPatch()
            p.start = s.next(); p.due = s.next(); p.reminders = [s.next(), s.next()]
            p.title = "U"; p.clear = ["project"]
            return .editTask(id: "t", p)
        }
        out.append(Sample(leavesEmpty: true) { _ in .editTask(id: "t", TaskPatch()) })
        fixed(.deleteTask(id: "t"), .duplicateTask(id: "t", newID: "u"), .duplicateTask(id: "t", newID: nil), .startTask(id: "t"),
              .completeTask(id: "t"), .uncompleteTask(id: "t"), .silenceReminder(taskID: "t", index: 1),
              .silenceReminder(taskID: "t", index: nil), .addCategory(name: "c"), .renameCategory(name: "c", to: "d"),
              .deleteCategory(name: "c"), .setTimeZone(id: "Europe/Berlin"), .setDayStart(hour: 3),
              .setQuietHours(startMinute: 0, endMinute: 60), .pause, .resume, .renamePet(name: "Mo"),
              .setPetTraits(species: "cat", colour: "red", personality: .calm), .setPetTraits(species: nil, colour: nil, personality: nil),
              .petThePet, .setDevice(DeviceSettings()))
        fixed(.habit(.add(id: "h", text: "Walk", reminderMinute: 60)), .habit(.edit(id: "h", text: "Run")),
              .habit(.setReminder(id: "h", .at(60))), .habit(.setReminder(id: "h", .off)), .habit(.remove(id: "h")),
              .habit(.check(item: "h")), .habit(.uncheck(item: "h")), .habit(.setCheckin(minute: 1200)),
              .habit(.startCourse(CourseOutline(pack: "p", lessons: [CourseLesson(id: "l", week: 1, prompt: .habit)]))),
              .habit(.readLesson(id: "l")), .habit(.setSelfImage(text: "me")), .habit(.stopCourse))
        fixed(.shop(.buy(item: "cap")), .shop(.equip(item: "cap")), .shop(.unequip(slot: "hat", item: "cap")),
              .shop(.place(item: "lamp", slot: "left")), .shop(.unplace(slot: "left")), .shop(.feed(item: "apple")),
              .shop(.repairStreak))
        add { s in .commitment(.add(CommitmentDraft(id: "c", kind: .onTime, schedule: .once(s.next()), window: 5, stake: 5))) }
        out.append(Sample(leavesEmpty: true) { _ in
            .commitment(.add(CommitmentDraft(id: "c", kind: .wakeUp,
                                             schedule: .weekly([1, 3], secondOfDay: 25_200, until: CivilDate(year: 2027, month: 1, day: 1)),
                                             stake: 5)))
        })
        fixed(.commitment(.cancel(id: "c")), .commitment(.verify(id: "c", source: .button)), .commitment(.placeVerdict(id: "c", ok: true)),
              .commitment(.startFocus(minutes: 25, block: ["game"])), .commitment(.cancelFocus), .commitment(.appUsed(app: "game")))
        fixed(.quit(.start(goalDays: 30)), .quit(.log(trigger: "t", outcome: .resisted, thoughts: "x")), .quit(.addTrigger(name: "t")),
              .quit(.deleteTrigger(id: "t")), .quit(.reflect(stressors: "a", feelings: "b")), .quit(.setGoal(days: 30)))
        add { s in .appTime(.session(app: "game", start: s.next(), end: s.next())) }
        fixed(.appTime(.setPrivate(app: "game", on: true)), .appTime(.startBuiltIn(kind: "social")),
              .appTime(.startCustom(app: "game", limitMinutes: 30, days: 7, stake: 10)), .appTime(.forfeit(app: "game")))
        fixed(.reminder(.delivered(ids: ["a", "b"])))
        add { s in .reminder(.silence(until: s.next())) }
        out.append(Sample(leavesEmpty: true) { _ in .reminder(.silence(until: nil)) })
        fixed(.phone(.pair(id: "p", name: "Phone", tokenHash: "00")), .phone(.unpair(id: "p")))
        add { s in .phone(.lockPairing(until: s.next())) }
        fixed(.circle(.join(circle: "k", member: "m", share: [.coins, .tasks], screenGoal: 60)), .circle(.leave(circle: "k")),
              .circle(.judge(circle: "k")), .circle(.settle(circle: "k", challenge: "x", members: ["m", "n"])))
        add { s in
            .circle(.accept(circle: "k", terms: ChallengeTerms(id: "x", proposer: "m", goal: .tasksDone(5), start: s.next(), end: s.next(),
                                                                stake: 10)))
        }
        add { s in .circle(.final(circle: "k", member: "m", progress: ChallengeProgress(challenge: "x", met: true, value: 3, finalAt: s.next()))) }
        out.append(Sample(leavesEmpty: true) { _ in
            .circle(.final(circle: "k", member: "m", progress: ChallengeProgress(challenge: "x", met: false, value: 0)))
        })
        add { s in
            .circle(.standing(circle: "k", standing: CircleStanding(metric: .coins, period: .week, number: 1, ranked: 2,
                                                                    rows: [LeaderboardRow(rank: 1, member: "m", petName: "Mo", value: 5)],
                                                                    at: s.next())))
        }
        return out
    }

    /// One key per case, nested actions' cases each ("appTime.startBuiltIn"), read from the case
    /// itself, so two cases that share a command name still count apart.
    func caseKey(_ value: Any) -> String {
        let m = Mirror(reflecting: value)
        guard m.displayStyle == .enum, let payload = m.children.first, let label = payload.label else { return "\(value)" }
        return Mirror(reflecting: payload.value).displayStyle == .enum ? label + "." + caseKey(payload.value) : label
    }
}

/// The reflective walk the core used before it listed its instants (it was `TimeRange.checkAll`):
/// every instant inside a value, found by reflection, named by the field it is stored under
/// (`due`, `reminders[1]`, `start`; an instant with no field of its own is `at`). Kept here as the
/// reference the listed instants are compared with.
enum ReflectiveInstants {
    struct Found: Equatable, CustomStringConvertible {
        var field: String
        var instant: Instant
        var description: String { "\(field)=\(instant)" }
    }

    /// Every instant in `value`, in the order the reflective check visited them; `empty` gets the
    /// fields whose type holds instants but that held none (a nil optional, an empty list).
    static func walk(_ value: Any, field: String = "", found: inout [Found], empty: inout [String]) {
        if let t = value as? Instant { found.append(Found(field: field.isEmpty ? "at" : field, instant: t)); return }
        let mirror = Mirror(reflecting: value)
        if mirror.children.isEmpty, String(describing: type(of: value)).contains("Instant") {
            empty.append(field.isEmpty ? "at" : field)
        }
        if mirror.displayStyle == .collection || mirror.displayStyle == .set {
            for (i, child) in mirror.children.enumerated() { walk(child.value, field: "\(field)[\(i)]", found: &found, empty: &empty) }
            return
        }
        if mirror.displayStyle == .dictionary {
            for child in mirror.children {
                let pair = Mirror(reflecting: child.value).children.map(\.value)
                if pair.count == 2 { walk(pair[1], field: "\(field)[\(pair[0])]", found: &found, empty: &empty) }
            }
            return
        }
        for child in mirror.children {
            var name = field
            switch mirror.displayStyle {
            case .struct?, .class?: name = child.label ?? field
            case .tuple?: if let l = child.label, !l.hasPrefix(".") { name = l }
            default: break   // an enum's payload or an optional's value keeps the field's name
            }
            walk(child.value, field: name, found: &found, empty: &empty)
        }
    }

    /// The reflective check's refusal of an action (its first instant outside the range, named by
    /// its field), or nil.
    static func refusal(_ action: Action) -> DomainError? {
        var found: [Found] = []
        var empty: [String] = []
        walk(action, found: &found, empty: &empty)
        for f in found {
            do { try TimeRange.check(f.instant, field: f.field) } catch { return error }
        }
        return nil
    }
}
