import PetBridge
import PetCore
import XCTest

/// `circle report` (docs/circles.md#a-course-leaders-report): the table, the CSV and the charts
/// from given reports.
final class CircleReportTests: XCTestCase {
    let week = CivilDate(year: 2026, month: 11, day: 23).dayNumber

    func report(_ m: String, name: String, tasks: Int = 0, focus: Int = 0, day: Int? = 12, read: Int? = 10, streak: Int = 3, week w: Int? = nil) -> MemberReport {
        MemberReport(member: m, seq: 1, sentAt: Instant(1_764_000_000), petName: name, level: 2, week: w ?? week, month: 2026 * 12 + 10,
                     tasksWeek: tasks, focusWeek: focus, streak: streak, courseDay: day, postsRead: read)
    }

    func board(_ rs: [MemberReport]) throws -> CircleBoard {
        var b = CircleBoard()
        for r in rs { try b.receive(r) }
        return b
    }

    func testTableListsEveryLearnerWithCourseFigures() throws {
        let rows = CircleReport.rows(try board([report("bob2", name: "Rex", tasks: 3, day: 20, read: 18, streak: 7),
                                                report("ana1", name: "Mo", day: nil, read: nil, streak: 0)]))
        XCTAssertEqual(rows.map(\.member), ["ana1", "bob2"])
        let t = CircleReport.table(rows)
        let lines = t.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4)
        XCTAssertTrue(lines[0].hasPrefix("member"))
        XCTAssertTrue(lines[1].hasPrefix("ana1") && lines[1].contains(" - ") && lines[1].hasSuffix("no"), lines[1])
        XCTAssertTrue(lines[2].contains("2026-11-23") && lines[2].contains("20") && lines[2].contains("18") && lines[2].hasSuffix("yes"), lines[2])
        XCTAssertEqual(lines[3], "2 learner(s), 1 engaged this week")
    }

    func testHostileNamesAreQuotedCleanedAndNotFormulas() {
        let names = ["a,b", "say \"hi\"", "=HYPERLINK(\"x\")", "x\u{1b}[31mred", "l1\u{2028}l2", "\u{202e}evil", "+1", "@me"]
        let rows = names.enumerated().map { i, n in CircleReport.Row(member: "mem\(i)", petName: n, week: week, courseDay: 1, postsRead: 1, streak: 0, tasks: 0, focus: 0, coins: 0) }
        let csv = CircleReport.csv(rows)
        XCTAssertFalse(csv.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7f || $0.value == 0x2028 || $0.value == 0x202e })
        let lines = csv.split(separator: "\n")
        XCTAssertEqual(lines.count, names.count + 1, "one line per row: no name breaks a line")
        XCTAssertTrue(csv.contains("\"a,b\""))
        XCTAssertTrue(csv.contains("\"say \"\"hi\"\"\""))
        XCTAssertTrue(csv.contains("\"'=HYPERLINK(\"\"x\"\")\""), csv)
        XCTAssertTrue(csv.contains(",'+1,") && csv.contains(",'@me,"), csv)
        XCTAssertFalse(CircleReport.table(rows).unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x2028 })
        // Read back: the same rows (names as cleaned).
        let back = CircleReport.parseCSV(csv)
        XCTAssertEqual(back.skipped, 0)
        XCTAssertEqual(back.rows.map(\.member), rows.map(\.member))
        XCTAssertEqual(back.rows.map(\.petName), names.map(CircleReport.clean))
    }

    func testCSVKeepsOneRowPerMemberPerWeekAcrossRuns() throws {
        let last = CircleReport.rows(try board([report("ana1", name: "Mo", tasks: 1, week: week - 7), report("bob2", name: "Rex", week: week - 7)]))
        let now = CircleReport.rows(try board([report("ana1", name: "Mo", tasks: 2), report("bob2", name: "Rex", focus: 25)]))
        let first = CircleReport.parseCSV(CircleReport.csv(last)).rows
        var all = CircleReport.merge(first, now)
        all = CircleReport.merge(CircleReport.parseCSV(CircleReport.csv(all)).rows, now)   // the same week again: replaced
        XCTAssertEqual(all.count, 4)
        XCTAssertEqual(all.map(\.member), ["ana1", "bob2", "ana1", "bob2"])
        XCTAssertEqual(all.map(\.week), [week - 7, week - 7, week, week])
        XCTAssertEqual(all.map(\.engaged), [true, false, true, true])
        let csv = CircleReport.csv(all)
        XCTAssertTrue(csv.hasPrefix(CircleReport.csvHeader + "\n"))
        XCTAssertTrue(csv.contains("\nbob2,Rex,2026-11-23,12,10,3,0,25,0,1,,,\n"), csv)
        XCTAssertEqual(CircleReport.parseCSV("member,pet\ngarbage\nBAD,x,2026-11-23,,,0,0,0,0,0\n").skipped, 2)
    }

    func testChartsArePNGsWithBarsInTheRightProportion() throws {
        var rows: [CircleReport.Row] = []
        for i in 0..<10 {
            rows.append(CircleReport.Row(member: "m00\(i)", petName: "P", week: week - 7, courseDay: 5, postsRead: i, streak: i, tasks: i < 5 ? 1 : 0, focus: 0, coins: 0))
            rows.append(CircleReport.Row(member: "m00\(i)", petName: "P", week: week, courseDay: 12, postsRead: 60 + i % 7, streak: i, tasks: 1, focus: 0, coins: 0))
        }
        let charts = CircleReport.charts(rows)
        XCTAssertEqual(charts.map(\.name), ["engagement.png", "posts-read.png", "habit-streaks.png", "habit-scores.png", "habit-each.png"])
        for c in charts {
            XCTAssertEqual(Array(c.png.prefix(8)), [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
            XCTAssertGreaterThan(c.png.count, 100)
        }
        // Bars in proportion: 50% then 100%, measured on the pixels.
        let px = CircleReport.barChartPixels([50, 100], labels: ["a", "b"], maxValue: 100, yUnit: "%", color: (1, 2, 3))
        func barHeight(_ n: Int) -> Int {
            let x = CircleReport.firstBarX + n * (CircleReport.barWidth + CircleReport.barGap) + CircleReport.barWidth / 2
            return (0..<px.height).filter { y in let i = (y * px.width + x) * 3; return px.rgb[i] == 1 && px.rgb[i + 1] == 2 && px.rgb[i + 2] == 3 }.count
        }
        XCTAssertEqual(barHeight(0), CircleReport.plotHeight / 2)
        XCTAssertEqual(barHeight(1), CircleReport.plotHeight)
        let png = CircleReport.barChart([50, 100], labels: ["a", "b"], maxValue: 100, yUnit: "%", color: (1, 2, 3))
        XCTAssertEqual(png[16..<24].map { $0 }, [0, 0, 0, 172, 0, 0, 0, 246], "172×246: the width for two bars, the plot 200 high")
        let flat = CircleReport.barChart([], labels: [], maxValue: nil, yUnit: "", color: (1, 2, 3))
        XCTAssertEqual(Array(flat.prefix(4)), [0x89, 0x50, 0x4e, 0x47])
    }

    func testTheHabitScoreIsInTheTableTheCSVAndItsChart() throws {
        var r = report("ana1", name: "Mo", streak: 4)
        r.habitWeek = 180; r.habitDays = 5
        let rows = CircleReport.rows(try board([r, report("bob2", name: "Rex")]))
        let lines = CircleReport.table(rows).split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].contains("habit pts") && lines[0].contains("habit days"))
        XCTAssertTrue(lines[1].contains(" 180 ") && lines[1].contains(" 5 "), lines[1])
        let csv = CircleReport.csv(rows)
        XCTAssertTrue(csv.contains("\nana1,Mo,2026-11-23,12,10,4,0,0,0,0,180,5,\n"), csv)
        XCTAssertEqual(CircleReport.parseCSV(csv).rows, rows, "read back: the same rows")
        // A file written before the habit score was shared (10 cells) still reads.
        let old = CircleReport.parseCSV("member,pet,week,course_day,posts_read,streak,tasks,focus_minutes,coins,engaged\nana1,Mo,2026-11-16,5,4,2,1,0,0,1\n")
        XCTAssertEqual(old.skipped, 0)
        XCTAssertEqual(old.rows.first?.habitPoints, nil)
        // The chart: the average habit score of the learners sharing it, per week (90, then 180 → 135).
        var hist = CircleReport.parseCSV(csv).rows
        var earlier = rows[0]; earlier.week = week - 7; earlier.habitPoints = 90
        var third = rows[1]; third.member = "cid3"; third.habitPoints = 90
        hist += [earlier, third]
        let png = try XCTUnwrap(CircleReport.charts(hist).first { $0.name == "habit-scores.png" }).png
        let expected = CircleReport.barChart([90, 135], labels: ["11-16", "11-23"], maxValue: nil, yUnit: "", color: (106, 27, 154))
        XCTAssertEqual(png, expected)
    }

    func testEachHabitsWeekIsInTheTableTheCSVAndItsChartByPosition() throws {
        var a = report("ana1", name: "Mo"); a.habitWeek = 100; a.habitDays = 4; a.habitEach = [7, 0, 3]
        var b = report("bob2", name: "Rex"); b.habitWeek = 50; b.habitDays = 2; b.habitEach = [0]
        let rows = CircleReport.rows(try board([a, b, report("cid3", name: "Cy")]))
        let lines = CircleReport.table(rows).split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].contains("each habit"))
        XCTAssertTrue(lines[1].contains(" #1:7 #2:0 #3:3 "), lines[1])
        XCTAssertTrue(lines[2].contains(" #1:0 "), lines[2])
        let csv = CircleReport.csv(rows)
        XCTAssertTrue(csv.hasPrefix(CircleReport.csvHeader + "\n") && CircleReport.csvHeader.hasSuffix(",habit_points,habit_days,habit_each"))
        XCTAssertTrue(csv.contains("\nana1,Mo,2026-11-23,12,10,3,0,0,0,0,100,4,\"#1:7 #2:0 #3:3\"\n"), csv)
        XCTAssertTrue(csv.contains("\ncid3,Cy,2026-11-23,12,10,3,0,0,0,0,,,\n"), csv)
        XCTAssertEqual(CircleReport.parseCSV(csv).rows, rows, "read back: the same rows")
        // A damaged cell is no habit list (the row stays, without it); a 12-cell file still reads.
        let bad = CircleReport.parseCSV(CircleReport.csvHeader + "\nana1,Mo,2026-11-23,12,10,3,0,0,0,0,100,4,\"#2:7 #1:9\"\n")
        XCTAssertEqual(bad.rows.first?.habitEach, nil)
        XCTAssertEqual(CircleReport.parseCSV("h\nana1,Mo,2026-11-23,12,10,3,0,0,0,0,100,4\n").rows.first?.habitDays, 4)
        // The chart: #1 (7 and 0 days: 50%), #2 (0: 0%), #3 (3 of 7: 42%).
        let png = try XCTUnwrap(CircleReport.charts(rows).first { $0.name == "habit-each.png" }).png
        XCTAssertEqual(png, CircleReport.barChart([50, 0, 42], labels: ["#1", "#2", "#3"], maxValue: 100, yUnit: "%", color: (0, 131, 143)))
        var wrong = a; wrong.habitEach = [1, 9]
        XCTAssertEqual(wrong.problem(), "habit each")
    }
}
