/// An attribute: a handle, a type, how it is read and written.
public struct GATTAttribute: Sendable {
    public enum Kind: Sendable, Equatable {
        /// A service declaration; `end` is its group's last handle.
        case service(end: UInt16)
        /// A characteristic declaration (value: properties, value handle, UUID).
        case declaration
        /// A characteristic's value.
        case value
        /// A Client Characteristic Configuration descriptor (per connection) of `valueHandle`.
        case cccd(valueHandle: UInt16, allowed: GATTProperties)
        /// Any other descriptor (user description).
        case descriptor
    }
    public var handle: UInt16
    public var type: BluetoothUUID
    public var kind: Kind
    public var source: GATTValueSource
    public var readable: Bool
    public var writable: Bool
    public var writableWithoutResponse: Bool
    public var encryptedRead: Bool
    public var encryptedWrite: Bool
    /// For a value: its characteristic's properties.
    public var properties: GATTProperties
}

/// The attribute table: services laid out from handle 1, in order. Each service is its
/// declaration, then per characteristic its declaration, value, user description (if any) and
/// CCCD (for notify/indicate).
public struct GATTDatabase: Sendable {
    public private(set) var attributes: [GATTAttribute] = []

    public init(_ services: [GATTService]) {
        for s in services {
            let start = attributes.count
            add(GATTType.primaryService, .service(end: 0), .fixed(s.uuid.littleEndianBytes), read: true)
            for c in s.characteristics {
                let valueHandle = UInt16(attributes.count + 2)
                var decl: [UInt8] = [c.properties.rawValue]
                decl.appendLE(valueHandle)
                decl += c.uuid.littleEndianBytes
                add(GATTType.characteristic, .declaration, .fixed(decl), read: true)
                var v = make(c.uuid, .value, c.value, read: c.properties.contains(.read))
                v.writable = c.properties.contains(.write)
                v.writableWithoutResponse = c.properties.contains(.writeWithoutResponse)
                v.encryptedRead = c.encryptedRead; v.encryptedWrite = c.encryptedWrite
                v.properties = c.properties
                attributes.append(v)
                if let d = c.userDescription { add(GATTType.userDescription, .descriptor, .fixed(Array(d.utf8)), read: true) }
                let allowed = c.properties.intersection([.notify, .indicate])
                if !allowed.isEmpty {
                    var cccd = make(GATTType.cccd, .cccd(valueHandle: valueHandle, allowed: allowed), .fixed([0, 0]), read: true)
                    cccd.writable = true
                    attributes.append(cccd)
                }
            }
            attributes[start].kind = .service(end: UInt16(attributes.count))
        }
    }

    private func make(_ type: BluetoothUUID, _ kind: GATTAttribute.Kind, _ source: GATTValueSource, read: Bool) -> GATTAttribute {
        GATTAttribute(handle: UInt16(attributes.count + 1), type: type, kind: kind, source: source, readable: read,
                      writable: false, writableWithoutResponse: false, encryptedRead: false, encryptedWrite: false, properties: [])
    }

    private mutating func add(_ type: BluetoothUUID, _ kind: GATTAttribute.Kind, _ source: GATTValueSource, read: Bool) {
        attributes.append(make(type, kind, source, read: read))
    }

    /// The attribute at a handle (handles are 1-based and dense).
    public subscript(handle: UInt16) -> GATTAttribute? {
        handle >= 1 && Int(handle) <= attributes.count ? attributes[Int(handle) - 1] : nil
    }

    public var lastHandle: UInt16 { UInt16(attributes.count) }

    /// Attributes with handles in start...end.
    public func range(_ start: UInt16, _ end: UInt16) -> ArraySlice<GATTAttribute> {
        guard start >= 1, start <= end, Int(start) <= attributes.count else { return [] }
        return attributes[Int(start) - 1..<min(Int(end), attributes.count)]
    }

    /// The value handle of the first characteristic with this source.
    public func valueHandle(of source: GATTValueSource) -> UInt16? {
        attributes.first { $0.kind == .value && $0.source == source }?.handle
    }

    /// The CCCD handle of a characteristic value.
    public func cccdHandle(of valueHandle: UInt16) -> UInt16? {
        attributes.first { if case .cccd(let v, _) = $0.kind { v == valueHandle } else { false } }?.handle
    }
}
