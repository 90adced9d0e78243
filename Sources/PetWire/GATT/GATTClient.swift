/// Carries whole ATT PDUs to and from a server (an L2CAP ATT socket, a socketpair in tests).
public protocol ATTBearer: AnyObject {
    func sendPDU(_ pdu: [UInt8]) throws(GATTClientError)
    /// The next PDU from the server (blocking as the bearer decides).
    func receivePDU() throws(GATTClientError) -> [UInt8]
}

public enum GATTClientError: Error, Equatable, Sendable {
    /// The bearer failed (socket error, closed).
    case transport(String)
    /// The server answered with an Error Response.
    case att(ATTErrorResponse)
    /// The server sent bytes that are not an ATT PDU.
    case decode(ATTDecodeError)
    /// A response of the wrong kind.
    case unexpected([UInt8])
}

/// A small GATT client (the phone's side): MTU exchange, discovery, reads (long too), writes
/// (long too, through Prepare/Execute Write), subscriptions. Notifications and indications that
/// arrive while it waits for a response are kept in `received` (indications are confirmed).
public final class GATTClient {
    public let bearer: ATTBearer
    public private(set) var mtu = attDefaultMTU
    /// Server-initiated values in arrival order.
    public var received: [(handle: UInt16, value: [UInt8], indication: Bool)] = []

    public init(bearer: ATTBearer) { self.bearer = bearer }

    public struct Service: Sendable, Equatable { public var start: UInt16; public var end: UInt16; public var uuid: BluetoothUUID }
    public struct Characteristic: Sendable, Equatable {
        public var declaration: UInt16; public var properties: GATTProperties; public var valueHandle: UInt16; public var uuid: BluetoothUUID
    }

    /// Sends a request and returns its response (Error Responses throw `.att`).
    public func request(_ pdu: [UInt8]) throws(GATTClientError) -> ATTPDU {
        try bearer.sendPDU(pdu)
        while true {
            let r = try next()
            switch r {
            case .handleValueNotification, .handleValueIndication: continue
            case .errorResponse(let e): throw .att(e)
            default: return r
            }
        }
    }

    /// Reads one PDU, keeping (and confirming) server-initiated values.
    @discardableResult
    func next() throws(GATTClientError) -> ATTPDU {
        let bytes = try bearer.receivePDU()
        let pdu: ATTPDU
        do { pdu = try ATTPDU.decode(bytes) } catch { throw .decode(error) }
        switch pdu {
        case .handleValueNotification(let n): received.append((n.handle, n.value, false))
        case .handleValueIndication(let i):
            received.append((i.handle, i.value, true))
            try bearer.sendPDU(ATTHandleValueConfirmation().bytes)
        default: break
        }
        return pdu
    }

    /// Waits for the next notification or indication.
    public func waitForValue() throws(GATTClientError) -> (handle: UInt16, value: [UInt8], indication: Bool) {
        while received.isEmpty { try next() }
        return received.removeFirst()
    }

    public func exchangeMTU(_ clientMTU: UInt16) throws(GATTClientError) -> UInt16 {
        guard case .exchangeMTUResponse(let r) = try request(ATTExchangeMTURequest(clientMTU: clientMTU).bytes) else { throw .unexpected([]) }
        mtu = max(attDefaultMTU, min(Int(clientMTU), Int(r.serverMTU)))
        return r.serverMTU
    }

    /// Every primary service (Read By Group Type 0x2800 until Attribute Not Found).
    public func discoverPrimaryServices() throws(GATTClientError) -> [Service] {
        var out: [Service] = []
        var start: UInt16 = 1
        while true {
            let r: ATTPDU
            do { r = try request(ATTReadByGroupTypeRequest(startHandle: start, endHandle: 0xFFFF, groupType: GATTType.primaryService).bytes) }
            catch { if case .att(let e) = error, e.error == .attributeNotFound { return out }; throw error }
            guard case .readByGroupTypeResponse(let rsp) = r, !rsp.entries.isEmpty else { throw .unexpected(r.bytes) }
            for e in rsp.entries { out.append(Service(start: e.handle, end: e.groupEnd, uuid: BluetoothUUID(littleEndian: e.value) ?? .bit16(0))) }
            guard let last = rsp.entries.last?.groupEnd, last < 0xFFFF else { return out }
            start = last + 1
        }
    }

    /// One primary service by UUID (Find By Type Value).
    public func findPrimaryService(_ uuid: BluetoothUUID) throws(GATTClientError) -> Service? {
        do throws(GATTClientError) {
            let r = try request(ATTFindByTypeValueRequest(startHandle: 1, endHandle: 0xFFFF, type: 0x2800, value: uuid.littleEndianBytes).bytes)
            guard case .findByTypeValueResponse(let rsp) = r, let e = rsp.entries.first else { throw GATTClientError.unexpected(r.bytes) }
            return Service(start: e.handle, end: e.groupEnd, uuid: uuid)
        } catch { if case .att(let e) = error, e.error == .attributeNotFound { return nil }; throw error }
    }

    /// Characteristics in a range (Read By Type 0x2803).
    public func discoverCharacteristics(_ start: UInt16, _ end: UInt16) throws(GATTClientError) -> [Characteristic] {
        var out: [Characteristic] = []
        var s = start
        while s <= end {
            let r: ATTPDU
            do { r = try request(ATTReadByTypeRequest(startHandle: s, endHandle: end, type: GATTType.characteristic).bytes) }
            catch { if case .att(let e) = error, e.error == .attributeNotFound { return out }; throw error }
            guard case .readByTypeResponse(let rsp) = r, !rsp.entries.isEmpty else { throw .unexpected(r.bytes) }
            for e in rsp.entries where e.value.count >= 5 {
                out.append(Characteristic(declaration: e.handle, properties: GATTProperties(rawValue: e.value[0]),
                                          valueHandle: UInt16(e.value[1]) | UInt16(e.value[2]) << 8,
                                          uuid: BluetoothUUID(littleEndian: Array(e.value[3...])) ?? .bit16(0)))
            }
            guard let last = rsp.entries.last?.handle, last < end else { return out }
            s = last + 1
        }
        return out
    }

    /// Handles and types in a range (Find Information).
    public func discoverDescriptors(_ start: UInt16, _ end: UInt16) throws(GATTClientError) -> [ATTFindInformationResponse.Entry] {
        var out: [ATTFindInformationResponse.Entry] = []
        var s = start
        while s <= end {
            let r: ATTPDU
            do { r = try request(ATTFindInformationRequest(startHandle: s, endHandle: end).bytes) }
            catch { if case .att(let e) = error, e.error == .attributeNotFound { return out }; throw error }
            guard case .findInformationResponse(let rsp) = r, let last = rsp.entries.last?.handle else { throw .unexpected(r.bytes) }
            out += rsp.entries
            guard last < end else { return out }
            s = last + 1
        }
        return out
    }

    public func read(_ handle: UInt16) throws(GATTClientError) -> [UInt8] {
        guard case .readResponse(let r) = try request(ATTReadRequest(handle: handle).bytes) else { throw .unexpected([]) }
        return r.value
    }

    /// Read, then Read Blob while the parts come full (ATT_MTU − 1).
    public func readLong(_ handle: UInt16) throws(GATTClientError) -> [UInt8] {
        var value = try read(handle)
        var part = value.count
        while part == mtu - 1 {
            guard case .readBlobResponse(let r) = try request(ATTReadBlobRequest(handle: handle, offset: UInt16(value.count)).bytes) else { throw .unexpected([]) }
            value += r.part
            part = r.part.count
        }
        return value
    }

    public func write(_ handle: UInt16, _ value: [UInt8]) throws(GATTClientError) {
        guard case .writeResponse = try request(ATTWriteRequest(handle: handle, value: value).bytes) else { throw .unexpected([]) }
    }

    public func writeCommand(_ handle: UInt16, _ value: [UInt8]) throws(GATTClientError) {
        try bearer.sendPDU(ATTWriteCommand(handle: handle, value: value).bytes)
    }

    /// A long write: Prepare Write parts of ATT_MTU − 5 bytes, then Execute Write.
    public func writeLong(_ handle: UInt16, _ value: [UInt8]) throws(GATTClientError) {
        var offset = 0
        repeat {
            let part = Array(value[offset..<min(value.count, offset + mtu - 5)])
            let req = ATTPrepareWriteRequest(handle: handle, offset: UInt16(offset), part: part)
            guard case .prepareWriteResponse(let echo) = try request(req.bytes),
                  echo.handle == handle, echo.offset == UInt16(offset), echo.part == part else {
                _ = try? request(ATTExecuteWriteRequest(commit: false).bytes)
                throw .unexpected([])
            }
            offset += part.count
        } while offset < value.count
        guard case .executeWriteResponse = try request(ATTExecuteWriteRequest(commit: true).bytes) else { throw .unexpected([]) }
    }

    /// Writes a CCCD: notifications (1), indications (2), or off (0).
    public func subscribe(cccd: UInt16, notify: Bool = true, indicate: Bool = false) throws(GATTClientError) {
        try write(cccd, [(notify ? 1 : 0) | (indicate ? 2 : 0), 0])
    }
}
