import PetCore

/// Where a screen draws its list on a display, and how tall its rows are: the one place that knows,
/// used by the screens to draw and by the navigator to know how many rows are visible (so the
/// cursor it keeps in view is the one the screen shows). docs/screens.md has the layouts.
public struct ListFrame: Sendable, Equatable {
    /// The list's area (rows are drawn from its top; a scroll bar takes its right edge).
    public var area: Rect
    public var rowHeight: Int
    /// How many rows fit.
    public var visible: Int { max(1, area.h / max(1, rowHeight)) }
}

public enum ListLayout {
    /// The list frame of `screen` on `profile` (`menu`: the menu over the home screen), nil for
    /// screens without a list. The urge log's depends on the state (the pod gauge takes a line on
    /// 128×64).
    public static func frame(_ screen: ScreenID, menu: Bool = false, profile: DisplayProfile, state: PetState,
                             now: Instant) -> ListFrame? {
        if menu { return menuFrame(profile) }
        // Every screen keeps the hint bar's strip at the bottom free (`HintBar`); each says where its
        // list goes (its definition, Screens/<Name>Screen.swift).
        return screen.definition.listFrame(Metrics(profile), profile: profile, state: state, now: now)
    }

    /// The icon menu over the home screen (NavigatorMenuView.swift draws it): a panel covering
    /// everything between home's status bar (which stays visible) and the hint bar, holding 20 px
    /// icons — a grid of one row when they all fit the width, else as many rows as they need (colour, e-paper); on
    /// 128×64 a ring of five with the highlighted one in the middle — and the highlighted
    /// entry's name under them.
    public struct MenuGeometry: Sendable {
        public let panel: Rect
        /// The cells, in `NavRows.menu` order.
        public let cells: [Rect]
        /// Where the highlighted entry's name is drawn.
        public let label: Rect
        /// The icons' scale (10×10 bitmaps: 1 on 128×64, 2 elsewhere).
        public let scale: Int
        public let big: Bool

        /// The bottom of home's status bar on each display (the panel starts below it).
        public static func statusBottom(_ p: DisplayProfile) -> Int {
            switch p.sizeClass { case .square, .wide: 30; case .paper: 21; case .tiny: 10 }
        }

        public init(_ p: DisplayProfile, count: Int = NavRows.menu.count, selected: Int = 0) {
            let size = p.sizeClass
            big = size == .square || size == .wide
            scale = 2
            let margin = big ? 8 : 0
            let top = MenuGeometry.statusBottom(p) + (big ? 4 : 1)
            let bottom = p.height - HintBar.height(p) - (big ? 4 : 1)
            let cellW = big ? 44 : (size == .paper ? 26 : 25)
            let cellH = big ? 44 : (size == .paper ? 26 : 22)
            let pad = big ? 8 : (size == .paper ? 4 : 1)
            let innerW = p.width - 2 * margin - 2 * pad
            let n = max(1, count)
            let ring = size == .tiny && n * cellW > innerW
            // As many rows as the icons need (one, two; three on 240×240 with eleven entries).
            let perRow = max(1, innerW / cellW)
            let rows = ring ? 1 : (n + perRow - 1) / perRow
            let cols = (n + rows - 1) / rows
            let labelH = size == .tiny ? 8 : 16
            let gap = big ? 6 : 2
            let content = rows * cellH + gap + labelH
            // The whole area between the status bar and the hint bar (no half-covered text
            // peeking out), the icons and the name centred in it.
            let h = bottom - top
            panel = Rect(x: margin, y: top, w: p.width - 2 * margin, h: h)
            let y0 = panel.y + max(pad, (h - content) / 2)
            var cells: [Rect] = []
            if ring {
                // Five cells: the highlighted entry in the middle, two neighbours on each side
                // (the menu is a ring); the others are not drawn (empty cells).
                let sel = min(max(0, selected), n - 1)
                let x0 = panel.x + (panel.w - 5 * cellW) / 2
                for k in 0..<n {
                    var d = (k - sel + n) % n
                    if d > n / 2 { d -= n }
                    cells.append(abs(d) <= 2 ? Rect(x: x0 + (d + 2) * cellW, y: y0, w: cellW, h: cellH) : Rect(x: 0, y: 0, w: 0, h: 0))
                }
            }
            for k in 0..<n where !ring {
                let r = k / cols, col = k % cols
                let inRow = r == rows - 1 ? n - r * cols : cols
                let x0 = panel.x + (panel.w - inRow * cellW) / 2
                cells.append(Rect(x: x0 + col * cellW, y: y0 + r * cellH, w: cellW, h: cellH))
            }
            self.cells = cells
            band = Rect(x: 0, y: MenuGeometry.statusBottom(p), w: p.width, h: p.height - HintBar.height(p) - MenuGeometry.statusBottom(p))
            label = Rect(x: panel.x + pad, y: y0 + rows * cellH + gap, w: panel.w - 2 * pad, h: labelH)
        }

        /// Everything the menu draws on.
        /// What the menu hides of home: on colour panels the whole band between the status bar and
        /// the hint bar (the panel and its ring stand on it), on 1-bit displays the panel.
        public var covered: Rect { big ? band : panel }
        /// The band between home's status bar and the hint bar.
        public let band: Rect
    }

    /// The menu's list frame for the navigator: every entry is visible at once (no scrolling).
    static func menuFrame(_ p: DisplayProfile) -> ListFrame {
        let g = MenuGeometry(p)
        let n = max(1, NavRows.menu.count)
        let area = Rect(x: g.panel.x, y: g.panel.y, w: g.panel.w, h: max(n, g.panel.h))
        return ListFrame(area: area, rowHeight: max(1, area.h / n))
    }

    /// The size-class metrics every screen is laid out with (`Look` draws with the same).
    struct Metrics {
        let size: SizeClass
        let W: Int, H: Int
        init(_ p: DisplayProfile) { size = p.sizeClass; W = p.width; H = p.height }
        var big: Bool { size == .square || size == .wide }
        var headerHeight: Int {
            switch size { case .square, .wide: 28; case .paper: 20; case .tiny: 10 }
        }
        var rowHeight: Int {
            switch size { case .square, .wide: 23; case .paper: 12; case .tiny: 9 }
        }
        var content: Rect { Rect(x: 0, y: headerHeight + (big ? 2 : 1), w: W, h: H - headerHeight - (big ? 2 : 1)) }
        var shopTabHeight: Int { big ? 20 : (size == .paper ? 12 : 9) }
    }
}
