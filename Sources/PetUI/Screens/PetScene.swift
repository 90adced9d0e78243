import PetCore

/// The pet in its home: sprite for the mood and activity, wearables and skin as layers, home items
/// around it, animated by the clock. Art and format: art/*.txt, docs/art.md.
///
/// The scene is composed in art pixels on a 72×40 stage (floor at y = 36, the pet standing at
/// x = 36; home slots `left` x = 10, `middle` behind the pet (flat items under its feet), `right` x = 62, `shelf` on a shelf
/// top left), then scaled by a whole number and centred in the rect. When the rect is too small
/// for the whole stage at the pet-only scale, only the pet's 36×40 part is shown (28×28 in rects
/// smaller than that). The rect is
/// cleared (background or theme background) and nothing is drawn outside it.
public enum PetScene {
    public static let stageWidth = 72
    public static let stageHeight = 40
    public static let floorY = 36
    public static let petX = 36
    /// The part of the stage shown when only the pet fits.
    public static let petOnly = Rect(x: 18, y: 0, w: 36, h: 40)
    /// The part shown when even that does not fit at scale 1 (icons of ~28–35 px): the body and
    /// the lower part of a hat.
    public static let petTight = Rect(x: 22, y: 9, w: 28, h: 28)
    /// Where the home slots' items stand (their origin goes here).
    public static let slotAnchors: [String: ArtPoint] = [
        "left": ArtPoint(x: 10, y: 36), "middle": ArtPoint(x: 36, y: 36), "right": ArtPoint(x: 62, y: 36),
        "shelf": ArtPoint(x: 12, y: 10),
    ]
    static let shelfAnchor = ArtPoint(x: 12, y: 14)
    /// Items this high or less in the `middle` slot lie under the pet's feet instead of behind it.
    static let flatHeight = 5

    /// How the scene picks the part of the stage it shows.
    public enum Framing: Sendable, Hashable {
        /// The whole stage, or the pet's part larger (see the type's notes).
        case auto
        /// Everything there is — the pet with what it wears, every placed item, the backdrop's
        /// whole stage — as large as fits (the wardrobe's preview); `auto` when that cannot fit.
        case whole
        /// The pet's part of the stage (`petOnly`) as large as fits: the pet at its size on the
        /// focus screen and in moments; items that do not fit whole are left out.
        case pet
    }

    /// Draws the pet scene into `rect` at the context's instant (whole seconds).
    public static func draw(_ c: ScreenContext, in rect: Rect, _ canvas: inout Canvas, framing: Framing = .auto,
                            pose activity: PetActivity? = nil) {
        draw(c, in: rect, &canvas, ms: c.nowMs, framing: framing, pose: activity)
    }

    /// Draws the pet scene into `rect` at `ms` (milliseconds on the same clock as `c.now`).
    /// Only whole items are drawn: a home item, a wearable or an effect whose picture does not fit
    /// entirely inside the part of the stage the rect shows is left out (no slivers at the edge).
    /// With `activity`, the pet shows that pose (a moment's: dancing at a level-up, asleep on the
    /// night clock) from its first step at the context's whole second, whatever the state says.
    public static func draw(_ c: ScreenContext, in rect: Rect, _ canvas: inout Canvas, ms: Int64, framing: Framing = .auto,
                            pose activity: PetActivity? = nil) {
        guard let area = rect.intersection(canvas.bounds) else { return }
        let levelUp = c.ui.toasts.contains { $0.kind == .levelUp && $0.until >= c.now }
        let mood = c.state.mood(at: Instant(PetAnimator.floorDiv(ms, 1000))).rawValue
        let pose = activity.map {
            PetAnimator.pose(activity: $0, phaseMs: c.profile.animates ? ms - c.now.seconds &* 1000 + c.now.seconds % 60 * 1000 : 0,
                             mood: mood)
        } ?? PetAnimator.pose(c.state, at: ms, mood: mood, animates: c.profile.animates, levelUp: levelUp)
        let shop = c.state.shop
        let hasBackdrop = shop.worn[ShopRules.backgroundSlot] != nil
        let hasHome = !shop.placed.isEmpty || hasBackdrop
        let layers = self.layers(c, pose: pose)

        // Pick the stage part and the scale.
        let sFull = min(rect.w / stageWidth, rect.h / stageHeight)
        let sPet = min(rect.w / petOnly.w, rect.h / petOnly.h)
        var full = sFull >= 1 && (sFull >= sPet || (hasHome && sFull >= 2))
        var view = full ? Rect(x: 0, y: 0, w: stageWidth, h: stageHeight) : (sPet >= 1 ? petOnly : petTight)
        var scale = max(1, full ? sFull : sPet)
        if framing == .pet, sPet >= 1 {
            full = false; view = petOnly; scale = sPet
        }
        if framing == .whole {
            var box = hasBackdrop ? Rect(x: 0, y: 0, w: stageWidth, h: stageHeight) : floorBox(c)
            for l in layers where l.kind != .effect { box = box.union(l.box) }
            let s = min(rect.w / max(1, box.w), rect.h / max(1, box.h))
            if s >= 1 { view = box; scale = s; full = true }
        }

        // Stage point (sx, sy) lands on canvas pixel (px0 + sx·scale, py0 + sy·scale). The raster
        // covers the whole rect in art pixels, starting at stage point (sx0, sy0).
        let px0 = rect.x + (rect.w - view.w * scale) / 2 - view.x * scale
        let py0 = rect.y + (rect.h - view.h * scale) / 2 - view.y * scale
        let sx0 = Int(PetAnimator.floorDiv(Int64(rect.x - px0), Int64(scale)))
        let sy0 = Int(PetAnimator.floorDiv(Int64(rect.y - py0), Int64(scale)))
        let bx = px0 + sx0 * scale, by = py0 + sy0 * scale
        let rw = (rect.maxX - bx + scale - 1) / scale, rh = (rect.maxY - by + scale - 1) / scale
        let ox = -sx0, oy = -sy0

        // The stage pixels shown whole inside the (canvas-clipped) rect.
        let vx0 = Int(PetAnimator.floorDiv(Int64(area.x - px0 + scale - 1), Int64(scale)))
        let vy0 = Int(PetAnimator.floorDiv(Int64(area.y - py0 + scale - 1), Int64(scale)))
        let vx1 = Int(PetAnimator.floorDiv(Int64(area.maxX - px0), Int64(scale)))
        let vy1 = Int(PetAnimator.floorDiv(Int64(area.maxY - py0), Int64(scale)))
        let visible = Rect(x: vx0, y: vy0, w: vx1 - vx0, h: vy1 - vy0)

        // A part (`Canvas.part`) keyed by the pictures placed and where the scene lands: an
        // unchanged pose composes and draws nothing again.
        let key = SceneKey(layers: layers.map { SceneKey.Placed(sheet: $0.sheetName, frame: $0.frame.name, x: $0.x, y: $0.y, needs: $0.needs) },
                           colour: c.state.pet.colour, skin: shop.worn[ShopRules.skinSlot], backdrop: shop.worn[ShopRules.backgroundSlot],
                           geometry: [bx, by, rw, rh, ox, oy, scale, px0, py0], area: area, visible: visible)
        canvas.part("pet-scene", key) { canvas in
            var raster = ArtRaster(width: rw, height: rh, fill: c.theme.background)
            let drawn = compose(c, layers: layers, into: &raster, offsetX: ox, offsetY: oy, visible: visible)
            raster.blit(into: &canvas, x: bx, y: by, scale: scale, clip: area)
            canvas.dropSprites(coveredBy: area)
            for l in drawn {
                let b = l.box
                canvas.addSpriteRun(SpriteRun(name: l.sheetName + "/" + l.frame.name,
                                              rect: Rect(x: px0 + b.x * scale, y: py0 + b.y * scale, w: b.w * scale, h: b.h * scale),
                                              crop: area))
            }
        }
    }

    /// The pet scene's part key: every picture placed (sheet, frame, stage position), the pet's
    /// paint (colour, skin), the backdrop and where the raster lands; theme and display are the
    /// frame's context.
    struct SceneKey: Hashable, Sendable {
        struct Placed: Hashable, Sendable { var sheet: String; var frame: String; var x: Int; var y: Int; var needs: Rect? }
        var layers: [Placed]
        var colour: String
        var skin: String?
        var backdrop: String?
        var geometry: [Int]
        var area: Rect
        var visible: Rect
    }

    /// True when the context draws on a 1-bit display (hand-drawn `mono-*` art, ink and paper).
    static func isMono(_ c: ScreenContext) -> Bool { c.profile.isMonochrome || c.theme.isMono }

    /// The paint for this context: the pet's colours on colour displays, ink/paper on 1-bit ones.
    static func paints(_ c: ScreenContext) -> (pet: ArtPaint, items: ArtPaint) {
        if isMono(c) {
            let p = ArtPaint.mono(ink: c.theme.text, paper: c.theme.background)
            return (p, p)
        }
        let skinID = c.state.shop.worn[ShopRules.skinSlot]
        let skin = skinID.flatMap { Catalogue.builtIn.item($0)?.colour }
        return (.colour(roles: ArtColours.roles(colour: c.state.pet.colour, skin: skin)), .colour(roles: [:]))
    }

    /// A frame of a sheet: on 1-bit displays the hand-drawn one of `mono-SHEET` when there is one.
    static func art(_ sheet: String, _ frame: String, mono: Bool, library: ArtLibrary) -> (sheet: ArtSheet, frame: ArtFrame)? {
        if mono, let s = library.sheet("mono-" + sheet), let f = s.frame(frame) { return (s, f) }
        guard let s = library.sheet(sheet), let f = s.frame(frame) else { return nil }
        return (s, f)
    }

    /// One picture of the scene placed on the stage.
    struct Layer {
        enum Kind { case home, body, face, wear, effect }
        var kind: Kind
        var sheetName: String
        var sheet: ArtSheet
        var frame: ArtFrame
        /// Where the frame's origin goes, in stage pixels.
        var x: Int
        var y: Int
        var paint: ArtPaint
        /// What must be in view for it to be drawn (the shelf: itself and what stands on it).
        var needs: Rect? = nil
        /// The frame's drawn (non-transparent) pixels, in stage pixels.
        var box: Rect {
            let b = frame.opaqueBounds
            return Rect(x: x - frame.origin.x + b.x, y: y - frame.origin.y + b.y, w: b.w, h: b.h)
        }
    }

    /// The floor line of 1-bit displays (a colour display's shadow is narrower).
    static func floorBox(_ c: ScreenContext) -> Rect { Rect(x: petX - 13, y: floorY - 1, w: 26, h: 2) }

    /// Every picture of the scene in drawing order (home items, body, face, scarf, glasses, hat,
    /// effects), in stage pixels.
    static func layers(_ c: ScreenContext, pose: PetPose, library: ArtLibrary = .builtIn) -> [Layer] {
        let (petPaint, itemPaint) = paints(c)
        let mono = isMono(c)
        let shop = c.state.shop
        var out: [Layer] = []
        func add(_ kind: Layer.Kind, _ sheet: String, _ frame: String, _ x: Int, _ y: Int, _ paint: ArtPaint, flat: Bool = false) {
            guard let (s, f) = art(sheet, frame, mono: mono, library: library) else { return }
            // A flat item (a rug, a cushion) in the middle lies under the pet's feet, in view.
            let dy = flat && f.height <= flatHeight ? f.height - 1 : 0
            out.append(Layer(kind: kind, sheetName: sheet, sheet: s, frame: f, x: x, y: y + dy, paint: paint))
        }
        // Home items: the shelf (when something is on it), then the slots; the middle slot behind
        // the pet. The shelf is drawn only with its item (both in view).
        var shelfAt: Int? = nil
        if shop.placed["shelf"] != nil {
            add(.home, "home", "shelf", shelfAnchor.x, shelfAnchor.y, itemPaint)
            shelfAt = out.isEmpty ? nil : out.count - 1
        }
        for slot in ["shelf", "left", "right", "middle"] {
            // Slots the catalogue may add later stand nowhere yet (docs/art.md).
            guard let id = shop.placed[slot], let a = slotAnchors[slot] else { continue }
            let n = out.count
            add(.home, "home", id, a.x, a.y, itemPaint, flat: slot == "middle")
            if slot == "shelf", let s = shelfAt, out.count > n { out[s].needs = out[s].box.union(out[n].box) }
        }
        // The pet: body, face, scarf, glasses, hat; then the effects.
        guard let (_, body) = art("body", pose.body, mono: mono, library: library) ?? art("body", "stand", mono: mono, library: library) else {
            return out
        }
        let ay = floorY + pose.dy
        add(.body, "body", body.name, petX, ay, petPaint)
        let top = ArtPoint(x: petX - body.origin.x, y: ay - body.origin.y)
        func at(_ point: String) -> ArtPoint? {
            body.points[point].map { ArtPoint(x: top.x + $0.x, y: top.y + $0.y) }
        }
        if let p = at("face") {
            let face = art("faces", pose.face, mono: mono, library: library) != nil ? pose.face : "content"
            add(.face, "faces", face, p.x, p.y, petPaint)
        }
        for (slot, sheet, point) in [("scarf", "wear-scarf", "neck"), ("glasses", "wear-glasses", "eyes"), ("hat", "wear-hat", "hat")] {
            guard let id = shop.worn[slot], let p = at(point) else { continue }
            add(.wear, sheet, id, p.x, p.y, itemPaint)
        }
        for e in pose.effects { add(.effect, "fx", e.name, petX + e.x, floorY + e.y, itemPaint) }
        return out
    }

    /// Draws the background and `layers` into `raster`, with stage (0, 0) at raster (offsetX,
    /// offsetY). With `visible` (stage pixels), a home item, wearable or effect not wholly inside
    /// it is left out. Returns the layers drawn.
    @discardableResult
    static func compose(_ c: ScreenContext, layers: [Layer], into raster: inout ArtRaster, offsetX: Int, offsetY: Int,
                        visible: Rect? = nil, library: ArtLibrary = .builtIn) -> [Layer] {
        let (_, itemPaint) = paints(c)
        let shop = c.state.shop

        // Background: the worn backdrop's strip repeated across, its top and bottom rows extended.
        if let bgID = shop.worn[ShopRules.backgroundSlot],
           let (sheet, strip) = art("backgrounds", bgID, mono: isMono(c), library: library), strip.width > 0, strip.height > 0 {
            let pal = ArtColours.resolve(sheet, itemPaint)
            let dither = ArtColours.dither(sheet, itemPaint)
            for y in 0..<raster.height {
                let sy = min(max(y - offsetY, 0), strip.height - 1)
                for x in 0..<raster.width {
                    var sx = (x - offsetX) % strip.width
                    if sx < 0 { sx += strip.width }
                    let i = strip.cells[sy * strip.width + sx]
                    guard i != ArtFrame.transparent, Int(i) < pal.count, let col = pal[Int(i)] else { continue }
                    if let d = dither, (d.masks[Int(i)] >> UInt16((sy & 3) * 4 + (sx & 3))) & 1 == 1 {
                        raster.pixels[y * raster.width + x] = d.ink
                    } else {
                        raster.pixels[y * raster.width + x] = col
                    }
                }
            }
        } else if case .colour = itemPaint {
            // No backdrop: a soft shadow under the pet.
            let shadow = c.theme.track
            raster.fillRect(x: offsetX + petX - 9, y: offsetY + floorY - 1, w: 18, h: 2, shadow)
            raster.fillRect(x: offsetX + petX - 12, y: offsetY + floorY, w: 24, h: 1, shadow)
            raster.fillRect(x: offsetX + petX - 7, y: offsetY + floorY + 1, w: 14, h: 1, shadow)
        } else {
            // 1-bit: a floor line.
            raster.fillRect(x: offsetX + petX - 13, y: offsetY + floorY, w: 26, h: 1, c.theme.text)
        }

        var drawn: [Layer] = []
        for l in layers {
            if let v = visible, l.kind != .body, l.kind != .face, !v.contains(l.needs ?? l.box) { continue }
            raster.draw(l.frame, palette: ArtColours.resolve(l.sheet, l.paint), dither: ArtColours.dither(l.sheet, l.paint),
                        x: offsetX + l.x, y: offsetY + l.y)
            drawn.append(l)
        }
        return drawn
    }

    /// Draws the whole scene for `pose` into `raster` (every layer, no crop), with stage (0, 0) at
    /// raster (offsetX, offsetY).
    public static func compose(_ c: ScreenContext, pose: PetPose, into raster: inout ArtRaster, offsetX: Int, offsetY: Int,
                               library: ArtLibrary = .builtIn) {
        compose(c, layers: layers(c, pose: pose, library: library), into: &raster, offsetX: offsetX, offsetY: offsetY,
                library: library)
    }
}

/// A sprite the pet scene drew: its whole picture on the canvas (`rect`, which may reach outside
/// the canvas only if it was clipped) and the crop it was drawn in. `name` is "SHEET/FRAME".
public struct SpriteRun: Hashable, Sendable {
    public var name: String
    public var rect: Rect
    public var crop: Rect
}
