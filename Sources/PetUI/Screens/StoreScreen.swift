import PetCore

/// The store: tabs by kind (`ui.storeTab`: food, wearables, skins, home items), the items of
/// `Catalogue.builtIn` with their price, owned (✓ or ×count for food) and locked (🔒 Lv n) marks,
/// and the coin balance. Rows: `NavRows.store(tab:)`.
enum StoreScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        let tab = min(max(0, c.ui.storeTab), NavRows.storeTabs.count - 1)
        l.header(&canvas, "Store", right: l.coinText(s.coins))
        let p = l.pal
        // Tab strip.
        let area = l.content
        let tabH = l.big ? 20 : (l.size == .paper ? 12 : 9)
        let tabW = l.W / NavRows.storeTabs.count
        for (i, name) in NavRows.storeTabs.enumerated() {
            let x = i * tabW
            let on = i == tab
            if on {
                if l.big { canvas.fillRoundedRect(x: x + 3, y: area.y + 1, w: tabW - 6, h: tabH - 2, radius: 6, color: p.accent) }
                else { canvas.fillRect(x: x + 1, y: area.y, w: tabW - 2, h: tabH - 1, color: p.fg) }
            }
            let ink = on ? (l.big ? p.onAccent : p.bg) : (l.big ? p.muted : p.fg)
            let f: TextSize = .small
            Txt.drawCentred(&canvas, name, x: x + 1, w: tabW - 2, y: area.y + (tabH - f.height) / 2, ink, f)
        }
        if !l.big { canvas.hline(x: 0, y: area.y + tabH, w: l.W, color: p.fg) }
        let items = NavRows.store(tab: tab)
        var rows: [ListRow] = []
        for item in items {
            let owned = s.shop.count(of: item.id)
            let locked = item.unlockLevel > s.level
            var mark: RowMark = .none
            var right = String(Glyph.coin) + "\(item.price)"
            if locked {
                mark = .glyph(Glyph.lock)
                right = "Lv \(item.unlockLevel)"
            } else if owned > 0 {
                mark = item.itemKind == .food ? .none : .glyph(Glyph.check)
                if item.itemKind == .food { right = "x\(owned) " + right }
            }
            var name = item.name
            if item.wearSlot.map({ s.shop.wearing($0) == item.id }) == true || s.shop.slot(of: item.id) != nil {
                name += l.size == .tiny ? "*" : " (on)"
            }
            if mark == .none { mark = .glyph(" ") }
            rows.append(ListRow(name, right: right, mark: mark, muted: locked || (item.price > s.coins && owned == 0)))
        }
        var listArea = Rect(x: 0, y: area.y + tabH + 2, w: l.W, h: area.maxY - area.y - tabH - 2)
        listArea.h -= l.hints(&canvas, Look.defaultHints)
        if rows.isEmpty { l.empty(&canvas, "Nothing here yet", area: listArea); return }
        l.list(&canvas, rows, selected: min(max(0, c.ui.cursor), rows.count - 1), area: listArea)
    }
}
