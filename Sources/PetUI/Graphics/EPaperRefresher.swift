// EPaperRefresher.swift — when and how an e-paper panel (SSD1680) refreshes. Pure: it is given
// what changed and the clock, and answers; the panel driver does the I/O.
//
// Policy (docs/panels.md): nothing changed → no refresh at all (the panel keeps its image without
// power); otherwise a partial refresh of the changed rectangle, fast and without flashing — except
// that every 21st update (after 20 partials) and any update an hour or more after the last full
// refresh is a full refresh, which flashes but clears the ghosting partials leave behind. The
// first update after power-on is full, since the panel's content is unknown.

public struct EPaperRefresher: Sendable, Equatable {
    /// What to do with one frame.
    public enum Decision: Sendable, Equatable {
        /// Nothing changed: leave the panel alone.
        case none
        /// Refresh only this rectangle.
        case partial(Rect)
        /// Refresh the whole panel (clears ghosting).
        case full
    }

    /// Partial refreshes allowed between two full ones.
    public static let partialsPerFull = 20
    /// The longest time between full refreshes while the picture changes (ms).
    public static let fullIntervalMs: Int64 = 60 * 60 * 1000

    /// Partial refreshes since the last full one.
    public private(set) var partialsSinceFull = 0
    /// When the last full refresh happened (nil: never, the next update is full).
    public private(set) var lastFullMs: Int64?

    public init() {}

    /// Decides for a frame whose changed area is `changed` (nil or empty: nothing changed) at
    /// `nowMs`, and records the decision.
    public mutating func decide(changed: Rect?, nowMs: Int64) -> Decision {
        guard let r = changed, !r.isEmpty else { return .none }
        let due: Bool
        if let last = lastFullMs {
            due = partialsSinceFull >= Self.partialsPerFull || nowMs - last >= Self.fullIntervalMs || nowMs < last
        } else {
            due = true
        }
        if due {
            partialsSinceFull = 0
            lastFullMs = nowMs
            return .full
        }
        partialsSinceFull += 1
        return .partial(r)
    }

    /// Decides by comparing the new frame with the one on the panel (`previous`, nil at start).
    public mutating func decide(frame: MonoCanvas, previous: MonoCanvas?, nowMs: Int64) -> Decision {
        let changed = previous.map { frame.changedRect(from: $0) } ?? frame.bounds
        return decide(changed: changed, nowMs: nowMs)
    }
}
