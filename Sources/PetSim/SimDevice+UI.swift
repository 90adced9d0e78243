import PetCore
import PetDevice
import PetUI

extension SimDevice {
    /// The `ui.*` values a scenario can `expect` (docs/scenarios.md): what the navigator shows.
    public static let uiValueNames = [
        "ui.screen", "ui.menu", "ui.cursor", "ui.row", "ui.highlight", "ui.task", "ui.back", "ui.power", "ui.stats-page",
        "ui.shop-tab", "ui.circle", "ui.editing", "ui.edit-value", "ui.urge-trigger", "ui.urge-outcome", "ui.toasts",
        "ui.toast", "ui.reminder", "ui.missed-banner", "ui.detail", "ui.pairing-code", "ui.setting.<row>",
    ]

    /// Old spellings that keep working (docs/scenarios.md): `ui.store-tab` is `ui.shop-tab`, and
    /// the screen `store` is `shop` in `ui.screen`, `ui.menu`, `ui.back` and `ui.row` (`menu:store`).
    /// Returns the path and the expected value to compare with.
    public static func uiAlias(_ path: String, expected: String) -> (path: String, expected: String) {
        switch path {
        case "ui.store-tab": return ("ui.shop-tab", expected)
        case "ui.screen", "ui.menu":
            return (path, expected == "store" ? "shop" : expected)
        case "ui.back":
            return (path, expected.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0 == "store" ? "shop" : String($0) }.joined(separator: ","))
        case "ui.row": return (path, expected == "menu:store" ? "menu:shop" : expected)
        default: return (path, expected)
        }
    }

    public func uiValue(_ path: String) -> String? {
        let u = ui, s = app.state
        switch path {
        case "ui.screen": return u.screen.rawValue
        case "ui.menu": return u.menu.map { NavRows.menu.indices.contains($0) ? NavRows.menu[$0].rawValue : "\($0)" } ?? "closed"
        case "ui.cursor": return "\(u.cursor)"
        case "ui.back": return u.backStack.isEmpty ? "none" : u.backStack.map(\.rawValue).joined(separator: ",")
        case "ui.power": return u.power.rawValue
        case "ui.stats-page": return "\(u.statsPage)"
        case "ui.shop-tab", "ui.store-tab":
            return NavRows.shopTabs.indices.contains(u.shopTab) ? NavRows.shopTabs[u.shopTab].lowercased() : "\(u.shopTab)"
        case "ui.circle": return NavRows.shownCircle(s, tab: u.circleTab)?.circle ?? "none"
        case "ui.editing": return u.editingSetting ? "yes" : "no"
        case "ui.edit-value": return "\(u.editValue)"
        case "ui.urge-trigger": return u.urgeTriggers.indices.contains(u.urgeTrigger) ? u.urgeTriggers[u.urgeTrigger] : "none"
        case "ui.urge-outcome": return u.urgeOutcome.map { QuitOutcome.allCases.indices.contains($0) ? QuitOutcome.allCases[$0].rawValue : "\($0)" } ?? "none"
        case "ui.toasts": return "\(u.toasts.count)"
        case "ui.toast": return u.toasts.isEmpty ? "none" : u.toasts.map(\.text).joined(separator: " | ")
        case "ui.reminder": return u.reminder.map { "\($0.source.rawValue):\($0.ref)" } ?? "none"
        case "ui.missed-banner": return "\(u.missedBanner)"
        case "ui.detail": return u.detailTaskID ?? "none"
        case "ui.pairing-code": return u.pairingCode ?? "none"
        case _ where path.hasPrefix("ui.setting."):
            // A settings row's value as the settings screen shows it: ui.setting.theme == dark
            guard let row = NavRows.SettingRow(rawValue: String(path.dropFirst(11))) else { return nil }
            return NavRows.settingText(row, state: s)
        case "ui.task":
            // What the home card shows (the next task unless A moved it): a task id, `habit:<id>`
            // for one of today's unchecked habits (after the tasks), or `none`.
            let items = NavRows.home(s)
            switch items.indices.contains(u.cursor) ? items[u.cursor] : items.first ?? nil {
            case .task(let id)?: return id
            case .habit(let item)?: return "habit:" + item
            case nil: return "none"
            }
        case "ui.row":
            // The highlighted row of the list screen shown, as `kind:id`.
            return rowName()
        case "ui.highlight":
            // The texts the display draws in its highlighted row, joined by " | " (`none`).
            let texts = canvas.highlightedText
            return texts.isEmpty ? "none" : texts.joined(separator: " | ")
        default: return nil
        }
    }

    /// The highlighted row as the navigator's view has it (the row the screen highlights and the
    /// inputs act on): `task:<id>`, `setting:<row>`, `menu:<screen>`, …; the task detail's task;
    /// `none`.
    func rowName() -> String {
        if let row = navigator.view.list?.selectedRow { return row.id }
        if ui.menu == nil, ui.screen == .taskDetail, let id = ui.detailTaskID { return "task:" + id }
        return "none"
    }
}
