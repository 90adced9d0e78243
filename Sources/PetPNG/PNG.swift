// PNG.swift — a self-contained PNG encoder: per-row filter selection, a zlib stream
// compressed with DEFLATE (LZ77 hash chains + lazy matching, fixed Huffman codes),
// CRC-32 and Adler-32. Pure stdlib; returns bytes. Its own target so the phone client
// (deskpetctl's stats charts) encodes PNGs without linking the UI; PetUI adds `encode(rgb565:)`.

public enum PNG {
    /// Encodes packed 8-bit RGB rows (`width * height * 3` bytes). Returns an empty
    /// array if the size is invalid or `rgb` is too short.
    public static func encodeRGB(width: Int, height: Int, rgb: [UInt8]) -> [UInt8] {
        guard width > 0, height > 0, width <= 0x7FFF_FFFF / 3, height <= 0x7FFF_FFFF,
              rgb.count >= width * height * 3 else { return [] }
        let raw = filterRows(width: width, height: height, rgb: rgb)
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr: [UInt8] = []
        ihdr.appendBE(UInt32(width))
        ihdr.appendBE(UInt32(height))
        ihdr += [8, 2, 0, 0, 0]   // bit depth 8, RGB, deflate, adaptive filtering, no interlace
        writeChunk("IHDR", ihdr, to: &out)
        writeChunk("IDAT", Zlib.compress(raw), to: &out)
        writeChunk("IEND", [], to: &out)
        return out
    }

    static func writeChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        out.appendBE(UInt32(data.count))
        let typeBytes = Array(type.utf8)
        var crc = CRC32()
        crc.update(typeBytes)
        crc.update(data)
        out += typeBytes
        out += data
        out.appendBE(crc.value)
    }

    // MARK: Filtering

    /// Applies the best filter to each row (minimum sum of |signed byte|) and returns
    /// the filtered scanlines, each prefixed with its filter type byte.
    public static func filterRows(width: Int, height: Int, rgb: [UInt8]) -> [UInt8] {
        let stride = width * 3
        let bpp = 3
        var out = [UInt8](repeating: 0, count: (stride + 1) * height)
        var cand = [[UInt8]](repeating: [UInt8](repeating: 0, count: stride), count: 5)
        let zero = [UInt8](repeating: 0, count: stride)
        rgb.withUnsafeBufferPointer { src in
            for y in 0..<height {
                let cur = UnsafeBufferPointer(rebasing: src[(y * stride)..<((y + 1) * stride)])
                var best = 0
                var bestScore = Int.max
                zero.withUnsafeBufferPointer { zp in
                    let prev = y > 0 ? UnsafeBufferPointer(rebasing: src[((y - 1) * stride)..<(y * stride)]) : zp
                    for f in 0..<5 {
                        var score = 0
                        cand[f].withUnsafeMutableBufferPointer { dst in
                            for i in 0..<stride {
                                let x = cur[i]
                                let a: UInt8 = i >= bpp ? cur[i - bpp] : 0
                                let b = prev[i]
                                let c: UInt8 = i >= bpp ? prev[i - bpp] : 0
                                let v: UInt8
                                switch f {
                                case 0: v = x
                                case 1: v = x &- a
                                case 2: v = x &- b
                                case 3: v = x &- UInt8((Int(a) + Int(b)) >> 1)
                                default: v = x &- paeth(a, b, c)
                                }
                                dst[i] = v
                                score += v < 128 ? Int(v) : 256 - Int(v)
                            }
                        }
                        if score < bestScore { bestScore = score; best = f }
                    }
                }
                let o = y * (stride + 1)
                out[o] = UInt8(best)
                cand[best].withUnsafeBufferPointer { bp in
                    for i in 0..<stride { out[o + 1 + i] = bp[i] }
                }
            }
        }
        return out
    }

    @inline(__always)
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}

extension Array where Element == UInt8 {
    mutating func appendBE(_ v: UInt32) {
        append(UInt8(v >> 24)); append(UInt8((v >> 16) & 0xFF))
        append(UInt8((v >> 8) & 0xFF)); append(UInt8(v & 0xFF))
    }
}

// MARK: - Checksums

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), table driven.
public struct CRC32: Sendable {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private var crc: UInt32 = 0xFFFF_FFFF
    public init() {}

    public mutating func update(_ bytes: [UInt8]) {
        var c = crc
        CRC32.table.withUnsafeBufferPointer { t in
            for b in bytes { c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        }
        crc = c
    }

    public var value: UInt32 { crc ^ 0xFFFF_FFFF }

    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var c = CRC32(); c.update(bytes); return c.value
    }
}

/// Adler-32 as used by zlib.
public enum Adler32 {
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var i = 0
        // 5552 is the largest block for which the sums cannot overflow 32 bits.
        while i < bytes.count {
            let end = min(i + 5552, bytes.count)
            while i < end { a &+= UInt32(bytes[i]); b &+= a; i += 1 }
            a %= 65521; b %= 65521
        }
        return (b << 16) | a
    }
}

// MARK: - zlib / DEFLATE

/// Writes bits least-significant first, as DEFLATE requires.
struct BitWriter {
    var bytes: [UInt8] = []
    var acc: UInt64 = 0
    var count = 0

    @inline(__always)
    mutating func write(_ value: UInt32, _ n: Int) {
        acc |= UInt64(value) << UInt64(count)
        count += n
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: acc))
            acc >>= 8
            count -= 8
        }
    }

    mutating func flush() {
        if count > 0 { bytes.append(UInt8(truncatingIfNeeded: acc)) }
        acc = 0; count = 0
    }
}

enum Zlib {
    /// zlib stream: header, DEFLATE data, Adler-32 of the uncompressed input.
    static func compress(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x9C]   // 32K window, default level; (0x789C % 31 == 0)
        let fixed = Deflate.fixedHuffman(data)
        // Incompressible input: stored blocks are smaller.
        out += fixed.count <= data.count + data.count / 65535 * 5 + 5 ? fixed : Deflate.stored(data)
        out.appendBE(Adler32.checksum(data))
        return out
    }
}

enum Deflate {
    // Length codes 257...285: base lengths and extra bits.
    static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                     3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    // Distance codes 0...29.
    static let distBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
                                  257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
                                  8193, 12289, 16385, 24577]
    static let distExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
                                   7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    static func reverse(_ v: UInt32, _ n: Int) -> UInt32 {
        var r: UInt32 = 0, x = v
        for _ in 0..<n { r = (r << 1) | (x & 1); x >>= 1 }
        return r
    }

    /// Fixed literal/length code (RFC 1951 §3.2.6), bit-reversed for LSB-first output.
    static let litCodes: [(code: UInt32, len: Int)] = (0..<288).map { s in
        switch s {
        case 0...143: return (reverse(UInt32(0x30 + s), 8), 8)
        case 144...255: return (reverse(UInt32(0x190 + s - 144), 9), 9)
        case 256...279: return (reverse(UInt32(s - 256), 7), 7)
        default: return (reverse(UInt32(0xC0 + s - 280), 8), 8)
        }
    }
    static let distCodes: [UInt32] = (0..<30).map { reverse(UInt32($0), 5) }

    /// Length (3...258) → length-code index (0...28).
    static let lengthIndex: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 259)
        for i in 0..<29 {
            let span = 1 << lengthExtra[i]
            for l in lengthBase[i]..<min(lengthBase[i] + span, 259) { t[l] = UInt8(i) }
        }
        t[258] = 28
        return t
    }()

    static func distIndex(_ d: Int) -> Int {
        // Binary search would also do; 30 entries is tiny.
        var i = 29
        while distBase[i] > d { i -= 1 }
        return i
    }

    /// Uncompressed (stored) blocks of at most 65535 bytes.
    static func stored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        repeat {
            let n = min(65535, data.count - i)
            let last = i + n >= data.count
            out.append(last ? 1 : 0)
            out += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[i..<(i + n)]
            i += n
        } while i < data.count
        return out
    }

    static let windowSize = 32768
    static let hashBits = 15
    static let maxChain = 48
    static let lazyLimit = 32     // only look one byte ahead if the match is shorter
    static let niceLength = 128   // stop searching once a match is this long

    /// One final block with fixed Huffman codes; LZ77 via hash chains and lazy matching.
    static func fixedHuffman(_ data: [UInt8]) -> [UInt8] {
        var w = BitWriter()
        w.bytes.reserveCapacity(data.count / 4 + 64)
        w.write(1, 1)  // BFINAL
        w.write(1, 2)  // BTYPE = 01 (fixed Huffman)
        let n = data.count
        let wmask = windowSize - 1
        var head = [Int32](repeating: -1, count: 1 << hashBits)
        var prev = [Int32](repeating: -1, count: windowSize)

        data.withUnsafeBufferPointer { d in
            head.withUnsafeMutableBufferPointer { head in
                prev.withUnsafeMutableBufferPointer { prev in
                    @inline(__always) func hash(_ p: Int) -> Int {
                        let v = UInt32(d[p]) << 16 | UInt32(d[p + 1]) << 8 | UInt32(d[p + 2])
                        return Int((v &* 2_654_435_761) >> UInt32(32 - hashBits))
                    }
                    @inline(__always) func insert(_ p: Int) {
                        guard p + 3 <= n else { return }
                        let h = hash(p)
                        prev[p & wmask] = head[h]
                        head[h] = Int32(p)
                    }
                    /// Longest earlier match for position p (p must not be inserted yet).
                    func longest(_ p: Int) -> (len: Int, dist: Int) {
                        guard p + 3 <= n else { return (0, 0) }
                        let maxLen = min(258, n - p)
                        var best = 0, bestDist = 0
                        var cand = Int(head[hash(p)])
                        var chain = maxChain
                        while cand >= 0 && chain > 0 {
                            let dist = p - cand
                            if dist > windowSize || dist <= 0 { break }
                            if d[cand + best] == d[p + best] || best == 0 {
                                var l = 0
                                while l < maxLen && d[cand + l] == d[p + l] { l += 1 }
                                if l > best {
                                    best = l; bestDist = dist
                                    if l >= niceLength || l == maxLen { break }
                                }
                            }
                            let next = Int(prev[cand & wmask])
                            if next >= cand { break }   // stale slot overwritten by a newer position
                            cand = next
                            chain -= 1
                        }
                        return best >= 3 ? (best, bestDist) : (0, 0)
                    }

                    var i = 0
                    while i < n {
                        var m = longest(i)
                        insert(i)
                        if m.len >= 3 && m.len < lazyLimit && i + 1 < n {
                            let m2 = longest(i + 1)
                            if m2.len > m.len {
                                emitLiteral(d[i], &w)
                                i += 1
                                insert(i)
                                m = m2
                            }
                        }
                        if m.len >= 3 {
                            emitMatch(m.len, m.dist, &w)
                            for k in (i + 1)..<(i + m.len) { insert(k) }
                            i += m.len
                        } else {
                            emitLiteral(d[i], &w)
                            i += 1
                        }
                    }
                }
            }
        }
        let eob = litCodes[256]
        w.write(eob.code, eob.len)
        w.flush()
        return w.bytes
    }

    @inline(__always)
    static func emitLiteral(_ b: UInt8, _ w: inout BitWriter) {
        let c = litCodes[Int(b)]
        w.write(c.code, c.len)
    }

    @inline(__always)
    static func emitMatch(_ len: Int, _ dist: Int, _ w: inout BitWriter) {
        let li = Int(lengthIndex[len])
        let lc = litCodes[257 + li]
        w.write(lc.code, lc.len)
        if lengthExtra[li] > 0 { w.write(UInt32(len - lengthBase[li]), lengthExtra[li]) }
        let di = distIndex(dist)
        w.write(distCodes[di], 5)
        if distExtra[di] > 0 { w.write(UInt32(dist - distBase[di]), distExtra[di]) }
    }
}
