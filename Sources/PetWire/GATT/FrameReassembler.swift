/// Joins the pieces of phone-protocol frames written to the command characteristic: each frame
/// starts with a 4-byte big-endian body length; a frame is complete when that many bytes follow.
/// A write may carry the end of one frame and the start of the next. Complete frames are handed on
/// whole, prefix included (the same bytes a stream transport carries).
public struct FrameReassembler: Sendable {
    public enum Failure: Error, Equatable, Sendable {
        /// The prefix announces a body longer than `maxBody`.
        case tooLong(Int)
    }
    public let maxBody: Int
    public private(set) var buffer: [UInt8] = []

    public init(maxBody: Int) { self.maxBody = maxBody }

    /// Adds written bytes; returns the frames they complete. After a failure the buffer is empty.
    public mutating func append(_ bytes: [UInt8]) throws(Failure) -> [[UInt8]] {
        buffer += bytes
        var frames: [[UInt8]] = []
        while buffer.count >= 4 {
            let length = Int(buffer[0]) << 24 | Int(buffer[1]) << 16 | Int(buffer[2]) << 8 | Int(buffer[3])
            guard length <= maxBody else { buffer = []; throw .tooLong(length) }
            guard buffer.count >= 4 + length else { break }
            frames.append(Array(buffer[0..<4 + length]))
            buffer.removeFirst(4 + length)
        }
        return frames
    }

    /// Bytes of an unfinished frame (a client that stopped half way).
    public var pending: Int { buffer.count }
}
