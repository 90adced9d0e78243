import PetUI

/// The path a rendered frame takes to the glass: diff against what the panel shows → pack into the
/// panel's format (RGB565, SSD1306 pages, SSD1680 rows) → the e-paper refresh policy → a
/// `PanelFrame` for `Panel.flush`. Pure: it keeps the picture on the panel and the e-paper
/// refresher's counters; the loop does the I/O.
public struct PanelPipeline: Sendable {
    public let format: PixelFormat
    public let isEPaper: Bool
    /// What the panel shows (nil: unknown — after power-on or a failed flush — so the next frame
    /// is sent whole).
    public private(set) var shown: PanelSurface?
    public private(set) var refresher = EPaperRefresher()
    /// A 1-bit panel: the conversion of the last frame made (the next one converts only its damage).
    var converted: PanelSurface?
    /// Totals since start: frames handed to the panel and their bytes.
    public private(set) var framesSent = 0
    public private(set) var bytesSent = 0

    public init(format: PixelFormat, isEPaper: Bool) {
        self.format = format
        self.isEPaper = isEPaper
    }

    /// The frame to flush for `canvas` at `nowMs`, or nil when the panel already shows it.
    /// `damage`: where the canvas changed since the last frame this pipeline made for it
    /// (`Canvas.takeDamage`); only there is it compared with the panel's picture. Nil: anywhere.
    public mutating func frame(for canvas: Canvas, damage: [Rect]? = nil, nowMs: Int64) -> PanelFrame? {
        let surface = PanelSurface.of(canvas, format: format, previous: converted, damage: damage)
        converted = format.isMonochrome ? surface : nil
        let changed = surface.changedRects(from: shown, within: damage)
        if isEPaper {
            let union = changed.reduce(nil as Rect?) { acc, r in acc.map { $0.union(r) } ?? r }
            switch refresher.decide(changed: union, nowMs: nowMs) {
            case .none: return nil
            case .partial(let r): return PanelFrame(rects: [surface.pack(r, as: format)], surface: surface, refresh: .partial)
            case .full: return PanelFrame(rects: [surface.pack(surface.bounds, as: format)], surface: surface, refresh: .full)
            }
        }
        guard !changed.isEmpty else { return nil }
        return PanelFrame(rects: changed.map { surface.pack($0, as: format) }, surface: surface, refresh: .immediate)
    }

    /// The panel took `frame`: it now shows its surface.
    public mutating func flushed(_ frame: PanelFrame) {
        // A colour picture is kept as a copy updated where the frame wrote (sharing the
        // renderer's pixels would make its next frame copy them all).
        if case .colour(let new) = frame.surface, case .colour(var old)? = shown, old.width == new.width, old.height == new.height {
            shown = nil
            old.copyPixels(from: new, in: frame.rects.map(\.area))
            shown = .colour(old)
        } else {
            shown = frame.surface
        }
        framesSent += 1
        bytesSent += frame.byteCount
    }

    /// The panel's content is unknown (power-on, a failed write): the next frame goes whole.
    public mutating func invalidate() {
        shown = nil
        converted = nil
        refresher = EPaperRefresher()
    }
}
