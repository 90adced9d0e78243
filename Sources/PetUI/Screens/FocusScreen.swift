import PetCore

/// Focus: choose a length (15, 25, 45 or 60 minutes) and start; the running session's countdown
/// with the pet reading along (its focus pose, ×2 or more where there is room) and how far along
/// it is; "session complete +N" with the break's timer after it. E-paper shows whole minutes (no
/// per-second refresh) and the break's end instead of its countdown.
enum FocusScreen {
    /// The lengths offered (minutes), `ui.focusLength` into it; 25 first highlighted.
    static let lengths = [15, 25, 45, 60]
    /// The break after a completed session.
    static let breakSeconds: Int64 = 5 * 60

    /// The length highlighted (within `lengths`).
    static func length(_ ui: UIState) -> Int { lengths[min(max(0, ui.focusLength), lengths.count - 1)] }

    /// The session that completed less than a break ago, if any (no session running).
    static func justDone(_ c: ScreenContext) -> FocusResult? {
        guard c.state.commitments.focus == nil, let r = c.ui.focusResult, c.now >= r.ended, c.now - r.ended < breakSeconds
        else { return nil }
        return r
    }

    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        let done = s.commitments.focusCompleted
        l.header(&canvas, "Focus", right: l.size == .tiny || done == 0 ? nil : String(Glyph.check) + "\(done)")
        let p = l.pal
        let area = l.content
        guard let f = s.commitments.focus else {
            let body = Rect(x: 0, y: area.y, w: l.W, h: l.bottom - area.y)
            if let r = justDone(c) { complete(l, &canvas, r, area: body) } else { choose(l, &canvas, area: body) }
            return
        }
        let left = max(0, f.end - c.now)
        let total = max(1, f.end - f.start)
        let frac = Double(total - left) / Double(total)
        let big = l.ctx.profile.animates ? Fmt.countdown(left) : Fmt.minutes(Int((left + 59) / 60))
        let ends = "ends " + Fmt.clock(s.clock.local(f.end))
        let label = "\(f.minutes) min session"
        // The pet reads along (its focus pose) at ×2 or more where there is room.
        switch l.size {
        case .square:
            let scene = Rect(x: 40, y: area.y + 4, w: l.W - 80, h: 96)
            HomeView.petFrame(l, &canvas, scene, framing: .pet)
            bigNumber(l, &canvas, big, y: scene.maxY + 4, x: 0, w: l.W, scale: 4)
            l.bar(&canvas, Rect(x: 20, y: scene.maxY + 40, w: l.W - 40, h: 8), frac)
            Txt.lineCentred(&canvas, "\(f.minutes) min, " + ends, x: 0, w: l.W, y: scene.maxY + 52, p.muted, l.small, ms: l.ms)
            if !f.commitments.isEmpty {
                Txt.lineCentred(&canvas, "keeps \(f.commitments.count) commitment" + (f.commitments.count == 1 ? "" : "s"),
                                x: 0, w: l.W, y: scene.maxY + 70, p.muted, l.small, ms: l.ms)
            }
        case .wide:
            let scene = Rect(x: 8, y: area.y + 8, w: 130, h: l.bottom - area.y - 16)
            HomeView.petFrame(l, &canvas, scene, framing: .pet)
            let rx = 148, rw = l.W - rx - 8
            Txt.draw(&canvas, "time left", x: rx, y: area.y + 14, p.muted, .small)
            bigNumber(l, &canvas, big, y: area.y + 28, x: rx, w: rw, scale: 4, centred: false)
            l.bar(&canvas, Rect(x: rx, y: area.y + 70, w: rw, h: 10), frac)
            Txt.draw(&canvas, "\(f.minutes) min", x: rx, y: area.y + 90, p.fg, .large, maxWidth: rw)
            Txt.draw(&canvas, ends, x: rx, y: area.y + 112, p.muted, .large, maxWidth: rw)
        case .paper:
            let scene = Rect(x: 2, y: area.y + 2, w: 90, h: l.bottom - area.y - 4)
            HomeView.petFrame(l, &canvas, scene, framing: .pet)
            let rx = 100, rw = l.W - rx - 4
            Txt.draw(&canvas, "time left", x: rx, y: area.y + 4, p.fg, .small)
            bigNumber(l, &canvas, big, y: area.y + 16, x: rx, w: rw, scale: 2, centred: false)
            l.bar(&canvas, Rect(x: rx, y: area.y + 46, w: rw, h: 8), frac)
            Txt.draw(&canvas, label, x: rx, y: area.y + 62, p.fg, .small, maxWidth: rw)
            Txt.draw(&canvas, ends, x: rx, y: area.y + 74, p.fg, .small, maxWidth: rw)
        case .tiny:
            // The whole pet at ×1 (36×40): a solid silhouette, reading.
            PetScene.draw(l.ctx, in: Rect(x: 0, y: area.y + 1, w: 36, h: min(40, l.bottom - area.y - 1)), &canvas, framing: .pet)
            bigNumber(l, &canvas, big, y: area.y + 3, x: 38, w: l.W - 39, scale: 2, centred: true)
            l.bar(&canvas, Rect(x: 39, y: area.y + 22, w: l.W - 41, h: 6), frac)
            Txt.draw(&canvas, ends, x: 39, y: area.y + 32, p.fg, .small, maxWidth: l.W - 40)
        }
    }

    /// Large digits: the 12×16 face at `scale` halves of the 6×8 size (4 → ×2), shrunk until it fits `w`.
    static func bigNumber(_ l: Look, _ c: inout Canvas, _ s: String, y: Int, x: Int, w: Int, scale: Int, centred: Bool = true) {
        var sc = max(1, scale / 2)
        while sc > 1 && Font.textWidth(s, face: .large, scale: sc) > w { sc -= 1 }
        let face: FontFace = Font.textWidth(s, face: .large, scale: sc) <= w ? .large : .small
        let tw = Font.textWidth(s, face: face, scale: sc)
        let dx = centred ? x + (w - tw) / 2 : x
        c.drawText(s, x: max(x, dx), y: y, color: l.pal.fg, face: face, scale: sc, maxWidth: w)
    }

    /// No session: choose a length (up/down), start it (the hint bar's key).
    static func choose(_ l: Look, _ c: inout Canvas, area: Rect) {
        let minutes = length(l.ui)
        let sofar = l.state.commitments.focusMinutes
        let m = Moment(title: l.size == .tiny ? "Focus for" : "Focus for how long?", figure: "\(minutes) min",
                       lines: [l.size == .tiny ? "\(sofar) min so far" : "\(sofar) min focused so far"], pose: .focus)
        MomentView.draw(l, &c, m, area: area)
    }

    /// A session just completed: what it earned and the break's timer.
    static func complete(_ l: Look, _ c: inout Canvas, _ r: FocusResult, area: Rect) {
        let left = max(0, breakSeconds - (l.now - r.ended))
        let timer = l.ctx.profile.animates ? "Break " + Fmt.countdown(left) : "Break until " + Fmt.clock(l.state.clock.local(r.ended + breakSeconds))
        let m = Moment(title: l.size == .tiny ? "Done!" : "Session complete", figure: String(Glyph.coin) + "+\(r.coins)",
                       lines: [timer, l.size == .tiny ? "Stretch a bit" : "Stand up, stretch, drink some water."], pose: .dance)
        MomentView.draw(l, &c, m, area: area)
    }
}

extension FocusScreen: ScreenDefinition {
    static let title = "Focus"
    static let icon = [
        "...XXXX...",
        "..X....X..",
        ".X...X..X.",
        "X....X...X",
        "X....X...X",
        "X....XXX.X",
        "X........X",
        ".X......X.",
        "..X....X..",
        "...XXXX..."]

    static func actions(_ t: inout NavActionTable) {
        if t.state.commitments.focus == nil {
            t.add(.previous, .up, rank: 2)
            t.add(.next, .down, rank: 2)
            t.add(.select, .command(.startFocus), rank: 0)
            t.add(.forward, .command(.startFocus), hinted: false)
        } else {
            t.add(.holdSelect, .command(.stopFocus), rank: 0)
            t.add(.holdPrevious, .command(.stopFocus), hinted: false)
        }
        t.add(.back, .back)
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        switch input {
        case .previous, .next:
            if state.commitments.focus == nil {
                let n = lengths.count
                nav.ui.focusLength = (min(max(0, nav.ui.focusLength), n - 1) + (input == .next ? 1 : n - 1)) % n
            }
        case .select, .forward:
            if state.commitments.focus == nil {
                nav.ui.focusResult = nil
                return [.send(.commitment(.startFocus(minutes: length(nav.ui), block: [])))]
            }
        case .holdPrevious, .holdSelect:
            if state.commitments.focus != nil { return [.send(.commitment(.cancelFocus))] }
        case .back: nav.pop()
        default: break
        }
        return []
    }

    /// Hold select on its menu entry starts a session (25 min, or what a focus commitment needs).
    static func menuJob(state: PetState) -> (command: NavCommand, action: Action)? {
        state.commitments.focus == nil ? (.startFocus, .commitment(.startFocus(minutes: nil, block: []))) : nil
    }

    /// Then the focus screen shows the session.
    static let menuJobOpens = true

    /// A running session stays on screen.
    static func staysOpen(ui: UIState, state: PetState) -> Bool { state.commitments.focus != nil }
}
