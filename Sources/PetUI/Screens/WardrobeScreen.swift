import PetCore

/// Wardrobe and home: what the pet owns (`NavRows.wardrobe`: food with servings, things it wears —
/// marked when worn — and home items with the slot they stand in), with a preview of the pet wearing
/// them in its home.
enum WardrobeScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        l.header(&canvas, l.size == .tiny ? "Wardrobe" : "Wardrobe & home")
        var rows: [ListRow] = []
        var selectable: [Int] = []
        var lastSection = ""
        for item in NavRows.wardrobe(s) {
            let section: String
            var row: ListRow
            switch item.kind {
            case .food(let n):
                section = "Food"
                row = ListRow(item.name, right: "x\(n)", mark: .glyph(Glyph.heart))
            case .wearable(let slot, let worn):
                section = "Wear"
                row = ListRow(item.name, right: worn ? "on" : slot, mark: worn ? .glyph(Glyph.check) : .glyph(" "))
            case .homeItem(let slot):
                section = "Home"
                row = ListRow(item.name, right: slot ?? "stored", mark: slot != nil ? .glyph(Glyph.check) : .glyph(" "),
                              muted: slot == nil)
            }
            if section != lastSection { rows.append(.sectionLabel(section)); lastSection = section }
            selectable.append(rows.count)
            rows.append(row)
        }
        let cursor = selectable.isEmpty ? nil : selectable[min(max(0, c.ui.cursor), selectable.count - 1)]
        let area = l.content
        let emptyText = "Nothing yet. The store has hats, food and furniture."
        switch l.size {
        case .square:
            let preview = Rect(x: 8, y: area.y + 4, w: l.W - 16, h: 86)
            HomeView.petFrame(l, &canvas, preview)
            let listArea = Rect(x: 0, y: preview.maxY + 4, w: l.W, h: l.H - preview.maxY - 4)
            if rows.isEmpty { l.empty(&canvas, emptyText, area: listArea) } else { l.list(&canvas, rows, selected: cursor, area: listArea) }
        case .wide, .paper:
            let pw = l.size == .wide ? 120 : 86
            let preview = Rect(x: 4, y: area.y + 4, w: pw, h: min(pw + 20, area.h - 8))
            HomeView.petFrame(l, &canvas, preview)
            let listArea = Rect(x: pw + 8, y: area.y, w: l.W - pw - 8, h: area.h)
            if rows.isEmpty { l.empty(&canvas, emptyText, area: listArea) } else { l.list(&canvas, rows, selected: cursor, area: listArea) }
        case .tiny:
            if rows.isEmpty { l.empty(&canvas, "Nothing yet", area: area) } else { l.list(&canvas, rows, selected: cursor, area: area) }
        }
    }
}
