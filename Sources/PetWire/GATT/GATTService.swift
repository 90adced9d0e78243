// Service definitions: what a GATT database is built from (GATTDatabase lays them out as attributes
// with handles, declarations and CCCDs).

/// Characteristic properties, as in the declaration's first byte (Core, Vol 3, Part G, 3.3.1.1).
public struct GATTProperties: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let read = GATTProperties(rawValue: 0x02)
    public static let writeWithoutResponse = GATTProperties(rawValue: 0x04)
    public static let write = GATTProperties(rawValue: 0x08)
    public static let notify = GATTProperties(rawValue: 0x10)
    public static let indicate = GATTProperties(rawValue: 0x20)
}

/// Where an attribute's value comes from and where writes go. `.fixed` values live in the
/// database; the others are the DeskPet roles `GATTServer` serves (per connection or from its hooks).
public enum GATTValueSource: Sendable, Equatable {
    case fixed([UInt8])
    /// GAP Device Name: the pet's name (`GATTServer.deviceName`).
    case deviceName
    /// GATT Service Changed: indicate only (start and end handle of what changed).
    case serviceChanged
    /// DeskPet command: phone-protocol frames written in pieces, reassembled per connection.
    case command
    /// DeskPet event: phone-protocol frames sent as notifications/indications in ATT_MTU − 3 chunks.
    case event
    /// DeskPet state: read (and Read Blob) from `GATTServer.stateValue`.
    case state
    /// Current Time (0x2A2B): read from `GATTServer.currentTime`, a write goes to `GATTServer.setClock`.
    case currentTime
    /// Battery Level (0x2A19): `GATTServer.batteryLevel`.
    case batteryLevel
}

/// One characteristic: its UUID, properties, value, whether it needs an encrypted link, and a
/// user description (0x2901) if any. A CCCD (0x2902) is added for notify/indicate.
public struct GATTCharacteristic: Sendable {
    public var uuid: BluetoothUUID
    public var properties: GATTProperties
    public var value: GATTValueSource
    /// Reads need an encrypted link (BT_SECURITY ≥ medium); else Insufficient Authentication.
    public var encryptedRead: Bool
    /// Writes need an encrypted link; else Insufficient Authentication.
    public var encryptedWrite: Bool
    public var userDescription: String?

    public init(_ uuid: BluetoothUUID, _ properties: GATTProperties, _ value: GATTValueSource,
                encryptedRead: Bool = false, encryptedWrite: Bool = false, userDescription: String? = nil) {
        self.uuid = uuid; self.properties = properties; self.value = value
        self.encryptedRead = encryptedRead; self.encryptedWrite = encryptedWrite; self.userDescription = userDescription
    }
}

/// A primary service and its characteristics.
public struct GATTService: Sendable {
    public var uuid: BluetoothUUID
    public var characteristics: [GATTCharacteristic]
    public init(_ uuid: BluetoothUUID, _ characteristics: [GATTCharacteristic]) { self.uuid = uuid; self.characteristics = characteristics }
}

/// The GATT attribute types the database uses.
public enum GATTType {
    public static let primaryService = BluetoothUUID.bit16(0x2800)
    public static let secondaryService = BluetoothUUID.bit16(0x2801)
    public static let include = BluetoothUUID.bit16(0x2802)
    public static let characteristic = BluetoothUUID.bit16(0x2803)
    public static let userDescription = BluetoothUUID.bit16(0x2901)
    public static let cccd = BluetoothUUID.bit16(0x2902)
}
