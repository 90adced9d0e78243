// libFuzzer target for the store's catalogue JSON (tools/fuzz.sh catalogue; docs/reliability.md,
// docs/shop.md): content/catalogue.json's shape, decoded as CatalogueFileTests decodes it, then
// checked by Catalogue.validate. Built against PetCore compiled with -sanitize=fuzzer,address by
// SwiftPM. Checks: nothing traps; a validated catalogue's items obey the rules (price 5–500, unique
// ids, known kinds, food with fullness, wearables with a slot) and each is found by its id.
import FoundationEssentials
import PetCore

struct CatalogueFile: Decodable {
    var homeSlots: [String]
    var items: [CatalogueItem]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let file = try? JSONDecoder().decode(CatalogueFile.self, from: bytes) else { return 0 }
    let catalogue: Catalogue
    do { catalogue = try Catalogue(validating: file.items, homeSlots: file.homeSlots) } catch {
        if error.description.isEmpty { fatalError("a refusal without text") }
        return 0
    }
    var ids = Set<String>()
    for item in catalogue.items {
        if !ids.insert(item.id).inserted { fatalError("accepted a duplicate id") }
        if !ShopRules.priceRange.contains(item.price) { fatalError("accepted price \(item.price)") }
        guard let kind = ItemKind(rawValue: item.kind) else { fatalError("accepted kind \(item.kind)") }
        if kind == .food, item.fullness == nil { fatalError("accepted food without fullness") }
        if kind == .wearable, item.slot.map(ShopRules.wearableSlots.contains) != true { fatalError("accepted a wearable without a slot") }
        if catalogue.item(item.id) != item { fatalError("item \(item.id) is not found by its id") }
    }
    return 0
}
