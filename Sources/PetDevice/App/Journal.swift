import FoundationEssentials
import PetCore
import PetStore

/// Converts between domain events and the journal's rows (docs/storage.md).
public enum JournalCodec {
    public static func row(_ e: Event, clock: DayClock) throws(AppError) -> EventRow {
        let payload: String
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            payload = String(decoding: try encoder.encode(e.kind), as: UTF8.self)
        } catch {
            throw .journal(seq: nil, detail: "cannot encode a \(e.kind.type) event")
        }
        let delta = e.kind.coinsDelta
        return EventRow(at: e.at.seconds, day: clock.day(of: e.at), type: e.kind.type, commandID: e.commandID,
                        coinsDelta: delta, xpDelta: e.kind.xpDelta, reason: delta == 0 ? nil : e.kind.type,
                        payload: payload)
    }

    /// The largest coin or XP change one stored event may carry: far above anything the rules
    /// give (a task earns at most a few hundred), far below where sums could overflow.
    public static let maxDelta = 1_000_000_000

    /// The event of a stored row, or `.journal(seq:)` saying why the row cannot be folded: an
    /// unreadable payload (naming the field), an instant outside `TimeRange`, a coin or XP change
    /// beyond `maxDelta`.
    public static func event(_ r: EventRow, decoder: JSONDecoder = JSONDecoder()) throws(AppError) -> Event {
        guard TimeRange.contains(Instant(r.at)) else {
            throw .journal(seq: r.seq, detail: "a '\(r.type)' event at \(Instant(r.at)) is outside the valid range \(TimeRange.text)")
        }
        let kind: EventKind
        do {
            kind = try decoder.decode(EventKind.self, from: Data(r.payload.utf8))
        } catch let DecodingError.dataCorrupted(c) {
            // Only our own instant message is repeated: other decoder texts may quote stored values.
            let why = c.debugDescription.hasPrefix("@") ? c.debugDescription : "is not valid"
            throw .journal(seq: r.seq, detail: "cannot read a '\(r.type)' event: \(fieldName(c.codingPath)) \(why)")
        } catch {
            throw .journal(seq: r.seq, detail: "cannot decode a '\(r.type)' event (written by a newer DeskPet?)")
        }
        if case .dayClosed(let result) = kind, !TimeRange.days.contains(result.day) {
            throw .journal(seq: r.seq, detail: "a 'day.closed' event names day \(result.day), outside the valid range \(TimeRange.text)")
        }
        if case .appTime(.session(_, let start, let end)) = kind,
           end < start || end.seconds &- start.seconds > AppTimeRules.maxSessionSeconds {
            // The command refuses these; folding one would walk its days one by one (a hand-edited
            // row ending centuries later would take hours).
            throw .journal(seq: r.seq, detail: "a 'screen.session' event lasts \(end.seconds &- start.seconds) s, outside 0–\(AppTimeRules.maxSessionSeconds) s")
        }
        for (name, delta) in [("coins", kind.coinsDelta), ("XP", kind.xpDelta)] where delta.magnitude > UInt(maxDelta) {
            throw .journal(seq: r.seq, detail: "a '\(r.type)' event changes \(name) by \(delta), beyond ±\(maxDelta)")
        }
        return Event(at: Instant(r.at), commandID: r.commandID, kind: kind)
    }

    private static func fieldName(_ path: [CodingKey]) -> String {
        path.isEmpty ? "payload" : "field '" + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + "'"
    }
}

/// Errors of the device app: each says what and where.
public enum AppError: Error, CustomStringConvertible, Equatable {
    /// The command was refused; nothing changed.
    case domain(DomainError)
    /// The database failed; nothing was acknowledged.
    case store(StoreError)
    /// A journal row cannot be read back.
    case journal(seq: Int64?, detail: String)
    /// A hardware backend failed in a way the loop cannot carry on from.
    case hardware(HardwareError)

    public var description: String {
        switch self {
        case .domain(let e): return e.description
        case .store(let e): return "storage: \(e)"
        case let .journal(seq, detail): return "journal" + (seq.map { " event #\($0)" } ?? "") + ": \(detail)"
        case .hardware(let e): return "hardware: \(e)"
        }
    }

    /// Stable error code for the protocol.
    public var code: String {
        switch self {
        case .domain(let e): return e.code
        case .store: return ErrorCode.storage
        case .journal: return ErrorCode.journalRead
        case .hardware: return ErrorCode.hardware
        }
    }
}
