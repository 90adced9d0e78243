// ArtParser.swift — reads the pet's sprite sheets (art/*.txt, compiled in as ArtData.swift by
// tools/embed-art.py) into frames, palettes, colour schemes and animations. The format is
// described in docs/art.md. Parsing never traps: a bad line is skipped and reported in
// `ArtLibrary.errors` (the tests require it to be empty for the built-in art).

/// What a palette entry becomes on a 1-bit display.
public enum MonoInk: String, Sendable, Hashable {
    /// The theme's text colour (black on monoLight, white on monoDark).
    case ink
    /// The theme's background colour.
    case paper
    /// Transparent.
    case clear
    /// Ordered dither of ink on paper (the 4×4 Bayer matrix), named by the share of ink:
    /// `dots` 1/8, `light` 1/4 (the 2×2 pattern: one pixel in four), `half` 1/2 (a checkerboard),
    /// `dark` 3/4. Hand-drawn 1-bit art shades with these (art/mono-*.txt).
    case dots, light, half, dark

    /// The 4×4 Bayer threshold matrix, row-major.
    static let bayer: [UInt16] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    /// Which pixels of a 4×4 tile are ink: bit `(y % 4) * 4 + x % 4`; 0 for the solid kinds.
    public var mask: UInt16 {
        let n: UInt16
        switch self {
        case .ink, .paper, .clear: return 0
        case .dots: n = 2
        case .light: n = 4
        case .half: n = 8
        case .dark: n = 12
        }
        var m: UInt16 = 0
        for (i, b) in MonoInk.bayer.enumerated() where b < n { m |= 1 << UInt16(i) }
        return m
    }
}

/// A palette entry's colour on a colour display.
public enum ArtColour: Sendable, Hashable {
    case clear
    case rgb(RGB565)
    /// Filled in per pet: `body`, `light`, `shade`, `outline` (its colour scheme or skin).
    case role(String)
}

public struct ArtPaletteEntry: Sendable, Hashable {
    public var character: Character
    public var colour: ArtColour
    public var mono: MonoInk
}

public struct ArtPoint: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) { self.x = x; self.y = y }
}

/// One picture of a sheet: palette indices per pixel, its origin (the pixel that goes on the
/// anchor it is drawn at) and named points where other layers attach.
public struct ArtFrame: Sendable {
    public let name: String
    public let width: Int
    public let height: Int
    public let origin: ArtPoint
    public let points: [String: ArtPoint]
    /// Row-major indices into the sheet's `entries`; `ArtFrame.transparent` = nothing.
    let cells: [UInt8]
    static let transparent: UInt8 = 0xFF

    /// The smallest rectangle holding every drawn (non-transparent) cell, in frame pixels
    /// (empty at 0, 0 for a frame with none).
    public var opaqueBounds: Rect {
        var x0 = width, y0 = height, x1 = -1, y1 = -1
        for y in 0..<height {
            for x in 0..<width where cells[y * width + x] != ArtFrame.transparent {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        return x1 < 0 ? Rect(x: 0, y: 0, w: 0, h: 0) : Rect(x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1)
    }

    /// The palette character at (x, y), nil outside or transparent-by-absence.
    public func index(x: Int, y: Int) -> UInt8? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = cells[y * width + x]
        return i == ArtFrame.transparent ? nil : i
    }
}

/// One art file: its palette (shared entries it `use`s plus its own) and its frames.
public struct ArtSheet: Sendable {
    public let name: String
    public internal(set) var entries: [ArtPaletteEntry] = []
    public internal(set) var frames: [String: ArtFrame] = [:]
    /// Frame names in file order.
    public internal(set) var frameNames: [String] = []

    public func frame(_ name: String) -> ArtFrame? { frames[name] }
}

/// An effect drawn during a step, relative to the point between the pet's feet.
public struct ArtEffect: Sendable, Hashable {
    public var name: String
    public var x: Int
    public var y: Int
}

/// One step of an animation timeline.
public struct ArtStep: Sendable, Hashable {
    public var ms: Int
    /// A frame of body.txt.
    public var body: String
    /// A frame of faces.txt, or "@mood" for the face of the current mood.
    public var face: String
    public var dy: Int
    public var effects: [ArtEffect]
}

public struct ArtAnimation: Sendable, Hashable {
    public var name: String
    public var loops: Bool
    public var steps: [ArtStep]
    public var totalMs: Int64 { steps.reduce(0) { $0 + Int64($1.ms) } }

    /// The step showing `ms` after the animation started (negative: the first step; past the end
    /// of a non-looping animation: the last step).
    public func stepIndex(at ms: Int64) -> Int {
        let total = totalMs
        guard total > 0, !steps.isEmpty else { return 0 }
        var t = ms
        if t < 0 { return 0 }
        if loops { t %= total } else if t >= total { return steps.count - 1 }
        for (i, s) in steps.enumerated() {
            if t < Int64(s.ms) { return i }
            t -= Int64(s.ms)
        }
        return steps.count - 1
    }
}

/// A problem in an art file, with its place.
public struct ArtError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String
    public var description: String { "art/\(file):\(line): \(message)" }
}

/// Everything in art/: sheets by file name (without ".txt"), colour schemes, animations.
public struct ArtLibrary: Sendable {
    public private(set) var sheets: [String: ArtSheet] = [:]
    /// Colour schemes by name (`PetProfile.colours`): role → colour.
    public private(set) var schemes: [String: [String: RGB565]] = [:]
    /// Scheme names in file order.
    public private(set) var schemeNames: [String] = []
    public private(set) var animations: [String: ArtAnimation] = [:]
    public private(set) var animationNames: [String] = []
    public private(set) var errors: [ArtError] = []

    /// The art compiled into PetUI.
    public static let builtIn = ArtLibrary(files: ArtData.files)

    /// Parses files given as (file name, text). `palettes.txt` is read first so the others can
    /// `use` its palettes.
    public init(files: [(name: String, text: String)]) {
        var named: [String: [ArtPaletteEntry]] = [:]
        let ordered = files.filter { $0.name == "palettes.txt" } + files.filter { $0.name != "palettes.txt" }
        for f in ordered { parse(file: f.name, text: f.text, palettes: &named) }
    }

    public func sheet(_ name: String) -> ArtSheet? { sheets[name] }
    public func frame(_ sheet: String, _ name: String) -> ArtFrame? { sheets[sheet]?.frames[name] }

    // MARK: Parsing

    static func parseHex(_ s: Substring) -> RGB565? {
        guard s.count == 7, s.first == "#", let v = UInt32(s.dropFirst(), radix: 16) else { return nil }
        return RGB565(hex: v)
    }

    static func parseInt(_ s: Substring) -> Int? {
        guard s.count <= 9 else { return nil }
        return Int(s)
    }

    static let roles: Set<String> = ["body", "light", "shade", "outline"]

    static func validName(_ s: Substring) -> Bool {
        !s.isEmpty && s.count <= 60 && s.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "-" }
    }

    mutating func parse(file: String, text: String, palettes: inout [String: [ArtPaletteEntry]]) {
        let sheetName = file.hasSuffix(".txt") ? String(file.dropLast(4)) : file
        var sheet = ArtSheet(name: sheetName)
        var indexOf: [Character: UInt8] = [:]
        var defining: String? = nil          // a named palette being defined
        // The frame being read.
        var frameName: String? = nil
        var origin = ArtPoint(x: 0, y: 0)
        var points: [String: ArtPoint] = [:]
        var rows: [[UInt8]] = []
        // The animation being read.
        var anim: ArtAnimation? = nil
        var lineNo = 0

        func fail(_ m: String) { errors.append(ArtError(file: file, line: lineNo, message: m)) }

        func addEntry(_ e: ArtPaletteEntry) {
            if let i = indexOf[e.character] {
                sheet.entries[Int(i)] = e
            } else if sheet.entries.count < 250 {
                indexOf[e.character] = UInt8(sheet.entries.count)
                sheet.entries.append(e)
            } else {
                fail("too many palette entries")
            }
        }

        func closeFrame() {
            guard let name = frameName else { return }
            frameName = nil
            let w = rows.map(\.count).max() ?? 0
            guard w > 0, !rows.isEmpty else { fail("frame '\(name)' has no rows"); return }
            var cells: [UInt8] = []
            cells.reserveCapacity(w * rows.count)
            for r in rows { cells += r + Array(repeating: ArtFrame.transparent, count: w - r.count) }
            sheet.frames[name] = ArtFrame(name: name, width: w, height: rows.count, origin: origin, points: points, cells: cells)
            sheet.frameNames.append(name)
        }

        func closeAnim() {
            guard let a = anim else { return }
            anim = nil
            if a.steps.isEmpty { fail("anim '\(a.name)' has no steps"); return }
            animations[a.name] = a
            animationNames.append(a.name)
        }

        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNo += 1
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.first == "#" { continue }
            if line.first == "|" {
                guard frameName != nil else { fail("a row outside a frame"); continue }
                var body = line.dropFirst()
                while body.last == " " || body.last == "\t" || body.last == "\r" { body = body.dropLast() }
                if body.last == "|" { body = body.dropLast() }
                var row: [UInt8] = []
                for ch in body {
                    if let i = indexOf[ch] {
                        row.append(sheet.entries[Int(i)].colour == .clear && sheet.entries[Int(i)].mono == .clear ? ArtFrame.transparent : i)
                    } else {
                        fail("'\(ch)' is not in the palette"); row.append(ArtFrame.transparent)
                    }
                }
                if rows.count < 512, row.count <= 512 { rows.append(row) } else { fail("frame too large") }
                continue
            }
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let word = parts.first else { continue }
            if word.count == 1, let ch = word.first {
                guard frameName == nil, anim == nil else { fail("palette entries go before the frames"); continue }
                guard parts.count >= 3 else { fail("a palette entry is CHARACTER COLOUR MONO [description]"); continue }
                let colour: ArtColour
                if parts[1] == "clear" { colour = .clear }
                else if parts[1].first == "@", ArtLibrary.roles.contains(String(parts[1].dropFirst())) { colour = .role(String(parts[1].dropFirst())) }
                else if let c = ArtLibrary.parseHex(parts[1]) { colour = .rgb(c) }
                else { fail("colour must be #RRGGBB, clear or @role"); continue }
                guard let mono = MonoInk(rawValue: String(parts[2])) else { fail("mono must be ink, paper, clear, dots, light, half or dark"); continue }
                let e = ArtPaletteEntry(character: ch, colour: colour, mono: mono)
                if let p = defining { palettes[p, default: []].append(e) }
                addEntry(e)
                continue
            }
            switch word {
            case "palette":
                guard parts.count == 2, ArtLibrary.validName(parts[1]) else { fail("palette NAME"); continue }
                defining = String(parts[1])
            case "use":
                guard parts.count == 2, let p = palettes[String(parts[1])] else { fail("use names an unknown palette"); continue }
                defining = nil
                for e in p { addEntry(e) }
            case "colours":
                guard parts.count >= 2, ArtLibrary.validName(parts[1]) else { fail("colours NAME role=#RRGGBB ..."); continue }
                var scheme: [String: RGB565] = [:]
                for kv in parts.dropFirst(2) {
                    let pair = kv.split(separator: "=", maxSplits: 1)
                    guard pair.count == 2, ArtLibrary.roles.contains(String(pair[0])), let c = ArtLibrary.parseHex(pair[1]) else {
                        fail("'\(kv)' is not role=#RRGGBB"); continue
                    }
                    scheme[String(pair[0])] = c
                }
                let name = String(parts[1])
                if schemes[name] == nil { schemeNames.append(name) }
                schemes[name] = scheme
            case "frame":
                closeFrame(); closeAnim()
                defining = nil
                guard parts.count == 2, ArtLibrary.validName(parts[1]) else { fail("frame NAME (a-z, 0-9, -)"); continue }
                if sheet.frames[String(parts[1])] != nil { fail("frame '\(parts[1])' is defined twice") }
                frameName = String(parts[1])
                origin = ArtPoint(x: 0, y: 0); points = [:]; rows = []
            case "origin":
                guard frameName != nil, rows.isEmpty, parts.count == 3,
                      let x = ArtLibrary.parseInt(parts[1]), let y = ArtLibrary.parseInt(parts[2]) else { fail("origin X Y (right after its frame line)"); continue }
                origin = ArtPoint(x: x, y: y)
            case "point":
                guard frameName != nil, rows.isEmpty, parts.count == 4,
                      let x = ArtLibrary.parseInt(parts[2]), let y = ArtLibrary.parseInt(parts[3]) else { fail("point NAME X Y (right after its frame line)"); continue }
                points[String(parts[1])] = ArtPoint(x: x, y: y)
            case "anim":
                closeFrame(); closeAnim()
                guard parts.count == 3, ArtLibrary.validName(parts[1]), parts[2] == "loop" || parts[2] == "once" else {
                    fail("anim NAME loop|once"); continue
                }
                if animations[String(parts[1])] != nil { fail("anim '\(parts[1])' is defined twice") }
                anim = ArtAnimation(name: String(parts[1]), loops: parts[2] == "loop", steps: [])
            case "step":
                guard anim != nil else { fail("a step outside an anim"); continue }
                guard parts.count >= 5, let ms = ArtLibrary.parseInt(parts[1]), ms > 0, let dy = ArtLibrary.parseInt(parts[4]) else {
                    fail("step MS BODY FACE DY [FX:X:Y ...]"); continue
                }
                var fx: [ArtEffect] = []
                for e in parts.dropFirst(5) {
                    let f = e.split(separator: ":")
                    guard f.count == 3, let x = ArtLibrary.parseInt(f[1]), let y = ArtLibrary.parseInt(f[2]) else {
                        fail("effect '\(e)' is not NAME:X:Y"); continue
                    }
                    fx.append(ArtEffect(name: String(f[0]), x: x, y: y))
                }
                anim?.steps.append(ArtStep(ms: ms, body: String(parts[2]), face: String(parts[3]), dy: dy, effects: fx))
            default:
                fail("unknown line '\(word)'")
            }
        }
        closeFrame(); closeAnim()
        sheets[sheetName] = sheet
    }
}
