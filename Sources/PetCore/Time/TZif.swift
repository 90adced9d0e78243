// TZif.swift — reader for the binary Time Zone Information Format
// (RFC 8536, versions 1–4) and the error type shared with the POSIX parser.

/// Why time zone data could not be read.
public enum TZifError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data does not start with "TZif".
    case badMagic
    /// The version byte is not NUL, "2", "3" or "4".
    case unsupportedVersion(UInt8)
    /// The data ends inside `section`, which starts at byte `offset`.
    case truncated(section: String, offset: Int)
    /// A header count is inconsistent (e.g. zero local time types).
    case badCount(field: String, value: Int)
    /// Entry `index` of `section` refers outside its target table.
    case badIndex(section: String, index: Int)
    /// Entry `index` of `section` holds an invalid value (unsorted
    /// transitions, an isdst flag other than 0/1, …).
    case badValue(section: String, index: Int)
    /// The footer is malformed; the text says why.
    case badFooter(String)
    /// A POSIX TZ string could not be parsed.
    case badPosixTZ(string: String, reason: String)

    public var description: String {
        switch self {
        case .badMagic:
            return "not TZif data: missing \"TZif\" magic"
        case .unsupportedVersion(let v):
            return "unsupported TZif version byte 0x\(String(v, radix: 16))"
        case .truncated(let section, let offset):
            return "TZif data truncated in \(section) (section starts at byte \(offset))"
        case .badCount(let field, let value):
            return "TZif header field \(field) has invalid value \(value)"
        case .badIndex(let section, let index):
            return "TZif \(section) entry \(index) refers outside its table"
        case .badValue(let section, let index):
            return "TZif \(section) entry \(index) has an invalid value"
        case .badFooter(let why):
            return "TZif footer is invalid: \(why)"
        case .badPosixTZ(let string, let reason):
            return "invalid POSIX TZ string \"\(string)\": \(reason)"
        }
    }
}

/// The decoded contents of a TZif file (what `ZoneRules` needs).
struct TZifContents {
    var times: [Int64] = []
    var typeIndices: [Int] = []
    var types: [ZoneRules.LocalTimeType] = []
    var footer: PosixTZ?
}

/// Bounds-checked big-endian reader. Every read is preceded by `need`.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    /// Throws `.truncated` unless `count` more bytes are available.
    func need(_ count: Int, _ section: String) throws(TZifError) {
        guard count >= 0, count <= bytes.count - offset else {
            throw .truncated(section: section, offset: offset)
        }
    }

    mutating func skip(_ count: Int, _ section: String) throws(TZifError) {
        try need(count, section)
        offset += count
    }

    /// Unchecked reads: callers have called `need` for the whole section.
    mutating func u8() -> UInt8 {
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func be32() -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 { v = v << 8 | UInt32(u8()) }
        return v
    }

    mutating func be64() -> UInt64 {
        var v: UInt64 = 0
        for _ in 0..<8 { v = v << 8 | UInt64(u8()) }
        return v
    }
}

/// The six counts of a TZif header.
private struct Header {
    var version: UInt8
    var isutcnt = 0, isstdcnt = 0, leapcnt = 0, timecnt = 0, typecnt = 0, charcnt = 0

    /// Size of the data block that follows, for 4- or 8-byte times.
    func blockSize(timeSize: Int) -> Int {
        timecnt * (timeSize + 1) + typecnt * 6 + charcnt + leapcnt * (timeSize + 4) + isstdcnt + isutcnt
    }
}

enum TZifParser {
    private static let magic: [UInt8] = Array("TZif".utf8)

    /// Parses a whole TZif file.
    static func parse(_ bytes: [UInt8]) throws(TZifError) -> TZifContents {
        var r = ByteReader(bytes: bytes)
        let first = try header(&r)
        if first.version == 0 {
            return try block(&r, first, timeSize: 4)
        }
        // Version 2+: skip the legacy 32-bit block, use the 64-bit one.
        try r.skip(first.blockSize(timeSize: 4), "version 1 data block")
        let second = try header(&r)
        var contents = try block(&r, second, timeSize: 8)
        contents.footer = try footer(&r)
        return contents
    }

    private static func header(_ r: inout ByteReader) throws(TZifError) -> Header {
        // Check whatever part of the magic is present before complaining
        // about length, so garbage is reported as garbage.
        let available = min(4, r.bytes.count - r.offset)
        for i in 0..<max(available, 0) where r.bytes[r.offset + i] != magic[i] {
            throw .badMagic
        }
        try r.need(44, "header")
        r.offset += 4
        let version = r.u8()
        guard version == 0 || (0x32...0x34).contains(version) else {
            throw .unsupportedVersion(version)
        }
        r.offset += 15
        // Each counted item takes at least one byte, so no count can exceed
        // the buffer size; checking that here keeps all later size
        // arithmetic small (and rejects absurd counts before any allocation).
        func count(_ field: String) throws(TZifError) -> Int {
            let v = r.be32()
            guard UInt64(v) <= UInt64(r.bytes.count) else { throw .badCount(field: field, value: Int(clamping: v)) }
            return Int(v)
        }
        var h = Header(version: version)
        h.isutcnt = try count("isutcnt")
        h.isstdcnt = try count("isstdcnt")
        h.leapcnt = try count("leapcnt")
        h.timecnt = try count("timecnt")
        h.typecnt = try count("typecnt")
        h.charcnt = try count("charcnt")
        return h
    }

    private static func block(_ r: inout ByteReader, _ h: Header, timeSize: Int) throws(TZifError) -> TZifContents {
        guard h.typecnt >= 1 else { throw .badCount(field: "typecnt", value: h.typecnt) }
        guard h.charcnt >= 1 else { throw .badCount(field: "charcnt", value: h.charcnt) }
        guard h.isutcnt == 0 || h.isutcnt == h.typecnt else { throw .badCount(field: "isutcnt", value: h.isutcnt) }
        guard h.isstdcnt == 0 || h.isstdcnt == h.typecnt else { throw .badCount(field: "isstdcnt", value: h.isstdcnt) }
        var c = TZifContents()

        // Transition times, strictly ascending.
        try r.need(h.timecnt * timeSize, "transition times")
        c.times.reserveCapacity(h.timecnt)
        for i in 0..<h.timecnt {
            let t = timeSize == 4 ? Int64(Int32(bitPattern: r.be32())) : Int64(bitPattern: r.be64())
            if let last = c.times.last, t <= last { throw .badValue(section: "transition times", index: i) }
            c.times.append(t)
        }

        // Transition type indices.
        try r.need(h.timecnt, "transition types")
        c.typeIndices.reserveCapacity(h.timecnt)
        for i in 0..<h.timecnt {
            let idx = Int(r.u8())
            guard idx < h.typecnt else { throw .badIndex(section: "transition types", index: i) }
            c.typeIndices.append(idx)
        }

        // Local time type records (utoff, isdst, abbreviation index); the
        // abbreviations come after them, so resolve names in a second pass.
        try r.need(h.typecnt * 6, "local time types")
        var raw: [(utoff: Int32, isDST: Bool, abbrIndex: Int)] = []
        raw.reserveCapacity(h.typecnt)
        for i in 0..<h.typecnt {
            let utoff = Int32(bitPattern: r.be32())
            let isdst = r.u8()
            let abbr = Int(r.u8())
            guard utoff != Int32.min, isdst <= 1 else { throw .badValue(section: "local time types", index: i) }
            guard abbr < h.charcnt else { throw .badIndex(section: "local time types", index: i) }
            raw.append((utoff, isdst == 1, abbr))
        }

        try r.need(h.charcnt, "abbreviations")
        let chars = r.bytes[r.offset..<(r.offset + h.charcnt)]
        r.offset += h.charcnt
        for (i, t) in raw.enumerated() {
            let start = chars.startIndex + t.abbrIndex
            guard let end = chars[start...].firstIndex(of: 0) else {
                throw .badValue(section: "abbreviations", index: i)
            }
            c.types.append(ZoneRules.LocalTimeType(
                utOffset: Int(t.utoff), isDST: t.isDST,
                abbreviation: String(decoding: chars[start..<end], as: UTF8.self)))
        }

        // Leap second records and the std/wall and UT/local indicators are
        // not needed for civil time; validate their presence and skip them.
        try r.skip(h.leapcnt * (timeSize + 4), "leap second records")
        try r.skip(h.isstdcnt, "standard/wall indicators")
        try r.skip(h.isutcnt, "UT/local indicators")
        return c
    }

    /// Reads "\n<POSIX TZ string>\n"; an empty string means "no rule".
    private static func footer(_ r: inout ByteReader) throws(TZifError) -> PosixTZ? {
        let start = r.offset
        try r.need(1, "footer")
        guard r.u8() == 0x0A else { throw .badFooter("missing leading newline at byte \(start)") }
        guard let end = r.bytes[r.offset...].firstIndex(of: 0x0A) else {
            throw .truncated(section: "footer", offset: start)
        }
        let text = r.bytes[r.offset..<end]
        r.offset = end + 1
        if text.isEmpty { return nil }
        guard text.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw .badFooter("non-ASCII or control characters")
        }
        do {
            return try PosixTZ(parsing: String(decoding: text, as: UTF8.self))
        } catch {
            throw .badFooter(error.description)
        }
    }
}
