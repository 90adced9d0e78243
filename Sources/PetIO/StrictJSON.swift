// A strict JSON reader (RFC 8259) for the files owners and tools hand to DeskPet (course packs):
// no trailing commas, no duplicate keys, no comments, nothing after the value, valid UTF-8 and
// escapes. Every error says line:column. It also keeps where each value starts, so an error
// found later by the decoder (a wrong type, a week that is not a whole number) can be located.

/// A JSON syntax error at a line and column (both from 1; the column counts bytes).
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var problem: String
    public var description: String { "line \(line):\(column): \(problem)" }
}

/// A parsed JSON value with where it starts in the text.
public indirect enum JSONNode: Equatable, Sendable {
    case object([(key: String, value: JSONNode)], line: Int, column: Int)
    case array([JSONNode], line: Int, column: Int)
    case string(String, line: Int, column: Int)
    /// The number as written (so "1.0" and "1" are told apart).
    case number(String, line: Int, column: Int)
    case bool(Bool, line: Int, column: Int)
    case null(line: Int, column: Int)

    public static func == (a: JSONNode, b: JSONNode) -> Bool {
        switch (a, b) {
        case let (.object(x, l1, c1), .object(y, l2, c2)):
            return l1 == l2 && c1 == c2 && x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(x, l1, c1), .array(y, l2, c2)): return x == y && l1 == l2 && c1 == c2
        case let (.string(x, l1, c1), .string(y, l2, c2)): return x == y && l1 == l2 && c1 == c2
        case let (.number(x, l1, c1), .number(y, l2, c2)): return x == y && l1 == l2 && c1 == c2
        case let (.bool(x, l1, c1), .bool(y, l2, c2)): return x == y && l1 == l2 && c1 == c2
        case let (.null(l1, c1), .null(l2, c2)): return l1 == l2 && c1 == c2
        default: return false
        }
    }

    /// Where the value starts.
    public var position: (line: Int, column: Int) {
        switch self {
        case let .object(_, l, c), let .array(_, l, c), let .string(_, l, c), let .number(_, l, c), let .bool(_, l, c):
            return (l, c)
        case let .null(l, c): return (l, c)
        }
    }

    /// The value at a path of keys and indexes (nil if there is none).
    public func at(_ path: [JSONPathPart]) -> JSONNode? {
        var node = self
        for part in path {
            switch (part, node) {
            case let (.key(k), .object(members, _, _)):
                guard let m = members.first(where: { $0.key == k }) else { return nil }
                node = m.value
            case let (.index(i), .array(items, _, _)):
                guard items.indices.contains(i) else { return nil }
                node = items[i]
            default: return nil
            }
        }
        return node
    }
}

public enum JSONPathPart: Equatable, Sendable {
    case key(String)
    case index(Int)
}

public enum StrictJSON {
    /// Nesting deeper than this is refused (a stack-safe limit far above any real pack).
    public static let maxDepth = 64

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var p = Parser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw p.error("a byte-order mark is not allowed in JSON") }
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        if p.i < bytes.count { throw p.error("unexpected \(p.describe(bytes[p.i])) after the JSON value") }
        return v
    }

    struct Parser {
        let bytes: [UInt8]
        var i = 0
        var line = 1
        var lineStart = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        var column: Int { i - lineStart + 1 }

        func error(_ problem: String) -> JSONSyntaxError { JSONSyntaxError(line: line, column: column, problem: problem) }

        func describe(_ b: UInt8) -> String {
            if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
            let h = String(b, radix: 16, uppercase: true)
            return "byte 0x" + (h.count < 2 ? "0" : "") + h
        }

        mutating func skipSpace() {
            while i < bytes.count {
                switch bytes[i] {
                case 0x20, 0x09, 0x0D: i += 1
                case 0x0A: i += 1; line += 1; lineStart = i
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONNode {
            guard depth < StrictJSON.maxDepth else { throw error("nested deeper than \(StrictJSON.maxDepth) levels") }
            guard i < bytes.count else { throw error("the JSON ends where a value was expected") }
            let (l, c) = (line, column)
            switch bytes[i] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string(), line: l, column: c)
            case UInt8(ascii: "t"): try literal("true"); return .bool(true, line: l, column: c)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false, line: l, column: c)
            case UInt8(ascii: "n"): try literal("null"); return .null(line: l, column: c)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number(), line: l, column: c)
            default: throw error("unexpected \(describe(bytes[i])) where a value was expected")
            }
        }

        mutating func literal(_ word: String) throws(JSONSyntaxError) {
            let w = Array(word.utf8)
            guard bytes.count - i >= w.count, Array(bytes[i..<(i + w.count)]) == w else {
                throw error("unknown word (expected \(word))")
            }
            i += w.count
        }

        mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONNode {
            let (l, c) = (line, column)
            i += 1
            var members: [(key: String, value: JSONNode)] = []
            var keys: Set<String> = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object([], line: l, column: c) }
            while true {
                skipSpace()
                guard i < bytes.count else { throw error("the JSON ends inside an object") }
                guard bytes[i] == UInt8(ascii: "\"") else {
                    if bytes[i] == UInt8(ascii: "}") { throw error("a trailing comma before '}' is not allowed") }
                    throw error("expected a key in double quotes, found \(describe(bytes[i]))")
                }
                let keyLine = line, keyColumn = column
                let key = try string()
                guard keys.insert(key).inserted else {
                    throw JSONSyntaxError(line: keyLine, column: keyColumn, problem: "the key \"\(key)\" appears twice in this object")
                }
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
                i += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard i < bytes.count else { throw error("the JSON ends inside an object") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members, line: l, column: c) }
                throw error("expected ',' or '}' in an object, found \(describe(bytes[i]))")
            }
        }

        mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONNode {
            let (l, c) = (line, column)
            i += 1
            var items: [JSONNode] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array([], line: l, column: c) }
            while true {
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { throw error("a trailing comma before ']' is not allowed") }
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw error("the JSON ends inside an array") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items, line: l, column: c) }
                throw error("expected ',' or ']' in an array, found \(describe(bytes[i]))")
            }
        }

        mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
            guard bytes.count - i >= 4 else { throw error("a \\u escape needs four hex digits") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[i]
                let d: UInt32
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
                default: throw error("a \\u escape needs four hex digits")
                }
                v = v * 16 + d
                i += 1
            }
            return v
        }

        mutating func string() throws(JSONSyntaxError) -> String {
            i += 1
            var out: [UInt8] = []
            while true {
                guard i < bytes.count else { throw error("the JSON ends inside a string") }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { i += 1; break }
                if b < 0x20 { throw error("a control character (\(describe(b))) inside a string must be escaped") }
                if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
                i += 1
                guard i < bytes.count else { throw error("the JSON ends inside a string") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard bytes.count - i >= 6, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw error("a lone surrogate in a \\u escape")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("a lone surrogate in a \\u escape")
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw error("an unknown escape \\\(Character(Unicode.Scalar(e)))")
                }
            }
            guard let s = String(validating: out, as: UTF8.self) else { throw error("a string that is not valid UTF-8") }
            return s
        }

        mutating func number() throws(JSONSyntaxError) -> String {
            let start = i
            func digit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
            if bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count, digit(bytes[i]) else { throw error("a number needs digits") }
            if bytes[i] == UInt8(ascii: "0") {
                i += 1
                if i < bytes.count, digit(bytes[i]) { throw error("a number may not start with 0") }
            } else {
                while i < bytes.count, digit(bytes[i]) { i += 1 }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard i < bytes.count, digit(bytes[i]) else { throw error("a digit must follow the decimal point") }
                while i < bytes.count, digit(bytes[i]) { i += 1 }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard i < bytes.count, digit(bytes[i]) else { throw error("a digit must follow the exponent") }
                while i < bytes.count, digit(bytes[i]) { i += 1 }
            }
            return String(decoding: bytes[start..<i], as: UTF8.self)
        }
    }
}
