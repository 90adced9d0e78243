import PetCore
import PetDevice
import PetUI

extension SimDevice {
    /// The `ui.*` values a scenario can `expect` (docs/scenarios.md): what the navigator shows.
    public static let uiValueNames = [
        "ui.screen", "ui.menu", "ui.cursor", "ui.row", "ui.task", "ui.back", "ui.power", "ui.stats-page",
        "ui.store-tab", "ui.editing", "ui.edit-value", "ui.urge-trigger", "ui.urge-outcome", "ui.toasts",
        "ui.toast", "ui.reminder", "ui.missed-banner", "ui.detail", "ui.pairing-code", "ui.setting.<row>",
    ]

    public func uiValue(_ path: String) -> String? {
        let u = ui, s = app.state
        switch path {
        case "ui.screen": return u.screen.rawValue
        case "ui.menu": return u.menu.map { NavRows.menu.indices.contains($0) ? NavRows.menu[$0].rawValue : "\($0)" } ?? "closed"
        case "ui.cursor": return "\(u.cursor)"
        case "ui.back": return u.backStack.isEmpty ? "none" : u.backStack.map(\.rawValue).joined(separator: ",")
        case "ui.power": return u.power.rawValue
        case "ui.stats-page": return "\(u.statsPage)"
        case "ui.store-tab": return NavRows.storeTabs.indices.contains(u.storeTab) ? NavRows.storeTabs[u.storeTab].lowercased() : "\(u.storeTab)"
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
            // The task the home screen shows (the next one unless A moved it).
            let open = s.openTasks()
            return open.indices.contains(u.cursor) ? open[u.cursor].id : (open.first?.id ?? "none")
        case "ui.row":
            // The highlighted row of the list screen shown, as `kind:id`.
            return rowName()
        default: return nil
        }
    }

    func rowName() -> String {
        let u = ui, s = app.state
        if let m = u.menu { return NavRows.menu.indices.contains(m) ? "menu:" + NavRows.menu[m].rawValue : "none" }
        func at<T>(_ a: [T]) -> T? { a.indices.contains(u.cursor) ? a[u.cursor] : nil }
        switch u.screen {
        case .today:
            switch at(NavRows.today(s)) {
            case .task(let id)?: return "task:" + id
            case .habit(let item)?: return "habit:" + item
            case nil: return "none"
            }
        case .store: return at(NavRows.store(tab: u.storeTab)).map { "item:" + $0.id } ?? "none"
        case .wardrobe: return at(NavRows.wardrobe(s)).map { "item:" + $0.item } ?? "none"
        case .commitments: return at(NavRows.commitments(s)).map { "commitment:" + $0.id } ?? "none"
        case .settings: return at(NavRows.settings(hasChord: layout.hasChord)).map { "setting:" + $0.rawValue } ?? "none"
        case .taskDetail: return u.detailTaskID.map { "task:" + $0 } ?? "none"
        default: return "none"
        }
    }
}
