import PetCore

/// A short wipe between two screens on colour panels (docs/navigation.md): the new screen is
/// revealed over the old one from one edge, with an accent line at the front, in
/// `durationMs` (160 ms) at one frame every `frameMs` (32 ms: 5 frames, the first at once).
///
/// A wipe, not a slide: each frame changes only the band the front crossed since the last one,
/// so the panel receives the bytes of one whole frame over the whole transition (plus the front
/// line), the same as a cut — within the SPI frame budget of every colour board. None on e-paper
/// (its partial-refresh policy is unchanged) and none on the 1-bit OLED (a wipe at 128×64 reads
/// as flicker). The device loop starts it when the screen changes (`DeviceLoop.present`),
/// schedules its frames with its deadline (`nextFrameMs`) and drops it when done, so an idle
/// loop goes back to no wake-ups.
public struct ScreenTransition: Sendable {
    public enum Direction: String, Sendable {
        /// A screen opened on top (the new one comes in from the right).
        case forward
        /// Back (from the left).
        case back
        /// The menu opens (from the top) or closes (from the bottom).
        case down, up
    }

    public static let durationMs: Int64 = 160
    public static let frameMs: Int64 = 32

    /// The frame shown before the change.
    public let from: Canvas
    public let startMs: Int64
    public let direction: Direction
    /// The front line's colour.
    public let edge: RGB565

    public init(from: Canvas, startMs: Int64, direction: Direction, edge: RGB565) {
        self.from = from; self.startMs = startMs; self.direction = direction; self.edge = edge
    }

    /// What a view change `a` → `b` gets on `profile` (nil: a cut). Only colour panels animate.
    public static func direction(from a: UIState, to b: UIState, profile: DisplayProfile) -> Direction? {
        guard profile.kind == .colour else { return nil }
        if a.screen == b.screen {
            if a.menu == nil && b.menu != nil { return .down }
            if a.menu != nil && b.menu == nil { return .up }
            return nil
        }
        if a.screen == .boot { return .back }
        return b.backStack.count > a.backStack.count ? .forward : .back
    }

    /// How far along it is at `ms` (0...1, eased out). The frame at the start already shows the
    /// first step, so a press gets a visible answer in its first frame.
    public func progress(at ms: Int64) -> Double {
        let e = Double(max(0, ms - startMs) + Self.frameMs) / Double(Self.durationMs)
        let t = min(1, max(0, e))
        let inv = 1 - t
        return 1 - inv * inv * inv
    }

    public func isDone(at ms: Int64) -> Bool { ms - startMs + Self.frameMs >= Self.durationMs }

    /// When the next frame of it is due after `ms` (nil: it is done).
    public func nextFrameMs(after ms: Int64) -> Int64? {
        if isDone(at: ms) { return nil }
        let k = (max(0, ms - startMs) / Self.frameMs) + 1
        return startMs + k * Self.frameMs
    }

    /// The wipe's front at `ms`: how many columns (forward, back) or rows (down, up) of the new
    /// screen show.
    public func revealed(at ms: Int64, width: Int, height: Int) -> Int {
        let span = direction == .forward || direction == .back ? width : height
        return min(span, Int((Double(span) * progress(at: ms)).rounded()))
    }

    /// Puts the part of the old frame that is not yet revealed over `new` (the new screen, fully
    /// drawn), and the front line. `new`'s text record stays the new screen's.
    public func compose(_ new: inout Canvas, at ms: Int64) {
        guard !isDone(at: ms), from.width == new.width, from.height == new.height else { return }
        let w = new.width, h = new.height
        let n = revealed(at: ms, width: w, height: h)
        var edgeLine: Rect?
        // The part of the old frame still shown.
        let old: Rect
        switch direction {
        case .forward:
            // Revealed: the right n columns.
            let keep = w - n
            old = Rect(x: 0, y: 0, w: keep, h: h)
            edgeLine = Rect(x: max(0, keep - 1), y: 0, w: 2, h: h)
        case .back:
            old = Rect(x: n, y: 0, w: w - n, h: h)
            edgeLine = Rect(x: max(0, n - 1), y: 0, w: 2, h: h)
        case .down:
            old = Rect(x: 0, y: n, w: w, h: h - n)
            edgeLine = Rect(x: 0, y: max(0, n - 1), w: w, h: 2)
        case .up:
            let keep = h - n
            old = Rect(x: 0, y: 0, w: w, h: keep)
            edgeLine = Rect(x: 0, y: max(0, keep - 1), w: w, h: 2)
        }
        if !old.isEmpty {
            from.pixels.withUnsafeBufferPointer { src in
                new.pixels.withUnsafeMutableBufferPointer { dst in
                    for y in old.y..<old.maxY {
                        let row = y * w
                        for x in old.x..<old.maxX { dst[row + x] = src[row + x] }
                    }
                }
            }
            // Written over the recorded frame: drawn again at the next one (Damage.swift).
            new.invalidate(old)
        }
        if let e = edgeLine, n > 0, n < (direction == .forward || direction == .back ? w : h) {
            new.fillRect(x: e.x, y: e.y, w: e.w, h: e.h, color: edge)
        }
    }

    /// The area a frame at `ms` changes after the frame shown at `previousMs`: the band the front
    /// crossed, with the front line at both ends (all that is left of the old screen once done).
    public func band(from previousMs: Int64, to ms: Int64, width w: Int, height h: Int) -> Rect {
        let n0 = revealed(at: previousMs, width: w, height: h)
        let n1 = isDone(at: ms) ? (direction == .forward || direction == .back ? w : h) : revealed(at: ms, width: w, height: h)
        let lo = min(n0, n1), hi = max(n0, n1)
        let r: Rect
        switch direction {
        case .forward: r = Rect.edges(w - hi - 1, 0, w - lo + 1, h)
        case .back: r = Rect.edges(lo - 1, 0, hi + 1, h)
        case .down: r = Rect.edges(0, lo - 1, w, hi + 1)
        case .up: r = Rect.edges(0, h - hi - 1, w, h - lo + 1)
        }
        return r.intersection(Rect(x: 0, y: 0, w: w, h: h)) ?? Rect(x: 0, y: 0, w: 0, h: 0)
    }

    /// The frame at `ms` drawn only inside `band` (`band(from:to:)`) over `canvas`, which shows the
    /// frame before: the revealed part from `target` (the new screen, fully drawn), the rest from
    /// the old frame, then the front line. The same pixels as `compose` over `target`, without
    /// drawing the new screen again (drawing only what changed: docs/architecture.md).
    public func recompose(_ canvas: inout Canvas, target: Canvas, band: Rect, at ms: Int64) {
        let w = canvas.width, h = canvas.height
        guard from.width == w, from.height == h, target.width == w, target.height == h,
              let r = band.intersection(canvas.bounds) else { return }
        let n = revealed(at: ms, width: w, height: h)
        from.pixels.withUnsafeBufferPointer { old in
            target.pixels.withUnsafeBufferPointer { new in
                canvas.pixels.withUnsafeMutableBufferPointer { dst in
                    // Per row: the columns of the old frame and those of the new screen, each one copy
                    // (a wipe across the columns splits every row at one column; one down or up
                    // shows each row whole from one of them).
                    for y in r.y..<r.maxY {
                        let row = y * w
                        let split: Int, leftNew: Bool
                        switch direction {
                        case .forward: split = w - n; leftNew = false
                        case .back: split = n; leftNew = true
                        case .down: split = y < n ? w : 0; leftNew = true
                        case .up: split = y >= h - n ? w : 0; leftNew = true
                        }
                        let mid = min(max(split, r.x), r.maxX)
                        if mid > r.x {
                            let src = leftNew ? new : old
                            (dst.baseAddress! + row + r.x).update(from: src.baseAddress! + row + r.x, count: mid - r.x)
                        }
                        if r.maxX > mid {
                            let src = leftNew ? old : new
                            (dst.baseAddress! + row + mid).update(from: src.baseAddress! + row + mid, count: r.maxX - mid)
                        }
                    }
                }
            }
        }
        // Written over the recorded frame: drawn again at the next one (Damage.swift).
        canvas.invalidate(r)
        let span = direction == .forward || direction == .back ? w : h
        guard n > 0, n < span else { return }
        let e: Rect
        switch direction {
        case .forward: e = Rect(x: max(0, w - n - 1), y: 0, w: 2, h: h)
        case .back: e = Rect(x: max(0, n - 1), y: 0, w: 2, h: h)
        case .down: e = Rect(x: 0, y: max(0, n - 1), w: w, h: 2)
        case .up: e = Rect(x: 0, y: max(0, h - n - 1), w: w, h: 2)
        }
        if let c = e.intersection(r) { canvas.fillRect(x: c.x, y: c.y, w: c.w, h: c.h, color: edge) }
    }
}
