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

    init(nowMs: Int64) { lastFrameMs = nowMs }
}
