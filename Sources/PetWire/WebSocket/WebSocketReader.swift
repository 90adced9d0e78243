/// What a `WebSocketReader` found in the bytes it was fed, in order.
public enum WebSocketInput: Sendable, Equatable {
    /// A whole data message (its fragments joined; unmasked).
    case message(WebSocketOpcode, [UInt8])
    case ping([UInt8])
    case pong([UInt8])
    /// The peer's close frame: its code (nil: none given, 1005) and reason. Nothing after it is read.
    case close(WebSocketCloseCode?, reason: String)
    /// The peer broke a rule: close the connection with this code. Nothing after it is read.
    case failed(WebSocketCloseCode, reason: String)
}

/// Reads RFC 6455 frames from a byte stream that arrives in any pieces (§5). Pure: no I/O.
///
/// Enforced, each with the close code the connection must be failed with:
/// - RSV bits set (no extension is ever negotiated), a reserved opcode → 1002
/// - a server reading an unmasked frame, a client reading a masked one (§5.1) → 1002
/// - a control frame fragmented or over 125 bytes (§5.5) → 1002
/// - a length not in its shortest form, a 64-bit length with the top bit set (§5.2) → 1002
/// - a continuation with no message begun, a new message before the last one ended (§5.4) → 1002
/// - a text message where only binary is taken (the device) → 1003
/// - a message (all its fragments) over `maxMessage` bytes → 1009, as soon as a header says so
/// - a close frame of 1 byte or with a code not allowed on the wire → 1002; its reason (or a
///   text message, where taken) not UTF-8 → 1007
public struct WebSocketReader: Sendable {
    public enum Role: Sendable { case server, client }
    public let role: Role
    public let maxMessage: Int
    public let acceptsText: Bool

    private var buffer: [UInt8] = []
    private var start = 0
    /// The message being reassembled from fragments (nil: none begun).
    private var fragments: [UInt8]?
    private var fragmentOpcode: WebSocketOpcode = .binary
    /// A close was read or a rule broken: the rest of the stream is ignored.
    public private(set) var finished = false

    public init(role: Role, maxMessage: Int, acceptsText: Bool) {
        self.role = role
        self.maxMessage = maxMessage
        self.acceptsText = acceptsText
    }

    /// True while a fragmented message has begun and not ended (the transport times it out).
    public var hasPartialMessage: Bool { fragments != nil }
    /// Bytes held: an unfinished frame and an unfinished message.
    public var bufferedBytes: Int { buffer.count - start + (fragments?.count ?? 0) }

    public mutating func feed(_ bytes: [UInt8]) -> [WebSocketInput] {
        guard !finished else { return [] }
        buffer += bytes
        var out: [WebSocketInput] = []
        while !finished, let input = next() { out.append(input) }
        if finished { buffer = []; start = 0; fragments = nil }
        else if start > 0 && (start >= 65_536 || start * 2 >= buffer.count) {
            buffer.removeFirst(start); start = 0
        }
        return out
    }

    private mutating func fail(_ code: WebSocketCloseCode, _ reason: String) -> WebSocketInput {
        finished = true
        return .failed(code, reason: reason)
    }

    /// The next input, or nil when more bytes are needed.
    private mutating func next() -> WebSocketInput? {
        while true {
            let avail = buffer.count - start
            guard avail >= 2 else { return nil }
            let b0 = buffer[start], b1 = buffer[start + 1]
            let fin = b0 & 0x80 != 0
            guard b0 & 0x70 == 0 else { return fail(.protocolError, "reserved bits set (no extension was agreed)") }
            guard let opcode = WebSocketOpcode(rawValue: b0 & 0x0F) else {
                return fail(.protocolError, "reserved opcode \(b0 & 0x0F)")
            }
            let masked = b1 & 0x80 != 0
            switch role {
            case .server: guard masked else { return fail(.protocolError, "a client's frames must be masked") }
            case .client: guard !masked else { return fail(.protocolError, "a server's frames must not be masked") }
            }
            let len7 = Int(b1 & 0x7F)
            if opcode.isControl {
                guard fin else { return fail(.protocolError, "a control frame must not be fragmented") }
                guard len7 <= 125 else { return fail(.protocolError, "a control frame carries at most 125 bytes") }
            } else {
                switch opcode {
                case .continuation:
                    guard fragments != nil else { return fail(.protocolError, "a continuation frame with no message begun") }
                case .text:
                    guard fragments == nil else { return fail(.protocolError, "a new message before the fragmented one ended") }
                    guard acceptsText else { return fail(.unsupportedData, "text messages are not taken: send the frames as binary messages") }
                default:
                    guard fragments == nil else { return fail(.protocolError, "a new message before the fragmented one ended") }
                }
            }
            var headerLength = 2
            var length = len7
            if len7 == 126 {
                guard avail >= 4 else { return nil }
                length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
                guard length >= 126 else { return fail(.protocolError, "a length of \(length) must be written in 7 bits") }
                headerLength = 4
            } else if len7 == 127 {
                guard avail >= 10 else { return nil }
                guard buffer[start + 2] & 0x80 == 0 else { return fail(.protocolError, "a 64-bit length with its top bit set") }
                var v: UInt64 = 0
                for i in 2..<10 { v = v << 8 | UInt64(buffer[start + i]) }
                guard v > 0xFFFF else { return fail(.protocolError, "a length of \(v) must be written in 16 bits") }
                guard v <= UInt64(maxMessage) else {
                    return fail(.messageTooBig, "a frame of \(v) bytes is over the limit of \(maxMessage)")
                }
                length = Int(v)
                headerLength = 10
            }
            if !opcode.isControl {
                let already = fragments?.count ?? 0
                guard already + length <= maxMessage else {
                    return fail(.messageTooBig, "a message of \(already + length)+ bytes is over the limit of \(maxMessage)")
                }
            }
            if masked { headerLength += 4 }
            guard avail >= headerLength + length else { return nil }
            var payload = Array(buffer[(start + headerLength)..<(start + headerLength + length)])
            if masked {
                let k = start + headerLength - 4
                let key = (buffer[k], buffer[k + 1], buffer[k + 2], buffer[k + 3])
                payload.withUnsafeMutableBufferPointer { p in
                    for i in 0..<p.count {
                        switch i & 3 {
                        case 0: p[i] ^= key.0
                        case 1: p[i] ^= key.1
                        case 2: p[i] ^= key.2
                        default: p[i] ^= key.3
                        }
                    }
                }
            }
            start += headerLength + length

            switch opcode {
            case .ping: return .ping(payload)
            case .pong: return .pong(payload)
            case .close:
                finished = true
                if payload.isEmpty { return .close(nil, reason: "") }
                guard payload.count >= 2 else { return fail(.protocolError, "a close frame of 1 byte") }
                let code = WebSocketCloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
                guard code.isValidOnWire else { return fail(.protocolError, "close code \(code) is not allowed on the wire") }
                guard let reason = String(validating: payload[2...], as: UTF8.self) else {
                    return fail(.invalidPayload, "the close reason is not UTF-8")
                }
                return .close(code, reason: reason)
            case .text, .binary:
                if fin { return finish(opcode, payload) }
                fragments = payload
                fragmentOpcode = opcode
            case .continuation:
                fragments! += payload
                if fin {
                    let whole = fragments!
                    fragments = nil
                    return finish(fragmentOpcode, whole)
                }
            }
        }
    }

    private mutating func finish(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> WebSocketInput {
        if opcode == .text, String(validating: payload, as: UTF8.self) == nil {
            return fail(.invalidPayload, "a text message that is not UTF-8")
        }
        return .message(opcode, payload)
    }
}
