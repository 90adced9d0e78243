import XCTest
import PetCore

// docs/habits.md the course: the outline recorded at the start, unlock rules, the training week's
// observation checklist, prompts and the self-image goal.

final class CourseTests: XCTestCase {
    static let lessons = "welcome@0,notice@0,first-habit@1:habit,anchor@1,mirror@2:self-image"

    func started(at text: String = "2026-03-02 08:00") -> Harness {
        var h = Harness(at: text)
        h.ok("course.start", ["course": "c66", "lessons": Self.lessons])
        return h
    }

    func status(_ h: Harness, _ id: String) -> LessonStatus? { h.state.habits.course?.status(id) }

    func testStartingRecordsTheOutlineAndUnlocksTheFirstLesson() {
        var h = Harness(at: "2026-03-02 08:00")
        let events = h.ok("course.start", ["course": "c66", "version": "3", "lessons": Self.lessons])
        let outline = CourseOutline(pack: "c66", version: 3, lessons: [
            CourseLesson(id: "welcome", week: 0), CourseLesson(id: "notice", week: 0),
            CourseLesson(id: "first-habit", week: 1, prompt: .habit), CourseLesson(id: "anchor", week: 1),
            CourseLesson(id: "mirror", week: 2, prompt: .selfImage),
        ])
        XCTAssertEqual(events.kinds, [.habit(.courseStarted(outline, day: dayNumber("2026-03-02"))),
                                      .habit(.lessonUnlocked(lesson: "welcome"))])
        XCTAssertEqual(status(h, "welcome"), .unlocked)
        XCTAssertEqual(status(h, "notice"), .locked)
        // The journal alone rebuilds the course (no pack file needed).
        h.assertReplayEqualsLive()
    }

    func testALessonUnlocksWhenItsWeekStartedAndThePreviousWasRead() {
        var h = started()
        // Week 0 has started, but "welcome" is unread.
        h.refuse("course.read", ["lesson": "notice"], .state("lesson", "notice"))
        let r = h.ok("course.read", ["lesson": "welcome"])
        XCTAssertEqual(r.kinds, [.habit(.lessonRead(lesson: "welcome", prompt: nil)), .habit(.lessonUnlocked(lesson: "notice"))])
        h.ok("course.read", ["lesson": "notice"])
        // The previous one is read, but week 1 starts Mon 03-09.
        XCTAssertEqual(status(h, "first-habit"), .locked)
        h.refuse("course.read", ["lesson": "first-habit"], .state("lesson", "first-habit"))
        h.advance(to: "2026-03-09 02:59")
        XCTAssertEqual(status(h, "first-habit"), .locked)
        let e = h.advance(to: "2026-03-09 03:00")
        XCTAssertEqual(e.first("course.unlocked")?.kind, .habit(.lessonUnlocked(lesson: "first-habit")))
        XCTAssertEqual(e.first("course.unlocked")?.at, h.t("2026-03-09 03:00"))
        h.ok("course.read", ["lesson": "first-habit"])
        XCTAssertEqual(status(h, "anchor"), .unlocked, "week 1 has started and the previous lesson is read")
        // Week 2 starts Mon 03-16, but "anchor" is unread: "mirror" stays locked past its week start.
        h.advance(to: "2026-03-17 12:00")
        XCTAssertEqual(status(h, "mirror"), .locked)
        h.refuse("course.read", ["lesson": "mirror"], .state("lesson", "mirror"))
        h.ok("course.read", ["lesson": "anchor"])
        XCTAssertEqual(status(h, "mirror"), .unlocked)
        h.ok("course.read", ["lesson": "mirror"])
        XCTAssertTrue(h.state.habits.course?.finished ?? false)
        h.refuse("course.read", ["lesson": "mirror"], .state("lesson", "mirror"))
        h.refuse("course.read", ["lesson": "zzz"], .notFound("lesson", "zzz"))
        h.refuse("course.read", [:], .missing("lesson"))
        h.assertReplayEqualsLive()
    }

    func testCatchUpUnlocksEachWeekOnce() {
        var h = started()
        h.ok("course.read", ["lesson": "welcome"])
        h.ok("course.read", ["lesson": "notice"])
        let events = h.advance(to: "2026-03-30 12:00")
        XCTAssertEqual(events.filter { $0.kind.type == "course.unlocked" }.map(\.kind),
                       [.habit(.lessonUnlocked(lesson: "first-habit"))])
    }

    func testTheTrainingWeekChecklistIsOneObservationBox() {
        var h = Harness(at: "2026-03-02 08:00")
        h.addHabits(2)
        h.ok("course.start", ["course": "c66", "lessons": Self.lessons])
        XCTAssertEqual(h.state.checklist, ["observation", "movement"])
        h.refuse("habit.check", ["habit": "h1"], .state("habit", "h1"))
        // Observation + movement: 1 box ×1.5 = 15, complete → + counter 1 = 16.
        h.check("observation", "movement")
        XCTAssertTrue(h.state.checklistComplete)
        XCTAssertEqual(h.state.habitScoreToday, 16)
        // Habits added in the training week join the checklist in week 1.
        h.ok("habit.add", ["habit": "h3", "text": "Three"])
        XCTAssertEqual(h.state.checklist, ["observation", "movement"])
        let mon = h.advance(to: "2026-03-03 04:00")
        XCTAssertEqual(mon.habitScores.map(\.points), [16])
        XCTAssertEqual(mon.habitScores.first?.boxes, 1)
        XCTAssertEqual(h.state.streak, 1, "the observation checklist counts in the daily streak")
        // Sun 03-08 is the last training day; from Mon 03-09 the habits are back.
        h.advance(to: "2026-03-08 12:00")
        XCTAssertEqual(h.state.checklist, ["observation", "movement"])
        h.advance(to: "2026-03-09 12:00")
        XCTAssertEqual(h.state.checklist, ["h1", "h2", "h3", "movement"])
        h.refuse("habit.check", ["habit": "observation"], .state("habit", "observation"))
        // No habit reminders fire in the training week: checked by the next test's reminder.
        h.assertReplayEqualsLive()
    }

    func testNoHabitRemindersInTheTrainingWeek() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("habit.add", ["habit": "a", "text": "A", "reminder": "09:00"])
        h.ok("checkin.set", ["at": "off"])
        h.ok("course.start", ["course": "c66", "lessons": Self.lessons])
        XCTAssertEqual(h.live(until: "2026-03-09 08:00").nudgesShown, [])
        XCTAssertEqual(h.live(until: "2026-03-09 10:00").nudgesShown.map(\.id), ["habit:a:\(dayNumber("2026-03-09"))"])
    }

    func testPromptsAreAnsweredByAddingAHabitAndSettingTheGoal() {
        var h = started()
        for l in ["welcome", "notice"] { h.ok("course.read", ["lesson": l]) }
        h.advance(to: "2026-03-09 08:00")
        h.ok("course.read", ["lesson": "first-habit"])
        XCTAssertEqual(h.state.habits.course?.pendingPrompts, ["first-habit"])
        let add = h.ok("habit.add", ["habit": "walk", "text": "Walk after lunch"])
        guard case .habit(.added(_, let answers)) = add.first?.kind else { return XCTFail("no habit.added") }
        XCTAssertEqual(answers, "first-habit")
        XCTAssertEqual(h.state.habits.course?.pendingPrompts, [])
        // A second habit answers nothing.
        let again = h.ok("habit.add", ["habit": "tea", "text": "Tea, not cola"])
        XCTAssertEqual(again.first?.kind, .habit(.added(h.state.habits.habits["tea"]!, answers: nil)))
        h.ok("course.read", ["lesson": "anchor"])
        h.advance(to: "2026-03-16 08:00")
        h.ok("course.read", ["lesson": "mirror"])
        XCTAssertEqual(h.state.habits.course?.pendingPrompts, ["mirror"])
        let goal = h.ok("course.self-image", ["text": "  I am someone who keeps promises to myself  "])
        XCTAssertEqual(goal.first?.kind, .habit(.selfImageSet(text: "I am someone who keeps promises to myself", answers: "mirror")))
        XCTAssertEqual(h.state.habits.selfImage, "I am someone who keeps promises to myself")
        XCTAssertEqual(h.state.habits.course?.pendingPrompts, [])
        h.assertReplayEqualsLive()
    }

    func testSelfImageGoalLimits() {
        var h = Harness(at: "2026-03-02 08:00")
        h.ok("course.self-image", ["text": String(repeating: "a", count: 140)])
        XCTAssertEqual(h.state.habits.selfImage?.count, 140)
        h.refuse("course.self-image", ["text": String(repeating: "a", count: 141)], .field("text"))
        h.refuse("course.self-image", ["text": "two\nlines"], .field("text"))
        h.refuse("course.self-image", [:], .missing("text"))
        // "" clears it.
        h.ok("course.self-image", ["text": ""])
        XCTAssertNil(h.state.habits.selfImage)
    }

    func testOneCourseAtATimeAndStopping() {
        var h = started()
        h.refuse("course.start", ["course": "other", "lessons": "a@0"], .state("course", "c66"))
        h.ok("course.stop")
        XCTAssertNil(h.state.habits.course)
        h.refuse("course.stop", [:], .state("course", "-"))
        h.refuse("course.read", ["lesson": "welcome"], .state("course", "-"))
        h.ok("course.start", ["course": "short", "lessons": "only@0"])
        h.ok("course.read", ["lesson": "only"])
        // A finished course can be replaced by a new one.
        h.ok("course.start", ["course": "c66", "lessons": Self.lessons])
        XCTAssertEqual(h.state.habits.course?.outline.pack, "c66")
        h.assertReplayEqualsLive()
    }

    func testBadOutlinesAreRefused() {
        var h = Harness(at: "2026-03-02 08:00")
        h.refuse("course.start", ["course": "c", "lessons": "a@0,a@1"], .field("lessons[1].id"))
        h.refuse("course.start", ["course": "c", "lessons": "a@1,b@2"], .field("lessons[0]"))
        h.refuse("course.start", ["course": "c", "lessons": "a@0,b@2,c@1"], .field("lessons[2].week"))
        h.refuse("course.start", ["course": "c", "lessons": "a@0,b@53"], .field("lessons[1].week"))
        h.refuse("course.start", ["course": "c", "lessons": "a0"], .field("lessons[0]"))
        h.refuse("course.start", ["course": "c", "lessons": "a@x"], .field("lessons[0]"))
        h.refuse("course.start", ["course": "c", "lessons": "a@0:dance"], .field("lessons[0]"))
        h.refuse("course.start", ["course": "c", "lessons": "a@0,"], .field("lessons[1]"))
        h.refuse("course.start", ["course": "c", "lessons": "b d@0"], .field("lessons[0].id"))
        h.refuse("course.start", ["course": "bad id", "lessons": "a@0"], .field("course"))
        h.refuse("course.start", ["course": "c", "lessons": "a@0", "version": "0"], .field("version"))
        h.refuse("course.start", ["course": "c"], .missing("lessons"))
        h.refuse("course.start", ["pack": "sim/course-66.json"], .field("pack"))
        let many = (0...200).map { "l\($0)@0" }.joined(separator: ",")
        h.refuse("course.start", ["course": "c", "lessons": many], .field("lessons"))
        XCTAssertNil(h.state.habits.course)
    }

    func testTheOutlineActionWorksWithoutTheParser() throws {
        var h = Harness(at: "2026-03-02 08:00")
        let outline = CourseOutline(pack: "p", lessons: [CourseLesson(id: "x", week: 0, prompt: .selfImage)])
        try h.run(.habit(.startCourse(outline)))
        try h.run(.habit(.readLesson(id: "x")))
        XCTAssertEqual(h.state.habits.course?.pendingPrompt(.selfImage), "x")
        XCTAssertEqual(h.state.habits.course?.week(ofDay: dayNumber("2026-03-16")), 2)
    }
}
