/// What a connection's GATT session reports to its transport.
public enum GATTSessionEvent: Sendable, Equatable {
    /// A complete phone-protocol frame written to the command characteristic (prefix included).
    case frame([UInt8])
    /// A phone set the clock through Current Time (after `GATTServer.setClock` accepted it).
    case clockSet(CurrentTime)
    /// A command announced a frame longer than the maximum: the transport should drop the client.
    case frameTooLong(Int)
}

/// One connection's ATT bearer state and the server's answers: the negotiated MTU, CCCD
/// subscriptions, the prepared-write queue, the one indication in flight, the command reassembly.
/// `receive` takes a PDU and returns the PDUs to send back; it never traps on any bytes.
public final class GATTSession {
    public let server: GATTServer
    /// BT_SECURITY level of the link (1 low: unencrypted, 2 medium: encrypted, 3 high:
    /// authenticated, 4 FIPS). The transport sets it before each PDU.
    public var securityLevel: Int = 1
    public private(set) var mtu: Int = attDefaultMTU
    private var mtuExchanged = false
    /// CCCD values by characteristic value handle.
    public internal(set) var subscriptions: [UInt16: UInt16] = [:]
    struct PreparedWrite { var handle: UInt16; var offset: Int; var part: [UInt8] }
    var prepared: [PreparedWrite] = []
    var preparedBytes = 0
    /// An indication is out and not yet confirmed.
    public private(set) var indicationInFlight = false
    private var indicationQueue: [[UInt8]] = []
    var reassembler: FrameReassembler
    var events: [GATTSessionEvent] = []
    /// Frames sent while the event characteristic had no subscription (not notified: they wait
    /// only for reads).
    public private(set) var droppedFrames = 0
    /// Frames kept for reads of the event characteristic, oldest first (`eventReadStart` bytes of
    /// the first already read).
    var eventReadQueue: [[UInt8]] = []
    var eventReadStart = 0
    public internal(set) var pendingEventBytes = 0
    /// The phone has read the event characteristic: from then on frames wait for its reads and a
    /// notification only says how many bytes wait (4 bytes, little-endian).
    public internal(set) var eventReadMode = false
    /// A reading phone let more than `GATTServer.maxEventReadBytes` wait: the transport drops it.
    public internal(set) var eventReadOverflow = false
    /// Frames of a phone that never reads, dropped to make room (it takes them as notifications).
    public internal(set) var unreadFramesDiscarded = 0
    /// How much of the event chunk being read has been returned (by Read and Read Blob).
    var eventChunkDelivered = 0
    /// Snapshots of dynamic values for Read Blob (taken at offset 0).
    var snapshots: [UInt16: [UInt8]] = [:]

    public init(server: GATTServer) {
        self.server = server
        self.reassembler = FrameReassembler(maxBody: server.config.maxFrameBody)
    }

    public var isEncrypted: Bool { securityLevel >= 2 }
    /// Bytes of a command frame begun and not finished.
    public var pendingCommandBytes: Int { reassembler.pending }
    /// Indications waiting behind the one in flight.
    public var queuedIndications: Int { indicationQueue.count }

    /// Events since the last call.
    public func takeEvents() -> [GATTSessionEvent] { defer { events = [] }; return events }

    // MARK: - Incoming

    /// Handles one PDU from the client; returns what to send (a response or error, a queued
    /// indication after a confirmation; nothing for commands).
    public func receive(_ pdu: [UInt8]) -> [[UInt8]] {
        guard let op = pdu.first else { return [] }
        let isCommand = ATTOpcode.isCommand(op)
        if pdu.count > mtu {
            return isCommand || ATTOpcode.isResponseOrServerPDU(op) ? [] : [error(op, 0, .invalidPDU)]
        }
        let decoded: ATTPDU
        do { decoded = try ATTPDU.decode(pdu) } catch {
            return isCommand || ATTOpcode.isResponseOrServerPDU(op) ? [] : [self.error(op, 0, error.attError)]
        }
        switch decoded {
        case .exchangeMTURequest(let r): return [exchangeMTU(r)]
        case .findInformationRequest(let r): return [findInformation(r)]
        case .findByTypeValueRequest(let r): return [findByTypeValue(r)]
        case .readByTypeRequest(let r): return [readByType(r)]
        case .readRequest(let r): return [read(r.handle, offset: nil, op: op)]
        case .readBlobRequest(let r): return [read(r.handle, offset: Int(r.offset), op: op)]
        case .readByGroupTypeRequest(let r): return [readByGroupType(r)]
        case .writeRequest(let r):
            if let e = writeAllowed(r.handle, withoutResponse: false) { return [error(op, r.handle, e)] }
            if let e = write(r.handle, r.value) { return [error(op, r.handle, e)] }
            return [ATTWriteResponse().bytes]
        case .writeCommand(let r):
            if writeAllowed(r.handle, withoutResponse: true) == nil { _ = write(r.handle, r.value) }
            return []
        case .prepareWriteRequest(let r): return [prepareWrite(r)]
        case .executeWriteRequest(let r): return [executeWrite(r)]
        case .handleValueConfirmation:
            guard indicationInFlight else { return [] }
            indicationInFlight = false
            return nextIndication()
        case .errorResponse, .exchangeMTUResponse, .findInformationResponse, .findByTypeValueResponse,
             .readByTypeResponse, .readResponse, .readBlobResponse, .readByGroupTypeResponse, .writeResponse,
             .prepareWriteResponse, .executeWriteResponse, .handleValueNotification, .handleValueIndication:
            return []  // server-to-client PDUs coming the wrong way: ignored
        }
    }

    func error(_ op: UInt8, _ handle: UInt16, _ code: ATTErrorCode) -> [UInt8] {
        ATTErrorResponse(requestOpcode: op, handle: handle, error: code).bytes
    }

    private func exchangeMTU(_ r: ATTExchangeMTURequest) -> [UInt8] {
        // Once per connection (Core, Vol 3, Part F, 3.4.2.1).
        guard !mtuExchanged else { return error(ATTOpcode.exchangeMTURequest.rawValue, 0, .requestNotSupported) }
        mtuExchanged = true
        mtu = max(attDefaultMTU, min(Int(r.clientMTU), Int(server.serverMTU)))
        return ATTExchangeMTUResponse(serverMTU: server.serverMTU).bytes
    }

    // MARK: - Outgoing

    /// Splits a phone-protocol frame into ATT_MTU − 3 chunks for the event characteristic:
    /// notifications if the client subscribed to them, else indications (one in flight, the rest
    /// queued until each confirmation), else nothing (counted in `droppedFrames`).
    ///
    /// Every frame is also kept for reads of the event characteristic (bounded). Once the phone
    /// has read it (`eventReadMode`), notifications (or indications) carry only the number of bytes
    /// waiting, a hint to read, and the frames are read, never notified.
    public func send(frame: [UInt8]) -> [[UInt8]] {
        let handle = server.eventHandle
        let cccd = subscriptions[handle] ?? 0
        keepForReads(frame)
        if eventReadMode {
            let n = UInt32(clamping: pendingEventBytes)
            let hint = [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)]
            if cccd & 1 != 0 { return [ATTHandleValueNotification(handle: handle, value: hint).bytes] }
            if cccd & 2 != 0 {
                // One hint in flight and at most one waiting: a hint says "read", not how often.
                guard indicationQueue.isEmpty else { return [] }
                indicationQueue.append(ATTHandleValueIndication(handle: handle, value: hint).bytes)
                return indicationInFlight ? [] : nextIndication()
            }
            return []
        }
        let size = mtu - 3
        var chunks: [[UInt8]] = []
        var i = 0
        while i < frame.count { chunks.append(Array(frame[i..<min(i + size, frame.count)])); i += size }
        if cccd & 1 != 0 { return chunks.map { ATTHandleValueNotification(handle: handle, value: $0).bytes } }
        if cccd & 2 != 0 {
            indicationQueue += chunks.map { ATTHandleValueIndication(handle: handle, value: $0).bytes }
            return indicationInFlight ? [] : nextIndication()
        }
        droppedFrames += 1
        return []
    }

    /// Service Changed for a handle range, if the client subscribed to its indications.
    public func indicateServiceChanged(start: UInt16 = 1, end: UInt16 = 0xFFFF) -> [[UInt8]] {
        let h = server.serviceChangedHandle
        guard (subscriptions[h] ?? 0) & 2 != 0 else { return [] }
        var v: [UInt8] = []
        v.appendLE(start); v.appendLE(end)
        indicationQueue.append(ATTHandleValueIndication(handle: h, value: v).bytes)
        return indicationInFlight ? [] : nextIndication()
    }

    private func nextIndication() -> [[UInt8]] {
        guard !indicationQueue.isEmpty else { return [] }
        indicationInFlight = true
        return [indicationQueue.removeFirst()]
    }
}
