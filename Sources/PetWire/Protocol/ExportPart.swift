/// `export.part` (device → phone): one piece of the export document (docs/export.md) for the
/// `export` command, in order, `part` counting from 0 of `parts`; each `data` is a piece of the
/// document's JSON text (at most 48 KiB of UTF-8, cut between characters). The `reply` follows
/// the last part with `parts` and `bytes` (the document's size).
public struct ExportPart: Codable, Sendable, Equatable {
    public static let type = "export.part"
    public static let maxPiece = 49_152
    public var type = ExportPart.type
    public var id: String
    public var part: Int
    public var parts: Int
    public var data: String
    public init(id: String, part: Int, parts: Int, data: String) { self.id = id; self.part = part; self.parts = parts; self.data = data }

    /// Cuts UTF-8 text into pieces of at most `maxPiece` bytes, never inside a character.
    public static func pieces(of bytes: [UInt8], maxPiece: Int = ExportPart.maxPiece) -> [String] {
        var out: [String] = []
        var start = 0
        while start < bytes.count {
            var end = min(bytes.count, start + maxPiece)
            // Back up to a character boundary (a byte that is not 10xxxxxx).
            while end < bytes.count && end > start && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if end == start { end = min(bytes.count, start + maxPiece) }
            out.append(String(decoding: bytes[start..<end], as: UTF8.self))
            start = end
        }
        return out
    }
}
