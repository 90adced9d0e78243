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
            let preview = Rect(x: 8, y: area.y + 4, w: l.W - 16, h: previewHeight)
            HomeView.petFrame(l, &canvas, preview, framing: .whole)
            draw(l, &canvas, list, frame, empty: emptyText)
        case .wide, .paper:
            let pw = previewWidth(l.size)
            let preview = l.size == .wide ? Rect(x: 4, y: area.y + 4, w: pw, h: min(pw + 20, l.bottom - area.y - 8))
                : Rect(x: 2, y: area.y + 2, w: pw, h: l.bottom - area.y - 4)
            HomeView.petFrame(l, &canvas, preview, framing: .whole)
            draw(l, &canvas, list, frame, empty: emptyText)
        case .tiny:
            draw(l, &canvas, list, frame, empty: "Nothing yet")
            // No room for a preview: the highlighted thing's picture stands left of the rows, as
            // in the shop.
            if let frame, let row = list.selectedRow, row.id.hasPrefix("item:"), let id = row.id.split(separator: ":").last {
                let box = Rect(x: 0, y: frame.area.y + 1, w: ShopScreen.pictureColumn - 2, h: frame.area.h - 2)
                ItemPicture.draw(String(id), c, &canvas, in: box, ink: l.pal.fg, paper: l.pal.bg)
                canvas.vline(x: ShopScreen.pictureColumn - 1, y: frame.area.y, h: frame.area.h, color: l.pal.fg)
            }
        }
    }

    /// The list (the navigator's rows, in the layout's frame), or `empty` when the pet owns nothing.
    static func draw(_ l: Look, _ canvas: inout Canvas, _ list: ListView, _ frame: ListFrame?, empty: String) {
        guard let frame else { return }
        if list.rows.isEmpty { l.empty(&canvas, empty, area: frame.area) } else { l.list(&canvas, list, frame: frame) }
    }
}

extension WardrobeScreen: ScreenDefinition {
    static let title = "Wardrobe"
    static let icon = [
        ".XX....XX.",
        "XXXX..XXXX",
        "XXXXXXXXXX",
        ".XXXXXXXX.",
        "..XXXXXX..",
        "..XXXXXX..",
        "..XXXXXX..",
        "..XXXXXX..",
        "..XXXXXX..",
        "..XXXXXX.."]

    /// The preview's size: room for the pet and its home at ×2 (the stage part with every placed
    /// item, about 44×40 art pixels, inside the frame's inset).
    static let previewHeight = 94
    static func previewWidth(_ size: SizeClass) -> Int { size == .wide ? 120 : 94 }

    static func listFrame(_ m: ListLayout.Metrics, profile: DisplayProfile, state: PetState, now: Instant) -> ListFrame? {
        let W = m.W, H = m.H, content = m.content, hints = HintBar.height(profile)
        switch m.size {
        case .square:
            let previewBottom = content.y + 4 + previewHeight
            return ListFrame(area: Rect(x: 0, y: previewBottom + 4, w: W, h: H - previewBottom - 4 - hints), rowHeight: m.rowHeight)
        case .wide, .paper:
            let pw = previewWidth(m.size)
            return ListFrame(area: Rect(x: pw + 8, y: content.y, w: W - pw - 8, h: content.h - hints), rowHeight: m.rowHeight)
        case .tiny:
            let left = NavRows.wardrobe(state).isEmpty ? 0 : ShopScreen.pictureColumn + 1
            return ListFrame(area: Rect(x: left, y: content.y, w: W - left, h: content.h - hints), rowHeight: m.rowHeight)
        }
    }

    /// What the pet owns under "Food", "Wear" and "Home".
    static func rows(ui: UIState, state s: PetState, now: Instant, config: Navigator.Config) -> [NavRow] {
        var rows: [NavRow] = []
        var lastSection = ""
        for item in NavRows.wardrobe(s) {
            let section: String
            var row: NavRow
            switch item.kind {
            case .food(let n):
                section = "Food"
                row = NavRow(id: "item:" + item.item, label: item.name, value: "x\(n)", mark: .glyph(Glyph.heart))
            case .wearable(let slot, let worn):
                section = "Wear"
                row = NavRow(id: "item:" + item.item, label: item.name, value: worn ? "on" : slot,
                             mark: worn ? .glyph(Glyph.check) : .glyph(" "))
            case .homeItem(let slot):
                section = "Home"
                row = NavRow(id: "item:" + item.item, label: item.name, value: slot ?? "stored",
                             mark: slot != nil ? .glyph(Glyph.check) : .glyph(" "), muted: slot == nil)
            }
            row.short = NavRow.shortName(item.name)
            // Each thing with its picture (the OLED shows the highlighted one's beside the rows).
            if config.profile.sizeClass != .tiny { row.mark = .picture(item: item.item, badge: nil) }
            if section != lastSection {
                rows.append(NavRow(id: "section:" + section.lowercased(), kind: .section, label: section))
                lastSection = section
            }
            rows.append(row)
        }
        return rows
    }

    static func actions(_ t: inout NavActionTable) {
        let state = t.state
        t.moves()
        if let shown = t.sel("item"),
           let row = NavRows.wardrobe(state).first(where: { $0.item == shown }) {
            var v: NavVerb?
            switch row.kind {
            case .food: t.add(.holdSelect, .command(.feed), rank: 0)
            case .wearable(_, let worn): v = .command(worn ? .takeOff : .wear)
            case .homeItem(let slot?): _ = slot; v = .command(.store)
            case .homeItem(nil):
                if Catalogue.builtIn.homeSlots.contains(where: { state.shop.placed[$0] == nil }) { v = .command(.place) }
            }
            if let v { t.add(.select, v, rank: 0); t.add(.forward, v, hinted: false) }
        }
        t.add(.back, .back)
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        let shown = nav.selected("item")
        let row = NavRows.wardrobe(state).first { $0.item == shown }
        switch input {
        case .previous, .next: nav.move(input)
        case .select, .forward:
            guard let row else { break }
            switch row.kind {
            case .food: break
            case let .wearable(slot, worn):
                return [.send(.shop(worn ? .unequip(slot: slot, item: row.item) : .equip(item: row.item)))]
            case .homeItem(let slot?):
                return [.send(.shop(.unplace(slot: slot)))]
            case .homeItem(nil):
                if let free = Catalogue.builtIn.homeSlots.first(where: { state.shop.placed[$0] == nil }) {
                    return [.send(.shop(.place(item: row.item, slot: free)))]
                }
            }
        case .holdSelect:
            if let row, case .food = row.kind { return [.send(.shop(.feed(item: row.item)))] }
        case .back: nav.pop()
        default: break
        }
        return []
    }

    /// Hold select on its menu entry feeds the first food in the inventory.
    static func menuJob(state: PetState) -> (command: NavCommand, action: Action)? {
        for row in NavRows.wardrobe(state) { if case .food = row.kind { return (.feed, .shop(.feed(item: row.item))) } }
        return nil
    }
}

/// The wardrobe's rows (the navigator moves its cursor over them; `rows` labels them).
extension NavRows {
    // MARK: - Wardrobe

    /// A row of the wardrobe/home screen: something the pet owns.
    public struct WardrobeRow: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// Food in the inventory (hold B feeds one serving).
            case food(servings: Int)
            /// Worn in a slot (`worn` = it is on now); tap B puts it on or takes it off.
            case wearable(slot: String, worn: Bool)
            /// A home item; `slot` = where it stands now (nil: stored). Tap B places it or puts it away.
            case homeItem(slot: String?)
        }
        public var item: String
        public var name: String
        public var kind: Kind
    }

    /// What the pet owns, in catalogue order: food, then things it wears, then home items.
    public static func wardrobe(_ state: PetState, catalogue: Catalogue = .builtIn) -> [WardrobeRow] {
        var food: [WardrobeRow] = [], wear: [WardrobeRow] = [], home: [WardrobeRow] = []
        for item in catalogue.items {
            guard let owned = state.shop.owned[item.id], owned.count > 0 else { continue }
            switch owned.kind {
            case .food:
                food.append(WardrobeRow(item: item.id, name: item.name, kind: .food(servings: owned.count)))
            case .wearable, .skin, .background:
                let slot = owned.wearSlot ?? item.wearSlot ?? ""
                wear.append(WardrobeRow(item: item.id, name: item.name,
                                        kind: .wearable(slot: slot, worn: state.shop.worn[slot] == item.id)))
            case .furniture, .trinket:
                home.append(WardrobeRow(item: item.id, name: item.name, kind: .homeItem(slot: state.shop.slot(of: item.id))))
            }
        }
        return food + wear + home
    }
}
