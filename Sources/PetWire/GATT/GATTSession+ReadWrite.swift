// Read, Read Blob, Write Request/Command, Prepare/Execute Write, and the DeskPet roles behind them.

extension GATTSession {
    func readPermission(_ a: GATTAttribute) -> ATTErrorCode? {
        if !a.readable { return .readNotPermitted }
        if a.encryptedRead && !isEncrypted { return .insufficientAuthentication }
        return nil
    }

    /// The attribute's value now (CCCDs per connection, DeskPet roles from the server's hooks).
    func currentValue(_ a: GATTAttribute) -> [UInt8] {
        if case .cccd(let v, _) = a.kind {
            let bits = subscriptions[v] ?? 0
            return [UInt8(bits & 0xFF), UInt8(bits >> 8)]
        }
        switch a.source {
        case .fixed(let v): return v
        case .deviceName: return Array(server.deviceName.utf8.prefix(248))
        case .state: return server.stateValue()
        case .currentTime: return server.currentTime()?.bytes ?? [UInt8](repeating: 0, count: 10)
        case .batteryLevel: return [min(server.batteryLevel(), 100)]
        case .serviceChanged, .command, .event: return []
        }
    }

    /// Read (offset nil) or Read Blob. A dynamic value read at offset 0 is kept so a Read Blob
    /// sequence returns one consistent snapshot.
    func read(_ handle: UInt16, offset: Int?, op: UInt8) -> [UInt8] {
        guard let a = server.database[handle] else { return error(op, handle, .invalidHandle) }
        if let e = readPermission(a) { return error(op, handle, e) }
        let isEvent = a.source == .event && a.kind == .value
        // The event's Read Blob continues the chunk its Read took; with none taken, nothing to continue.
        if isEvent, let offset, offset > 0, snapshots[handle] == nil { return error(op, handle, .invalidOffset) }
        let value: [UInt8]
        if let offset, offset > 0, let snap = snapshots[handle] { value = snap } else {
            value = isEvent ? nextEventChunk() : currentValue(a)
            snapshots[handle] = value
        }
        let start = offset ?? 0
        guard start <= value.count else { return error(op, handle, .invalidOffset) }
        let part = Array(value[start..<min(value.count, start + mtu - 1)])
        if isEvent { eventChunkDelivered = max(eventChunkDelivered, start + part.count) }
        return offset == nil ? ATTReadResponse(value: part).bytes : ATTReadBlobResponse(part: part).bytes
    }

    // MARK: - The event characteristic, read

    /// Keeps a frame for reads. A phone that reads and lets too much wait is flagged for the
    /// transport to drop; for one that never read, the oldest whole frames make room.
    func keepForReads(_ frame: [UInt8]) {
        eventReadQueue.append(frame)
        pendingEventBytes += frame.count
        guard pendingEventBytes > server.maxEventReadBytes else { return }
        if eventReadMode { eventReadOverflow = true; return }
        while pendingEventBytes > server.maxEventReadBytes, eventReadQueue.count > 1 {
            pendingEventBytes -= eventReadQueue.removeFirst().count
            unreadFramesDiscarded += 1
        }
    }

    /// The next pending chunk (at most `GATTServer.eventChunkBytes`, across frames; empty when
    /// nothing waits), taken from the queue at a Read. What the phone did not read of the last
    /// chunk (a Read without the Read Blobs after it) comes first: nothing is lost.
    func nextEventChunk() -> [UInt8] {
        eventReadMode = true
        let h = server.eventHandle
        var chunk: [UInt8] = []
        if let last = snapshots[h], eventChunkDelivered < last.count { chunk = Array(last[eventChunkDelivered...]) }
        snapshots[h] = nil
        eventChunkDelivered = 0
        let limit = max(1, server.eventChunkBytes)
        while chunk.count < limit, let first = eventReadQueue.first {
            let take = min(limit - chunk.count, first.count - eventReadStart)
            chunk += first[eventReadStart..<(eventReadStart + take)]
            eventReadStart += take
            pendingEventBytes -= take
            if eventReadStart == first.count { eventReadQueue.removeFirst(); eventReadStart = 0 }
        }
        return chunk
    }

    /// Write permission for a Write Request/Prepare Write (`withoutResponse`: a Write Command).
    func writeAllowed(_ handle: UInt16, withoutResponse: Bool) -> ATTErrorCode? {
        guard let a = server.database[handle] else { return .invalidHandle }
        guard withoutResponse ? a.writableWithoutResponse : a.writable else { return .writeNotPermitted }
        if a.encryptedWrite && !isEncrypted { return .insufficientAuthentication }
        return nil
    }

    /// Applies a whole value to a writable attribute.
    func write(_ handle: UInt16, _ value: [UInt8]) -> ATTErrorCode? {
        guard let a = server.database[handle] else { return .invalidHandle }
        guard value.count <= attMaximumValueLength else { return .invalidAttributeValueLength }
        if case .cccd(let v, let allowed) = a.kind {
            guard value.count == 2 else { return .invalidAttributeValueLength }
            let bits = UInt16(value[0]) | UInt16(value[1]) << 8
            var ok: UInt16 = 0
            if allowed.contains(.notify) { ok |= 1 }
            if allowed.contains(.indicate) { ok |= 2 }
            guard bits & ~ok == 0 else { return .cccdImproperlyConfigured }
            subscriptions[v] = bits
            return nil
        }
        switch a.source {
        case .command:
            do throws(FrameReassembler.Failure) {
                for f in try reassembler.append(value) { events.append(GATTSessionEvent.frame(f)) }
                return nil
            } catch {
                if case .tooLong(let n) = error { events.append(GATTSessionEvent.frameTooLong(n)) }
                return .invalidAttributeValueLength
            }
        case .currentTime:
            let t: CurrentTime
            do throws(CurrentTime.DecodeError) { t = try CurrentTime(bytes: value) } catch {
                if case .length = error { return .invalidAttributeValueLength }
                return .ctsDataFieldIgnored
            }
            guard server.setClock(t) else { return .ctsDataFieldIgnored }
            events.append(GATTSessionEvent.clockSet(t))
            return nil
        default:
            return .writeNotPermitted
        }
    }

    func prepareWrite(_ r: ATTPrepareWriteRequest) -> [UInt8] {
        let op = ATTOpcode.prepareWriteRequest.rawValue
        if let e = writeAllowed(r.handle, withoutResponse: false) { return error(op, r.handle, e) }
        guard prepared.count < server.maxPreparedWrites, preparedBytes + r.part.count <= server.maxPreparedBytes else {
            return error(op, r.handle, .prepareQueueFull)
        }
        prepared.append(PreparedWrite(handle: r.handle, offset: Int(r.offset), part: r.part))
        preparedBytes += r.part.count
        return ATTPrepareWriteResponse(handle: r.handle, offset: r.offset, part: r.part).bytes
    }

    /// Commits (or cancels) the queue: the parts of each handle are laid at their offsets in the
    /// order they came; an offset past the value so far is Invalid Offset, over 512 bytes Invalid
    /// Attribute Value Length. Nothing is written if any handle fails; the queue is emptied either way.
    func executeWrite(_ r: ATTExecuteWriteRequest) -> [UInt8] {
        let op = ATTOpcode.executeWriteRequest.rawValue
        let queue = prepared
        prepared = []; preparedBytes = 0
        guard r.commit else { return ATTExecuteWriteResponse().bytes }
        var order: [UInt16] = []
        var values: [UInt16: [UInt8]] = [:]
        for p in queue {
            var v = values[p.handle] ?? { order.append(p.handle); return [] }()
            guard p.offset <= v.count else { return error(op, p.handle, .invalidOffset) }
            v = Array(v[0..<p.offset]) + p.part
            guard v.count <= attMaximumValueLength else { return error(op, p.handle, .invalidAttributeValueLength) }
            values[p.handle] = v
        }
        for h in order { if let e = write(h, values[h] ?? []) { return error(op, h, e) } }
        return ATTExecuteWriteResponse().bytes
    }
}
