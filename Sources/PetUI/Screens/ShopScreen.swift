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
        // The OLED's rows are too low for a picture: the highlighted item's picture stands on
        // their left, as large as its column allows (docs/shop.md).
        if l.size == .tiny, let row = list.selectedRow, row.id.hasPrefix("item:"), let id = row.id.split(separator: ":").last {
            let box = Rect(x: 0, y: frame.area.y + 1, w: ShopScreen.pictureColumn - 2, h: frame.area.h - 2)
            ItemPicture.draw(String(id), c, &canvas, in: box, ink: p.fg, paper: p.bg)
            canvas.vline(x: ShopScreen.pictureColumn - 1, y: frame.area.y, h: frame.area.h, color: p.fg)
        }
    }

    /// On the OLED: the width of the highlighted item's picture column, left of the rows.
    static let pictureColumn = 34
}

extension ShopScreen: ScreenDefinition {
    static let title = "Shop"
    static let icon = [
        "XX........",
        ".X........",
        ".XXXXXXXXX",
        ".XX.X.X.XX",
        ".XXXXXXXXX",
        "..X.X.X.X.",
        "..XXXXXXX.",
        "..X.......",
        "..XXXXXXXX",
        "...XX..XX."]

    static func listFrame(_ m: ListLayout.Metrics, profile: DisplayProfile, state: PetState, now: Instant) -> ListFrame? {
        let content = m.content, hints = HintBar.height(profile)
        let tabH = m.shopTabHeight
        // On the OLED the rows leave a column on their left for the highlighted item's picture.
        let left = profile.sizeClass == .tiny ? pictureColumn + 1 : 0
        return ListFrame(area: Rect(x: left, y: content.y + tabH + 2, w: m.W - left, h: content.maxY - content.y - tabH - 2 - hints),
                         rowHeight: m.rowHeight)
    }

    /// The items of the tab shown, with their price (or the level that unlocks them).
    static func rows(ui: UIState, state s: PetState, now: Instant, config: Navigator.Config) -> [NavRow] {
        let tiny = config.profile.sizeClass == .tiny
        let tab = min(max(0, ui.shopTab), NavRows.shopTabs.count - 1)
        let items = NavRows.shop(tab: tab)
        // A short form two items of the tab share ("Crown" for Flower and Royal crown) tells
        // them apart no more: those take their first word instead ("Flower", "Royal"), which the
        // picture beside it completes.
        let shorts = items.compactMap { NavRow.shortName($0.name) }
        let names = Set(items.map(\.name))
        func short(_ name: String) -> String? {
            guard let s = NavRow.shortName(name) else { return nil }
            if shorts.filter({ $0 == s }).count == 1, !names.contains(s) { return s }
            return name.split(separator: " ").first.map(String.init)
        }
        return items.map { item in
            let owned = s.shop.count(of: item.id)
            let locked = item.unlockLevel > s.level
            var mark: NavRow.Mark = .none
            var right = String(Glyph.coin) + "\(item.price)"
            if locked {
                mark = .glyph(Glyph.lock)
                right = "Lv \(item.unlockLevel)"
            } else if owned > 0 {
                mark = item.itemKind == .food ? .none : .glyph(Glyph.check)
                if item.itemKind == .food { right = "x\(owned) " + right }
            }
            let name = item.name
            // An owned item's value says whether it is in use instead of a price it will not cost again.
            if owned > 0 && item.itemKind != .food {
                let on = item.wearSlot.map({ s.shop.wearing($0) == item.id }) == true || s.shop.slot(of: item.id) != nil
                right = on ? "on" : (tiny ? "own" : "owned")
            }
            // Every item with its picture (the row's muted colour and "Lv N" say it is locked,
            // "owned"/"on" that it is bought); the OLED keeps the lock and check glyphs.
            mark = tiny ? (mark == .none ? .glyph(" ") : mark) : .picture(item: item.id, badge: nil)
            return NavRow(id: "item:" + item.id, label: name, value: right, mark: mark,
                          muted: locked || (item.price > s.coins && owned == 0), short: short(name))
        }
    }

    static func actions(_ t: inout NavActionTable) {
        t.moves()
        t.add(.select, .tab, hinted: !t.config.keys.names.keys.contains(.forward), rank: 1)
        t.add(.forward, .tab)
        if t.sel("item") != nil { t.add(.holdSelect, .command(.buy), rank: 0) }
        t.add(.back, .back)
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        switch input {
        case .previous, .next: nav.move(input)
        case .select, .forward:
            nav.ui.shopTab = (nav.ui.shopTab + 1) % NavRows.shopTabs.count
            nav.ui.cursor = 0; nav.ui.scroll = 0
        case .holdSelect:
            if let item = nav.selected("item") { return [.send(.shop(.buy(item: item)))] }
        case .back: nav.pop()
        default: break
        }
        return []
    }

    static func opened(_ ui: inout UIState, state: PetState?, now: Instant?) { ui.shopTab = 0 }
}

/// The shop's tabs and items (the navigator moves its cursor over them; `rows` labels them).
extension NavRows {
    // MARK: - Shop

    /// Shop tabs (`UIState.shopTab`): food, wearables, skins, home items (furniture, trinkets,
    /// backgrounds).
    public static let shopTabs = ["Food", "Wear", "Skins", "Home"]

    /// The catalogue items of a shop tab, in catalogue order.
    public static func shop(tab: Int, catalogue: Catalogue = .builtIn) -> [CatalogueItem] {
        let kinds: [ItemKind]
        switch tab {
        case 0: kinds = [.food]
        case 1: kinds = [.wearable]
        case 2: kinds = [.skin]
        default: kinds = [.furniture, .trinket, .background]
        }
        return catalogue.items.filter { item in item.itemKind.map(kinds.contains) ?? false }
    }
}

/// A catalogue item's picture in a small square (the shop's rows): its art — the hat, the plant,
/// the food — centred at the largest whole scale that fits (cropped to the square when even ×1
/// does not), a skin as a disc of its colour, a backdrop as its middle part. 1-bit displays use the
/// hand-drawn mono art in the row's ink.
enum ItemPicture {
    static func draw(_ id: String, _ ctx: ScreenContext, _ c: inout Canvas, in box: Rect, ink: RGB565, paper: RGB565) {
        guard let item = Catalogue.builtIn.item(id) else { return }
        let mono = ctx.profile.isMonochrome
        let (sheet, frame): (String, String)
        switch item.itemKind {
        case .wearable?: (sheet, frame) = ("wear-" + (item.slot ?? "hat"), id)
        case .furniture?, .trinket?: (sheet, frame) = ("home", id)
        case .background?: (sheet, frame) = ("backgrounds", id)
        case .food?: (sheet, frame) = PetScene.art("food", id, mono: mono, library: .builtIn) != nil ? ("food", id) : ("fx", "food")
        case .skin?:
            let colour = item.colour.flatMap { ArtLibrary.parseHex(Substring($0)) } ?? ink
            let r = box.w / 2 - 1
            if mono { c.strokeRect(x: box.x + 1, y: box.y + 1, w: box.w - 2, h: box.h - 2, color: ink) }
            else { c.fillCircle(cx: box.x + box.w / 2, cy: box.y + box.h / 2, radius: r, color: colour) }
            return
        case nil: return
        }
        guard let (s, f) = PetScene.art(sheet, frame, mono: mono, library: .builtIn), f.width > 0, f.height > 0,
              box.w > 0, box.h > 0 else { return }
        let paint: ArtPaint = mono ? .mono(ink: ink, paper: paper) : PetScene.paints(ctx).items
        if f.width > box.w || f.height > box.h {
            // Larger than the box at its own size (a bed or a rug in e-paper's 16×10, a lamp
            // beside the OLED's pet): reduced to fit whole, never cropped.
            var full = ArtRaster(width: f.width, height: f.height, fill: paper)
            full.draw(f, palette: ArtColours.resolve(s, paint), dither: ArtColours.dither(s, paint), x: f.origin.x, y: f.origin.y)
            let small = reduced(full, toFit: box, paper: paper)
            small.blit(into: &c, x: box.x + (box.w - small.width) / 2, y: box.y + (box.h - small.height) / 2, scale: 1, clip: box)
            return
        }
        let scale = max(1, min(box.w / f.width, box.h / f.height))
        let rw = box.w / scale, rh = box.h / scale
        var raster = ArtRaster(width: rw, height: rh, fill: paper)
        raster.draw(f, palette: ArtColours.resolve(s, paint), dither: ArtColours.dither(s, paint),
                    x: (rw - f.width) / 2 + f.origin.x, y: (rh - f.height) / 2 + f.origin.y)
        raster.blit(into: &c, x: box.x + (box.w - rw * scale) / 2, y: box.y + (box.h - rh * scale) / 2, scale: scale, clip: box)
    }

    /// `art` shrunk by one factor in both directions to the largest size inside `box`: each pixel
    /// takes the commonest colour other than `paper` among the art pixels it covers where at
    /// least half of them have one, else paper (so a dithered shelf stays grey-ish instead of a
    /// black block).
    static func reduced(_ art: ArtRaster, toFit box: Rect, paper: RGB565) -> ArtRaster {
        let sw = art.width, sh = art.height
        // The factor as a fraction: the tighter of box/art in each direction.
        let (num, den) = box.w * sh <= box.h * sw ? (box.w, sw) : (box.h, sh)
        let dw = max(1, min(box.w, sw * num / den)), dh = max(1, min(box.h, sh * num / den))
        var out = ArtRaster(width: dw, height: dh, fill: paper)
        var counts: [UInt16: Int] = [:]
        for dy in 0..<dh {
            let y0 = dy * sh / dh, y1 = max(y0 + 1, (dy + 1) * sh / dh)
            for dx in 0..<dw {
                let x0 = dx * sw / dw, x1 = max(x0 + 1, (dx + 1) * sw / dw)
                counts.removeAll(keepingCapacity: true)
                for y in y0..<y1 {
                    for x in x0..<x1 where art.pixels[y * sw + x] != paper.raw { counts[art.pixels[y * sw + x], default: 0] += 1 }
                }
                // Ink where at least half the pixels covered are (the commonest colour; between
                // equals the lower value, so the same art always gives the same pixels).
                let inked = counts.values.reduce(0, +)
                if 2 * inked >= (y1 - y0) * (x1 - x0),
                   let best = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }) {
                    out.pixels[dy * dw + dx] = best.key
                }
            }
        }
        return out
    }
}
