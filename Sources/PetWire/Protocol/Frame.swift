/// Frames: a 4-byte big-endian length, then that many bytes of one UTF-8 JSON object
/// (docs/protocol.md#frames). The same framing runs over TCP, Unix sockets and BLE (where the
/// byte stream is cut into MTU−3 sized writes and notifications).
public enum Frame {
    /// The largest frame body either side may send (64 KiB). A longer length prefix is refused
    /// and the sender dropped; the export is sent in parts to stay under it.
    public static let maxBody = 65_536

    /// The frame for a message body.
    public static func encode(_ body: [UInt8]) -> [UInt8] {
        let n = UInt32(truncatingIfNeeded: body.count)
        var out: [UInt8] = [UInt8(n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)]
        out.reserveCapacity(4 + body.count)
        out.append(contentsOf: body)
        return out
    }
}

/// Reassembles frames from a byte stream that arrives in arbitrary pieces (one per client).
public struct FrameDecoder: Sendable {
    public private(set) var buffer: [UInt8] = []
    public let maxBody: Int

    public init(maxBody: Int = Frame.maxBody) { self.maxBody = maxBody }

    /// True while part of a frame is waiting for the rest.
    public var hasPartialFrame: Bool { !buffer.isEmpty }

    /// Adds bytes; returns the whole frame bodies now complete, oldest first. A length prefix of
    /// 0 or over `maxBody` throws `frameTooLarge`/`malformed` (the stream cannot be resynchronised:
    /// drop the client).
    public mutating func feed(_ bytes: [UInt8]) throws(LinkError) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        var bodies: [[UInt8]] = []
        var start = 0
        while buffer.count - start >= 4 {
            let n = Int(buffer[start]) << 24 | Int(buffer[start + 1]) << 16 | Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            if n == 0 { buffer.removeAll(); throw .malformed(what: "empty frame (length 0)") }
            if n > maxBody { buffer.removeAll(); throw .frameTooLarge(length: n, limit: maxBody) }
            guard buffer.count - start - 4 >= n else { break }
            bodies.append(Array(buffer[(start + 4)..<(start + 4 + n)]))
            start += 4 + n
        }
        if start > 0 { buffer.removeFirst(start) }
        return bodies
    }
}
