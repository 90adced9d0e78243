/// DeskPet's GATT database: GAP, GATT (Service Changed), the DeskPet service, Current Time,
/// Device Information and (on boards with one) Battery. docs/ble.md lists the handles.
public enum DeskPetUUID {
    /// The DeskPet service, 6d9b0001-7e5c-4d2a-9c1f-0de5c9e7a2b1 (random, ours), also advertised.
    public static let service = BluetoothUUID.bit128(0x6d9b0001_7e5c_4d2a_9c1f_0de5c9e7a2b1)
    /// Command: the phone writes phone-protocol frames (write, write without response; encrypted).
    public static let command = BluetoothUUID.bit128(0x6d9b0002_7e5c_4d2a_9c1f_0de5c9e7a2b1)
    /// Event: the device's frames, notified (or indicated) in ATT_MTU − 3 chunks, or read: a Read
    /// (and Read Blob) returns the next pending chunk; once a phone reads, notifications only say
    /// how much waits (docs/ble.md).
    public static let event = BluetoothUUID.bit128(0x6d9b0003_7e5c_4d2a_9c1f_0de5c9e7a2b1)
    /// State: a snapshot the phone reads (read, Read Blob; encrypted).
    public static let state = BluetoothUUID.bit128(0x6d9b0004_7e5c_4d2a_9c1f_0de5c9e7a2b1)
}

/// What the DeskPet database is built from.
public struct DeskPetGATTConfig: Sendable {
    /// GAP Device Name: the pet's name (changeable at run time through `GATTServer.deviceName`).
    public var deviceName: String
    /// GAP Appearance: 0x0100 Generic Clock (a desk toy that shows the time).
    public var appearance: UInt16 = 0x0100
    public var manufacturer: String = "DeskPet"
    public var model: String = "DeskPet"
    public var firmware: String = "0.1"
    /// Battery Service only where the board has a battery.
    public var hasBattery: Bool = false
    /// The longest phone-protocol frame body a command may announce (the protocol's maximum).
    public var maxFrameBody: Int = 65_536
    /// Command writes, state reads and Current Time writes need an encrypted link (BT_SECURITY ≥
    /// medium). Only tests and `deskpet-hwtest guest-ble-peripheral --open` turn this off.
    public var requireEncryption = true

    public init(deviceName: String, hasBattery: Bool = false) { self.deviceName = deviceName; self.hasBattery = hasBattery }

    /// The services, in handle order.
    public var services: [GATTService] {
        var s: [GATTService] = [
            GATTService(.bit16(0x1800), [
                GATTCharacteristic(.bit16(0x2A00), [.read], .deviceName),
                GATTCharacteristic(.bit16(0x2A01), [.read], .fixed([UInt8(appearance & 0xFF), UInt8(appearance >> 8)])),
            ]),
            GATTService(.bit16(0x1801), [
                GATTCharacteristic(.bit16(0x2A05), [.indicate], .serviceChanged),
            ]),
            GATTService(DeskPetUUID.service, [
                GATTCharacteristic(DeskPetUUID.command, [.write, .writeWithoutResponse], .command, encryptedWrite: requireEncryption, userDescription: "command"),
                GATTCharacteristic(DeskPetUUID.event, [.read, .notify, .indicate], .event, encryptedRead: requireEncryption, userDescription: "event"),
                GATTCharacteristic(DeskPetUUID.state, [.read], .state, encryptedRead: requireEncryption, userDescription: "state"),
            ]),
            GATTService(.bit16(0x1805), [
                GATTCharacteristic(.bit16(0x2A2B), [.read, .write, .notify], .currentTime, encryptedWrite: requireEncryption),
            ]),
            GATTService(.bit16(0x180A), [
                GATTCharacteristic(.bit16(0x2A29), [.read], .fixed(Array(manufacturer.utf8))),
                GATTCharacteristic(.bit16(0x2A24), [.read], .fixed(Array(model.utf8))),
                GATTCharacteristic(.bit16(0x2A26), [.read], .fixed(Array(firmware.utf8))),
            ]),
        ]
        if hasBattery {
            s.append(GATTService(.bit16(0x180F), [GATTCharacteristic(.bit16(0x2A19), [.read, .notify], .batteryLevel)]))
        }
        return s
    }
}

/// The device's side shared by every connection: the database and the hooks into the app.
/// Single-threaded: the device loop owns it and every `GATTSession`.
public final class GATTServer {
    public let database: GATTDatabase
    public let config: DeskPetGATTConfig
    /// The pet's name (GAP Device Name), at most 248 bytes served.
    public var deviceName: String
    /// The state characteristic's value (read fresh at offset 0; Read Blob continues that snapshot).
    public var stateValue: () -> [UInt8] = { [] }
    /// The device's local time for Current Time reads (nil: all fields unknown, 0).
    public var currentTime: () -> CurrentTime? = { nil }
    /// A phone wrote Current Time: set the clock; false refuses (CTS "data field ignored").
    public var setClock: (CurrentTime) -> Bool = { _ in false }
    /// Battery level in percent.
    public var batteryLevel: () -> UInt8 = { 100 }
    /// The server's receive MTU, answered to Exchange MTU.
    public let serverMTU: UInt16 = UInt16(attMaximumMTU)
    /// Prepared writes a connection may queue before Prepare Queue Full.
    public var maxPreparedWrites = 64
    public var maxPreparedBytes = 4096
    /// Bytes of frames a connection keeps for reads of the event characteristic. A phone that
    /// reads and falls this far behind is dropped (`GATTSession.eventReadOverflow`); for one that
    /// never reads, the oldest frames make room.
    public var maxEventReadBytes = 64 * 1024
    /// The most a Read (with its Read Blobs) of the event characteristic returns at once.
    public var eventChunkBytes = attMaximumValueLength

    public init(config: DeskPetGATTConfig) {
        self.config = config
        self.database = GATTDatabase(config.services)
        self.deviceName = config.deviceName
    }

    public var commandHandle: UInt16 { database.valueHandle(of: .command) ?? 0 }
    public var eventHandle: UInt16 { database.valueHandle(of: .event) ?? 0 }
    public var stateHandle: UInt16 { database.valueHandle(of: .state) ?? 0 }
    public var serviceChangedHandle: UInt16 { database.valueHandle(of: .serviceChanged) ?? 0 }
}
