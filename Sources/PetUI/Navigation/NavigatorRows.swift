import PetCore

/// The rows of every list screen, in display order. The navigator moves `UIState.cursor` over
/// these and makes its view from them (NavigatorView.swift); the screens draw that view, so both
/// always agree on what row N is.
public enum NavRows {
    // MARK: - Menu (over the home screen)

    /// The menu opened from home (tap B): a ring (it wraps both ways) that opens on its first
    /// entry, so the first entry costs one press after the menu and its two neighbours (the last
    /// entry: A up; the second: down, which is hold A on three buttons) two. Stats (the pet's
    /// "status", Tamagotchi's first icon) comes first, the focus timer and the wardrobe (food:
    /// hold B there feeds) next to it; the rest by how often they are used (issue 10 item 6).
    public static let menu: [ScreenID] = [
        .stats, .focus, .today, .shop, .urgeLog, .commitments, .settings, .pairing, .wardrobe,
    ]

    /// What hold B on a menu entry does at once, without opening it (nil: nothing now): start a
    /// focus session (25 min, or what a focus commitment needs) on Focus, feed the first food in
    /// the inventory on Wardrobe. The hint bar names it ("hold B start", "hold B feed").
    public static func menuJob(_ s: ScreenID, state: PetState) -> (command: NavCommand, action: Action)? {
        switch s {
        case .focus where state.commitments.focus == nil:
            return (.startFocus, .commitment(.startFocus(minutes: nil, block: [])))
        case .wardrobe:
            for row in wardrobe(state) { if case .food = row.kind { return (.feed, .shop(.feed(item: row.item))) } }
            return nil
        default: return nil
        }
    }

    // MARK: - Home

    /// What home's card steps through (A up, down): the open tasks (the empty card when there are
    /// none), then today's unchecked habits. Hold B completes the task shown or checks the habit
    /// shown, so a habit is two presses from home (A wraps to the last one).
    public static func home(_ state: PetState) -> [TodayRow?] {
        let tasks: [TodayRow?] = state.openTasks().map { .task(id: $0.id) }
        let checked = state.checkedToday
        let habits: [TodayRow?] = state.checklist.filter { !checked.contains($0) }.map { .habit(item: $0) }
        return (tasks.isEmpty ? [nil] : tasks) + habits
    }

    /// The menu label of a screen.
    public static func title(_ s: ScreenID) -> String {
        switch s {
        case .boot: "DeskPet"
        case .home: "Home"
        case .today: "Today"
        case .taskDetail: "Task"
        case .shop: "Shop"
        case .wardrobe: "Wardrobe"
        case .stats: "Stats"
        case .focus: "Focus"
        case .urgeLog: "Urge log"
        case .commitments: "Commitments"
        case .settings: "Settings"
        case .pairing: "Pairing"
        }
    }

    // MARK: - Today

    public enum TodayRow: Sendable, Equatable {
        /// An open task (due today, overdue, or with no due date), in list order.
        case task(id: String)
        /// A checklist box: a habit id, `movement` or `observation`.
        case habit(item: String)
    }

    /// Today's rows: the open tasks (`state.openTasks()`), then the habit checklist
    /// (`state.checklist`, `movement` last).
    public static func today(_ state: PetState) -> [TodayRow] {
        state.openTasks().map { .task(id: $0.id) } + state.checklist.map { .habit(item: $0) }
    }

    // MARK: - Shop

    /// Shop tabs (`UIState.shopTab`): food, wearables, skins, home items (furniture, trinkets,
    /// backgrounds).
    public static let shopTabs = ["Food", "Wear", "Skins", "Home"]

    /// The catalogue items of a shop tab, in catalogue order.
    public static func shop(tab: Int, catalogue: Catalogue = .builtIn) -> [CatalogueItem] {
        let kinds: [ItemKind]
        switch tab {
        case 0: kinds = [.food]
        case 1: kinds = [.wearable]
        case 2: kinds = [.skin]
        default: kinds = [.furniture, .trinket, .background]
        }
        return catalogue.items.filter { item in item.itemKind.map(kinds.contains) ?? false }
    }

    // MARK: - Wardrobe

    /// A row of the wardrobe/home screen: something the pet owns.
    public struct WardrobeRow: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// Food in the inventory (hold B feeds one serving).
            case food(servings: Int)
            /// Worn in a slot (`worn` = it is on now); tap B puts it on or takes it off.
            case wearable(slot: String, worn: Bool)
            /// A home item; `slot` = where it stands now (nil: stored). Tap B places it or puts it away.
            case homeItem(slot: String?)
        }
        public var item: String
        public var name: String
        public var kind: Kind
    }

    /// What the pet owns, in catalogue order: food, then things it wears, then home items.
    public static func wardrobe(_ state: PetState, catalogue: Catalogue = .builtIn) -> [WardrobeRow] {
        var food: [WardrobeRow] = [], wear: [WardrobeRow] = [], home: [WardrobeRow] = []
        for item in catalogue.items {
            guard let owned = state.shop.owned[item.id], owned.count > 0 else { continue }
            switch owned.kind {
            case .food:
                food.append(WardrobeRow(item: item.id, name: item.name, kind: .food(servings: owned.count)))
            case .wearable, .skin, .background:
                let slot = owned.wearSlot ?? item.wearSlot ?? ""
                wear.append(WardrobeRow(item: item.id, name: item.name,
                                        kind: .wearable(slot: slot, worn: state.shop.worn[slot] == item.id)))
            case .furniture, .trinket:
                home.append(WardrobeRow(item: item.id, name: item.name, kind: .homeItem(slot: state.shop.slot(of: item.id))))
            }
        }
        return food + wear + home
    }

    // MARK: - Commitments

    /// The active commitments, by id (`state.commitments.active`).
    public static func commitments(_ state: PetState) -> [Commitment] { state.commitments.active }

    // MARK: - Settings

    public enum SettingRow: String, Sendable, CaseIterable {
        /// The hour days start (0–23): B edits, A/D up/down, B saves.
        case dayStart = "day-start"
        /// Quiet hours start and end (minutes of the day, 30-minute steps): B edits.
        case quietStart = "quiet-start"
        case quietEnd = "quiet-end"
        /// Light/dark: B toggles.
        case theme
        /// Buzzer on/off: B toggles.
        case sound
        /// 10–100 % in steps of 10: B edits.
        case brightness
        /// Dim and sleep times (seconds): B edits.
        case dimAfter = "dim"
        case sleepAfter = "sleep"
        /// Pause (vacation) on/off: B toggles.
        case pause
        /// Factory reset, only on boards without the A+C chord (the joystick): B arms it, then
        /// hold B erases everything.
        case factoryReset = "factory-reset"

        /// The label on the settings screen.
        public var title: String {
            switch self {
            case .dayStart: "Day starts"
            case .quietStart: "Quiet from"
            case .quietEnd: "Quiet until"
            case .theme: "Theme"
            case .sound: "Sound"
            case .brightness: "Brightness"
            case .dimAfter: "Dim after"
            case .sleepAfter: "Sleep after"
            case .pause: "Pause"
            case .factoryReset: "Factory reset"
            }
        }

        /// The short label on 128×64.
        public var terse: String {
            switch self {
            case .dayStart: "Day start"
            case .quietStart: "Quiet from"
            case .quietEnd: "Quiet to"
            case .brightness: "Bright"
            case .dimAfter: "Dim"
            case .sleepAfter: "Sleep"
            case .factoryReset: "Reset"
            default: title
            }
        }

        /// Edited with a value (B, then up/down, then B) rather than toggled by B.
        public var isValue: Bool {
            switch self {
            case .dayStart, .quietStart, .quietEnd, .brightness, .dimAfter, .sleepAfter: true
            case .theme, .sound, .pause, .factoryReset: false
            }
        }
    }

    /// The settings rows; `factoryReset` only when the board has no A+C chord (no default: the
    /// board decides, issue 7).
    public static func settings(hasChord: Bool) -> [SettingRow] {
        SettingRow.allCases.filter { hasChord ? $0 != .factoryReset : true }
    }

    /// The value a row shows, as text (`editing` = the pending value while editing).
    public static func settingText(_ row: SettingRow, state: PetState, editing: Int? = nil) -> String {
        func hm(_ minute: Int) -> String {
            let h = minute / 60, m = minute % 60
            return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
        }
        func duration(_ s: Int) -> String { s % 60 == 0 ? "\(s / 60) min" : "\(s) s" }
        switch row {
        case .dayStart: return hm((editing ?? state.clock.dayStartHour) * 60)
        case .quietStart: return hm(editing ?? state.quiet.startMinute)
        case .quietEnd: return hm(editing ?? state.quiet.endMinute)
        case .theme: return state.device.theme == .dark ? "dark" : "light"
        case .sound: return state.device.sound ? "on" : "off"
        case .brightness: return "\(editing ?? state.device.brightness) %"
        case .dimAfter: return duration(editing ?? state.device.dimAfter)
        case .sleepAfter: return duration(editing ?? state.device.sleepAfter)
        case .pause: return state.paused ? "on" : "off"
        // No value; armed, the navigator's view shows "Erase all?" and this board's key.
        case .factoryReset: return ""
        }
    }
}
