import PetCore
import PetStore

// The seam between the device loop and the phone protocol (PetLink's `LinkService`,
// docs/protocol.md): the service reads the device through a `LinkHost` and returns what must
// happen as `LinkEffect` values; only the loop (DeviceLoop+Link.swift) touches the transport,
// the app and the screen.

/// What the phone protocol decided must happen, in order.
public enum LinkEffect: Sendable, Equatable {
    /// Bytes for one client (a reply, a pushed event, a last error).
    case send(LinkFrame)
    /// Close a client's connection (after the frames before this one): the transport drops it
    /// and the status strip forgets it.
    case drop(client: Int)
    /// Show a pairing code on screen (a phone asked to pair); nil hides it.
    case pairingCode(String?)
    /// How the pairing attempt whose code was on screen ended: the pairing screen says so.
    case pairingEnded(PairingResult)
}

/// How a pairing attempt ended (`LinkEffect.pairingEnded`; docs/protocol.md#pairing).
public enum PairingResult: Sendable, Equatable {
    /// The phone proved the code and is paired, under the name it gave.
    case paired(name: String)
    /// The phone sent a wrong code (it may try again with a new code).
    case wrongCode
    /// The last wrong code locked pairing (the screen shows the lockout from the state).
    case locked
    /// No proof came before the code expired.
    case expired
}

/// The device as the phone protocol sees it: the time, the state, the journal (through `PetApp`),
/// the loop's wake-ups — and the two requests whose result the protocol needs before it can
/// answer: storing commands and setting the clock. `DeviceLoop` is the host; tests use a fake.
public protocol LinkHost: AnyObject {
    /// Wall time, ms since 1970.
    var nowMs: Int64 { get }
    /// Wall time, whole seconds.
    var now: Instant { get }
    var state: PetState { get }
    /// Whether a command with this journal id was stored before (`PetApp.commandSeen`: the
    /// state's latest ids, then the journal's commands table).
    func commandSeen(_ id: String) -> Bool
    /// The loop's wake-ups so far: a connection's backlog is served one batch per wake-up.
    var wakeups: Int { get }
    /// Stored events after `seq`, oldest first, at most `limit` (a reconnecting phone's replay).
    func storedEvents(after seq: Int64, limit: Int) throws(AppError) -> [EventRow]
    /// The export document (docs/export.md) as of now, to be produced a piece at a time.
    func startExport() -> Export.Producer
    /// Bytes sent to `client` that the transport still holds (`PhoneLink.queuedBytes`): a long
    /// answer (an export) waits while it is high.
    func queuedBytes(client: Int) -> Int
    /// Whether the phone may set the clock (`Hardware.settableClock`).
    var clockIsSettable: Bool { get }
    /// Sets the wall clock (`time.set`, the Current Time characteristic). Throws when the clock
    /// cannot be set (none is settable, or the system refuses).
    func setWallClock(ms: Int64) throws(HardwareError)
    /// Applies `effects` (what the service decided before this, in order: the screen and the
    /// wire keep their order), then stores `commands` in one journal transaction
    /// (`PetApp.handleBatch`) and tells the device — navigator, feedback, `onEvents` — about the
    /// events, but not the link: the service pushes them itself, before its replies. Returns the
    /// outcomes in order, once the transaction is durable; throws if the journal failed (then
    /// nothing of the batch is stored).
    func commit(_ commands: [Command], after effects: [LinkEffect]) throws(AppError) -> [Outcome]
    /// The board's keys, by name (`A`, `B`, …): what a client may see pressed (`buttons.watch`).
    var buttonNames: [String] { get }
}

extension LinkHost {
    /// Hosts without a journal of their own (test fakes) know the state's latest ids only.
    public func commandSeen(_ id: String) -> Bool { state.recentCommands.contains(id) }
    /// Hosts without a board (test fakes) have no keys.
    public var buttonNames: [String] { [] }
}

/// The phone protocol on top of a `PhoneLink` (PetLink's service). The loop hands it every link
/// event, every batch of stored events and its wake-ups, and applies the effects it returns.
public protocol LinkServing: AnyObject {
    /// A client came, sent a frame or went: what to do (replies, refusals, drops).
    func handle(_ event: LinkEvent, loop: LinkHost) -> [LinkEffect]
    /// Events were stored by the device itself (buttons, time): what to push to connected
    /// clients. (Events of commands the service committed it pushes itself.)
    func pushed(_ events: [Event], loop: LinkHost) -> [LinkEffect]
    /// When it next needs the loop to wake (a client's timeout), wall ms; nil: never. At or
    /// before now: wake again at once (messages are waiting; `tick` serves the next batch).
    func nextDeadlineMs(loop: LinkHost) -> Int64?
    /// The loop woke: time-outs, clients to drop, backlogs to serve.
    func tick(loop: LinkHost) -> [LinkEffect]
    /// A button gesture was recognised on the device (before it acts): what to tell the clients
    /// that asked to see them (docs/protocol.md, `buttons.watch`). Not journaled.
    func gesture(_ g: Gesture, loop: LinkHost) -> [LinkEffect]
}

extension LinkServing {
    public func gesture(_ g: Gesture, loop: LinkHost) -> [LinkEffect] { [] }
}
