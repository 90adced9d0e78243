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

    /// Draws the pet scene into `rect` at the context's instant (whole seconds).
    public static func draw(_ c: ScreenContext, in rect: Rect, _ canvas: inout Canvas) {
        draw(c, in: rect, &canvas, ms: c.nowMs)
    }

    /// Draws the pet scene into `rect` at `ms` (milliseconds on the same clock as `c.now`).
    public static func draw(_ c: ScreenContext, in rect: Rect, _ canvas: inout Canvas, ms: Int64) {
        guard let area = rect.intersection(canvas.bounds) else { return }
        let levelUp = c.ui.toasts.contains { $0.kind == .levelUp && $0.until >= c.now }
        let mood = c.state.mood(at: Instant(PetAnimator.floorDiv(ms, 1000))).rawValue
        let pose = PetAnimator.pose(c.state, at: ms, mood: mood, animates: c.profile.animates, levelUp: levelUp)
        let hasHome = !c.state.shop.placed.isEmpty || c.state.shop.worn[ShopRules.backgroundSlot] != nil

        // Pick the stage part and the scale.
        let sFull = min(rect.w / stageWidth, rect.h / stageHeight)
        let sPet = min(rect.w / petOnly.w, rect.h / petOnly.h)
        let full = sFull >= 1 && (sFull >= sPet || (hasHome && sFull >= 2))
        let view = full ? Rect(x: 0, y: 0, w: stageWidth, h: stageHeight) : (sPet >= 1 ? petOnly : petTight)
        let scale = max(1, full ? sFull : sPet)

        // Stage point (sx, sy) lands on canvas pixel (px0 + sx·scale, py0 + sy·scale). The raster
        // covers the whole rect in art pixels, starting at stage point (sx0, sy0).
        let px0 = rect.x + (rect.w - view.w * scale) / 2 - view.x * scale
        let py0 = rect.y + (rect.h - view.h * scale) / 2 - view.y * scale
        let sx0 = Int(PetAnimator.floorDiv(Int64(rect.x - px0), Int64(scale)))
        let sy0 = Int(PetAnimator.floorDiv(Int64(rect.y - py0), Int64(scale)))
        let bx = px0 + sx0 * scale, by = py0 + sy0 * scale
        let rw = (rect.maxX - bx + scale - 1) / scale, rh = (rect.maxY - by + scale - 1) / scale
        var raster = ArtRaster(width: rw, height: rh, fill: c.theme.background)
        let ox = -sx0, oy = -sy0

        compose(c, pose: pose, into: &raster, offsetX: ox, offsetY: oy)
        raster.blit(into: &canvas, x: bx, y: by, scale: scale, clip: area)
    }

    /// The paint for this context: the pet's colours on colour displays, ink/paper on 1-bit ones.
    static func paints(_ c: ScreenContext) -> (pet: ArtPaint, items: ArtPaint) {
        if c.profile.isMonochrome || c.theme.isMono {
            let p = ArtPaint.mono(ink: c.theme.text, paper: c.theme.background)
            return (p, p)
        }
        let skinID = c.state.shop.worn[ShopRules.skinSlot]
        let skin = skinID.flatMap { Catalogue.builtIn.item($0)?.colour }
        return (.colour(roles: ArtColours.roles(colour: c.state.pet.colour, skin: skin)), .colour(roles: [:]))
    }

    /// Draws background, home items, the pet with its wearables and the effects into `raster`,
    /// with stage (0, 0) at raster (offsetX, offsetY).
    public static func compose(_ c: ScreenContext, pose: PetPose, into raster: inout ArtRaster, offsetX: Int, offsetY: Int,
                               library: ArtLibrary = .builtIn) {
        let (petPaint, itemPaint) = paints(c)
        let shop = c.state.shop

        // Background: the worn backdrop's strip repeated across, its top and bottom rows extended.
        if let bgID = shop.worn[ShopRules.backgroundSlot], let sheet = library.sheet("backgrounds"),
           let strip = sheet.frame(bgID), strip.width > 0, strip.height > 0 {
            let pal = ArtColours.resolve(sheet, itemPaint)
            for y in 0..<raster.height {
                let sy = min(max(y - offsetY, 0), strip.height - 1)
                for x in 0..<raster.width {
                    var sx = (x - offsetX) % strip.width
                    if sx < 0 { sx += strip.width }
                    let i = strip.cells[sy * strip.width + sx]
                    if i != ArtFrame.transparent, Int(i) < pal.count, let col = pal[Int(i)] { raster.pixels[y * raster.width + x] = col }
                }
            }
        } else if case .colour = itemPaint {
            // No backdrop: a soft shadow under the pet.
            let shadow = c.theme.track
            raster.fillRect(x: offsetX + petX - 9, y: offsetY + floorY - 1, w: 18, h: 2, shadow)
            raster.fillRect(x: offsetX + petX - 12, y: offsetY + floorY, w: 24, h: 1, shadow)
            raster.fillRect(x: offsetX + petX - 7, y: offsetY + floorY + 1, w: 14, h: 1, shadow)
        } else {
            raster.fillRect(x: offsetX + petX - 13, y: offsetY + floorY, w: 26, h: 1, c.theme.text)
        }

        // Home items: the middle slot behind the pet, then the others.
        if let home = library.sheet("home") {
            let pal = ArtColours.resolve(home, itemPaint)
            if shop.placed["shelf"] != nil, let shelf = home.frame("shelf") {
                raster.draw(shelf, palette: pal, x: offsetX + shelfAnchor.x, y: offsetY + shelfAnchor.y)
            }
            for slot in ["shelf", "left", "right", "middle"] {
                guard let id = shop.placed[slot], let f = home.frame(id), var a = slotAnchors[slot] else { continue }
                // A flat item (a rug, a cushion) in the middle lies under the pet's feet, in view.
                if slot == "middle" && f.height <= flatHeight { a.y += f.height - 1 }
                raster.draw(f, palette: pal, x: offsetX + a.x, y: offsetY + a.y)
            }
            // Slots the catalogue may add later stand nowhere yet (docs/art.md).
        }

        drawPet(c, pose: pose, into: &raster, x: offsetX + petX, y: offsetY + floorY, petPaint: petPaint, itemPaint: itemPaint, library: library)
    }

    /// The pet (body, face, scarf, glasses, hat) standing at (x, y), then the pose's effects.
    public static func drawPet(_ c: ScreenContext, pose: PetPose, into raster: inout ArtRaster, x: Int, y: Int,
                               petPaint: ArtPaint, itemPaint: ArtPaint, library: ArtLibrary = .builtIn) {
        guard let bodySheet = library.sheet("body"),
              let body = bodySheet.frame(pose.body) ?? bodySheet.frame("stand") else { return }
        let petPal = ArtColours.resolve(bodySheet, petPaint)
        let ay = y + pose.dy
        raster.draw(body, palette: petPal, x: x, y: ay)
        let top = ArtPoint(x: x - body.origin.x, y: ay - body.origin.y)
        func at(_ point: String) -> ArtPoint? {
            body.points[point].map { ArtPoint(x: top.x + $0.x, y: top.y + $0.y) }
        }
        if let faces = library.sheet("faces"), let f = faces.frame(pose.face) ?? faces.frame("content"), let p = at("face") {
            raster.draw(f, palette: ArtColours.resolve(faces, petPaint), x: p.x, y: p.y)
        }
        let worn = c.state.shop.worn
        for (slot, sheetName, point) in [("scarf", "wear-scarf", "neck"), ("glasses", "wear-glasses", "eyes"), ("hat", "wear-hat", "hat")] {
            guard let id = worn[slot], let sheet = library.sheet(sheetName), let f = sheet.frame(id), let p = at(point) else { continue }
            raster.draw(f, palette: ArtColours.resolve(sheet, itemPaint), x: p.x, y: p.y)
        }
        if let fx = library.sheet("fx"), !pose.effects.isEmpty {
            let pal = ArtColours.resolve(fx, itemPaint)
            for e in pose.effects {
                guard let f = fx.frame(e.name) else { continue }
                raster.draw(f, palette: pal, x: x + e.x, y: y + e.y)
            }
        }
    }
}
