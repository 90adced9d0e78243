// GIF.swift — a self-contained animated GIF89a encoder for RGB565 frames: exact palettes when a
// frame has at most 256 colours (the device screens use a few dozen), the most frequent colours
// plus a colour cube otherwise, only the changed rectangle per frame, identical frames merged into
// one longer frame, the NETSCAPE2.0 loop extension, and LZW with variable code sizes and clear
// codes. Pure stdlib.

/// Builds an animated GIF frame by frame. Frames are RGB565 pixels of one fixed size; each frame
/// after the first stores only the rectangle that differs from the previous frame (drawn over
/// it: disposal "do not dispose"). Feed frames with `add`, then take the bytes with `finish`.
public struct GIFEncoder: Sendable {
    public let width: Int
    public let height: Int
    /// Times the animation repeats (0 = forever, nil = no loop extension: plays once).
    public var loopCount: Int?

    /// A frame as stored: where it goes, its colour table and its pixels as indices.
    struct Frame: Sendable {
        var rect: Rect
        var palette: [UInt16]
        /// True: the global colour table (the first frame's palette) serves this frame.
        var usesGlobal: Bool
        var indices: [UInt8]
        /// Display time in hundredths of a second.
        var delayCs: Int
    }

    var frames: [Frame] = []
    var previous: [UInt16] = []
    var globalPalette: [UInt16] = []
    var globalLookup: [UInt16: UInt8] = [:]

    /// Frames stored so far (identical consecutive frames count once).
    public var frameCount: Int { frames.count }
    /// Each stored frame's delay in hundredths of a second.
    public var delays: [Int] { frames.map(\.delayCs) }

    public init(width: Int, height: Int, loopCount: Int? = 0) {
        self.width = max(1, min(width, 0xFFFF))
        self.height = max(1, min(height, 0xFFFF))
        self.loopCount = loopCount
    }

    /// Adds a frame shown for `delayMs` milliseconds (GIF counts in 10 ms steps; at least 20 ms,
    /// the shortest delay browsers honour). A canvas of another size is ignored (returns false).
    /// A frame identical to the previous one only lengthens the previous frame.
    @discardableResult
    public mutating func add(_ canvas: Canvas, delayMs: Int) -> Bool {
        guard canvas.width == width, canvas.height == height else { return false }
        add(pixels: canvas.pixels, delayMs: delayMs)
        return true
    }

    /// Adds a frame from row-major RGB565 pixels (`width * height` of them; missing pixels are black).
    public mutating func add(pixels input: [UInt16], delayMs: Int) {
        var pixels = input
        if pixels.count != width * height {
            pixels = Array(pixels.prefix(width * height))
            pixels += [UInt16](repeating: 0, count: width * height - pixels.count)
        }
        let delayCs = max(2, min((max(0, delayMs) + 5) / 10, 0xFFFF))
        guard !frames.isEmpty else {
            store(pixels: pixels, rect: Rect(x: 0, y: 0, w: width, h: height), delayCs: delayCs)
            return
        }
        guard let rect = changedRect(pixels) else {
            let last = frames.count - 1
            frames[last].delayCs = min(frames[last].delayCs + delayCs, 0xFFFF)
            return
        }
        store(pixels: pixels, rect: rect, delayCs: delayCs)
    }

    /// The smallest rectangle where `pixels` differs from the previous frame (nil: identical).
    func changedRect(_ pixels: [UInt16]) -> Rect? {
        var x0 = width, y0 = height, x1 = -1, y1 = -1
        for y in 0..<height {
            let row = y * width
            var first = -1, last = -1
            for x in 0..<width where pixels[row + x] != previous[row + x] {
                if first < 0 { first = x }
                last = x
            }
            if first >= 0 {
                x0 = min(x0, first); x1 = max(x1, last)
                y0 = min(y0, y); y1 = y
            }
        }
        guard x1 >= 0 else { return nil }
        return Rect(x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1)
    }

    mutating func store(pixels: [UInt16], rect: Rect, delayCs: Int) {
        var region: [UInt16] = []
        region.reserveCapacity(rect.w * rect.h)
        for y in rect.y..<rect.maxY {
            let row = y * width
            region.append(contentsOf: pixels[(row + rect.x)..<(row + rect.maxX)])
        }
        previous = pixels
        if frames.isEmpty {
            let (palette, indices) = GIFEncoder.quantise(region)
            globalPalette = palette
            for (i, c) in palette.enumerated() { globalLookup[c] = UInt8(i) }
            frames.append(Frame(rect: rect, palette: palette, usesGlobal: true, indices: indices, delayCs: delayCs))
            return
        }
        // The global palette serves when it holds every colour exactly.
        var indices = [UInt8](repeating: 0, count: region.count)
        var exact = true
        for (i, c) in region.enumerated() {
            guard let k = globalLookup[c] else { exact = false; break }
            indices[i] = k
        }
        if exact {
            frames.append(Frame(rect: rect, palette: globalPalette, usesGlobal: true, indices: indices, delayCs: delayCs))
        } else {
            let (palette, local) = GIFEncoder.quantise(region)
            frames.append(Frame(rect: rect, palette: palette, usesGlobal: false, indices: local, delayCs: delayCs))
        }
    }

    /// A palette for `pixels` and each pixel's index in it: exact when there are at most 256
    /// colours; otherwise the most frequent colours plus a colour cube, each pixel drawn as the
    /// nearest entry.
    static func quantise(_ pixels: [UInt16]) -> (palette: [UInt16], indices: [UInt8]) {
        var counts: [UInt16: Int] = [:]
        for p in pixels { counts[p, default: 0] += 1 }
        var palette: [UInt16]
        if counts.count <= 256 {
            palette = counts.keys.sorted()
        } else {
            // The 40 most frequent colours exactly (a screen's own colours), and a 6×6×6 cube so
            // that every other colour is within half a cube step.
            palette = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .prefix(40).map(\.key)
            var seen = Set(palette)
            for r in 0..<6 { for g in 0..<6 { for b in 0..<6 {
                let c = RGB565(r: UInt8(r * 51), g: UInt8(g * 51), b: UInt8(b * 51)).raw
                if seen.insert(c).inserted { palette.append(c) }
            } } }
        }
        if palette.isEmpty { palette = [0] }
        var lookup: [UInt16: UInt8] = [:]
        for (i, c) in palette.enumerated() { lookup[c] = UInt8(i) }
        var indices = [UInt8](repeating: 0, count: pixels.count)
        for (i, p) in pixels.enumerated() {
            if let k = lookup[p] { indices[i] = k; continue }
            let k = nearest(p, in: palette)
            lookup[p] = k
            indices[i] = k
        }
        return (palette, indices)
    }

    /// The palette entry closest to `c` (squared distance over 8-bit channels).
    static func nearest(_ c: UInt16, in palette: [UInt16]) -> UInt8 {
        let a = RGB565(raw: c)
        var best = 0, bestDistance = Int.max
        for (i, p) in palette.enumerated() {
            let b = RGB565(raw: p)
            let dr = Int(a.r8) - Int(b.r8), dg = Int(a.g8) - Int(b.g8), db = Int(a.b8) - Int(b.b8)
            let d = 3 * dr * dr + 4 * dg * dg + 2 * db * db
            if d < bestDistance { bestDistance = d; best = i }
        }
        return UInt8(best)
    }

    /// The finished file. An encoder with no frames yields a single black frame.
    public func finish() -> [UInt8] {
        var encoder = self
        if encoder.frames.isEmpty { encoder.add(pixels: [], delayMs: 100) }
        return encoder.bytes()
    }

    func bytes() -> [UInt8] {
        var out: [UInt8] = Array("GIF89a".utf8)
        out.appendLE16(width)
        out.appendLE16(height)
        let globalBits = GIFEncoder.tableBits(globalPalette.count)
        out.append(0x80 | UInt8((globalBits - 1) << 4) | UInt8(globalBits - 1))   // global table, 8-bit colour
        out.append(0)   // background colour index
        out.append(0)   // no aspect ratio
        GIFEncoder.appendTable(globalPalette, bits: globalBits, to: &out)
        if let loopCount {
            out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01]
            out.appendLE16(max(0, min(loopCount, 0xFFFF)))
            out.append(0)
        }
        for f in frames {
            // Graphic control: disposal 1 (leave the frame in place), no transparency.
            out += [0x21, 0xF9, 0x04, 0x04]
            out.appendLE16(f.delayCs)
            out += [0x00, 0x00]
            out.append(0x2C)
            out.appendLE16(f.rect.x); out.appendLE16(f.rect.y)
            out.appendLE16(f.rect.w); out.appendLE16(f.rect.h)
            let bits: Int
            if f.usesGlobal {
                out.append(0)
                bits = globalBits
            } else {
                bits = GIFEncoder.tableBits(f.palette.count)
                out.append(0x80 | UInt8(bits - 1))
                GIFEncoder.appendTable(f.palette, bits: bits, to: &out)
            }
            let minCodeSize = max(2, bits)
            out.append(UInt8(minCodeSize))
            let data = LZW.encode(f.indices, minCodeSize: minCodeSize)
            var i = 0
            while i < data.count {
                let n = min(255, data.count - i)
                out.append(UInt8(n))
                out.append(contentsOf: data[i..<(i + n)])
                i += n
            }
            out.append(0)
        }
        out.append(0x3B)
        return out
    }

    /// Bits per entry of a colour table holding `count` colours (1...8: 2...256 entries).
    static func tableBits(_ count: Int) -> Int {
        var bits = 1
        while (1 << bits) < count && bits < 8 { bits += 1 }
        return bits
    }

    static func appendTable(_ palette: [UInt16], bits: Int, to out: inout [UInt8]) {
        for i in 0..<(1 << bits) {
            let c = RGB565(raw: i < palette.count ? palette[i] : 0)
            out += [c.r8, c.g8, c.b8]
        }
    }
}

/// GIF's variable-length LZW: codes grow from minCodeSize+1 to 12 bits, packed least significant
/// bit first; a clear code starts the stream and again whenever the 4096-entry table is full.
enum LZW {
    static func encode(_ input: [UInt8], minCodeSize: Int) -> [UInt8] {
        let clear = 1 << minCodeSize
        let end = clear + 1
        var out = BitWriter()
        var table = CodeTable()
        var codeSize = minCodeSize + 1
        var next = end + 1
        out.write(clear, bits: codeSize)
        guard var current = input.first.map(Int.init) else {
            out.write(end, bits: codeSize)
            return out.finish()
        }
        for byte in input.dropFirst() {
            if let code = table.find(prefix: current, byte: byte) {
                current = code
                continue
            }
            out.write(current, bits: codeSize)
            table.insert(prefix: current, byte: byte, code: next)
            // The decoder learns each code one step later, so the size grows once the newest
            // code no longer fits.
            if next >= (1 << codeSize) && codeSize < 12 { codeSize += 1 }
            next += 1
            if next >= 4096 {
                out.write(clear, bits: codeSize)
                table.reset()
                codeSize = minCodeSize + 1
                next = end + 1
            }
            current = Int(byte)
        }
        out.write(current, bits: codeSize)
        // The decoder adds one more entry after reading `current`; it may reach the next size.
        if next >= (1 << codeSize) && codeSize < 12 { codeSize += 1 }
        out.write(end, bits: codeSize)
        return out.finish()
    }

    /// (prefix code, next byte) → code, open addressing with a generation stamp so a reset
    /// costs nothing.
    struct CodeTable {
        static let size = 8192
        var keys = [Int32](repeating: 0, count: size)
        var codes = [Int16](repeating: 0, count: size)
        var stamps = [UInt32](repeating: 0, count: size)
        var generation: UInt32 = 1

        mutating func reset() { generation &+= 1; if generation == 0 { stamps = [UInt32](repeating: 0, count: CodeTable.size); generation = 1 } }

        func slot(_ key: Int32) -> Int { Int((UInt32(bitPattern: key) &* 2_654_435_761) >> 19) & (CodeTable.size - 1) }

        func find(prefix: Int, byte: UInt8) -> Int? {
            let key = Int32(prefix << 8 | Int(byte))
            var i = slot(key)
            while stamps[i] == generation {
                if keys[i] == key { return Int(codes[i]) }
                i = (i + 1) & (CodeTable.size - 1)
            }
            return nil
        }

        mutating func insert(prefix: Int, byte: UInt8, code: Int) {
            let key = Int32(prefix << 8 | Int(byte))
            var i = slot(key)
            while stamps[i] == generation { i = (i + 1) & (CodeTable.size - 1) }
            stamps[i] = generation; keys[i] = key; codes[i] = Int16(code)
        }
    }

    struct BitWriter {
        var bytes: [UInt8] = []
        var acc: UInt32 = 0
        var count = 0
        mutating func write(_ code: Int, bits: Int) {
            acc |= UInt32(code) << UInt32(count)
            count += bits
            while count >= 8 {
                bytes.append(UInt8(acc & 0xFF))
                acc >>= 8
                count -= 8
            }
        }
        mutating func finish() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(acc & 0xFF)); acc = 0; count = 0 }
            return bytes
        }
    }
}

extension Array where Element == UInt8 {
    mutating func appendLE16(_ v: Int) {
        append(UInt8(v & 0xFF)); append(UInt8((v >> 8) & 0xFF))
    }
}
