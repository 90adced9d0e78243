import FoundationEssentials
import PetWire
import PetPNG

/// One day's numbers, counted from the export's journal.
struct DayStats {
    var day: Int64
    var events = 0, tasksCompleted = 0, coinsEarned = 0, coinsSpent = 0, habitsChecked = 0, urges = 0
}

/// Per-day stats of an export document (docs/export.md): every journal entry counts on its
/// `day` (the device's local day number).
func dayStats(exportText: String) throws(CtlError) -> [DayStats] {
    guard case .object(let doc)? = JSONValue.parse(exportText), doc["format"] == .string("deskpet-export"),
          case .array(let journal)? = doc["journal"] else {
        throw CtlError(code: Exit.link, message: "the export is not a deskpet-export document")
    }
    var byDay: [Int64: DayStats] = [:]
    for case .object(let e) in journal {
        guard let day = e["day"]?.int64 else { continue }
        var s = byDay[day] ?? DayStats(day: day)
        s.events += 1
        let coins = Int(e["coins"]?.int64 ?? 0)
        if coins > 0 { s.coinsEarned += coins } else { s.coinsSpent -= coins }
        switch e["type"]?.fieldText {
        case "task.completed": s.tasksCompleted += 1
        case "habit.checked": s.habitsChecked += 1
        case "quit.logged": s.urges += 1
        default: break
        }
        byDay[day] = s
    }
    return byDay.values.sorted { $0.day < $1.day }
}

func statsCSV(_ days: [DayStats]) -> String {
    var s = "date,events,tasks_completed,coins_earned,coins_spent,habits_checked,urges\n"
    for d in days {
        let (y, m, dd) = civil(d.day)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        s += "\(y)-\(two(m))-\(two(dd)),\(d.events),\(d.tasksCompleted),\(d.coinsEarned),\(d.coinsSpent),\(d.habitsChecked),\(d.urges)\n"
    }
    return s
}

/// A bar chart (one bar per day, scaled to the largest) as a PNG.
func barChart(_ values: [Int], color: (UInt8, UInt8, UInt8)) -> [UInt8] {
    let barW = 8, gap = 2, h = 120, pad = 4
    let w = max(64, pad * 2 + values.count * (barW + gap))
    var rgb = [UInt8](repeating: 255, count: w * h * 3)
    let top = max(1, values.max() ?? 1)
    for x in 0..<w { let i = ((h - pad) * w + x) * 3; rgb[i] = 120; rgb[i + 1] = 120; rgb[i + 2] = 120 }   // baseline
    for (n, v) in values.enumerated() {
        let bar = (h - 2 * pad) * max(0, v) / top
        let x0 = pad + n * (barW + gap)
        for y in (h - pad - bar)..<(h - pad) { for x in x0..<(x0 + barW) where x < w {
            let i = (y * w + x) * 3; rgb[i] = color.0; rgb[i + 1] = color.1; rgb[i + 2] = color.2
        } }
    }
    return PNG.encodeRGB(width: w, height: h, rgb: rgb)
}

func stats(_ ctl: Ctl, _ a: Args) throws(CtlError) -> Int32 {
    guard a.positional.isEmpty else { throw .usage("stats takes only --csv FILE and --png DIR") }
    let days = try dayStats(exportText: try exportText(ctl))
    let csv = statsCSV(days)
    if let file = a.options["csv"] {
        do { try StateFile.writeAtomically(file, Array(csv.utf8)) } catch { throw CtlError(code: Exit.files, message: error.description) }
        out("wrote \(days.count) day(s) to \(file)")
    } else if a.options["png"] == nil {
        print(csv, terminator: "")
    }
    if let dir = a.options["png"] {
        do {
            try StateFile.makeDirectory(dir)
            try StateFile.writeAtomically(dir + "/coins.png", barChart(days.map(\.coinsEarned), color: (230, 170, 30)))
            try StateFile.writeAtomically(dir + "/tasks.png", barChart(days.map(\.tasksCompleted), color: (60, 140, 220)))
        } catch { throw CtlError(code: Exit.files, message: error.description) }
        out("wrote \(dir)/coins.png and \(dir)/tasks.png")
    }
    return Exit.ok
}
