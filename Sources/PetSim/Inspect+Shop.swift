import PetCore

extension Inspector {
    /// Values of the Shop subsystem a scenario can `expect` (nil: not one of its names).
    /// `purchases`, `shop.owned`, `shop.owned.<id>`, `shop.worn.<slot>`, `shop.placed.<slot>`,
    /// `shop.eaten`, `shop.repairs`, `streak.repairable`, `streak.repair-price`.
    static func shopValue(_ path: String, _ device: SimDevice) -> String? {
        let s = device.app.state
        switch path {
        case "purchases": return "\(s.purchases)"
        case "shop.owned": return "\(s.shop.owned.count)"
        case "shop.eaten": return "\(s.shop.servingsEaten)"
        case "shop.repairs": return "\(s.shop.repairs)"
        case "streak.repairable", "streak.repair-price":
            switch device.app.engine.streakRepairQuote(at: max(device.now, s.now)) {
            case let .available(price, _, _): return path == "streak.repairable" ? "yes" : "\(price)"
            case .unavailable(.insufficientCoins(let needed, _)): return path == "streak.repairable" ? "no" : "\(needed)"
            case .unavailable: return path == "streak.repairable" ? "no" : "none"
            }
        default: break
        }
        for (prefix, table) in [("shop.owned.", nil), ("shop.worn.", s.shop.worn), ("shop.placed.", s.shop.placed)]
        where path.hasPrefix(prefix) {
            let key = String(path.dropFirst(prefix.count))
            guard let table else { return "\(s.shop.count(of: key))" }
            return table[key] ?? "none"
        }
        return nil
    }
}
