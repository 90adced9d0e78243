import PetCore

/// Wardrobe and home: what the pet owns (the navigator's rows, `NavRows.wardrobe`: food with servings, things it wears —
/// marked when worn — and home items with the slot they stand in), with a preview of the pet wearing
/// them in its home: the whole stage (every placed item), as large as the preview fits.
enum WardrobeScreen {
    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        l.header(&canvas, l.size == .tiny ? "Wardrobe" : "Wardrobe & home")
        let list = c.view.list ?? ListView(rows: [], selected: nil, first: 0, visible: 1)
        let frame = ListLayout.frame(.wardrobe, profile: c.profile, state: s, now: c.now)
        let area = l.content
        let emptyText = "Nothing yet. The shop has hats, food and furniture."
        switch l.size {
        case .square:
            let preview = Rect(x: 8, y: area.y + 4, w: l.W - 16, h: 86)
            HomeView.petFrame(l, &canvas, preview, framing: .whole)
            draw(l, &canvas, list, frame, empty: emptyText)
        case .wide, .paper:
            let pw = l.size == .wide ? 120 : 86
            let preview = Rect(x: 4, y: area.y + 4, w: pw, h: min(pw + 20, l.bottom - area.y - 8))
            HomeView.petFrame(l, &canvas, preview, framing: .whole)
            draw(l, &canvas, list, frame, empty: emptyText)
        case .tiny:
            draw(l, &canvas, list, frame, empty: "Nothing yet")
        }
    }

    /// The list (the navigator's rows, in the layout's frame), or `empty` when the pet owns nothing.
    static func draw(_ l: Look, _ canvas: inout Canvas, _ list: ListView, _ frame: ListFrame?, empty: String) {
        guard let frame else { return }
        if list.rows.isEmpty { l.empty(&canvas, empty, area: frame.area) } else { l.list(&canvas, list, frame: frame) }
    }
}
