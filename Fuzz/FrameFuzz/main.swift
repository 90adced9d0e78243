// libFuzzer target for the phone protocol's frame decoder and message decoding (tools/fuzz.sh builds
// it: swiftc -sanitize=fuzzer,address -parse-as-library with Sources/PetWire/Protocol and LinkError).
// Input: two bytes seed the chunking, the rest is a client's byte stream. The stream is fed to a
// FrameDecoder in pieces of 1–64 bytes chosen by the seed, and compared with a one-pass reference
// reading of the same bytes. Checks: no trap on any bytes; the bodies (and the kind of a refusal)
// do not depend on the chunking (before a refusal: a prefix of them); a length prefix of 0 or over the limit is refused, never
// buffered; no body over the limit is ever delivered; a body that decodes to a message re-encodes
// to bytes that decode to the same message.

let limit = 4096

/// What a stream means, read in one pass: the whole bodies, then how it ends.
enum Ending: Equatable { case clean(partial: Bool), tooLarge(Int), empty }

func reference(_ s: [UInt8]) -> ([[UInt8]], Ending) {
    var bodies: [[UInt8]] = []
    var i = 0
    while s.count - i >= 4 {
        let n = Int(s[i]) << 24 | Int(s[i + 1]) << 16 | Int(s[i + 2]) << 8 | Int(s[i + 3])
        if n == 0 { return (bodies, .empty) }
        if n > limit { return (bodies, .tooLarge(n)) }
        guard s.count - i - 4 >= n else { break }
        bodies.append(Array(s[(i + 4)..<(i + 4 + n)]))
        i += 4 + n
    }
    return (bodies, .clean(partial: i < s.count))
}

func check(_ ok: Bool, _ what: @autoclosure () -> String) {
    if !ok { fatalError(what()) }
}

/// Decodes a body; if it is a message, its re-encoding must decode to the same message.
func roundTrip(_ body: [UInt8]) {
    let m: ClientMessage
    do { m = try ClientMessage.decode(body) } catch {
        _ = error.description   // every refusal can be described
        return
    }
    let again: [UInt8]
    switch m {
    case .hello(let x): again = MessageEncoder.body(x)
    case .pairBegin(let x): again = MessageEncoder.body(x)
    case .pairFinish(let x): again = MessageEncoder.body(x)
    case .unpair(let x): again = MessageEncoder.body(x)
    case .command(let x): again = MessageEncoder.body(x)
    case .ping(let x): again = MessageEncoder.body(x)
    }
    let decoded: ClientMessage
    do { decoded = try ClientMessage.decode(again) } catch {
        fatalError("re-encoded message does not decode (\(error)): \(String(decoding: again, as: UTF8.self))")
    }
    check(decoded == m, "re-encoded message differs: \(String(decoding: body, as: UTF8.self)) -> \(String(decoding: again, as: UTF8.self))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard bytes.count >= 2 else { return 0 }
    var seed = UInt32(bytes[0]) << 8 | UInt32(bytes[1]) | 1
    let stream = Array(bytes[2...])
    let (expected, ending) = reference(stream)

    var decoder = FrameDecoder(maxBody: limit)
    var got: [[UInt8]] = []
    var refused: LinkError?
    var i = 0
    while i < stream.count {
        seed = seed &* 1_103_515_245 &+ 12_345
        let n = Int((seed >> 16) % 64) + 1
        let piece = Array(stream[i..<min(stream.count, i + n)])
        i += piece.count
        do { got += try decoder.feed(piece) } catch {
            refused = error
            check(!decoder.hasPartialFrame, "a refused stream leaves nothing buffered")
            break
        }
    }
    for b in got { check(b.count <= limit && !b.isEmpty, "a body of \(b.count) bytes was delivered") }
    if refused == nil {
        check(got == expected, "bodies depend on the chunking: \(got.count) vs \(expected.count)")
    } else {
        // A refusal drops the client; bodies completed in the same piece as the bad prefix are
        // not delivered (nothing of them was acknowledged), so the delivered ones are a prefix.
        check(got.count <= expected.count && Array(expected.prefix(got.count)) == got, "bodies before a refusal differ")
    }
    switch (ending, refused) {
    case (.clean(let partial), nil):
        check(decoder.hasPartialFrame == partial, "partial frame state wrong")
    case (.tooLarge(let n), .frameTooLarge(let length, let max)?):
        check(n == length && max == limit, "wrong refusal: \(n) vs \(length)/\(max)")
    case (.empty, .malformed?):
        break
    default:
        fatalError("ending \(ending) but decoder said \(String(describing: refused))")
    }
    for b in got { roundTrip(b) }
    // The whole stream as one body too (arbitrary bytes straight into the message decoder).
    roundTrip(stream)
    return 0
}
