import PetCore
import PetPNG

/// A course leader's view of a circle (docs/circles.md#a-course-leaders-report), decided without
/// sockets: from the members' retained reports, the learners' progress as a table, a CSV with one
/// row per member per week (merged with the rows of earlier runs, so running it weekly builds the
/// history), and bar charts as PNGs. Numbers only, as the reports carry; a pet's name is the one
/// text, and it is cleaned of control characters and quoted for CSV.
public enum CircleReport {
    /// One member's week.
    public struct Row: Sendable, Equatable {
        public var member: String
        public var petName: String
        /// The Monday of the week (day number since 1970).
        public var week: Int
        public var courseDay: Int?
        public var postsRead: Int?
        public var streak: Int
        public var tasks: Int
        public var focus: Int
        public var coins: Int
        /// The week's habit score and the days scored (members sharing `habits`).
        public var habitPoints: Int?
        public var habitDays: Int?
        /// Each habit's days checked in the week, by checklist position (#1 first; no text, no id).
        public var habitEach: [Int]?

        public init(member: String, petName: String, week: Int, courseDay: Int?, postsRead: Int?, streak: Int, tasks: Int, focus: Int, coins: Int,
                    habitPoints: Int? = nil, habitDays: Int? = nil, habitEach: [Int]? = nil) {
            self.member = member; self.petName = petName; self.week = week; self.courseDay = courseDay
            self.postsRead = postsRead; self.streak = streak; self.tasks = tasks; self.focus = focus; self.coins = coins
            self.habitPoints = habitPoints; self.habitDays = habitDays; self.habitEach = habitEach
        }

        public init(_ r: MemberReport) {
            self.init(member: r.member, petName: r.petName, week: r.week, courseDay: r.courseDay, postsRead: r.postsRead,
                      streak: r.streak, tasks: r.tasksWeek, focus: r.focusWeek, coins: r.coinsWeek, habitPoints: r.habitWeek, habitDays: r.habitDays, habitEach: r.habitEach)
        }

        /// Engaged in the week: a task done, a focus minute or a coin earned.
        public var engaged: Bool { tasks > 0 || focus > 0 || coins > 0 }
    }

    /// The rows of the reports held, by member.
    public static func rows(_ board: CircleBoard) -> [Row] {
        board.reports.values.map(Row.init).sorted { $0.member < $1.member }
    }

    /// A pet's name made safe for a terminal, a CSV cell and a spreadsheet: control, format and
    /// line-separator characters become `?`, at most 24 characters.
    public static func clean(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars.prefix(24) {
            let v = u.value
            let bad = v < 0x20 || (0x7f...0x9f).contains(v) || (0x200b...0x200f).contains(v) || (0x2028...0x202e).contains(v)
                || (0x2066...0x2069).contains(v) || v == 0xfeff
            out.append(bad ? "?" : u)
        }
        return String(out)
    }

    static func date(_ day: Int) -> String {
        let d = CivilDate(dayNumber: day)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(d.year)-\(two(d.month))-\(two(d.day))"
    }

    /// The learners' progress as a text table, the latest week of each member.
    public static func table(_ rows: [Row]) -> String {
        let head = ["member", "pet", "week of", "course day", "posts read", "streak", "habit pts", "habit days", "each habit", "tasks", "focus min", "engaged"]
        var lines = [head]
        for r in rows {
            lines.append([r.member, clean(r.petName), date(r.week), r.courseDay.map(String.init) ?? "-", r.postsRead.map(String.init) ?? "-",
                          "\(r.streak)", r.habitPoints.map(String.init) ?? "-", r.habitDays.map(String.init) ?? "-",
                          r.habitEach.map(eachText) ?? "-", "\(r.tasks)", "\(r.focus)", r.engaged ? "yes" : "no"])
        }
        var widths = [Int](repeating: 0, count: head.count)
        for l in lines { for (i, c) in l.enumerated() { widths[i] = max(widths[i], c.count) } }
        let active = rows.filter(\.engaged).count
        var s = lines.map { l in
            var line = l.enumerated().map { i, c in c + String(repeating: " ", count: widths[i] - c.count) }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
        s += "\n\(rows.count) learner(s), \(active) engaged this week\n"
        return s
    }

    public static let csvHeader = "member,pet,week,course_day,posts_read,streak,tasks,focus_minutes,coins,engaged,habit_points,habit_days,habit_each"

    /// Each habit's days, `#1:3 #2:5`: the position, never the habit's text or id.
    static func eachText(_ e: [Int]) -> String {
        e.isEmpty ? "-" : e.enumerated().map { "#\($0.offset + 1):\($0.element)" }.joined(separator: " ")
    }

    /// `eachText` read back (nil: not that form).
    static func parseEach(_ s: String) -> [Int]? {
        var out: [Int] = []
        for (i, part) in s.split(separator: " ").enumerated() {
            let bits = part.split(separator: ":")
            guard bits.count == 2, bits[0] == "#\(i + 1)", let v = Int(bits[1]), (0...7).contains(v) else { return nil }
            out.append(v)
        }
        return out.isEmpty || out.count > HabitRules.maxActive ? nil : out
    }

    /// One CSV cell: quoted when it holds a comma, a quote or a space; a cell a spreadsheet would
    /// read as a formula (`= + - @`) is prefixed with `'`.
    static func cell(_ s: String) -> String {
        var t = clean(s)
        if let f = t.unicodeScalars.first, "=+-@".unicodeScalars.contains(f) { t = "'" + t }
        if t.contains(where: { $0 == "," || $0 == "\"" || $0 == " " }) {
            var q = "\""
            for ch in t { q += ch == "\"" ? "\"\"" : String(ch) }
            return q + "\""
        }
        return t
    }

    /// The CSV: one row per member per week, by week then member.
    public static func csv(_ rows: [Row]) -> String {
        var s = csvHeader + "\n"
        for r in rows.sorted(by: { ($0.week, $0.member) < ($1.week, $1.member) }) {
            func opt(_ v: Int?) -> String { v.map(String.init) ?? "" }
            let cells: [String] = [cell(r.member), cell(r.petName), date(r.week), opt(r.courseDay), opt(r.postsRead),
                                   "\(r.streak)", "\(r.tasks)", "\(r.focus)", "\(r.coins)", r.engaged ? "1" : "0",
                                   opt(r.habitPoints), opt(r.habitDays), r.habitEach.map { cell(eachText($0)) } ?? ""]
            s += cells.joined(separator: ",") + "\n"
        }
        return s
    }

    /// The rows of a CSV written by `csv` (an earlier run's); lines that are not such a row are
    /// skipped and counted.
    public static func parseCSV(_ text: String) -> (rows: [Row], skipped: Int) {
        var rows: [Row] = []
        var skipped = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true).dropFirst() {
            var cells: [String] = []
            var cur = ""
            var quoted = false
            let it = Array(line)
            var i = 0
            while i < it.count {
                let c = it[i]
                if quoted {
                    if c == "\"" { if i + 1 < it.count && it[i + 1] == "\"" { cur.append("\""); i += 1 } else { quoted = false } } else { cur.append(c) }
                } else if c == "\"" { quoted = true } else if c == "," { cells.append(cur); cur = "" } else { cur.append(c) }
                i += 1
            }
            cells.append(cur)
            // 13 cells; 12 before each habit's week was shared, 10 before the habit score was.
            let d = [10, 12, 13].contains(cells.count) ? cells[2].split(separator: "-").compactMap { Int($0) } : []
            guard [10, 12, 13].contains(cells.count), CircleRules.isMemberID(cells[0]), d.count == 3,
                  let streak = Int(cells[5]), let tasks = Int(cells[6]), let focus = Int(cells[7]), let coins = Int(cells[8]) else {
                skipped += 1; continue
            }
            var name = cells[1]
            if name.hasPrefix("'") { name.removeFirst() }
            rows.append(Row(member: cells[0], petName: name, week: CivilDate(year: d[0], month: d[1], day: d[2]).dayNumber,
                            courseDay: Int(cells[3]), postsRead: Int(cells[4]), streak: streak, tasks: tasks, focus: focus, coins: coins,
                            habitPoints: cells.count >= 12 ? Int(cells[10]) : nil, habitDays: cells.count >= 12 ? Int(cells[11]) : nil,
                            habitEach: cells.count == 13 ? parseEach(cells[12]) : nil))
        }
        return (rows, skipped)
    }

    /// Earlier rows and this run's: one row per member per week, this run's winning.
    public static func merge(_ history: [Row], _ current: [Row]) -> [Row] {
        var byKey: [String: Row] = [:]
        for r in history + current { byKey["\(r.member) \(r.week)"] = r }
        return byKey.values.sorted { ($0.week, $0.member) < ($1.week, $1.member) }
    }

    // MARK: - Charts

    /// The charts, by file name: the share of learners engaged per week (percent, the last 12
    /// weeks), the learners of the latest week by posts read and by streak, in buckets, and the
    /// learners' average habit score per week (the last 12 weeks), and each habit's share of the
    /// latest week's days checked, by checklist position.
    public static func charts(_ history: [Row]) -> [(name: String, png: [UInt8])] {
        let weeks = Array(Set(history.map(\.week)).sorted().suffix(12))
        let perWeek = weeks.map { w -> Int in
            let rs = history.filter { $0.week == w }
            return rs.isEmpty ? 0 : rs.filter(\.engaged).count * 100 / rs.count
        }
        let engagement = barChart(perWeek, labels: weeks.map { String(date($0).dropFirst(5)) }, maxValue: 100, yUnit: "%",
                                  color: (46, 125, 50))
        // The latest week each member reported.
        var latest: [String: Row] = [:]
        for r in history where (latest[r.member]?.week ?? .min) <= r.week { latest[r.member] = r }
        let postBuckets = [(0, 6), (7, 13), (14, 20), (21, 27), (28, 34), (35, 41), (42, 48), (49, 55), (56, 62), (63, 66)]
        let posts = postBuckets.map { b in latest.values.filter { ($0.postsRead ?? -1) >= b.0 && ($0.postsRead ?? -1) <= b.1 }.count }
        let streakBuckets = [(0, 0), (1, 6), (7, 13), (14, 29), (30, 65), (66, 10_000_000)]
        let streaks = streakBuckets.map { b in latest.values.filter { $0.streak >= b.0 && $0.streak <= b.1 }.count }
        // The habit score: the average week's points of the learners sharing it, per week.
        let habitAverage = weeks.map { w -> Int in
            let hs = history.filter { $0.week == w }.compactMap(\.habitPoints)
            return hs.isEmpty ? 0 : hs.reduce(0, +) / hs.count
        }
        // Each habit's week, by checklist position: the percent of the week's days checked,
        // averaged over the learners of the latest week who share it and have that many habits.
        // A position is each learner's own habit (#1 is not the same habit for two learners).
        let lastWeek = weeks.last ?? 0
        let each = history.filter { $0.week == lastWeek }.compactMap(\.habitEach)
        let eachAverage = (0..<(each.map(\.count).max() ?? 0)).map { i -> Int in
            let vs = each.filter { $0.count > i }.map { $0[i] }
            return vs.isEmpty ? 0 : vs.reduce(0, +) * 100 / (vs.count * 7)
        }
        return [
            ("engagement.png", engagement),
            ("posts-read.png", barChart(posts, labels: postBuckets.map { "\($0.0)-\($0.1)" }, maxValue: nil, yUnit: "", color: (21, 101, 192))),
            ("habit-streaks.png", barChart(streaks, labels: ["0", "1-6", "7-13", "14-29", "30-65", "66-"], maxValue: nil, yUnit: "",
                                           color: (230, 81, 0))),
            ("habit-scores.png", barChart(habitAverage, labels: weeks.map { String(date($0).dropFirst(5)) }, maxValue: nil, yUnit: "",
                                          color: (106, 27, 154))),
            ("habit-each.png", barChart(eachAverage, labels: (0..<eachAverage.count).map { "#\($0 + 1)" }, maxValue: 100, yUnit: "%",
                                        color: (0, 131, 143))),
        ]
    }

    /// A bar chart with a y axis (0 and the top value) and a label under each bar.
    public static func barChart(_ values: [Int], labels: [String], maxValue: Int?, yUnit: String, color: (UInt8, UInt8, UInt8)) -> [UInt8] {
        let c = barChartPixels(values, labels: labels, maxValue: maxValue, yUnit: yUnit, color: color)
        return PNG.encodeRGB(width: c.width, height: c.height, rgb: c.rgb)
    }

    /// The chart's pixels (RGB, rows top first): bars are `barWidth` wide from x `firstBarX`,
    /// `barGap` apart; the plot is `plotHeight` high above the axis.
    public static let firstBarX = 80, barWidth = 36, barGap = 10, plotHeight = 200, plotTop = 16

    public static func barChartPixels(_ values: [Int], labels: [String], maxValue: Int?, yUnit: String,
                                      color: (UInt8, UInt8, UInt8)) -> (width: Int, height: Int, rgb: [UInt8]) {
        let scale = 2, barW = barWidth, gap = barGap, left = firstBarX - barGap, bottom = 30, top = plotTop, plotH = plotHeight
        let w = max(160, left + values.count * (barW + gap) + gap)
        let h = top + plotH + bottom
        var c = Canvas(w: w, h: h)
        let maxV = max(1, maxValue ?? (values.max() ?? 1))
        let baseY = top + plotH
        c.fill(left - 2, top, 2, plotH + 1, (80, 80, 80))
        c.fill(left - 2, baseY, w - left + 2, 2, (80, 80, 80))
        c.text("\(maxV)\(yUnit)", right: left - 6, y: top - 4, scale: scale)
        c.text("0\(yUnit)", right: left - 6, y: baseY - 8, scale: scale)
        c.fill(left - 6, top, 4, 1, (80, 80, 80))
        for (i, v) in values.enumerated() {
            let x = left + gap + i * (barW + gap)
            let bar = plotH * min(max(0, v), maxV) / maxV
            c.fill(x, baseY - bar, barW, bar, color)
            if i < labels.count {
                let lw = Canvas.textWidth(labels[i], scale: 1)
                c.text(labels[i], right: x + (barW + lw) / 2, y: baseY + 8, scale: 1)
            }
            let vs = "\(v)"
            c.text(vs, right: x + (barW + Canvas.textWidth(vs, scale: 1)) / 2, y: max(0, baseY - bar - 8), scale: 1)
        }
        return (w, h, c.rgb)
    }

    struct Canvas {
        let w: Int, h: Int
        var rgb: [UInt8]
        init(w: Int, h: Int) { self.w = w; self.h = h; rgb = [UInt8](repeating: 255, count: w * h * 3) }

        mutating func fill(_ x: Int, _ y: Int, _ fw: Int, _ fh: Int, _ col: (UInt8, UInt8, UInt8)) {
            let x0 = max(0, x), x1 = min(w, x + fw), y0 = max(0, y), y1 = min(h, y + fh)
            guard x0 < x1, y0 < y1 else { return }
            for yy in y0..<y1 {
                for xx in x0..<x1 {
                    let i = (yy * w + xx) * 3
                    rgb[i] = col.0; rgb[i + 1] = col.1; rgb[i + 2] = col.2
                }
            }
        }

        /// 3×5 glyphs for the labels' characters (digits, `-`, `%`); each row three bits, top first.
        static let glyphs: [Character: [UInt8]] = [
            "0": [7, 5, 5, 5, 7], "1": [2, 6, 2, 2, 7], "2": [7, 1, 7, 4, 7], "3": [7, 1, 7, 1, 7], "4": [5, 5, 7, 1, 1],
            "5": [7, 4, 7, 1, 7], "6": [7, 4, 7, 5, 7], "7": [7, 1, 1, 1, 1], "8": [7, 5, 7, 5, 7], "9": [7, 5, 7, 1, 7],
            "-": [0, 0, 7, 0, 0], "%": [5, 1, 2, 4, 5],
        ]

        static func textWidth(_ s: String, scale: Int) -> Int { max(0, s.count * 4 * scale - scale) }

        /// Draws `s` ending at `right`; a character without a glyph is a gap.
        mutating func text(_ s: String, right: Int, y: Int, scale: Int) {
            var x = right - Canvas.textWidth(s, scale: scale)
            for ch in s {
                if let g = Canvas.glyphs[ch] {
                    for (row, bits) in g.enumerated() {
                        for col in 0..<3 where bits & (4 >> UInt8(col)) != 0 {
                            fill(x + col * scale, y + row * scale, scale, scale, (40, 40, 40))
                        }
                    }
                }
                x += 4 * scale
            }
        }
    }
}
