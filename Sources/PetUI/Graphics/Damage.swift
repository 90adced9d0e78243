// Damage.swift — drawing only what changed (docs/architecture.md, the panel pipeline).
//
// A screen draws its whole frame as it always does, but between `beginFrame` and `endFrame` the
// canvas records what every primitive would write — one rectangle of one colour each (`DrawOp`:
// a fill, a text glyph's ink run, a sprite's run of one colour, a rounded rect's row) — instead
// of writing it. So the screens' parts tell when they changed without knowing it: `endFrame`
// fingerprints, for every 16×16 tile, the ordered operations that reach into it, compares with
// the previous frame's fingerprints, and draws the operations again only inside the tiles whose
// fingerprint changed (as LVGL redraws its invalidated areas). The pixels of the other tiles are
// already right: the same operations in the same order drew them last time. Those areas are
// `damage`, and the panel pipeline compares with the panel's picture only inside them.
//
// Exactness: a tile's pixels depend only on the ordered operations that touch it and on what the
// tile held before. Both frames start from the same pixels outside the damage (the previous frame),
// so equal operation sequences give equal pixels. A pixel written outside a recorded frame (a wipe
// composed over the frame, a test drawing directly) marks its tiles stale: they are redrawn at the
// next frame whatever their fingerprint. The fingerprint is a 64-bit hash of the sequence; the
// golden-frame damage test (DamageTests) renders every screen both ways and compares.

/// One pixel write of a recorded frame: `rect` (inside the canvas) in `color`.
struct DrawOp {
    var x: Int32, y: Int32, w: Int32, h: Int32
    var color: UInt16
    @inline(__always)
    init(_ r: Rect, _ color: UInt16) {
        x = Int32(truncatingIfNeeded: r.x); y = Int32(truncatingIfNeeded: r.y)
        w = Int32(truncatingIfNeeded: r.w); h = Int32(truncatingIfNeeded: r.h)
        self.color = color
    }

    /// The operation's fingerprint (coordinates are inside a canvas of at most 65 535 pixels a side).
    @inline(__always)
    var key: UInt64 {
        var k = UInt64(UInt16(truncatingIfNeeded: x)) | UInt64(UInt16(truncatingIfNeeded: y)) << 16
            | UInt64(UInt16(truncatingIfNeeded: w)) << 32 | UInt64(UInt16(truncatingIfNeeded: h)) << 48
        k ^= UInt64(color) &* 0x9E37_79B9_7F4A_7C15
        // splitmix64's finaliser
        k = (k ^ (k >> 30)) &* 0xBF58_476D_1CE4_E5B9
        k = (k ^ (k >> 27)) &* 0x94D0_49BB_1331_11EB
        return k ^ (k >> 31)
    }
}

/// A change a part made to the canvas's text and sprite bookkeeping (`textRuns`, `spriteRuns`),
/// kept with its operations so a reused part changes them as drawing it did.
enum RunEdit: Sendable {
    case text(TextRun)
    /// Text runs lying wholly inside the rect were painted over.
    case dropText(Rect)
    case sprite(SpriteRun)
    /// Sprite runs whose crop lies wholly inside the rect were painted over.
    case dropSprites(Rect)
}

/// One part of a recorded frame (`Canvas.part`): its name and inputs, the range of the frame's
/// operations it recorded, their fingerprint and bounds, and its bookkeeping edits (nil: it
/// changed the bookkeeping in a way the edits do not reproduce, so it is never reused).
struct PartRecord: Sendable {
    var name: String
    var inputs: any Hashable & Sendable
    var start: Int
    var end: Int
    var hash: UInt64
    var bounds: Rect?
    var edits: [RunEdit]?
}

/// The recording state of a canvas: the operations of the frame being drawn, and per tile the
/// fingerprint of the last frame's operations there.
struct FrameRecorder: Sendable {
    /// Tile side in pixels.
    static let tile = 16
    var isRecording = false
    var ops: [DrawOp] = []
    /// The parts of the frame being recorded, in order (their ops are ranges of `ops`).
    var parts: [PartRecord] = []
    /// The previous frame's operations and parts: a part drawn with the same inputs reuses them.
    var lastOps: [DrawOp] = []
    var lastParts: [PartRecord] = []
    /// Where the search for the next part's previous record starts in `lastParts`.
    var lastCursor = 0
    /// What every part's drawing depends on besides its inputs (the theme, the display): a
    /// change reuses nothing.
    var context: (any Hashable & Sendable)? = nil
    var lastContext: (any Hashable & Sendable)? = nil
    /// Whether the frame being recorded has the previous frame's context (compared once, at
    /// `beginFrame`, not at every part).
    var sameContext = false
    /// The bookkeeping edits of the part being drawn (nil: no part open).
    var edits: [RunEdit]? = nil
    /// The part being drawn touched the bookkeeping in a way `edits` cannot replay.
    var editsBroken = false
    /// The previous frame's fingerprint per tile (row-major), empty: none (everything is drawn).
    var tiles: [UInt64] = []
    /// Tiles written outside a recorded frame since then: drawn at the next frame.
    var stale: [Bool] = []
    var anyStale = false

    /// Tile columns of the canvas the fingerprints are for (set by `endFrame`).
    var stride = 0

    /// Whether two frame contexts are equal (both nil: yes).
    static func same(_ a: (any Hashable & Sendable)?, _ b: (any Hashable & Sendable)?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?): return AnyHashable(a) == AnyHashable(b)
        default: return false
        }
    }

    /// The previous frame's next part named `name`, searched from `lastCursor` on (parts are
    /// matched in order).
    func findLast(_ name: String) -> Int? {
        var k = lastCursor
        while k < lastParts.count {
            if lastParts[k].name == name { return k }
            k += 1
        }
        return nil
    }

    /// Tiles whose pixels were written outside a recorded frame (`r` inside the canvas).
    mutating func markStale(_ r: Rect) {
        guard stride > 0, !stale.isEmpty, !r.isEmpty else { return }
        let t = Self.tile
        anyStale = true
        for ty in (r.y / t)...((r.maxY - 1) / t) {
            for tx in (r.x / t)...((r.maxX - 1) / t) {
                let i = ty * stride + tx
                if i < stale.count { stale[i] = true }
            }
        }
    }
}

extension DrawOp: Sendable {}

extension Canvas {
    /// Starts recording a frame: until `endFrame`, primitives record their pixel writes (text
    /// runs, sprite runs and the other bookkeeping happen as usual).
    public mutating func beginFrame(context: (any Hashable & Sendable)? = nil) {
        // The text check (`textLog`, tests and tools) snapshots the pixels each string left as it
        // is drawn: with it on, the frame is drawn directly (its tiles are then stale, and no
        // part is reused).
        guard textLog == nil else {
            recorder.lastParts.removeAll(); recorder.lastOps.removeAll()
            return
        }
        recorder.isRecording = true
        recorder.ops.removeAll(keepingCapacity: true)
        recorder.parts.removeAll(keepingCapacity: true)
        recorder.lastCursor = 0
        recorder.context = context
        recorder.sameContext = FrameRecorder.same(context, recorder.lastContext)
    }

    /// Draws one part of a recorded frame. `inputs` is everything `draw` reads besides the frame's
    /// context (`beginFrame(context:)`: theme and display) — texts, numbers, positions, colours:
    /// when the previous frame drew a part of this `name` with equal inputs, its operations (and
    /// its text runs) are taken again and `draw` does not run, so an unchanged part costs a copy
    /// of its operations and one fingerprint token per tile it covers (LVGL's widgets that do
    /// not invalidate themselves). Outside a recorded frame, or inside another part, `draw` runs.
    /// The both-ways tests (DamageTests) hold that a reused part draws what drawing it would.
    public mutating func part<Inputs: Hashable & Sendable>(_ name: String, _ inputs: Inputs, _ draw: (inout Canvas) -> Void) {
        guard recorder.isRecording, recorder.edits == nil else { draw(&self); return }
        let key: any Hashable & Sendable = inputs
        let start = recorder.ops.count
        if recorder.sameContext, let k = recorder.findLast(name) {
            let last = recorder.lastParts[k]
            recorder.lastCursor = k + 1
            if let old = last.inputs as? Inputs, old == inputs, let edits = last.edits {
                recorder.ops.append(contentsOf: recorder.lastOps[last.start..<last.end])
                for e in edits { apply(e) }
                recorder.parts.append(PartRecord(name: name, inputs: key, start: start, end: recorder.ops.count,
                                                 hash: last.hash, bounds: last.bounds, edits: edits))
                return
            }
        }
        let textBefore = textRuns, spritesBefore = spriteRuns
        recorder.edits = []
        recorder.editsBroken = false
        draw(&self)
        var edits = recorder.edits
        recorder.edits = nil
        if recorder.editsBroken { edits = nil }
        // The edits must replay what drawing did to the bookkeeping (else the part is not reused).
        if let e = edits {
            var probe = self
            probe.textRuns = textBefore; probe.spriteRuns = spritesBefore
            for x in e { probe.apply(x) }
            if probe.textRuns != textRuns || probe.spriteRuns != spriteRuns { edits = nil }
        }
        var h: UInt64 = 0x243F_6A88_85A3_08D3
        var bounds: Rect? = nil
        let end = recorder.ops.count
        recorder.ops.withUnsafeBufferPointer { ops in
            // The bounds are the union of the non-empty operations (`Rect.union`), kept as edges.
            var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
            for i in start..<end {
                let op = ops[i]
                h = (h ^ op.key) &* 0x9E37_79B9_7F4A_7C15
                h ^= h >> 29
                guard op.w > 0, op.h > 0 else { continue }
                let ox = Int(op.x), oy = Int(op.y)
                x0 = min(x0, ox); y0 = min(y0, oy)
                x1 = max(x1, ox + Int(op.w)); y1 = max(y1, oy + Int(op.h))
            }
            if x0 <= x1 {
                bounds = Rect(x: x0, y: y0, w: x1 - x0, h: y1 - y0)
            } else if start < end {
                let op = ops[start]
                bounds = Rect(x: Int(op.x), y: Int(op.y), w: Int(op.w), h: Int(op.h))
            }
        }
        recorder.parts.append(PartRecord(name: name, inputs: key, start: start, end: end, hash: h, bounds: bounds, edits: edits))
    }

    /// Replays one bookkeeping edit of a part.
    mutating func apply(_ e: RunEdit) {
        switch e {
        case .text(let run): textRuns.append(run)
        case .dropText(let r): textRuns.removeAll { r.contains($0.rect) }
        case .sprite(let run): spriteRuns.append(run)
        case .dropSprites(let r): spriteRuns.removeAll { r.contains($0.crop) }
        }
    }

    /// Text runs wholly inside `r` were painted over (a part notes it for its reuse).
    mutating func dropText(coveredBy r: Rect) {
        textRuns.removeAll { r.contains($0.rect) }
        recorder.edits?.append(.dropText(r))
    }

    /// Sprite runs whose crop lies wholly inside `r` were painted over (a part notes it).
    mutating func dropSprites(coveredBy r: Rect) {
        spriteRuns.removeAll { r.contains($0.crop) }
        recorder.edits?.append(.dropSprites(r))
    }

    /// Adds a sprite run (the pictures a screen drew, for tests; a part notes it for its reuse).
    mutating func addSpriteRun(_ run: SpriteRun) {
        spriteRuns.append(run)
        recorder.edits?.append(.sprite(run))
    }

    /// Ends the recorded frame: draws it where it differs from the previous one and returns the
    /// areas drawn (also added to `damage` and `dirty`). Without a previous frame (a new canvas,
    /// or one whose size changed), all of it.
    @discardableResult
    public mutating func endFrame() -> [Rect] {
        guard recorder.isRecording else { return [] }
        recorder.isRecording = false
        let t = FrameRecorder.tile
        let cols = (width + t - 1) / t, rows = (height + t - 1) / t
        guard cols > 0, rows > 0 else { recorder.ops.removeAll(keepingCapacity: true); return [] }
        var fresh = [UInt64](repeating: 0x6A09_E667_F3BC_C908, count: cols * rows)
        // Each operation outside a part is mixed into the tiles it reaches; a part, as one token
        // (its operations' fingerprint and bounds) into every tile of its bounds: equal tokens
        // mean equal operations, so a tile's pixels still follow from its sequence.
        let parts = recorder.parts
        recorder.ops.withUnsafeBufferPointer { ops in
            fresh.withUnsafeMutableBufferPointer { h in
                @inline(__always) func mix(_ k: UInt64, _ x: Int, _ y: Int, _ w: Int, _ hh: Int) {
                    let tx0 = x / t, tx1 = (x + w - 1) / t
                    let ty0 = y / t, ty1 = (y + hh - 1) / t
                    var ty = ty0
                    while ty <= ty1 {
                        var i = ty * cols + tx0
                        let end = ty * cols + tx1
                        while i <= end {
                            var v = (h[i] ^ k) &* 0x9E37_79B9_7F4A_7C15
                            v ^= v >> 29
                            h[i] = v
                            i += 1
                        }
                        ty += 1
                    }
                }
                var p = 0, i = 0
                let n = ops.count
                while i < n || p < parts.count {
                    if p < parts.count, parts[p].start == i {
                        let part = parts[p]
                        if let b = part.bounds {
                            let token = part.hash ^ DrawOp(b, UInt16(truncatingIfNeeded: part.end - part.start)).key
                            mix(token, b.x, b.y, b.w, b.h)
                        }
                        i = part.end
                        p += 1
                        continue
                    }
                    guard i < n else { break }
                    let op = ops[i]
                    mix(op.key, Int(op.x), Int(op.y), Int(op.w), Int(op.h))
                    i += 1
                }
            }
        }
        // Damaged tiles: all of them without a previous frame of this size.
        let known = recorder.tiles.count == fresh.count && recorder.stride == cols
        var rects: [Rect] = []
        var damaged: [Bool] = []
        if !known {
            rects = [bounds]
        } else {
            damaged = [Bool](repeating: false, count: fresh.count)
            // Runs of damaged tiles per tile row, merged down while the next row has the same run.
            var open: [(x0: Int, x1: Int, y0: Int)] = []
            for ty in 0..<rows {
                var runs: [(Int, Int)] = []
                var tx = 0
                while tx < cols {
                    let i = ty * cols + tx
                    if fresh[i] != recorder.tiles[i] || (recorder.anyStale && recorder.stale[i]) {
                        var e = tx + 1
                        while e < cols, fresh[ty * cols + e] != recorder.tiles[ty * cols + e]
                                || (recorder.anyStale && recorder.stale[ty * cols + e]) { e += 1 }
                        for k in tx..<e { damaged[ty * cols + k] = true }
                        runs.append((tx, e))
                        tx = e
                    } else {
                        tx += 1
                    }
                }
                var next: [(x0: Int, x1: Int, y0: Int)] = []
                for o in open {
                    if let k = runs.firstIndex(where: { $0.0 == o.x0 && $0.1 == o.x1 }) {
                        next.append(o)
                        runs.remove(at: k)
                    } else {
                        rects.append(Rect(x: o.x0 * t, y: o.y0 * t, w: (o.x1 - o.x0) * t, h: (ty - o.y0) * t))
                    }
                }
                for r in runs { next.append((r.0, r.1, ty)) }
                open = next
            }
            for o in open { rects.append(Rect(x: o.x0 * t, y: o.y0 * t, w: (o.x1 - o.x0) * t, h: (rows - o.y0) * t)) }
            rects = rects.compactMap { $0.intersection(bounds) }
        }
        replay(within: rects, damagedTiles: damaged, columns: cols)
        recorder.tiles = fresh
        recorder.stride = cols
        if recorder.anyStale || recorder.stale.count != fresh.count {
            recorder.stale = [Bool](repeating: false, count: fresh.count)
            recorder.anyStale = false
        }
        for r in rects {
            dirty = dirty.map { $0.union(r) } ?? r
            addDamage(r)
        }
        // Kept for the next frame's parts.
        swap(&recorder.ops, &recorder.lastOps)
        swap(&recorder.parts, &recorder.lastParts)
        recorder.ops.removeAll(keepingCapacity: true)
        recorder.parts.removeAll(keepingCapacity: true)
        recorder.lastContext = recorder.context
        return rects
    }

    /// Draws the recorded operations clipped to each of `rects` (the damaged tiles, flagged in
    /// `damagedTiles` when not all of them: an operation reaching none of those is skipped at once).
    mutating func replay(within rects: [Rect], damagedTiles: [Bool], columns cols: Int) {
        guard !rects.isEmpty, cols > 0 else { return }
        let w = width, t = FrameRecorder.tile
        let ops = recorder.ops
        let every = damagedTiles.isEmpty
        // Per tile row, the damaged tile columns as bits (64 columns a word), so whether an
        // operation reaches a damaged tile costs a mask test per tile row it spans; before that,
        // the bounding box of the damage rejects most operations at once.
        let words = (cols + 63) / 64
        var mask = [UInt64](repeating: 0, count: every ? 0 : (damagedTiles.count / cols) * words)
        if !every {
            for i in damagedTiles.indices where damagedTiles[i] {
                let ty = i / cols, tx = i % cols
                mask[ty * words + tx / 64] |= 1 << UInt64(tx % 64)
            }
        }
        var box = rects[0]
        for r in rects.dropFirst() { box = box.union(r) }
        let bx0 = box.x, by0 = box.y, bx1 = box.maxX, by1 = box.maxY
        let single = rects.count == 1
        mask.withUnsafeBufferPointer { mask in
            @inline(__always) func reaches(_ x: Int, _ y: Int, _ ww: Int, _ hh: Int) -> Bool {
                guard ww > 0, hh > 0, x < bx1, x + ww > bx0, y < by1, y + hh > by0 else { return false }
                if every || single { return true }
                let tx0 = x / t, tx1 = (x + ww - 1) / t
                let ty0 = y / t, ty1 = (y + hh - 1) / t
                let w0 = tx0 >> 6, w1 = tx1 >> 6
                var ty = ty0
                while ty <= ty1 {
                    var wi = w0
                    while wi <= w1 {
                        let lo = wi == w0 ? UInt64(tx0 & 63) : 0
                        let hi = wi == w1 ? UInt64(tx1 & 63) : 63
                        let bits = (hi == 63 ? ~UInt64(0) : (UInt64(1) << (hi + 1)) &- 1) & ~((UInt64(1) << lo) &- 1)
                        if mask[ty * words + wi] & bits != 0 { return true }
                        wi += 1
                    }
                    ty += 1
                }
                return false
            }
            // Parts reaching no damaged tile are skipped whole (their bounds, as one operation).
            var skips: [(start: Int, end: Int)] = []
            if !every {
                for part in recorder.parts where part.end > part.start {
                    guard let b = part.bounds else { continue }
                    if !reaches(b.x, b.y, b.w, b.h) { skips.append((part.start, part.end)) }
                }
            }
            pixels.withUnsafeMutableBufferPointer { buf in
                guard let base = buf.baseAddress else { return }
                ops.withUnsafeBufferPointer { ops in
                    var s = 0, idx = 0
                    let n = ops.count
                    while idx < n {
                        if s < skips.count, skips[s].start == idx { idx = skips[s].end; s += 1; continue }
                        let op = ops[idx]
                        idx += 1
                        let ox = Int(op.x), oy = Int(op.y), ow = Int(op.w), oh = Int(op.h)
                        if !reaches(ox, oy, ow, oh) { continue }
                        for clip in rects {
                            let x0 = max(clip.x, ox), x1 = min(clip.maxX, ox + ow)
                            guard x0 < x1 else { continue }
                            let y0 = max(clip.y, oy), y1 = min(clip.maxY, oy + oh)
                            guard y0 < y1 else { continue }
                            var p = base + (y0 * w + x0)
                            for _ in y0..<y1 {
                                p.update(repeating: op.color, count: x1 - x0)
                                p += w
                            }
                        }
                    }
                }
            }
        }
    }

    /// `r`'s pixels were (or will be) written outside a recorded frame: the next frame draws them
    /// again, and the panel pipeline looks at them (`damage`).
    public mutating func invalidate(_ r: Rect) {
        guard let c = r.intersection(bounds) else { return }
        dirty = dirty.map { $0.union(c) } ?? c
        recorder.markStale(c)
        addDamage(c)
    }

    /// `r`'s pixels changed outside a recorded frame back to what the last recorded frame drew
    /// there (a wipe between screens ending on the new screen's own pixels): the panel pipeline
    /// looks at them (`damage`), the next frame need not draw them again.
    public mutating func restored(_ r: Rect) {
        guard let c = r.intersection(bounds) else { return }
        dirty = dirty.map { $0.union(c) } ?? c
        addDamage(c)
    }

    /// The areas changed since the last call (`damage`), and forgets them: what the panel has
    /// not been sent yet.
    public mutating func takeDamage() -> [Rect] {
        let d = damage
        damage.removeAll(keepingCapacity: true)
        return d
    }

    /// Adds `r` to `damage`, kept to a few rectangles (beyond 16, their bounding box).
    mutating func addDamage(_ r: Rect) {
        if damage.contains(where: { $0.contains(r) }) { return }
        damage.removeAll { r.contains($0) }
        damage.append(r)
        if damage.count > 16 {
            let all = damage.reduce(Rect(x: 0, y: 0, w: 0, h: 0)) { $0.union($1) }
            damage = [all]
        }
    }
}

extension Canvas {
    /// Copies `rects` of `source` (a canvas of the same size) into this one, without touching its
    /// bookkeeping: the panel pipeline's copy of the picture on the panel follows the frames sent.
    public mutating func copyPixels(from source: Canvas, in rects: [Rect]) {
        guard source.width == width, source.height == height else { return }
        let w = width, all = bounds
        source.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for r in rects {
                    guard let c = r.intersection(all) else { continue }
                    for y in c.y..<c.maxY {
                        let s = y * w + c.x
                        UnsafeMutableBufferPointer(rebasing: dst[s..<(s + c.w)])
                            .update(fromContentsOf: UnsafeBufferPointer(rebasing: src[s..<(s + c.w)]))
                    }
                }
            }
        }
    }
}
