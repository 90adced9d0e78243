import PetCore

/// The shop: tabs by kind (`ui.shopTab`: food, wearables, skins, home items), the items of
/// `Catalogue.builtIn` with their price, owned (✓ or ×count for food) and locked (🔒 Lv n) marks,
/// and the coin balance. Rows, cursor and scroll: the navigator's view (`NavRows.shop(tab:)`).
enum ShopScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        let tab = min(max(0, c.ui.shopTab), NavRows.shopTabs.count - 1)
        l.header(&canvas, "Shop", right: l.coinText(s.coins))
        let p = l.pal
        // Tab strip.
        let area = l.content
        let tabH = l.big ? 20 : (l.size == .paper ? 12 : 9)
        // Each tab as wide as its name plus an equal share of the room left.
        let f: TextSize = Txt.legible(.small, on: canvas)
        let names = NavRows.shopTabs
        let spare = max(0, l.W - names.reduce(0) { $0 + Txt.width($1, f) }) / max(1, names.count)
        var x = 0
        for (i, name) in names.enumerated() {
            let tabW = i == names.count - 1 ? l.W - x : Txt.width(name, f) + spare
            defer { x += tabW }
            let on = i == tab
            if on {
                if l.big { canvas.fillRoundedRect(x: x + 3, y: area.y + 1, w: tabW - 6, h: tabH - 2, radius: 6, color: p.accent) }
                else { canvas.fillRect(x: x + 1, y: area.y, w: tabW - 2, h: tabH - 1, color: p.fg) }
            }
            let ink = on ? (l.big ? p.onAccent : p.bg) : (l.big ? p.muted : p.fg)
            Txt.drawCentred(&canvas, name, x: x + 1, w: tabW - 2, y: area.y + (tabH - f.height) / 2, ink, f)
        }
        if !l.big { canvas.hline(x: 0, y: area.y + tabH, w: l.W, color: p.fg) }
        l.hints(&canvas, c.view.hintText)
        guard let frame = ListLayout.frame(.shop, profile: c.profile, state: s, now: c.now) else { return }
        guard let list = c.view.list, !list.rows.isEmpty else { l.empty(&canvas, "Nothing here yet", area: frame.area); return }
        l.list(&canvas, list, frame: frame)
    }
}
