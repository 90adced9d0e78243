import PetDevice

/// The phone link's limits (docs/protocol.md#limits-and-timeouts).
public struct LinkConfig: Sendable, Equatable {
    /// Connections served at once; the next one gets `too_many_clients` and is closed.
    public var maxClients = 16
    /// A frame begun but not finished within this is a timeout (the client is dropped).
    public var halfFrameTimeoutMs: Int64 = 30_000
    /// A connection that sends no whole frame for this long is dropped (clients `ping`).
    public var idleTimeoutMs: Int64 = 120_000
    /// How long a pairing challenge (and the code on screen) stays good.
    public var challengeSeconds = 120
    /// Events replayed at most after `hello.last_seq` (older gaps: `truncated`, then resync).
    public var replayLimit = 500
    /// Messages handled per connection per wake-up: a run of pipelined commands among them is
    /// decided together and stored in one journal transaction (group commit). Buttons and the
    /// other connections are served between batches.
    public var batchLimit = 64
    /// Bytes of whole messages a connection may have waiting unanswered; beyond it `overloaded`
    /// and the connection is closed (the same bound as its unread output).
    public var maxWaitingBytes = 1 << 20
    /// When every slot is taken, a new connection takes the place of the oldest one that has not
    /// authenticated (no paired token, no pairing code on screen) for at least this long; when
    /// none has, the new one is refused. So connections that only said hello cannot keep a
    /// paired phone out (docs/protocol.md#limits-and-timeouts).
    public var unauthenticatedGraceMs: Int64 = 5_000
    /// Exports running or waiting at once, in all (the next gets `busy`); one per connection.
    /// One export is produced at a time, a slice per wake-up.
    public var maxExports = 4
    /// Journal rows an export reads and writes per wake-up at most (the document is streamed: the
    /// head and state, then rows, made only as its parts are sent).
    public var exportRowsPerSlice = 128
    /// `export.part` frames sent per wake-up at most (each at most 48 KiB of data).
    public var exportPartsPerWake = 4
    /// An export's next part waits while the client has this much output unread in the
    /// transport (back-pressure: the export is produced as the socket drains).
    public var exportWindowBytes = 256 * 1024
    public init() {}
}
