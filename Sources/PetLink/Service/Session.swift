import PetDevice

/// One connection's state in the service: its frame reassembly, whether it said hello, which
/// paired phone it is (nil: not authenticated), its pending pairing challenge, its timers.
struct Session {
    var decoder = FrameDecoder()
    var saidHello = false
    var phone: String?
    var challenge: Challenge?
    /// The last whole frame (or the connection), wall ms: the idle timeout counts from here.
    var lastFrameMs: Int64
    /// When the pending partial frame began (nil: none).
    var partialSinceMs: Int64?

    struct Challenge {
        var bytes: [UInt8]
        var code: String
        var expiresMs: Int64
    }

    /// Whole message bodies received and not yet handled, oldest first (from `waitingHead` on):
    /// a pipelining client's backlog, served one batch per wake-up.
    var waiting: [[UInt8]] = []
    var waitingHead = 0
    var waitingBytes = 0
    /// The loop's wake-up in which this connection was last served (one batch per wake-up).
    var servedAtWake = -1

    /// Since when (wall ms) the connection has not been authenticated: its opening, or the
    /// moment its phone was unpaired.
    var unauthenticatedSinceMs: Int64
    /// The export this connection asked for, running or waiting its turn (at most one).
    var export: ExportJob?
    /// Sent `buttons.watch`: gets a `button` message for each gesture of the board's keys.
    var watchesButtons = false

    init(nowMs: Int64) { lastFrameMs = nowMs; unauthenticatedSinceMs = nowMs }

    var hasWaiting: Bool { waitingHead < waiting.count }

    mutating func enqueue(_ bodies: [[UInt8]]) {
        for b in bodies { waiting.append(b); waitingBytes += b.count }
    }

    /// The oldest waiting body, removed.
    mutating func takeWaiting() -> [UInt8]? {
        guard waitingHead < waiting.count else { return nil }
        let b = waiting[waitingHead]
        waitingHead += 1
        waitingBytes -= b.count
        if waitingHead == waiting.count { waiting.removeAll(keepingCapacity: true); waitingHead = 0 }
        else if waitingHead >= 256 { waiting.removeFirst(waitingHead); waitingHead = 0 }
        return b
    }
}

/// One `export` command being answered, streamed (`LinkService.exportSlice`): the producer of
/// its document, the bytes produced and not yet sent (a slice and at most two parts), where the
/// parts cut from them end, and how many parts and bytes were sent.
struct ExportJob {
    var id: String
    /// Makes the document a slice at a time (nil until the export's turn comes, and once done).
    var producer: Export.Producer?
    /// The document's bytes produced and not yet sent, from `sentUpTo`.
    var buffer: [UInt8] = []
    /// Where the parts cut from `buffer` end, and where the next cut starts.
    var ends: [Int] = []
    var cutFrom = 0
    /// The next part to send (an index into `ends`) and where it starts in `buffer`.
    var nextPart = 0
    var sentUpTo = 0
    /// The producer has made the whole document.
    var finished = false
    /// Parts and document bytes sent.
    var sent = 0
    var bytes = 0

    init(id: String) { self.id = id }

    /// Drops the bytes already sent, so the buffer holds only what is still to go.
    mutating func compact() {
        guard sentUpTo > 0, sentUpTo >= buffer.count / 2 || sentUpTo == buffer.count else { return }
        buffer.removeFirst(sentUpTo)
        ends = ends[nextPart...].map { $0 - sentUpTo }
        cutFrom -= sentUpTo
        nextPart = 0
        sentUpTo = 0
    }
}
