/// `export.part` (device → phone): one piece of the export document (docs/export.md) for the
/// `export` command, in order, `part` counting from 0 (the last part also says `parts`, the count); each `data` is a piece of the
/// document's JSON text (at most 48 KiB once escaped in the frame, cut between characters). The `reply` follows
/// the last part with `parts` and `bytes` (the document's size).
public struct ExportPart: Codable, Sendable, Equatable {
    public static let type = "export.part"
    public static let maxPiece = 49_152
    public var type = ExportPart.type
    public var id: String
    public var part: Int
    /// How many parts the export has: on the last part only (the export is streamed, so the
    /// count is known only at its end; the `reply` after it says it too).
    public var parts: Int?
    public var data: String
    public init(id: String, part: Int, parts: Int?, data: String) { self.id = id; self.part = part; self.parts = parts; self.data = data }

    /// Cuts UTF-8 text into pieces of at most `maxPiece` bytes, never inside a character.
    public static func pieces(of bytes: [UInt8], maxPiece: Int = ExportPart.maxPiece) -> [String] {
        var start = 0
        return ends(of: bytes, maxPiece: maxPiece).map { end in
            defer { start = end }
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
    }

    /// Where each piece of `pieces(of:)` ends (so the parts can be counted before any is made).
    /// A piece holds at most `maxPiece` bytes *as written in the frame*: a quote or a backslash
    /// of the document is escaped there (2 bytes), a control byte would be `\u00XX` (6) — so a
    /// document dense in them still gives parts that fit in a frame.
    public static func ends(of bytes: [UInt8], maxPiece: Int = ExportPart.maxPiece) -> [Int] {
        var out: [Int] = []
        _ = cut(bytes, from: 0, final: true, maxPiece: maxPiece, into: &out)
        return out
    }

    /// `ends(of:)` a piece at a time, for a document still growing: cuts `bytes` from `start`
    /// (where the last piece ended) and returns where the next piece starts. Unless `final`,
    /// the tail that could still grow (less than a piece and the bytes of one character) is
    /// left for a later call.
    public static func cut(_ bytes: [UInt8], from start: Int, final: Bool, maxPiece: Int = ExportPart.maxPiece, into out: inout [Int]) -> Int {
        var start = start
        while start < bytes.count {
            if !final && bytes.count - start < 2 * maxPiece + 4 { return start }
            var end = start
            var size = 0
            while end < bytes.count {
                let b = bytes[end]
                let cost = b == 0x22 || b == 0x5C ? 2 : b < 0x20 ? 6 : 1
                if size + cost > maxPiece { break }
                size += cost
                end += 1
            }
            // Back up to a character boundary (a byte that is not 10xxxxxx).
            let limit = end
            while end < bytes.count && end > start && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if end == start { end = max(limit, start + 1) }
            out.append(end)
            start = end
        }
        return start
    }
}
