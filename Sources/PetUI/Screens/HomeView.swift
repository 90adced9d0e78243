import PetCore

/// The home screen: the pet in its home, clock, coins, streak, level bar, the next due item and the
/// speech line (the pet's line, a quit-log recommendation, the self-image goal in rotation), and a
/// paused marker. One layout per size class (docs/screens.md).
enum HomeView {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let m = Model(c)
        switch l.size {
        case .square: square(l, m, &canvas)
        case .wide: wide(l, m, &canvas)
        case .tiny: tiny(l, m, &canvas)
        case .paper: paper(l, m, &canvas)
        }
    }

    /// What the home screen shows, from the state.
    struct Model {
        var clock: String
        var coins: Int
        var streak: Int
        var level: Int
        var progress: Double
        var name: String
        var mood: String
        var nextTitle: String?
        var nextDue: String?
        var nextDueShort: String?
        var speech: String
        var paused: Bool

        init(_ c: ScreenContext) {
            let s = c.state
            clock = Fmt.clock(s.clock.local(c.now))
            coins = s.coins
            streak = s.streak
            level = s.level
            let p = Levels.progress(forXP: s.xp)
            progress = Double(p.into) / Double(max(1, p.needed))
            name = s.pet.name
            mood = s.mood(at: c.now).rawValue
            // The task shown: `ui.cursor` indexes `openTasks()` (0 = the next one; clamped).
            // Then today's unchecked habits (`NavRows.home`: the card A steps through).
            let items = c.view.homeItems ?? NavRows.home(s)
            switch items[min(max(0, c.ui.cursor), items.count - 1)] {
            case .task(let id)?:
                let next = s.tasks[id]
                nextTitle = next?.title
                nextDue = next.flatMap { Fmt.due($0, state: s, now: c.now) }
                nextDueShort = next.flatMap { Fmt.dueShort($0, state: s, now: c.now) }
            case .habit(let item)?:
                nextTitle = NavRows.habitText(item, s)
                nextDue = "habit, today"
                nextDueShort = "habit"
            case nil:
                nextTitle = nil; nextDue = nil; nextDueShort = nil
            }
            speech = HomeView.speechLine(s, now: c.now)
            paused = s.paused
        }
    }

    /// The speech line: a quit-log recommendation (for 5 minutes after a log), else the pet's
    /// latest line (2 minutes), else the idle line taking turns with the self-image goal (every
    /// other 10 minutes).
    static func speechLine(_ s: PetState, now: Instant) -> String {
        if let q = s.quitRecommendation(at: now) { return q }
        let recent = s.speech.map { now - $0.at < 120 && now >= $0.at } ?? false
        if !recent, let goal = s.habits.selfImage, !goal.isEmpty, floorDiv(now.seconds, 600) % 2 == 1 {
            return "I am " + goal
        }
        return s.speech(at: now).text
    }

    // MARK: Pieces

    /// "⊙125 🔥7" right-aligned at `right`; returns its left edge.
    @discardableResult
    static func coinsAndStreak(_ l: Look, _ m: Model, _ c: inout Canvas, right: Int, y: Int, _ f: TextSize) -> Int {
        let streak = Fmt.compact(m.streak), coins = Fmt.compact(m.coins)
        var x = right - Txt.width(streak, f)
        Txt.draw(&c, streak, x: x, y: y, l.pal.fg, f)
        x -= f.advance + (f == .large ? 2 : 1)
        Txt.draw(&c, String(Glyph.flame), x: x, y: y, l.pal.flame, f)
        x -= (f == .large ? 10 : 4) + Txt.width(coins, f)
        Txt.draw(&c, coins, x: x, y: y, l.pal.fg, f)
        x -= f.advance + (f == .large ? 2 : 1)
        Txt.draw(&c, String(Glyph.coin), x: x, y: y, l.pal.coin, f)
        return x
    }

    /// The pet's home: an accent frame (colour) or an outline (1-bit) with the scene inside.
    static func petFrame(_ l: Look, _ c: inout Canvas, _ r: Rect) {
        if l.pal.mono {
            c.strokeRect(x: r.x, y: r.y, w: r.w, h: r.h, color: l.pal.fg)
        } else {
            c.fillRoundedRect(x: r.x, y: r.y, w: r.w, h: r.h, radius: 12, color: l.pal.meter)
            c.fillRoundedRect(x: r.x + 3, y: r.y + 3, w: r.w - 6, h: r.h - 6, radius: 9, color: l.pal.backdrop)
        }
        let inset = l.pal.mono ? 2 : 6
        PetScene.draw(l.ctx, in: Rect(x: r.x + inset, y: r.y + inset, w: r.w - 2 * inset, h: r.h - 2 * inset), &c)
    }

    static func pausedPill(_ l: Look, _ c: inout Canvas, x: Int, y: Int) {
        let label = "PAUSED"
        let w = Txt.width(label, .small) + 8
        if l.pal.mono { c.fillRect(x: x, y: y, w: w, h: 11, color: l.pal.fg) }
        else { c.fillRoundedRect(x: x, y: y, w: w, h: 12, radius: 6, color: l.pal.fg) }
        Txt.draw(&c, label, x: x + 4, y: y + 2, l.pal.bg, .small)
    }

    /// A speech bubble with `lines` lines in `r`, its tail towards `tail` (down or left).
    static func bubble(_ l: Look, _ c: inout Canvas, _ text: String, _ r: Rect, maxLines: Int, tailDown: Bool,
                       centred: Bool = true) {
        let f: TextSize = .small
        let lines = Txt.wrap(text, f, width: r.w - 12, maxLines: maxLines)
        guard !lines.isEmpty else { return }
        let textW = lines.map { Txt.width($0, f) }.max() ?? 0
        let h = lines.count * (f.height + 2) + 8
        let w = centred ? max(40, textW + 14) : r.w
        let x = centred ? r.x + (r.w - w) / 2 : r.x
        let y = r.y
        let p = l.pal
        c.fillRoundedRect(x: x, y: y, w: w, h: h, radius: 6, color: p.bubbleBorder)
        c.fillRoundedRect(x: x + 1, y: y + 1, w: w - 2, h: h - 2, radius: 5, color: p.bubble)
        if tailDown {
            let tx = x + w / 2
            for i in 0..<5 {
                let half = 4 - i
                c.hline(x: tx - half - 1, y: y + h - 1 + i, w: 2 * half + 3, color: p.bubbleBorder)
                if half > 0 { c.hline(x: tx - half, y: y + h - 1 + i, w: 2 * half + 1, color: p.bubble) }
            }
        } else {
            let ty = y + min(h - 8, 10)
            for i in 0..<5 {
                let half = 4 - i
                c.vline(x: x - i, y: ty - half - 1, h: 2 * half + 3, color: p.bubbleBorder)
                if half > 0 { c.vline(x: x - i + 1, y: ty - half, h: 2 * half + 1, color: p.bubble) }
            }
        }
        for (k, line) in lines.enumerated() {
            let ly = y + 5 + k * (f.height + 2)
            if centred { Txt.drawCentred(&c, line, x: x + 6, w: w - 12, y: ly, p.bubbleText, f) }
            else { Txt.draw(&c, line, x: x + 7, y: ly, p.bubbleText, f, maxWidth: w - 12) }
        }
    }

    /// The next-task card: bell, title (wrapped to `lines`), due.
    static func nextCard(_ l: Look, _ m: Model, _ c: inout Canvas, _ r: Rect, titleLines: Int) {
        l.card(&c, r)
        let p = l.pal
        guard let title = m.nextTitle, !title.isEmpty else {
            let msg = "No tasks - enjoy!"
            let f: TextSize = Txt.width(msg, .large) <= r.w - 12 ? .large : .small
            Txt.drawCentred(&c, msg, x: r.x + 4, w: r.w - 8, y: r.y + (r.h - f.height) / 2, p.good, f)
            return
        }
        let tx = r.x + 26
        Txt.draw(&c, String(Glyph.bell), x: r.x + 8, y: r.y + 5, p.meter, .large)
        let used = Txt.drawWrapped(&c, title, x: tx, y: r.y + 4, width: r.maxX - 6 - tx, maxLines: titleLines, p.fg, .large)
        if let due = m.nextDue {
            Txt.draw(&c, due, x: tx, y: min(r.maxY - 11, r.y + 6 + used), p.muted, .small, maxWidth: r.maxX - 6 - tx)
        }
    }

    static func levelRow(_ l: Look, _ m: Model, _ c: inout Canvas, x: Int, y: Int, w: Int, _ f: TextSize, name: Bool) {
        let lv = "Lv \(m.level)"
        let lvW = Txt.width(lv, f)
        if name { Txt.draw(&c, m.name, x: x, y: y, l.pal.fg, f, maxWidth: w - lvW - 8) }
        Txt.draw(&c, lv, x: x + w - lvW, y: y, l.pal.fg, f)
    }

    // MARK: Layouts

    static func statusBar(_ l: Look, _ m: Model, _ c: inout Canvas) {
        c.fillRect(x: 0, y: 0, w: l.W, h: 28, color: l.pal.panel)
        c.fillRect(x: 0, y: 28, w: l.W, h: 2, color: l.pal.accent)
        let left = coinsAndStreak(l, m, &c, right: l.W - 8, y: 6, .large)
        Txt.draw(&c, m.clock, x: 8, y: 6, l.pal.fg, .large, maxWidth: left - 16)
    }

    /// 240×240: status bar, speech bubble, the pet's home, name and level, the next task.
    static func square(_ l: Look, _ m: Model, _ c: inout Canvas) {
        statusBar(l, m, &c)
        // The bottom 12 px are the hint bar's (`HintBar`).
        let frame = Rect(x: 12, y: 64, w: 216, h: 90)
        petFrame(l, &c, frame)
        if m.paused { pausedPill(l, &c, x: frame.x + 8, y: frame.y + 8) }
        bubble(l, &c, m.speech, Rect(x: 8, y: 34, w: 224, h: 26), maxLines: 2, tailDown: true)
        levelRow(l, m, &c, x: 10, y: 158, w: 220, .large, name: true)
        l.bar(&c, Rect(x: 10, y: 177, w: 220, h: 8), m.progress)
        nextCard(l, m, &c, Rect(x: 6, y: 190, w: 228, h: 36), titleLines: 1)
    }

    /// 320×240: status bar; the pet left with its name under it; speech, level and the next task right.
    static func wide(_ l: Look, _ m: Model, _ c: inout Canvas) {
        statusBar(l, m, &c)
        let frame = Rect(x: 8, y: 38, w: 144, h: 144)
        petFrame(l, &c, frame)
        if m.paused { pausedPill(l, &c, x: frame.x + 8, y: frame.y + 8) }
        Txt.drawCentred(&c, m.name, x: 4, w: 152, y: 190, l.pal.fg, .large)
        Txt.drawCentred(&c, "feeling " + m.mood, x: 4, w: 152, y: 212, l.pal.muted, .small)
        let rx = 166, rw = l.W - rx - 8
        bubble(l, &c, m.speech, Rect(x: rx, y: 38, w: rw, h: 60), maxLines: 4, tailDown: false, centred: false)
        levelRow(l, m, &c, x: rx, y: 104, w: rw, .large, name: false)
        Txt.draw(&c, "\(Int((m.progress * 100).rounded(.down)))% to next", x: rx, y: 109, l.pal.muted, .small,
                 maxWidth: rw - 60)
        l.bar(&c, Rect(x: rx, y: 124, w: rw, h: 10), m.progress)
        nextCard(l, m, &c, Rect(x: rx - 4, y: 144, w: rw + 6, h: l.bottom - 2 - 144), titleLines: 3)
    }

    /// 128×64: clock and coins on top, the pet left, level and streak right, speech and next task below.
    static func tiny(_ l: Look, _ m: Model, _ c: inout Canvas) {
        let p = l.pal
        let coins = String(Glyph.coin) + Fmt.compact(m.coins)
        let cx = Txt.drawRight(&c, coins, right: l.W - 1, y: 0, p.fg, .small)
        Txt.draw(&c, m.clock, x: 1, y: 0, p.fg, .small, maxWidth: cx - 4)
        c.hline(x: 0, y: 9, w: l.W, color: p.fg)
        PetScene.draw(l.ctx, in: Rect(x: 2, y: 11, w: 34, h: 34), &c)
        let rx = 40
        let lv = "Lv \(m.level)"
        Txt.draw(&c, lv, x: rx, y: 12, p.fg, .small)
        l.bar(&c, Rect(x: rx + Txt.width(lv, .small) + 3, y: 12, w: l.W - 2 - (rx + Txt.width(lv, .small) + 3), h: 7), m.progress)
        Txt.draw(&c, String(Glyph.flame) + "\(m.streak) " + m.name, x: rx, y: 22, p.fg, .small, maxWidth: l.W - rx - 1)
        // The pet's line where the mood word was (its face shows the mood); the bottom line is
        // the hint bar's (`HintBar`).
        if m.paused { pausedPill(l, &c, x: rx, y: 32) }
        else { Txt.draw(&c, m.speech, x: rx, y: 33, p.fg, .small, maxWidth: l.W - rx - 1) }
        c.hline(x: 0, y: 46, w: l.W, color: p.fg)
        if let t = m.nextTitle {
            var right = l.W - 1
            if let d = m.nextDueShort { right = Txt.drawRight(&c, d, right: l.W - 1, y: 47, p.fg, .small) - 4 }
            Txt.draw(&c, String(Glyph.bell) + t, x: 1, y: 47, p.fg, .small, maxWidth: right - 1)
        } else {
            Txt.draw(&c, "No tasks - enjoy!", x: 1, y: 47, p.fg, .small, maxWidth: l.W - 2)
        }
    }

    /// 250×122 e-paper: high contrast, the pet left, everything else right; nothing animates.
    static func paper(_ l: Look, _ m: Model, _ c: inout Canvas) {
        let p = l.pal
        let left = coinsAndStreak(l, m, &c, right: l.W - 4, y: 2, .large)
        Txt.draw(&c, m.clock, x: 4, y: 2, p.fg, .large, maxWidth: left - 12)
        c.fillRect(x: 0, y: 19, w: l.W, h: 2, color: p.fg)
        let frame = Rect(x: 2, y: 23, w: 98, h: 87)
        petFrame(l, &c, frame)
        if m.paused { pausedPill(l, &c, x: frame.x + 3, y: frame.y + 3) }
        let rx = 106, rw = l.W - rx - 4
        levelRow(l, m, &c, x: rx, y: 24, w: rw, .small, name: true)
        l.bar(&c, Rect(x: rx, y: 34, w: rw, h: 7), m.progress)
        bubble(l, &c, m.speech, Rect(x: rx + 4, y: 46, w: rw - 4, h: 28), maxLines: 2, tailDown: false, centred: false)
        // The bottom 10 px are the hint bar's (`HintBar`).
        if let t = m.nextTitle {
            Txt.draw(&c, String(Glyph.bell) + " Next", x: rx, y: 78, p.fg, .small)
            Txt.draw(&c, t, x: rx, y: 88, p.fg, .small, maxWidth: rw)
            if let d = m.nextDue { Txt.draw(&c, d, x: rx, y: 98, p.fg, .small, maxWidth: rw) }
        } else {
            Txt.draw(&c, "No tasks - enjoy!", x: rx, y: 88, p.fg, .small, maxWidth: rw)
        }
    }
}
