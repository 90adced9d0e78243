import PetCore

// NavigatorView.swift — how the navigator makes its `NavView`: the rows of the list shown (the
// menu's, or the screen definition's `rows`, labelled for the display), the highlighted row, the
// visible window (from the screen's list frame on this display, `ListLayout`) and the hints (from
// the action table, NavigatorActions.swift, and the board's key names).

extension Navigator {
    /// The view `ui` shows with `config`'s board and display. Keeps `ui.cursor` on a selectable row
    /// and `ui.scroll` (the first row drawn) showing it, with one row of look-ahead; `ui.scroll` is
    /// kept while it still shows the cursor. `sync` calls it after every change, so
    /// `Navigator.view` is always what the screen draws; previews and tests call it with a bare
    /// `UIState` (`ScreenContext(state:ui:now:config:theme:)`).
    public static func makeView(ui: inout UIState, state: PetState, now: Instant, config: Config) -> NavView {
        let menu = ui.menu != nil
        let tip = ui.screen == .home && ui.menu == nil && ui.reminder == nil ? Navigator.tip(state: state, config: config) : nil
        guard let frame = ListLayout.frame(ui.screen, menu: menu, profile: config.profile, state: state, now: now) else {
            // Home's card items, once (its action table and the home screen use them).
            let home = ui.screen == .home ? NavRows.home(state) : nil
            // The card's item went (completed, checked): back to the first.
            if let home, ui.cursor >= home.count { ui.cursor = 0 }
            let table = actions(ui, state: state, now: now, config: config, selected: nil, count: 0, home: home)
            return NavView(keys: config.keys, tip: tip, actions: table, homeItems: home)
        }
        let rows = NavRows.rows(ui: ui, state: state, now: now, config: config)
        let selectable = rows.indices.filter { rows[$0].isSelectable }
        // The cursor of this list: the menu's, or the screen's (`ui.cursor` unless its definition
        // keeps its own, as the urge log's steps do).
        let screen = ui.screen.definition
        var cursor = menu ? ui.menu ?? 0 : screen.cursor(ui)
        cursor = selectable.isEmpty ? 0 : min(max(0, cursor), selectable.count - 1)
        if menu { ui.menu = cursor } else { screen.setCursor(cursor, &ui, hasRows: !selectable.isEmpty) }
        let selected = selectable.isEmpty ? nil : selectable[cursor]

        let fits = frame.visible
        let maxFirst = max(0, rows.count - fits)
        var first = min(max(0, ui.scroll), maxFirst)
        if let s = selected {
            if s < first || s >= first + fits {
                first = s < fits - 1 ? 0 : s - fits + 2
            }
            // Show the section label above the first item when scrolled to the top.
            if first == s, s > 0, rows[s - 1].kind == .section { first = s - 1 }
            first = min(max(0, first), maxFirst)
            // Whatever the rules above say, the cursor row is drawn.
            if s >= first + fits { first = s - fits + 1 }
            if s < first { first = s }
        }
        ui.scroll = first
        let table = actions(ui, state: state, now: now, config: config, selected: selected.map { rows[$0].id },
                            count: selectable.count, home: nil)
        return NavView(list: ListView(rows: rows, selected: selected, first: first, visible: fits), keys: config.keys,
                       tip: tip, actions: table)
    }

    /// The view of a bare `UIState` (not kept): what `makeView` gives without storing the scroll.
    public static func view(of ui: UIState, state: PetState, now: Instant, config: Config) -> NavView {
        var u = ui
        return makeView(ui: &u, state: state, now: now, config: config)
    }
}

extension NavRows {
    /// The rows of the list `ui` shows (the menu's while it is open), labelled for
    /// `config.profile`, with `ui`'s editing state. Empty for screens without a list.
    static func rows(ui: UIState, state s: PetState, now: Instant, config: Navigator.Config) -> [NavRow] {
        if ui.menu != nil {
            return menu.map { NavRow(id: "menu:" + $0.rawValue, label: title($0)) }
        }
        return ui.screen.definition.rows(ui: ui, state: s, now: now, config: config)
    }
}

extension Navigator {
    /// The highlighted row's id (`task:rent`, `setting:pause`), as the screen shows it.
    var selectedID: String? { view.list?.selectedRow?.id }

    /// The highlighted row's id without its kind (`rent` for `task:rent`) if it is of `kind`.
    func selected(_ kind: String) -> String? {
        guard let id = selectedID, id.hasPrefix(kind + ":") else { return nil }
        return String(id.dropFirst(kind.count + 1))
    }
}
