import FoundationEssentials
import PetIO

/// The protocol's version (`hello.version`, `welcome.version`).
public enum ProtocolVersion {
    public static let current = 1
    public static let supported = [1]
    /// What this device can do, announced in `welcome.capabilities`.
    public static let capabilities = ["commands", "events", "resume", "reminders", "export", "time.set", "state", "pairing", "summary", "buttons"]
}

/// What a phone can send, decoded from a frame body.
public enum ClientMessage: Sendable, Equatable {
    case hello(Hello)
    case pairBegin(PairBegin)
    case pairFinish(PairFinish)
    case unpair(Unpair)
    case command(CommandMessage)
    case ping(Ping)

    /// Decodes a frame body: a JSON object whose `type` says which message it is.
    public static func decode(_ body: [UInt8]) throws(LinkError) -> ClientMessage {
        guard let first = body.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }), first == UInt8(ascii: "{") else {
            throw .malformed(what: "a frame must hold one JSON object")
        }
        // One strict reading first (PetIO/StrictJSON, RFC 8259): valid UTF-8 everywhere
        // (also in fields the decoder below ignores), no trailing commas, no duplicate keys (the
        // decoder would keep one of them: a second `token` could be smuggled past a check of the
        // first), no byte-order mark, nothing after the object. Only then the typed decoding.
        do { _ = try StrictJSON.parse(body) } catch {
            throw .malformed(what: "not strict JSON: \(error.description)")
        }
        let data = Data(body)
        let decoder = JSONDecoder()
        let type: String
        do { type = try decoder.decode(TypeOnly.self, from: data).type } catch {
            throw .malformed(what: "not a JSON object with a string 'type'")
        }
        do {
            switch type {
            case Hello.type: return .hello(try decoder.decode(Hello.self, from: data))
            case PairBegin.type: return .pairBegin(try decoder.decode(PairBegin.self, from: data))
            case PairFinish.type: return .pairFinish(try decoder.decode(PairFinish.self, from: data))
            case Unpair.type: return .unpair(try decoder.decode(Unpair.self, from: data))
            case CommandMessage.type: return .command(try decoder.decode(CommandMessage.self, from: data))
            case Ping.type: return .ping(try decoder.decode(Ping.self, from: data))
            default: throw LinkError.unknownType(type)
            }
        } catch let e as LinkError {
            throw e
        } catch {
            throw .malformed(what: "\(type): \(Self.describe(error))")
        }
    }

    /// Names the field a decoding error is about (never the value: it may be personal).
    static func describe(_ error: any Error) -> String {
        guard let e = error as? DecodingError else { return "cannot be read" }
        func path(_ p: [any CodingKey]) -> String { p.isEmpty ? "the message" : "'" + p.map(\.stringValue).joined(separator: ".") + "'" }
        switch e {
        case .keyNotFound(let k, let ctx): return "missing field \(path(ctx.codingPath + [k]))"
        case .typeMismatch(_, let ctx): return "field \(path(ctx.codingPath)) has the wrong type"
        case .valueNotFound(_, let ctx): return "field \(path(ctx.codingPath)) is null"
        case .dataCorrupted(let ctx): return "field \(path(ctx.codingPath)) is not valid"
        @unknown default: return "cannot be read"
        }
    }

    private struct TypeOnly: Decodable { var type: String }
}

/// Encodes device messages: JSON with sorted keys and unescaped slashes, so the bytes are
/// stable (the byte-vector tests compare them exactly).
public enum MessageEncoder {
    public static func body<T: Encodable>(_ message: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every message is plain data (strings, numbers, arrays): encoding cannot fail; if it
        // ever did, the peer gets an internal error rather than nothing.
        guard let data = try? encoder.encode(message) else { return unencodable }
        return Array(data)
    }

    /// What the peer gets when a message cannot be encoded: an `internal` error. Written out here
    /// because this folder compiles on its own (the frame fuzzer); a test checks that its code is
    /// PetCore's `ErrorCode.internalError`.
    public static let unencodable = Array(#"{"code":"internal","message":"a reply could not be encoded","type":"error"}"#.utf8)

    /// The whole frame (length prefix + body) for a message.
    public static func frame<T: Encodable>(_ message: T) -> [UInt8] { Frame.encode(body(message)) }
}
