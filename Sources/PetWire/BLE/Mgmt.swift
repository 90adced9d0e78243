// The BlueZ kernel management API (doc/mgmt-api.txt in BlueZ, now doc/mgmt-protocol.rst): every
// command and event is a 6-byte header (opcode or event code, controller index, parameter length,
// all little-endian) and its parameters. These builders are pure; PetLinuxTests checks their bytes
// against the document.

/// A management command: opcode, controller index (0xFFFF: none), parameters.
public struct MgmtCommand: Sendable, Equatable {
    public var opcode: UInt16
    public var index: UInt16
    public var parameters: [UInt8]
    public var name: String

    public static let noIndex: UInt16 = 0xFFFF

    /// Header and parameters, as written to the socket.
    public var bytes: [UInt8] {
        var b: [UInt8] = []
        b.le16(opcode); b.le16(index); b.le16(UInt16(parameters.count))
        return b + parameters
    }

    static func toggle(_ op: UInt16, _ name: String, _ index: UInt16, _ value: UInt8) -> MgmtCommand {
        MgmtCommand(opcode: op, index: index, parameters: [value], name: name)
    }

    /// Read Controller Index List (0x0003).
    public static func readIndexList() -> MgmtCommand { MgmtCommand(opcode: 0x0003, index: noIndex, parameters: [], name: "Read Controller Index List") }
    /// Read Controller Information (0x0004): address, settings, name.
    public static func readInfo(_ index: UInt16) -> MgmtCommand { MgmtCommand(opcode: 0x0004, index: index, parameters: [], name: "Read Controller Information") }
    /// Set Powered (0x0005).
    public static func setPowered(_ index: UInt16, _ on: Bool) -> MgmtCommand { toggle(0x0005, "Set Powered", index, on ? 1 : 0) }
    /// Set Connectable (0x0007).
    public static func setConnectable(_ index: UInt16, _ on: Bool) -> MgmtCommand { toggle(0x0007, "Set Connectable", index, on ? 1 : 0) }
    /// Set Bondable (0x0009).
    public static func setBondable(_ index: UInt16, _ on: Bool) -> MgmtCommand { toggle(0x0009, "Set Bondable", index, on ? 1 : 0) }
    /// Set Low Energy (0x000D).
    public static func setLowEnergy(_ index: UInt16, _ on: Bool) -> MgmtCommand { toggle(0x000D, "Set Low Energy", index, on ? 1 : 0) }
    /// Set Secure Connections (0x002D): 0 off, 1 on, 2 only.
    public static func setSecureConnections(_ index: UInt16, _ mode: UInt8) -> MgmtCommand { toggle(0x002D, "Set Secure Connections", index, mode) }
    /// Set IO Capability (0x0018): 3 NoInputNoOutput (Just Works: the phone protocol's own pairing
    /// code authenticates the owner).
    public static func setIOCapability(_ index: UInt16, _ capability: UInt8) -> MgmtCommand { toggle(0x0018, "Set IO Capability", index, capability) }

    /// Set Local Name (0x000F): Name (249 octets) and Short_Name (11 octets), NUL-padded; the name
    /// is cut to 248 bytes and the short name to 10 (at a UTF-8 boundary) so both end with NUL.
    public static func setLocalName(_ index: UInt16, _ name: String, short: String) -> MgmtCommand {
        MgmtCommand(opcode: 0x000F, index: index, parameters: padded(name, 249) + padded(short, 11), name: "Set Local Name")
    }

    static func padded(_ s: String, _ size: Int) -> [UInt8] {
        let b = utf8Prefix(s, size - 1)
        return b + [UInt8](repeating: 0, count: size - b.count)
    }

    /// The longest prefix of `s`'s UTF-8 of at most `max` bytes that ends on a character boundary.
    static func utf8Prefix(_ s: String, _ max: Int) -> [UInt8] {
        var out: [UInt8] = []
        for c in s.unicodeScalars {
            let u = Array(String(c).utf8)
            guard out.count + u.count <= max else { break }
            out += u
        }
        return out
    }

    /// Add Advertising (0x003E): Instance, Flags (4), Duration (2), Timeout (2), Adv_Data_Len,
    /// Scan_Rsp_Len, Adv_Data, Scan_Rsp.
    public static func addAdvertising(_ index: UInt16, instance: UInt8, flags: UInt32, duration: UInt16 = 0, timeout: UInt16 = 0,
                                      advertisingData: [UInt8], scanResponse: [UInt8]) -> MgmtCommand {
        var p: [UInt8] = [instance]
        p.le32(flags); p.le16(duration); p.le16(timeout)
        p.append(UInt8(truncatingIfNeeded: advertisingData.count)); p.append(UInt8(truncatingIfNeeded: scanResponse.count))
        return MgmtCommand(opcode: 0x003E, index: index, parameters: p + advertisingData + scanResponse, name: "Add Advertising")
    }

    /// Load Long Term Keys (0x0013): Key_Count (2), then 36-byte keys.
    public static func loadLongTermKeys(_ index: UInt16, _ keys: [LongTermKey]) -> MgmtCommand {
        var p: [UInt8] = []
        p.le16(UInt16(keys.count))
        for k in keys { p += k.bytes }
        return MgmtCommand(opcode: 0x0013, index: index, parameters: p, name: "Load Long Term Keys")
    }

    /// User Confirmation Reply (0x001C): Address (6), Address_Type (1). Accepts a pairing the
    /// kernel asked about (User Confirmation Request): DeskPet pairs Just Works.
    public static func userConfirmReply(_ index: UInt16, address: [UInt8], addressType: UInt8) -> MgmtCommand {
        MgmtCommand(opcode: 0x001C, index: index, parameters: fixed(address, 6) + [addressType], name: "User Confirmation Reply")
    }

    /// User Confirmation Negative Reply (0x001D): Address (6), Address_Type (1). Refuses a pairing.
    public static func userConfirmNegativeReply(_ index: UInt16, address: [UInt8], addressType: UInt8) -> MgmtCommand {
        MgmtCommand(opcode: 0x001D, index: index, parameters: fixed(address, 6) + [addressType], name: "User Confirmation Negative Reply")
    }

    /// DeskPet's answer to a User Confirmation Request, the one place it is decided: Confirm_Hint 1
    /// (Just Works, nothing to compare) is accepted; Confirm_Hint 0 (numeric comparison: someone
    /// would have to compare six digits nobody sees) is refused. The owner is authenticated by the
    /// phone protocol's own pairing code, never by an unseen number.
    public static func answer(toConfirmation index: UInt16, address: [UInt8], addressType: UInt8,
                              confirmHint: UInt8) -> (command: MgmtCommand, accepted: Bool) {
        confirmHint == 1 ? (userConfirmReply(index, address: address, addressType: addressType), true)
                         : (userConfirmNegativeReply(index, address: address, addressType: addressType), false)
    }

    /// Load Identity Resolving Keys (0x0030): Key_Count (2), then 23-byte keys.
    public static func loadIdentityResolvingKeys(_ index: UInt16, _ keys: [IdentityResolvingKey]) -> MgmtCommand {
        var p: [UInt8] = []
        p.le16(UInt16(keys.count))
        for k in keys { p += k.bytes }
        return MgmtCommand(opcode: 0x0030, index: index, parameters: p, name: "Load Identity Resolving Keys")
    }
}

/// Mgmt option bits of Add Advertising's Flags.
public enum MgmtAdvertisingFlag {
    public static let connectable: UInt32 = 1 << 0
    public static let discoverable: UInt32 = 1 << 1
    public static let managedFlags: UInt32 = 1 << 3
    public static let localName: UInt32 = 1 << 6
}

/// An SMP long term key as the kernel gives it (New Long Term Key) and takes it (Load Long Term Keys):
/// Address (6, little-endian), Address_Type (1 public, 2 random), Key_Type, Central, Encryption_Size,
/// Encryption_Diversifier (2), Random_Number (8), Value (16).
public struct LongTermKey: Sendable, Equatable {
    public var address: [UInt8]
    public var addressType: UInt8
    public var keyType: UInt8
    public var central: UInt8
    public var encryptionSize: UInt8
    public var diversifier: UInt16
    public var random: [UInt8]
    public var value: [UInt8]

    public init(address: [UInt8], addressType: UInt8, keyType: UInt8, central: UInt8, encryptionSize: UInt8,
                diversifier: UInt16, random: [UInt8], value: [UInt8]) {
        self.address = address; self.addressType = addressType; self.keyType = keyType; self.central = central
        self.encryptionSize = encryptionSize; self.diversifier = diversifier; self.random = random; self.value = value
    }

    public static let size = 36

    public var bytes: [UInt8] {
        var b = fixed(address, 6) + [addressType, keyType, central, encryptionSize]
        b.le16(diversifier)
        return b + fixed(random, 8) + fixed(value, 16)
    }

    public init?(bytes b: ArraySlice<UInt8>) {
        guard b.count >= Self.size else { return nil }
        let a = Array(b.prefix(Self.size))
        self.init(address: Array(a[0..<6]), addressType: a[6], keyType: a[7], central: a[8], encryptionSize: a[9],
                  diversifier: UInt16(a[10]) | UInt16(a[11]) << 8, random: Array(a[12..<20]), value: Array(a[20..<36]))
    }
}

/// An identity resolving key: Address (6), Address_Type (1), Value (16).
public struct IdentityResolvingKey: Sendable, Equatable {
    public var address: [UInt8]
    public var addressType: UInt8
    public var value: [UInt8]
    public init(address: [UInt8], addressType: UInt8, value: [UInt8]) { self.address = address; self.addressType = addressType; self.value = value }

    public static let size = 23
    public var bytes: [UInt8] { fixed(address, 6) + [addressType] + fixed(value, 16) }

    public init?(bytes b: ArraySlice<UInt8>) {
        guard b.count >= Self.size else { return nil }
        let a = Array(b.prefix(Self.size))
        self.init(address: Array(a[0..<6]), addressType: a[6], value: Array(a[7..<23]))
    }
}

func fixed(_ b: [UInt8], _ n: Int) -> [UInt8] { Array((b + [UInt8](repeating: 0, count: n)).prefix(n)) }

/// A management event: Command Complete / Command Status for our commands, keys from pairing.
public enum MgmtEvent: Sendable, Equatable {
    case commandComplete(index: UInt16, opcode: UInt16, status: UInt8, parameters: [UInt8])
    case commandStatus(index: UInt16, opcode: UInt16, status: UInt8)
    /// New Long Term Key (0x000A): Store_Hint, Key.
    case newLongTermKey(index: UInt16, storeHint: Bool, key: LongTermKey)
    /// New Identity Resolving Key (0x0018): Store_Hint, Random_Address (6), Key.
    case newIdentityResolvingKey(index: UInt16, storeHint: Bool, randomAddress: [UInt8], key: IdentityResolvingKey)
    /// User Confirmation Request (0x000F): Address (6), Address_Type (1), Confirm_Hint (1), Value (4).
    /// The kernel asks before it completes a Just Works pairing a phone started.
    case userConfirmRequest(index: UInt16, address: [UInt8], addressType: UInt8, confirmHint: UInt8)
    /// Anything else (Index Added, New Settings, Device Connected…): code and index.
    case other(code: UInt16, index: UInt16)

    /// Decodes one event read from the socket; nil for bytes that are not one (short, bad length).
    public init?(bytes b: [UInt8]) {
        guard b.count >= 6 else { return nil }
        let code = UInt16(b[0]) | UInt16(b[1]) << 8, index = UInt16(b[2]) | UInt16(b[3]) << 8
        let length = Int(b[4]) | Int(b[5]) << 8
        guard b.count >= 6 + length else { return nil }
        let p = b[6..<6 + length]
        func u16(_ i: Int) -> UInt16 { UInt16(p[p.startIndex + i]) | UInt16(p[p.startIndex + i + 1]) << 8 }
        switch code {
        case 0x0001 where p.count >= 3:
            self = .commandComplete(index: index, opcode: u16(0), status: p[p.startIndex + 2], parameters: Array(p.dropFirst(3)))
        case 0x0002 where p.count >= 3:
            self = .commandStatus(index: index, opcode: u16(0), status: p[p.startIndex + 2])
        case 0x000A where p.count >= 1 + LongTermKey.size:
            guard let k = LongTermKey(bytes: p.dropFirst()) else { return nil }
            self = .newLongTermKey(index: index, storeHint: p[p.startIndex] != 0, key: k)
        case 0x000F where p.count >= 12:
            self = .userConfirmRequest(index: index, address: Array(p.prefix(6)), addressType: p[p.startIndex + 6], confirmHint: p[p.startIndex + 7])
        case 0x0018 where p.count >= 7 + IdentityResolvingKey.size:
            guard let k = IdentityResolvingKey(bytes: p.dropFirst(7)) else { return nil }
            self = .newIdentityResolvingKey(index: index, storeHint: p[p.startIndex] != 0, randomAddress: Array(p.dropFirst().prefix(6)), key: k)
        default:
            self = .other(code: code, index: index)
        }
    }
}

/// Advertising and scan response data (Core Supplement, Part A: length, AD type, data).
public enum AdvertisingData {
    /// The advertisement: the complete list of 128-bit service UUIDs (AD type 0x07) with DeskPet's.
    /// Flags (0x01) are left to the kernel (Add Advertising's discoverable flag makes it add them).
    public static func advertisement(serviceUUID: [UInt8]) -> [UInt8] {
        [UInt8(serviceUUID.count + 1), serviceUUID.count == 2 ? 0x03 : 0x07] + serviceUUID
    }

    /// The scan response: the pet's name, complete (0x09) if it fits in 31 bytes, else shortened (0x08).
    public static func scanResponse(name: String) -> [UInt8] {
        let full = Array(name.utf8)
        let b = MgmtCommand.utf8Prefix(name, 29)
        return [UInt8(b.count + 1), b.count == full.count ? 0x09 : 0x08] + b
    }
}

extension Array where Element == UInt8 {
    mutating func le16(_ v: UInt16) { append(UInt8(v & 0xFF)); append(UInt8(v >> 8)) }
    mutating func le32(_ v: UInt32) { for i in 0..<4 { append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
}
