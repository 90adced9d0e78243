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

    /// Reads and checks a pack file (at most 1 MiB).
    public static func load(path: String) throws(CoursePackError) -> CoursePack {
        guard let bytes = readFile(path) else {
            throw CoursePackError(path: path, location: "", problem: "cannot be read (missing, unreadable or over 1 MiB)")
        }
        return try parse(bytes, path: path)
    }

    /// Decodes and checks pack JSON; errors name the file, the JSON location and the problem.
    public static func parse(_ bytes: [UInt8], path: String) throws(CoursePackError) -> CoursePack {
        let pack: CoursePack
        do {
            pack = try JSONDecoder().decode(CoursePack.self, from: Data(bytes))
        } catch let e as DecodingError {
            throw CoursePackError(path: path, location: e.location, problem: e.problem)
        } catch {
            throw CoursePackError(path: path, location: "", problem: "is not valid JSON")
        }
        try pack.check(path: path)
        return pack
    }

    /// Field-by-field checks beyond the JSON shape.
    func check(path: String) throws(CoursePackError) {
        func fail(_ location: String, _ problem: String) -> CoursePackError {
            CoursePackError(path: path, location: location, problem: problem)
        }
        guard format == CoursePack.formatName else { throw fail("format", "must be \"\(CoursePack.formatName)\"") }
        guard formatVersion == CoursePack.formatVersion else {
            throw fail("formatVersion", "must be \(CoursePack.formatVersion) (this device reads version \(CoursePack.formatVersion) packs)")
        }
        guard (1...100).contains(title.count) else { throw fail("title", "must be 1–100 characters") }
        guard !weeks.isEmpty else { throw fail("weeks", "must list at least one week") }
        var previous = -1
        var ids: Set<String> = []
        for (wi, w) in weeks.enumerated() {
            guard CourseRules.weeks.contains(w.week) else { throw fail("weeks[\(wi)].week", "must be 0–52") }
            guard w.week > previous else { throw fail("weeks[\(wi)].week", "weeks must be listed in ascending order without repeats") }
            if wi == 0, w.week != 0 { throw fail("weeks[0].week", "the first week must be week 0 (the training week)") }
            previous = w.week
            guard (1...100).contains(w.title.count) else { throw fail("weeks[\(wi)].title", "must be 1–100 characters") }
            guard !w.lessons.isEmpty else { throw fail("weeks[\(wi)].lessons", "must list at least one lesson") }
            for (li, l) in w.lessons.enumerated() {
                let at = "weeks[\(wi)].lessons[\(li)]"
                guard ids.insert(l.id).inserted else { throw fail("\(at).id", "'\(l.id)' is used twice") }
                guard (1...100).contains(l.title.count) else { throw fail("\(at).title", "must be 1–100 characters") }
                guard (1...20_000).contains(l.text.count) else { throw fail("\(at).text", "must be 1–20000 characters") }
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

    public var description: String {
        "course pack \(path)" + (location.isEmpty ? "" : " at \(location)") + ": \(problem)"
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
