/// Paired phones (docs/protocol.md#pairing): at most 4, each known by a device-chosen id, a name the phone
/// gave, and the SHA-256 of the token it received at pairing (the token itself is never stored).
/// Pairing and unpairing are events in the journal, and so is every pairing lockout (5 wrong
/// codes lock pairing for 10 minutes, also across a restart).
///
/// These actions come from the phone link's pairing exchange (PetLink), never from a phone's
/// generic `command` message: that is why `CommandParser` does not list them (a phone could
/// otherwise pair itself without a code). Journal wire names: docs/storage.md.

public struct PairedPhone: Codable, Sendable, Equatable {
    /// Device-chosen: "phone-1", "phone-2"… (never reused).
    public var id: String
    /// What the phone called itself (shown on the device; never logged).
    public var name: String
    /// Lower-case hex SHA-256 of the phone's 32-byte token.
    public var tokenHash: String
    public var pairedAt: Instant
}

public enum PhoneAction: Sendable, Equatable {
    /// A phone proved it knows the code: remember it.
    case pair(id: String, name: String, tokenHash: String)
    case unpair(id: String)
    /// Too many wrong codes: no pairing until `until`.
    case lockPairing(until: Instant)

    public var name: String {
        switch self {
        case .pair: "phone.pair"
        case .unpair: "phone.unpair"
        case .lockPairing: "phone.lock"
        }
    }
}

public enum PhoneEvent: SubEvent {
    case paired(id: String, name: String, tokenHash: String)
    case unpaired(id: String)
    case pairingLocked(until: Instant)

    public var type: String {
        switch self {
        case .paired: "phone.paired"
        case .unpaired: "phone.unpaired"
        case .pairingLocked: "phone.pairing-locked"
        }
    }

    public static func owns(_ type: String) -> Bool { type.hasPrefix("phone.") }
    public static let allTypes = ["phone.paired", "phone.unpaired", "phone.pairing-locked"]

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(type, forKey: AnyKey("type"))
        switch self {
        case let .paired(id, name, hash):
            try c.encode(id, forKey: AnyKey("id"))
            try c.encode(name, forKey: AnyKey("name"))
            try c.encode(hash, forKey: AnyKey("tokenHash"))
        case .unpaired(let id): try c.encode(id, forKey: AnyKey("id"))
        case .pairingLocked(let until): try c.encode(until, forKey: AnyKey("until"))
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let type = try c.decode(String.self, forKey: AnyKey("type"))
        switch type {
        case "phone.paired":
            self = .paired(id: try c.string("id"), name: try c.string("name"), tokenHash: try c.string("tokenHash"))
        case "phone.unpaired": self = .unpaired(id: try c.string("id"))
        case "phone.pairing-locked": self = .pairingLocked(until: try c.decode(Instant.self, forKey: AnyKey("until")))
        default: throw unknownSubEvent(decoder, type)
        }
    }
}

public struct PhonesState: Codable, Sendable, Equatable {
    /// Paired phones in pairing order.
    public var paired: [PairedPhone] = []
    /// The number the next phone's id gets (never reused, so a removed phone's id stays unique).
    public var nextNumber = 1
    /// Pairing is refused until this instant (5 wrong codes).
    public var lockedUntil: Instant?
    /// Lockouts ever journaled.
    public var lockouts = 0
    public init() {}

    public func phone(withTokenHash hash: String) -> PairedPhone? { paired.first { $0.tokenHash == hash } }
    public func isLocked(at t: Instant) -> Bool { lockedUntil.map { t < $0 } ?? false }
    /// The id the next paired phone gets.
    public var nextID: String { "phone-\(nextNumber)" }
}

public enum PhoneRules {
    /// Phones paired at once (docs/protocol.md#pairing).
    public static let maxPhones = 4
    public static let nameLength = 1...32
    /// A name's UTF-8 bytes at most (32 characters of up to 4 bytes each).
    public static let nameMaxBytes = 128

    /// A phone's name follows the text rules of titles (docs/domain.md, "Text"): one line, no
    /// control, byte-order or direction-override character, 1–32 characters, at most 128 bytes.
    /// Pairing (PetLink) and the engine both check it.
    public static func validateName(_ name: String) throws(DomainError) {
        try TextRules.checkLine(name, field: "name", characters: nameLength, maxBytes: nameMaxBytes)
    }
    /// Wrong codes in a row that lock pairing, and for how long (docs/protocol.md).
    public static let wrongCodesBeforeLock = 5
    public static let lockSeconds: Int64 = 600
}

enum PhonesSubsystem: EventWrappingSubsystem {
    static func claim(_ action: Action) -> PhoneAction? { if case .phone(let a) = action { a } else { nil } }
    static func claim(_ event: EventKind) -> PhoneEvent? { if case .phone(let e) = event { e } else { nil } }
    static func wrap(_ event: PhoneEvent) -> EventKind { .phone(event) }

    static func run(_ action: PhoneAction, in engine: inout Engine, at: Instant, commandID: String) throws(DomainError) {
        let s = engine.state.phones
        switch action {
        case let .pair(id, name, hash):
            guard s.paired.count < PhoneRules.maxPhones else { throw .limitReached(what: "paired phones", limit: PhoneRules.maxPhones) }
            guard !s.paired.contains(where: { $0.id == id }) else { throw .alreadyExists(kind: "phone", id: id) }
            try PhoneRules.validateName(name)
            guard hash.utf8.count == 64, hash.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
                throw .invalidField(field: "tokenHash", reason: "must be 64 lower-case hex digits")
            }
            guard s.phone(withTokenHash: hash) == nil else { throw .alreadyExists(kind: "phone token", id: id) }
            engine.emit(.phone(.paired(id: id, name: name, tokenHash: hash)), at: at)
        case .unpair(let id):
            guard s.paired.contains(where: { $0.id == id }) else { throw .notFound(kind: "phone", id: id) }
            engine.emit(.phone(.unpaired(id: id)), at: at)
        case .lockPairing(let until):
            guard until > at else { throw .invalidField(field: "until", reason: "must be in the future") }
            engine.emit(.phone(.pairingLocked(until: until)), at: at)
        }
    }

    static func apply(_ event: PhoneEvent, to engine: inout Engine, at: Instant) {
        switch event {
        case let .paired(id, name, hash):
            let p = PairedPhone(id: id, name: name, tokenHash: hash, pairedAt: at)
            engine.state.phones.paired.removeAll { $0.id == p.id }
            engine.state.phones.paired.append(p)
            if p.id.hasPrefix("phone-"), let n = Int(p.id.dropFirst(6)) {
                engine.state.phones.nextNumber = max(engine.state.phones.nextNumber, n + 1)
            }
        case .unpaired(let id):
            engine.state.phones.paired.removeAll { $0.id == id }
        case .pairingLocked(let until):
            engine.state.phones.lockedUntil = until
            engine.state.phones.lockouts += 1
        }
    }
}
