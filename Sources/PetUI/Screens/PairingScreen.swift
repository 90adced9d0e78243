import PetCore

/// Pairing: the 6-digit code (`ui.pairingCode`) as large as the display allows, grouped 3+3, with
/// what to do with it; "waiting" while the phone link has not set a code.
enum PairingScreen {
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
        guard let raw = c.ui.pairingCode, !raw.isEmpty else {
            l.empty(&canvas, "Waiting for the phone... Open DeskPet on your phone and choose Pair.", area: area)
            return
        }
        let code = raw.count == 6 ? String(raw.prefix(3)) + " " + String(raw.suffix(3)) : raw
        let hint = l.size == .tiny ? "Type it in the app" : "Enter this code in the DeskPet app"
        let scale: Int
        switch l.size {
        case .square, .wide: scale = 3
        case .paper: scale = 2
        case .tiny: scale = 1
        }
        var sc = scale
        while sc > 1 && Font.textWidth(code, face: .large, scale: sc) > l.W - 2 * l.pad - (l.big ? 32 : 0) { sc -= 1 }
        let h = FontFace.large.cellHeight * sc
        let hintH = l.big ? 30 : 10
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
