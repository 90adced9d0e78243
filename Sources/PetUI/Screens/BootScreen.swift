import PetCore

/// Boot: the name and the pet, and a reframing quote for the day (`Quotes.forDay`).
enum BootScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let p = l.pal
        let quote = Quotes.forDay(c.state.clock.day(of: c.now))
        switch l.size {
        case .square, .wide:
            let title = "DeskPet"
            let sc = 2
            let tw = Font.textWidth(title, face: .large, scale: sc)
            canvas.drawText(title, x: (l.W - tw) / 2, y: 24, color: p.fg, face: .large, scale: sc)
            canvas.fillRect(x: (l.W - tw) / 2, y: 58, w: tw, h: 3, color: p.accent)
            let scene = Rect(x: (l.W - 96) / 2, y: 72, w: 96, h: 84)
            PetScene.draw(c, in: scene, &canvas)
            Txt.drawWrapped(&canvas, quote, x: 16, y: 168, width: l.W - 32, maxLines: 3, p.muted, .large, lineGap: 4,
                            centred: true)
        case .paper:
            canvas.drawText("DeskPet", x: 8, y: 6, color: p.fg, face: .large, scale: 2)
            canvas.fillRect(x: 8, y: 40, w: Font.textWidth("DeskPet", face: .large, scale: 2), h: 2, color: p.fg)
            // 72×80 right of the title: the pet's part of the stage at ×2.
            PetScene.draw(c, in: Rect(x: l.W - 72, y: 0, w: 72, h: 80), &canvas)
            Txt.drawWrapped(&canvas, quote, x: 8, y: 82, width: l.W - 16, maxLines: 2, p.fg, .large, lineGap: 4)
        case .tiny:
            // The pet whole (hat included) in a 40×40 corner; the quote in the column beside it.
            canvas.drawText("DeskPet", x: 2, y: 4, color: p.fg, face: .large)
            PetScene.draw(c, in: Rect(x: l.W - 40, y: 0, w: 40, h: 40), &canvas)
            Txt.drawWrapped(&canvas, quote, x: 2, y: 22, width: l.W - 44, maxLines: 4, p.fg, .small, lineGap: 3)
        }
    }
}

extension BootScreen: ScreenDefinition {
    static let title = "DeskPet"

    /// Any input ends the boot screen (its table is empty: the first press only wakes the device).
    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        nav.ui.screen = nav.afterBoot(state)
        if nav.ui.screen == .firstRun { FirstRunScreen.opened(&nav.ui, state: state, now: now) }
        return []
    }
}
