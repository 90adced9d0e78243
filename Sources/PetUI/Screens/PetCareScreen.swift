import PetCore

/// Pet care: how the pet is (fullness, energy, mood, age, level) beside it at its size, and two
/// things to do for it: feed (a serving of the first food it owns) and play (a petting).
enum PetCareScreen {
    /// The first food the pet owns (what "Feed" gives), with its servings.
    static func food(_ s: PetState) -> (id: String, name: String, servings: Int)? {
        for row in NavRows.wardrobe(s) {
            if case .food(let n) = row.kind { return (row.item, Catalogue.builtIn.item(row.item)?.name ?? row.item, n) }
        }
        return nil
    }

    /// Days since the pet was made (its first day is day 1).
    static func ageDays(_ s: PetState, now: Instant) -> Int { max(1, Int((now - s.createdAt) / Seconds.day) + 1) }

    static func render(_ c: ScreenContext, _ canvas: inout Canvas) {
        let l = Look(c)
        l.begin(&canvas)
        let s = c.state
        let p = l.pal
        l.header(&canvas, l.size == .tiny ? s.pet.name : s.pet.name + ", Lv \(s.level)")
        let area = l.content
        let needs = s.needs(at: c.now)
        let mood = s.mood(at: c.now).rawValue
        let age = ageDays(s, now: c.now)
        let list = c.view.list ?? ListView(rows: [], selected: nil, first: 0, visible: 1)
        let frame = ListLayout.frame(.petCare, profile: c.profile, state: s, now: c.now)
        // A meter: label, bar; the empty part of the bar stays visible (its track).
        func meter(_ label: String, _ value: Int, x: Int, y: Int, w: Int, labelW: Int, face: TextSize, barH: Int) {
            Txt.draw(&canvas, label, x: x, y: y, p.fg, face, maxWidth: labelW - 2)
            let by = y + (face.height - barH) / 2
            l.bar(&canvas, Rect(x: x + labelW, y: by, w: w - labelW, h: barH), Double(value) / 100)
        }
        switch l.size {
        case .square, .wide:
            let pw = l.size == .wide ? 128 : 100
            let pet = Rect(x: 6, y: area.y + 4, w: pw, h: 100)
            HomeView.petFrame(l, &canvas, pet, framing: .pet)
            let x = pet.maxX + 8, w = l.W - x - 8
            var y = area.y + 6
            meter(String(Glyph.food), needs.fullness, x: x, y: y, w: w, labelW: 18, face: .large, barH: 10); y += 20
            meter(String(Glyph.energy), needs.energy, x: x, y: y, w: w, labelW: 18, face: .large, barH: 10); y += 22
            // "Mood: content" and "Age: 22 days" on the wide panel; the words alone on the square's column.
            let wide = l.size == .wide
            Txt.draw(&canvas, (wide ? "Mood: " : "") + mood, x: x, y: y, p.fg, .large, maxWidth: w); y += 20
            Txt.draw(&canvas, wide ? "Age: \(age) day" + (age == 1 ? "" : "s") : "Day \(age)", x: x, y: y, p.muted, .large, maxWidth: w)
        case .paper:
            let pet = Rect(x: 2, y: area.y + 2, w: 80, h: l.bottom - area.y - 4)
            HomeView.petFrame(l, &canvas, pet, framing: .pet)
            let x = pet.maxX + 6, w = l.W - x - 4
            var y = area.y + 3
            meter("Food", needs.fullness, x: x, y: y, w: w, labelW: 40, face: .small, barH: 7); y += 11
            meter("Energy", needs.energy, x: x, y: y, w: w, labelW: 40, face: .small, barH: 7); y += 11
            Txt.draw(&canvas, "Mood: \(mood), age \(age)d", x: x, y: y, p.fg, .small, maxWidth: w)
        case .tiny:
            PetScene.draw(c, in: Rect(x: 0, y: area.y + 1, w: 36, h: min(40, l.bottom - area.y - 1)), &canvas, framing: .pet)
            let x = 39, w = l.W - x - 1
            // Two meters and a line above the two actions (which start at 64 − 8 − 18 = 38).
            meter(String(Glyph.food), needs.fullness, x: x, y: area.y, w: w, labelW: 9, face: .small, barH: 6)
            meter(String(Glyph.energy), needs.energy, x: x, y: area.y + 9, w: w, labelW: 9, face: .small, barH: 6)
            Txt.draw(&canvas, "\(mood) Lv\(s.level)", x: x, y: area.y + 18, p.fg, .small, maxWidth: w)
        }
        if let frame { l.list(&canvas, list, frame: frame) }
    }
}

extension PetCareScreen: ScreenDefinition {
    static let title = "Pet care"
    static let icon = [
        "..........",
        ".XX....XX.",
        ".XXX..XXX.",
        ".XXXXXXXX.",
        "XXXXXXXXXX",
        "XX.XXXX.XX",
        "XXXXXXXXXX",
        "XXXX..XXXX",
        ".XXXXXXXX.",
        ".XX....XX."]

    /// The two care actions, beside or under the status.
    static func listFrame(_ m: ListLayout.Metrics, profile: DisplayProfile, state: PetState, now: Instant) -> ListFrame? {
        let content = m.content, hints = HintBar.height(profile), rh = m.rowHeight
        switch m.size {
        case .square:
            let top = content.y + 4 + 100 + 4
            return ListFrame(area: Rect(x: 0, y: top, w: m.W, h: min(2 * rh, m.H - hints - top)), rowHeight: rh)
        case .wide:
            let top = content.y + 4 + 100 + 6
            return ListFrame(area: Rect(x: 0, y: top, w: m.W, h: min(2 * rh, m.H - hints - top)), rowHeight: rh)
        case .paper:
            let x = 88, top = m.H - hints - 2 * rh - 2
            return ListFrame(area: Rect(x: x, y: top, w: m.W - x, h: 2 * rh), rowHeight: rh)
        case .tiny:
            let top = m.H - hints - 2 * rh
            return ListFrame(area: Rect(x: 38, y: top, w: m.W - 38, h: 2 * rh), rowHeight: rh)
        }
    }

    /// Feed (with the food it gives and how many servings are left, or where food comes from) and play.
    static func rows(ui: UIState, state s: PetState, now: Instant, config: Navigator.Config) -> [NavRow] {
        let tiny = config.profile.sizeClass == .tiny
        let feed: NavRow
        if let f = food(s) {
            feed = NavRow(id: "care:feed", label: tiny ? "Feed" : "Feed " + f.name, value: "x\(f.servings)",
                          mark: .glyph(Glyph.food))
        } else {
            feed = NavRow(id: "care:feed", label: tiny ? "No food" : "No food: see the shop", mark: .glyph(Glyph.food), muted: true)
        }
        return [feed, NavRow(id: "care:play", label: "Play", mark: .glyph(Glyph.heart))]
    }

    static func actions(_ t: inout NavActionTable) {
        t.moves()
        switch t.sel("care") {
        case "feed": if food(t.state) != nil { t.add(.select, .command(.feed), rank: 0) }
        case "play": t.add(.select, .command(.pet), rank: 0)
        default: break
        }
        t.add(.back, .back)
    }

    static func input(_ input: NavInput, nav: inout Navigator, state: PetState, now: Instant) -> [NavEffect] {
        switch input {
        case .previous, .next: nav.move(input)
        case .select:
            switch nav.selected("care") {
            case "feed": if let f = food(state) { return [.send(.shop(.feed(item: f.id)))] }
            case "play": return [.send(.petThePet)]
            default: break
            }
        case .back: nav.pop()
        default: break
        }
        return []
    }
}
