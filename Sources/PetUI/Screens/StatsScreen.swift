import PetCore

/// Stats (`ui.statsPage`): 0 = tasks done per day over 7 days (bars), 1 = coins earned per day over
/// 30 days (line), 2 = the month's activity heat map. Real charts with axes and labels, sized to the
/// display; a summary beside (wide, e-paper) or below (square) the chart.
enum StatsScreen {
    static let titles = ["Tasks done, 7 days", "Coins, 30 days", "Activity"]
    static let tinyTitles = ["Done, 7 days", "Coins, 30 days", "Activity"]

    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        let page = min(max(0, c.ui.statsPage), 2)
        let today = s.clock.day(of: c.now)
        var title = l.size == .tiny ? tinyTitles[page] : titles[page]
        if page == 2 {
            let d = s.clock.date(ofDay: today)
            title = (l.size == .tiny ? Fmt.months[d.month - 1] : Fmt.fullMonths[d.month - 1]) + " \(d.year)"
        }
        l.header(&canvas, l.size == .tiny ? title : "Stats", right: "\(page + 1)/3")
        let content = l.content
        var summary: [String] = []
        switch page {
        case 0:
            let bars = s.doneBars(endingWith: today)
            summary = ["\(bars.reduce(0, +)) done in 7 days", "best day \(bars.max() ?? 0)", "\(s.tasksCompleted) done in all"]
        case 1:
            let line = s.coinLine(endingWith: today)
            summary = [String(Glyph.coin) + "\(line.reduce(0, +)) earned", "best day \(line.max() ?? 0)",
                       "balance " + String(Glyph.coin) + "\(s.coins)"]
        default:
            let weeks = s.activityHeatMap(containing: today)
            let active = weeks.flatMap { $0 }.compactMap { $0 }.filter { $0 > 0 }.count
            summary = [Fmt.count(active, "active day"), "streak \(s.streak), best \(s.bestStreak)"]
        }
        // The hint bar keeps the bottom strip.
        let area = Rect(x: content.x, y: content.y, w: content.w, h: l.bottom - content.y)
        var chart = area
        let p = l.pal
        switch l.size {
        case .square:
            // Every label is at least the display's smallest legible face (12×16 here).
            let fh = l.small.height
            Txt.draw(&canvas, title, x: l.pad, y: area.y + 2, p.fg, .small, maxWidth: l.W - 2 * l.pad)
            chart = Rect(x: 4, y: area.y + fh + 4, w: l.W - 8, h: area.h - (fh + 4) - 2 * (fh + 2) - 4)
            for (k, line) in summary.prefix(2).enumerated() {
                Txt.draw(&canvas, line, x: l.pad, y: chart.maxY + 4 + k * (fh + 2), k == 0 ? p.fg : p.muted, .large,
                         maxWidth: l.W - 2 * l.pad)
            }
        case .wide:
            let fh = l.small.height
            Txt.draw(&canvas, title, x: l.pad, y: area.y + 2, p.fg, .small, maxWidth: l.W - 2 * l.pad)
            chart = Rect(x: 4, y: area.y + fh + 4, w: 184, h: area.h - fh - 8)
            summaryColumn(l, &canvas, summary, x: 194, y: area.y + fh + 6, w: l.W - 198)
        case .paper:
            Txt.draw(&canvas, title, x: l.pad, y: area.y + 1, p.fg, .small, maxWidth: 170)
            chart = Rect(x: 2, y: area.y + 11, w: 172, h: area.h - 12)
            summaryColumn(l, &canvas, summary, x: 180, y: area.y + 12, w: l.W - 182)
        case .tiny:
            chart = Rect(x: 0, y: area.y, w: l.W, h: area.h)
        }
        switch page {
        case 0: bars(l, &canvas, s.doneBars(endingWith: today), firstDay: today - 6, chart)
        case 1: line(l, &canvas, s.coinLine(endingWith: today), firstDay: today - 29, chart)
        default: heat(l, &canvas, s.activityHeatMap(containing: today), today: today, chart)
        }
    }

    static func summaryColumn(_ l: Look, _ c: inout Canvas, _ lines: [String], x: Int, y: Int, w: Int) {
        var yy = y
        for (k, line) in lines.enumerated() {
            let used = Txt.drawWrapped(&c, line, x: x, y: yy, width: w, maxLines: 2, k == 0 ? l.pal.fg : l.pal.muted, .small)
            yy += used + (l.big ? 12 : 6)
        }
    }

    /// The y axis: a vertical rule with the max and 0 labels; returns the plot rect right of it.
    static func axes(_ l: Look, _ c: inout Canvas, _ r: Rect, maxValue: Int, xLabelH: Int) -> Rect {
        let p = l.pal
        let label = "\(maxValue)"
        let f = l.small
        let lw = Txt.width(label, f) + 3
        let plot = Rect(x: r.x + lw + 1, y: r.y + 4, w: r.w - lw - 2, h: r.h - xLabelH - 5)
        Txt.drawRight(&c, label, right: r.x + lw - 2, y: max(r.y, plot.y - 3), p.muted, f)
        Txt.drawRight(&c, "0", right: r.x + lw - 2, y: plot.maxY - f.height + 1, p.muted, f)
        c.vline(x: plot.x - 1, y: plot.y, h: plot.h + 1, color: p.mono ? p.fg : p.muted)
        c.hline(x: plot.x - 1, y: plot.maxY, w: plot.w + 1, color: p.mono ? p.fg : p.muted)
        // A dotted guide at the max.
        var gx = plot.x
        while gx < plot.maxX { c.setPixel(x: gx, y: plot.y, color: p.mono ? p.fg : p.track); gx += 3 }
        return plot
    }

    /// Where the 7-day bars chart puts things, in `plot` (the area inside the axes): each bar,
    /// its value label (nil: none — too little room, or the bar is the tallest and the axis
    /// label says its value), the gridline at the maximum. The tallest bar reaches the gridline;
    /// labels never cross it nor each other (tests check the rectangles).
    struct BarLayout {
        var bars: [Rect]
        var labels: [Rect?]
        var gridY: Int
        var slot: Int
    }

    static func barLayout(_ values: [Int], plot: Rect, labels: Bool, labelH: Int = 8) -> BarLayout {
        let top = max(1, values.max() ?? 0)
        let n = max(1, values.count)
        let slot = plot.w / n
        let bw = max(2, slot * 2 / 3)
        var bars: [Rect] = [], marks: [Rect?] = []
        for (i, v) in values.enumerated() {
            // Full height at the maximum: the top of the tallest bar is the gridline.
            let h = v * plot.h / top
            let x = plot.x + i * slot + (slot - bw) / 2
            bars.append(Rect(x: x, y: plot.maxY - h, w: bw, h: h))
            // The value above its bar when that stays below the gridline (the axis labels the maximum).
            let label = Rect(x: plot.x + i * slot, y: plot.maxY - h - labelH - 1, w: slot, h: labelH)
            marks.append(labels && v > 0 && label.y > plot.y ? label : nil)
        }
        return BarLayout(bars: bars, labels: marks, gridY: plot.y, slot: slot)
    }

    static func bars(_ l: Look, _ c: inout Canvas, _ values: [Int], firstDay: Int, _ r: Rect) {
        let p = l.pal
        let top = max(1, values.max() ?? 0)
        let f = l.small
        let plot = axes(l, &c, r, maxValue: top, xLabelH: f.height + 1)
        let slot = plot.w / max(1, values.count)
        let layout = barLayout(values, plot: plot, labels: l.size != .tiny || slot >= 12, labelH: f.height)
        for (i, v) in values.enumerated() {
            let b = layout.bars[i]
            let isToday = i == values.count - 1
            if b.h > 0 { c.fillRect(x: b.x, y: b.y, w: b.w, h: b.h, color: isToday ? p.flame : p.meter) }
            if let lr = layout.labels[i] { Txt.drawCentred(&c, "\(v)", x: lr.x, w: lr.w, y: lr.y, p.fg, f) }
            let wd = l.state.clock.date(ofDay: firstDay + i).weekday
            let name = Txt.width(Fmt.weekdays[wd], f) <= slot ? Fmt.weekdays[wd] : String(Fmt.weekdays[wd].prefix(1))
            Txt.drawCentred(&c, name, x: plot.x + i * slot, w: slot, y: plot.maxY + 2, isToday ? p.fg : p.muted, f)
        }
    }

    static func line(_ l: Look, _ c: inout Canvas, _ values: [Int], firstDay: Int, _ r: Rect) {
        let p = l.pal
        let top = max(1, values.max() ?? 0)
        let plot = axes(l, &c, r, maxValue: top, xLabelH: l.small.height + 1)
        let n = values.count
        guard n > 1 else { return }
        func pt(_ i: Int) -> (Int, Int) {
            (plot.x + i * (plot.w - 1) / (n - 1), plot.maxY - 1 - values[i] * (plot.h - 3) / top)
        }
        if !p.mono {
            // Soft fill under the line.
            for i in 0..<(n - 1) {
                let (x0, y0) = pt(i), (x1, y1) = pt(i + 1)
                for x in x0..<x1 {
                    let y = y0 + (y1 - y0) * (x - x0) / max(1, x1 - x0)
                    c.vline(x: x, y: y, h: plot.maxY - y, color: p.track)
                }
            }
        }
        for i in 0..<(n - 1) {
            let (x0, y0) = pt(i), (x1, y1) = pt(i + 1)
            c.line(x0: x0, y0: y0, x1: x1, y1: y1, color: p.mono ? p.fg : p.coin)
            if l.big { c.line(x0: x0, y0: y0 - 1, x1: x1, y1: y1 - 1, color: p.coin) }
        }
        let (lx, ly) = pt(n - 1)
        c.fillCircle(cx: lx, cy: ly, radius: l.big ? 3 : 2, color: p.mono ? p.fg : p.flame)
        let d0 = l.state.clock.date(ofDay: firstDay)
        Txt.draw(&c, "\(d0.day) " + Fmt.months[d0.month - 1], x: plot.x, y: plot.maxY + 2, p.muted, l.small)
        Txt.drawRight(&c, "today", right: plot.maxX, y: plot.maxY + 2, p.muted, l.small)
    }

    static func heat(_ l: Look, _ c: inout Canvas, _ weeks: [[Int?]], today: Int, _ r: Rect) {
        let p = l.pal
        let labelH = l.small.height + 1
        let rows = max(1, weeks.count)
        let cell = max(4, min((r.w - 2) / 7, (r.h - labelH - 1) / rows))
        let gridW = cell * 7
        let x0 = r.x + (r.w - gridW) / 2
        let y0 = r.y + labelH
        for (i, d) in ["M", "T", "W", "T", "F", "S", "S"].enumerated() {
            Txt.drawCentred(&c, d, x: x0 + i * cell, w: cell, y: r.y, p.muted, l.small)
        }
        let peak = max(1, weeks.flatMap { $0 }.compactMap { $0 }.max() ?? 0)
        let (first, _) = l.state.monthRange(containing: today)
        var dayIndex = 0
        for (w, week) in weeks.enumerated() {
            for (k, v) in week.enumerated() {
                guard let v else { continue }
                dayIndex += 1
                let cx = x0 + k * cell, cy = y0 + w * cell
                let level = v == 0 ? 0 : 1 + min(3, (v * 4 - 1) / peak)
                let inner = Rect(x: cx + 1, y: cy + 1, w: cell - 2, h: cell - 2)
                var numberInk = p.muted
                if p.mono {
                    switch level {
                    case 0: c.strokeRect(x: inner.x, y: inner.y, w: inner.w, h: inner.h, color: p.fg)
                    case 1, 2:
                        c.strokeRect(x: inner.x, y: inner.y, w: inner.w, h: inner.h, color: p.fg)
                        let step = level == 1 ? 3 : 2
                        var yy = inner.y + 1
                        while yy < inner.maxY - 1 {
                            var xx = inner.x + 1 + (yy % 2)
                            while xx < inner.maxX - 1 { c.setPixel(x: xx, y: yy, color: p.fg); xx += step }
                            yy += step == 3 ? 2 : 1
                        }
                        numberInk = p.fg
                    default:
                        c.fillRect(x: inner.x, y: inner.y, w: inner.w, h: inner.h, color: p.fg)
                        numberInk = p.bg
                    }
                } else {
                    // Steps chosen so the day number (text or background colour, whichever
                    // reads better) stays at 4.5:1 on every level in both themes.
                    let steps = [0, 0.25, 0.5, 0.65, 1.0]
                    let colour = level == 0 ? p.track : p.track.mixed(with: p.good, steps[min(level, 4)])
                    c.fillRoundedRect(x: inner.x, y: inner.y, w: inner.w, h: inner.h, radius: cell >= 16 ? 3 : 0, color: colour)
                    numberInk = p.fg.contrastRatio(with: colour) >= p.bg.contrastRatio(with: colour) ? p.fg : p.bg
                }
                if first + dayIndex - 1 == today {
                    c.strokeRect(x: cx, y: cy, w: cell, h: cell, color: p.mono ? p.fg : p.flame, thickness: l.big ? 2 : 1)
                }
                // The day number only where it fits whole in the display's smallest legible face.
                if (cell >= 14 && !p.mono || cell >= 14 && level == 0),
                   Txt.width("\(dayIndex)", l.small) <= cell - 2, l.small.height <= cell - 2 {
                    Txt.drawCentred(&c, "\(dayIndex)", x: cx, w: cell, y: cy + (cell - l.small.height) / 2, numberInk, l.small)
                }
            }
        }
    }
}

extension StatsScreen: ScreenDefinition {
    static let title = "Stats"
    static let icon = [
        ".......XX.",
        ".......XX.",
        "....XX.XX.",
        "....XX.XX.",
        ".XX.XX.XX.",
        ".XX.XX.XX.",
        ".XX.XX.XX.",
        ".XX.XX.XX.",
        "..........",
        "XXXXXXXXXX"]

    static func actions(_ t: inout NavActionTable) {
        let oneDown = t.oneDown
        t.add(.previous, .pagePrevious, rank: 2)
        t.add(.next, .pageNext, hinted: oneDown, rank: 2)
        t.add(.select, .pageNext, hinted: !oneDown, rank: 1)
        t.add(.forward, .pageNext, hinted: false)
        t.add(.back, .back)
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        switch input {
        case .next, .select, .forward: nav.ui.statsPage = (nav.ui.statsPage + 1) % 3
        case .previous: nav.ui.statsPage = (nav.ui.statsPage + 2) % 3
        case .back: nav.pop()
        default: break
        }
        return []
    }

    static func opened(_ ui: inout UIState, state: PetState?, now: Instant?) { ui.statsPage = 0 }
}
