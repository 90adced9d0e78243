// Sprite.swift — palette-indexed sprites defined from text art, plus the pet.

/// A small image defined from rows of characters; each character is looked up in a
/// palette where `nil` means transparent. Characters missing from the palette are
/// transparent as well, so malformed art never traps.
public struct Sprite: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Row-major colours; nil = transparent.
    public let pixels: [RGB565?]

    public init(rows: [String], palette: [Character: RGB565?]) {
        let w = rows.map(\.count).max() ?? 0
        var px: [RGB565?] = []
        px.reserveCapacity(w * rows.count)
        for row in rows {
            var n = 0
            for ch in row {
                px.append(palette[ch] ?? nil)   // unknown → transparent
                n += 1
            }
            px.append(contentsOf: repeatElement(nil, count: w - n))   // pad short rows
        }
        width = w
        height = rows.count
        pixels = px
    }

    public func color(x: Int, y: Int) -> RGB565? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return pixels[y * width + x]
    }
}

extension Canvas {
    /// Draws `sprite` with its top-left at (x, y), each sprite pixel becoming a
    /// `scale`×`scale` block. Transparent pixels leave the canvas untouched.
    public mutating func draw(_ sprite: Sprite, x: Int, y: Int, scale: Int = 1) {
        let sc = min(max(1, scale), 256)
        let lim = 1 << 40
        let ox = min(max(x, -lim), lim), oy = min(max(y, -lim), lim)
        var touched: Rect? = nil
        for sy in 0..<sprite.height {
            var sx = 0
            while sx < sprite.width {
                // Draw horizontal runs of one colour as a single block.
                guard let c = sprite.pixels[sy * sprite.width + sx] else { sx += 1; continue }
                var end = sx + 1
                while end < sprite.width, sprite.pixels[sy * sprite.width + end] == c { end += 1 }
                let r = Rect(x: ox + sx * sc, y: oy + sy * sc, w: (end - sx) * sc, h: sc)
                if let clip = r.intersection(bounds) {
                    rawFill(clip, c.raw)
                    touched = touched.map { $0.union(clip) } ?? clip
                }
                sx = end
            }
        }
        if let t = touched { markDirty(t) }
    }
}

/// The pet's moods. Each has its own eyes and mouth.
public enum Mood: String, CaseIterable, Sendable {
    case happy, content, sad, sleepy, excited
}

/// The pet: a round 24×24 blob creature.
public enum Pet {
    public static let size = 24

    /// K outline, B body, L highlight, S shade, W white, P cheek, M mouth, T tongue, C tear.
    public static let palette: [Character: RGB565?] = [
        ".": nil,
        "K": RGB565(hex: 0x2B2B3A),
        "B": RGB565(hex: 0x7FD6A4),
        "L": RGB565(hex: 0xC8F5DC),
        "S": RGB565(hex: 0x5BB083),
        "W": RGB565(hex: 0xFFFFFF),
        "P": RGB565(hex: 0xF59AB0),
        "M": RGB565(hex: 0x8A2B3A),
        "T": RGB565(hex: 0xF07C8C),
        "C": RGB565(hex: 0x6EC6FF),
    ]

    /// The body without a face.
    static let body: [String] = [
        "........KKKKKKKK........", //  0
        "......KKBBBBBBBBKK......", //  1
        ".....KBBBBBBBBBBBBK.....", //  2
        "....KBBLLBBBBBBBBBBK....", //  3
        "...KBBLLLBBBBBBBBBBBK...", //  4
        "..KBBLLBBBBBBBBBBBBBBK..", //  5
        "..KBBLBBBBBBBBBBBBBBBK..", //  6
        ".KBBBBBBBBBBBBBBBBBBBBK.", //  7
        ".KBBBBBBBBBBBBBBBBBBBBK.", //  8
        ".KBBBBBBBBBBBBBBBBBBBBK.", //  9
        ".KBBBBBBBBBBBBBBBBBBBBK.", // 10
        ".KBBBBBBBBBBBBBBBBBBBBK.", // 11
        ".KBBBBBBBBBBBBBBBBBBBBK.", // 12
        ".KBBBBBBBBBBBBBBBBBBBBK.", // 13
        ".KBBBBBBBBBBBBBBBBBBBBK.", // 14
        ".KBBBBBBBBBBBBBBBBBBBBK.", // 15
        ".KBBBBBBBBBBBBBBBBBBBBK.", // 16
        ".KSBBBBBBBBBBBBBBBBBBSK.", // 17
        ".KSSBBBBBBBBBBBBBBBBSSK.", // 18
        "..KSSBBBBBBBBBBBBBBSSK..", // 19
        "..KSSSSBBBBBBBBBBSSSSK..", // 20
        "...KSSSSSSSSSSSSSSSSK...", // 21
        "....KKKKKKKKKKKKKKKK....", // 22
        "........................", // 23
    ]

    /// Face overlays, starting at row 8. A space keeps the body pixel underneath.
    static let faces: [Mood: [String]] = [
        .happy: [
            "                        ", //  8
            "       K        K       ", //  9  ^   ^
            "      K K      K K      ", // 10
            "     K   K    K   K     ", // 11
            "                        ", // 12
            "    PP            PP    ", // 13  cheeks
            "         KKKKKK         ", // 14  open smile
            "          KMMK          ", // 15
            "           KK           ", // 16
        ],
        .content: [
            "                        ", //  8
            "      WK        WK      ", //  9  round eyes with shine
            "      KK        KK      ", // 10
            "      KK        KK      ", // 11
            "                        ", // 12
            "    PP            PP    ", // 13
            "         K    K         ", // 14  small smile
            "          KKKK          ", // 15
        ],
        .sad: [
            "       KK      KK       ", //  8  worried brows
            "     KK          KK     ", //  9
            "      WK        WK      ", // 10
            "      KK        KK      ", // 11
            "      C                 ", // 12  tear
            "      C                 ", // 13
            "          KKKK          ", // 14  frown
            "         K    K         ", // 15
        ],
        .sleepy: [
            "                        ", //  8
            "                        ", //  9
            "                        ", // 10
            "     KKKK      KKKK     ", // 11  closed eyes
            "                        ", // 12
            "                        ", // 13
            "           KK           ", // 14  little "o" mouth
            "          KMMK          ", // 15
            "           KK           ", // 16
        ],
        .excited: [
            "       K        K       ", //  8  sparkly eyes
            "      KKK      KKK      ", //  9
            "     KKWKK    KKWKK     ", // 10
            "      KKK      KKK      ", // 11
            "       K        K       ", // 12
            "    PP   KKKKKK   PP    ", // 13  big open mouth
            "         KMMMMK         ", // 14
            "         KMTTMK         ", // 15
            "          KKKK          ", // 16
        ],
    ]

    static let faceTop = 8

    /// Body with the mood's face stamped on.
    public static func art(for mood: Mood) -> [String] {
        var rows = body.map { Array($0) }
        for (i, line) in (faces[mood] ?? []).enumerated() {
            let r = faceTop + i
            guard r < rows.count else { break }
            for (c, ch) in line.enumerated() where ch != " " && c < rows[r].count {
                rows[r][c] = ch
            }
        }
        return rows.map { String($0) }
    }

    static let sprites: [Mood: Sprite] = {
        var d: [Mood: Sprite] = [:]
        for m in Mood.allCases { d[m] = Sprite(rows: art(for: m), palette: palette) }
        return d
    }()

    /// The ready-made sprite for a mood.
    public static func sprite(for mood: Mood) -> Sprite {
        sprites[mood] ?? Sprite(rows: art(for: mood), palette: palette)
    }
}
