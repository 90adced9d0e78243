import PetCore

/// The urge log in two steps: pick the trigger (`ui.urgeTriggers`, `ui.urgeTrigger`), then the
/// outcome (`ui.urgeOutcome` into `QuitOutcome.allCases`), then an encouraging confirmation for a
/// few seconds (`ui.urgeLogged`); beside the steps the time since the last
/// give-in and the pod gauge (what should be left of the pod/pack today).
enum UrgeLogScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        let p = l.pal
        let triggers = c.ui.urgeTriggers.isEmpty ? s.urgeTriggerMenu(at: c.now) : c.ui.urgeTriggers
        let tIndex = triggers.isEmpty ? 0 : min(max(0, c.ui.urgeTrigger), triggers.count - 1)
        let triggerName = triggers.isEmpty ? "-" : (s.quitTriggerName(triggers[tIndex]) ?? triggers[tIndex])
        let since = s.secondsSinceGiveIn(at: c.now).map { Fmt.duration($0) }
        let gauge = s.quitGauge(at: c.now)
        l.header(&canvas, "Urge log", right: l.size == .tiny ? since : nil)

        // The prompt in the longest form that fits its line (two lines on 320×240).
        let forms: [String]
        if c.ui.urgeOutcome != nil {
            forms = (l.size == .tiny ? [] : [triggerName + ": what happened?"]) + [triggerName + ": and?", "What happened?", "And?"]
        } else {
            forms = l.size == .tiny ? ["Trigger?"] : ["What set it off?", "Trigger?"]
        }
        func prompt(width: Int, lines: Int = 1, _ f: TextSize) -> String {
            let g = Txt.legible(f, on: canvas)
            return forms.first { Txt.breakLines($0, g, width: width).count <= lines && (lines > 1 || Txt.width($0, g) <= width) }
                ?? forms[forms.count - 1]
        }
        let list = c.view.list ?? ListView(rows: [], selected: nil, first: 0, visible: 1)
        let frame = ListLayout.frame(.urgeLog, profile: c.profile, state: s, now: c.now)
        func drawList() { if let frame { l.list(&canvas, list, frame: frame) } }
        let area = l.content
        switch l.size {
        case .square:
            let info = Rect(x: 6, y: area.y + 4, w: l.W - 12, h: 64)
            infoCard(l, &canvas, info, since: since, gauge: gauge)
            Txt.line(&canvas, prompt(width: l.W - 2 * l.pad, .large), x: l.pad, y: info.maxY + 4, width: l.W - 2 * l.pad, p.fg, .large, ms: l.ms)
            l.hints(&canvas, c.view.hintText)
            drawList()
        case .wide:
            let lw = 204
            Txt.flow(&canvas, prompt(width: lw - l.pad, lines: 2, .large), x: l.pad, y: area.y + 4, width: lw - l.pad, maxLines: 2, p.fg,
                     .large, ms: l.ms)
            l.hints(&canvas, c.view.hintText)
            drawList()
            infoCard(l, &canvas, Rect(x: lw + 6, y: area.y + 6, w: l.W - lw - 12, h: l.bottom - area.y - 12), since: since, gauge: gauge)
        case .paper:
            let lw = 140
            Txt.line(&canvas, prompt(width: lw - l.pad, .small), x: l.pad, y: area.y + 1, width: lw - l.pad, p.fg, .small, ms: nil)
            drawList()
            infoCard(l, &canvas, Rect(x: lw + 4, y: area.y + 2, w: l.W - lw - 6, h: l.bottom - area.y - 4), since: since, gauge: gauge)
        case .tiny:
            var top = area.y
            if let g = gauge {
                Txt.draw(&canvas, "pod", x: 1, y: top, p.fg, .small)
                l.bar(&canvas, Rect(x: 22, y: top, w: l.W - 24, h: 7), Double(g.percentLeft) / 100)
                top += 9
            }
            Txt.line(&canvas, prompt(width: l.W - 2, .small), x: 1, y: top, width: l.W - 2, p.fg, .small, ms: l.ms)
            drawList()
        }
    }

    /// How long the confirmation shows over home after an urge is logged (the next press dismisses it sooner).
    static let confirmSeconds: Int64 = 6

    /// The outcome just logged while its confirmation shows.
    static func confirming(_ ui: UIState, now: Instant) -> QuitOutcome? {
        guard let o = ui.urgeLogged, let until = ui.urgeLoggedUntil, now < until else { return nil }
        return o
    }

    /// The encouraging confirmation: riding it out is celebrated; a give-in is met kindly (noticing
    /// it is the work), never with a worried pet.
    static func confirmation(_ o: QuitOutcome, _ s: PetState, tiny: Bool) -> Moment {
        switch o {
        case .resisted:
            let d = s.quitCleanDays
            return Moment(title: tiny ? "Rode it out!" : "You rode it out!",
                          lines: [tiny ? "\(d) clean day" + (d == 1 ? "" : "s") : "\(d) clean day" + (d == 1 ? "" : "s") + ". I'm proud of you."],
                          pose: .dance)
        case .gaveIn:
            return Moment(title: tiny ? "Logged. It's OK." : "Logged. That's OK.",
                          lines: [tiny ? "Noticing counts" : "Noticing it is how it changes. Next urge, try a short walk."],
                          pose: .petted)
        case .finished:
            return Moment(title: tiny ? "New pod logged" : "Logged: a new pod",
                          lines: [tiny ? "Fresh start!" : "A fresh start. You've got this."], pose: .petted)
        }
    }

    /// Time since the last give-in and the pod gauge, wrapped to the card. Each piece is written
    /// whole, in the longest of its forms whose lines fit the room left, or not at all — never cut.
    static func infoCard(_ l: Look, _ c: inout Canvas, _ r: Rect, since: String?, gauge: QuitGauge?) {
        let p = l.pal
        l.card(&c, r, radius: 6)
        let x = r.x + 6, w = r.w - 12
        var y = r.y + 5
        let gap = l.big ? 4 : 2
        let f = Txt.legible(l.small, on: c)
        let lineGap = 2
        /// Lines that fit between `y` and the card's bottom.
        var room: Int { max(0, (r.maxY - 2 - y + lineGap) / (f.height + lineGap)) }
        @discardableResult
        func text(_ forms: [String], _ ink: RGB565, lines: Int = 4) -> Bool {
            for s in forms {
                let broken = Txt.breakLines(s, f, width: w)
                guard !broken.isEmpty, broken.count <= min(lines, room), !broken.contains(where: \.hard) else { continue }
                y += Txt.drawWrapped(&c, s, x: x, y: y, width: w, maxLines: broken.count, ink, f, lineGap: lineGap) + gap
                return true
            }
            return false
        }
        if let since {
            if !text([since + " since last give-in"], p.fg, lines: 1) {
                let big: TextSize = l.big ? .large : .small
                if Txt.width(since, big) <= w, y + big.height <= r.maxY - 2 {
                    Txt.draw(&c, since, x: x, y: y, p.fg, big, maxWidth: w)
                    y += big.height + gap
                    text(["since last give-in", "since a give-in"], p.muted, lines: 3)
                }
            }
        } else {
            text(["No urges logged yet", "No urges yet"], p.muted)
        }
        if let g = gauge {
            let left = g.overdueDays > 0 ? "\(g.overdueDays)d past goal" : "\(g.percentLeft)% left today"
            let leftShort = g.overdueDays > 0 ? "\(g.overdueDays)d over" : "\(g.percentLeft)% left"
            let day = "day \(g.dayOfPod) of \(g.goalDays)"
            let both = "pod: " + left + ", " + day
            let wrote = text([both], p.fg, lines: 1)
            let before = y
            if !wrote { text(["pod: " + left, "pod: " + leftShort, "pod " + leftShort], p.fg, lines: 2) }
            // The gauge's bar only under its label.
            if wrote || y > before, y + (l.big ? 10 : 7) <= r.maxY - 2 {
                l.bar(&c, Rect(x: x, y: y, w: w, h: l.big ? 10 : 7), Double(g.percentLeft) / 100, fill: p.good)
                y += (l.big ? 10 : 7) + gap + 2
            }
            if !wrote && y > before { text([day, "day \(g.dayOfPod)/\(g.goalDays)"], p.muted, lines: 1) }
        }
        let clean = l.state.quitCleanDays
        let days = "\(clean) clean day" + (clean == 1 ? "" : "s")
        text([days + ". Every urge you ride out counts.", days + "."], p.muted)
    }
}

extension UrgeLogScreen: ScreenDefinition {
    static let title = "Urge log"
    static let icon = [
        "..........",
        "..........",
        "..XX....XX",
        ".XXXX..XXX",
        "XX..XXXX..",
        "..........",
        "..XX....XX",
        ".XXXX..XXX",
        "XX..XXXX..",
        ".........."]

    static func listFrame(_ m: ListLayout.Metrics, profile: DisplayProfile, state: PetState, now: Instant) -> ListFrame? {
        let W = m.W, H = m.H, content = m.content, hints = HintBar.height(profile)
        switch m.size {
        case .square:
            let infoBottom = content.y + 4 + 64   // the info card (three lines of 12×16)
            return ListFrame(area: Rect(x: 0, y: infoBottom + 24, w: W, h: H - infoBottom - 24 - hints), rowHeight: m.rowHeight)
        case .wide:
            return ListFrame(area: Rect(x: 0, y: content.y + 44, w: 204, h: H - content.y - 44 - hints), rowHeight: m.rowHeight)
        case .paper:
            return ListFrame(area: Rect(x: 0, y: content.y + 11, w: 140, h: content.h - 11 - hints), rowHeight: m.rowHeight)
        case .tiny:
            // The pod gauge takes a line on 128×64.
            let top = content.y + (state.quitGauge(at: now) != nil ? 9 : 0)
            return ListFrame(area: Rect(x: 0, y: top + 9, w: W, h: H - top - 9 - hints), rowHeight: m.rowHeight)
        }
    }

    /// The triggers (most likely first), then the outcomes.
    static func rows(ui: UIState, state s: PetState, now: Instant, config: Navigator.Config) -> [NavRow] {
        if ui.urgeOutcome != nil {
            return QuitOutcome.allCases.map { NavRow(id: "outcome:" + $0.rawValue, label: Fmt.outcome($0)) }
        }
        let triggers = ui.urgeTriggers.isEmpty ? s.urgeTriggerMenu(at: now) : ui.urgeTriggers
        return triggers.map { NavRow(id: "trigger:" + $0, label: s.quitTriggerName($0) ?? $0) }
    }

    /// Its cursor is the step's: the trigger chosen, then the outcome.
    static func cursor(_ ui: UIState) -> Int { ui.urgeOutcome ?? ui.urgeTrigger }

    static func setCursor(_ cursor: Int, _ ui: inout UIState, hasRows: Bool) {
        if ui.urgeOutcome != nil { ui.urgeOutcome = cursor } else if hasRows { ui.urgeTrigger = cursor }
    }

    static func actions(_ t: inout NavActionTable) {
        let ui = t.ui
        t.moves()
        if ui.urgeOutcome != nil {
            t.add(.select, .command(.logUrge), rank: 0)
            t.add(.forward, .command(.logUrge), hinted: false)
            t.add(.back, .cancel)
        } else {
            let triggers = ui.urgeTriggers
            if triggers.indices.contains(ui.urgeTrigger) {
                t.add(.select, .nextStep, rank: 0)
                t.add(.forward, .nextStep, hinted: false)
            }
            t.add(.back, .back)
        }
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        let n = max(1, nav.ui.urgeTriggers.count), outcomes = QuitOutcome.allCases.count
        switch input {
        case .previous, .next:
            let step = input == .next ? 1 : -1
            if let o = nav.ui.urgeOutcome { nav.ui.urgeOutcome = (o + step + outcomes) % outcomes }
            else { nav.ui.urgeTrigger = (nav.ui.urgeTrigger + step + n) % n }
        case .select, .forward:
            guard nav.ui.urgeTriggers.indices.contains(nav.ui.urgeTrigger) else { break }
            guard let o = nav.ui.urgeOutcome else { nav.ui.urgeOutcome = 0; nav.ui.scroll = 0; break }
            let trigger = nav.ui.urgeTriggers[nav.ui.urgeTrigger]
            nav.goHome()
            // Home, under the confirmation (Overlays) for a few seconds; the next press dismisses it (and acts).
            nav.ui.urgeLogged = QuitOutcome.allCases[o]
            nav.ui.urgeLoggedUntil = now + confirmSeconds
            return [.send(.quit(.log(trigger: trigger, outcome: QuitOutcome.allCases[o], thoughts: nil)))]
        case .back:
            if nav.ui.urgeOutcome != nil { nav.ui.urgeOutcome = nil; nav.ui.scroll = 0 } else { nav.pop() }
        default: break
        }
        return []
    }

    /// The triggers offered when it opens (most likely first), the first highlighted.
    static func opened(_ ui: inout UIState, state: PetState?, now: Instant?) {
        ui.urgeTriggers = state.flatMap { st in now.map { st.urgeTriggerMenu(at: $0) } } ?? []
        ui.urgeTrigger = 0; ui.urgeOutcome = nil; ui.urgeLogged = nil; ui.urgeLoggedUntil = nil
    }
}
