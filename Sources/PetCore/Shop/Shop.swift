/// The store, inventory, equipping, home slots, feeding and streak repair (docs/domain.md#the-pet, docs/shop.md).
///
/// Decisions (docs/shop.md): items come from `Engine.catalogue` at decide time only; every event
/// carries what its fold needs (kind, price, slot, fullness), so replay never needs the catalogue.
/// Food stacks (up to 99 servings of each) and is consumed by feeding; every other item is owned
/// once. Wearables, skins and backgrounds are worn, one per slot; furniture and trinkets are placed
/// in the home slots, one per slot.

public enum ShopAction: Sendable, Equatable {
    case buy(item: String)
    case equip(item: String)
    /// Name the slot or the item (at least one; both must agree).
    case unequip(slot: String?, item: String?)
    case place(item: String, slot: String)
    case unplace(slot: String)
    case feed(item: String)
    case repairStreak

    /// The protocol name of the command.
    public var name: String {
        switch self {
        case .buy: "shop.buy"
        case .equip: "shop.equip"
        case .unequip: "shop.unequip"
        case .place: "shop.place"
        case .unplace: "shop.unplace"
        case .feed: "care.feed"
        case .repairStreak: "streak.repair"
        }
    }
}

public enum ShopEvent: SubEvent {
    /// Bought one item for `price` coins. `slot` is where it is worn (wearables, skins,
    /// backgrounds), `fullness` what one serving adds (food).
    case bought(item: String, kind: ItemKind, price: Int, slot: String?, fullness: Int?)
    /// Worn in `slot` (replacing whatever was there).
    case equipped(item: String, slot: String)
    case unequipped(item: String, slot: String)
    /// Placed in a home slot (replacing whatever was there; moved if it was in another slot).
    case placed(item: String, slot: String)
    case unplaced(item: String, slot: String)
    /// One serving eaten: fullness + `amount` (capped at 100).
    case fed(item: String, amount: Int)
    /// The streak broken on `day` (it was `length` long) bought back for `price`; the streak is now
    /// `streak` (the old length plus any days earned since the break).
    case streakRepaired(day: Int, length: Int, streak: Int, price: Int)

    public var type: String {
        switch self {
        case .bought: "shop.bought"
        case .equipped: "shop.equipped"
        case .unequipped: "shop.unequipped"
        case .placed: "shop.placed"
        case .unplaced: "shop.unplaced"
        case .fed: "care.fed"
        case .streakRepaired: "streak.repaired"
        }
    }

    public var coinsDelta: Int {
        switch self {
        case .bought(_, _, let price, _, _), .streakRepaired(_, _, _, let price): -price
        default: 0
        }
    }

    public static func owns(_ type: String) -> Bool { type.hasPrefix("shop.") || type.hasPrefix("care.") || type.hasPrefix("streak.") }
    public static let allTypes: [String] = [
        "shop.bought", "shop.equipped", "shop.unequipped", "shop.placed", "shop.unplaced", "care.fed", "streak.repaired",
    ]

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(type, forKey: AnyKey("type"))
        switch self {
        case let .bought(item, kind, price, slot, fullness):
            try c.encode(item, forKey: AnyKey("item"))
            try c.encode(kind, forKey: AnyKey("kind"))
            try c.encode(price, forKey: AnyKey("price"))
            try c.encodeIfPresent(slot, forKey: AnyKey("slot"))
            try c.encodeIfPresent(fullness, forKey: AnyKey("fullness"))
        case let .equipped(item, slot), let .unequipped(item, slot), let .placed(item, slot), let .unplaced(item, slot):
            try c.encode(item, forKey: AnyKey("item"))
            try c.encode(slot, forKey: AnyKey("slot"))
        case let .fed(item, amount):
            try c.encode(item, forKey: AnyKey("item"))
            try c.encode(amount, forKey: AnyKey("amount"))
        case let .streakRepaired(day, length, streak, price):
            try c.encode(day, forKey: AnyKey("day"))
            try c.encode(length, forKey: AnyKey("length"))
            try c.encode(streak, forKey: AnyKey("streak"))
            try c.encode(price, forKey: AnyKey("price"))
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let type = try c.decode(String.self, forKey: AnyKey("type"))
        let s = c.string, i = c.int
        switch type {
        case "shop.bought":
            self = .bought(item: try s("item"), kind: try c.decode(ItemKind.self, forKey: AnyKey("kind")), price: try i("price"),
                           slot: try c.decodeIfPresent(String.self, forKey: AnyKey("slot")),
                           fullness: try c.decodeIfPresent(Int.self, forKey: AnyKey("fullness")))
        case "shop.equipped": self = .equipped(item: try s("item"), slot: try s("slot"))
        case "shop.unequipped": self = .unequipped(item: try s("item"), slot: try s("slot"))
        case "shop.placed": self = .placed(item: try s("item"), slot: try s("slot"))
        case "shop.unplaced": self = .unplaced(item: try s("item"), slot: try s("slot"))
        case "care.fed": self = .fed(item: try s("item"), amount: try i("amount"))
        case "streak.repaired":
            self = .streakRepaired(day: try i("day"), length: try i("length"), streak: try i("streak"), price: try i("price"))
        default: throw unknownSubEvent(decoder, type)
        }
    }
}

/// An item in the inventory, with what the fold learned from its purchase.
public struct OwnedItem: Codable, Sendable, Equatable {
    public var kind: ItemKind
    /// Servings of food; 1 for everything else.
    public var count: Int
    /// Where it is worn (wearables, skins, backgrounds).
    public var wearSlot: String?
    /// Fullness one serving adds (food).
    public var fullness: Int?
}

/// A streak repair that was bought.
public struct StreakRepair: Codable, Sendable, Equatable {
    /// The day whose miss broke the streak.
    public var day: Int
    /// When it was bought.
    public var at: Instant
    public var length: Int
    public var price: Int

    public init(day: Int, at: Instant, length: Int, price: Int) {
        self.day = day; self.at = at; self.length = length; self.price = price
    }
}

public struct ShopState: Codable, Sendable, Equatable {
    /// Owned items by id (food while servings remain).
    public var owned: [String: OwnedItem] = [:]
    /// What the pet wears: wear slot (hat, glasses, scarf, skin, background) → item id.
    public var worn: [String: String] = [:]
    /// What stands in the home: home slot → item id.
    public var placed: [String: String] = [:]
    /// Servings eaten, ever, and the last feeding.
    public var servingsEaten = 0
    public var lastFed: Instant?
    /// The latest streak repair, and how many were bought.
    public var lastRepair: StreakRepair?
    public var repairs = 0
    public init() {}

    /// The item worn in a slot (`hat`, `glasses`, `scarf`, `skin`, `background`).
    public func wearing(_ slot: String) -> String? { worn[slot] }
    /// The home slot an item stands in.
    public func slot(of item: String) -> String? { placed.first { $0.value == item }?.key }
    /// Servings of a food (or 1/0 for other items).
    public func count(of item: String) -> Int { owned[item]?.count ?? 0 }
}

/// Why a streak repair is or is not possible now.
public enum StreakRepairQuote: Sendable, Equatable {
    case available(price: Int, restoresTo: Int, until: Instant)
    case unavailable(DomainError)
}

/// The store, inventory, care and streak repair as a subsystem.
enum ShopSubsystem: EventWrappingSubsystem {
    typealias Commands = ShopCommands
    static func claim(_ action: Action) -> ShopAction? { if case .shop(let a) = action { a } else { nil } }
    static func claim(_ event: EventKind) -> ShopEvent? { if case .shop(let e) = event { e } else { nil } }
    static func wrap(_ event: ShopEvent) -> EventKind { .shop(event) }

    static func run(_ action: ShopAction, in engine: inout Engine, at: Instant, commandID: String) throws(DomainError) {
        try engine.runShop(action, at: at, commandID: commandID)
    }

    static func apply(_ event: ShopEvent, to engine: inout Engine, at: Instant) { engine.applyShop(event, at: at) }
}

extension Engine {
    mutating func runShop(_ a: ShopAction, at: Instant, commandID: String) throws(DomainError) {
        switch a {
        case .buy(let id):
            try ShopCommands.validateItemID(id)
            guard let item = catalogue.item(id), let kind = item.itemKind else { throw .notFound(kind: "item", id: id) }
            guard state.level >= item.unlockLevel else {
                throw .invalidState(kind: "item", id: id, reason: "unlocks at level \(item.unlockLevel) (level is \(state.level))")
            }
            let have = state.shop.count(of: id)
            if kind == .food {
                guard have < ShopRules.maxFoodServings else {
                    throw .limitReached(what: "servings of \(id)", limit: ShopRules.maxFoodServings)
                }
            } else if have > 0 {
                throw .alreadyExists(kind: "owned item", id: id)
            }
            guard state.coins >= item.price else { throw .insufficientCoins(needed: item.price, balance: state.coins) }
            emit(.shop(.bought(item: id, kind: kind, price: item.price, slot: item.wearSlot,
                               fullness: kind == .food ? item.fullness : nil)), at: at)
            awardBadges(at: at)
            // Food is eaten, not worn: its own lines (docs/screens.md).
            say(kind == .food ? .purchaseFood : .purchase, at: at)
        case .equip(let id):
            let owned = try ownedItem(id)
            guard let slot = owned.wearSlot else {
                throw .invalidField(field: "item", reason: "'\(id)' is \(owned.kind.rawValue); only wearables, skins and backgrounds are worn")
            }
            guard state.shop.worn[slot] != id else { throw .invalidState(kind: "item", id: id, reason: "is already worn") }
            emit(.shop(.equipped(item: id, slot: slot)), at: at)
        case let .unequip(slotName, itemID):
            if let itemID { try ShopCommands.validateItemID(itemID) }
            let slot: String
            if let slotName {
                guard ShopRules.wearSlots.contains(slotName) else {
                    throw .invalidField(field: "slot", reason: "must be one of \(ShopRules.wearSlots.joined(separator: ", "))")
                }
                slot = slotName
                if let itemID, state.shop.worn[slot] != itemID {
                    throw .invalidField(field: "item", reason: "'\(itemID)' is not worn in slot \(slot)")
                }
            } else if let itemID {
                guard let s = state.shop.worn.first(where: { $0.value == itemID })?.key else {
                    throw .invalidState(kind: "item", id: itemID, reason: "is not worn")
                }
                slot = s
            } else {
                throw .missingField(field: "slot")
            }
            guard let current = state.shop.worn[slot] else { throw .invalidState(kind: "slot", id: slot, reason: "is empty") }
            emit(.shop(.unequipped(item: current, slot: slot)), at: at)
        case let .place(id, slot):
            let owned = try ownedItem(id)
            guard owned.kind == .furniture || owned.kind == .trinket else {
                throw .invalidField(field: "item", reason: "'\(id)' is \(owned.kind.rawValue); only furniture and trinkets are placed")
            }
            try validateHomeSlot(slot)
            guard state.shop.placed[slot] != id else { throw .invalidState(kind: "item", id: id, reason: "is already in slot \(slot)") }
            emit(.shop(.placed(item: id, slot: slot)), at: at)
        case .unplace(let slot):
            try validateHomeSlot(slot)
            guard let current = state.shop.placed[slot] else { throw .invalidState(kind: "slot", id: slot, reason: "is empty") }
            emit(.shop(.unplaced(item: current, slot: slot)), at: at)
        case .feed(let id):
            let owned = try ownedItem(id)
            guard owned.kind == .food, let amount = owned.fullness else {
                throw .invalidField(field: "item", reason: "'\(id)' is \(owned.kind.rawValue), not food")
            }
            guard state.needs(at: at).fullnessRaw < Needs.full else {
                throw .invalidState(kind: "pet", id: "fullness", reason: "is already 100")
            }
            emit(.shop(.fed(item: id, amount: amount)), at: at)
        case .repairStreak:
            switch streakRepairQuote(at: at) {
            case .unavailable(let error): throw error
            case let .available(price, restoresTo, _):
                guard let b = state.lastBreak else { throw .invalidState(kind: "streak", id: "daily", reason: "has not broken") }
                emit(.shop(.streakRepaired(day: b.day, length: b.length, streak: restoresTo, price: price)), at: at)
                awardBadges(at: at)
                say(.streak, at: at)
            }
        }
    }

    /// Whether the daily streak can be bought back at `t`, for how much and what it becomes.
    /// Rules (docs/shop.md): a break recorded; within 48 h of it; not repaired already; no other repair
    /// in the last 30 days; no later day broke it again; enough coins.
    public func streakRepairQuote(at t: Instant) -> StreakRepairQuote {
        guard let b = state.lastBreak else {
            return .unavailable(.invalidState(kind: "streak", id: "daily", reason: "has not broken: nothing to repair"))
        }
        if let r = state.shop.lastRepair, r.day == b.day {
            return .unavailable(.invalidState(kind: "streak", id: "daily", reason: "break of day \(b.day) was already repaired"))
        }
        let until = b.at + ShopRules.repairWindow
        guard t <= until else {
            return .unavailable(.invalidState(kind: "streak", id: "daily",
                                              reason: "broke \((t - b.at) / Seconds.hour) h ago; it can be repaired within \(ShopRules.repairWindow / Seconds.hour) h"))
        }
        if let r = state.shop.lastRepair, t - r.at < ShopRules.repairInterval {
            return .unavailable(.limitReached(what: "streak repairs per 30 days", limit: 1))
        }
        for d in (b.day + 1)..<max(b.day + 1, state.openDay) {
            if (state.tally[d]?.missed ?? 0) > 0 || habitDayComplete(day: d) == false {
                return .unavailable(.invalidState(kind: "streak", id: "daily", reason: "broke again on day \(d) after day \(b.day)"))
            }
        }
        let price = ShopRules.repairCoinsPerDay * b.length
        guard state.coins >= price else { return .unavailable(.insufficientCoins(needed: price, balance: state.coins)) }
        return .available(price: price, restoresTo: b.length + state.streak, until: until)
    }

    private func ownedItem(_ id: String) throws(DomainError) -> OwnedItem {
        try ShopCommands.validateItemID(id)
        guard let owned = state.shop.owned[id], owned.count > 0 else { throw .notFound(kind: "owned item", id: id) }
        return owned
    }

    private func validateHomeSlot(_ slot: String) throws(DomainError) {
        guard catalogue.homeSlots.contains(slot) else {
            throw .invalidField(field: "slot", reason: "must be one of \(catalogue.homeSlots.joined(separator: ", "))")
        }
    }

    mutating func applyShop(_ e: ShopEvent, at: Instant) {
        switch e {
        case let .bought(item, kind, _, slot, fullness):
            var owned = state.shop.owned[item] ?? OwnedItem(kind: kind, count: 0, wearSlot: slot, fullness: fullness)
            owned.count += 1
            if kind == .food { owned.fullness = fullness }
            state.shop.owned[item] = owned
            state.purchases += 1
        case let .equipped(item, slot):
            state.shop.worn[slot] = item
        case let .unequipped(_, slot):
            state.shop.worn[slot] = nil
        case let .placed(item, slot):
            for (s, i) in state.shop.placed where i == item { state.shop.placed[s] = nil }
            state.shop.placed[slot] = item
        case let .unplaced(_, slot):
            state.shop.placed[slot] = nil
        case let .fed(item, amount):
            state.needs = state.needs(at: at)
            state.needs.fullnessRaw = clampNeed(state.needs.fullnessRaw + amount * Needs.scale)
            if var owned = state.shop.owned[item] {
                owned.count -= 1
                state.shop.owned[item] = owned.count > 0 ? owned : nil
            }
            state.shop.servingsEaten += 1
            state.shop.lastFed = at
        case let .streakRepaired(day, length, streak, price):
            state.streak = streak
            state.bestStreak = max(state.bestStreak, streak)
            state.shop.lastRepair = StreakRepair(day: day, at: at, length: length, price: price)
            state.shop.repairs += 1
        }
    }

}

/// Command names and fields of this subsystem (merged into CommandParser).
enum ShopCommands: CommandTable {
    static let fields: [String: Set<String>] = [
        "shop.buy": ["item"], "shop.equip": ["item"], "shop.unequip": ["slot", "item"],
        "shop.place": ["item", "slot"], "shop.unplace": ["slot"], "care.feed": ["item"], "streak.repair": [],
    ]

    /// The action for `name`, or nil if the name is not this subsystem's.
    static func parse(name: String, _ f: CommandParser.Fields) throws(DomainError) -> Action? {
        switch name {
        case "shop.buy": return .shop(.buy(item: try f.required("item")))
        case "shop.equip": return .shop(.equip(item: try f.required("item")))
        case "shop.unequip":
            guard f["slot"] != nil || f["item"] != nil else { throw .missingField(field: "slot") }
            return .shop(.unequip(slot: f["slot"], item: f["item"]))
        case "shop.place": return .shop(.place(item: try f.required("item"), slot: try f.required("slot")))
        case "shop.unplace": return .shop(.unplace(slot: try f.required("slot")))
        case "care.feed": return .shop(.feed(item: try f.required("item")))
        case "streak.repair": return .shop(.repairStreak)
        default: return nil
        }
    }

    static func validateItemID(_ id: String) throws(DomainError) {
        guard ShopRules.isValidID(id) else {
            throw .invalidField(field: "item", reason: "must be a catalogue id: \(ShopRules.idLength.text) of a–z, 0–9 and -")
        }
    }
}
