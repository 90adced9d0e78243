import XCTest
import TestSupport
import PetCore

// docs/domain.md#the-pet (food), docs/shop.md (store, inventory, streak repair) and the first-purchase badge of docs/domain.md#streak-and-badges.
//
// Numbers used below (content/catalogue.json): apple 5 coins +10 fullness, cookie 5 +6,
// banana 7 +12, sandwich 12 +25, pizza-slice 15 +30, noodle-bowl 18 +35 (level 2),
// birthday-cake 40 +60 (level 5); party-hat 30 (hat), beanie 25 (hat), sunglasses 45 (glasses),
// knit-scarf 40 (scarf), skin-midnight 120 (level 3), bg-meadow 80; cushion 20, floor-lamp 50,
// rubber-duck 10; aquarium 300 (level 12). Home slots: left, middle, right, shelf.
// Levels: 2 at 75 XP, 3 at 175, 4 at 300, 5 at 450, 6 at 625.

extension Harness {
    /// Earns exactly `coins` coins (and 2 × coins XP) with undated low-priority tasks completed at
    /// once: each earns 5 + 1 per full 15 min of estimate (5–21 coins). Needs coins == 0 or ≥ 5.
    mutating func earn(_ coins: Int, file: StaticString = #filePath, line: UInt = #line) {
        var left = coins
        while left > 0 {
            var chunk = min(21, left)
            if (1..<5).contains(left - chunk) { chunk = left - 5 }
            guard chunk >= 5 else { XCTFail("cannot earn \(coins) coins in chunks of 5–21", file: file, line: line); return }
            let id = "earn-\(state.eventCount)"
            var fields = ["task": id, "title": "Chore", "priority": "low"]
            if chunk > 5 { fields["estimate"] = "\((chunk - 5) * 15)" }
            ok("task.create", fields, file: file, line: line)
            ok("task.complete", ["task": id], file: file, line: line)
            left -= chunk
        }
    }
}

extension Array where Element == Event {
    var shopEvents: [ShopEvent] { compactMap { if case .shop(let e) = $0.kind { return e } else { return nil } } }
}

final class CatalogueTests: XCTestCase {
    func testTheBuiltInCatalogueIsValidAndCoversEveryKind() throws {
        let c = Catalogue.builtIn
        XCTAssertNoThrow(try c.validate())
        XCTAssertGreaterThanOrEqual(c.items.count, 40)
        for kind in ItemKind.allCases { XCTAssertFalse(c.items(of: kind).isEmpty, "no \(kind) items") }
        for slot in ShopRules.wearableSlots {
            XCTAssertTrue(c.items(of: .wearable).contains { $0.slot == slot }, "no wearable for \(slot)")
        }
        XCTAssertEqual(c.homeSlots, ["left", "middle", "right", "shelf"])
        XCTAssertEqual(Set(c.items.map(\.id)).count, c.items.count)
        XCTAssertTrue(c.items.allSatisfy { (5...500).contains($0.price) })
        XCTAssertTrue(c.items.contains { $0.level != nil }, "some items unlock at a level")
        let apple = try XCTUnwrap(c.item("apple"))
        XCTAssertEqual(apple.price, 5)
        XCTAssertEqual(apple.fullness, 10)
        XCTAssertEqual(apple.unlockLevel, 1)
        XCTAssertEqual(c.item("party-hat")?.wearSlot, "hat")
        XCTAssertEqual(c.item("skin-midnight")?.wearSlot, "skin")
        XCTAssertEqual(c.item("bg-meadow")?.wearSlot, "background")
        XCTAssertNil(c.item("cushion")?.wearSlot)
        XCTAssertNil(c.item("no-such-item"))
    }

    private let apple = CatalogueItem(id: "apple", name: "Apple", kind: "food", price: 5, fullness: 10)
    private let hat = CatalogueItem(id: "hat", name: "Hat", kind: "wearable", price: 30, slot: "hat")
    private let skin = CatalogueItem(id: "skin", name: "Skin", kind: "skin", price: 100, colour: "#aaBB00")
    private let sofa = CatalogueItem(id: "sofa", name: "Sofa", kind: "furniture", price: 100)

    private func refusal(_ items: [CatalogueItem], slots: [String] = ["left"]) -> Refusal? {
        do { try Catalogue.validate(items: items, homeSlots: slots); return nil } catch { return error.refusal }
    }

    private func with(_ item: CatalogueItem, _ change: (inout CatalogueItem) -> Void) -> CatalogueItem {
        var copy = item
        change(&copy)
        return copy
    }

    func testValidCataloguesPass() throws {
        XCTAssertNil(refusal([apple, hat, skin, sofa]))
        XCTAssertNil(refusal([with(apple) { $0.price = 5 }, with(sofa) { $0.price = 500 }]))
        XCTAssertNil(refusal([with(apple) { $0.fullness = 1 }, with(sofa) { $0.level = 100 }, with(hat) { $0.level = 1 }]))
        XCTAssertNil(refusal([with(apple) { $0.fullness = 100 }]))
        let c = try Catalogue(validating: [apple, hat], homeSlots: ["left", "right"])
        XCTAssertEqual(c.item("hat")?.price, 30)
    }

    func testPricesMustBe5To500Coins() {
        XCTAssertEqual(refusal([with(apple) { $0.price = 4 }]), .field("item apple.price"))
        XCTAssertEqual(refusal([with(sofa) { $0.price = 501 }]), .field("item sofa.price"))
        XCTAssertEqual(refusal([with(sofa) { $0.price = -5 }]), .field("item sofa.price"))
    }

    func testIdsAreUniqueAndWellFormed() {
        XCTAssertEqual(refusal([apple, hat, with(sofa) { $0.id = "apple" }]), .exists("catalogue item", "apple"))
        XCTAssertEqual(refusal([with(apple) { $0.id = "Apple" }]), .field("item id"))
        XCTAssertEqual(refusal([with(apple) { $0.id = "" }]), .field("item id"))
        XCTAssertEqual(refusal([with(apple) { $0.id = "green apple" }]), .field("item id"))
        XCTAssertEqual(refusal([with(apple) { $0.id = String(repeating: "a", count: 41) }]), .field("item id"))
        XCTAssertNil(refusal([with(apple) { $0.id = String(repeating: "a", count: 40) }]))
    }

    func testNamesAre1To30CharactersOnOneLine() {
        XCTAssertEqual(refusal([with(apple) { $0.name = "" }]), .field("item apple.name"))
        XCTAssertEqual(refusal([with(apple) { $0.name = " Apple" }]), .field("item apple.name"))
        XCTAssertEqual(refusal([with(apple) { $0.name = "Ap\nple" }]), .field("item apple.name"))
        XCTAssertEqual(refusal([with(apple) { $0.name = String(repeating: "x", count: 31) }]), .field("item apple.name"))
        XCTAssertNil(refusal([with(apple) { $0.name = String(repeating: "x", count: 30) }]))
    }

    func testUnknownKindIsRefused() {
        XCTAssertEqual(refusal([with(sofa) { $0.kind = "toy" }]), .field("item sofa.kind"))
        XCTAssertEqual(refusal([with(sofa) { $0.kind = "Furniture" }]), .field("item sofa.kind"))
    }

    func testFoodNeedsAFullnessAmountAndOnlyFoodHasOne() {
        XCTAssertEqual(refusal([with(apple) { $0.fullness = nil }]), .field("item apple.fullness"))
        XCTAssertEqual(refusal([with(apple) { $0.fullness = 0 }]), .field("item apple.fullness"))
        XCTAssertEqual(refusal([with(apple) { $0.fullness = 101 }]), .field("item apple.fullness"))
        XCTAssertEqual(refusal([with(hat) { $0.fullness = 5 }]), .field("item hat.fullness"))
    }

    func testWearablesNeedAKnownSlotAndOnlyWearablesHaveOne() {
        XCTAssertEqual(refusal([with(hat) { $0.slot = nil }]), .field("item hat.slot"))
        XCTAssertEqual(refusal([with(hat) { $0.slot = "shoes" }]), .field("item hat.slot"))
        XCTAssertEqual(refusal([with(hat) { $0.slot = "skin" }]), .field("item hat.slot"))
        XCTAssertEqual(refusal([with(sofa) { $0.slot = "hat" }]), .field("item sofa.slot"))
        XCTAssertNil(refusal([with(hat) { $0.slot = "glasses" }, with(hat) { $0.id = "scarf"; $0.slot = "scarf" }]))
    }

    func testSkinsNeedAColourAndOnlySkinsHaveOne() {
        XCTAssertEqual(refusal([with(skin) { $0.colour = nil }]), .field("item skin.colour"))
        XCTAssertEqual(refusal([with(skin) { $0.colour = "blue" }]), .field("item skin.colour"))
        XCTAssertEqual(refusal([with(skin) { $0.colour = "#12345G" }]), .field("item skin.colour"))
        XCTAssertEqual(refusal([with(skin) { $0.colour = "#1234567" }]), .field("item skin.colour"))
        XCTAssertEqual(refusal([with(sofa) { $0.colour = "#123456" }]), .field("item sofa.colour"))
    }

    func testUnlockLevelsAre1To100() {
        XCTAssertEqual(refusal([with(hat) { $0.level = 0 }]), .field("item hat.level"))
        XCTAssertEqual(refusal([with(hat) { $0.level = 101 }]), .field("item hat.level"))
    }

    func testHomeSlotsAndItemsMustExist() {
        XCTAssertEqual(refusal([apple], slots: []), .field("homeSlots"))
        XCTAssertEqual(refusal([apple], slots: ["left", "left"]), .exists("home slot", "left"))
        XCTAssertEqual(refusal([apple], slots: ["Left"]), .field("homeSlots"))
        XCTAssertEqual(refusal([]), .field("items"))
        XCTAssertThrowsError(try Catalogue(validating: [with(apple) { $0.price = 1 }], homeSlots: ["left"]))
    }
}

final class ShopTests: XCTestCase {
    // MARK: - Buying

    func testBuyingSpendsTheExactPriceAndAddsToTheInventory() throws {
        var h = Harness(at: "2026-03-02 08:00")
        h.earn(50)
        XCTAssertEqual(h.state.coins, 50)
        let events = h.ok("shop.buy", ["item": "apple"])
        XCTAssertEqual(events.shopEvents, [.bought(item: "apple", kind: .food, price: 5, slot: nil, fullness: 10)])
        XCTAssertEqual(events.first("shop.bought")?.kind.coinsDelta, -5)
        XCTAssertEqual(h.state.coins, 45)
        XCTAssertEqual(h.state.coinsSpent, 5)
        XCTAssertEqual(h.state.stats[h.state.openDay].coinsSpent, 5)
        XCTAssertEqual(h.state.purchases, 1)
        XCTAssertEqual(h.state.shop.count(of: "apple"), 1)
        // First purchase: the badge, once, and a purchase line.
        XCTAssertEqual(events.badges, ["first-purchase"])
        XCTAssertEqual(h.state.badges["first-purchase"], h.now)
        XCTAssertEqual(events.saidKeys.count, 1)
        // An apple is food: a food line (never "can I wear it?"), docs/screens.md.
        XCTAssertTrue(events.saidKeys[0].hasPrefix("food."), events.saidKeys[0])
        XCTAssertEqual(Lines.line(key: events.saidKeys[0])?.kind, .purchaseFood)

        let hat = h.ok("shop.buy", ["item": "party-hat"])
        XCTAssertEqual(hat.shopEvents, [.bought(item: "party-hat", kind: .wearable, price: 30, slot: "hat", fullness: nil)])
        XCTAssertEqual(hat.badges, [])
        XCTAssertTrue(hat.saidKeys.allSatisfy { $0.hasPrefix("buy.") })
        XCTAssertEqual(h.state.coins, 15)
        XCTAssertEqual(h.state.purchases, 2)
        XCTAssertEqual(h.state.coinsSpent, 35)
        h.assertReplayEqualsLive()
    }

    func testBuyingWithoutEnoughCoinsIsRefusedAndChangesNothing() {
        var h = Harness(at: "2026-03-02 08:00")
        h.refuse("shop.buy", ["item": "apple"], .coins(needed: 5, balance: 0))
        h.earn(25)
        h.refuse("shop.buy", ["item": "party-hat"], .coins(needed: 30, balance: 25))
        XCTAssertEqual(h.state.purchases, 0)
        XCTAssertNil(h.state.badges["first-purchase"])
        h.earn(5)
        h.ok("shop.buy", ["item": "party-hat"])          // exactly 30 of 30
        XCTAssertEqual(h.state.coins, 0)
        h.refuse("shop.buy", ["item": "cookie"], .coins(needed: 5, balance: 0))
        XCTAssertEqual(h.state.coins, 0)
        h.assertReplayEqualsLive()
    }

    func testLevelLockedItemsAreRefusedBelowTheirLevel() {
        var h = Harness(at: "2026-03-02 08:00")
        h.earn(20)                                         // XP 40: level 1
        XCTAssertEqual(h.state.level, 1)
        h.refuse("shop.buy", ["item": "noodle-bowl"], .state("item", "noodle-bowl"))
        h.earn(20)                                         // XP 80 ≥ 75: level 2
        XCTAssertEqual(h.state.level, 2)
        h.ok("shop.buy", ["item": "noodle-bowl"])          // 40 − 18 = 22
        XCTAssertEqual(h.state.coins, 22)
        h.earn(130)                                        // XP 340: level 4, coins 152
        XCTAssertEqual(h.state.level, 4)
        h.refuse("shop.buy", ["item": "birthday-cake"], .state("item", "birthday-cake"))
        h.earn(60)                                         // XP 460 ≥ 450: level 5, coins 212
        XCTAssertEqual(h.state.level, 5)
        h.ok("shop.buy", ["item": "birthday-cake"])
        XCTAssertEqual(h.state.coins, 172)
        // The level lock is checked before the balance: aquarium (level 12, 300 coins).
        h.refuse("shop.buy", ["item": "aquarium"], .state("item", "aquarium"))
        h.assertReplayEqualsLive()
    }

    func testNonFoodItemsAreOwnedOnceFoodStacks() {
        var h = Harness(at: "2026-03-02 08:00")
        h.earn(100)
        h.ok("shop.buy", ["item": "beanie"])
        h.refuse("shop.buy", ["item": "beanie"], .exists("owned item", "beanie"))
        h.ok("shop.buy", ["item": "cushion"])
        h.refuse("shop.buy", ["item": "cushion"], .exists("owned item", "cushion"))
        for _ in 0..<3 { h.ok("shop.buy", ["item": "apple"]) }
        XCTAssertEqual(h.state.shop.count(of: "apple"), 3)
        XCTAssertEqual(h.state.shop.count(of: "beanie"), 1)
        XCTAssertEqual(h.state.coins, 100 - 25 - 20 - 15)
        XCTAssertEqual(h.state.purchases, 5)
        h.assertReplayEqualsLive()
    }

    func testAtMost99ServingsOfAFood() {
        var h = Harness(at: "2026-03-02 08:00")
        h.earn(505)
        for _ in 0..<99 { h.ok("shop.buy", ["item": "apple"]) }
        XCTAssertEqual(h.state.coins, 505 - 99 * 5)
        h.refuse("shop.buy", ["item": "apple"], .limit("servings of apple", 99))
        h.advance(to: "2026-03-02 09:00")                  // fullness 96: the pet can eat
        h.ok("care.feed", ["item": "apple"])
        h.ok("shop.buy", ["item": "apple"])
        XCTAssertEqual(h.state.shop.count(of: "apple"), 99)
        XCTAssertEqual(h.state.coins, 5)
    }

    func testUnknownOrMalformedItemsAreRefused() {
        var h = Harness(at: "2026-03-02 08:00")
        h.earn(50)
        h.refuse("shop.buy", ["item": "dragon-egg"], .notFound("item", "dragon-egg"))
        h.refuse("shop.buy", ["item": "Apple"], .field("item"))
        h.refuse("shop.buy", ["item": ""], .field("item"))
        h.refuse("shop.buy", [:], .missing("item"))
        h.refuse("shop.buy", ["item": "apple", "colour": "red"], .field("colour"))
        h.refuse("shop.equip", [:], .missing("item"))
        h.refuse("shop.place", ["item": "cushion"], .missing("slot"))
        h.refuse("shop.unplace", ["item": "cushion"], .field("item"))
        h.refuse("care.feed", [:], .missing("item"))
        h.refuse("streak.repair", ["days": "3"], .field("days"))
        h.refuse("care.feed", ["item": "../../etc"], .field("item"))
    }

    func testARepeatedCommandIDBuysOnce() {
        var h = Harness(at: "2026-03-02 08:00")
        h.earn(50)
        h.ok("shop.buy", ["item": "sandwich"], id: "buy-1")
        let again = h.ok("shop.buy", ["item": "sandwich"], id: "buy-1")
        XCTAssertEqual(again, [])
        XCTAssertEqual(h.state.coins, 38)
        XCTAssertEqual(h.state.shop.count(of: "sandwich"), 1)
    }

    // MARK: - Wearing

    func testEquipAndUnequipOneItemPerSlot() {
        var h = Harness(at: "2026-03-02 08:00")
        h.earn(400)                                        // XP 800: level 6
        for item in ["party-hat", "beanie", "sunglasses", "skin-midnight", "bg-meadow", "apple"] {
            h.ok("shop.buy", ["item": item])
        }
        XCTAssertEqual(h.state.coins, 400 - 30 - 25 - 45 - 120 - 80 - 5)
        XCTAssertEqual(h.ok("shop.equip", ["item": "party-hat"]).shopEvents, [.equipped(item: "party-hat", slot: "hat")])
        XCTAssertEqual(h.state.shop.wearing("hat"), "party-hat")
        h.refuse("shop.equip", ["item": "party-hat"], .state("item", "party-hat"))
        // Equipping another hat replaces the first (which stays owned).
        h.ok("shop.equip", ["item": "beanie"])
        XCTAssertEqual(h.state.shop.worn, ["hat": "beanie"])
        XCTAssertEqual(h.state.shop.count(of: "party-hat"), 1)
        h.ok("shop.equip", ["item": "sunglasses"])
        h.ok("shop.equip", ["item": "skin-midnight"])
        h.ok("shop.equip", ["item": "bg-meadow"])
        XCTAssertEqual(h.state.shop.worn, ["hat": "beanie", "glasses": "sunglasses", "skin": "skin-midnight",
                                           "background": "bg-meadow"])
        XCTAssertEqual(h.ok("shop.unequip", ["slot": "hat"]).shopEvents, [.unequipped(item: "beanie", slot: "hat")])
        XCTAssertNil(h.state.shop.wearing("hat"))
        h.refuse("shop.unequip", ["slot": "hat"], .state("slot", "hat"))
        h.refuse("shop.unequip", ["slot": "scarf"], .state("slot", "scarf"))
        h.ok("shop.unequip", ["item": "sunglasses"])
        XCTAssertNil(h.state.shop.wearing("glasses"))
        h.refuse("shop.unequip", ["item": "sunglasses"], .state("item", "sunglasses"))
        h.refuse("shop.unequip", ["slot": "shoes"], .field("slot"))
        h.refuse("shop.unequip", [:], .missing("slot"))
        h.refuse("shop.unequip", ["slot": "skin", "item": "beanie"], .field("item"))
        h.ok("shop.unequip", ["slot": "skin", "item": "skin-midnight"])
        XCTAssertEqual(h.state.shop.worn, ["background": "bg-meadow"])
        h.refuse("shop.equip", ["item": "knit-scarf"], .notFound("owned item", "knit-scarf"))
        h.refuse("shop.equip", ["item": "apple"], .field("item"))
        XCTAssertEqual(h.state.coins, 95, "wearing costs nothing")
        h.assertReplayEqualsLive()
    }

    // MARK: - Home slots

    func testPlacingFurnitureAndTrinketsOnePerSlot() {
        var h = Harness(at: "2026-03-02 08:00")
        h.earn(150)
        for item in ["cushion", "rubber-duck", "floor-lamp", "party-hat"] { h.ok("shop.buy", ["item": item]) }
        XCTAssertEqual(h.state.coins, 150 - 20 - 10 - 50 - 30)
        XCTAssertEqual(h.ok("shop.place", ["item": "cushion", "slot": "left"]).shopEvents,
                       [.placed(item: "cushion", slot: "left")])
        XCTAssertEqual(h.state.shop.placed, ["left": "cushion"])
        h.refuse("shop.place", ["item": "cushion", "slot": "left"], .state("item", "cushion"))
        // Another item in an occupied slot replaces it; the replaced one stays owned, unplaced.
        h.ok("shop.place", ["item": "rubber-duck", "slot": "left"])
        XCTAssertEqual(h.state.shop.placed, ["left": "rubber-duck"])
        XCTAssertNil(h.state.shop.slot(of: "cushion"))
        XCTAssertEqual(h.state.shop.count(of: "cushion"), 1)
        // Placing a placed item elsewhere moves it.
        h.ok("shop.place", ["item": "rubber-duck", "slot": "shelf"])
        XCTAssertEqual(h.state.shop.placed, ["shelf": "rubber-duck"])
        h.ok("shop.place", ["item": "cushion", "slot": "left"])
        h.ok("shop.place", ["item": "floor-lamp", "slot": "middle"])
        XCTAssertEqual(h.state.shop.placed, ["left": "cushion", "middle": "floor-lamp", "shelf": "rubber-duck"])
        XCTAssertEqual(h.ok("shop.unplace", ["slot": "shelf"]).shopEvents, [.unplaced(item: "rubber-duck", slot: "shelf")])
        h.refuse("shop.unplace", ["slot": "shelf"], .state("slot", "shelf"))
        h.refuse("shop.unplace", ["slot": "right"], .state("slot", "right"))
        h.refuse("shop.place", ["item": "floor-lamp", "slot": "roof"], .field("slot"))
        h.refuse("shop.unplace", ["slot": "roof"], .field("slot"))
        h.refuse("shop.place", ["item": "party-hat", "slot": "right"], .field("item"))
        h.refuse("shop.place", ["item": "aquarium", "slot": "right"], .notFound("owned item", "aquarium"))
        XCTAssertEqual(h.state.shop.placed, ["left": "cushion", "middle": "floor-lamp"])
        XCTAssertEqual(h.state.coins, 40, "placing costs nothing")
        h.assertReplayEqualsLive()
    }

    // MARK: - Feeding

    func testFeedingRaisesFullnessByTheItemsAmountCappedAt100() {
        var h = Harness(at: "2026-03-02 08:00")            // awake (quiet hours end 07:00), fullness 100
        h.earn(100)
        for item in ["apple", "pizza-slice", "sandwich", "banana", "beanie"] { h.ok("shop.buy", ["item": item]) }
        XCTAssertEqual(h.state.coins, 100 - 5 - 15 - 12 - 7 - 25)
        h.refuse("care.feed", ["item": "apple"], .state("pet", "fullness"))
        // 10 h awake: 100 − 4 × 10 = 60 (216 000 units of 1/3600).
        h.advance(to: "2026-03-02 18:00")
        XCTAssertEqual(h.state.needs(at: h.now).fullnessRaw, 216_000)
        let fed = h.ok("care.feed", ["item": "apple"])
        XCTAssertEqual(fed.shopEvents, [.fed(item: "apple", amount: 10)])
        XCTAssertEqual(fed.first("care.fed")?.kind.coinsDelta, 0)
        XCTAssertEqual(h.state.needs.fullnessRaw, 252_000)   // 60 + 10 = 70
        XCTAssertEqual(h.state.needs(at: h.now).fullness, 70)
        XCTAssertEqual(h.state.shop.count(of: "apple"), 0, "food is consumed")
        XCTAssertNil(h.state.shop.owned["apple"])
        h.refuse("care.feed", ["item": "apple"], .notFound("owned item", "apple"))
        // 30 min later: 70 − 2 = 68 (244 800); pizza +30 → 98; sandwich +25 → capped at 100.
        h.advance(to: "2026-03-02 18:30")
        h.ok("care.feed", ["item": "pizza-slice"])
        XCTAssertEqual(h.state.needs.fullnessRaw, 352_800)
        h.ok("care.feed", ["item": "sandwich"])
        XCTAssertEqual(h.state.needs.fullnessRaw, 360_000)
        XCTAssertEqual(h.state.needs(at: h.now).fullness, 100)
        h.refuse("care.feed", ["item": "banana"], .state("pet", "fullness"))
        h.refuse("care.feed", ["item": "beanie"], .field("item"))
        h.refuse("care.feed", ["item": "cookie"], .notFound("owned item", "cookie"))
        XCTAssertEqual(h.state.shop.servingsEaten, 3)
        XCTAssertEqual(h.state.shop.lastFed, h.t("2026-03-02 18:30"))
        // Decay goes on from the fed value: one hour later 100 − 4 = 96.
        XCTAssertEqual(h.state.needs(at: h.t("2026-03-02 19:30")).fullness, 96)
        h.advance(to: "2026-03-02 19:30")
        XCTAssertEqual(h.state.needs(at: h.now).fullnessRaw, 345_600)
        h.ok("care.feed", ["item": "banana"])                // 96 + 12 → 100 (capped)
        XCTAssertEqual(h.state.needs.fullnessRaw, 360_000)
        XCTAssertEqual(h.state.coins, 36, "feeding costs nothing")
        h.assertReplayEqualsLive()
    }

    func testFeedingWhileAsleepWorksAndDecayPausesAsleep() {
        var h = Harness(at: "2026-03-02 08:00")
        h.earn(20)
        h.ok("shop.buy", ["item": "banana"])
        h.advance(to: "2026-03-02 23:00")                  // 14 h awake until 22:00: 100 − 56 = 44
        XCTAssertEqual(h.state.needs(at: h.now).fullness, 44)
        h.ok("care.feed", ["item": "banana"])               // 44 + 12 = 56, asleep: stays 56
        XCTAssertEqual(h.state.needs(at: h.t("2026-03-03 06:59")).fullness, 56)
        h.assertReplayEqualsLive()
    }

    // MARK: - Replay without the catalogue, injected catalogues

    func testReplayNeedsNoCatalogue() {
        var h = Harness(at: "2026-03-02 08:00")
        h.earn(200)
        for item in ["apple", "party-hat", "cushion", "bg-meadow"] { h.ok("shop.buy", ["item": item]) }
        h.ok("shop.equip", ["item": "party-hat"])
        h.ok("shop.place", ["item": "cushion", "slot": "right"])
        h.advance(to: "2026-03-02 12:00")
        h.ok("care.feed", ["item": "apple"])
        guard let genesis = h.journal.first, var replay = try? Engine(genesis: genesis, zones: testZones) else {
            return XCTFail("no genesis")
        }
        replay.catalogue = Catalogue(items: [], homeSlots: [])
        replay.apply(Array(h.journal.dropFirst()))
        XCTAssertEqual(replay.state, h.state)
    }

    func testTheEngineUsesTheInjectedCatalogue() throws {
        let item = CatalogueItem(id: "golden-apple", name: "Golden apple", kind: "food", price: 5, fullness: 50)
        let custom = try Catalogue(validating: [item], homeSlots: ["porch"])
        let t0 = wall("2026-03-02 08:00")
        var (engine, _) = try Engine.create(at: t0, zoneID: "UTC", zones: testZones)
        engine.catalogue = custom
        func run(_ name: String, _ fields: [String: String], _ id: String, at t: Instant) throws {
            _ = engine.advance(to: t)
            let c = try CommandParser.parse(name: name, fields: fields, id: id, at: t, clock: engine.state.clock)
            engine.apply(try engine.decide(c))
        }
        try run("task.create", ["task": "a", "title": "A"], "c1", at: t0)
        try run("task.complete", ["task": "a"], "c2", at: t0)
        XCTAssertEqual(engine.state.coins, 10)
        XCTAssertThrowsError(try run("shop.buy", ["item": "apple"], "c3", at: t0)) {
            XCTAssertEqual(($0 as? DomainError)?.refusal, .notFound("item", "apple"))
        }
        try run("shop.buy", ["item": "golden-apple"], "c4", at: t0)
        try run("care.feed", ["item": "golden-apple"], "c5", at: t0 + 10 * 3600)   // 60 + 50 → 100
        XCTAssertEqual(engine.state.needs.fullnessRaw, Needs.full)
        XCTAssertEqual(engine.state.coins, 5)
    }

    // MARK: - Invariants

    func testRandomShopSequencesNeverTakeCoinsBelowZeroAndReplay() {
        var rng = SplitMix64(seed: 0x5_40_9)
        let items = Catalogue.builtIn.items.map(\.id)
        let slots = Catalogue.builtIn.homeSlots + ShopRules.wearSlots
        var h = Harness(at: "2026-03-02 08:00")
        var accepted = 0
        for step in 0..<300 {
            let item = items[Int(rng.next() % UInt64(items.count))]
            let slot = slots[Int(rng.next() % UInt64(slots.count))]
            let name: String, fields: [String: String]
            switch rng.next() % 9 {
            case 0, 1:
                h.ok("task.create", ["task": "r\(step)", "title": "R", "priority": "high", "estimate": "240"])
                (name, fields) = ("task.complete", ["task": "r\(step)"])
            case 2, 3: (name, fields) = ("shop.buy", ["item": item])
            case 4: (name, fields) = ("shop.equip", ["item": item])
            case 5: (name, fields) = ("shop.unequip", ["slot": slot])
            case 6: (name, fields) = ("shop.place", ["item": item, "slot": slot])
            case 7: (name, fields) = ("care.feed", ["item": item])
            default: (name, fields) = ("streak.repair", [:])
            }
            let before = h.state
            do {
                try h.send(name, fields)
                accepted += 1
            } catch {
                XCTAssertEqual(h.state, before, "refused \(name) changed the state")
            }
            XCTAssertGreaterThanOrEqual(h.state.coins, 0)
            XCTAssertEqual(h.state.coins, h.state.coinsEarned - h.state.coinsSpent)
            if rng.next() % 4 == 0 { h.advance(by: Int64(rng.next() % 20_000)) }
        }
        XCTAssertGreaterThan(accepted, 80)
        XCTAssertGreaterThan(h.state.purchases, 5)
        h.assertReplayEqualsLive()
    }
}

/// docs/shop.md: streak repair — within 48 h of the break, 20 × length coins, at most once per 30 days.
final class StreakRepairTests: XCTestCase {
    /// A task due at 18:00 on `date`, completed at 12:00 (normal, on time: +10 coins).
    private func doDay(_ h: inout Harness, _ date: String, file: StaticString = #filePath, line: UInt = #line) {
        let id = "t-" + date
        h.ok("task.create", ["task": id, "title": "Daily", "due": date + " 18:00"], at: h.t(date + " 09:00"), file: file, line: line)
        h.ok("task.complete", ["task": id], at: h.t(date + " 12:00"), file: file, line: line)
    }

    /// A task due at 18:00 on `date` that is never done (missed at the next 03:00).
    private func missDay(_ h: inout Harness, _ date: String, file: StaticString = #filePath, line: UInt = #line) {
        h.ok("task.create", ["task": "m-" + date, "title": "Skipped", "due": date + " 18:00"], at: h.t(date + " 09:00"),
             file: file, line: line)
    }

    private func refuseRepair(_ h: inout Harness, _ expected: Refusal, _ reason: String? = nil,
                              file: StaticString = #filePath, line: UInt = #line) {
        if let reason {
            do {
                _ = try h.engine.decide(Command(id: "probe", at: h.now, action: .shop(.repairStreak)))
                XCTFail("repair accepted", file: file, line: line)
            } catch {
                XCTAssertTrue(error.description.contains(reason), "\(error)", file: file, line: line)
            }
        }
        h.refuse("streak.repair", [:], expected, file: file, line: line)
    }

    /// Mon 2 .. Fri 6 March done (streak 5, 50 coins), Sat 7 missed: the streak breaks at Sun 8 03:00.
    private func brokenFiveDayStreak() -> Harness {
        var h = Harness(at: "2026-03-02 08:00")
        for d in 2...6 { doDay(&h, "2026-03-0\(d)") }
        missDay(&h, "2026-03-07")
        h.advance(to: "2026-03-08 10:00")
        return h
    }

    func testTheBreakIsRecordedWithItsLength() {
        let h = brokenFiveDayStreak()
        XCTAssertEqual(h.state.streak, 0)
        XCTAssertEqual(h.state.lastBreak?.day, dayNumber("2026-03-07"))
        XCTAssertEqual(h.state.lastBreak?.length, 5)
        XCTAssertEqual(h.state.lastBreak?.at, h.t("2026-03-08 03:00"))
        XCTAssertEqual(h.state.coins, 50)
    }

    func testRepairCosts20PerDayAndRestoresTheStreak() {
        var h = brokenFiveDayStreak()
        // 20 × 5 = 100 coins; 50 are not enough.
        refuseRepair(&h, .coins(needed: 100, balance: 50), "not enough coins")
        h.earn(50)
        guard case .available(100, 5, let until) = h.engine.streakRepairQuote(at: h.now) else {
            return XCTFail("\(h.engine.streakRepairQuote(at: h.now))")
        }
        XCTAssertEqual(until, h.t("2026-03-10 03:00"))
        let events = h.ok("streak.repair")
        XCTAssertEqual(events.shopEvents, [.streakRepaired(day: dayNumber("2026-03-07"), length: 5, streak: 5, price: 100)])
        XCTAssertEqual(events.first("streak.repaired")?.kind.coinsDelta, -100)
        XCTAssertEqual(h.state.coins, 0)
        XCTAssertEqual(h.state.streak, 5)
        XCTAssertEqual(h.state.bestStreak, 5)
        XCTAssertEqual(h.state.shop.repairs, 1)
        XCTAssertEqual(h.state.shop.lastRepair, StreakRepair(day: dayNumber("2026-03-07"), at: h.now, length: 5, price: 100))
        XCTAssertEqual(events.saidKeys.count, 1)
        refuseRepair(&h, .state("streak", "daily"), "already repaired")
        // Later days continue from the restored length: Sunday done → 6 at Monday 03:00.
        doDay(&h, "2026-03-08")
        h.advance(to: "2026-03-09 03:00")
        XCTAssertEqual(h.state.streak, 6)
        XCTAssertEqual(h.state.bestStreak, 6)
        XCTAssertEqual(h.state.coins, 10)
        h.assertReplayEqualsLive()
    }

    func testDaysEarnedSinceTheBreakAddToTheRestoredLength() {
        var h = brokenFiveDayStreak()
        doDay(&h, "2026-03-08")
        h.advance(to: "2026-03-09 10:00")                   // 31 h after the break; streak 1
        XCTAssertEqual(h.state.streak, 1)
        h.earn(40)                                           // 60 + 40 = 100
        h.ok("streak.repair")
        XCTAssertEqual(h.state.streak, 6)                    // 5 + 1
        XCTAssertEqual(h.state.coins, 0)
        h.assertReplayEqualsLive()
    }

    func testRepairIsPossibleUpTo48HoursAfterTheBreak() {
        var h = brokenFiveDayStreak()
        h.earn(50)
        var edge = h
        edge.advance(to: "2026-03-10 03:00")                // exactly 48 h
        edge.ok("streak.repair")
        XCTAssertEqual(edge.state.streak, 5)
        var late = h
        late.advance(to: late.t("2026-03-10 03:00") + 1)     // 48 h 1 s
        refuseRepair(&late, .state("streak", "daily"), "within 48 h")
        XCTAssertEqual(late.state.coins, 100)
        XCTAssertEqual(late.state.streak, 0)
    }

    func testNothingToRepairWithoutABreak() {
        var h = Harness(at: "2026-03-02 08:00")
        h.earn(100)
        refuseRepair(&h, .state("streak", "daily"), "has not broken")
        doDay(&h, "2026-03-02")
        doDay(&h, "2026-03-03")
        h.advance(to: "2026-03-04 10:00")
        XCTAssertEqual(h.state.streak, 2)
        refuseRepair(&h, .state("streak", "daily"), "has not broken")
        // A day missed while the streak is 0 records no break either.
        var zero = Harness(at: "2026-03-02 08:00")
        zero.earn(100)
        missDay(&zero, "2026-03-02")
        zero.advance(to: "2026-03-03 10:00")
        XCTAssertNil(zero.state.lastBreak)
        refuseRepair(&zero, .state("streak", "daily"), "has not broken")
    }

    func testNoRepairWhenALaterDayWasMissedToo() {
        var h = brokenFiveDayStreak()
        missDay(&h, "2026-03-08")
        h.advance(to: "2026-03-09 10:00")                    // 31 h after the first break
        XCTAssertEqual(h.state.lastBreak?.day, dayNumber("2026-03-07"))
        h.earn(50)
        refuseRepair(&h, .state("streak", "daily"), "broke again")
    }

    func testAtMostOneRepairPer30Days() {
        var h = brokenFiveDayStreak()
        h.earn(50)
        h.ok("streak.repair")                                // Sun 8 March 10:00
        doDay(&h, "2026-03-08")                              // streak 6
        missDay(&h, "2026-03-09")                            // breaks at Tue 10 03:00 (length 6)
        h.advance(to: "2026-03-10 10:00")
        XCTAssertEqual(h.state.lastBreak?.length, 6)
        h.earn(120)                                          // 10 + 120 = 130 ≥ 20 × 6
        refuseRepair(&h, .limit("streak repairs per 30 days", 1))
        // A new streak and break a month later: Sun 5 April done, Mon 6 April missed → break at
        // Tue 7 April 03:00 (length 1, price 20).
        doDay(&h, "2026-04-05")
        missDay(&h, "2026-04-06")
        h.advance(to: "2026-04-07 09:00")                    // 29 days 23 h after the repair
        XCTAssertEqual(h.state.lastBreak?.length, 1)
        refuseRepair(&h, .limit("streak repairs per 30 days", 1))
        h.advance(to: "2026-04-07 10:00")                    // exactly 30 days
        h.ok("streak.repair")
        XCTAssertEqual(h.state.streak, 1)
        XCTAssertEqual(h.state.coins, 130 + 10 - 20)
        XCTAssertEqual(h.state.shop.repairs, 2)
        h.assertReplayEqualsLive()
    }
}

extension EventCodingTests {
    /// One example of every shop/care/streak event type, optional fields both set and absent
    /// (used by `subsystemExamples()`).
    static func shopExamples() -> [EventKind] {
        [
            .shop(.bought(item: "apple", kind: .food, price: 5, slot: nil, fullness: 10)),
            .shop(.bought(item: "party-hat", kind: .wearable, price: 30, slot: "hat", fullness: nil)),
            .shop(.bought(item: "cushion", kind: .furniture, price: 20, slot: nil, fullness: nil)),
            .shop(.equipped(item: "party-hat", slot: "hat")), .shop(.unequipped(item: "party-hat", slot: "hat")),
            .shop(.placed(item: "cushion", slot: "left")), .shop(.unplaced(item: "cushion", slot: "left")),
            .shop(.fed(item: "apple", amount: 10)),
            .shop(.streakRepaired(day: 20519, length: 5, streak: 6, price: 100)),
        ]
    }
}
