#if canImport(Glibc)
import Glibc
#endif
import PetCore

/// Reads time-zone rules from the system zone database (TZif files under /usr/share/zoneinfo),
/// never ICU. Identifiers are checked before touching the file system.
public struct ZoneDatabase: Sendable {
    public var root: String

    public init(root: String = "/usr/share/zoneinfo") { self.root = root }

    /// "UTC" is always available, even without tzdata.
    public func rules(for id: String) -> ZoneRules? {
        guard ZoneDatabase.isValidIdentifier(id) else { return nil }
        if let bytes = readFile("\(root)/\(id)"), let rules = try? ZoneRules(identifier: id, tzif: bytes) {
            return rules
        }
        if id == "UTC" || id == "Etc/UTC" { return .utc }
        return nil
    }

    /// A lookup closure for the engine.
    public var lookup: ZoneLookup {
        let db = self
        return { db.rules(for: $0) }
    }

    /// Area/Location names: ASCII letters, digits, `_ + -` and `/`, no `..`, no leading `/`.
    public static func isValidIdentifier(_ id: String) -> Bool {
        guard (1...64).contains(id.utf8.count), !id.hasPrefix("/"), !id.contains("..") else { return false }
        return id.utf8.allSatisfy { c in
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39)
                || c == 0x5F || c == 0x2B || c == 0x2D || c == 0x2F
        }
    }
}
