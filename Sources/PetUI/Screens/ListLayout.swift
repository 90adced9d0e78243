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
        let m = Metrics(profile)
        let W = m.W, H = m.H, content = m.content
        // The hint bar: one line of the 12×16 face (the smallest legible on the colour panels).
        let hints = m.big ? 18 : 0
        switch screen {
        case .today:
            return ListFrame(area: Rect(x: 0, y: content.y, w: W, h: content.h - hints), rowHeight: m.rowHeight)
        case .shop:
            let tabH = m.shopTabHeight
            return ListFrame(area: Rect(x: 0, y: content.y + tabH + 2, w: W, h: content.maxY - content.y - tabH - 2 - hints),
                             rowHeight: m.rowHeight)
        case .wardrobe:
            switch m.size {
            case .square:
                let previewBottom = content.y + 4 + 86
                return ListFrame(area: Rect(x: 0, y: previewBottom + 4, w: W, h: H - previewBottom - 4), rowHeight: m.rowHeight)
            case .wide, .paper:
                let pw = m.size == .wide ? 120 : 86
                return ListFrame(area: Rect(x: pw + 8, y: content.y, w: W - pw - 8, h: content.h), rowHeight: m.rowHeight)
            case .tiny:
                return ListFrame(area: content, rowHeight: m.rowHeight)
            }
        case .commitments:
            let footerH = m.big ? 14 : 9
            let list = Rect(x: 0, y: content.y, w: W, h: content.h - footerH)
            // Colour: two-line cards of 44 px above the charity jar's card (44 px).
            if m.big { return ListFrame(area: Rect(x: list.x, y: list.y, w: list.w, h: list.h - 44), rowHeight: 44) }
            return ListFrame(area: list, rowHeight: m.rowHeight)
        case .settings:
            if m.big {
                let h = content.h - hints
                return ListFrame(area: Rect(x: 0, y: content.y + 2, w: W, h: h - 2), rowHeight: 28)
            }
            return ListFrame(area: content, rowHeight: m.size == .paper ? 16 : 9)
        case .urgeLog:
            switch m.size {
            case .square:
                let infoBottom = content.y + 4 + 64   // UrgeLogScreen's info card (three lines of 12×16)
                return ListFrame(area: Rect(x: 0, y: infoBottom + 24, w: W, h: H - infoBottom - 24 - hints), rowHeight: m.rowHeight)
            case .wide:
                return ListFrame(area: Rect(x: 0, y: content.y + 44, w: 204, h: H - content.y - 44 - hints), rowHeight: m.rowHeight)
            case .paper:
                return ListFrame(area: Rect(x: 0, y: content.y + 11, w: 140, h: content.h - 11), rowHeight: m.rowHeight)
            case .tiny:
                let top = content.y + (state.quitGauge(at: now) != nil ? 9 : 0)
                return ListFrame(area: Rect(x: 0, y: top + 9, w: W, h: H - top - 9), rowHeight: m.rowHeight)
            }
        case .pairing:
            // The paired phones, under a line saying how to pair another (while no code shows).
            let textH = m.big ? 30 : (m.size == .paper ? 13 : 9)
            return ListFrame(area: Rect(x: 0, y: content.y + textH, w: W, h: content.h - textH - hints), rowHeight: m.rowHeight)
        case .boot, .home, .taskDetail, .stats, .focus:
            return nil
        }
    }

    /// The menu panel over the home screen (NavigatorMenuView.swift draws it).
    struct MenuGeometry {
        let big: Bool, scale: Int, small: Bool, margin: Int, rowH: Int, headerH: Int, panel: Rect
        init(_ p: DisplayProfile) {
            let w = p.width, h = p.height
            big = w >= 200 && h >= 200
            scale = big ? 2 : 1
            small = h < 100
            margin = small ? 0 : (big ? 12 : 4)
            rowH = scale * 8 + (big ? 4 : (small ? 1 : 3))
            headerH = small ? 0 : scale * 8 + (big ? 8 : 4)
            panel = Rect(x: margin, y: margin, w: w - 2 * margin, h: h - 2 * margin)
        }
        var rows: Rect {
            let visible = max(1, (panel.h - headerH - (big ? 6 : 2)) / rowH)
            return Rect(x: panel.x + (big ? 6 : 2), y: panel.y + headerH + (big ? 2 : 1), w: panel.w - (big ? 12 : 4), h: visible * rowH)
        }
    }

    static func menuFrame(_ p: DisplayProfile) -> ListFrame {
        let g = MenuGeometry(p)
        return ListFrame(area: g.rows, rowHeight: g.rowH)
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
            switch size { case .square, .wide: 24; case .paper: 12; case .tiny: 9 }
        }
        var content: Rect { Rect(x: 0, y: headerHeight + (big ? 2 : 1), w: W, h: H - headerHeight - (big ? 2 : 1)) }
        var shopTabHeight: Int { big ? 20 : (size == .paper ? 12 : 9) }
    }
}
