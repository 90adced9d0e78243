#if canImport(Glibc)
import Glibc
#endif
// Glibc's socket names reach a module that also links CBluetooth through its headers.
import CBluetooth
import FoundationEssentials
import PetCore
import PetIO

/// The phone's side of the link (docs/protocol.md, "Writing a client"): one blocking connection
/// with a receive timeout, frames both ways. Used by deskpetctl, its tests and the bench.
///
/// Messages that arrive while the client waits for something else are kept: `event`s in
/// `events` (deduplicated by `seq`), `reminders` items in `reminders`, the latest `state` in
/// `state`. `lastSeq` is the highest event `seq` seen.
public final class LinkClient {
    public typealias Object = [String: JSONValue]

    /// The TCP or Unix address (nil for other streams, e.g. BLE).
    public let address: LinkAddress?
    /// Where the stream goes, for messages.
    public var peer: String { stream.peer }
    public let timeoutSeconds: Int
    public private(set) var events: [Object] = []
    public private(set) var reminders: [Object] = []
    public private(set) var state: Object?
    public private(set) var lastSeq: Int64
    public private(set) var welcome: Object?
    private let stream: LinkByteStream
    private var decoder = FrameDecoder(maxBody: Frame.maxBody)
    private var inbox: [Object] = []

    /// Connects (nothing is sent yet). Throws `unreachable` when no device listens there.
    public init(address: LinkAddress, timeoutSeconds: Int = 10, lastSeq: Int64 = 0) throws(LinkClientError) {
        self.address = address
        self.timeoutSeconds = max(1, timeoutSeconds)
        self.lastSeq = lastSeq
        let fd: Int32
        let where_ = address.description
        switch address {
        case let .tcp(host, port):
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw .unreachable(address: where_, reason: "socket: \(errnoText())") }
            guard let b = ipv4(host) else { Glibc.close(fd); throw .unreachable(address: where_, reason: "not an IPv4 address") }
            var sa = sockaddr_in()
            sa.sin_family = sa_family_t(AF_INET)
            sa.sin_port = port.bigEndian
            sa.sin_addr.s_addr = UInt32(b.0) | UInt32(b.1) << 8 | UInt32(b.2) << 16 | UInt32(b.3) << 24
            Self.setTimeouts(fd, seconds: self.timeoutSeconds)
            let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            guard r == 0 else { let e = errnoText(); Glibc.close(fd); throw .unreachable(address: where_, reason: e) }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        case .unix(let path):
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw .unreachable(address: where_, reason: "socket: \(errnoText())") }
            var sa = sockaddr_un()
            sa.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            withUnsafeMutableBytes(of: &sa.sun_path) { raw in
                for (i, b) in bytes.enumerated() where i < raw.count - 1 { raw[i] = b }
            }
            Self.setTimeouts(fd, seconds: self.timeoutSeconds)
            let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            guard r == 0 else { let e = errnoText(); Glibc.close(fd); throw .unreachable(address: where_, reason: e) }
        }
        stream = SocketStream(fd: fd, peer: where_, timeoutSeconds: self.timeoutSeconds)
    }

    /// A client over another byte stream (a `BLEStream`); nothing is sent yet.
    public init(stream: LinkByteStream, timeoutSeconds: Int = 10, lastSeq: Int64 = 0) {
        self.address = nil
        self.stream = stream
        self.timeoutSeconds = max(1, timeoutSeconds)
        self.lastSeq = lastSeq
    }

    deinit { close() }

    public func close() { stream.close() }

    // MARK: - Frames

    /// Sends one message (a JSON object with its `type`).
    public func send(_ message: Object) throws(LinkClientError) {
        let body = MessageEncoder.body(message)
        guard body.count <= Frame.maxBody else { throw .protocolViolation(what: "a message of \(body.count) bytes is over the frame limit") }
        try stream.write(Frame.encode(body))
    }

    /// The next message from the device (kept ones first); events, reminders and state are
    /// also recorded. Waits up to the timeout (`timeout` error), or `waitMs` when given
    /// (then nil when nothing came).
    public func next(waitMs: Int32? = nil) throws(LinkClientError) -> Object? {
        while true {
            if !inbox.isEmpty { return inbox.removeFirst() }
            guard let bytes = try stream.read(waitMs: waitMs) else { return nil }
            let bodies: [[UInt8]]
            do { bodies = try decoder.feed(bytes) } catch { throw .protocolViolation(what: error.description) }
            for body in bodies {
                guard case .object(let o)? = try? JSONDecoder().decode(JSONValue.self, from: Data(body)), case .string? = o["type"] else {
                    throw .protocolViolation(what: "a frame that is not a JSON object with a type")
                }
                record(o)
                inbox.append(o)
            }
        }
    }

    private func record(_ o: Object) {
        switch o["type"]?.fieldText {
        case "event":
            if let s = o["seq"]?.int64, s > lastSeq { lastSeq = s; events.append(o) }
            else if o["seq"]?.int64 == nil { events.append(o) }
        case "reminders":
            if case .array(let items)? = o["items"] {
                for case .object(let item) in items where !reminders.contains(where: { $0["id"] == item["id"] }) { reminders.append(item) }
            }
        case "state" where o["id"] == nil:
            state = o
        default: break
        }
    }

    /// Reads until a message of one of `types` arrives (others are recorded and skipped). An
    /// `error` not about a command (no `id`) is thrown.
    public func waitFor(_ types: Set<String>) throws(LinkClientError) -> Object {
        while true {
            guard let o = try next() else { continue }
            let t = o["type"]?.fieldText ?? ""
            if types.contains(t) { return o }
            if t == "error", o["id"] == nil { throw Self.deviceError(o) }
        }
    }

    static func deviceError(_ o: Object) -> LinkClientError {
        .device(code: o["code"]?.fieldText ?? "?", message: o["message"]?.fieldText ?? "", id: o["id"]?.fieldText)
    }

    // MARK: - Hello and pairing

    /// `hello` (with the token when paired; `resume`: with `last_seq`, so missed events are
    /// replayed). Returns `welcome`.
    @discardableResult
    public func hello(token: String?, resume: Bool = false, client: String = "deskpetctl 1") throws(LinkClientError) -> Object {
        var m: Object = ["type": .string("hello"), "version": .int(Int64(ProtocolVersion.current)), "client": .string(client)]
        if let token { m["token"] = .string(token) }
        if resume, token != nil { m["last_seq"] = .int(lastSeq) }
        try send(m)
        let w = try waitFor(["welcome"])
        welcome = w
        if token != nil, w["paired"] != .bool(true) {
            throw .device(code: ErrorCode.badToken, message: "the device does not know this phone's token", id: nil)
        }
        if let seq = w["seq"]?.int64, seq < lastSeq { lastSeq = 0 }   // a wiped device: start over
        return w
    }

    /// Pairs: `pair.begin`, then the code from `code` (the owner reads it on the device's
    /// screen, which shows it once the challenge is out), then `pair.finish`. Returns
    /// (phone id, token hex).
    public func pair(name: String, random: SecureRandom = SystemRandom(), code: () throws(LinkClientError) -> String) throws(LinkClientError) -> (phone: String, token: String) {
        try send(["type": .string("pair.begin")])
        let ch = try waitFor(["pair.challenge"])
        guard let hex = ch["challenge"]?.fieldText, let challenge = Hex.decode(hex), challenge.count == 16 else {
            throw .protocolViolation(what: "pair.challenge without a 16-byte challenge")
        }
        let digits = try code()
        let nonce: [UInt8]
        do { nonce = try random.bytes(16) } catch { throw .protocolViolation(what: "no random nonce: \(error)") }
        let mac = PairFinish.proof(code: digits, challenge: challenge, nonce: nonce)
        try send(["type": .string("pair.finish"), "nonce": .string(Hex.encode(nonce)), "mac": .string(Hex.encode(mac)), "name": .string(name)])
        let p = try waitFor(["paired"])
        guard let phone = p["phone"]?.fieldText, let token = p["token"]?.fieldText, token.utf8.count == 64 else {
            throw .protocolViolation(what: "paired without a phone id and a 64-hex token")
        }
        return (phone, token)
    }

    /// `unpair` (this phone). Returns the phone id removed.
    public func unpair() throws(LinkClientError) -> String {
        try send(["type": .string("unpair")])
        return try waitFor(["unpaired"])["phone"]?.fieldText ?? ""
    }

    // MARK: - Commands

    /// What became of one command.
    public enum Outcome: Sendable, Equatable {
        /// Stored (or, `duplicate`, stored before): the `reply` message.
        case reply([String: JSONValue])
        /// Refused by the device: the `error` message (code, message).
        case refused(code: String, message: String)

        public var isFinal: Bool {
            switch self {
            case .reply: true
            case .refused(let code, _): LinkClientError.domainCodes.contains(code)
            }
        }
    }

    public static func commandMessage(_ c: QueuedCommand) -> Object {
        var m: Object = ["type": .string("command"), "id": .string(c.id), "name": .string(c.name)]
        if !c.fields.isEmpty { m["fields"] = .object(c.fields.mapValues { .string($0) }) }
        return m
    }

    /// Sends a command and waits for its `reply` or `error` (matching id; the `state` command's
    /// answer is a `state` message with the id). Events that arrive
    /// meanwhile are recorded in `events`; `export.part` data in `exportParts`.
    public func command(_ c: QueuedCommand) throws(LinkClientError) -> Outcome {
        try send(Self.commandMessage(c))
        return try awaitOutcome(id: c.id)
    }

    /// The `data` of `export.part` messages read so far, by command id.
    public private(set) var exportParts: [String: [String]] = [:]

    private func awaitOutcome(id: String) throws(LinkClientError) -> Outcome {
        while true {
            let o = try waitFor(["reply", "error", "export.part", "state"])
            guard o["id"]?.fieldText == id else { continue }
            switch o["type"]?.fieldText {
            case "reply", "state": return .reply(o)
            case "export.part": exportParts[id, default: []].append(o["data"]?.fieldText ?? "")
            default: return .refused(code: o["code"]?.fieldText ?? "?", message: o["message"]?.fieldText ?? "")
            }
        }
    }

    /// Sends commands pipelined (at most `window` waiting for their answers at a time) and
    /// calls `done` with each outcome in order. A lost connection throws; the commands whose
    /// outcome was not reported are unknown (their ids make a resend safe).
    public func pipeline(_ commands: [QueuedCommand], window: Int = 32, done: (QueuedCommand, Outcome) throws(LinkClientError) -> Void) throws(LinkClientError) {
        var sent = 0, answered = 0
        while answered < commands.count {
            while sent < commands.count && sent - answered < max(1, window) {
                try send(Self.commandMessage(commands[sent])); sent += 1
            }
            let c = commands[answered]
            let outcome = try awaitOutcome(id: c.id)
            answered += 1
            try done(c, outcome)
        }
    }

    /// Forgets the events and reminders recorded so far (after they were shown).
    public func clearRecorded() { events = []; reminders = [] }

    private static func setTimeouts(_ fd: Int32, seconds: Int) {
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

}

extension JSONValue {
    /// A whole number (also from a double without a fraction).
    public var int64: Int64? {
        switch self {
        case .int(let i): i
        case .double(let d) where d.rounded() == d && abs(d) < 9e15: Int64(d)
        default: nil
        }
    }
}
