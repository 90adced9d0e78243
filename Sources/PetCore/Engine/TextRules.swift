/// The rules every piece of text from outside follows (docs/domain.md, "Text"): command fields
/// (titles, notes, names…), the command id, and a phone's name at pairing.
public enum TextRules {
    /// Whether `u` is refused in text: C0 and C1 control characters, DEL, the line and paragraph
    /// separators (newline and tab are allowed only where `multiLine`), the byte-order mark
    /// U+FEFF, and the explicit bidirectional formatting characters — embeddings and overrides
    /// U+202A–U+202E, isolates U+2066–U+2069 — which reorder how the text *around* them is
    /// shown (a title could show one thing on the phone and mean another). Refused, not
    /// stripped: what is stored is what the owner sent. The implicit marks U+200E, U+200F and
    /// U+061C (for right-to-left scripts) are allowed.
    public static func refused(_ u: Unicode.Scalar, multiLine: Bool) -> Bool {
        if multiLine && (u == "\n" || u == "\t") { return false }
        let v = u.value
        return v < 0x20 || v == 0x7F || (0x80..<0xA0).contains(v) || v == 0x2028 || v == 0x2029
            || v == 0xFEFF || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// "U+202E".
    public static func hex(_ v: UInt32) -> String {
        let h = String(v, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - h.count)) + h
    }

    /// Why `u` is refused, naming the code point, never the text.
    public static func reason(_ u: Unicode.Scalar, multiLine: Bool) -> String {
        let v = u.value
        if v == 0xFEFF { return "holds the byte-order mark \(hex(v)) (refused in text)" }
        if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) {
            return "holds the direction control \(hex(v)) (overrides and isolates are refused in text)"
        }
        return "holds the control character \(hex(v))" + (multiLine ? " (only newlines and tabs are allowed)" : " (one line of text)")
    }

    /// Refuses a refused code point in `text`, naming `field`.
    public static func check(_ text: String, field: String, multiLine: Bool = false) throws(DomainError) {
        if let u = text.unicodeScalars.first(where: { refused($0, multiLine: multiLine) }) {
            throw .invalidField(field: field, reason: reason(u, multiLine: multiLine))
        }
    }

    /// A one-line name or title: `characters` (as people count them, after trimming spaces) and
    /// at most `maxBytes` of UTF-8 — one letter with thousands of combining marks counts as one
    /// character but not as few bytes — and no refused code point.
    public static func checkLine(_ text: String, field: String, characters: ClosedRange<Int>, maxBytes: Int) throws(DomainError) {
        try check(text, field: field)
        let count = text.trimmingSpaces.count
        guard characters.contains(count) else {
            throw .invalidField(field: field, reason: "must be \(characters.lowerBound)–\(characters.upperBound) characters (got \(count))")
        }
        guard text.utf8.count <= maxBytes else {
            throw .invalidField(field: field, reason: "must be at most \(maxBytes) bytes of UTF-8 (got \(text.utf8.count))")
        }
    }
}
