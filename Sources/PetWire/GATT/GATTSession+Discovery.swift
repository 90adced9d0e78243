// Find Information, Find By Type Value, Read By Type, Read By Group Type (Core, Vol 3, Part F, 3.4.3/3.4.4).

extension GATTSession {
    /// Start 0 or start > end: Invalid Handle (with the start handle).
    func badRange(_ op: ATTOpcode, _ start: UInt16, _ end: UInt16) -> [UInt8]? {
        start == 0 || start > end ? error(op.rawValue, start, .invalidHandle) : nil
    }

    func findInformation(_ r: ATTFindInformationRequest) -> [UInt8] {
        let op = ATTOpcode.findInformationRequest
        if let e = badRange(op, r.startHandle, r.endHandle) { return e }
        var entries: [ATTFindInformationResponse.Entry] = []
        var format: UInt8 = 0
        for a in server.database.range(r.startHandle, r.endHandle) {
            let f: UInt8 = if case .bit16 = a.type { 1 } else { 2 }
            if format == 0 { format = f }
            guard f == format, 2 + (entries.count + 1) * (format == 1 ? 4 : 18) <= mtu else { break }
            entries.append(.init(handle: a.handle, type: a.type))
        }
        guard !entries.isEmpty else { return error(op.rawValue, r.startHandle, .attributeNotFound) }
        return ATTFindInformationResponse(format: format, entries: entries).bytes
    }

    func findByTypeValue(_ r: ATTFindByTypeValueRequest) -> [UInt8] {
        let op = ATTOpcode.findByTypeValueRequest
        if let e = badRange(op, r.startHandle, r.endHandle) { return e }
        var entries: [ATTFindByTypeValueResponse.Entry] = []
        for a in server.database.range(r.startHandle, r.endHandle) where a.type == .bit16(r.type) {
            guard case .fixed(let v) = a.source, a.readable, v == r.value else { continue }
            guard 1 + (entries.count + 1) * 4 <= mtu else { break }
            let end: UInt16 = if case .service(let e) = a.kind { e } else { a.handle }
            entries.append(.init(handle: a.handle, groupEnd: end))
        }
        guard !entries.isEmpty else { return error(op.rawValue, r.startHandle, .attributeNotFound) }
        return ATTFindByTypeValueResponse(entries: entries).bytes
    }

    func readByType(_ r: ATTReadByTypeRequest) -> [UInt8] {
        let op = ATTOpcode.readByTypeRequest
        if let e = badRange(op, r.startHandle, r.endHandle) { return e }
        var entries: [ATTReadByTypeResponse.Entry] = []
        for a in server.database.range(r.startHandle, r.endHandle) where a.type == r.type {
            if let e = readPermission(a) {
                if entries.isEmpty { return error(op.rawValue, a.handle, e) }
                break
            }
            let value = Array(currentValue(a).prefix(min(mtu - 4, 253)))
            if let first = entries.first, first.value.count != value.count { break }
            guard 2 + (entries.count + 1) * (2 + value.count) <= mtu else { break }
            entries.append(.init(handle: a.handle, value: value))
        }
        guard !entries.isEmpty else { return error(op.rawValue, r.startHandle, .attributeNotFound) }
        return ATTReadByTypeResponse(entries: entries).bytes
    }

    func readByGroupType(_ r: ATTReadByGroupTypeRequest) -> [UInt8] {
        let op = ATTOpcode.readByGroupTypeRequest
        if let e = badRange(op, r.startHandle, r.endHandle) { return e }
        guard r.groupType == GATTType.primaryService || r.groupType == GATTType.secondaryService else {
            return error(op.rawValue, r.startHandle, .unsupportedGroupType)
        }
        var entries: [ATTReadByGroupTypeResponse.Entry] = []
        for a in server.database.range(r.startHandle, r.endHandle) where a.type == r.groupType {
            guard case .service(let end) = a.kind else { continue }
            let value = Array(currentValue(a).prefix(min(mtu - 6, 251)))
            if let first = entries.first, first.value.count != value.count { break }
            guard 2 + (entries.count + 1) * (4 + value.count) <= mtu else { break }
            entries.append(.init(handle: a.handle, groupEnd: end, value: value))
        }
        guard !entries.isEmpty else { return error(op.rawValue, r.startHandle, .attributeNotFound) }
        return ATTReadByGroupTypeResponse(entries: entries).bytes
    }
}
