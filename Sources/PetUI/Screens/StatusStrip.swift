import PetCore

// StatusStrip.swift — what the home screen shows about the device and the pet's needs (docs/screens.md,
// item 5): the status icon strip (phone link, quiet hours, mute, paused, battery), the need meters
// (fullness, energy) and the attention signal (a small "!" bubble when the pet wants something).

/// What the device knows that the pet's state does not: fed by the device loop (the link's
/// clients, the board's power supply) and set by the simulator for scenarios and golden frames.
public struct DeviceStatus: Sendable, Equatable {
    /// A phone is connected on the link (BLE or socket).
    public var linkConnected: Bool
    /// The battery's charge (0...100), nil when the board has no power-supply reading.
    public var batteryPercent: Int?

    public init(linkConnected: Bool = false, batteryPercent: Int? = nil) {
        self.linkConnected = linkConnected
        self.batteryPercent = batteryPercent.map { min(100, max(0, $0)) }
    }
}

/// One icon of the status strip.
enum StatusIcon: Hashable {
    case link, quiet, mute, paused
    case battery(Int)

    /// The icons to show, in strip order: the link, quiet hours, mute, paused, the battery.
    static func icons(_ s: PetState, _ d: DeviceStatus, now: Instant) -> [StatusIcon] {
        var out: [StatusIcon] = []
        if d.linkConnected { out.append(.link) }
        if s.quiet.contains(minuteOfDay: s.clock.local(now).secondOfDay / 60) { out.append(.quiet) }
        if !s.device.sound { out.append(.mute) }
        if s.paused { out.append(.paused) }
        if let b = d.batteryPercent { out.append(.battery(b)) }
        return out
    }
}

/// Why the pet shows its "!" bubble. Never a punishment: a hint of what would please it.
enum Attention: Hashable {
    case hungry, tired, taskDue

    /// Fullness under this is hungry.
    static let hungryBelow = 30
    /// Energy under this is tired.
    static let tiredBelow = 25

    /// What the pet wants at `now`, nil when nothing (and always nil while paused or asleep).
    static func of(_ s: PetState, now: Instant) -> Attention? {
        if s.isAsleep(at: now) { return nil }
        let n = s.needs(at: now)
        if n.fullness < hungryBelow { return .hungry }
        if n.energy < tiredBelow { return .tired }
        if let due = s.nextTask?.due, due <= now { return .taskDue }
        return nil
    }

    var glyph: Character {
        switch self {
        case .hungry: Glyph.food
        case .tired: Glyph.energy
        case .taskDue: Glyph.bell
        }
    }
}

enum StatusStrip {
    /// Draws `icons` right-aligned so the last ends at `right`, in `f` (the canvas's minimum face
    /// at least); returns the left edge (`right` when there is nothing to draw). Icons that would
    /// cross `left` are left out from the start of the strip.
    @discardableResult
    static func draw(_ l: Look, _ c: inout Canvas, _ icons: [StatusIcon], right: Int, left: Int, y: Int, _ f: TextSize,
                     ink: RGB565, paper: RGB565) -> Int {
        let f = Txt.legible(f, on: c)
        let k = f == .large ? 2 : 1
        // Blank columns between icons (docs/design.md, "The icon set"), so a phone and a moon, or
        // a muted speaker and the pause bars, never read as one shape.
        // Two blank columns where every icon fits that way, else one and a half, else one (every
        // icon on at once on the 240×240: the link, the moon, the muted speaker, the bars and the
        // battery still all show).
        let total = icons.reduce(0) { $0 + width($1, f) }
        let gaps = max(0, icons.count - 1)
        let gap = [4 * k, 3 * k].first { total + $0 * gaps <= right - left } ?? 2 * k
        let top = y + (f.height - 8 * k) / 2
        var x = right
        for icon in icons.reversed() {
            let w = width(icon, f)
            guard x - w >= left else { break }
            x -= w
            drawIcon(&c, icon, x: x, y: top, k: k, ink: ink)
            x -= gap
        }
        return x == right ? right : x + gap
    }

    /// The status icons' bitmaps (8 rows, `X` = ink), drawn at ×1 in 6×8 text and ×2 in 12×16.
    static func bitmap(_ icon: StatusIcon) -> [String] {
        switch icon {
        case .link:      // a phone with its screen and button
            ["XXXXX", "X...X", "X...X", "X...X", "X...X", "XXXXX", "XX.XX", "XXXXX"]
        case .quiet:     // a crescent moon
            ["..XX...", ".XXX...", "XXX....", "XXX....", "XXX...X", "XXXX.XX", ".XXXXX.", "..XXX.."]
        case .mute:      // a speaker with a cross: sound off
            ["..X.....", ".XX.....", "XXX.X..X", "XXX..XX.", "XXX..XX.", "XXX.X..X", ".XX.....", "..X....."]
        case .paused:    // two bars
            ["XX.XX", "XX.XX", "XX.XX", "XX.XX", "XX.XX", "XX.XX", "XX.XX", "XX.XX"]
        case .battery:   // drawn with its charge (`drawIcon`)
            []
        }
    }

    static func width(_ icon: StatusIcon, _ f: TextSize) -> Int {
        let k = f == .large ? 2 : 1
        if case .battery = icon { return 11 * k }
        return (bitmap(icon).first?.count ?? 5) * k
    }

    /// The name an icon is recorded under in the canvas's sprite record ("status/link"), so tests
    /// and scenarios can tell which icons show.
    static func name(_ icon: StatusIcon) -> String {
        switch icon {
        case .link: "status/link"
        case .quiet: "status/quiet"
        case .mute: "status/mute"
        case .paused: "status/paused"
        case .battery: "status/battery"
        }
    }

    static func drawIcon(_ c: inout Canvas, _ icon: StatusIcon, x: Int, y: Int, k: Int, ink: RGB565) {
        let box = Rect(x: x, y: y, w: (bitmap(icon).first?.count ?? 11) * k, h: 8 * k)
        c.addSpriteRun(SpriteRun(name: name(icon), rect: box, crop: box))
        if case .battery(let pct) = icon {
            // An outline with a nub on the right and a fill for the charge.
            let w = 10 * k, h = 6 * k, top = y + k
            c.strokeRect(x: x, y: top, w: w, h: h, color: ink, thickness: k)
            c.fillRect(x: x + w, y: top + 2 * k, w: k, h: h - 4 * k, color: ink)
            let inner = w - 4 * k
            let fill = pct <= 0 ? 0 : max(k, (inner * min(100, pct) + 50) / 100)
            if fill > 0 { c.fillRect(x: x + 2 * k, y: top + 2 * k, w: fill, h: h - 4 * k, color: ink) }
            return
        }
        for (r, line) in bitmap(icon).enumerated() {
            for (col, ch) in line.enumerated() where ch == "X" {
                c.fillRect(x: x + col * k, y: y + r * k, w: k, h: k, color: ink)
            }
        }
    }

    /// A need meter: its icon, then a bar of `value` (0...100) to `x + w`.
    static func meter(_ l: Look, _ c: inout Canvas, _ glyph: Character, _ value: Int, x: Int, y: Int, w: Int,
                      _ f: TextSize, barHeight: Int) {
        let f = Txt.legible(f, on: c)
        Txt.draw(&c, String(glyph), x: x, y: y, l.pal.fg, f)
        let bx = x + f.advance + (f == .large ? 2 : 1)
        let by = y + (f.height - (f == .large ? 4 : 1) - barHeight) / 2
        l.bar(&c, Rect(x: bx, y: by, w: x + w - bx, h: barHeight), Double(min(100, max(0, value))) / 100, outlined: true)
    }

    /// The attention bubble at (x, y): "!" and the need's icon, in a small filled box with a tail
    /// towards the pet (down-left). Steady, not blinking: a gentle hint, and no extra frames.
    static func attention(_ l: Look, _ c: inout Canvas, _ a: Attention, right: Int, y: Int, _ f: TextSize) {
        let f = Txt.legible(f, on: c)
        let text = "!" + String(a.glyph)
        let pad = f == .large ? 4 : 2
        let w = Txt.width(text, f) + 2 * pad - (f == .large ? 2 : 1), h = f.height + 2 * pad - (f == .large ? 2 : 1)
        let x = right - w
        let fill = l.pal.mono ? l.pal.fg : l.pal.accent
        let ink = l.pal.mono ? l.pal.bg : l.pal.onAccent
        if l.pal.mono {
            c.fillRect(x: x - 1, y: y - 1, w: w + 2, h: h + 2, color: l.pal.bg)
            c.fillRect(x: x, y: y, w: w, h: h, color: fill)
        } else {
            c.fillRoundedRect(x: x - 1, y: y - 1, w: w + 2, h: h + 2, radius: 6, color: l.pal.bg)
            c.fillRoundedRect(x: x, y: y, w: w, h: h, radius: 5, color: fill)
        }
        // The tail: a few pixels stepping down-left from the bottom-left corner.
        let t = f == .large ? 4 : 2
        for i in 0..<t { c.hline(x: x + 2 - i, y: y + h + i, w: t - i, color: fill) }
        Txt.draw(&c, text, x: x + pad, y: y + pad, ink, f)
    }
}
