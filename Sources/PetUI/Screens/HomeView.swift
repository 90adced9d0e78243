import PetCore

/// The home screen: the pet in its home, clock, the status icon strip (link, quiet hours, mute,
/// paused, battery), coins, streak, level bar, the need meters (fullness, energy), the attention
/// bubble, the next due item and the speech line (the pet's line, a quit-log recommendation, the
/// self-image goal in rotation). Long text wraps where there is room and scrolls (marquee) where
/// there is not, except on e-paper. One layout per size class (docs/screens.md).
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
        var fullness: Int
        var energy: Int
        var attention: Attention?
        var icons: [StatusIcon]

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
            let n = s.needs(at: c.now)
            fullness = n.fullness
            energy = n.energy
            attention = Attention.of(s, now: c.now)
            icons = StatusIcon.icons(s, c.device, now: c.now)
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

    /// "⊙125 🔥7" right-aligned at `right` (no flame while the streak is 0: a "0" next to a
    /// flame reads as a score lost); returns its left edge.
    @discardableResult
    static func coinsAndStreak(_ l: Look, _ m: Model, _ c: inout Canvas, right: Int, y: Int, _ f: TextSize) -> Int {
        let streak = Fmt.compact(m.streak), coins = Fmt.compact(m.coins)
        var x = right + (f == .large ? 10 : 4)
        if m.streak > 0 {
            x = right - Txt.width(streak, f)
            Txt.draw(&c, streak, x: x, y: y, l.pal.fg, f)
            x -= f.advance + (f == .large ? 2 : 1)
            Txt.draw(&c, String(Glyph.flame), x: x, y: y, l.pal.flame, f)
        }
        x -= (f == .large ? 10 : 4) + Txt.width(coins, f)
        Txt.draw(&c, coins, x: x, y: y, l.pal.fg, f)
        x -= f.advance + (f == .large ? 2 : 1)
        Txt.draw(&c, String(Glyph.coin), x: x, y: y, l.pal.coin, f)
        return x
    }

    /// Where home's status line has room for a reward beside the coins: the line's top and face,
    /// the first column after the clock, the coins' left edge (the coin glyph's, as drawn by each
    /// layout's status line) and the line's ground. The arithmetic is the layouts' own.
    struct CoinSpot { var y: Int; var face: TextSize; var clockRight: Int; var coinsLeft: Int; var ground: RGB565 }

    static func coinSpot(_ l: Look) -> CoinSpot {
        let s = l.state
        let clock = Fmt.clock(s.clock.local(l.now))
        let coins = Fmt.compact(s.coins), streak = Fmt.compact(s.streak)
        /// `coinsAndStreak`'s left edge without drawing.
        func pairLeft(right: Int, _ f: TextSize) -> Int {
            var x = right + (f == .large ? 10 : 4)
            if s.streak > 0 { x = right - Txt.width(streak, f) - f.advance - (f == .large ? 2 : 1) }
            return x - (f == .large ? 10 : 4) - Txt.width(coins, f) - f.advance - (f == .large ? 2 : 1)
        }
        switch l.size {
        case .square:
            return CoinSpot(y: 6, face: .large, clockRight: 8 + Txt.width(clock, .large),
                            coinsLeft: l.W - 8 - Txt.width(coins, .large) - 14, ground: l.pal.panel)
        case .wide:
            return CoinSpot(y: 6, face: .large, clockRight: 8 + Txt.width(clock, .large),
                            coinsLeft: pairLeft(right: l.W - 8, .large), ground: l.pal.panel)
        case .tiny:
            return CoinSpot(y: 0, face: .small, clockRight: 1 + Txt.width(clock, .small),
                            coinsLeft: l.W - 1 - Txt.width(String(Glyph.coin) + coins, .small), ground: l.pal.bg)
        case .paper:
            return CoinSpot(y: 2, face: .large, clockRight: 4 + Txt.width(clock, .large),
                            coinsLeft: pairLeft(right: l.W - 4, .large), ground: l.pal.bg)
        }
    }

    /// A reward on home ("+13") stands just left of the coins it was added to, in the status
    /// line, while its toast lasts: it hides the status icons there whole (they come back with
    /// it gone) and moves nothing. False when the line has no room for it between the clock and
    /// the coins (the toast then takes the hint strip, as on other screens).
    static func rewardBesideCoins(_ l: Look, _ c: inout Canvas, _ text: String) -> Bool {
        let spot = coinSpot(l)
        let f = Txt.legible(spot.face, on: c)
        let gap = f == .large ? 6 : 3
        let right = spot.coinsLeft - gap
        let x = right - Txt.width(text, f)
        guard !text.isEmpty, x >= spot.clockRight + 2 * gap else { return false }
        let from = spot.clockRight + gap
        c.cover(Rect(x: from, y: spot.y, w: spot.coinsLeft - 1 - from, h: f.height), color: spot.ground)
        let p = l.pal
        let ink = !p.mono && p.coin.contrastRatio(with: spot.ground) >= 3 ? p.coin : p.fg
        Txt.draw(&c, text, x: x, y: spot.y, ink, f)
        return true
    }

    /// The pet's home: an accent frame (colour) or an outline (1-bit) with the scene inside.
    static func petFrame(_ l: Look, _ c: inout Canvas, _ r: Rect, framing: PetScene.Framing = .auto) {
        c.part("home.pet-frame", r) { c in
            if l.pal.mono {
                c.strokeRect(x: r.x, y: r.y, w: r.w, h: r.h, color: l.pal.fg)
            } else {
                c.fillRoundedRect(x: r.x, y: r.y, w: r.w, h: r.h, radius: 12, color: l.pal.meter)
                c.fillRoundedRect(x: r.x + 3, y: r.y + 3, w: r.w - 6, h: r.h - 6, radius: 9, color: l.pal.backdrop)
            }
        }
        let inset = l.pal.mono ? 2 : 6
        PetScene.draw(l.ctx, in: Rect(x: r.x + inset, y: r.y + inset, w: r.w - 2 * inset, h: r.h - 2 * inset), &c, framing: framing)
    }

    static func pausedPill(_ l: Look, _ c: inout Canvas, x: Int, y: Int) {
        let label = "PAUSED"
        let f = l.small
        let w = Txt.width(label, f) + 8, h = f.height + 4
        if l.pal.mono { c.fillRect(x: x, y: y, w: w, h: h - 1, color: l.pal.fg) }
        else { c.fillRoundedRect(x: x, y: y, w: w, h: h, radius: h / 2, color: l.pal.fg) }
        Txt.draw(&c, label, x: x + 4, y: y + 2, l.pal.bg, f)
    }

    /// A speech bubble in `r` (its width; its height follows the lines), its tail down or left.
    /// The text wraps to `maxLines`; what does not fit scrolls on the last line (or ends in "..."
    /// on e-paper). `fixed`: the bubble is all of `r` whatever the text (the lines from its top),
    /// so a new line changes only the text's pixels, never the bubble's outline or what is
    /// around it. Returns the bubble's height.
    @discardableResult
    static func bubble(_ l: Look, _ c: inout Canvas, _ text: String, _ r: Rect, maxLines: Int, tailDown: Bool,
                       centred: Bool = true, fixed: Bool = false) -> Int {
        let f = l.small
        let all = Txt.breakLines(text, f, width: r.w - 12)
        guard !all.isEmpty else { return 0 }
        let n = min(all.count, maxLines)
        let textW = all.count > maxLines ? r.w - 12 : (all.map { Txt.width($0.text, f) }.max() ?? 0)
        let h = fixed ? r.h : n * (f.height + 2) + 8
        let w = centred && !fixed ? max(40, textW + 14) : r.w
        let x = centred && !fixed ? r.x + (r.w - w) / 2 : r.x
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
        if centred && all.count <= maxLines {
            for (k, line) in all.enumerated() {
                Txt.drawCentred(&c, line.text, x: x + 6, w: w - 12, y: y + 5 + k * (f.height + 2), p.bubbleText, f)
            }
        } else {
            Txt.flow(&c, text, x: x + 7, y: y + 5, width: w - 13, maxLines: maxLines, p.bubbleText, f, ms: l.ms)
        }
        return h
    }

    /// The next-task card: the title (wrapped to `titleLines`, the rest scrolling on the last),
    /// then the bell and the due time (wrapped to `dueLines`).
    static func nextCard(_ l: Look, _ m: Model, _ c: inout Canvas, _ r: Rect, titleLines: Int, dueLines: Int = 1) {
        l.card(&c, r)
        let p = l.pal
        let f = l.small
        guard let title = m.nextTitle, !title.isEmpty else {
            // "No tasks - enjoy!", on two centred lines where one is too narrow.
            let lines = Txt.wrap("No tasks - enjoy!", f, width: r.w - 8, maxLines: max(1, (r.h - 4) / (f.height + 2)))
            var y = r.y + (r.h - lines.count * (f.height + 2) + 2) / 2
            for line in lines {
                Txt.drawCentred(&c, line, x: r.x + 4, w: r.w - 8, y: y, p.good, f)
                y += f.height + 2
            }
            return
        }
        let tx = r.x + 6, tw = r.maxX - 6 - tx
        var y = r.y + 4
        y += Txt.flow(&c, title, x: tx, y: y, width: tw, maxLines: titleLines, p.fg, .large, ms: l.ms) + 4
        if let due = m.nextDue, y + f.height <= r.maxY {
            Txt.draw(&c, String(Glyph.bell), x: tx, y: y, p.muted, f)
            let dx = tx + f.advance + 4
            let lines = max(1, min(dueLines, (r.maxY - y) / (f.height + 2)))
            Txt.flow(&c, due, x: dx, y: y, width: r.maxX - 6 - dx, maxLines: lines, p.muted, f, ms: l.ms)
        }
    }

    /// The next task on one line of a card (240×240): the title, and its short due time in a
    /// gutter on the right (the title is shortened or scrolls; the time never is).
    static func nextLine(_ l: Look, _ m: Model, _ c: inout Canvas, _ r: Rect) {
        l.card(&c, r, radius: 6)
        let f = l.small
        let ty = r.y + (r.h - f.height) / 2
        guard let title = m.nextTitle, !title.isEmpty else {
            Txt.drawCentred(&c, "No tasks - enjoy!", x: r.x + 4, w: r.w - 8, y: ty, l.pal.good, f)
            return
        }
        var right = r.maxX - 6
        if let d = m.nextDueShort { right = Txt.drawRight(&c, d, right: r.maxX - 6, y: ty, l.pal.muted, f) - 10 }
        Txt.line(&c, title, x: r.x + 6, y: ty, width: right - r.x - 6, l.pal.fg, f, ms: l.ms)
    }

    static func levelRow(_ l: Look, _ m: Model, _ c: inout Canvas, x: Int, y: Int, w: Int, _ f: TextSize, name: Bool) {
        let lv = "Lv \(m.level)"
        let lvW = Txt.width(lv, f)
        if name { Txt.draw(&c, m.name, x: x, y: y, l.pal.fg, f, maxWidth: w - lvW - 8) }
        Txt.draw(&c, lv, x: x + w - lvW, y: y, l.pal.fg, f)
    }

    // MARK: Layouts

    /// Fullness and energy side by side in [x, x+w).
    /// A need meter standing upright (240×240 home, inside the pet frame's sides): the icon at the
    /// bottom in the 12×16 face, a 6 px bar above it filling upwards, on the frame's backdrop.
    static func verticalMeter(_ l: Look, _ c: inout Canvas, _ glyph: Character, _ value: Int, x: Int, top: Int, bottom: Int) {
        let f = Txt.legible(.large, on: c)
        Txt.draw(&c, String(glyph), x: x, y: bottom - f.height, l.pal.fg, f)
        let bw = 6, bx = x + (f.advance - bw) / 2
        let r = Rect(x: bx, y: top, w: bw, h: max(bw, bottom - f.height - 3 - top))
        let frac = Double(min(100, max(0, value))) / 100
        if l.pal.mono {
            c.strokeRect(x: r.x, y: r.y, w: r.w, h: r.h, color: l.pal.fg)
            let h = Int((Double(r.h - 4) * frac).rounded())
            if h > 0 { c.fillRect(x: r.x + 2, y: r.maxY - 2 - h, w: r.w - 4, h: h, color: l.pal.fg) }
            return
        }
        // A muted rim round the track: an empty meter (the pet starving) still shows.
        c.fillRoundedRect(x: r.x, y: r.y, w: r.w, h: r.h, radius: bw / 2, color: l.pal.muted)
        c.fillRoundedRect(x: r.x + 1, y: r.y + 1, w: r.w - 2, h: r.h - 2, radius: bw / 2 - 1, color: l.pal.track)
        let h = Int((Double(r.h) * frac).rounded())
        if h > 0 { c.fillRoundedRect(x: r.x, y: r.maxY - max(h, bw), w: r.w, h: max(h, bw), radius: bw / 2, color: l.pal.meter) }
    }

    static func needs(_ l: Look, _ m: Model, _ c: inout Canvas, x: Int, y: Int, w: Int, _ f: TextSize, barHeight: Int) {
        let gap = f == .large || l.big ? 10 : 5
        let half = (w - gap) / 2
        StatusStrip.meter(l, &c, Glyph.food, m.fullness, x: x, y: y, w: half, f, barHeight: barHeight)
        StatusStrip.meter(l, &c, Glyph.energy, m.energy, x: x + half + gap, y: y, w: w - half - gap, f, barHeight: barHeight)
    }

    /// The colour status bar: the clock, the status icons after it, the coins (and the streak when
    /// `streak`) on the right.
    static func statusBar(_ l: Look, _ m: Model, _ c: inout Canvas, streak: Bool) {
        c.fillRect(x: 0, y: 0, w: l.W, h: 28, color: l.pal.panel)
        c.fillRect(x: 0, y: 28, w: l.W, h: 2, color: l.pal.accent)
        let left: Int
        if streak { left = coinsAndStreak(l, m, &c, right: l.W - 8, y: 6, .large) }
        else {
            let coins = Fmt.compact(m.coins)
            let x = l.W - 8 - Txt.width(coins, .large)
            Txt.draw(&c, coins, x: x, y: 6, l.pal.fg, .large)
            left = x - 14
            Txt.draw(&c, String(Glyph.coin), x: left, y: 6, l.pal.coin, .large)
        }
        let cw = Txt.draw(&c, m.clock, x: 8, y: 6, l.pal.fg, .large, maxWidth: left - 16)
        StatusStrip.draw(l, &c, m.icons, right: left - 6, left: 8 + cw + 6, y: 6, .large, ink: l.pal.fg, paper: l.pal.panel)
    }

    /// 240×240: status bar, speech bubble, the pet's home (with the attention bubble), name,
    /// streak and level, the need meters, the next task.
    static func square(_ l: Look, _ m: Model, _ c: inout Canvas) {
        // Each piece is a part (`Canvas.part`, Damage.swift) keyed by what it reads from the
        // model; the frame's context (theme, display) holds the rest. A text that scrolls adds
        // the marquee's clock to its key.
        c.part("home.status", StatusKey(clock: m.clock, coins: m.coins, icons: m.icons)) { c in statusBar(l, m, &c, streak: false) }
        // The bottom strip is the hint bar's (`HintBar`): everything sits above `l.bottom`. The
        // frame is tall enough for the pet at twice its art size (80 px inside its 6 px inset).
        // The speech takes two lines (wrapped, never cut); the next task one line under the level.
        let frame = Rect(x: 12, y: 80, w: 216, h: 92)
        petFrame(l, &c, frame)
        if m.paused { c.part("home.paused", frame) { c in pausedPill(l, &c, x: frame.x + 8, y: frame.y + 8) } }
        if let a = m.attention {
            c.part("home.attention", a) { c in StatusStrip.attention(l, &c, a, right: frame.maxX - 8, y: frame.y + 6, .large) }
        }
        // The bubble is always two lines tall and the full width (`fixed`): a new line changes
        // only its text, never the bubble's outline (docs/design.md, "Draw little").
        let all = Txt.lineCount(m.speech, l.small, width: 224 - 12)
        let bh = 2 * (l.small.height + 2) + 8
        c.part("home.speech", TextKey(text: m.speech, ms: all > 2 ? l.ms : nil)) { c in
            bubble(l, &c, m.speech, Rect(x: 8, y: frame.y - 6 - bh, w: 224, h: bh), maxLines: 2, tailDown: true, fixed: true)
        }
        // The need meters stand inside the frame's sides, clear of the pet's stage (centred).
        let mTop = frame.y + 34, mBottom = frame.maxY - 7
        c.part("home.meters", [m.fullness, m.energy]) { c in
            verticalMeter(l, &c, Glyph.food, m.fullness, x: frame.x + 8, top: mTop, bottom: mBottom)
            verticalMeter(l, &c, Glyph.energy, m.energy, x: frame.maxX - 8 - 12, top: mTop, bottom: mBottom)
        }
        // Name left; streak and level right; a thin level bar under them.
        let ny = frame.maxY + 1
        var lvX = l.W - 10 - Txt.width("Lv \(m.level)", Txt.legible(.large, on: c))
        if m.streak > 0 { lvX = lvX - 12 - Txt.width(Fmt.compact(m.streak), Txt.legible(.large, on: c)) - 13 }
        let nameScrolls = Txt.width(m.name, Txt.legible(.large, on: c)) > lvX - 18
        c.part("home.level", LevelKey(level: m.level, streak: m.streak, name: m.name, progress: m.progress,
                                      ms: nameScrolls ? l.ms : nil)) { c in
            var lvX = Txt.drawRight(&c, "Lv \(m.level)", right: l.W - 10, y: ny, l.pal.fg, .large)
            if m.streak > 0 {
                lvX = Txt.drawRight(&c, Fmt.compact(m.streak), right: lvX - 12, y: ny, l.pal.fg, .large) - 13
                Txt.draw(&c, String(Glyph.flame), x: lvX, y: ny, l.pal.flame, .large)
            }
            Txt.line(&c, m.name, x: 10, y: ny, width: lvX - 18, l.pal.fg, .large, ms: l.ms)
            l.bar(&c, Rect(x: 10, y: ny + 17, w: 220, h: 4), m.progress)
        }
        let cy = ny + 24
        let r = Rect(x: 6, y: cy, w: 228, h: l.bottom - 2 - cy)
        // The title scrolls when it is wider than what the due time leaves (`nextLine`).
        var right = r.maxX - 6
        if let d = m.nextDueShort { right = r.maxX - 6 - Txt.width(d, Txt.legible(l.small, on: c)) - 10 }
        let titleScrolls = m.nextTitle.map { Txt.width($0, Txt.legible(l.small, on: c)) > right - r.x - 6 } ?? false
        c.part("home.next", NextKey(title: m.nextTitle, due: m.nextDueShort, ms: titleScrolls ? l.ms : nil)) { c in
            nextLine(l, m, &c, r)
        }
    }

    /// The keys of the 240×240 home's parts: what each piece reads.
    struct StatusKey: Hashable { var clock: String; var coins: Int; var icons: [StatusIcon] }
    struct TextKey: Hashable { var text: String; var ms: Int64? }
    struct LevelKey: Hashable { var level: Int; var streak: Int; var name: String; var progress: Double; var ms: Int64? }
    struct NextKey: Hashable { var title: String?; var due: String?; var ms: Int64? }

    /// 320×240: status bar; the pet left with its name and mood under it; speech, level, the need
    /// meters and the next task right.
    static func wide(_ l: Look, _ m: Model, _ c: inout Canvas) {
        statusBar(l, m, &c, streak: true)
        // 156 px: the whole stage (the placed furniture) at ×2 inside the frame's 6 px inset.
        let frame = Rect(x: 4, y: 38, w: 156, h: 132)
        petFrame(l, &c, frame)
        if m.paused { pausedPill(l, &c, x: frame.x + 8, y: frame.y + 8) }
        if let a = m.attention { StatusStrip.attention(l, &c, a, right: frame.maxX - 6, y: frame.y + 6, .large) }
        if Txt.width(m.name, .large) <= 156 { Txt.drawCentred(&c, m.name, x: 4, w: 156, y: 174, l.pal.fg, .large) }
        else { Txt.line(&c, m.name, x: 4, y: 174, width: 156, l.pal.fg, .large, ms: l.ms) }
        let mood = Txt.width("feeling " + m.mood, .large) <= 156 ? "feeling " + m.mood : m.mood
        Txt.drawCentred(&c, mood, x: 4, w: 156, y: 195, l.pal.muted, .large)
        let rx = 170, rw = l.W - rx - 6
        // Three lines tall whatever the line (`fixed`): a new line moves nothing under it.
        let bh = bubble(l, &c, m.speech, Rect(x: rx, y: 36, w: rw, h: 62), maxLines: 3, tailDown: false, centred: false,
                        fixed: true)
        let ly = 36 + bh + 3
        levelRow(l, m, &c, x: rx, y: ly, w: rw, .large, name: false)
        Txt.draw(&c, "\(Int((m.progress * 100).rounded(.down)))%", x: rx, y: ly, l.pal.muted, .large, maxWidth: rw - 60)
        l.bar(&c, Rect(x: rx, y: ly + 18, w: rw, h: 8), m.progress)
        needs(l, m, &c, x: rx, y: ly + 28, w: rw, .large, barHeight: 10)
        let cy = ly + 47
        // The bottom strip is the hint bar's (`HintBar`).
        nextCard(l, m, &c, Rect(x: rx - 4, y: cy, w: rw + 6, h: l.bottom - 3 - cy), titleLines: 2, dueLines: 1)
    }

    /// The placed home items (slot order: left, right, shelf, middle) that the pet scene drawn in
    /// `pet` leaves out: the pet at its size on the 1-bit homes shows only its part of the stage,
    /// so these are drawn beside it (bought furniture shows on home on every display).
    static func itemsLeftOut(_ l: Look, pet: Rect) -> [String] {
        let shop = l.state.shop
        guard !shop.placed.isEmpty else { return [] }
        // The scene shows the whole stage (PetScene's `auto` framing with home items): every item is in it.
        let sFull = min(pet.w / PetScene.stageWidth, pet.h / PetScene.stageHeight)
        let sPet = min(pet.w / PetScene.petOnly.w, pet.h / PetScene.petOnly.h)
        if sFull >= 1 && (sFull >= sPet || sFull >= 2) { return [] }
        return ["left", "right", "shelf", "middle"].compactMap { slot in
            guard let id = shop.placed[slot] else { return nil }
            // A flat item in the middle lies under the pet's feet, inside its part of the stage.
            return slot == "middle" ? nil : id
        }
    }

    /// Which of the OLED home's two pages shows (128×64): 0 the pet and its line, 1 the meters —
    /// 6 s and 4 s in turn, from the last input (so a press always shows the first page).
    static func tinyPage(_ l: Look) -> Int {
        guard let ms = l.ms, ms >= 0 else { return 0 }
        return ms % 10_000 < 6_000 ? 0 : 1
    }

    /// 128×64: one status line (clock, status icons, coins), the pet large on the left with its
    /// speech bubble (page 0) or its level, meters, streak and name (page 1) on the right, the next
    /// task on one line, then the hint strip.
    static func tiny(_ l: Look, _ m: Model, _ c: inout Canvas) {
        let p = l.pal
        let coins = String(Glyph.coin) + Fmt.compact(m.coins)
        let cx = Txt.drawRight(&c, coins, right: l.W - 1, y: 0, p.fg, .small)
        let cw = Txt.draw(&c, m.clock, x: 1, y: 0, p.fg, .small, maxWidth: cx - 4)
        StatusStrip.draw(l, &c, m.icons, right: cx - 5, left: 1 + cw + 4, y: 0, .small, ink: p.fg, paper: p.bg)
        c.hline(x: 0, y: 9, w: l.W, color: p.fg)
        // Rows: status 0–8, rule 9, pet and bubble 11–41, rule 42, the task 44–51, the strip from 53.
        // Placed furniture the pet's view leaves out stands in a column left of the pet.
        let away = HomeView.itemsLeftOut(l, pet: Rect(x: 9, y: 11, w: 30, h: 31))
        PetScene.draw(l.ctx, in: away.isEmpty ? Rect(x: 1, y: 11, w: 38, h: 31) : Rect(x: 9, y: 11, w: 30, h: 31), &c)
        for (k, id) in away.prefix(2).enumerated() {
            ItemPicture.draw(id, l.ctx, &c, in: Rect(x: 1, y: 33 - 10 * k, w: 8, h: 8), ink: p.fg, paper: p.bg)
        }
        var rx = 43
        if tinyPage(l) == 0 {
            // The attention bubble stands beside the pet (its tail towards it), clear of the ears
            // and hat; the speech bubble moves right to make room.
            if let a = m.attention {
                StatusStrip.attention(l, &c, a, right: 55, y: 11, .small)
                rx = 59
            }
            let rw = l.W - rx - 1
            // The speech bubble: an outline, a tail towards the pet, up to three lines.
            let text = m.paused ? "Paused. " + m.speech : m.speech
            let n = max(1, min(3, Txt.lineCount(text, .small, width: rw - 6)))
            let bh = n * 9 + 4, by = 11 + (31 - bh) / 2
            c.strokeRect(x: rx, y: by, w: rw, h: bh, color: p.fg)
            for i in 1...2 { c.vline(x: rx - i, y: by + 3 + i, h: 3 - i, color: p.fg) }
            Txt.flow(&c, text, x: rx + 3, y: by + 2, width: rw - 6, maxLines: 3, p.fg, .small, lineGap: 1, ms: l.ms)
        } else {
            // The meters page: level and its bar, fullness, energy, the streak and the name.
            let rw = l.W - rx - 1
            let lv = "Lv \(m.level)"
            let who = m.streak > 0 ? String(Glyph.flame) + "\(m.streak) " + m.name : m.name
            Txt.line(&c, who, x: rx, y: 11, width: rw - Txt.width(lv, .small) - 6, p.fg, .small, ms: l.ms)
            Txt.drawRight(&c, lv, right: l.W - 1, y: 11, p.fg, .small)
            l.bar(&c, Rect(x: rx, y: 20, w: rw, h: 4), m.progress)
            StatusStrip.meter(l, &c, Glyph.food, m.fullness, x: rx, y: 26, w: rw, .small, barHeight: 6)
            StatusStrip.meter(l, &c, Glyph.energy, m.energy, x: rx, y: 34, w: rw, .small, barHeight: 6)
        }
        c.hline(x: 0, y: 42, w: l.W, color: p.fg)
        if let t = m.nextTitle {
            var right = l.W - 1
            if let d = m.nextDueShort { right = Txt.drawRight(&c, d, right: l.W - 1, y: 44, p.fg, .small) - 5 }
            Txt.draw(&c, String(Glyph.bell), x: 1, y: 44, p.fg, .small)
            Txt.line(&c, t, x: 8, y: 44, width: right - 8, p.fg, .small, ms: l.ms)
        } else {
            Txt.draw(&c, "No tasks - enjoy!", x: 1, y: 44, p.fg, .small, maxWidth: l.W - 2)
        }
    }

    /// 250×122 e-paper: high contrast, the pet left, everything else right; nothing animates,
    /// so long text wraps and is ellipsized after its lines.
    static func paper(_ l: Look, _ m: Model, _ c: inout Canvas) {
        let p = l.pal
        let left = coinsAndStreak(l, m, &c, right: l.W - 4, y: 2, .large)
        let cw = Txt.draw(&c, m.clock, x: 4, y: 2, p.fg, .large, maxWidth: left - 12)
        StatusStrip.draw(l, &c, m.icons, right: left - 6, left: 4 + cw + 4, y: 6, .small, ink: p.fg, paper: p.bg)
        c.fillRect(x: 0, y: 19, w: l.W, h: 2, color: p.fg)
        let frame = Rect(x: 2, y: 23, w: 98, h: 85)
        petFrame(l, &c, frame)
        // Placed furniture the pet's view (the pet at ×2) leaves out stands beside it, in 1-bit art
        // at its own size: the left slot's (and the shelf's) left of the pet, the right slot's right.
        let away = itemsLeftOut(l, pet: Rect(x: frame.x + 2, y: frame.y + 2, w: frame.w - 4, h: frame.h - 4))
        for (k, id) in away.prefix(4).enumerated() {
            let right = l.state.shop.slot(of: id) == "right"
            let x = right ? frame.maxX - 3 - 11 : frame.x + 3
            let y = frame.maxY - 3 - 16 - (k / 2) * 18
            ItemPicture.draw(id, l.ctx, &c, in: Rect(x: x, y: y, w: 11, h: 16), ink: p.fg, paper: p.bg)
        }
        if m.paused { pausedPill(l, &c, x: frame.x + 3, y: frame.y + 3) }
        if let a = m.attention { StatusStrip.attention(l, &c, a, right: frame.maxX - 3, y: frame.y + 3, .small) }
        let rx = 106, rw = l.W - rx - 4
        levelRow(l, m, &c, x: rx, y: 24, w: rw, .small, name: true)
        l.bar(&c, Rect(x: rx, y: 33, w: rw, h: 6), m.progress)
        needs(l, m, &c, x: rx, y: 42, w: rw, .small, barHeight: 6)
        bubble(l, &c, m.speech, Rect(x: rx + 4, y: 53, w: rw - 4, h: 26), maxLines: 2, tailDown: false, centred: false)
        // The bottom strip is the hint bar's (`HintBar`): the next task stops above `l.bottom`.
        if let t = m.nextTitle {
            Txt.draw(&c, String(Glyph.bell), x: rx, y: 82, p.fg, .small)
            let lines = m.nextDue == nil ? 3 : 2
            let used = Txt.flow(&c, t, x: rx + 8, y: 82, width: rw - 8, maxLines: lines, p.fg, .small, ms: nil)
            if let d = m.nextDue, 82 + used + 2 + 8 <= l.bottom {
                Txt.draw(&c, d, x: rx + 8, y: 82 + used + 2, p.fg, .small, maxWidth: rw - 8)
            }
        } else {
            Txt.draw(&c, "No tasks - enjoy!", x: rx, y: 82, p.fg, .small, maxWidth: rw)
        }
    }
}

extension HomeView: ScreenDefinition {
    static let title = "Home"

    static func actions(_ t: inout NavActionTable) {
        let (ui, state, config) = (t.ui, t.state, t.config)
        let items = t.home ?? NavRows.home(state)
        let shown = items.indices.contains(ui.cursor) ? items[ui.cursor] : items.first ?? nil
        if items.count > 1 { t.add(.previous, .up, rank: 2); t.add(.next, .down, rank: 2) }
        t.add(.select, .menu, rank: 0)
        t.add(.forward, .menu, hinted: false)
        switch shown {
        case .task(let id)?:
            t.add(.holdSelect, .command(.complete), rank: 0)
            if state.tasks[id]?.state == .pending { t.add(.holdPrevious, .command(.startTask)) }
        case .habit?: t.add(.holdSelect, .command(.check), rank: 0)
        case nil: break
        }
        t.add(.holdBack, .open(.urgeLog), rank: 0)
        t.add(.doubleSelect, .command(.pet))
        if !state.device.holdTipDone && config.keys.name(.holdSelect) != nil { t.add(.back, .dismissTip, rank: 0) }
        else { t.add(.back, .first, hinted: ui.cursor != 0 || ui.missedBanner > 0, rank: 2) }
        t.add(.doubleBack, .first, hinted: false)
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        let items = nav.view.homeItems ?? NavRows.home(state)
        let shown = items.indices.contains(nav.ui.cursor) ? items[nav.ui.cursor] : items.first ?? nil
        switch input {
        case .previous: nav.ui.cursor = (nav.ui.cursor + items.count - 1) % items.count
        case .next: nav.ui.cursor = (nav.ui.cursor + 1) % items.count
        case .select, .forward: nav.ui.menu = 0
        case .holdSelect:
            switch shown {
            case .task(let id)?: return [.send(.completeTask(id: id))]
            case .habit(let item)?: return [.send(.habit(.check(item: item)))]
            case nil: break
            }
        case .holdPrevious:
            if case .task(let id)? = shown, state.tasks[id]?.state == .pending { return [.send(.startTask(id: id))] }
        case .doubleSelect: return [.send(.petThePet)]
        case .back:
            nav.missedSeen = state.remindersMissed
            nav.ui.cursor = 0
            // And the first-run tip goes (stored with the settings).
            if Navigator.tip(state: state, config: nav.config) != nil {
                var d = state.device
                d.holdTipDone = true
                return [.send(.setDevice(d))]
            }
        case .doubleBack:
            nav.ui.cursor = 0
        case .holdBack:
            if !state.quitTriggers.isEmpty { nav.open(.urgeLog, state: state, now: now) }
        default: break
        }
        return []
    }
}
