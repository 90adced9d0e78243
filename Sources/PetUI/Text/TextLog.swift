// TextLog.swift — a record of every string drawn on a canvas, with the box it was given and the
// pixels it left, and the check over it (docs/design.md, "Text that is never cut"): no glyph cut by
// its box or the panel's edge, none drawn over by later drawing, no text over other text — except a
// marquee while it moves (cut at its box's ends by design) and a deliberate ellipsis ("...", whole
// glyphs). Off by default (`Canvas.textLog` nil): tests and tools switch it on, a device never pays
// for it.

/// Every string drawn on a canvas since its last `fill`, in drawing order (`Canvas.textLog`).
public struct TextLog: Sendable {
    /// One string as it was drawn.
    public struct Entry: Sendable {
        /// How the string was fitted to its box.
        public enum Fit: Sendable, Equatable {
            /// Drawn whole.
            case whole
            /// Shortened to end in "..." (a deliberate ellipsis).
            case ellipsized
            /// A marquee scrolled `offset` of `travel` pixels: while 0 < offset < travel it is in
            /// motion and cut at its box's ends by design.
            case marquee(offset: Int, travel: Int)
        }

        /// The string the screen asked for.
        public var text: String
        /// The characters drawn, from `x` on (`text` itself for a marquee).
        public var shown: String
        /// The box the string was given: the line it was drawn on, as wide as its room (a marquee's
        /// box; otherwise the drawn characters' cells).
        public var box: Rect
        /// Where the first character's cell starts.
        public var x: Int
        public var y: Int
        public var face: FontFace
        public var scale: Int
        public var color: UInt16
        public var fit: Fit
        /// The pixels of `snapshotRect` (the box inside the canvas) right after drawing.
        var snapshot: [UInt16]
        var snapshotRect: Rect?

        /// A marquee in motion (cut at its box's ends by design).
        public var isMovingMarquee: Bool {
            if case .marquee(let offset, let travel) = fit { return offset > 0 && offset < travel }
            return false
        }

        /// The inked cell of each character that is not a space: the glyph columns of its cell
        /// (without the blank column to its right), in canvas coordinates.
        public var glyphs: [(ch: Character, rect: Rect)] {
            let adv = face.cellWidth * scale
            var out: [(Character, Rect)] = []
            for (i, ch) in shown.enumerated() where !ch.isWhitespace {
                out.append((ch, Rect(x: x + i * adv, y: y, w: face.glyphWidth * scale, h: face.cellHeight * scale)))
            }
            return out
        }
    }

    public var entries: [Entry] = []
    public init() {}
}

/// Something wrong with a string on the finished frame.
public struct TextProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// A glyph lies partly outside the canvas.
        case panelEdge = "cut by the panel edge"
        /// A glyph lies partly or wholly outside the box it was given (not a moving marquee).
        case box = "cut by its box"
        /// Later drawing covers part of the string (some glyphs hidden or damaged, others not).
        case covered = "partly covered"
        /// Two strings' glyphs overlap.
        case overlap = "over other text"
    }
    public var kind: Kind
    public var text: String
    public var rect: Rect
    /// The other string (overlap).
    public var other: String?
    public var description: String {
        "'\(text)' \(kind.rawValue)" + (other.map { " '\($0)'" } ?? "") + " at \(rect.x),\(rect.y) \(rect.w)x\(rect.h)"
    }
}

extension Canvas {
    /// Records a string just drawn (when the log is on): its box and the pixels it left there.
    mutating func logText(_ text: String, shown: String, box: Rect, x: Int, y: Int, face: FontFace, scale: Int,
                          color: UInt16, fit: TextLog.Entry.Fit) {
        guard textLog != nil, !text.isEmpty else { return }
        let snapRect = box.intersection(bounds)
        var snap: [UInt16] = []
        if let r = snapRect {
            snap.reserveCapacity(r.w * r.h)
            for yy in r.y..<r.maxY { snap.append(contentsOf: pixels[(yy * width + r.x)..<(yy * width + r.maxX)]) }
        }
        textLog?.entries.append(TextLog.Entry(text: text, shown: shown, box: box, x: x, y: y, face: face, scale: scale,
                                              color: color, fit: fit, snapshot: snap, snapshotRect: snapRect))
    }

    /// What is wrong with the text on this frame (empty when every string reads whole): needs the
    /// log on (`textLog`) while the frame was drawn. See the file's header for the rules.
    public func textProblems() -> [TextProblem] {
        guard let log = textLog else { return [] }
        var out: [TextProblem] = []
        // The glyphs of each string still showing, for the overlap test.
        var showing: [(entry: Int, rect: Rect)] = []
        for (k, e) in log.entries.enumerated() {
            let glyphs = e.glyphs
            guard !glyphs.isEmpty else { continue }
            let moving = e.isMovingMarquee
            let room = e.box.intersection(bounds)
            var cut: Rect?
            var intact: [Rect] = [], hidden = 0, damaged: Rect?
            for (_, g) in glyphs {
                // Cut by the panel edge or by its box (a moving marquee is cut at its box by design).
                if moving ? !bounds.contains(e.box) : !bounds.contains(g) {
                    out.append(TextProblem(kind: .panelEdge, text: e.text, rect: moving ? e.box : g)); cut = g; break
                }
                if !moving && !e.box.contains(g) {
                    out.append(TextProblem(kind: .box, text: e.text, rect: g)); cut = g; break
                }
                // What later drawing did to the glyph's visible part.
                guard let vis = room.flatMap({ g.intersection($0) }), let snapR = e.snapshotRect else { continue }
                var changed = false, colours = Set<UInt16>()
                for yy in vis.y..<vis.maxY {
                    for xx in vis.x..<vis.maxX {
                        let now = pixels[yy * width + xx]
                        colours.insert(now)
                        if now != e.snapshot[(yy - snapR.y) * snapR.w + (xx - snapR.x)] { changed = true }
                    }
                }
                if !changed { intact.append(vis) }
                else if colours.count == 1 { hidden += 1 }
                else if damaged == nil { damaged = vis }
            }
            if cut != nil { continue }
            if let d = damaged {
                out.append(TextProblem(kind: .covered, text: e.text, rect: d))
            } else if hidden > 0 && !intact.isEmpty {
                out.append(TextProblem(kind: .covered, text: e.text, rect: intact[0]))
            }
            for r in intact { showing.append((k, r)) }
        }
        // Text over other text: glyphs of two strings sharing more than a pixel's edge.
        var reported: Set<[Int]> = []
        for i in showing.indices {
            for j in showing.indices where j > i && showing[j].entry != showing[i].entry {
                guard let o = showing[i].rect.intersection(showing[j].rect), o.w > 1, o.h > 1 else { continue }
                let pair = [showing[i].entry, showing[j].entry]
                guard reported.insert(pair).inserted else { continue }
                out.append(TextProblem(kind: .overlap, text: log.entries[pair[0]].text, rect: o,
                                       other: log.entries[pair[1]].text))
            }
        }
        return out
    }
}

extension Canvas {
    /// Fills `r` as an overlay's ground (a banner, a toast's strip, a reminder's backdrop): what
    /// lies wholly inside it is hidden, so the text check (`textProblems`) forgets the strings whose
    /// glyphs it covers entirely — a string it covers only in part is still reported.
    mutating func cover(_ r: Rect, color: RGB565) {
        fillRect(x: r.x, y: r.y, w: r.w, h: r.h, color: color)
        guard var log = textLog else { return }
        let all = bounds
        log.entries.removeAll { e in
            let glyphs = e.glyphs.compactMap { $0.rect.intersection(all) }
            return !glyphs.isEmpty && glyphs.allSatisfy { r.contains($0) }
        }
        textLog = log
    }
}
