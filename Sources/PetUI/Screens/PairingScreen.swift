import PetCore

/// Pairing: the 6-digit code (`ui.pairingCode`) as large as the display allows, grouped 3+3, with
/// what to do with it; while no code shows, how to pair and the paired phones (hold select unpairs
/// the highlighted one).
enum PairingScreen {
    static func phones(_ c: ScreenContext, _ l: Look, _ canvas: inout Canvas) {
        let s = c.state
        let area = l.content
        let hintH = l.hints(&canvas, c.view.hintText)
        let intro = l.size == .tiny ? "Pair from the app" : "To pair, open the DeskPet app."
        Txt.drawWrapped(&canvas, intro, x: l.pad, y: area.y + (l.big ? 4 : 1), width: l.W - 2 * l.pad, maxLines: l.big ? 2 : 1,
                        l.pal.muted, .small, centred: false)
        guard let list = c.view.list, !list.rows.isEmpty,
              let frame = ListLayout.frame(.pairing, profile: c.profile, state: s, now: c.now) else {
            let rest = Rect(x: 0, y: area.y + (l.big ? 30 : 10), w: l.W, h: max(0, area.h - (l.big ? 30 : 10) - hintH))
            l.empty(&canvas, "No phones paired yet (up to \(PhoneRules.maxPhones)).", area: rest)
            return
        }
        l.list(&canvas, list, frame: frame)
    }

    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        l.header(&canvas, l.size == .tiny ? "Pair phone" : "Pair a phone")
        let p = l.pal
        let area = l.content
        if let until = c.state.phones.lockedUntil, c.now < until {
            let minutes = (until - c.now + 59) / 60
            l.empty(&canvas, "Pairing locked after 5 wrong codes. Try again in \(minutes) min.", area: area)
            return
        }
        if c.ui.pairingCode == nil, let o = c.ui.pairingOutcome {
            MomentView.draw(l, &canvas, outcome(o, tiny: l.size == .tiny), area: Rect(x: 0, y: area.y, w: l.W, h: l.bottom - area.y))
            return
        }
        guard let raw = c.ui.pairingCode, !raw.isEmpty else {
            phones(c, l, &canvas)
            return
        }
        let code = raw.count == 6 ? String(raw.prefix(3)) + " " + String(raw.suffix(3)) : raw
        let hint = l.size == .tiny ? "Type it in the app" : "Type this code in the DeskPet app"
        let scale: Int
        switch l.size {
        case .square, .wide: scale = 3
        case .paper: scale = 2
        case .tiny: scale = 1
        }
        var sc = scale
        while sc > 1 && Font.textWidth(code, face: .large, scale: sc) > l.W - 2 * l.pad - (l.big ? 32 : 0) { sc -= 1 }
        let h = FontFace.large.cellHeight * sc
        let hintH = (l.big ? 30 : 10) + HintBar.height(c.profile)
        let y = area.y + max(0, (area.h - h - hintH) / 2)
        if l.big && !p.mono {
            let w = Font.textWidth(code, face: .large, scale: sc) + 32
            canvas.fillRoundedRect(x: (l.W - w) / 2, y: y - 12, w: w, h: h + 20, radius: 12, color: p.panel)
            canvas.fillRect(x: (l.W - w) / 2 + 16, y: y + h + 2, w: w - 32, h: 3, color: p.accent)
        }
        let tw = Font.textWidth(code, face: .large, scale: sc)
        canvas.drawText(code, x: (l.W - tw) / 2, y: y, color: p.fg, face: .large, scale: sc, maxWidth: l.W)
        Txt.drawWrapped(&canvas, hint, x: l.pad, y: y + h + (l.big ? 16 : 3), width: l.W - 2 * l.pad, maxLines: 2, p.muted,
                        .small, centred: true)
    }
}

extension PairingScreen {
    /// The end of an attempt, in words: success with the phone's name, a wrong code, no phone.
    static func outcome(_ o: PairingOutcome, tiny: Bool) -> Moment {
        switch o {
        case .paired(let phone):
            return Moment(title: "Paired!", lines: [(phone.isEmpty ? "Your phone" : phone) + (tiny ? " is in" : " can send me tasks now.")],
                          pose: .dance)
        case .failed:
            return Moment(title: tiny ? "Wrong code" : "That code didn't match",
                          lines: [tiny ? "Try again in the app" : "Nothing changed. Try again from the app."], pose: .worried)
        case .timedOut:
            return Moment(title: tiny ? "No phone came" : "No phone answered",
                          lines: [tiny ? "Try again in the app" : "The code expired. Choose Pair in the app again."], pose: .worried)
        }
    }
}

extension PairingScreen: ScreenDefinition {
    static let title = "Pairing"
    static let icon = [
        "..XXXXXX..",
        "..X....X..",
        "..X....X..",
        "..X....X..",
        "..X....X..",
        "..X....X..",
        "..X....X..",
        "..XXXXXX..",
        "..XX..XX..",
        "..XXXXXX.."]

    /// The paired phones, under a line saying how to pair another (while no code shows).
    static func listFrame(_ m: ListLayout.Metrics, profile: DisplayProfile, state: PetState, now: Instant) -> ListFrame? {
        let content = m.content, hints = HintBar.height(profile)
        let textH = m.big ? 30 : (m.size == .paper ? 13 : 9)
        return ListFrame(area: Rect(x: 0, y: content.y + textH, w: m.W, h: content.h - textH - hints), rowHeight: m.rowHeight)
    }

    /// The paired phones (hold select unpairs one); none while a code is shown.
    static func rows(ui: UIState, state s: PetState, now: Instant, config: Navigator.Config) -> [NavRow] {
        guard ui.pairingCode == nil else { return [] }
        return s.phones.paired.map { NavRow(id: "phone:" + $0.id, label: $0.name.isEmpty ? $0.id : $0.name) }
    }

    static func actions(_ t: inout NavActionTable) {
        if t.ui.pairingCode == nil {
            t.moves()
            if t.sel("phone") != nil { t.add(.holdSelect, .command(.unpair), rank: 0) }
        }
        t.add(.back, .back)
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        switch input {
        case .previous, .next: if nav.ui.pairingCode == nil { nav.move(input) }
        case .holdSelect:
            // Unpair the highlighted phone (its token stops working at once).
            if nav.ui.pairingCode == nil, let id = nav.selected("phone") { return [.send(.phone(.unpair(id: id)))] }
        case .back: nav.ui.pairingOutcome = nil; nav.pop()
        default: break
        }
        return []
    }

    /// A code being shown stays on screen (the owner has to read it).
    static func staysOpen(ui: UIState, state: PetState) -> Bool { ui.pairingCode != nil }
}
