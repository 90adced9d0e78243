import FoundationEssentials
import PetCore

/// A course content pack (docs/course-pack.md): a JSON file with the course's lessons grouped by
/// week. The device keeps only the outline (ids, weeks, order, prompts); the phone shows the text.
public struct CoursePack: Sendable, Equatable, Decodable {
    public struct Week: Sendable, Equatable, Decodable {
        public var week: Int
        public var title: String
        public var lessons: [Lesson]
    }

    public struct Lesson: Sendable, Equatable, Decodable {
        public var id: String
        public var title: String
        public var text: String
        /// "habit", "self-image" or absent.
        public var prompt: String?
    }

    public static let formatName = "deskpet-course"
    public static let formatVersion = 1

    public var format: String
    public var formatVersion: Int
    public var id: String
    public var version: Int
    public var title: String
    public var language: String?
    public var weeks: [Week]

    /// The outline the engine records in `course.started`.
    public var outline: CourseOutline {
        CourseOutline(pack: id, version: version, lessons: weeks.flatMap { w in
            w.lessons.map { CourseLesson(id: $0.id, week: w.week, prompt: $0.prompt.flatMap(CoursePrompt.init(rawValue:))) }
        })
    }

    /// The largest pack file read: exactly 1 MiB (1,048,576 bytes); one byte more is refused.
    public static let maxFileBytes = 1 << 20
    /// A course's, a week's and a lesson's title length.
    public static let titleLength = 1...100
    /// A lesson's text length.
    public static let lessonTextLength = 1...20_000

    /// Fields that must be whole numbers (a JSON number written with a fraction or exponent is
    /// refused with its location, not rounded).
    static let integerFields: Set<String> = ["formatVersion", "version", "week"]

    /// Reads and checks a pack file: a regular file (a FIFO or a device is refused without
    /// blocking) of at most `maxFileBytes`.
    public static func load(path: String) throws(CoursePackError) -> CoursePack {
        let bytes: [UInt8]
        do { bytes = try readRegularFile(path, limit: maxFileBytes) } catch {
            throw CoursePackError(path: path, location: "", problem: error.message)
        }
        return try parse(bytes, path: path)
    }

    /// Checks the JSON strictly (RFC 8259: no trailing commas, no duplicate keys; errors at
    /// line:column), then decodes and checks the pack; errors name the file, the JSON location
    /// with its line:column, and the problem.
    public static func parse(_ bytes: [UInt8], path: String) throws(CoursePackError) -> CoursePack {
        guard bytes.count <= maxFileBytes else {
            throw CoursePackError(path: path, location: "", problem: "is larger than \(maxFileBytes) bytes")
        }
        let tree: JSONNode
        do { tree = try StrictJSON.parse(bytes) } catch {
            throw CoursePackError(path: path, location: "", problem: error.problem, line: error.line, column: error.column)
        }
        try checkIntegers(tree, path: path, at: [])
        let pack: CoursePack
        do {
            pack = try JSONDecoder().decode(CoursePack.self, from: Data(bytes))
        } catch let e as DecodingError {
            let at = locate(e.location, in: tree)
            throw CoursePackError(path: path, location: e.location, problem: e.problem, line: at?.line, column: at?.column)
        } catch {
            throw CoursePackError(path: path, location: "", problem: "is not valid JSON")
        }
        try pack.check(path: path, tree: tree)
        return pack
    }

    /// Every integer field holds a whole number.
    static func checkIntegers(_ node: JSONNode, path: String, at location: [JSONPathPart]) throws(CoursePackError) {
        switch node {
        case let .object(members, _, _):
            for m in members {
                if integerFields.contains(m.key), case let .number(text, l, c) = m.value,
                   text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
                    throw CoursePackError(path: path, location: dotted(location + [.key(m.key)]),
                                          problem: "must be a whole number (got \(text))", line: l, column: c)
                }
                try checkIntegers(m.value, path: path, at: location + [.key(m.key)])
            }
        case let .array(items, _, _):
            for (i, item) in items.enumerated() { try checkIntegers(item, path: path, at: location + [.index(i)]) }
        default: break
        }
    }

    static func dotted(_ parts: [JSONPathPart]) -> String {
        var out = ""
        for p in parts {
            switch p {
            case .key(let k): out += (out.isEmpty ? "" : ".") + k
            case .index(let i): out += "[\(i)]"
            }
        }
        return out
    }

    /// Where the value at `weeks[2].lessons[0].id` starts (or the nearest enclosing value that
    /// exists, e.g. the object a required key is missing from); nil for the whole file.
    static func locate(_ location: String, in tree: JSONNode) -> (line: Int, column: Int)? {
        guard !location.isEmpty else { return nil }
        var parts: [JSONPathPart] = []
        for segment in location.split(separator: ".") {
            var rest = Substring(segment)
            if let open = rest.firstIndex(of: "[") {
                if open != rest.startIndex { parts.append(.key(String(rest[..<open]))) }
                rest = rest[open...]
                while rest.hasPrefix("["), let close = rest.firstIndex(of: "]"), let i = Int(rest[rest.index(after: rest.startIndex)..<close]) {
                    parts.append(.index(i))
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                parts.append(.key(String(rest)))
            }
        }
        while true {
            if let node = tree.at(parts) { return node.position }
            if parts.isEmpty { return nil }
            parts.removeLast()
        }
    }

    /// Field-by-field checks beyond the JSON shape.
    func check(path: String, tree: JSONNode? = nil) throws(CoursePackError) {
        func fail(_ location: String, _ problem: String) -> CoursePackError {
            let at = tree.flatMap { CoursePack.locate(location, in: $0) }
            return CoursePackError(path: path, location: location, problem: problem, line: at?.line, column: at?.column)
        }
        guard format == CoursePack.formatName else { throw fail("format", "must be \"\(CoursePack.formatName)\"") }
        guard formatVersion == CoursePack.formatVersion else {
            throw fail("formatVersion", "must be \(CoursePack.formatVersion) (this device reads version \(CoursePack.formatVersion) packs)")
        }
        guard Self.titleLength.contains(title.count) else { throw fail("title", "must be \(Self.titleLength.text) characters") }
        guard !weeks.isEmpty else { throw fail("weeks", "must list at least one week") }
        var previous = -1
        var ids: Set<String> = []
        for (wi, w) in weeks.enumerated() {
            guard CourseRules.weeks.contains(w.week) else { throw fail("weeks[\(wi)].week", "must be \(CourseRules.weeks.text)") }
            guard w.week > previous else { throw fail("weeks[\(wi)].week", "weeks must be listed in ascending order without repeats") }
            if wi == 0, w.week != 0 { throw fail("weeks[0].week", "the first week must be week 0 (the training week)") }
            previous = w.week
            guard Self.titleLength.contains(w.title.count) else { throw fail("weeks[\(wi)].title", "must be \(Self.titleLength.text) characters") }
            guard !w.lessons.isEmpty else { throw fail("weeks[\(wi)].lessons", "must list at least one lesson") }
            for (li, l) in w.lessons.enumerated() {
                let at = "weeks[\(wi)].lessons[\(li)]"
                guard ids.insert(l.id).inserted else { throw fail("\(at).id", "'\(l.id)' is used twice") }
                guard Self.titleLength.contains(l.title.count) else { throw fail("\(at).title", "must be \(Self.titleLength.text) characters") }
                guard Self.lessonTextLength.contains(l.text.count) else { throw fail("\(at).text", "must be \(Self.lessonTextLength.text) characters") }
                if let p = l.prompt, CoursePrompt(rawValue: p) == nil {
                    throw fail("\(at).prompt", "must be \"habit\" or \"self-image\" (or absent)")
                }
            }
        }
        do { try CourseRules.validate(outline) } catch {
            throw fail("", error.description)
        }
    }
}

/// A content pack that cannot be used: which file, where in it, and why.
public struct CoursePackError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    /// JSON location, e.g. `weeks[2].lessons[0].id` ("" = the whole file).
    public var location: String
    public var problem: String
    /// Where in the file (line and byte column, from 1), when known.
    public var line: Int?
    public var column: Int?

    public init(path: String, location: String, problem: String, line: Int? = nil, column: Int? = nil) {
        self.path = path; self.location = location; self.problem = problem; self.line = line; self.column = column
    }

    public var description: String {
        let position = line.map { l in "line \(l):\(column ?? 1)" }
        let at = [location.isEmpty ? nil : location, position].compactMap { $0 }.joined(separator: ", ")
        return "course pack \(path)" + (at.isEmpty ? "" : " at \(at)") + ": \(problem)"
    }
}

extension DecodingError {
    /// The JSON location as `a.b[2].c`.
    var location: String {
        let path: [CodingKey]
        switch self {
        case let .keyNotFound(key, ctx): path = ctx.codingPath + [key]
        case let .typeMismatch(_, ctx), let .valueNotFound(_, ctx), let .dataCorrupted(ctx): path = ctx.codingPath
        @unknown default: path = []
        }
        var out = ""
        for k in path {
            if let i = k.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + k.stringValue }
        }
        return out
    }

    var problem: String {
        switch self {
        case .keyNotFound: return "is required but missing"
        case .typeMismatch(let t, _): return "has the wrong type (expected \(t))"
        case .valueNotFound(let t, _): return "must not be null (expected \(t))"
        case .dataCorrupted: return "is not valid JSON"
        @unknown default: return "cannot be read"
        }
    }
}
