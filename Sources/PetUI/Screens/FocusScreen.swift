import PetCore

/// Focus: the running session's countdown with the pet studying and how far along it is, or the
/// offer to start a 25-minute session. E-paper shows whole minutes (no per-second refresh).
enum FocusScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        let done = s.commitments.focusCompleted
        l.header(&canvas, "Focus", right: l.size == .tiny || done == 0 ? nil : String(Glyph.check) + "\(done)")
        let p = l.pal
        let area = l.content
        guard let f = s.commitments.focus else {
            idle(l, &canvas, area)
            return
        }
        let left = max(0, f.end - c.now)
        let total = max(1, f.end - f.start)
        let frac = Double(total - left) / Double(total)
        let big = l.ctx.profile.animates ? Fmt.countdown(left) : Fmt.minutes(Int((left + 59) / 60))
        let ends = "ends " + Fmt.clock(s.clock.local(f.end))
        let label = "\(f.minutes) min session"
        switch l.size {
        case .square:
            let scene = Rect(x: 16, y: area.y + 6, w: l.W - 32, h: 90)
            HomeView.petFrame(l, &canvas, scene)
            bigNumber(l, &canvas, big, y: scene.maxY + 6, x: 0, w: l.W, scale: 4)
            l.bar(&canvas, Rect(x: 20, y: scene.maxY + 44, w: l.W - 40, h: 10), frac)
            // One line each in the 12×16 face (the smallest legible on this panel).
            Txt.lineCentred(&canvas, label, x: 0, w: l.W, y: scene.maxY + 58, p.muted, l.small, ms: l.ms)
            Txt.lineCentred(&canvas, ends, x: 0, w: l.W, y: scene.maxY + 76, p.muted, l.small, ms: l.ms)
            if !f.commitments.isEmpty {
                Txt.lineCentred(&canvas, "keeps \(f.commitments.count) commitment" + (f.commitments.count == 1 ? "" : "s"),
                                x: 0, w: l.W, y: scene.maxY + 94, p.muted, l.small, ms: l.ms)
            }
        case .wide:
            let scene = Rect(x: 8, y: area.y + 8, w: 130, h: 130)
            HomeView.petFrame(l, &canvas, scene)
            Txt.draw(&canvas, "studying...", x: 20, y: scene.maxY + 8, p.muted, .small)
            let rx = 148, rw = l.W - rx - 8
            Txt.draw(&canvas, "time left", x: rx, y: area.y + 14, p.muted, .small)
            bigNumber(l, &canvas, big, y: area.y + 28, x: rx, w: rw, scale: 4, centred: false)
            l.bar(&canvas, Rect(x: rx, y: area.y + 70, w: rw, h: 10), frac)
            Txt.draw(&canvas, "\(f.minutes) min", x: rx, y: area.y + 90, p.fg, .large, maxWidth: rw)
            Txt.draw(&canvas, ends, x: rx, y: area.y + 112, p.muted, .large, maxWidth: rw)
        case .paper:
            let scene = Rect(x: 2, y: area.y + 2, w: 90, h: l.bottom - area.y - 4)
            HomeView.petFrame(l, &canvas, scene)
            let rx = 100, rw = l.W - rx - 4
            Txt.draw(&canvas, "time left", x: rx, y: area.y + 4, p.fg, .small)
            bigNumber(l, &canvas, big, y: area.y + 16, x: rx, w: rw, scale: 2, centred: false)
            l.bar(&canvas, Rect(x: rx, y: area.y + 46, w: rw, h: 8), frac)
            Txt.draw(&canvas, label, x: rx, y: area.y + 62, p.fg, .small, maxWidth: rw)
            Txt.draw(&canvas, ends, x: rx, y: area.y + 74, p.fg, .small, maxWidth: rw)
        case .tiny:
            PetScene.draw(l.ctx, in: Rect(x: 1, y: area.y + 1, w: 32, h: 32), &canvas)
            bigNumber(l, &canvas, big, y: area.y + 4, x: 36, w: l.W - 38, scale: 2, centred: true)
            l.bar(&canvas, Rect(x: 36, y: area.y + 24, w: l.W - 38, h: 6), frac)
            Txt.draw(&canvas, ends, x: 36, y: area.y + 33, p.fg, .small, maxWidth: l.W - 38)
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

    static func idle(_ l: Look, _ c: inout Canvas, _ area: Rect) {
        let p = l.pal
        let s = l.state
        let minutes = "\(s.commitments.focusMinutes) min focused so far"
        switch l.size {
        case .square, .wide:
            let scene = Rect(x: (l.W - 120) / 2, y: area.y + 6, w: 120, h: 90)
            HomeView.petFrame(l, &c, scene)
            let btn = Rect(x: (l.W - 200) / 2, y: scene.maxY + 16, w: 200, h: 40)
            if p.mono { c.strokeRect(x: btn.x, y: btn.y, w: btn.w, h: btn.h, color: p.fg, thickness: 2) }
            else { c.fillRoundedRect(x: btn.x, y: btn.y, w: btn.w, h: btn.h, radius: 12, color: p.accent) }
            Txt.drawCentred(&c, "Start 25 min", x: btn.x, w: btn.w, y: btn.y + 12, p.mono ? p.fg : p.onAccent, .large)
            // What starts it is the hint bar's (the board's own key).
            Txt.lineCentred(&c, "Stay with one thing.", x: 0, w: l.W, y: btn.maxY + 4, p.muted, l.small, ms: l.ms)
            Txt.lineCentred(&c, minutes, x: 0, w: l.W, y: btn.maxY + 21, p.muted, l.small, ms: l.ms)
        case .paper:
            let scene = Rect(x: 2, y: area.y + 2, w: 90, h: l.bottom - area.y - 4)
            HomeView.petFrame(l, &c, scene)
            let btn = Rect(x: 100, y: area.y + 16, w: l.W - 106, h: 28)
            c.strokeRect(x: btn.x, y: btn.y, w: btn.w, h: btn.h, color: p.fg, thickness: 2)
            let f: TextSize = Txt.width("Start 25 min", .large) <= btn.w - 8 ? .large : .small
            Txt.drawCentred(&c, "Start 25 min", x: btn.x, w: btn.w, y: btn.y + (btn.h - f.height) / 2, p.fg, f)
            Txt.drawWrapped(&c, minutes, x: 100, y: btn.maxY + 10, width: l.W - 104, maxLines: 3, p.fg, .small)
        case .tiny:
            PetScene.draw(l.ctx, in: Rect(x: 1, y: area.y + 1, w: 32, h: 32), &c)
            c.fillRect(x: 36, y: area.y + 8, w: l.W - 38, h: 13, color: p.fg)
            Txt.drawCentred(&c, "Start 25 min", x: 36, w: l.W - 38, y: area.y + 11, p.bg, .small)
            Txt.draw(&c, "\(s.commitments.focusMinutes) min so far", x: 38, y: area.y + 26, p.fg, .small, maxWidth: l.W - 40)
        }
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
        case .select, .forward:
            if state.commitments.focus == nil { return [.send(.commitment(.startFocus(minutes: nil, block: [])))] }
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
