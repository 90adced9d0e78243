// Rows.swift — the opaque rows PetStore persists.
//
// The store knows nothing about the DeskPet domain: an event is a typed,
// timestamped row with a JSON payload and optional ledger deltas; a command
// row remembers the reply given to a command so duplicates can be answered
// identically (idempotent command handling).

/// One domain event as stored in the `events` table.
public struct EventRow: Sendable, Equatable {
    /// Position in the log, assigned by the store on append (ignored on input): 1, 2, 3, ...
    public var seq: Int64
    /// When the event happened, unix seconds UTC.
    public var at: Int64
    /// Domain day number.
    public var day: Int
    /// Event type, e.g. "task.completed". Must not be empty.
    public var type: String
    /// The command that produced the event; nil for time-driven events.
    /// When set it must name a command stored earlier or in the same append.
    public var commandID: String?
    /// Coin ledger change carried by this event (0 if none).
    public var coinsDelta: Int
    /// Experience change carried by this event (0 if none).
    public var xpDelta: Int
    /// Ledger reason text for coin changes (must not hold personal text).
    public var reason: String?
    /// JSON text of the event body. Must be valid JSON (checked by the database).
    public var payload: String

    public init(
        seq: Int64 = 0, at: Int64, day: Int, type: String, commandID: String? = nil,
        coinsDelta: Int = 0, xpDelta: Int = 0, reason: String? = nil, payload: String = "{}"
    ) {
        self.seq = seq
        self.at = at
        self.day = day
        self.type = type
        self.commandID = commandID
        self.coinsDelta = coinsDelta
        self.xpDelta = xpDelta
        self.reason = reason
        self.payload = payload
    }
}

/// A handled command, remembered so a repeated command gets the same reply.
public struct CommandRow: Sendable, Equatable {
    /// Caller-chosen unique id (e.g. a UUID string).
    public var id: String
    /// When the command was handled, unix seconds UTC.
    public var at: Int64
    /// Command kind, e.g. "task.complete".
    public var kind: String
    /// JSON reply to repeat for duplicates.
    public var reply: String

    public init(id: String, at: Int64, kind: String, reply: String) {
        self.id = id
        self.at = at
        self.kind = kind
        self.reply = reply
    }
}
