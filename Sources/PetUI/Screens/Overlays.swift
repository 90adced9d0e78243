import PetCore

/// What draws on top of any screen: the missed-reminders banner (`ui.missedBanner`), toasts
/// (`ui.toasts` still showing at `now`: rewards, level-ups, badges, the pet's lines; the newest in
/// the hint bar's strip), and the
/// reminder overlay (`ui.reminder`: what it is about — a task's title, a habit's text, the evening
/// check-in, a commitment window, a focus end).
enum Overlays {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        let onHome = c.ui.screen == .home && c.ui.menu == nil && c.ui.reminder == nil
        // Quiet hours, the screen dimmed or asleep: the night clock with the pet asleep.
        let nightShown = onHome && c.ui.power != .awake
            && c.state.quiet.contains(minuteOfDay: c.state.clock.local(c.now).secondOfDay / 60)
        if nightShown { night(l, &canvas) }
        var bannerShown = true
        if c.ui.missedBanner > 0 { missed(l, &canvas, c.ui.missedBanner) }
        else if let at = c.ui.linkLostAt, c.now >= at, c.now - at < linkLostSeconds {
            banner(l, &canvas, String(Glyph.phone) + " Phone link lost")
        } else if onHome, let b = c.device.batteryPercent, b <= lowBattery {
            banner(l, &canvas, "Low battery: \(b)%")
        } else { bannerShown = false }
        let live = c.ui.toasts.filter { $0.until > c.now }
        if let m = celebration(l, live) { MomentView.full(l, &canvas, m, hints: false) }
        else if let o = UrgeLogScreen.confirming(c.ui, now: c.now) {
            MomentView.full(l, &canvas, UrgeLogScreen.confirmation(o, c.state, tiny: l.size == .tiny), hints: false)
        }
        else if let t = live.last {
            // On home a reward stands beside the coins it was added to (`HomeView.rewardBesideCoins`):
            // a few glyphs in the status line instead of the whole hint strip, twice (docs/design.md).
            let besideCoins = onHome && t.kind == .reward && !bannerShown && !nightShown
                && HomeView.rewardBesideCoins(l, &canvas, String(t.text.split(separator: " ").first ?? ""))
            if !besideCoins { toasts(l, &canvas, live) }
        }
        if let r = c.ui.reminder { reminder(l, &canvas, r) }
    }

    /// How long the link-lost banner shows; the battery level under which home asks for a charger.
    static let linkLostSeconds: Int64 = 10
    static let lowBattery = 10

    /// The night clock: the time large, the pet asleep, nothing else (quiet hours, screen dimmed).
    static func night(_ l: Look, _ c: inout Canvas) {
        let clock = Fmt.clock(l.state.clock.local(l.now))
        let m = Moment(title: String(Glyph.moon) + (l.size == .tiny ? " Night" : " Quiet hours"), figure: clock,
                       lines: [l.size == .tiny ? "\(l.state.pet.name) sleeps" : "\(l.state.pet.name) is asleep. Good night."],
                       pose: .sleeping)
        MomentView.full(l, &c, m, hints: false)
    }

    static func missed(_ l: Look, _ c: inout Canvas, _ n: Int) {
        let bell = String(Glyph.bell) + " "
        banner(l, &c, bell + "Missed \(n) reminder\(n == 1 ? "" : "s") while off",
               shorter: [bell + "Missed \(n) while off", "Missed \(n) while off", bell + "Missed \(n)"])
    }

    /// A banner over the top of the screen, as tall as the title bar and its rule (it hides the
    /// title or the status bar whole): accent (colour) or inverted (1-bit). The first of `line` and
    /// its `shorter` forms that fits is written, centred (the last one scrolls if none does).
    static func banner(_ l: Look, _ c: inout Canvas, _ line: String, shorter: [String] = []) {
        let p = l.pal
        let h = l.content.y
        let fill = p.mono ? p.fg : p.accent
        let ink = p.mono ? p.bg : p.onAccent
        c.cover(Rect(x: 0, y: 0, w: l.W, h: h), color: fill)
        if !p.mono { c.fillRect(x: 0, y: h - 1, w: l.W, h: 1, color: p.fg) }
        let room = l.W - 4
        let candidates = [line] + shorter
        let f = Txt.legible(l.big && candidates.contains(where: { Txt.width($0, .large) <= room }) ? .large : .small, on: c)
        let text = candidates.first { Txt.width($0, f) <= room } ?? candidates[candidates.count - 1]
        Txt.lineCentred(&c, text, x: 2, w: room, y: max(0, (h - 1 - f.height) / 2), ink, f, ms: l.ms)
    }

    /// A level-up, a streak milestone or a badge takes the whole display while its toast lasts
    /// (`Navigator.Config.toastSeconds`, 3 s) on every display: the pet celebrating, what was
    /// reached and what it unlocked. A level-up wins over a badge earned with it.
    static func celebration(_ l: Look, _ live: [Toast]) -> Moment? {
        if let t = live.last(where: { $0.kind == .levelUp }), let level = t.ref.flatMap({ Int($0) }) {
            let unlocked = Catalogue.builtIn.items.filter { $0.level == level }.map(\.name)
            let line = unlocked.isEmpty ? "Keep it up, \(l.state.pet.name)!"
                : "Unlocked: " + unlocked.prefix(2).joined(separator: ", ") + (unlocked.count > 2 ? " +\(unlocked.count - 2)" : "")
            return Moment(title: "Level up!", figure: "Level \(level)", lines: [line], pose: .levelUp)
        }
        if let t = live.last(where: { $0.kind == .badge }), let id = t.ref, let kind = Badges.kind(id: id) {
            if case .streak(let n) = kind.rule {
                return Moment(title: "Streak!", figure: String(Glyph.flame) + "\(n) days",
                              lines: [l.size == .tiny ? "Badge earned!" : "A new best run. Badge earned."], pose: .dance)
            }
            return Moment(title: "Badge earned", lines: [kind.title], pose: .dance)
        }
        return nil
    }

    /// A toast that has a full-screen moment (a level-up, a badge).
    static func celebrates(_ t: Toast) -> Bool { (t.kind == .levelUp || t.kind == .badge) && t.ref != nil }
    /// A celebration's moment shows at `now`.
    static func celebrating(_ toasts: [Toast], now: Instant) -> Bool { toasts.contains { $0.until > now && celebrates($0) } }

    static func glyph(_ k: Toast.Kind) -> Character {
        switch k {
        case .reward: Glyph.coin
        case .levelUp: Glyph.flame
        case .badge: Glyph.check
        case .line: Glyph.heart
        case .info: Glyph.bell
        }
    }

    /// Where a toast shows: the hint bar's strip (`HintBar.rect`), which it takes while it shows —
    /// never over list rows, the cursor or the screen's content (docs/screens.md).
    public static func toastRect(_ p: DisplayProfile) -> Rect { HintBar.rect(p) }

    /// The newest toast in the hint bar's strip: its icon and text on an accent (colour) or
    /// inverted (1-bit) strip.
    static func toasts(_ l: Look, _ c: inout Canvas, _ toasts: [Toast]) {
        guard let t = toasts.last else { return }
        let p = l.pal
        let r = toastRect(l.ctx.profile)
        let fill = p.mono ? p.fg : (t.kind == .levelUp || t.kind == .badge ? p.accent : p.fg)
        let ink = p.mono ? p.bg : (fill == p.accent ? p.onAccent : p.bg)
        // The hint line under it is not shown meanwhile.
        c.cover(r, color: fill)
        c.textRuns.removeAll { $0.rect.intersection(r).map { !$0.isEmpty } ?? false }
        // On the strip's text line, measured in the face it is drawn in (the 12×16 face on colour).
        let f = Txt.legible(.small, on: c)
        let ty = HintBar.textY(l.ctx.profile)
        let icon = String(glyph(t.kind))
        let tinted = p.mono ? ink : (t.kind == .reward ? p.coin : (t.kind == .line ? p.flame : ink))
        // A tinted icon that would not stand out 3:1 on the toast is drawn in the toast's ink.
        let iconInk = tinted.contrastRatio(with: fill) >= 3 ? tinted : ink
        let tx = f.advance + (f == .large ? 4 : 3)
        // A text longer than the strip shows in pages of whole words, one after the other over
        // the toast's time, so every word is read whole (never cut, never scrolled).
        let pages = Txt.breakLines(t.text, f, width: r.w - 4 - tx).map(\.text)
        let shownFor = max(Int64(1), Navigator.Config(profile: l.ctx.profile).toastSeconds) * 1000
        let elapsed = min(max(0, l.ctx.nowMs - (t.until.seconds * 1000 - shownFor)), shownFor - 1)
        let text = pages.isEmpty ? t.text : pages[Int(elapsed * Int64(pages.count) / shownFor)]
        let textW = Txt.width(text, f)
        let x0 = max(r.x + 2, r.x + (r.w - tx - textW) / 2)
        Txt.draw(&c, icon, x: x0, y: ty, iconInk, f)
        Txt.draw(&c, text, x: x0 + tx, y: ty, ink, f, maxWidth: r.maxX - 2 - (x0 + tx))
    }

    /// Title and body of a reminder.
    static func describe(_ n: Reminder, _ s: PetState, now: Instant) -> (String, String) {
        switch n.source {
        case .task:
            let t = s.tasks[n.ref]
            let due = t.flatMap { Fmt.due($0, state: s, now: now) }
            return (t?.title ?? "A task", due ?? "Time for this one")
        case .habit:
            return (s.habits.habits[n.ref]?.text ?? "Your habit", "Habit reminder")
        case .checkin:
            return ("Evening check-in", "How did today's habits go?")
        case .commitment:
            guard let cm = s.commitments.items[n.ref] else { return ("Commitment", "Its window is open") }
            let until = cm.current.map { " until " + Fmt.clock(s.clock.local($0.closes)) } ?? ""
            switch cm.kind {
            case .wakeUp: return ("Wake-up!", "Press any button" + until)
            case .onTime: return ("On time?", "Confirm you're there" + until)
            case .focus: return ("Focus time", "Start a focus session" + until)
            case .place: return ("Place check", "Head there; the phone checks" + until)
            }
        case .focus:
            return ("Focus done!", "Well done. Take a short break.")
        case .course:
            return ("New lesson", "A lesson is ready on the phone")
        case .pet:
            return (s.pet.name, s.speech(at: now).text)
        }
    }

    static func reminder(_ l: Look, _ c: inout Canvas, _ n: Reminder) {
        let p = l.pal
        let (title, body) = describe(n, l.state, now: l.now)
        // The card stands on a plain ground over the screen's content (the colour panels keep the
        // status bar): nothing under it shows in part. It ends above the hint strip, which says
        // what the keys do here, so the card does not repeat it.
        let m = l.big ? 16 : (l.size == .paper ? 6 : 1)
        let top = l.big ? l.content.y : 0
        c.cover(Rect(x: 0, y: top, w: l.W, h: l.bottom - top), color: p.bg)
        let ry = l.big ? top + 4 : m
        let r = Rect(x: m, y: ry, w: l.W - 2 * m, h: l.bottom - (l.big ? 6 : 2) - ry)
        if p.mono {
            c.fillRect(x: r.x - 1, y: r.y - 1, w: r.w + 2, h: r.h + 2, color: p.bg)
            c.strokeRect(x: r.x, y: r.y, w: r.w, h: r.h, color: p.fg, thickness: l.size == .tiny ? 1 : 2)
        } else {
            c.fillRoundedRect(x: r.x - 2, y: r.y - 2, w: r.w + 4, h: r.h + 4, radius: 14, color: p.bg)
            c.fillRoundedRect(x: r.x, y: r.y, w: r.w, h: r.h, radius: 12, color: p.accent)
            c.fillRoundedRect(x: r.x + 4, y: r.y + 4, w: r.w - 8, h: r.h - 8, radius: 9, color: p.panel)
        }
        let inner = l.big ? 14 : 4
        let x = r.x + inner, w = r.w - 2 * inner
        switch l.size {
        case .tiny:
            Txt.draw(&c, String(Glyph.bell) + " Reminder", x: x, y: r.y + 3, p.fg, .small, maxWidth: w)
            let used = Txt.drawWrapped(&c, title, x: x, y: r.y + 13, width: w, maxLines: 2, p.fg, .small)
            Txt.draw(&c, body, x: x, y: r.y + 15 + used, p.fg, .small, maxWidth: w)
        case .paper:
            Txt.draw(&c, String(Glyph.bell) + " Reminder", x: x, y: r.y + 5, p.fg, .large, maxWidth: w)
            let used = Txt.drawWrapped(&c, title, x: x, y: r.y + 26, width: w, maxLines: 2, p.fg, .large)
            Txt.draw(&c, body, x: x, y: r.y + 32 + used, p.fg, .small, maxWidth: w)
        case .square, .wide:
            let scene = Rect(x: r.x + (r.w - 64) / 2, y: r.y + 8, w: 64, h: 44)
            PetScene.draw(l.ctx, in: scene, &c)
            Txt.drawCentred(&c, String(Glyph.bell) + " Reminder", x: x, w: w, y: scene.maxY + 4, p.muted, .small)
            let used = Txt.drawWrapped(&c, title, x: x, y: scene.maxY + 18, width: w, maxLines: 3, p.fg, .large,
                                       centred: true)
            Txt.drawWrapped(&c, body, x: x, y: scene.maxY + 24 + used, width: w, maxLines: 2, p.muted, .small, centred: true)
        }
    }
}
