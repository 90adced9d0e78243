import PetCore

/// A moment: one thing said with the whole display — the pet in a pose, a headline, an optional
/// big figure ("Level 9", "+12"), and a few short lines. Celebrations (Overlays), a finished
/// focus session, the urge log's confirmation, pairing results, the first run's steps, the device
/// states (night, link lost, low battery) and the recovery screen are all drawn by it, so every
/// one of them is laid out the same way on every display (docs/design.md, "The pet's poses").
struct Moment {
    /// The headline (large face on every display but the OLED).
    var title: String
    /// A figure drawn large under the headline (a level, a reward, a clock), or nil.
    var figure: String? = nil
    /// What it means, one short sentence per line (wrapped; at most two lines each on the OLED).
    var lines: [String] = []
    /// The pet's pose (nil: what the state says it is doing).
    var pose: PetActivity? = nil
    /// Draw the pet at all (the recovery screen shows none: nothing of the state is trusted).
    var showsPet = true
}

enum MomentView {
    /// Where the moment's pet stands on a display: room for the pet's part of the stage at ×2
    /// (×1 on the OLED, where a 36×40 pet is a third of the height) — never smaller.
    static func petRect(_ l: Look, area: Rect) -> Rect {
        switch l.size {
        case .square: return Rect(x: (l.W - 108) / 2, y: area.y + 4, w: 108, h: 84)
        case .wide: return Rect(x: 12, y: area.y + (area.h - 124) / 2, w: 112, h: 124)
        case .paper: return Rect(x: 2, y: area.y + max(0, (area.h - 82) / 2), w: 76, h: min(82, area.h))
        case .tiny: return Rect(x: 0, y: area.y + max(0, (area.h - 40) / 2), w: 36, h: min(40, area.h))
        }
    }

    /// Draws `m` in `area` (the screen below its header and above its hint strip, or the whole
    /// display for an overlay). Text wraps inside its column; nothing is drawn outside `area`.
    static func draw(_ l: Look, _ c: inout Canvas, _ m: Moment, area: Rect) {
        let p = l.pal
        var pet = petRect(l, area: area)
        // On the square the pet stands ×3 when the words still fit whole under it, with a margin.
        if l.size == .square, m.showsPet, area.h - 130 - 4 - 12 >= needed(l, m, width: l.W - 16) {
            pet = Rect(x: (l.W - 162) / 2, y: area.y + 4, w: 162, h: 126)
        }
        if m.showsPet {
            PetScene.draw(l.ctx, in: pet, &c, framing: .pet, pose: m.pose)
        }
        // The text column: beside the pet on wide, e-paper and OLED, under it on the square.
        let col: Rect
        switch l.size {
        case .square: col = m.showsPet ? Rect(x: 8, y: pet.maxY + 4, w: l.W - 16, h: area.maxY - pet.maxY - 4)
                                       : Rect(x: 8, y: area.y + 4, w: l.W - 16, h: area.h - 4)
        case .wide: col = m.showsPet ? Rect(x: pet.maxX + 8, y: area.y + 4, w: l.W - pet.maxX - 16, h: area.h - 8)
                                     : Rect(x: 12, y: area.y + 4, w: l.W - 24, h: area.h - 8)
        case .paper: col = m.showsPet ? Rect(x: pet.maxX + 4, y: area.y + 2, w: l.W - pet.maxX - 8, h: area.h - 4)
                                      : Rect(x: 4, y: area.y + 2, w: l.W - 8, h: area.h - 4)
        case .tiny: col = m.showsPet ? Rect(x: pet.maxX + 2, y: area.y, w: l.W - pet.maxX - 3, h: area.h)
                                     : Rect(x: 2, y: area.y, w: l.W - 4, h: area.h)
        }
        let centred = l.size == .square
        let titleFace: TextSize = l.size == .tiny ? .small : .large
        let bodyFace: TextSize = l.big ? .large : .small
        let gap = l.big ? 6 : (l.size == .paper ? 3 : 1)
        // Lay out first (heights), then centre the block vertically in the column.
        let titleLines = min(2, Txt.lineCount(m.title, titleFace, width: col.w))
        var blockH = titleLines * (titleFace.height + 2) - 2
        var figureScale = 0
        if let f = m.figure {
            figureScale = l.size == .tiny ? 1 : (l.size == .paper ? 2 : 3)
            while figureScale > 1 && Font.textWidth(f, face: .large, scale: figureScale) > col.w { figureScale -= 1 }
            blockH += gap + FontFace.large.cellHeight * figureScale
        }
        let perLine = l.size == .tiny ? 2 : (l.size == .paper ? 3 : 4)
        var bodyLines: [Int] = []
        var room = col.h - blockH
        for s in m.lines {
            let n = min(perLine, Txt.lineCount(s, bodyFace, width: col.w))
            let h = gap + n * (bodyFace.height + 2) - 2
            guard h <= room, n > 0 else { break }
            bodyLines.append(n); room -= h; blockH += h
        }
        var y = col.y + max(0, (col.h - blockH) / 2)
        y += centred && titleLines == Txt.lineCount(m.title, titleFace, width: col.w)
            ? Txt.drawWrapped(&c, m.title, x: col.x, y: y, width: col.w, maxLines: titleLines, p.fg, titleFace, centred: true)
            : Txt.flow(&c, m.title, x: col.x, y: y, width: col.w, maxLines: titleLines, p.fg, titleFace, ms: l.ms)
        if let f = m.figure {
            y += gap
            let tw = Font.textWidth(f, face: .large, scale: figureScale)
            let fx = centred ? col.x + (col.w - tw) / 2 : col.x
            c.drawText(f, x: fx, y: y, color: p.fg, face: .large, scale: figureScale, maxWidth: col.w)
            y += FontFace.large.cellHeight * figureScale
        }
        for (s, n) in zip(m.lines, bodyLines) {
            y += gap
            // Whole lines wrap (centred on the square); a line longer than its room scrolls on its
            // last line (ends in "..." on e-paper), so every word can be read.
            y += centred && n == Txt.lineCount(s, bodyFace, width: col.w)
                ? Txt.drawWrapped(&c, s, x: col.x, y: y, width: col.w, maxLines: n, p.muted, bodyFace, centred: true)
                : Txt.flow(&c, s, x: col.x, y: y, width: col.w, maxLines: n, p.muted, bodyFace, ms: l.ms)
        }
    }

    /// The height `m`'s words take in a column `width` wide with room for all of them (as `draw`
    /// lays them out on the square).
    static func needed(_ l: Look, _ m: Moment, width: Int) -> Int {
        let titleFace: TextSize = .large, bodyFace: TextSize = .large, gap = 6
        var h = min(2, Txt.lineCount(m.title, titleFace, width: width)) * (titleFace.height + 2) - 2
        if let f = m.figure {
            var scale = 3
            while scale > 1 && Font.textWidth(f, face: .large, scale: scale) > width { scale -= 1 }
            h += gap + FontFace.large.cellHeight * scale
        }
        for line in m.lines {
            let n = min(4, Txt.lineCount(line, bodyFace, width: width))
            if n > 0 { h += gap + n * (bodyFace.height + 2) - 2 }
        }
        return h
    }

    /// A moment over the whole display, as an overlay: the screen under it is cleared first.
    static func full(_ l: Look, _ c: inout Canvas, _ m: Moment, hints: Bool) {
        let h = hints ? HintBar.height(l.ctx.profile) : 0
        c.fillRect(x: 0, y: 0, w: l.W, h: l.H - h, color: l.pal.bg)
        c.textRuns.removeAll { $0.rect.maxY <= l.H - h }
        if !l.pal.mono { c.fillRect(x: 0, y: 0, w: l.W, h: l.big ? 6 : 3, color: l.pal.accent) }
        let top = l.pal.mono ? 0 : (l.big ? 6 : 3)
        draw(l, &c, m, area: Rect(x: 0, y: top + (l.big ? 4 : 1), w: l.W, h: l.H - h - top - (l.big ? 8 : 2)))
    }
}
