import PetCore

// NavigatorView.swift — how the navigator makes its `NavView`: the rows of the list shown (from
// `NavRows`, labelled for the display), the highlighted row, the visible window (from the screen's
// `ListLayout` on this display) and the hints (from the action table, NavigatorActions.swift, and the
// board's key names).

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
        // The cursor of this list: the menu's, the urge log's step, or `ui.cursor`.
        var cursor: Int
        if menu { cursor = ui.menu ?? 0 }
        else if ui.screen == .urgeLog { cursor = ui.urgeOutcome ?? ui.urgeTrigger }
        else { cursor = ui.cursor }
        cursor = selectable.isEmpty ? 0 : min(max(0, cursor), selectable.count - 1)
        if menu { ui.menu = cursor }
        else if ui.screen == .urgeLog {
            if ui.urgeOutcome != nil { ui.urgeOutcome = cursor } else if !selectable.isEmpty { ui.urgeTrigger = cursor }
        } else { ui.cursor = cursor }
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
        let tiny = config.profile.sizeClass == .tiny
        let big = config.profile.sizeClass == .square || config.profile.sizeClass == .wide
        if ui.menu != nil {
            return menu.map { NavRow(id: "menu:" + $0.rawValue, label: title($0)) }
        }
        switch ui.screen {
        case .today:
            let items = today(s)
            let tasks = items.compactMap { item -> TaskItem? in if case .task(let id) = item { s.tasks[id] } else { nil } }
            let boxes = items.compactMap { item -> String? in if case .habit(let b) = item { b } else { nil } }
            let checked = s.checkedToday
            let score = s.habitScoreToday
            var rows = [NavRow(id: "section:tasks", kind: .section, label: "Tasks", value: tasks.isEmpty ? nil : "\(tasks.count) open")]
            if tasks.isEmpty { rows.append(NavRow(id: "note:no-tasks", kind: .note, label: "Nothing due today", muted: true)) }
            for t in tasks {
                rows.append(NavRow(id: "task:" + t.id, label: t.title, value: Fmt.dueShort(t, state: s, now: now),
                                   mark: t.state == .inProgress ? .started : .box(checked: false)))
            }
            let done = boxes.filter { checked.contains($0) }.count
            rows.append(NavRow(id: "section:habits", kind: .section, label: "Habits \(done)/\(boxes.count)",
                               value: score > 0 ? "+\(score) pts" : nil))
            for b in boxes {
                rows.append(NavRow(id: "habit:" + b, label: habitText(b, s), mark: .box(checked: checked.contains(b))))
            }
            return rows
        case .shop:
            let tab = min(max(0, ui.shopTab), shopTabs.count - 1)
            return shop(tab: tab).map { item in
                let owned = s.shop.count(of: item.id)
                let locked = item.unlockLevel > s.level
                var mark: NavRow.Mark = .none
                var right = String(Glyph.coin) + "\(item.price)"
                if locked {
                    mark = .glyph(Glyph.lock)
                    right = "Lv \(item.unlockLevel)"
                } else if owned > 0 {
                    mark = item.itemKind == .food ? .none : .glyph(Glyph.check)
                    if item.itemKind == .food { right = "x\(owned) " + right }
                }
                var name = item.name
                if item.wearSlot.map({ s.shop.wearing($0) == item.id }) == true || s.shop.slot(of: item.id) != nil {
                    name += tiny ? "*" : " (on)"
                }
                if mark == .none { mark = .glyph(" ") }
                return NavRow(id: "item:" + item.id, label: name, value: right, mark: mark,
                              muted: locked || (item.price > s.coins && owned == 0))
            }
        case .wardrobe:
            var rows: [NavRow] = []
            var lastSection = ""
            for item in wardrobe(s) {
                let section: String
                var row: NavRow
                switch item.kind {
                case .food(let n):
                    section = "Food"
                    row = NavRow(id: "item:" + item.item, label: item.name, value: "x\(n)", mark: .glyph(Glyph.heart))
                case .wearable(let slot, let worn):
                    section = "Wear"
                    row = NavRow(id: "item:" + item.item, label: item.name, value: worn ? "on" : slot,
                                 mark: worn ? .glyph(Glyph.check) : .glyph(" "))
                case .homeItem(let slot):
                    section = "Home"
                    row = NavRow(id: "item:" + item.item, label: item.name, value: slot ?? "stored",
                                 mark: slot != nil ? .glyph(Glyph.check) : .glyph(" "), muted: slot == nil)
                }
                if section != lastSection {
                    rows.append(NavRow(id: "section:" + section.lowercased(), kind: .section, label: section))
                    lastSection = section
                }
                rows.append(row)
            }
            return rows
        case .commitments:
            return commitments(s).map { cm in
                let stake = String(Glyph.coin) + "\(cm.plan.stake)"
                if big {
                    return NavRow(id: "commitment:" + cm.id, label: Fmt.commitmentKind(cm.kind) + Fmt.commitmentExtra(cm), value: stake,
                                  detail: Fmt.window(cm, s, now), detailValue: cm.held > 0 ? "held" : "not held")
                }
                return NavRow(id: "commitment:" + cm.id,
                              label: (tiny ? Fmt.tinyKind(cm.kind) : Fmt.commitmentKind(cm.kind)) + " " + Fmt.window(cm, s, now, terse: true),
                              value: stake)
            }
        case .settings:
            let rows = settings(hasChord: config.hasChord)
            return rows.enumerated().map { k, st in
                let editing = ui.editingSetting && k == ui.cursor
                if st == .factoryReset {
                    // Armed, the row asks and says which key of this board erases: "Erase all?
                    // hold OK" (short enough to show whole on every display).
                    guard editing else { return NavRow(id: "setting:" + st.rawValue, label: tiny ? st.terse : st.title) }
                    return NavRow(id: "setting:" + st.rawValue, label: "Erase all?",
                                  value: config.keys.name(.holdSelect) ?? "hold select")
                }
                var v = settingText(st, state: s, editing: editing && st.isValue ? ui.editValue : nil)
                if editing { v = "< " + v + " >" }
                return NavRow(id: "setting:" + st.rawValue, label: tiny ? st.terse : st.title, value: v, valueLarge: true)
            }
        case .urgeLog:
            if ui.urgeOutcome != nil {
                return QuitOutcome.allCases.map { NavRow(id: "outcome:" + $0.rawValue, label: Fmt.outcome($0)) }
            }
            let triggers = ui.urgeTriggers.isEmpty ? s.urgeTriggerMenu(at: now) : ui.urgeTriggers
            return triggers.map { NavRow(id: "trigger:" + $0, label: s.quitTriggerName($0) ?? $0) }
        case .pairing:
            // The paired phones (hold select unpairs one); none while a code is shown.
            guard ui.pairingCode == nil else { return [] }
            return s.phones.paired.map { NavRow(id: "phone:" + $0.id, label: $0.name.isEmpty ? $0.id : $0.name) }
        case .boot, .home, .taskDetail, .stats, .focus:
            return []
        }
    }

    /// What a checklist box says.
    static func habitText(_ id: String, _ s: PetState) -> String {
        switch id {
        case HabitRules.movement: "Daily movement"
        case HabitRules.observation: "Observe (training week)"
        default: s.habits.habits[id]?.text ?? id
        }
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
